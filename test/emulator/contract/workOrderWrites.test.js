'use strict';

/**
 * The emulator's work-order writes and lists against service-reference.md sections 5 and 8 (routes
 * of ../api-workorder-writes.js): what it refuses as the service does (unknown field, missing
 * required field, wrong type; the reference's codes), the answers with every property of the
 * reference's objects, the changes made through the emulator's methods. Several requests here are
 * deliberately invalid (that is what they test).
 */

const { useEmulator, token, jwtLogin, api, expectError } = require('./helpers');

/** @type {import('../index').Emulator} */
let emu;
useEmulator((e) => {
	emu = e;
});

const CREATE = {
	ContractInfo: { LocationId: 501, TradeName: 'HVAC' },
	Category: 'REPAIR',
	Priority: 'P3 - Normal',
	CallDate: '2026-05-01T09:30:00',
	Description: 'Supply air too warm',
	ProblemCode: 'NO COOLING',
};

/** @param {any} fd @param {string} name @param {any} value */
const jsonPart = (fd, name, value) =>
	fd.append(name, new Blob([JSON.stringify(value)], { type: 'application/json' }));

describe('POST /workorders (CreateWoRequest)', () => {
	test('201 with { id } and a Location; the work order is there, made by createWorkOrder (WorkOrderCreated raised)', async () => {
		const t = await token();
		const r = await api('POST', '/workorders', {
			token: t,
			json: {
				...CREATE,
				ContractInfo: { StoreId: 's502', TradeName: 'hvac' },
				Nte: 350,
				CallerName: 'BMS',
			},
		});
		expect(r.status).toBe(201);
		expect(Object.keys(r.body)).toEqual(['id']);
		expect(r.headers.get('location')).toBe(`${emu.baseUrl}/v3/workorders/${r.body.id}`);
		expect(emu.workOrder(r.body.id)).toMatchObject({
			LocationId: 502,
			Trade: 'HVAC',
			Category: 'REPAIR',
			Nte: 350,
			Caller: 'BMS',
		});
		expect(emu.webhooks.events.at(-1)).toMatchObject({ eventType: 'WorkOrderCreated' });
		const read = await api('GET', `/workorders/${r.body.id}`, { token: t });
		expect(read.body.Description).toBe('Supply air too warm');
	});

	test.each([
		['an unknown field', { ...CREATE, Urgent: true }, 503, /unknown field 'Urgent'/],
		[
			'an unknown field inside ContractInfo',
			{ ...CREATE, ContractInfo: { LocationId: 501, TradeName: 'HVAC', Region: 'TX' } },
			503,
			/ContractInfo has an unknown field 'Region'/,
		],
		['no ContractInfo', { ...CREATE, ContractInfo: undefined }, 503, /ContractInfo is required/],
		['no ProblemCode', { ...CREATE, ProblemCode: undefined }, 503, /ProblemCode is required/],
		['Nte as text', { ...CREATE, Nte: '350' }, 503, /Nte must be a number/],
		[
			'Status without Extended',
			{ ...CREATE, Status: { Primary: 'Open' } },
			503,
			/Status.Extended is required/,
		],
		['an empty description', { ...CREATE, Description: ' ' }, 902, /Description is required/],
		['an empty problem code', { ...CREATE, ProblemCode: '' }, 903, /ProblemCode is required/],
		[
			'no location',
			{ ...CREATE, ContractInfo: { TradeName: 'HVAC' } },
			503,
			/LocationId \(or StoreId\) is required/,
		],
		[
			"another subscriber's location",
			{ ...CREATE, ContractInfo: { LocationId: 701, TradeName: 'HVAC' } },
			600,
			/Location 701/,
		],
		[
			'an unknown store',
			{ ...CREATE, ContractInfo: { StoreId: 'S999', TradeName: 'HVAC' } },
			603,
			/Store S999/,
		],
		[
			'an unknown trade',
			{ ...CREATE, ContractInfo: { LocationId: 501, TradeName: 'ROOFING' } },
			702,
			/Trade 'ROOFING'/,
		],
		[
			'an unknown provider',
			{ ...CREATE, ContractInfo: { LocationId: 501, TradeName: 'HVAC', ProviderId: 3999 } },
			100,
			/Provider 3999/,
		],
		['an unknown category', { ...CREATE, Category: 'LANDSCAPING' }, 911, /Category 'LANDSCAPING'/],
		[
			'a priority that may not be chosen',
			{ ...CREATE, Priority: 'P5 - Planned' },
			913,
			/Priority 'P5 - Planned'/,
		],
		[
			'a scheduled date before the call date',
			{ ...CREATE, ScheduledDate: '2026-04-30T09:00:00' },
			909,
			/after CallDate/,
		],
		[
			'a scheduled date that is no date',
			{ ...CREATE, ScheduledDate: 'soon' },
			908,
			/ScheduledDate is not a valid date-time/,
		],
		['a negative NTE', { ...CREATE, Nte: -1 }, 905, /Nte must be from 0/],
	])("refuses %s: 400 with the reference's code", async (_name, body, code, message) => {
		const before = emu.workOrderList().length;
		const r = await api('POST', '/workorders', {
			token: await token(),
			json: body,
			deliberate: _name,
		});
		expectError(r, 400, code);
		expect(r.body.ErrorMessage).toMatch(message);
		expect(emu.workOrderList()).toHaveLength(before);
	});

	test('a provider user must name the subscriber; a read-only user lacks the permission (401)', async () => {
		const jwt = (await jwtLogin()).access_token;
		expectError(await api('POST', '/workorders', { token: jwt, json: CREATE }), 400, 503);
		const ok = await api('POST', '/workorders', {
			token: jwt,
			json: { ...CREATE, ContractInfo: { ...CREATE.ContractInfo, SubscriberId: 1001 } },
		});
		expect(ok.status).toBe(201);
		expectError(
			await api('POST', '/workorders', { token: await token('viewer'), json: CREATE }),
			401,
		);
	});
});

describe('PUT /workorders/{id}/status, /scheduledate, /priority, /nte', () => {
	test('status: { result, id }; the status set by setWorkOrderStatus, a note added', async () => {
		const r = await api('PUT', '/workorders/90000003/status', {
			token: await token(),
			json: {
				Status: { Primary: 'in progress', Extended: 'on site' },
				Note: 'On site',
				Actor: 'Tech',
			},
		});
		expect(r.status).toBe(200);
		expect(Object.keys(r.body).sort()).toEqual(['id', 'result']);
		expect(r.body).toEqual({
			id: 90000003,
			result:
				'Status changed from OPEN / DISPATCH CONFIRMED to IN PROGRESS / ON SITE by Tech. On site',
		});
		expect(emu.workOrder(90000003).Status).toEqual({
			Primary: 'IN PROGRESS',
			Extended: 'ON SITE',
			CanCreateInvoice: false,
		});
		expect(emu.notesOf(90000003).at(-1).NoteData).toBe(r.body.result);
	});

	test.each([
		['status', '/status', { Status: { Primary: 'OPEN' } }, 503, /Status.Extended is required/],
		['status', '/status', {}, 503, /Status is required/],
		[
			'status',
			'/status',
			{ Status: { Primary: 'OPEN', Extended: '' }, DeclineReasonId: 'one' },
			503,
			/DeclineReasonId must be a 32-bit integer/,
		],
		[
			'status',
			'/status',
			{ Status: { Primary: 'OPEN', Extended: 'DECLINED' }, DeclineReasonId: 9 },
			9002,
			/not a decline reason/,
		],
		[
			'status',
			'/status',
			{
				Status: { Primary: 'OPEN', Extended: 'DECLINED' },
				DeclineReasonId: 1,
				CustomDeclineReason: 'x',
			},
			9002,
			/does not allow a custom text/,
		],
		['scheduled date', '/scheduledate', { Value: 'tomorrow' }, 908, /not a valid date-time/],
		['scheduled date', '/scheduledate', { Value: 20300101 }, 503, /Value must be a string/],
		['priority', '/priority', { Value: '' }, 913, /1 to 100 characters/],
		['priority', '/priority', { Actor: 'x' }, 503, /Value is required/],
		['NTE', '/nte', {}, 503, /Value or Details is required/],
		['NTE', '/nte', { Value: 'a lot' }, 905, /not a number/],
		['NTE', '/nte', { Value: '10', CurrencyId: 77 }, 503, /CurrencyId 77/],
	])('%s: refuses %j', async (_what, suffix, body, code, message) => {
		const r = await api('PUT', `/workorders/90000003${suffix}`, {
			token: await token(),
			json: body,
			deliberate: `${_what}: ${message}`,
		});
		expectError(r, 400, code);
		expect(r.body.ErrorMessage).toMatch(message);
	});

	test('an empty body is refused (503), an unknown work order is 502, one of another subscriber 100, an invoiced one 921', async () => {
		const t = await token();
		expectError(
			await api('PUT', '/workorders/90000003/nte', {
				token: t,
				body: '',
				headers: { 'content-type': 'application/json' },
				deliberate: 'an empty body',
			}),
			400,
			503,
		);
		expectError(
			await api('PUT', '/workorders/91999999/priority', { token: t, json: { Value: 'P4 - Low' } }),
			400,
			502,
		);
		expectError(
			await api('PUT', '/workorders/92001001/priority', { token: t, json: { Value: 'P4 - Low' } }),
			400,
			100,
		);
		expectError(
			await api('PUT', '/workorders/90000007/priority', { token: t, json: { Value: 'P4 - Low' } }),
			400,
			921,
		);
	});

	test('scheduled date, priority, NTE: { id }; the changes made by updateWorkOrder raise their events', async () => {
		const t = await token();
		const start = emu.webhooks.events.length;
		const dated = await api('PUT', '/workorders/90000003/scheduledate?rescheduleReasonCode=4', {
			token: t,
			json: { Value: '2031-02-03T10:00:00' },
		});
		const prioritized = await api('PUT', '/workorders/90000003/priority', {
			token: t,
			json: { Value: 'P1 - EMERGENCY' },
		});
		const priced = await api('PUT', '/workorders/90000003/nte', {
			token: t,
			json: { Details: { Price: 100, Tax: 8.25 } },
		});
		expect([dated.body, prioritized.body, priced.body]).toEqual([
			{ id: 90000003 },
			{ id: 90000003 },
			{ id: 90000003 },
		]);
		const wo = emu.workOrder(90000003);
		expect(wo.Priority).toBe('P1 - Emergency');
		expect(wo.Nte).toBe(108.25);
		expect(emu.parseDate(wo.ScheduledDateDto ?? wo.ScheduledDate_DTO)).toBe(
			emu.parseDate('2031-02-03T10:00:00'),
		);
		expect(emu.webhooks.events.slice(start).map((e) => e.eventType)).toEqual([
			'WorkOrderScheduledDateChanged',
			'WorkOrderPriorityChanged',
		]);
	});
});

describe('POST /workorders/{id}/attachments', () => {
	test('the descriptor { Attachments: [...] } and a file: 201 without a body; the file stored for the work order', async () => {
		const fd = new FormData();
		jsonPart(fd, 'AddAttachmentsRequest', {
			Attachments: [{ Name: 'shown.txt', Description: 'log', Visibility: 3 }],
		});
		fd.append('file', new Blob([Buffer.from('line 1\r\n--x')], { type: 'text/plain' }), 'log.txt');
		const r = await api('POST', '/workorders/90000003/attachments?actor=BMS', {
			token: await token(),
			body: fd,
		});
		expect(r.status).toBe(201);
		expect(r.text).toBe('');
		expect(emu.state.attachments.at(-1)).toMatchObject({
			WorkOrderId: 90000003,
			NoteId: null,
			FileName: 'shown.txt',
			Description: 'log',
			Visibility: 3,
			Actor: 'BMS',
			Size: 11,
		});
		expect(emu.webhooks.events.at(-1).eventType).toBe('WorkOrderAttachmentAdded');
	});

	test.each([
		[
			'no file',
			(/** @type {any} */ fd) => jsonPart(fd, 'AddAttachmentsRequest', { Attachments: [] }),
			/'file' is required/,
		],
		[
			'a descriptor without Attachments',
			(/** @type {any} */ fd) => {
				jsonPart(fd, 'AddAttachmentsRequest', { Files: [] });
				fd.append('file', new Blob(['x']), 'x.txt');
			},
			/unknown field 'Files'/,
		],
		[
			'an empty file',
			(/** @type {any} */ fd) => fd.append('file', new Blob([]), 'x.txt'),
			/is empty/,
		],
	])('refuses %s (503)', async (_name, build, message) => {
		const fd = new FormData();
		build(fd);
		const r = await api('POST', '/workorders/90000003/attachments', {
			token: await token(),
			body: fd,
			deliberate: _name,
		});
		expectError(r, 400, 503);
		expect(r.body.ErrorMessage).toMatch(message);
	});
});

describe('the lists: statuses, categories, priorities', () => {
	test('every property of StatusOption, Category and Priority', async () => {
		const t = await token();
		const statuses = (await api('GET', '/workorders/statuses', { token: t })).body;
		const categories = (await api('GET', '/workorders/categories?sortExpr=Id%20desc', { token: t }))
			.body;
		const priorities = (await api('GET', '/workorders/priorities', { token: t })).body;
		expect(Object.keys(statuses[0]).sort()).toEqual([
			'Constraints',
			'Extended',
			'ExtendedStatuses',
			'Id',
			'Name',
		]);
		expect(statuses.map((/** @type {any} */ s) => s.Id)).toEqual([
			'Open',
			'InProgress',
			'Completed',
			'Incomplete',
		]);
		expect(Object.keys(statuses[0].Constraints[0]).sort()).toEqual([
			'AskForReviews',
			'Extended',
			'IsResolutionCodesRequired',
			'IsResolutionTextRequired',
			'IsScheduledDateRequired',
			'IsShippingInfoRequired',
		]);
		expect(Object.keys(categories[0]).sort()).toEqual([
			'HasDependency',
			'Id',
			'Name',
			'PrimaryCategoryID',
			'PrimaryCategoryName',
			'SubscriberId',
		]);
		expect(categories.map((/** @type {any} */ c) => c.Id)).toEqual(
			[...categories.map((/** @type {any} */ c) => c.Id)].sort((a, b) => b - a),
		);
		expect(Object.keys(priorities[0]).sort()).toEqual([
			'Eta',
			'Id',
			'IsSelectable',
			'LocationId',
			'Name',
			'ScheduledDate',
			'ScheduledDate_DTO',
			'SkipNights',
			'SkipWeekends',
			'SubscriberId',
			'Trade',
		]);
		expect(priorities[0].ScheduledDate_DTO).toMatch(/[+-]\d\d:\d\d$/);
	});

	test('a provider user must name the subscriber; a bad sortExpr is refused', async () => {
		const jwt = (await jwtLogin()).access_token;
		expectError(await api('GET', '/workorders/priorities', { token: jwt }), 400, 503);
		expect(
			(await api('GET', '/workorders/priorities?subscriberId=1001', { token: jwt })).status,
		).toBe(200);
		expectError(
			await api('GET', '/workorders/categories?sortExpr=Color', { token: await token() }),
			400,
			503,
		);
	});
});
