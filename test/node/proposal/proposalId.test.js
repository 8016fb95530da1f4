'use strict';
/**
 * The Proposal parameter every proposal operation has (proposalId, a resource locator: From List /
 * By ID): the ID written to is exactly the one given (a locator value, text, numbers kept from older
 * workflows, expressions); 0, empty and blank are refused before any request and no proposal
 * changes. The From List search: test/node/methods/searchProposals.test.js.
 */
const { useEnvironment, items, expectValidationError } = require('../helpers');
const { params, awayFrom } = require('./statusChange');

const env = useEnvironment();

/** A resource locator value as n8n's editor stores it. */
const rl = (mode, value, extra = {}) => ({ __rl: true, mode, value, ...extra });

describe('proposal: the ID written to is exactly the one given', () => {
	const statuses = () =>
		Object.fromEntries(
			Object.entries(env.emulator.state.proposals).map(([id, p]) => [id, p.Status]),
		);

	test.each([
		['typed in the field ("0")', '0'],
		['typed with spaces (" 0 ")', ' 0 '],
		['from an expression', '={{ 0 }}'],
		['By ID "0" from an expression', rl('id', '={{ "0" }}')],
	])(
		'Proposal ID 0 %s is refused before any request; no proposal changes (it used to become 1)',
		async (_name, proposalId) => {
			const before = statuses();
			const r = await env.run({ parameters: params('approve', proposalId) });
			expectValidationError(r, {
				parameter: 'proposalId',
				item: 0,
				problem: /must be 1 or greater, got/,
			});
			expect(r.error.message).toMatch(
				/^Invalid Proposal ID \(parameter "proposalId"\) in item 0: must be 1 or greater, got /,
			);
			expect(r.api).toHaveLength(0);
			expect(statuses()).toEqual(before);
		},
	);

	test.each([
		[
			'chosen From List (the value the list gave, with its cached name)',
			rl('list', '61006', { cachedResultName: 'P-61006 (ID 61006) · Capacitor and contactor' }),
			61006,
		],
		['By ID', rl('id', '61007'), 61007],
		['By ID with spaces around the digits', rl('id', ' 61008 '), 61008],
		['By ID from an expression returning a number', rl('id', '={{ 61000 + 6 }}'), 61006],
		['typed as text (workflows saved before the locator)', '61006', 61006],
		['typed with spaces', ' 61007 ', 61007],
		['a number kept from an older workflow', 61008, 61008],
		['a digit string from an expression', '={{ "61006" }}', 61006],
	])('Proposal %s: PUT /proposals/%s', async (_name, proposalId, expected) => {
		awayFrom(env, 'putOnHold', expected); // the service refuses a move to the current status
		const r = await env.run({ parameters: params('putOnHold', proposalId) });
		expect(r.error).toBeUndefined();
		expect(r.api.map((q) => `${q.method} ${q.path}`)).toEqual([
			`PUT /api/v3/proposals/${expected}/onhold`,
		]);
		expect(r.output[0].json).toEqual({
			success: true,
			operation: 'putOnHold',
			proposalId: expected,
			status: 'onHold',
		});
	});

	test('IDs from the items, mixed digit strings and numbers, each reach their own proposal', async () => {
		awayFrom(env, 'reopen', 61002, 61006, 61007);
		const r = await env.run({
			parameters: params('reopen', rl('id', '={{ $json.id }}')),
			items: items({ id: '61002' }, { id: 61006 }, { id: ' 61007 ' }),
		});
		expect(r.error).toBeUndefined();
		expect(r.api.map((q) => q.path)).toEqual([
			'/api/v3/proposals/61002/open',
			'/api/v3/proposals/61006/open',
			'/api/v3/proposals/61007/open',
		]);
	});

	test.each([
		['left empty (plain)', ''],
		['nothing chosen in From List', rl('list', '')],
		['By ID left empty', rl('id', '')],
		['a plain 0 (an old workflow that kept the number 0)', 0],
	])(
		'Proposal %s: n8n itself refuses to run the node (a parameter issue), nothing is sent',
		async (_name, proposalId) => {
			env.emulator.clearRequests();
			await expect(env.run({ parameters: params('approve', proposalId) })).rejects.toThrow(
				'Parameter "Proposal" is required',
			);
			expect(env.emulator.requests.filter((q) => q.path.startsWith('/api/'))).toHaveLength(0);
		},
	);

	test.each([
		['By ID "0" typed', rl('id', '0')],
		['By ID with letters', rl('id', 'P-61001')],
	])("%s fails the mode's digits check in n8n, nothing is sent", async (_name, proposalId) => {
		env.emulator.clearRequests();
		await expect(env.run({ parameters: params('approve', proposalId) })).rejects.toThrow(
			'Not a proposal ID: enter digits only',
		);
		expect(env.emulator.requests.filter((q) => q.path.startsWith('/api/'))).toHaveLength(0);
	});

	test('Proposal ID of only spaces is refused by the node, nothing is sent', async () => {
		const r = await env.run({ parameters: params('approve', '   ') });
		expectValidationError(r, { parameter: 'proposalId', item: 0, problem: /not empty/ });
		expect(r.api).toHaveLength(0);
	});
});
