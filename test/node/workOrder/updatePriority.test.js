'use strict';
/**
 * workOrder.updatePriority: PUT /workorders/{id}/priority with the priority's name in Value
 * (ChangeWoValueRequest); the `{ id }` answer in the item; the service's refusal of an unknown
 * priority (913); validation.
 */
const {
	useEnvironment,
	items,
	expectBearer,
	expectJsonRequest,
	pairedIndexes,
	expectValidationError,
	expectApiError,
} = require('../helpers');

const env = useEnvironment();

const WO = 90000012;
const base = (parameters) => ({
	resource: 'workOrder',
	operation: 'updatePriority',
	workOrderId: WO,
	...parameters,
});

describe('workOrder.updatePriority', () => {
	test('the priority name in Value, the actor beside it; the work order changes and raises its event', async () => {
		const events = env.emulator.webhooks.events.length;
		const r = await env.run({
			parameters: base({ priority: 'P1 - Emergency', additionalFields: { actor: 'BMS' } }),
		});
		expect(r.error).toBeUndefined();
		expectJsonRequest(r.api[0], {
			method: 'PUT',
			path: `/api/v3/workorders/${WO}/priority`,
			body: { Value: 'P1 - Emergency', Actor: 'BMS' },
		});
		expectBearer(env, r.api[0]);
		expect(r.output).toEqual([
			{
				json: {
					success: true,
					operation: 'updatePriority',
					workOrderId: WO,
					priority: 'P1 - Emergency',
					id: WO,
				},
				pairedItem: { item: 0 },
			},
		]);
		expect(env.emulator.workOrder(WO).Priority).toBe('P1 - Emergency');
		expect(env.emulator.webhooks.events.slice(events).map((e) => e.eventType)).toEqual([
			'WorkOrderPriorityChanged',
		]);
	});

	test('an unknown priority: the service refuses (913); with Continue On Fail the next item still runs', async () => {
		const r = await env.run({
			parameters: base({ priority: '={{ $json.p }}' }),
			items: items({ p: 'Yesterday' }, { p: 'P4 - Low' }),
			continueOnFail: true,
		});
		expect(r.api.map((q) => [q.body.Value, q.status])).toEqual([
			['Yesterday', 400],
			['P4 - Low', 200],
		]);
		expect(pairedIndexes(r.output)).toEqual([0, 1]);
		expect(r.output[0].json.error).toContain("Priority 'Yesterday' is not known");
		expect(r.output[1].json).toMatchObject({ success: true, priority: 'P4 - Low' });
	});

	test("a refusal without Continue On Fail is a NodeApiError with the service's message and code", async () => {
		const r = await env.run({ parameters: base({ priority: 'Soon' }) });
		expectApiError(r, { status: 400, serviceMessage: "Priority 'Soon' is not known", code: 913 });
	});

	test.each([
		['empty priority from an expression', { priority: '={{ "  " }}' }, /must not be empty/],
		['a priority of 101 characters', { priority: 'P'.repeat(101) }, /at most 100/],
	])('%s is refused before any request', async (_name, parameters, problem) => {
		const r = await env.run({ parameters: base(parameters) });
		expectValidationError(r, { parameter: 'priority', item: 0, problem });
		expect(r.api).toHaveLength(0);
	});
});
