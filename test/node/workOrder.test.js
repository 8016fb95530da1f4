'use strict';
/**
 * workOrder.get / getAll (OData paging, $filter/$orderby/$select) / checkIn / checkOut.
 */
const {
	useEnvironment,
	items,
	expectBearer,
	expectGet,
	expectJsonRequest,
	pairedIndexes,
	expectValidationError,
	expectApiError,
	responseJson,
	listSearch,
} = require('./helpers');

const env = useEnvironment();

const plain = (value) => JSON.parse(JSON.stringify(value));

/** A resource locator value as n8n's editor stores it. */
const rl = (mode, value, extra = {}) => ({ __rl: true, mode, value, ...extra });

describe('workOrder.get', () => {
	test('GET /workorders/{id}; the item is the work order', async () => {
		const r = await env.run({ parameters: { resource: 'workOrder', operation: 'get', workOrderId: 90000005 } });
		expect(r.error).toBeUndefined();
		expect(r.api).toHaveLength(1);
		expectGet(r.api[0], { path: '/api/v3/workorders/90000005' });
		expectBearer(env, r.api[0]);
		expect(r.output).toEqual([{ json: plain(env.emulator.state.workOrders[90000005]), pairedItem: { item: 0 } }]);
	});

	test('several input items -> one request per item, outputs paired', async () => {
		const r = await env.run({
			parameters: { resource: 'workOrder', operation: 'get', workOrderId: '={{ $json.id }}' },
			items: items({ id: 90000001 }, { id: 90000007 }, { id: 90000120 }),
		});
		expect(r.error).toBeUndefined();
		expect(r.api.map((q) => q.path)).toEqual(['/api/v3/workorders/90000001', '/api/v3/workorders/90000007', '/api/v3/workorders/90000120']);
		expect(r.output.map((o) => o.json.Id)).toEqual([90000001, 90000007, 90000120]);
		expect(r.output[1].json.IsInvoiced).toBe(true);
		expect(pairedIndexes(r.output)).toEqual([0, 1, 2]);
	});

	test('an unknown work order is a NodeApiError with the service message', async () => {
		const r = await env.run({ parameters: { resource: 'workOrder', operation: 'get', workOrderId: 12345 } });
		expectApiError(r, { status: 404, serviceMessage: 'Work order 12345 was not found', code: 5002 });
	});

	test('Continue On Fail: bad ID and unknown ID become error items; the good ones succeed', async () => {
		const r = await env.run({
			parameters: { resource: 'workOrder', operation: 'get', workOrderId: '={{ $json.id }}' },
			items: items({ id: 90000002 }, { id: 'abc' }, { id: 12345 }, { id: 90000003 }),
			continueOnFail: true,
		});
		expect(r.result.status).toBe('success');
		expect(r.api.map((q) => q.path)).toEqual(['/api/v3/workorders/90000002', '/api/v3/workorders/12345', '/api/v3/workorders/90000003']);
		expect(pairedIndexes(r.output)).toEqual([0, 1, 2, 3]);
		expect(r.output[0].json.Id).toBe(90000002);
		expect(r.output[1].json.error).toContain('Invalid Work Order ID (parameter "workOrderId") in item 1');
		expect(r.output[2].json.error).toContain('Work order 12345 was not found');
		expect(r.output[2].json.httpCode).toBe('404');
		expect(r.output[3].json.Id).toBe(90000003);
	});

	test.each([
		['0', 0, /1 or greater/],
		['negative', -7, /1 or greater/],
		['text', '90000001; DROP', /positive whole number/],
		['fraction', 1.5, /positive whole number/],
		['beyond 2^53', '9007199254740993', /too large/],
	])('bad ID (%s) is refused before any request', async (_name, id, problem) => {
		const r = await env.run({
			parameters: { resource: 'workOrder', operation: 'get', workOrderId: '={{ $json.id }}' },
			items: items({ id: 90000001 }, { id }),
		});
		expectValidationError(r, { parameter: 'workOrderId', item: 1, problem });
		expect(r.api.map((q) => q.path)).toEqual(['/api/v3/workorders/90000001']);
	});
});

describe('Work Order parameter: resource locator and the values older workflows hold', () => {
	const get = (workOrderId, items) => env.run({ parameters: { resource: 'workOrder', operation: 'get', workOrderId }, items });

	test.each([
		['From List (the value the list gave, with its cached name)', rl('list', '90000004', { cachedResultName: '90000004 · ELECTRICAL / REPAIR' })],
		['By ID', rl('id', '90000004')],
		['By ID with spaces around the digits', rl('id', ' 90000004 ')],
		['By ID from an expression returning a number', rl('id', '={{ 90000000 + 4 }}')],
		['a plain number (workflows saved before the locator)', 90000004],
		['a plain digit string', '90000004'],
		['a plain expression (workflows saved before the locator)', '={{ 90000004 }}'],
	])('%s reaches GET /workorders/90000004', async (_name, workOrderId) => {
		const r = await get(workOrderId);
		expect(r.error).toBeUndefined();
		expect(r.api.map((q) => `${q.method} ${q.path}`)).toEqual(['GET /api/v3/workorders/90000004']);
		expect(r.output[0].json.Id).toBe(90000004);
	});

	test('digit strings and numbers from the items, mixed, each reach their own work order', async () => {
		const r = await get(rl('id', '={{ $json.wo }}'), items({ wo: '90000001' }, { wo: 90000002 }, { wo: ' 90000003 ' }));
		expect(r.error).toBeUndefined();
		expect(r.api.map((q) => q.path)).toEqual(['/api/v3/workorders/90000001', '/api/v3/workorders/90000002', '/api/v3/workorders/90000003']);
	});

	test.each([
		['By ID "0"', rl('id', '={{ "0" }}'), /1 or greater/],
		['By ID 0 from an expression', rl('id', '={{ 0 }}'), /1 or greater/],
		['By ID "-4"', rl('id', '={{ "-4" }}'), /positive whole number/],
		['By ID "90000004.5"', rl('id', '={{ "90000004.5" }}'), /positive whole number/],
		['By ID empty from an expression', rl('id', '={{ "" }}'), /not empty/],
		['a plain expression returning null', '={{ null }}', /not empty/],
	])('%s is refused before any request', async (_name, workOrderId, problem) => {
		const r = await get(workOrderId);
		expectValidationError(r, { parameter: 'workOrderId', item: 0, problem });
		expect(r.api).toHaveLength(0);
	});

	test.each([
		['nothing chosen in From List', rl('list', ''), 'Parameter "Work Order" is required'],
		['By ID left empty', rl('id', ''), 'Parameter "Work Order" is required'],
		['By ID "0" typed (fails the mode\'s digits check)', rl('id', '0'), 'Not a work order ID: enter digits only'],
		['By ID with letters', rl('id', 'WO-90000004'), 'Not a work order ID: enter digits only'],
		['a plain 0 (an old workflow that kept the default)', 0, 'Parameter "Work Order" is required'],
	])('%s: n8n itself refuses to run the node (a parameter issue), nothing is sent', async (_name, workOrderId, issue) => {
		env.emulator.clearRequests();
		await expect(get(workOrderId)).rejects.toThrow(issue);
		expect(env.emulator.requests.filter((q) => q.path.startsWith('/api/'))).toHaveLength(0);
	});

	test('a write (check-in) reaches the work order chosen From List', async () => {
		const r = await env.run({ parameters: { resource: 'workOrder', operation: 'checkIn', workOrderId: rl('list', '90000013') } });
		expect(r.error).toBeUndefined();
		expect(r.api.map((q) => `${q.method} ${q.path}`)).toEqual(['POST /api/v3/workorders/90000013/universalCheckIn']);
	});
});

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
		const r = await env.run({ parameters: { ...PARAMS, workOrderId: rl('list', found.results[0].value, { cachedResultName: found.results[0].name }) } });
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

describe('workOrder.getAll (OData)', () => {
	const path = '/api/v3/odata/workorders';

	test('Return All over 120 work orders: 3 pages of 50 with $skip 0/50/100', async () => {
		const r = await env.run({ parameters: { resource: 'workOrder', operation: 'getAll', returnAll: true } });
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
		expect(r.output.some((o) => Object.keys(o.json).some((k) => k.startsWith('@odata')))).toBe(false);
	});

	test('Limit 70: 2 requests, $top 50 then 20', async () => {
		const r = await env.run({ parameters: { resource: 'workOrder', operation: 'getAll', returnAll: false, limit: 70 } });
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
		const r = await env.run({ parameters: { resource: 'workOrder', operation: 'getAll', limit: 5 } });
		expect(r.api.map((q) => q.query)).toEqual([{ $top: '5', $skip: '0', $count: 'true' }]);
		expect(r.output.map((o) => o.json.Id)).toEqual([90000001, 90000002, 90000003, 90000004, 90000005]);
	});

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
			query: { $filter: filter, $orderby: 'Id desc', $select: 'Id,Number,Status,LocationId', $top: '50', $skip: '0', $count: 'true' },
		});
		const expected = Object.values(env.emulator.state.workOrders)
			.filter((w) => w.SubscriberId === 1001 && w.Status.Primary === 'OPEN' && w.LocationId === 502)
			.sort((a, b) => b.Id - a.Id)
			.map((w) => plain({ Id: w.Id, Number: w.Number, Status: w.Status, LocationId: w.LocationId }));
		expect(expected.length).toBeGreaterThan(1);
		expect(r.output.map((o) => o.json)).toEqual(expected);
	});

	test('$filter text with &, #, +, %, =, ? and quotes reaches the service unchanged', async () => {
		const wo = env.emulator.state.workOrders[90000016];
		wo.Description = 'Fix A&B #1 + 100% = done?/now';
		wo.Caller = "O'Neil";
		const filter = "Description eq 'Fix A&B #1 + 100% = done?/now' and Caller eq 'O''Neil'";
		const r = await env.run({ parameters: { resource: 'workOrder', operation: 'getAll', returnAll: true, options: { filter } } });
		expect(r.error).toBeUndefined();
		expect(r.api).toHaveLength(1);
		expect(r.api[0].path).toBe(path);
		expect(r.api[0].query).toEqual({ $filter: filter, $top: '50', $skip: '0', $count: 'true' });
		expect(r.output.map((o) => o.json.Id)).toEqual([90000016]);
	});

	test('Location ID option lists the work orders of a location', async () => {
		const r = await env.run({
			parameters: { resource: 'workOrder', operation: 'getAll', returnAll: true, options: { locationId: 503 } },
		});
		expect(r.error).toBeUndefined();
		expectGet(r.api[0], { path: '/api/v3/odata/locations(503)/workorders', query: { $top: '50', $skip: '0', $count: 'true' } });
		expect(r.output.length).toBeGreaterThan(0);
		expect(r.output.every((o) => o.json.LocationId === 503)).toBe(true);
	});

	test('an invalid $filter: the service refusal is a NodeApiError carrying its message', async () => {
		const r = await env.run({
			parameters: { resource: 'workOrder', operation: 'getAll', returnAll: true, options: { filter: 'Nte xor 500' } },
		});
		expect(r.api).toHaveLength(1);
		expect(r.api[0].query.$filter).toBe('Nte xor 500');
		expectApiError(r, { status: 400, serviceMessage: "$filter: operator 'xor' at position 4 is not supported", code: 2008 });
	});

	test('several input items -> separate lists, each paired to its item', async () => {
		const r = await env.run({
			parameters: { resource: 'workOrder', operation: 'getAll', limit: '={{ $json.n }}' },
			items: items({ n: 2 }, { n: 3 }),
		});
		expect(r.api.map((q) => q.query.$top)).toEqual(['2', '3']);
		expect(r.output.map((o) => o.json.Id)).toEqual([90000001, 90000002, 90000001, 90000002, 90000003]);
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
	])('an empty Location ID (%s) is not set: the list of all locations', async (_name, locationId) => {
		const r = await env.run({ parameters: { resource: 'workOrder', operation: 'getAll', limit: 2, options: { locationId } } });
		expect(r.error).toBeUndefined();
		expect(r.api.map((q) => q.path)).toEqual([path]);
	});

	test('Location ID as text (the field is text) or a number from an expression', async () => {
		const r = await env.run({
			parameters: { resource: 'workOrder', operation: 'getAll', limit: 1, options: { locationId: '={{ $json.loc }}' } },
			items: items({ loc: '503' }, { loc: 504 }),
		});
		expect(r.error).toBeUndefined();
		expect(r.api.map((q) => q.path)).toEqual(['/api/v3/odata/locations(503)/workorders', '/api/v3/odata/locations(504)/workorders']);
	});

	test('Location ID 0 is refused, not taken for "all locations"', async () => {
		const r = await env.run({ parameters: { resource: 'workOrder', operation: 'getAll', limit: 1, options: { locationId: '0' } } });
		expectValidationError(r, { parameter: 'options.locationId', item: 0, problem: /1 or greater/ });
		expect(r.api).toHaveLength(0);
	});

	test('bad Location ID is refused before any request', async () => {
		const r = await env.run({
			parameters: { resource: 'workOrder', operation: 'getAll', returnAll: true, options: { locationId: '={{ $json.loc }}' } },
			items: items({ loc: 501 }, { loc: '501) or (1' }),
		});
		expectValidationError(r, { parameter: 'options.locationId', item: 1, problem: /positive whole number/ });
		expect(r.api.map((q) => q.path)).toEqual(['/api/v3/odata/locations(501)/workorders']);
	});
});

describe('workOrder.checkIn / checkOut', () => {
	test('checkIn: POST universalCheckIn with the JSON body from additionalFields; the item is the 201 record', async () => {
		const r = await env.run({
			parameters: {
				resource: 'workOrder',
				operation: 'checkIn',
				workOrderId: 90000001,
				additionalFields: { latitude: 32.7767, longitude: -96.797, userId: 11, technicianId: 4001, numberOfTechnicians: 2, comment: 'Arrived, store manager informed' },
			},
		});
		expect(r.error).toBeUndefined();
		expect(r.api).toHaveLength(1);
		expectJsonRequest(r.api[0], {
			method: 'POST',
			path: '/api/v3/workorders/90000001/universalCheckIn',
			body: { Latitude: 32.7767, Longitude: -96.797, UserId: 11, TechnicianId: 4001, NumberOfTechnicians: 2, Comment: 'Arrived, store manager informed' },
		});
		expectBearer(env, r.api[0]);
		expect(r.api[0].status).toBe(201);
		const record = env.emulator.state.checkIns.at(-1);
		expect(record).toMatchObject({ WorkOrderId: 90000001, ActivityType: 'CheckIn', Latitude: 32.7767, Longitude: -96.797, UserId: 11, TechnicianId: 4001, NumberOfTechnicians: 2, Comment: 'Arrived, store manager informed' });
		expect(r.output).toEqual([{ json: plain(record), pairedItem: { item: 0 } }]);
		expect(env.emulator.state.workOrders[90000001].Status).toEqual({ Primary: 'IN PROGRESS', Extended: 'ON SITE' });
	});

	test('checkOut: POST universalCheckOut, linked to the open check-in; WorkCompleted in the body', async () => {
		const checkInId = env.emulator.state.checkIns.at(-1).Id;
		const r = await env.run({
			parameters: {
				resource: 'workOrder',
				operation: 'checkOut',
				workOrderId: 90000001,
				additionalFields: { workCompleted: true, latitude: 32.7768 },
			},
		});
		expect(r.error).toBeUndefined();
		expectJsonRequest(r.api[0], {
			method: 'POST',
			path: '/api/v3/workorders/90000001/universalCheckOut',
			body: { Latitude: 32.7768, WorkCompleted: true },
		});
		expect(r.output).toHaveLength(1);
		expect(r.output[0].json).toMatchObject({ ActivityType: 'CheckOut', WorkOrderId: 90000001, CheckInId: checkInId });
		expect(r.output[0].json).toEqual(plain(env.emulator.state.checkIns.at(-1)));
	});

	test.each(['checkIn', 'checkOut'])('%s: fields added but left empty send nothing (no 0 IDs, no 0.000000 position)', async (operation) => {
		const r = await env.run({
			parameters: {
				resource: 'workOrder',
				operation,
				workOrderId: 90000014,
				// what the editor stores when the fields are added and left as they come
				additionalFields: { technicianId: '', userId: '', latitude: '', longitude: '', comment: '' },
			},
		});
		expect(r.error).toBeUndefined();
		expect(r.api).toHaveLength(1);
		expect(r.api[0].body).toEqual({});
	});

	test('checkIn: IDs and the position typed as text are sent as JSON numbers', async () => {
		const r = await env.run({
			parameters: {
				resource: 'workOrder',
				operation: 'checkIn',
				workOrderId: rl('id', '90000014'),
				additionalFields: { technicianId: '4002', userId: ' 11 ', latitude: '32.7767', longitude: '-96.797' },
			},
		});
		expect(r.error).toBeUndefined();
		expectJsonRequest(r.api[0], {
			method: 'POST',
			path: '/api/v3/workorders/90000014/universalCheckIn',
			body: { Latitude: 32.7767, Longitude: -96.797, UserId: 11, TechnicianId: 4002 },
		});
	});

	test.each(['checkIn', 'checkOut'])('%s with no additional fields still sends a JSON body {}', async (operation) => {
		const r = await env.run({ parameters: { resource: 'workOrder', operation, workOrderId: 90000003 } });
		expect(r.error).toBeUndefined();
		expectJsonRequest(r.api[0], {
			method: 'POST',
			path: `/api/v3/workorders/90000003/${operation === 'checkIn' ? 'universalCheckIn' : 'universalCheckOut'}`,
			body: {},
		});
		expect(r.api[0].rawBody.toString('utf8')).toBe('{}');
		expect(r.output[0].json.ActivityType).toBe(operation === 'checkIn' ? 'CheckIn' : 'CheckOut');
	});

	test.each([
		['checkIn', 'universalCheckIn', 'CheckIn'],
		['checkOut', 'universalCheckOut', 'CheckOut'],
	])('%s: several input items -> one POST per item; Continue On Fail with a bad latitude', async (operation, endpoint, activity) => {
		const r = await env.run({
			parameters: { resource: 'workOrder', operation, workOrderId: '={{ $json.id }}', additionalFields: { latitude: '={{ $json.lat }}' } },
			items: items({ id: 90000004, lat: 10 }, { id: 90000005, lat: 95 }, { id: 90000006, lat: -10 }),
			continueOnFail: true,
		});
		expect(r.result.status).toBe('success');
		expect(r.api.map((q) => [q.method, q.path, q.body])).toEqual([
			['POST', `/api/v3/workorders/90000004/${endpoint}`, { Latitude: 10 }],
			['POST', `/api/v3/workorders/90000006/${endpoint}`, { Latitude: -10 }],
		]);
		expect(pairedIndexes(r.output)).toEqual([0, 1, 2]);
		expect(r.output[0].json).toMatchObject({ WorkOrderId: 90000004, ActivityType: activity, Latitude: 10 });
		expect(r.output[1].json.error).toContain('Invalid Latitude (parameter "additionalFields.latitude") in item 1');
		expect(r.output[2].json).toMatchObject({ WorkOrderId: 90000006, ActivityType: activity, Latitude: -10 });
	});

	test.each([
		['checkIn', { longitude: 181 }, 'additionalFields.longitude', /-180 to 180/],
		['checkOut', { userId: 0 }, 'additionalFields.userId', /1 or greater/],
		['checkOut', { userId: '0' }, 'additionalFields.userId', /1 or greater/],
		['checkIn', { technicianId: '4001 ' + 'x' }, 'additionalFields.technicianId', /positive whole number/],
		['checkIn', { latitude: '32,7767' }, 'additionalFields.latitude', /-90 to 90/],
		['checkIn', { technicianId: -4 }, 'additionalFields.technicianId', /1 or greater/],
		['checkOut', { numberOfTechnicians: 1.5 }, 'additionalFields.numberOfTechnicians', /positive whole number/],
		['checkOut', { workCompleted: '={{ "yes" }}' }, 'additionalFields.workCompleted', /true or false/],
	])('%s: %j is refused before any request', async (operation, fields, parameter, problem) => {
		const r = await env.run({
			parameters: { resource: 'workOrder', operation, workOrderId: '={{ $json.id }}', additionalFields: fields },
			items: items({ id: 90000011 }),
		});
		expectValidationError(r, { parameter, item: 0, problem });
		expect(r.api).toHaveLength(0);
	});

	test('bad work order ID on checkOut is refused before any request', async () => {
		const r = await env.run({
			parameters: { resource: 'workOrder', operation: 'checkOut', workOrderId: '={{ $json.id }}' },
			items: items({ id: 90000012 }, { id: '' }),
		});
		expectValidationError(r, { parameter: 'workOrderId', item: 1 });
		expect(r.api.map((q) => q.path)).toEqual(['/api/v3/workorders/90000012/universalCheckOut']);
	});
});
