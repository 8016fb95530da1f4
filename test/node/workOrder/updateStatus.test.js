'use strict';
/**
 * workOrder.updateStatus: PUT /workorders/{id}/status with a ChangeWoStatusRequest
 * (service-reference.md section 8) as the emulator received it; the `{ id, result }` answer in the
 * item with what changed; the decline reason; the service's refusals (bad status 904, invoiced
 * 921, no work order 502); validation before any request; Continue On Fail.
 */
const {
	useEnvironment,
	items,
	expectBearer,
	expectJsonRequest,
	pairedIndexes,
	expectValidationError,
	expectApiError,
	responseJson,
} = require('../helpers');

const env = useEnvironment();

const WO = 90000003; // OPEN / DISPATCH CONFIRMED, plumbing at 501
const base = (parameters) => ({
	resource: 'workOrder',
	operation: 'updateStatus',
	workOrderId: { __rl: true, mode: 'id', value: String(WO) },
	...parameters,
});

describe('workOrder.updateStatus', () => {
	test('primary and extended status with a note and an actor: the body as sent, the answer and what changed in the item', async () => {
		const events = env.emulator.webhooks.events.length;
		const notes = env.emulator.notesOf(WO).length;
		const r = await env.run({
			parameters: base({
				primaryStatus: 'IN PROGRESS',
				extendedStatus: 'ON SITE',
				note: 'Technician on site at 10:05',
				additionalFields: { actor: 'BMS' },
			}),
		});
		expect(r.error).toBeUndefined();
		expectJsonRequest(r.api[0], {
			method: 'PUT',
			path: `/api/v3/workorders/${WO}/status`,
			body: {
				Status: { Primary: 'IN PROGRESS', Extended: 'ON SITE' },
				Note: 'Technician on site at 10:05',
				Actor: 'BMS',
			},
		});
		expectBearer(env, r.api[0]);
		const answer = responseJson(r.api[0]);
		expect(answer).toEqual({
			result: expect.stringContaining('Technician on site at 10:05'),
			id: WO,
		});
		expect(r.output).toEqual([
			{
				json: {
					success: true,
					operation: 'updateStatus',
					workOrderId: WO,
					primaryStatus: 'IN PROGRESS',
					extendedStatus: 'ON SITE',
					result: answer.result,
					id: WO,
				},
				pairedItem: { item: 0 },
			},
		]);
		expect(env.emulator.workOrder(WO).Status).toEqual({
			Primary: 'IN PROGRESS',
			Extended: 'ON SITE',
			CanCreateInvoice: false,
		});
		expect(env.emulator.notesOf(WO)).toHaveLength(notes + 1);
		expect(env.emulator.webhooks.events.slice(events).map((e) => e.eventType)).toEqual([
			'WorkOrderStatusChanged',
			'WorkOrderNoteAdded',
		]);
	});

	test('no extended status: Extended is sent empty (the reference requires it), the service keeps none', async () => {
		const r = await env.run({ parameters: base({ primaryStatus: 'OPEN' }) });
		expect(r.error).toBeUndefined();
		expect(r.api[0].body).toEqual({ Status: { Primary: 'OPEN', Extended: '' } });
		expect(env.emulator.workOrder(WO).Status).toEqual({
			Primary: 'OPEN',
			Extended: null,
			CanCreateInvoice: false,
		});
		expect(r.output[0].json).toMatchObject({ primaryStatus: 'OPEN', extendedStatus: '' });
	});

	test('declining: OPEN / DECLINED with a decline reason and its own text', async () => {
		const r = await env.run({
			parameters: base({
				primaryStatus: 'OPEN',
				extendedStatus: 'DECLINED',
				additionalFields: { declineReasonId: '3', customDeclineReason: 'No roof access this week' },
			}),
		});
		expect(r.error).toBeUndefined();
		expect(r.api[0].body).toEqual({
			Status: { Primary: 'OPEN', Extended: 'DECLINED' },
			DeclineReasonId: 3,
			CustomDeclineReason: 'No roof access this week',
		});
		expect(r.output[0].json.result).toContain('Decline reason: No roof access this week.');
	});

	test('declining without a reason: the service refuses (9001), a NodeApiError with its message', async () => {
		const r = await env.run({
			parameters: base({ primaryStatus: 'OPEN', extendedStatus: 'DECLINED' }),
		});
		expectApiError(r, {
			status: 400,
			serviceMessage: 'DeclineReasonId is required to decline a work order',
			code: 9001,
		});
	});

	test.each([
		[
			'an unknown status',
			{ primaryStatus: 'PAUSED' },
			WO,
			"'PAUSED' is not a work order status",
			904,
		],
		[
			'an extended status of another status',
			{ primaryStatus: 'COMPLETED', extendedStatus: 'ON SITE' },
			WO,
			"'ON SITE' is not an extended status of COMPLETED",
			904,
		],
		[
			'an invoiced work order',
			{ primaryStatus: 'OPEN' },
			90000007,
			'Work order 90000007 is invoiced and cannot be changed',
			921,
		],
		[
			'no such work order',
			{ primaryStatus: 'OPEN' },
			91999999,
			'Work order 91999999 was not found',
			502,
		],
	])(
		'%s: the service refuses with its code',
		async (_name, parameters, workOrderId, message, code) => {
			const r = await env.run({
				parameters: {
					...base(parameters),
					workOrderId: { __rl: true, mode: 'id', value: String(workOrderId) },
				},
			});
			expect(r.api).toHaveLength(1);
			expectApiError(r, { status: 400, serviceMessage: message, code });
		},
	);

	test('Continue On Fail: one item per input, the refused one as an error item', async () => {
		const r = await env.run({
			parameters: {
				...base({ primaryStatus: '={{ $json.status }}' }),
				workOrderId: '={{ $json.wo }}',
			},
			items: items(
				{ wo: 90000011, status: 'IN PROGRESS' },
				{ wo: 90000007, status: 'OPEN' },
				{ wo: 90000012, status: ' ' },
				{ wo: 90000012, status: 'COMPLETED' },
			),
			continueOnFail: true,
		});
		expect(r.result.status).toBe('success');
		expect(r.api.map((q) => q.path)).toEqual([
			'/api/v3/workorders/90000011/status',
			'/api/v3/workorders/90000007/status',
			'/api/v3/workorders/90000012/status',
		]);
		expect(pairedIndexes(r.output)).toEqual([0, 1, 2, 3]);
		expect(r.output[0].json).toMatchObject({ success: true, workOrderId: 90000011, id: 90000011 });
		expect(r.output[1].json.error).toContain('invoiced');
		expect(r.output[2].json.error).toContain(
			'Invalid Status (parameter "primaryStatus") in item 2',
		);
		expect(env.emulator.workOrder(90000012).Status.Primary).toBe('COMPLETED');
	});

	test.each([
		[
			'status empty (expression)',
			{ primaryStatus: '={{ "" }}' },
			'primaryStatus',
			/must not be empty/,
		],
		[
			'decline reason not an ID',
			{ primaryStatus: 'OPEN', additionalFields: { declineReasonId: 'other' } },
			'additionalFields.declineReasonId',
			/positive whole number/,
		],
		[
			'work order not an ID',
			{ primaryStatus: 'OPEN', workOrderId: '={{ "WO-1" }}' },
			'workOrderId',
			/positive whole number/,
		],
	])('%s is refused before any request', async (_name, parameters, parameter, problem) => {
		const r = await env.run({ parameters: base(parameters) });
		expectValidationError(r, { parameter, item: 0, problem });
		expect(r.api).toHaveLength(0);
	});
});
