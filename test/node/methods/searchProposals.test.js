'use strict';
/**
 * The Proposal parameter's "From List" (listSearch.searchProposals), run through n8n-core's
 * LoadOptionsContext against the emulator: most recently changed first, search by ID, number,
 * status or store, quotes escaped, pages of 50; the value it gives runs the node.
 */
const { useEnvironment, expectBearer, expectGet, listSearch } = require('../helpers');

const env = useEnvironment();
const rl = (mode, value) => ({ __rl: true, mode, value });

describe('Proposal parameter: From List (listSearch.searchProposals through n8n-core)', () => {
	const PARAMS = { resource: 'proposal', operation: 'approve', proposalId: rl('list', '') };
	const search = (filter, token) =>
		listSearch(env, 'searchProposals', PARAMS, 'proposalId', filter, token);
	const listQuery = (extra = {}) => ({
		$top: '50',
		$skip: '0',
		$orderby: 'UpdatedDateDto desc',
		$select: 'Id,Number,Description,Amount,Status',
		$count: 'true',
		...extra,
	});
	const apiCalls = () => env.emulator.requests.filter((q) => q.path.startsWith('/api/'));
	const nameOf = (p) => `${p.Number} (ID ${p.Id}) · ${p.Description} · ${p.Amount} · ${p.Status}`;

	test('no search text: the user\'s proposals, most recently changed first, named "number (ID) · description · amount · status"', async () => {
		env.emulator.clearRequests();
		env.emulator.advanceTime(60);
		env.emulator.setProposalStatus(61003, 'OnHold');
		const result = await search(undefined, undefined);
		expect(apiCalls()).toHaveLength(1);
		expectGet(apiCalls()[0], { path: '/api/v3/odata/proposals', query: listQuery() });
		expectBearer(env, apiCalls()[0]);
		const mine = Object.values(env.emulator.state.proposals).filter((p) => p.SubscriberId === 1001);
		expect(result.results).toHaveLength(mine.length);
		expect(result.results[0]).toEqual({
			name: nameOf(env.emulator.state.proposals[61003]),
			value: '61003',
		});
		expect(result.results.map((x) => x.value).sort()).toEqual(mine.map((p) => String(p.Id)).sort());
		expect(result.paginationToken).toBeUndefined();
		env.emulator.state.proposals[61003].Status = 'Open';
	});

	test.each([
		['an ID', '61005', "Id eq 61005 or Number eq '61005'", ['61005']],
		[
			'a number',
			'P-61002',
			"Number eq 'P-61002' or Status/Primary eq 'P-61002' or Location/StoreId eq 'P-61002' or Location/Name eq 'P-61002'",
			['61002'],
		],
		[
			'a status, in any case',
			'rejected',
			"Number eq 'rejected' or Status/Primary eq 'rejected' or Location/StoreId eq 'rejected' or Location/Name eq 'rejected'",
			['61007'],
		],
		[
			'a store',
			'S504',
			"Number eq 'S504' or Status/Primary eq 'S504' or Location/StoreId eq 'S504' or Location/Name eq 'S504'",
			['61001', '61002'],
		],
		[
			'a quote',
			"O'Brien",
			"Number eq 'O''Brien' or Status/Primary eq 'O''Brien' or Location/StoreId eq 'O''Brien' or Location/Name eq 'O''Brien'",
			[],
		],
		['digits too long for an ID', '99999999999', "Number eq '99999999999'", []],
	])('searching %s: one $filter; the matches', async (_name, text, filter, values) => {
		env.emulator.clearRequests();
		const result = await search(text);
		expect(apiCalls().map((q) => q.query)).toEqual([listQuery({ $filter: filter })]);
		expect(result.results.map((x) => x.value).sort()).toEqual(values);
	});

	test('more than 50 proposals: pages of 50 with the number read as the page token', async () => {
		const created = [];
		for (let k = 0; k < 55; k++)
			created.push(env.emulator.createProposal({ WorkOrderId: 90000001 }).Id);
		try {
			env.emulator.clearRequests();
			const first = await search('Open');
			expect(first.results).toHaveLength(50);
			expect(first.paginationToken).toBe('50');
			const second = await search('Open', first.paginationToken);
			expect(apiCalls().map((q) => q.query.$skip)).toEqual(['0', '50']);
			expect(second.paginationToken).toBeUndefined();
			const values = [...first.results, ...second.results].map((x) => Number(x.value));
			expect(new Set(values).size).toBe(values.length);
			expect(values).toEqual(expect.arrayContaining(created));
		} finally {
			for (const id of created) delete env.emulator.state.proposals[id];
		}
	});

	test('the value a search gives runs the node (approve the proposal chosen From List)', async () => {
		const [chosen] = (await search('61002')).results;
		// 61002 is on hold: approving it is a move the service accepts (putting it on hold again it refuses)
		const r = await env.run({
			parameters: {
				resource: 'proposal',
				operation: 'approve',
				proposalId: rl('list', chosen.value),
			},
		});
		expect(r.error).toBeUndefined();
		expect(r.api.map((q) => `${q.method} ${q.path} ${q.status}`)).toEqual([
			'PUT /api/v3/proposals/61002/approve 204',
		]);
		expect(env.emulator.state.proposals[61002].Status).toBe('Approved');
	});
});
