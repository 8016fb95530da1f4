'use strict';
/**
 * The polling trigger against a service that dates as the reference says (the emulator's
 * defaults): plain dates in US Eastern local time (with daylight saving), the offset twins under
 * the work order's own names (`UpdatedDate_DTO`, `CallDate_DTO`) written in the location's zone
 * (Dallas: US Central), whole seconds as deployed instances write them. Through n8n-core's real
 * poll path, against the strict emulator (every request validated by the contract test).
 *
 *   - Status Changed: activation on 300 work orders, then 5 status changes: each emitted once, with
 *     its new Status and its PreviousStatus; the status read selects only real properties.
 *   - Updated and Created across the November fall-back hour and the March spring-forward in US
 *     Eastern: each change emitted once, in the order it happened; the $filter literals carry
 *     the Eastern offset of their instant (-04:00, then -05:00).
 */
const H = require('./helpers');

const env = H.useHarness();

/** The $filter of each window read since `from`. */
const windowFilters = (emu, from) =>
	H.reads(emu, from)
		.filter((r) => / ge /.test(r.$filter ?? ''))
		.map((r) => r.$filter);

describe('Status Changed on 300 work orders', () => {
	test('activation reads the 300 statuses (only Id, Status, UpdatedDate, UpdatedDate_DTO); 5 status changes are each emitted once, with the previous and the new status', async () => {
		const { emu, credentialId } = await H.freshService(env.harness, {
			workOrderCount: 300,
			datePrecisionMs: 1000,
		});
		const from = H.mark(emu);
		const trigger = await env.harness.activate(
			H.triggerWorkflow({ credentialId, event: 'workOrderStatusChanged' }),
		);
		expect(trigger.activation.error).toBeUndefined();
		expect(trigger.activation.items).toEqual([]);
		const reads = H.reads(emu, from);
		expect(reads.every((r) => r.status === 200)).toBe(true);
		const statusPages = reads.filter((r) => r.$select !== undefined);
		expect(statusPages.length).toBeGreaterThanOrEqual(6);
		expect(new Set(statusPages.map((r) => r.$select))).toEqual(
			new Set(['Id,Status,UpdatedDate,UpdatedDate_DTO']),
		);
		expect(statusPages[0].$filter).toMatch(
			/^UpdatedDate lt \d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}-0[45]:00$/,
		);
		const state = H.stateOf(trigger.activation);
		expect(state.baseline).toBeUndefined(); // settled within the activation
		expect(state.statuses.ids.split(',')).toHaveLength(300);

		emu.advanceTime(5);
		const changes = H.changeMark(emu);
		const picks = [90000003, 90000077, 90000150, 90000222, 90000300];
		const before = picks.map((id) => ({
			Primary: emu.workOrder(id).Status.Primary,
			Extended: emu.workOrder(id).Status.Extended,
		}));
		const after = [
			['IN PROGRESS', 'ON SITE'],
			['COMPLETED', 'PENDING CONFIRMATION'],
			['OPEN', 'PARTS ON ORDER'],
			['IN PROGRESS', 'WAITING FOR QUOTE'],
			['ON HOLD', null],
		];
		picks.forEach((id, k) => {
			emu.setWorkOrderStatus(id, after[k][0], after[k][1]);
			emu.advanceTime(1);
		});
		emu.updateWorkOrder(90000010, { Description: 'not a status change' });
		const first = await trigger.poll();
		expect(first.error).toBeUndefined();
		expect(H.ids(first)).toEqual(picks);
		expect(H.ids(first)).toEqual(H.expectedStatusChanged(emu, changes));
		first.items.forEach((item, k) => {
			expect(item.json.Status).toMatchObject({ Primary: after[k][0], Extended: after[k][1] });
			expect(item.json.PreviousStatus).toEqual(before[k]);
		});
		// the downstream node sees them too
		expect(first.executions).toHaveLength(1);

		emu.advanceTime(30);
		const again = await trigger.poll();
		expect(again.items).toEqual([]);
		emu.advanceTime(120);
		expect((await trigger.poll()).items).toEqual([]);
	});
});

describe('Updated and Created across the daylight-saving changes of US Eastern', () => {
	test.each([
		['November fall-back (01:59 EDT -> 01:00 EST)', 'workOrderUpdated', '2026-11-01T05:20:00Z'],
		['November fall-back (01:59 EDT -> 01:00 EST)', 'workOrderCreated', '2026-11-01T05:20:00Z'],
		['March spring-forward (01:59 EST -> 03:00 EDT)', 'workOrderUpdated', '2026-03-08T06:20:00Z'],
		['March spring-forward (01:59 EST -> 03:00 EDT)', 'workOrderCreated', '2026-03-08T06:20:00Z'],
	])('%s, %s: each change emitted once, in the order it happened', async (_, event, at) => {
		const { emu, credentialId } = await H.freshService(env.harness, {
			datePrecisionMs: 1000,
			clockSkewMs: Date.parse(at) - Date.now(),
		});
		const from = H.mark(emu);
		const trigger = await env.harness.activate(H.triggerWorkflow({ credentialId, event }));
		expect(trigger.activation.error).toBeUndefined();
		const boston = (/** @type {any} */ extra = {}) =>
			emu.createWorkOrder({ LocationId: 701, ...extra }); // child 2001: not visible, ignored
		const change = (/** @type {number} */ id, /** @type {string} */ text) =>
			event === 'workOrderCreated'
				? emu.createWorkOrder({ Description: text }).Id
				: emu.updateWorkOrder(id, { Description: text }).Id;

		// 35 minutes before the change: 01:25 EDT (or 01:25 EST in March)
		emu.advanceTime(300);
		const changes = H.changeMark(emu);
		const a = change(90000001, 'half an hour before the change');
		boston();
		const first = await trigger.poll();
		expect(first.error).toBeUndefined();
		expect(H.ids(first)).toEqual([a]);

		// across the change: an hour later the Eastern wall clock reads 01:25 again in November (EST)
		// and 03:25 in March (EDT); the plain UpdatedDate of November repeats, the twins tell them apart
		emu.advanceTime(3600);
		const next = H.changeMark(emu);
		const b = change(90000002, 'half an hour after the change');
		emu.advanceTime(2);
		const c = change(90000001, 'and again');
		const second = await trigger.poll();
		expect(second.error).toBeUndefined();
		const expectedSecond = event === 'workOrderCreated' ? [b, c] : H.expectedUpdated(emu, next);
		expect(H.ids(second)).toEqual(expectedSecond);
		const field = event === 'workOrderCreated' ? 'CallDate' : 'UpdatedDate';
		if (at.startsWith('2026-11')) {
			const earlier = emu.formatDate(Date.parse(at) + 300_000).local;
			const later = emu.formatDate(Date.parse(at) + 3_900_000).local;
			expect(earlier.slice(0, 16)).toBe(later.slice(0, 16)); // the same Eastern wall time, twice
		}
		expect(second.items.every((i) => /-0[56]:00$/.test(i.json[`${field}_DTO`]))).toBe(true); // Dallas: the twins in US Central

		// nothing is emitted twice, however often the trigger reads the overlap again
		for (const seconds of [10, 70, 3600]) {
			emu.advanceTime(seconds);
			const quiet = await trigger.poll();
			expect(quiet.error).toBeUndefined();
			expect(quiet.items).toEqual([]);
		}
		const all = [...H.ids(first), ...H.ids(second)];
		expect(all).toEqual(
			event === 'workOrderCreated' ? [a, b, c] : [a, ...H.expectedUpdated(emu, next)],
		);
		// the work order of another subscriber's location (Boston) was never read
		expect(all).toEqual(all.filter((id) => emu.workOrder(id).SubscriberId === 1001));
		expect(
			H.expectedUpdated(emu, changes, (w) => w.SubscriberId === 1001).every((id) =>
				all.includes(id),
			),
		).toBe(true);

		// the window literals: the service's local time with the Eastern offset of their instant
		const filters = windowFilters(emu, from);
		expect(filters.length).toBeGreaterThanOrEqual(4);
		for (const f of filters)
			expect(f).toMatch(
				new RegExp(`^${field} ge \\d{4}-\\d\\d-\\d\\dT\\d\\d:\\d\\d:\\d\\d\\.\\d{3}-0[45]:00$`),
			);
		const offsets = new Set(filters.map((f) => f.slice(-6)));
		expect(offsets).toEqual(new Set(['-04:00', '-05:00']));
		for (const f of filters) {
			const literal = f.split(' ge ')[1];
			expect(H.literal(Date.parse(literal))).toBe(literal);
		}
	});
});
