'use strict';
/**
 * proposal.getAll: GET /odata/proposals paged with $top/$skip; the Filters become one $filter over
 * the reference's Proposal properties (dates on the offset twins, literals with an explicit offset);
 * Simplify; the user's own OData options; bad filters refused before any request.
 */
const { NodeApiError } = require('n8n-workflow');
const { deliberately } = require('../../contract');
const {
	useEnvironment,
	items,
	expectBearer,
	expectGet,
	pairedIndexes,
	expectValidationError,
} = require('../helpers');
const { served, compactOf, runInZone, listedProposals } = require('./proposals');

const env = useEnvironment();
const getAll = (extra = {}, spec = {}) =>
	env.run({
		parameters: { resource: 'proposal', operation: 'getAll', returnAll: true, ...extra },
		...spec,
	});
const PAGE = { $top: '50', $skip: '0', $count: 'true' };

/** The stored proposal's work order and its location. */
const workOrderOf = (p) => env.emulator.state.workOrders[p.WorkOrderId];

describe('proposal.getAll', () => {
	test('no filters: one page request; every proposal the user sees (void ones are not listed), compact', async () => {
		const r = await getAll();
		expect(r.error).toBeUndefined();
		expect(r.api).toHaveLength(1);
		expectGet(r.api[0], { path: '/api/v3/odata/proposals', query: PAGE });
		expectBearer(env, r.api[0]);
		expect(r.output.map((o) => o.json.Id)).toEqual(listedProposals(env));
		expect(r.output.map((o) => o.json)).toEqual(served(r.api[0]).value.map(compactOf));
		expect(new Set(pairedIndexes(r.output))).toEqual(new Set([0]));
	});

	test("every filter: one $filter, dates on the offset twins with an explicit offset; the service's matches reach the items", async () => {
		const r = await getAll({
			filters: {
				statuses: ['Open', 'OnHold'],
				locationIds: '504, 501',
				workOrderIds: '90000006,90000010, 90000008',
				providerIds: '3001',
				createdAfter: '2020-01-01T00:00:00-05:00',
				createdBefore: '2100-01-01T00:00:00Z',
				minAmount: 500,
				maxAmount: 1500.5,
			},
		});
		expect(r.error).toBeUndefined();
		expect(r.api).toHaveLength(1);
		expect(r.api[0].query).toEqual({
			...PAGE,
			$filter:
				"(Status/Primary eq 'Open' or Status/Primary eq 'OnHold') and (Location/Id eq 504 or Location/Id eq 501) and " +
				'(WorkOrder/Id eq 90000006 or WorkOrder/Id eq 90000010 or WorkOrder/Id eq 90000008) and Provider/Id eq 3001 and ' +
				'CreatedDate_dto ge 2020-01-01T05:00:00.000Z and CreatedDate_dto lt 2100-01-01T00:00:00.000Z and Amount ge 500 and Amount le 1500.5',
		});
		const expected = listedProposals(
			env,
			(p) =>
				['Open', 'OnHold'].includes(p.Status) &&
				[504, 501].includes(workOrderOf(p)?.LocationId) &&
				[90000006, 90000010, 90000008].includes(p.WorkOrderId) &&
				p.ProviderId === 3001 &&
				p.Amount >= 500 &&
				p.Amount <= 1500.5,
		);
		expect(expected).toEqual([61001, 61002]);
		expect(r.output.map((o) => o.json.Id)).toEqual(expected);
	});

	test('store IDs and an own OData clause (ANDed in parentheses); a status typed in an expression', async () => {
		const r = await getAll({
			filters: { storeIds: 'S504', statuses: '={{ ["Open"] }}' },
			options: { filter: ' Amount gt 700 or Amount lt 10 ' },
		});
		expect(r.error).toBeUndefined();
		expect(r.api[0].query.$filter).toBe(
			"Status/Primary eq 'Open' and Location/StoreId eq 'S504' and (Amount gt 700 or Amount lt 10)",
		);
		expect(r.output.map((o) => o.json.Id)).toEqual([61001]);
	});

	test("dates without an offset are read in the workflow's time zone (Berlin: 00:00 is 23:00Z the day before, 22:00Z in summer)", async () => {
		const r = await runInZone(env, 'Europe/Berlin', {
			parameters: {
				resource: 'proposal',
				operation: 'getAll',
				returnAll: true,
				filters: { createdAfter: '2026-01-15T00:00:00', updatedBefore: '2026-07-01T00:00:00' },
			},
		});
		expect(r.error).toBeUndefined();
		expect(r.api[0].query.$filter).toBe(
			'CreatedDate_dto ge 2026-01-14T23:00:00.000Z and UpdatedDateDto lt 2026-06-30T22:00:00.000Z',
		);
	});

	test("Return All pages with $skip until the service's count is reached; Limit asks for the rest only", async () => {
		const created = [];
		for (let k = 0; k < 60; k++)
			created.push(
				env.emulator.createProposal({ WorkOrderId: 90000001 + (k % 5), Amount: 100 + k }).Id,
			);
		try {
			const all = await getAll({
				filters: { workOrderIds: '90000001,90000002,90000003,90000004,90000005' },
			});
			expect(all.error).toBeUndefined();
			expect(all.api.map((q) => [q.query.$top, q.query.$skip])).toEqual([
				['50', '0'],
				['50', '50'],
			]);
			expect(all.output.map((o) => o.json.Id)).toEqual(
				listedProposals(
					env,
					(p) => created.includes(p.Id) || (p.WorkOrderId >= 90000001 && p.WorkOrderId <= 90000005),
				),
			);
			expect(all.output).toHaveLength(62); // the 60 new ones and the fixture's 61006 (on 90000005) and 61007 (on 90000004)
			const limited = await getAll({
				returnAll: false,
				limit: 55,
				filters: { workOrderIds: '90000001,90000002,90000003,90000004,90000005' },
			});
			expect(limited.api.map((q) => [q.query.$top, q.query.$skip])).toEqual([
				['50', '0'],
				['5', '50'],
			]);
			expect(limited.output.map((o) => o.json.Id)).toEqual(
				all.output.slice(0, 55).map((o) => o.json.Id),
			);
		} finally {
			for (const id of created) delete env.emulator.state.proposals[id];
		}
	});

	test("Simplify off, with Order By and Select: the records as served, in the service's order", async () => {
		const r = await getAll({
			simplify: false,
			options: { orderBy: 'Amount desc', select: 'Id,Amount,Status' },
		});
		expect(r.error).toBeUndefined();
		expect(r.api[0].query).toEqual({
			...PAGE,
			$orderby: 'Amount desc',
			$select: 'Id,Amount,Status',
		});
		expect(r.output.map((o) => o.json)).toEqual(served(r.api[0]).value);
		expect(Object.keys(r.output[0].json)).toEqual(['Id', 'Amount', 'Status']);
		const amounts = r.output.map((o) => o.json.Amount);
		expect(amounts).toEqual([...amounts].sort((a, b) => b - a));
	});

	test('an OData clause the service refuses (unknown property): its 400 with its words', async () => {
		const r = await deliberately('StoreNumber is not a Proposal property', () =>
			getAll({ options: { filter: 'StoreNumber eq 5' } }),
		);
		expect(r.error).toBeInstanceOf(NodeApiError);
		expect(r.error.httpCode).toBe('400');
		expect(r.error.message).toMatch(/could not find a property named 'StoreNumber'/i);
	});

	test.each([
		[{ locationIds: '504, abc' }, 'filters.locationIds', /positive whole number/],
		[{ providerIds: '0' }, 'filters.providerIds', /1 or greater/],
		[{ statuses: ["Open') or (1 eq 1"] }, 'filters.statuses', /status names/],
		[{ minAmount: 900, maxAmount: 100 }, 'filters.maxAmount', /not be below Minimum Amount/],
		[{ minAmount: -5 }, 'filters.minAmount', /from 0 to/],
		[
			{ createdAfter: '2026-03-01T00:00:00Z', createdBefore: '2026-02-01T00:00:00Z' },
			'filters.createdBefore',
			/later than Created After/,
		],
		[{ updatedAfter: 'last tuesday' }, 'filters.updatedAfter', /date-time/],
	])(
		'bad filter %j is refused before any request, naming %s',
		async (filters, parameter, problem) => {
			const r = await getAll({ filters });
			expectValidationError(r, { parameter, item: 0, problem });
			expect(r.api).toHaveLength(0);
		},
	);

	test('a store ID with a quote is sent as one OData string (quote doubled)', async () => {
		const r = await getAll({ filters: { storeIds: "O'Hare 1" } });
		expect(r.error).toBeUndefined();
		expect(r.api[0].query.$filter).toBe("Location/StoreId eq 'O''Hare 1'");
		expect(r.output).toEqual([]);
	});

	test('Continue On Fail: an item with a bad filter gives an error item, the others their proposals', async () => {
		const r = await env.run({
			parameters: {
				resource: 'proposal',
				operation: 'getAll',
				returnAll: true,
				filters: { locationIds: '={{ $json.loc }}' },
			},
			items: items({ loc: '504' }, { loc: 'x' }, { loc: '502' }),
			continueOnFail: true,
		});
		expect(r.result.status).toBe('success');
		expect(r.api.map((q) => q.query.$filter)).toEqual(['Location/Id eq 504', 'Location/Id eq 502']);
		const by = (i) =>
			r.output.filter((o) => o.pairedItem.item === i).map((o) => o.json.Id ?? o.json.error);
		expect(by(0)).toEqual(listedProposals(env, (p) => workOrderOf(p)?.LocationId === 504));
		expect(by(1)).toEqual([
			expect.stringContaining('Invalid Location IDs (parameter "filters.locationIds") in item 1'),
		]);
		expect(by(2)).toEqual(listedProposals(env, (p) => workOrderOf(p)?.LocationId === 502));
	});
});
