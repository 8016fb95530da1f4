'use strict';
/**
 * workOrder.checkOut: POST /workorders/{id}/universalCheckOut, linked by the service to the open
 * check-in; the 201 record is the item (what checkIn and checkOut share: ./checkInOut.js).
 */
const { useEnvironment, items, expectJsonRequest, expectValidationError } = require('../helpers');
const { checkInOutTests, validationTests } = require('./checkInOut');

const env = useEnvironment();

const plain = (value) => JSON.parse(JSON.stringify(value));

describe('workOrder.checkOut', () => {
	test('checkOut: POST universalCheckOut, linked to the open check-in; WorkCompleted in the body', async () => {
		// the open check-in it is linked to, made here so that this file stands alone
		const checkIn = await env.run({ parameters: { resource: 'workOrder', operation: 'checkIn', workOrderId: 90000001 } });
		expect(checkIn.error).toBeUndefined();
		const checkInId = env.emulator.state.checkIns.at(-1).Id;
		expect(checkIn.output[0].json.Id).toBe(checkInId);
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

	checkInOutTests(env, 'checkOut');
});

describe('workOrder.checkOut: validation before any request', () => {
	validationTests(env, [
		['checkOut', { userId: 0 }, 'additionalFields.userId', /1 or greater/],
		['checkOut', { userId: '0' }, 'additionalFields.userId', /1 or greater/],
		['checkOut', { numberOfTechnicians: 1.5 }, 'additionalFields.numberOfTechnicians', /positive whole number/],
		['checkOut', { workCompleted: '={{ "yes" }}' }, 'additionalFields.workCompleted', /true or false/],
	]);

	test('bad work order ID on checkOut is refused before any request', async () => {
		const r = await env.run({
			parameters: { resource: 'workOrder', operation: 'checkOut', workOrderId: '={{ $json.id }}' },
			items: items({ id: 90000012 }, { id: '' }),
		});
		expectValidationError(r, { parameter: 'workOrderId', item: 1 });
		expect(r.api.map((q) => q.path)).toEqual(['/api/v3/workorders/90000012/universalCheckOut']);
	});
});
