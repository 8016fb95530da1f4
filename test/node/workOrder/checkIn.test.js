'use strict';
/**
 * workOrder.checkIn: POST /workorders/{id}/universalCheckIn with the reference's CheckInRequest
 * (WorkTypeId repair / travel / custom, UserId, TechsCount, Latitude/Longitude, CheckInTime with
 * an offset, Actor); the position is required for a repair before any request; the answer
 * `{ MechanicId }` is the item with the work order's ID (what checkIn and checkOut share:
 * ./checkInOut.js).
 */
const { useEnvironment, expectBearer, expectJsonRequest, expectApiError } = require('../helpers');
const { AT_501, REPAIR_BODY, checkInOutTests, validationTests } = require('./checkInOut');

const env = useEnvironment();

/** A resource locator value as n8n's editor stores it. */
const rl = (mode, value, extra = {}) => ({ __rl: true, mode, value, ...extra });

describe('workOrder.checkIn', () => {
	test('repair: WorkTypeId 1, the position, UserId, TechsCount, CheckInTime (with its offset), Actor; the item is { success, operation, workOrderId, MechanicId }', async () => {
		const at = new Date(env.emulator.now() - 5 * 60_000);
		const r = await env.run({
			parameters: {
				resource: 'workOrder',
				operation: 'checkIn',
				workOrderId: 90000001,
				workType: 'repair',
				...AT_501,
				additionalFields: {
					userId: 31,
					techsCount: 2,
					checkInTime: at.toISOString(),
					actor: 'Tom Tech',
				},
			},
		});
		expect(r.error).toBeUndefined();
		expect(r.api).toHaveLength(1);
		expectJsonRequest(r.api[0], {
			method: 'POST',
			path: '/api/v3/workorders/90000001/universalCheckIn',
		});
		const { CheckInTime, ...rest } = r.api[0].body;
		expect(rest).toEqual({ ...REPAIR_BODY, UserId: 31, TechsCount: 2, Actor: 'Tom Tech' });
		// the time goes out as the service's local time (US Eastern) with an explicit offset
		expect(CheckInTime).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}-0[45]:00$/);
		expect(Date.parse(CheckInTime)).toBe(at.getTime());
		expectBearer(env, r.api[0]);
		expect(r.api[0].status).toBe(200);
		const record = env.emulator.state.checkIns.at(-1);
		expect(record).toMatchObject({
			WorkOrderId: 90000001,
			Kind: 'CheckIn',
			WorkTypeId: 1,
			UserId: 31,
			TechsCount: 2,
			At: at.getTime(),
		});
		expect(r.output).toEqual([
			{
				json: {
					success: true,
					operation: 'checkIn',
					workOrderId: 90000001,
					MechanicId: record.Id,
				},
				pairedItem: { item: 0 },
			},
		]);
		expect(env.emulator.workOrder(90000001).Status).toEqual({
			Primary: 'IN PROGRESS',
			Extended: 'ON SITE',
			CanCreateInvoice: false,
		});
	});

	test('travel: WorkTypeId 2 without a position (the reference needs it for repairs only)', async () => {
		const r = await env.run({
			parameters: {
				resource: 'workOrder',
				operation: 'checkIn',
				workOrderId: 90000003,
				workType: 'travel',
			},
		});
		expect(r.error).toBeUndefined();
		expect(r.api[0].body).toEqual({ WorkTypeId: 2 });
		expect(env.emulator.workOrder(90000003).Status).toMatchObject({
			Primary: 'IN PROGRESS',
			Extended: 'EN ROUTE',
		});
	});

	test('custom work type: its ID as WorkTypeId', async () => {
		const r = await env.run({
			parameters: {
				resource: 'workOrder',
				operation: 'checkIn',
				workOrderId: 90000016,
				workType: 'custom',
				customWorkTypeId: '7',
			},
		});
		expect(r.error).toBeUndefined();
		expect(r.api[0].body).toEqual({ WorkTypeId: 7 });
		expect(r.output[0].json.MechanicId).toBe(env.emulator.state.checkIns.at(-1).Id);
	});

	test('IDs and the position typed as text are sent as JSON numbers', async () => {
		const r = await env.run({
			parameters: {
				resource: 'workOrder',
				operation: 'checkIn',
				workOrderId: rl('id', '90000014'),
				latitude: '32.7767',
				longitude: ' -96.797',
				additionalFields: { userId: ' 11 ' },
			},
		});
		expect(r.error).toBeUndefined();
		expectJsonRequest(r.api[0], {
			method: 'POST',
			path: '/api/v3/workorders/90000014/universalCheckIn',
			body: { ...REPAIR_BODY, UserId: 11 },
		});
	});

	test('the service refuses a check-in on a completed work order (400, 921) as a NodeApiError', async () => {
		env.emulator.setWorkOrderStatus(90000017, 'COMPLETED', 'PENDING CONFIRMATION');
		const r = await env.run({
			parameters: { resource: 'workOrder', operation: 'checkIn', workOrderId: 90000017, ...AT_501 },
		});
		expectApiError(r, {
			status: 400,
			serviceMessage: 'Work order 90000017 is completed',
			code: 921,
		});
	});

	checkInOutTests(env, 'checkIn');
});

describe('workOrder.checkIn: validation before any request', () => {
	validationTests(env, [
		['checkIn', { latitude: '', longitude: '' }, 'latitude', /is required for a repair check-in/],
		['checkIn', { longitude: '' }, 'longitude', /together with the other coordinate|is required/],
		['checkIn', { longitude: 181 }, 'longitude', /-180 to 180/],
		['checkIn', { latitude: '32,7767' }, 'latitude', /-90 to 90/],
		[
			'checkIn',
			{ additionalFields: { userId: '31x' } },
			'additionalFields.userId',
			/positive whole number/,
		],
		[
			'checkIn',
			{ additionalFields: { techsCount: 0 } },
			'additionalFields.techsCount',
			/from 1 to/,
		],
		['checkIn', { workType: 'custom', customWorkTypeId: '2' }, 'customWorkTypeId', /3 or higher/],
		[
			'checkIn',
			{ additionalFields: { checkInTime: 'yesterday' } },
			'additionalFields.checkInTime',
			/ISO 8601/,
		],
	]);

	test('a repair without a position is refused for that item only (Continue On Fail)', async () => {
		const r = await env.run({
			parameters: {
				resource: 'workOrder',
				operation: 'checkIn',
				workOrderId: 90000022,
				workType: '={{ $json.type }}',
				latitude: '={{ $json.lat }}',
				longitude: '={{ $json.lon }}',
			},
			items: [
				{ json: { type: 'travel', lat: '', lon: '' } },
				{ json: { type: 'repair', lat: '', lon: '' } },
			],
			continueOnFail: true,
		});
		expect(r.api.map((q) => q.body)).toEqual([{ WorkTypeId: 2 }]);
		expect(r.result.status).toBe('success');
		expect(r.output).toHaveLength(2);
		expect(r.output[0].json).toMatchObject({
			workOrderId: 90000022,
			MechanicId: expect.any(Number),
		});
		expect(r.output[1].json.error).toContain('Invalid Latitude (parameter "latitude") in item 1');
	});
});
