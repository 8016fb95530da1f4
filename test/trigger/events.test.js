'use strict';
/**
 * Work Order Service Trigger: each event, Fetch Test Event, the three credential types, and how
 * errors surface. Every poll runs through n8n-core's PollTriggerExecutor with a PollContext, as
 * n8n runs an active workflow's poll; Fetch Test Event through WorkflowExecute in manual mode.
 */
const { NodeApiError, NodeOperationError } = require('n8n-workflow');
const H = require('./helpers');

const env = H.useHarness();

/** The record as the API returns it (JSON), to compare with an emitted item. */
function asJson(record) {
	return JSON.parse(JSON.stringify(record));
}

describe('events', () => {
	test('Work Order Created: each new work order once (whole record), read by CallDate; later changes are not "created" again', async () => {
		const { emu, credentialId } = await H.freshService(env.harness);
		const trigger = await env.harness.activate(
			H.triggerWorkflow({ credentialId, event: 'workOrderCreated' }),
		);
		expect(trigger.activation.error).toBeUndefined();
		expect(trigger.activation.items).toEqual([]);
		const cursor = H.stateOf(trigger.activation).cursor;

		const from = H.mark(emu);
		const created = emu.createWorkOrders([
			{ Trade: 'PLUMBING', Category: 'REPAIR' },
			{ LocationId: 502 },
		]);
		emu.updateWorkOrder(90000003, { Description: 'an existing work order changed' });
		const first = await trigger.poll();
		expect(first.error).toBeUndefined();
		expect(H.ids(first)).toEqual(created.map((w) => w.Id));
		expect(first.items.map((i) => i.json)).toEqual(created.map((w) => asJson(emu.workOrder(w.Id))));
		expect(H.reads(emu, from)).toEqual([
			{
				status: 200,
				$filter: `CallDate ge ${H.literal(cursor)}`,
				$orderby: 'CallDate asc,Id asc',
				$top: '50',
				$skip: '0',
				$count: 'true',
			},
		]);
		// n8n starts one execution per emit: the items reach the next node
		expect(first.executions).toHaveLength(1);
		expect(first.executions[0].status).toBe('success');
		expect(first.executions[0].outputs.Next.map((i) => i.json.id)).toEqual(
			created.map((w) => w.Id),
		);

		emu.updateWorkOrder(created[0].Id, { Description: 'edited after creation' });
		emu.advanceTime(90);
		const second = await trigger.poll();
		expect(second.error).toBeUndefined();
		expect(second.items).toEqual([]);
		expect(second.executions).toEqual([]);
	});

	test('Work Order Updated: every changed or new work order once, with its latest state', async () => {
		const { emu, credentialId } = await H.freshService(env.harness);
		const trigger = await env.harness.activate(
			H.triggerWorkflow({ credentialId, event: 'workOrderUpdated' }),
		);
		expect(trigger.activation.items).toEqual([]);
		const cursor = H.stateOf(trigger.activation).cursor;

		const changes = H.changeMark(emu);
		const from = H.mark(emu);
		emu.updateWorkOrder(90000007, { Description: 'first change' });
		emu.setWorkOrderStatus(90000010, 'IN PROGRESS', 'ON SITE');
		const [created] = emu.createWorkOrders([{}]);
		emu.updateWorkOrder(90000007, { Priority: 'P1 - Emergency' });
		const poll = await trigger.poll();
		expect(poll.error).toBeUndefined();
		expect(H.ids(poll)).toEqual(H.expectedUpdated(emu, changes));
		expect([...H.ids(poll)].sort()).toEqual([90000007, 90000010, created.Id]);
		const wo7 = poll.items.find((i) => i.json.Id === 90000007).json;
		expect(wo7).toEqual(asJson(emu.workOrder(90000007)));
		expect(wo7.Priority).toBe('P1 - Emergency');
		expect(wo7.Description).toBe('first change');
		expect(H.reads(emu, from)).toEqual([
			{
				status: 200,
				$filter: `UpdatedDate ge ${H.literal(cursor)}`,
				$orderby: 'UpdatedDate asc,Id asc',
				$top: '50',
				$skip: '0',
				$count: 'true',
			},
		]);
	});

	test('Work Order Status Changed: only work orders whose primary or extended status differs from what the trigger last saw', async () => {
		const { emu, credentialId } = await H.freshService(env.harness);
		const from = H.mark(emu);
		const trigger = await env.harness.activate(
			H.triggerWorkflow({ credentialId, event: 'workOrderStatusChanged' }),
		);
		expect(trigger.activation.error).toBeUndefined();
		expect(trigger.activation.items).toEqual([]);
		// activation: the service clock (T0), then the status of every work order as of T0: keyset
		// pages by Id, highest first, only the fields needed (120 fixtures: 50, 50, 20, which ends it)
		const state = H.stateOf(trigger.activation);
		const activation = H.reads(emu, from);
		expect(activation[0]).toEqual({ status: 200, $orderby: 'UpdatedDate desc,Id desc', $top: '1' });
		const page = {
			status: 200,
			$orderby: 'Id desc',
			$top: '50',
			$select: 'Id,Status,UpdatedDate,UpdatedDate_DTO',
		};
		expect(activation.slice(1)).toEqual([
			{ ...page, $filter: `UpdatedDate lt ${H.literal(state.origin)}` },
			{ ...page, $filter: `UpdatedDate lt ${H.literal(state.origin)} and Id lt 90000071` },
			{ ...page, $filter: `UpdatedDate lt ${H.literal(state.origin)} and Id lt 90000021` },
		]);
		// every fixture's status is remembered; the read ended (a page shorter than the others): settled
		expect(state.statuses.ids.split(',')).toHaveLength(120);
		expect(state.baseline).toBeUndefined();

		const changes = H.changeMark(emu);
		const extendedOnly = emu.workOrder(90000020).Status;
		emu.setWorkOrderStatus(90000011, 'IN PROGRESS', 'ON SITE'); // primary and extended
		emu.setWorkOrderStatus(90000020, extendedOnly.Primary, 'PARTS ON ORDER'); // extended only
		emu.updateWorkOrder(90000012, { Description: 'no status change' });
		emu.setWorkOrderStatus(90000013, 'COMPLETED', 'PENDING CONFIRMATION');
		emu.setWorkOrderStatus(
			90000013,
			emu.state.workOrderChanges.find((c) => c.seq > changes && c.workOrderId === 90000013)
				.statusBefore.Primary,
			emu.state.workOrderChanges.find((c) => c.seq > changes && c.workOrderId === 90000013)
				.statusBefore.Extended,
		); // and back
		const [created] = emu.createWorkOrders([{}]);
		const first = await trigger.poll();
		expect(first.error).toBeUndefined();
		expect(H.ids(first)).toEqual(H.expectedStatusChanged(emu, changes));
		expect(H.ids(first)).toEqual([90000011, 90000020]);
		expect(first.items[0].json.Status).toEqual({
			Primary: 'IN PROGRESS',
			Extended: 'ON SITE',
			CanCreateInvoice: false,
		});
		// each item says what the status was before the change
		const before11 = emu.state.workOrderChanges.find(
			(c) => c.seq > changes && c.workOrderId === 90000011,
		).statusBefore;
		expect(first.items[0].json.PreviousStatus).toEqual(before11);
		expect(first.items[1].json.PreviousStatus).toEqual({
			Primary: extendedOnly.Primary,
			Extended: extendedOnly.Extended,
		});

		// the new work order is now known: its status change is reported
		const next = H.changeMark(emu);
		emu.setWorkOrderStatus(created.Id, 'IN PROGRESS', 'EN ROUTE');
		emu.updateWorkOrder(90000011, { Description: 'same status' });
		emu.advanceTime(90);
		const second = await trigger.poll();
		expect(H.ids(second)).toEqual(H.expectedStatusChanged(emu, next));
		expect(H.ids(second)).toEqual([created.Id]);
		expect(second.items[0].json).toMatchObject({
			Status: { Primary: 'IN PROGRESS', Extended: 'EN ROUTE' },
			PreviousStatus: { Primary: 'OPEN', Extended: 'DISPATCH CONFIRMED' },
		});
	});

	test('Fetch Test Event (manual mode): the most recent matching work order, without touching the trigger state', async () => {
		const { emu, credentialId } = await H.freshService(env.harness);
		const wf = H.triggerWorkflow({
			credentialId,
			event: 'workOrderUpdated',
			filters: { trades: 'PLUMBING' },
		});
		const staticData = {
			'node:Work Order Service Trigger': {
				state: {
					version: 1,
					event: 'workOrderUpdated',
					startDate: '',
					cursor: '2020-01-01T00:00:00.000Z',
					seen: [],
				},
			},
		};
		emu.updateWorkOrder(90000003, { Description: 'the latest plumbing change' });
		emu.updateWorkOrder(90000004, { Description: 'a later electrical change' });
		const from = H.mark(emu);
		const manual = await env.harness.poll(wf, { mode: 'manual', staticData });
		expect(manual.error).toBeUndefined();
		expect(manual.result.status).toBe('success');
		expect(H.ids(manual)).toEqual([90000003]);
		expect(manual.items[0].json).toEqual(asJson(emu.workOrder(90000003)));
		expect(manual.result.outputs.Next.map((i) => i.json)).toEqual([
			{ id: 90000003, status: emu.workOrder(90000003).Status.Primary },
		]);
		expect(H.reads(emu, from)).toEqual([
			{
				status: 200,
				$filter: "Trade eq 'PLUMBING'",
				$orderby: 'UpdatedDate desc,Id desc',
				$top: '1',
			},
		]);
		expect(manual.result.run.data.resultData.runData['Work Order Service Trigger']).toHaveLength(1);

		// Created: the most recently created one
		const [created] = emu.createWorkOrders([{ Trade: 'PLUMBING' }]);
		emu.updateWorkOrder(90000003, { Description: 'changed again' });
		const createdEvent = await env.harness.poll(
			H.triggerWorkflow({
				credentialId,
				event: 'workOrderCreated',
				filters: { trades: 'PLUMBING' },
			}),
			{ mode: 'manual' },
		);
		expect(H.ids(createdEvent)).toEqual([created.Id]);
	});

	test('Fetch Test Event with nothing matching: an error that says so', async () => {
		const { credentialId } = await H.freshService(env.harness);
		const manual = await env.harness.poll(
			H.triggerWorkflow({ credentialId, filters: { trades: 'NO SUCH TRADE' } }),
			{ mode: 'manual' },
		);
		expect(manual.result.status).toBe('error');
		expect(manual.error).toBeInstanceOf(NodeOperationError);
		expect(manual.error.message).toBe("No work order matches the trigger's filters");
		expect(manual.error.description).toMatch(/Loosen the filters/);
	});
});

describe('credentials', () => {
	test.each([
		['password', 'demo.subscriber', 'oauth'],
		['oAuth2', 'demo.subscriber', 'oauth'],
		['contractor', 'demo.contractor', 'jwt'],
	])(
		"%s credential: polls with its token; a contractor sees only its provider's work orders",
		async (authentication, username, tokenKind) => {
			const { emu, credentialId } = await H.freshService(
				env.harness,
				{},
				{
					authentication,
					userKey: authentication === 'contractor' ? 'contractor' : 'subscriber',
				},
			);
			const trigger = await env.harness.activate(
				H.triggerWorkflow({ credentialId, authentication }),
			);
			expect(trigger.activation.error).toBeUndefined();
			const mine = emu.createWorkOrder({ ProviderId: 3001 });
			emu.createWorkOrder({ ProviderId: 3002 });
			const from = H.mark(emu);
			const poll = await trigger.poll();
			expect(poll.error).toBeUndefined();
			if (authentication === 'contractor') expect(H.ids(poll)).toEqual([mine.Id]);
			else expect(H.ids(poll)).toEqual([mine.Id, mine.Id + 1]);
			const requests = emu.requests.filter((r) => r.seq > from && r.path.startsWith('/api/'));
			expect(requests.length).toBeGreaterThan(0);
			for (const request of requests) {
				const token = request.headers.authorization.slice('Bearer '.length);
				const issued = emu.state.tokens.find((t) => t.token === token);
				expect(issued).toMatchObject({ username, kind: tokenKind });
			}
		},
	);

	test('a credential the service refuses fails the activation with the login error, and nothing is stored', async () => {
		const { emu, credentialId } = await H.freshService(env.harness);
		const data = env.harness.credentials.get(credentialId);
		env.harness.credentials.set(credentialId, {
			name: 'Wrong',
			type: 'workOrderServiceApi',
			data: { ...data, password: 'wrong-password' },
		});
		const trigger = await env.harness.activate(H.triggerWorkflow({ credentialId }));
		expect(trigger.activation.error).toBeInstanceOf(NodeApiError);
		expect(trigger.activation.error.message).toMatch(/^Login to the Work Order Service failed/);
		expect(trigger.activation.error.message).not.toContain('wrong-password');
		expect(trigger.activation.items).toEqual([]);
		expect(trigger.activation.nodeStaticData).toEqual({});
		expect(trigger.activation.saved).toBeUndefined();
		expect(H.reads(emu)).toEqual([]);
	});
});
