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
} = require('./helpers');

const env = useEnvironment();

const plain = (value) => JSON.parse(JSON.stringify(value));

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
