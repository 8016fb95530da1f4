'use strict';
/**
 * workOrder.checkIn: POST /workorders/{id}/universalCheckIn with the JSON body from
 * additionalFields; the 201 record is the item (what checkIn and checkOut share: ./checkInOut.js).
 */
const { useEnvironment, expectBearer, expectJsonRequest } = require('../helpers');
const { checkInOutTests, validationTests } = require('./checkInOut');

const env = useEnvironment();

const plain = (value) => JSON.parse(JSON.stringify(value));

/** A resource locator value as n8n's editor stores it. */
const rl = (mode, value, extra = {}) => ({ __rl: true, mode, value, ...extra });

describe('workOrder.checkIn', () => {
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

	checkInOutTests(env, 'checkIn');
});

describe('workOrder.checkIn: validation before any request', () => {
	validationTests(env, [
		['checkIn', { longitude: 181 }, 'additionalFields.longitude', /-180 to 180/],
		['checkIn', { technicianId: '4001 ' + 'x' }, 'additionalFields.technicianId', /positive whole number/],
		['checkIn', { latitude: '32,7767' }, 'additionalFields.latitude', /-90 to 90/],
		['checkIn', { technicianId: -4 }, 'additionalFields.technicianId', /1 or greater/],
	]);
});
