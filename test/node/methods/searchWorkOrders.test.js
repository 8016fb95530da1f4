'use strict';
/**
 * The Work Order parameter's "From List" (listSearch.searchWorkOrders), run through n8n-core's
 * LoadOptionsContext against the strict emulator: pages of 50 newest first, selecting the
 * reference's properties (Location is the nested object), a search that matches any part of the
 * number, the location's name (Location/Name) or the store number (Location/StoreId) with
 * `contains`, digits also the ID; quotes escaped; the value it gives runs the node; the list's hint
 * says what it searches.
 */
const { useEnvironment, expectBearer, expectGet, listSearch } = require('../helpers');

const env = useEnvironment();

/** A resource locator value as n8n's editor stores it. */
const rl = (mode, value, extra = {}) => ({ __rl: true, mode, value, ...extra });

/** The $filter of a text search. */
const searchFilter = (text) =>
	['Number', 'Location/Name', 'Location/StoreId']
		.map((p) => `contains(${p},'${text.replace(/'/g, "''")}')`)
		.join(' or ');

describe('Work Order parameter: From List (listSearch.searchWorkOrders through n8n-core)', () => {
	const PARAMS = { resource: 'workOrder', operation: 'get', workOrderId: rl('list', '') };
	const search = (filter, token) =>
		listSearch(env, 'searchWorkOrders', PARAMS, 'workOrderId', filter, token);
	const subscriberWorkOrders = () =>
		Object.values(env.emulator.state.workOrders).filter((w) => w.SubscriberId === 1001);
	const nameOf = (w) =>
		`${w.Number} · ${w.Trade} / ${w.Category} · ${w.Location.Name} · ${w.Status.Primary}`;
	const listQuery = (extra = {}) => ({
		$top: '50',
		$skip: '0',
		$orderby: 'UpdatedDate desc',
		$select: 'Id,Number,Trade,Category,Status,Location',
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
		// newest change first (instants of the _DTO twins, which carry the offset)
		const updated = first.results.map((x) =>
			Date.parse(env.emulator.state.workOrders[Number(x.value)].UpdatedDate_DTO),
		);
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

	test('"Dallas" finds the work orders of "Store #501 Dallas Downtown" (any part of the location name)', async () => {
		const found = await search('Dallas');
		expect(apiCalls()[0].query).toEqual(listQuery({ $filter: searchFilter('Dallas') }));
		expect(apiCalls()[0].status).toBe(200);
		const expected = subscriberWorkOrders()
			.filter((w) => w.Location.Name === 'Store #501 Dallas Downtown')
			.sort((a, b) => Date.parse(b.UpdatedDate_DTO) - Date.parse(a.UpdatedDate_DTO) || a.Id - b.Id);
		expect(expected.length).toBeGreaterThan(10);
		expect(found.results.map((x) => x.value)).toEqual(
			expected.slice(0, 50).map((w) => String(w.Id)),
		);
		expect(found.results.every((x) => x.name.includes('· Store #501 Dallas Downtown ·'))).toBe(
			true,
		);
	});

	test('lower case and a part of a word find it too ("dallas down"), as do part of a store number ("S50") and of a number', async () => {
		const downtown = await search('dallas down');
		expect(downtown.results.length).toBeGreaterThan(0);
		expect(
			downtown.results.every(
				(x) => env.emulator.state.workOrders[Number(x.value)].LocationId === 501,
			),
		).toBe(true);

		env.emulator.clearRequests();
		const store = await search('S502');
		expect(apiCalls()[0].query.$filter).toBe(searchFilter('S502'));
		expect(store.results.length).toBeGreaterThan(0);
		expect(
			store.results.every(
				(x) => env.emulator.state.workOrders[Number(x.value)].Location.StoreId === 'S502',
			),
		).toBe(true);

		env.emulator.clearRequests();
		const part = await search('0000011');
		// digits: the ID, and any part of the number (9000001 1, 90000011x, ...)
		expect(apiCalls()[0].query.$filter).toBe(`Id eq 11 or ${searchFilter('0000011')}`);
		const ids = part.results.map((x) => Number(x.value)).sort((a, b) => a - b);
		expect(ids).toEqual(
			subscriberWorkOrders()
				.filter((w) => w.Number.includes('0000011'))
				.map((w) => w.Id)
				.sort((a, b) => a - b),
		);
	});

	test('searching a work order number finds that work order; its value runs the node', async () => {
		const w = env.emulator.state.workOrders[90000003];
		const found = await search(w.Number);
		expect(apiCalls()[0].query).toEqual(
			listQuery({ $filter: `Id eq 90000003 or ${searchFilter(w.Number)}` }),
		);
		expect(found).toEqual({
			results: [{ name: nameOf(w), value: '90000003' }],
			paginationToken: undefined,
		});
		const r = await env.run({
			parameters: {
				...PARAMS,
				simplify: false,
				workOrderId: rl('list', found.results[0].value, {
					cachedResultName: found.results[0].name,
				}),
			},
		});
		expect(r.api.map((q) => q.path)).toEqual(['/api/v3/workorders/90000003']);
		expect(r.output[0].json.Location.Name).toBe(w.Location.Name);
	});

	test("quotes in the search text are escaped (O'Neil), nothing found is an empty list", async () => {
		const found = await search("O'Neil");
		expect(apiCalls()[0].status).toBe(200);
		expect(apiCalls()[0].query.$filter).toBe(searchFilter("O'Neil"));
		expect(found).toEqual({ results: [], paginationToken: undefined });
	});

	test("the list mode's hint says what the search matches", () => {
		const type = env.harness.nodeTypes.getByNameAndVersion(
			env.harness.nodeType('workOrderService'),
			1,
		);
		const locator = type.description.properties.find((p) => p.name === 'workOrderId');
		const list = locator.modes.find((m) => m.name === 'list');
		expect(list.hint).toMatch(/work order number, location name or store number/);
		expect(list.hint).toMatch(/ID/);
	});
});
