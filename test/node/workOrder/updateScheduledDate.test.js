'use strict';
/**
 * workOrder.updateScheduledDate: PUT /workorders/{id}/scheduledate with a ChangeWoValueRequest
 * and `rescheduleReasonCode` in the query (service-reference.md section 8); the `{ id }` answer in
 * the item; the service's refusal of a date before the call date (908); validation.
 */
const {
	useEnvironment,
	expectBearer,
	expectJsonRequest,
	expectValidationError,
	expectApiError,
} = require('../helpers');

const env = useEnvironment();

const WO = 90000011;
const base = (parameters) => ({
	resource: 'workOrder',
	operation: 'updateScheduledDate',
	workOrderId: WO,
	...parameters,
});

describe('workOrder.updateScheduledDate', () => {
	test('the date as typed in Value, the reason code in the query, the actor in the body', async () => {
		const events = env.emulator.webhooks.events.length;
		const next = new Date(Date.now() + 5 * 86400000).toISOString().slice(0, 19);
		const r = await env.run({
			parameters: base({
				scheduledDate: next,
				additionalFields: { rescheduleReasonCode: '2', actor: 'Dispatcher bot' },
			}),
		});
		expect(r.error).toBeUndefined();
		expectJsonRequest(r.api[0], {
			method: 'PUT',
			path: `/api/v3/workorders/${WO}/scheduledate`,
			query: { rescheduleReasonCode: '2' },
			body: { Value: next, Actor: 'Dispatcher bot' },
		});
		expectBearer(env, r.api[0]);
		expect(r.output).toEqual([
			{
				json: {
					success: true,
					operation: 'updateScheduledDate',
					workOrderId: WO,
					scheduledDate: next,
					id: WO,
				},
				pairedItem: { item: 0 },
			},
		]);
		const stored = env.emulator.workOrder(WO);
		expect(env.emulator.parseDate(stored.ScheduledDateDto ?? stored.ScheduledDate_DTO)).toBe(
			env.emulator.parseDate(next),
		);
		expect(env.emulator.webhooks.events.slice(events).map((e) => e.eventType)).toEqual([
			'WorkOrderScheduledDateChanged',
		]);
	});

	test('a date with an offset from an expression (Luxon) is sent as ISO 8601 with its offset', async () => {
		const r = await env.run({
			parameters: base({
				scheduledDate: '={{ $now.plus({ days: 3 }).setZone("America/New_York") }}',
			}),
		});
		expect(r.error).toBeUndefined();
		expect(r.api[0].query).toEqual({});
		expect(r.api[0].body.Value).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}-0[45]:00$/);
	});

	test('a date before the call date: the service refuses (908)', async () => {
		const r = await env.run({ parameters: base({ scheduledDate: '2001-01-01T08:00:00' }) });
		expectApiError(r, {
			status: 400,
			serviceMessage: 'The scheduled date must not be before the call date',
			code: 908,
		});
	});

	test.each([
		[
			'no date (an expression giving nothing)',
			{ scheduledDate: '={{ "" }}' },
			'scheduledDate',
			/not empty/,
		],
		['not a date', { scheduledDate: 'next Tuesday' }, 'scheduledDate', /ISO 8601/],
		[
			'reason code 0',
			{ scheduledDate: '2030-01-01T08:00:00', additionalFields: { rescheduleReasonCode: '0' } },
			'additionalFields.rescheduleReasonCode',
			/1 or greater/,
		],
	])('%s is refused before any request', async (_name, parameters, parameter, problem) => {
		const r = await env.run({ parameters: base(parameters) });
		expectValidationError(r, { parameter, item: 0, problem });
		expect(r.api).toHaveLength(0);
	});
});
