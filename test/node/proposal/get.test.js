'use strict';
/**
 * proposal.get: the reference has no single-proposal read, so the node asks the OData list for one
 * Id; the item is the proposal (compact with Simplify, whole without); no such proposal is a clear
 * error; a void one is the service's 400; bad IDs are refused before any request.
 */
const { NodeApiError, NodeOperationError } = require('n8n-workflow');
const {
	useEnvironment,
	items,
	expectBearer,
	expectGet,
	pairedIndexes,
	expectValidationError,
	expectApiError,
} = require('../helpers');
const { served, COMPACT, compactOf } = require('./proposals');
const { PROPOSAL_PROPS } = require('../../emulator/api-proposals');

const env = useEnvironment();
const rl = (mode, value) => ({ __rl: true, mode, value });
const get = (proposalId, extra = {}) =>
	env.run({ parameters: { resource: 'proposal', operation: 'get', proposalId, ...extra } });

describe('proposal.get', () => {
	test('From List: GET /odata/proposals?$filter=Id eq 61001; Simplify (default) gives the compact proposal', async () => {
		const r = await get(rl('list', '61001'));
		expect(r.error).toBeUndefined();
		expect(r.api).toHaveLength(1);
		expectGet(r.api[0], { path: '/api/v3/odata/proposals', query: { $filter: 'Id eq 61001' } });
		expectBearer(env, r.api[0]);
		const [proposal] = served(r.api[0]).value;
		expect(r.output).toEqual([{ json: compactOf(proposal), pairedItem: { item: 0 } }]);
		expect(Object.keys(r.output[0].json)).toEqual(Object.keys(COMPACT));
		expect(r.output[0].json).toMatchObject({
			Id: 61001,
			Number: 'P-61001',
			Amount: 1200,
			Status: { Primary: 'Open' },
			WorkOrder: { Id: 90000006 },
			Location: { Id: 504 },
			Provider: { Id: 3001, Name: 'Acme Facility Services' },
			Currency: { AlphabeticalCode: 'USD' },
		});
		expect(r.output[0].json.UpdatedDateDto).toMatch(/[+-]\d\d:\d\d$/);
		expect(Object.keys(r.output[0].json).length).toBeLessThanOrEqual(10);
	});

	test('Simplify off: the whole proposal as the service answered it, every property of the reference', async () => {
		const r = await get(rl('id', '61005'), { simplify: false });
		expect(r.error).toBeUndefined();
		const [proposal] = served(r.api[0]).value;
		expect(r.output.map((o) => o.json)).toEqual([proposal]);
		expect(Object.keys(r.output[0].json).sort()).toEqual([...PROPOSAL_PROPS].sort());
		expect(r.output[0].json.WorkOrder.Id).toBe(90000008);
		expect(r.output[0].json.Attachments.map((a) => a.Name)).toEqual(['rooftop-unit.jpg']);
	});

	test('no such proposal (or one of another subscriber): a clear error naming the ID, after one read', async () => {
		for (const id of ['69999', String(env.fixtures.proposals.child2001)]) {
			const r = await get(rl('id', id));
			expect(r.result.status).toBe('error');
			expect(r.error).toBeInstanceOf(NodeOperationError);
			expect(r.error.message).toBe(`Proposal ${id} was not found`);
			expect(r.error.description).toMatch(/no proposal with this ID for this user.*90 days/);
			expect(r.error.context.itemIndex).toBe(0);
			expect(r.api.map((q) => `${q.method} ${q.path} ${q.query.$filter} ${q.status}`)).toEqual([
				`GET /api/v3/odata/proposals Id eq ${id} 200`,
			]);
		}
	});

	test('a void proposal: the service answers the list 400, reported with its words', async () => {
		env.emulator.setProposalStatus(61007, 'Voided');
		try {
			const r = await get(rl('id', '61007'));
			expectApiError(r, { status: 400, serviceMessage: 'Proposal 61007 is void' });
			expect(r.error).toBeInstanceOf(NodeApiError);
		} finally {
			env.emulator.state.proposals[61007].Status = 'Rejected';
		}
	});

	test.each([
		['By ID 0 from an expression', rl('id', '={{ 0 }}'), /1 or greater/],
		['a fraction', rl('id', '={{ "61001.5" }}'), /positive whole number/],
		['text', '={{ "P-61001" }}', /positive whole number/],
	])('%s is refused before any request', async (_name, proposalId, problem) => {
		const r = await get(proposalId);
		expectValidationError(r, { parameter: 'proposalId', item: 0, problem });
		expect(r.api).toHaveLength(0);
	});

	test('several items with Continue On Fail: found, not found and invalid each give one item, in order', async () => {
		const r = await env.run({
			parameters: {
				resource: 'proposal',
				operation: 'get',
				proposalId: rl('id', '={{ $json.id }}'),
			},
			items: items({ id: 61002 }, { id: 69998 }, { id: 'x' }, { id: '61003' }),
			continueOnFail: true,
		});
		expect(r.result.status).toBe('success');
		expect(r.api.map((q) => q.query.$filter)).toEqual([
			'Id eq 61002',
			'Id eq 69998',
			'Id eq 61003',
		]);
		expect(pairedIndexes(r.output)).toEqual([0, 1, 2, 3]);
		expect(r.output[0].json).toMatchObject({ Id: 61002, Status: { Primary: 'OnHold' } });
		expect(r.output[1].json).toEqual({
			error: 'Proposal 69998 was not found',
			errorDescription: expect.stringMatching(/90 days/),
		});
		expect(r.output[2].json.error).toContain(
			'Invalid Proposal ID (parameter "proposalId") in item 2',
		);
		expect(r.output[3].json).toMatchObject({ Id: 61003 });
	});
});
