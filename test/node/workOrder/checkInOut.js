'use strict';
/**
 * What workOrder.checkIn and workOrder.checkOut share (not a test file): the optional fields left
 * empty send nothing, no fields still send {}, one POST per item with Continue On Fail, and bad
 * values refused before any request. checkIn.test.js and checkOut.test.js call these inside their
 * own describe, with their own emulator and harness.
 */
const { items, expectJsonRequest, pairedIndexes, expectValidationError } = require('../helpers');

const ENDPOINTS = {
	checkIn: ['universalCheckIn', 'CheckIn'],
	checkOut: ['universalCheckOut', 'CheckOut'],
};

/** @param {any} env @param {'checkIn' | 'checkOut'} operation */
function checkInOutTests(env, operation) {
	test(`${operation}: fields added but left empty send nothing (no 0 IDs, no 0.000000 position)`, async () => {
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

	test(`${operation} with no additional fields still sends a JSON body {}`, async () => {
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

	const [endpoint, activity] = ENDPOINTS[operation];
	test(`${operation}: several input items -> one POST per item; Continue On Fail with a bad latitude`, async () => {
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
}

/**
 * Bad values refused before any request. cases: [operation, additionalFields, parameter, problem].
 * @param {any} env @param {any[]} cases
 */
function validationTests(env, cases) {
	test.each(cases)('%s: %j is refused before any request', async (operation, fields, parameter, problem) => {
		const r = await env.run({
			parameters: { resource: 'workOrder', operation, workOrderId: '={{ $json.id }}', additionalFields: fields },
			items: items({ id: 90000011 }),
		});
		expectValidationError(r, { parameter, item: 0, problem });
		expect(r.api).toHaveLength(0);
	});
}

module.exports = { ENDPOINTS, checkInOutTests, validationTests };
