'use strict';
/**
 * The Work Order parameter's "From List" (listSearch.searchWorkOrders), run through n8n-core's
 * LoadOptionsContext against the emulator: pages of 50 newest first, search by number or word,
 * quotes escaped; the value it gives runs the node.
 */
const { useEnvironment, expectBearer, expectGet, listSearch } = require('../helpers');

const env = useEnvironment();

/** A resource locator value as n8n's editor stores it. */
const rl = (mode, value, extra = {}) => ({ __rl: true, mode, value, ...extra });

describe('Work Order parameter: From List (listSearch.searchWorkOrders through n8n-core)', () => {
	const PARAMS = { resource: 'workOrder', operation: 'get', workOrderId: rl('list', '') };
	const search = (filter, token) => listSearch(env, 'searchWorkOrders', PARAMS, 'workOrderId', filter, token);
	const subscriberWorkOrders = () => Object.values(env.emulator.state.workOrders).filter((w) => w.SubscriberId === 1001);
	const nameOf = (w) => `${w.Number} · ${w.Trade} / ${w.Category} · ${w.LocationName} · ${w.Status.Primary}`;
	const listQuery = (extra = {}) => ({
		$top: '50',
		$skip: '0',
		$orderby: 'UpdatedDate desc',
		$select: 'Id,Number,Trade,Category,LocationName,Status',
		$count: 'true',
		...extra,
	});
	const apiCalls = () => env.emulator.requests.filter((q) => q.path.startsWith('/api/'));

	test('no search text: the 50 most recently changed work orders, named "number · trade / category · location · status"; then the next pages', async () => {
		const all = subscriberWorkOrders();
		const first = await search(undefined, undefined);
		expect(apiCalls()).toHaveLength(1);
		expectGet(apiCalls()[0], { path: '/api/v3/odata/workorders', query: listQuery() });
		expectBearer(env, apiCalls()[0]);
		expect(first.results).toHaveLength(50);
		expect(first.paginationToken).toBe('50');
		for (const result of first.results) {
			const w = env.emulator.state.workOrders[Number(result.value)];
			expect(result).toEqual({ name: nameOf(w), value: String(w.Id) });
		}
		// newest change first
		const updated = first.results.map((x) => Date.parse(env.emulator.state.workOrders[Number(x.value)].UpdatedDateDto));
		expect([...updated].sort((a, b) => b - a)).toEqual(updated);

		env.emulator.clearRequests();
		const second = await search(undefined, first.paginationToken);
		expect(apiCalls()[0].query).toEqual(listQuery({ $skip: '50' }));
		expect(second.paginationToken).toBe('100');
		env.emulator.clearRequests();
		const third = await search(undefined, second.paginationToken);
		expect(apiCalls()[0].query).toEqual(listQuery({ $skip: '100' }));
		expect(third.results).toHaveLength(all.length - 100);
		expect(third.paginationToken).toBeUndefined();
		// every work order of the subscriber, once
		const values = [...first.results, ...second.results, ...third.results].map((x) => x.value);
		expect(new Set(values).size).toBe(all.length);
		expect(values.sort()).toEqual(all.map((w) => String(w.Id)).sort());
	});

	test('searching a work order number finds that work order; its value runs the node', async () => {
		const w = env.emulator.state.workOrders[90000003];
		const found = await search(w.Number);
		expect(apiCalls()[0].query).toEqual(listQuery({ $filter: `Id eq 90000003 or Number eq '${w.Number}'` }));
		expect(found).toEqual({ results: [{ name: nameOf(w), value: '90000003' }], paginationToken: undefined });
		const r = await env.run({ parameters: { ...PARAMS, simplify: false, workOrderId: rl('list', found.results[0].value, { cachedResultName: found.results[0].name }) } });
		expect(r.api.map((q) => q.path)).toEqual(['/api/v3/workorders/90000003']);
		expect(r.output[0].json.LocationName).toBe(w.LocationName);
	});

	test('searching a word matches trade, category, status, location or store exactly, ignoring case', async () => {
		const found = await search(' plumbing ');
		const filter = apiCalls()[0].query.$filter;
		expect(filter).toBe(
			"Number eq 'plumbing' or PurchaseNumber eq 'plumbing' or Trade eq 'plumbing' or Category eq 'plumbing' or Status/Primary eq 'plumbing' or LocationName eq 'plumbing' or StoreId eq 'plumbing'",
		);
		const expected = subscriberWorkOrders().filter((w) => w.Trade === 'PLUMBING');
		expect(expected.length).toBeGreaterThan(1);
		expect(found.results.map((x) => x.value).sort()).toEqual(expected.map((w) => String(w.Id)).sort());
		expect(found.results.every((x) => x.name.includes('PLUMBING / '))).toBe(true);

		const store = await search('S502');
		expect(store.results.length).toBeGreaterThan(0);
		expect(store.results.every((x) => env.emulator.state.workOrders[Number(x.value)].LocationId === 502)).toBe(true);
	});

	test("quotes in the search text are escaped (O'Neil), nothing found is an empty list", async () => {
		const found = await search("O'Neil");
		expect(apiCalls()[0].status).toBe(200);
		expect(apiCalls()[0].query.$filter).toContain("Number eq 'O''Neil'");
		expect(found).toEqual({ results: [], paginationToken: undefined });
	});
});
