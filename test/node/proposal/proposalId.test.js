'use strict';
/**
 * The Proposal ID parameter that every proposal operation has: the ID written to is exactly the one
 * given (text, numbers kept from older workflows, expressions); 0, empty and blank are refused
 * before any request and no proposal changes.
 */
const { useEnvironment, expectValidationError } = require('../helpers');
const { params } = require('./statusChange');

const env = useEnvironment();

describe('proposal: the ID written to is exactly the one given', () => {
	const statuses = () => Object.fromEntries(Object.entries(env.emulator.state.proposals).map(([id, p]) => [id, p.Status]));

	test.each([
		['typed in the field ("0")', '0'],
		['typed with spaces (" 0 ")', ' 0 '],
		['kept from an older workflow (the number 0)', 0],
		['from an expression', '={{ 0 }}'],
	])('Proposal ID 0 %s is refused before any request; no proposal changes (it used to become 1)', async (_name, proposalId) => {
		const before = statuses();
		const r = await env.run({ parameters: params('approve', proposalId) });
		expectValidationError(r, { parameter: 'proposalId', item: 0, problem: /must be 1 or greater, got/ });
		expect(r.error.message).toMatch(/^Invalid Proposal ID \(parameter "proposalId"\) in item 0: must be 1 or greater, got /);
		expect(r.api).toHaveLength(0);
		expect(statuses()).toEqual(before);
	});

	test.each([
		['typed as text (the field is text)', '61006', 61006],
		['typed with spaces', ' 61007 ', 61007],
		['a number kept from an older workflow', 61008, 61008],
		['a digit string from an expression', '={{ "61006" }}', 61006],
	])('Proposal ID %s: PUT /proposals/%s', async (_name, proposalId, expected) => {
		const r = await env.run({ parameters: params('putOnHold', proposalId) });
		expect(r.error).toBeUndefined();
		expect(r.api.map((q) => `${q.method} ${q.path}`)).toEqual([`PUT /api/v3/proposals/${expected}/onhold`]);
		expect(r.output[0].json).toEqual({ proposalId: expected, status: 'onHold', success: true });
	});

	test('Proposal ID left empty: n8n itself refuses to run the node, nothing is sent', async () => {
		env.emulator.clearRequests();
		await expect(env.run({ parameters: params('approve', '') })).rejects.toThrow('Parameter "Proposal ID" is required');
		expect(env.emulator.requests.filter((q) => q.path.startsWith('/api/'))).toHaveLength(0);
	});

	test('Proposal ID of only spaces is refused by the node, nothing is sent', async () => {
		const r = await env.run({ parameters: params('approve', '   ') });
		expectValidationError(r, { parameter: 'proposalId', item: 0, problem: /not empty/ });
		expect(r.api).toHaveLength(0);
	});
});
