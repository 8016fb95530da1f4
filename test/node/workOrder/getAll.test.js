'use strict';
/**
 * workOrder.getAll (OData): paging of 50 with $skip, Return All / Limit, the Filters as OData
 * clauses on the reference's property paths (Status/Primary, Location/StoreId, contains(...),
 * UpdatedDate with an offset literal), $filter / $orderby / $select passed through, the Location ID
 * option, and the service's refusal of a bad $filter or an unknown property.
 */
const {
	useEnvironment,
	items,
	expectBearer,
	expectGet,
	pairedIndexes,
	expectValidationError,
	expectApiError,
	responseJson,
} = require('../helpers');
const { parsedShape } = require('../workOrderNote/notes');
const { deliberately } = require('../../contract');

const env = useEnvironment();

/** A work order as the node emits it (the lossless parse: integers beyond 2^53 as exact strings). */
const { parse, stringify } = require('../../emulator/lossless-json');
const plain = (value) => parsedShape(parse(stringify(value)));

describe('workOrder.getAll (OData)', () => {
	const path = '/api/v3/odata/workorders';

	test('Return All over 120 work orders: 3 pages of 50 with $skip 0/50/100', async () => {
		const r = await env.run({
			parameters: { resource: 'workOrder', operation: 'getAll', returnAll: true, simplify: false },
		});
		expect(r.error).toBeUndefined();
		expect(r.api).toHaveLength(3);
		const pages = r.api.map((q) => q.query);
		expect(pages.map((q) => q.$skip)).toEqual(['0', '50', '100']);
		expect(pages.map((q) => q.$top)).toEqual(['50', '50', '50']);
		r.api.forEach((q) => {
			expectGet(q, { path, query: { $top: '50', $skip: q.query.$skip, $count: 'true' } });
			expectBearer(env, q);
		});
		expect(r.api.map((q) => responseJson(q).value.length)).toEqual([50, 50, 20]);
		expect(r.output).toHaveLength(120);
		const expected = Object.values(env.emulator.state.workOrders)
			.filter((w) => w.SubscriberId === 1001)
			.sort((a, b) => a.Id - b.Id)
			.map(plain);
		expect(r.output.map((o) => o.json)).toEqual(expected);
		expect(new Set(pairedIndexes(r.output))).toEqual(new Set([0]));
		// no OData annotations leak into the items
		expect(r.output.some((o) => Object.keys(o.json).some((k) => k.startsWith('@odata')))).toBe(
			false,
		);
	});

	test('Limit 70: 2 requests, $top 50 then 20', async () => {
		const r = await env.run({
			parameters: { resource: 'workOrder', operation: 'getAll', returnAll: false, limit: 70 },
		});
		expect(r.error).toBeUndefined();
		expect(r.api.map((q) => q.query)).toEqual([
			{ $top: '50', $skip: '0', $count: 'true' },
			{ $top: '20', $skip: '50', $count: 'true' },
		]);
		expect(r.output).toHaveLength(70);
		expect(r.output[0].json.Id).toBe(90000001);
		expect(r.output[69].json.Id).toBe(90000070);
	});

	test('Limit 5: one request with $top 5', async () => {
		const r = await env.run({
			parameters: { resource: 'workOrder', operation: 'getAll', limit: 5 },
		});
		expect(r.api.map((q) => q.query)).toEqual([{ $top: '5', $skip: '0', $count: 'true' }]);
		expect(r.output.map((o) => o.json.Id)).toEqual([
			90000001, 90000002, 90000003, 90000004, 90000005,
		]);
	});

	test("the Filters become clauses on the reference's property paths, ANDed with the OData Filter", async () => {
		const r = await env.run({
			parameters: {
				resource: 'workOrder',
				operation: 'getAll',
				returnAll: true,
				filters: {
					statuses: 'OPEN, IN PROGRESS',
					trades: 'HVAC',
					storeIds: 'S501',
					search: 'Dallas',
					updatedAfter: '2020-11-01T01:30:00',
				},
				options: { filter: 'Nte ge 300' },
			},
		});
		expect(r.error).toBeUndefined();
		expect(r.api[0].query.$filter).toBe(
			"(contains(Number,'Dallas') or contains(Location/Name,'Dallas') or contains(Location/StoreId,'Dallas')) and " +
				"(Status/Primary eq 'OPEN' or Status/Primary eq 'IN PROGRESS') and Trade eq 'HVAC' and Location/StoreId eq 'S501' and " +
				'UpdatedDate ge 2020-11-01T01:30:00.000-04:00 and (Nte ge 300)',
		);
		const expected = Object.values(env.emulator.state.workOrders)
			.filter(
				(w) =>
					w.SubscriberId === 1001 &&
					['OPEN', 'IN PROGRESS'].includes(w.Status.Primary) &&
					w.Trade === 'HVAC' &&
					w.Location.StoreId === 'S501' &&
					w.Nte >= 300,
			)
			.map((w) => w.Id)
			.sort((a, b) => a - b);
		expect(expected.length).toBeGreaterThan(1);
		expect(r.output.map((o) => o.json.Id)).toEqual(expected);
		expect(r.output.every((o) => o.json.Location.Name === 'Store #501 Dallas Downtown')).toBe(true);
	});

	test('Filters: location IDs, extended status, category, priority, created before', async () => {
		const r = await env.run({
			parameters: {
				resource: 'workOrder',
				operation: 'getAll',
				limit: 5,
				filters: {
					locationIds: '502, 504',
					extendedStatuses: 'DISPATCH CONFIRMED',
					categories: 'REPAIR',
					priorities: 'P3 - Normal',
					createdBefore: '2999-01-01T00:00:00Z',
				},
			},
		});
		expect(r.error).toBeUndefined();
		expect(r.api[0].query.$filter).toBe(
			"Status/Extended eq 'DISPATCH CONFIRMED' and Category eq 'REPAIR' and Priority eq 'P3 - Normal' and (LocationId eq 502 or LocationId eq 504) and CreatedDate lt 2998-12-31T19:00:00.000-05:00",
		);
		expect(r.output.length).toBeGreaterThan(0);
		expect(
			r.output.every(
				(o) =>
					[502, 504].includes(o.json.Location.Id) &&
					o.json.Status.Extended === 'DISPATCH CONFIRMED',
			),
		).toBe(true);
	});

	test.each([
		['location IDs', { locationIds: '502, x' }, 'filters.locationIds', /positive whole numbers/],
		['a date', { updatedAfter: 'last week' }, 'filters.updatedAfter', /ISO 8601/],
	])(
		'a bad filter (%s) is refused before any request',
		async (_name, filters, parameter, problem) => {
			const r = await env.run({
				parameters: { resource: 'workOrder', operation: 'getAll', limit: 1, filters },
			});
			expectValidationError(r, { parameter, item: 0, problem });
			expect(r.api).toHaveLength(0);
		},
	);

	test('$filter, $orderby and $select are passed through', async () => {
		const filter = "Status/Primary eq 'OPEN' and LocationId eq 502";
		const r = await env.run({
			parameters: {
				resource: 'workOrder',
				operation: 'getAll',
				returnAll: true,
				options: { filter, orderBy: 'Id desc', select: 'Id,Number,Status,LocationId' },
			},
		});
		expect(r.error).toBeUndefined();
		expect(r.api).toHaveLength(1);
		expectGet(r.api[0], {
			path,
			query: {
				$filter: filter,
				$orderby: 'Id desc',
				$select: 'Id,Number,Status,LocationId',
				$top: '50',
				$skip: '0',
				$count: 'true',
			},
		});
		const expected = Object.values(env.emulator.state.workOrders)
			.filter((w) => w.SubscriberId === 1001 && w.Status.Primary === 'OPEN' && w.LocationId === 502)
			.sort((a, b) => b.Id - a.Id)
			.map((w) =>
				plain({ Id: w.Id, Number: w.Number, Status: w.Status, LocationId: w.LocationId }),
			);
		expect(expected.length).toBeGreaterThan(1);
		expect(r.output.map((o) => o.json)).toEqual(expected);
	});

	test('$filter text with &, #, +, %, =, ? and quotes reaches the service unchanged', async () => {
		const wo = env.emulator.state.workOrders[90000016];
		wo.Description = 'Fix A&B #1 + 100% = done?/now';
		wo.Caller = "O'Neil";
		const filter = "Description eq 'Fix A&B #1 + 100% = done?/now' and Caller eq 'O''Neil'";
		const r = await env.run({
			parameters: {
				resource: 'workOrder',
				operation: 'getAll',
				returnAll: true,
				options: { filter },
			},
		});
		expect(r.error).toBeUndefined();
		expect(r.api).toHaveLength(1);
		expect(r.api[0].path).toBe(path);
		expect(r.api[0].query).toEqual({ $filter: filter, $top: '50', $skip: '0', $count: 'true' });
		expect(r.output.map((o) => o.json.Id)).toEqual([90000016]);
	});

	test('Location ID option lists the work orders of a location', async () => {
		const r = await env.run({
			parameters: {
				resource: 'workOrder',
				operation: 'getAll',
				returnAll: true,
				options: { locationId: 503 },
			},
		});
		expect(r.error).toBeUndefined();
		expectGet(r.api[0], {
			path: '/api/v3/odata/locations(503)/workorders',
			query: { $top: '50', $skip: '0', $count: 'true' },
		});
		expect(r.output.length).toBeGreaterThan(0);
		expect(r.output.every((o) => o.json.Location.Id === 503)).toBe(true);
	});

	test('an invalid $filter: the service refusal (an OData error body) is a NodeApiError carrying its message', async () => {
		const r = await deliberately('a $filter the service cannot parse', () =>
			env.run({
				parameters: {
					resource: 'workOrder',
					operation: 'getAll',
					returnAll: true,
					options: { filter: 'Nte xor 500' },
				},
			}),
		);
		expect(r.api).toHaveLength(1);
		expect(r.api[0].query.$filter).toBe('Nte xor 500');
		expect(responseJson(r.api[0]).error.message).toContain("operator 'xor'");
		expectApiError(r, {
			status: 400,
			serviceMessage: "$filter: operator 'xor' at position 4 is not supported",
		});
	});

	test('a property the work order does not have (the old LocationName): 400, "Could not find a property"', async () => {
		const r = await deliberately('LocationName is not a WorkOrder property', () =>
			env.run({
				parameters: {
					resource: 'workOrder',
					operation: 'getAll',
					limit: 1,
					options: { filter: "LocationName eq 'Store #501 Dallas Downtown'" },
				},
			}),
		);
		expectApiError(r, {
			status: 400,
			serviceMessage: "Could not find a property named 'LocationName' on type 'WorkOrder'",
		});
	});

	test('several input items -> separate lists, each paired to its item', async () => {
		const r = await env.run({
			parameters: { resource: 'workOrder', operation: 'getAll', limit: '={{ $json.n }}' },
			items: items({ n: 2 }, { n: 3 }),
		});
		expect(r.api.map((q) => q.query.$top)).toEqual(['2', '3']);
		expect(r.output.map((o) => o.json.Id)).toEqual([
			90000001, 90000002, 90000001, 90000002, 90000003,
		]);
		expect(pairedIndexes(r.output)).toEqual([0, 0, 1, 1, 1]);
	});

	test('Continue On Fail: a bad Limit yields an error item; the others their lists', async () => {
		const r = await env.run({
			parameters: { resource: 'workOrder', operation: 'getAll', limit: '={{ $json.n }}' },
			items: items({ n: 1 }, { n: -1 }, { n: 1 }),
			continueOnFail: true,
		});
		expect(r.api).toHaveLength(2);
		expect(pairedIndexes(r.output)).toEqual([0, 1, 2]);
		expect(r.output[1].json.error).toContain('(parameter "limit") in item 1');
	});

	test.each([
		['empty', ''],
		['only spaces', '   '],
		['null from an expression', '={{ null }}'],
	])(
		'an empty Location ID (%s) is not set: the list of all locations',
		async (_name, locationId) => {
			const r = await env.run({
				parameters: {
					resource: 'workOrder',
					operation: 'getAll',
					limit: 2,
					options: { locationId },
				},
			});
			expect(r.error).toBeUndefined();
			expect(r.api.map((q) => q.path)).toEqual([path]);
		},
	);

	test('Location ID as text (the field is text) or a number from an expression', async () => {
		const r = await env.run({
			parameters: {
				resource: 'workOrder',
				operation: 'getAll',
				limit: 1,
				options: { locationId: '={{ $json.loc }}' },
			},
			items: items({ loc: '503' }, { loc: 504 }),
		});
		expect(r.error).toBeUndefined();
		expect(r.api.map((q) => q.path)).toEqual([
			'/api/v3/odata/locations(503)/workorders',
			'/api/v3/odata/locations(504)/workorders',
		]);
	});

	test('Location ID 0 is refused, not taken for "all locations"', async () => {
		const r = await env.run({
			parameters: {
				resource: 'workOrder',
				operation: 'getAll',
				limit: 1,
				options: { locationId: '0' },
			},
		});
		expectValidationError(r, { parameter: 'options.locationId', item: 0, problem: /1 or greater/ });
		expect(r.api).toHaveLength(0);
	});

	test('bad Location ID is refused before any request', async () => {
		const r = await env.run({
			parameters: {
				resource: 'workOrder',
				operation: 'getAll',
				returnAll: true,
				options: { locationId: '={{ $json.loc }}' },
			},
			items: items({ loc: 501 }, { loc: '501) or (1' }),
		});
		expectValidationError(r, {
			parameter: 'options.locationId',
			item: 1,
			problem: /positive whole number/,
		});
		expect(r.api.map((q) => q.path)).toEqual(['/api/v3/odata/locations(501)/workorders']);
	});
});
