'use strict';
/**
 * Shared helpers of the trigger tests (test/trigger/*.test.js). Not a test file itself.
 *
 * One n8n-core harness per test file (it loads the package from dist/); every test starts its own
 * emulator (its own work orders, clock, time zone and faults) and stores its own credential, so a
 * test depends on nothing another test did. Polls run through n8n-core's real poll path
 * (harness.activate / trigger.poll(), harness.poll({ mode: 'manual' })).
 */
const path = require('path');
const {
	CREDENTIAL_TYPES,
	apiRequests,
	closeServicesAfterEach,
	serviceWithCredential,
	useFileHarness,
} = require('../support');

const { serviceDateTime } = require(
	path.resolve(__dirname, '..', '..', 'dist', 'nodes', 'WorkOrderService', 'helpers', 'dateTime'),
);

const TRIGGER_TYPE = 'n8n-nodes-work-order-service.workOrderServicePollingTrigger';
const TRIGGER_NAME = 'Work Order Service Trigger';

const useHarness = useFileHarness;
closeServicesAfterEach();

/**
 * A fresh emulator (closed after the test) and a fresh credential for it (password by default).
 * Long token lifetimes: tests move the service clock forward instead of waiting.
 * @returns {Promise<{ emu: any, credentialId: string }>}
 */
async function freshService(
	harness,
	emulatorOptions = {},
	{ authentication = 'password', userKey } = {},
) {
	return await serviceWithCredential(harness, {
		authentication,
		userKey,
		emulatorOptions,
		idPrefix: 'trigger-cred',
	});
}

/**
 * A workflow with the trigger (and a downstream Edit Fields node that passes items on).
 * @param {{ credentialId: string, event?: string, filters?: object, options?: object, requestOptions?: object,
 *   authentication?: string, timezone?: string, pollTimes?: object }} spec
 */
function triggerWorkflow(spec) {
	const authentication = spec.authentication ?? 'password';
	const parameters = {
		authentication,
		event: spec.event ?? 'workOrderUpdated',
		pollTimes: spec.pollTimes ?? { item: [{ mode: 'everyMinute' }] },
		filters: spec.filters ?? {},
		options: spec.options ?? {},
	};
	if (spec.requestOptions) parameters.requestOptions = spec.requestOptions;
	return {
		id: 'trigger-workflow',
		name: 'Trigger test',
		nodes: [
			{
				id: 'node-trigger',
				name: TRIGGER_NAME,
				type: TRIGGER_TYPE,
				typeVersion: 1,
				position: [0, 0],
				parameters,
				credentials: {
					[CREDENTIAL_TYPES[authentication]]: {
						id: spec.credentialId,
						name: `Emulator ${authentication}`,
					},
				},
			},
			{
				id: 'node-next',
				name: 'Next',
				type: 'n8n-nodes-base.set',
				typeVersion: 3.4,
				position: [220, 0],
				parameters: {
					mode: 'raw',
					jsonOutput: '={{ { id: $json.Id, status: $json.Status.Primary } }}',
				},
			},
		],
		connections: { [TRIGGER_NAME]: { main: [[{ node: 'Next', type: 'main', index: 0 }]] } },
		settings: { executionOrder: 'v1', ...(spec.timezone ? { timezone: spec.timezone } : {}) },
	};
}

/**
 * An instant (ISO text or ms) as the trigger writes it into $filter: US Eastern local time with its
 * explicit offset (`2026-11-01T01:30:00.000-04:00`).
 */
function literal(instant) {
	return serviceDateTime(typeof instant === 'number' ? instant : Date.parse(instant));
}

/** The ids of emitted items. */
function ids(result) {
	return result.items.map((item) => item.json.Id);
}

/** The trigger's stored state after a poll. */
function stateOf(result) {
	return result.nodeStaticData.state;
}

/** The work-order list reads the emulator received since `from` (index into emu.requests). */
function reads(emu, from = 0) {
	return apiRequests(emu)
		.filter((r) => r.seq > from && r.path === '/api/v3/odata/workorders')
		.map((r) => ({ status: r.status, ...r.query }));
}

/** The emulator's request sequence number now (use with reads()). */
function mark(emu) {
	return emu.requests.length ? emu.requests[emu.requests.length - 1].seq : 0;
}

/**
 * Expected Updated events since change `fromSeq`: each work order changed after it, once, in the
 * order of its last change (then Id).
 */
function expectedUpdated(emu, fromSeq, keep = () => true) {
	const last = new Map();
	for (const change of emu.state.workOrderChanges)
		if (change.seq > fromSeq) last.set(change.workOrderId, change);
	return [...last.values()]
		.filter((c) => keep(emu.workOrder(c.workOrderId)))
		.sort((a, b) => Date.parse(a.at) - Date.parse(b.at) || a.workOrderId - b.workOrderId)
		.map((c) => c.workOrderId);
}

/**
 * Expected Status Changed events since change `fromSeq`: work orders whose status after their last
 * change differs from their status before their first change after `fromSeq` (what the trigger
 * saw last), once each, in the order of their last change.
 */
function expectedStatusChanged(emu, fromSeq, keep = () => true) {
	const first = new Map();
	const last = new Map();
	for (const change of emu.state.workOrderChanges) {
		if (change.seq <= fromSeq) continue;
		if (!first.has(change.workOrderId)) first.set(change.workOrderId, change);
		last.set(change.workOrderId, change);
	}
	const same = (a, b) =>
		a && b && a.Primary === b.Primary && (a.Extended ?? null) === (b.Extended ?? null);
	return [...last.values()]
		.filter((c) => first.get(c.workOrderId).kind !== 'created')
		.filter((c) => !same(first.get(c.workOrderId).statusBefore, c.statusAfter))
		.filter((c) => keep(emu.workOrder(c.workOrderId)))
		.sort((a, b) => Date.parse(a.at) - Date.parse(b.at) || a.workOrderId - b.workOrderId)
		.map((c) => c.workOrderId);
}

/** The last change sequence number (use with expectedUpdated / expectedStatusChanged). */
function changeMark(emu) {
	const changes = emu.state.workOrderChanges;
	return changes.length ? changes[changes.length - 1].seq : 0;
}

module.exports = {
	TRIGGER_TYPE,
	TRIGGER_NAME,
	CREDENTIAL_TYPES,
	useHarness,
	freshService,
	triggerWorkflow,
	ids,
	literal,
	stateOf,
	reads,
	mark,
	expectedUpdated,
	expectedStatusChanged,
	changeMark,
};
