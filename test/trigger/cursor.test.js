'use strict';
/**
 * Work Order Service Trigger: the cursor and "exactly once". Each test starts its own emulator;
 * the service clock is moved with emu.advanceTime / clockSkewMs instead of waiting.
 */
const H = require('./helpers');

const env = H.useHarness();
const LOOKBACK_MS = 60_000;
const ALL_FIXTURES = Array.from({ length: 120 }, (_, i) => 90000001 + i);

/** `<Id>@<ISO instant of UpdatedDate_DTO>` of emitted items. */
function keysOf(result, field = 'UpdatedDate') {
	return result.items.map(
		(i) => `${i.json.Id}@${new Date(Date.parse(i.json[`${field}_DTO`])).toISOString()}`,
	);
}

/** The `seen` keys of a state without their content digest (each has one: `#` and 8 characters). */
function seenWithoutDigest(state) {
	for (const key of state.seen) expect(key).toMatch(/^\d+@\S+Z#[A-Za-z0-9_-]{8}$/);
	return state.seen.map((key) => key.split('#')[0]);
}

/** The service clock at `ms` as its Date header gives it (whole seconds). */
const wholeSeconds = (ms) => Math.floor(ms / 1000) * 1000;

/**
 * The cursor is the service clock (Date header precision: whole seconds) at the poll's read minus
 * the lookback: between the service clock when the poll started (`since`, emu.now() taken just
 * before it) and the service clock now, whatever time a busy machine took for the poll.
 */
function expectCursorNear(state, emu, since) {
	const cursor = Date.parse(state.cursor);
	expect(cursor).toBeGreaterThanOrEqual(wholeSeconds(since) - LOOKBACK_MS);
	expect(cursor).toBeLessThanOrEqual(wholeSeconds(emu.now()) - LOOKBACK_MS);
	return cursor;
}

/** T0: the service clock in whole seconds (its Date header) at activation (`since`: emu.now() just before it). */
function expectOriginNear(state, emu, since) {
	const origin = Date.parse(state.origin);
	expect(origin % 1000).toBe(0);
	expect(origin).toBeGreaterThanOrEqual(wholeSeconds(since));
	expect(origin).toBeLessThanOrEqual(wholeSeconds(emu.now()));
	return origin;
}

describe('first activation', () => {
	test('no backfill: nothing dated before T0 (the service clock at activation) is emitted; the cursor starts at T0, never before', async () => {
		const { emu, credentialId } = await H.freshService(env.harness);
		// dated before T0 (the Date header has whole seconds: 1.5 s back is always before it)
		emu.updateWorkOrder(90000001, {
			Description: 'changed before activation',
			UpdatedDate: emu.now() - 1500,
		});
		const from = H.mark(emu);
		const since = emu.now();
		const trigger = await env.harness.activate(H.triggerWorkflow({ credentialId }));
		expect(trigger.activation.error).toBeUndefined();
		expect(trigger.activation.items).toEqual([]);
		expect(trigger.activation.executions).toEqual([]);
		const state = H.stateOf(trigger.activation);
		const origin = expectOriginNear(state, emu, since);
		expect(state).toEqual({
			version: 2,
			event: 'workOrderUpdated',
			startDate: '',
			origin: new Date(origin).toISOString(),
			cursor: new Date(origin).toISOString(),
			seen: [],
		});
		// activation reads the service clock only (one request), then n8n saves the state
		expect(H.reads(emu, from)).toEqual([
			{ status: 200, $orderby: 'UpdatedDate desc,Id desc', $top: '1' },
		]);
		expect(trigger.activation.saved['node:Work Order Service Trigger'].state).toEqual(state);

		emu.advanceTime(10);
		const quietFrom = H.mark(emu);
		const quiet = await trigger.poll();
		expect(quiet.items).toEqual([]);
		expect(quiet.saved).toBeUndefined(); // nothing emitted, nothing saved (n8n saves on emit)
		// the lookback would reach before T0: the cursor stays at T0
		expect(H.reads(emu, quietFrom)[0].$filter).toBe(`UpdatedDate ge ${H.literal(state.origin)}`);
		expect(H.stateOf(quiet).cursor).toBe(state.origin);

		emu.updateWorkOrder(90000002, { Description: 'after activation' });
		const next = await trigger.poll();
		expect(H.ids(next)).toEqual([90000002]);
		emu.advanceTime(61);
		const later = await trigger.poll();
		expect(later.items).toEqual([]);
		expect(Date.parse(H.stateOf(later).cursor)).toBeGreaterThan(origin);
	});

	test.each([
		['with an offset', (ms) => new Date(ms).toISOString().replace('Z', '+00:00'), undefined],
		[
			'without offset, in the workflow time zone',
			(ms) => wallTime(ms, 'America/New_York'),
			'America/New_York',
		],
	])(
		'Start Date %s: the activation emits what changed since then, oldest first, once',
		async (_, format, timezone) => {
			const { emu, credentialId } = await H.freshService(env.harness);
			const startMs = Math.floor(emu.now() / 1000) * 1000 - 6 * 3600_000;
			const expected = ALL_FIXTURES.map((id) => emu.workOrder(id))
				.filter((w) => Date.parse(w.UpdatedDate_DTO) >= startMs)
				.sort(
					(a, b) => Date.parse(a.UpdatedDate_DTO) - Date.parse(b.UpdatedDate_DTO) || a.Id - b.Id,
				)
				.map((w) => w.Id);
			expect(expected.length).toBeGreaterThan(0);
			expect(expected.length).toBeLessThan(120);
			const startDate = format(startMs);
			const since = emu.now();
			const trigger = await env.harness.activate(
				H.triggerWorkflow({ credentialId, options: { startDate }, timezone }),
			);
			expect(trigger.activation.error).toBeUndefined();
			expect(H.ids(trigger.activation)).toEqual(expected);
			expect(H.reads(emu)[0]).toMatchObject({
				$filter: `UpdatedDate ge ${H.literal(startMs)}`,
				$skip: '0',
			});
			expect(trigger.activation.executions).toHaveLength(1);
			expect(H.stateOf(trigger.activation).startDate).toBe(startDate);
			expectCursorNear(H.stateOf(trigger.activation), emu, since);

			emu.advanceTime(5);
			const next = await trigger.poll();
			expect(next.items).toEqual([]);
		},
	);
});

/** Wall time of `ms` in `zone`, ISO without offset. */
function wallTime(ms, zone) {
	const parts = Object.fromEntries(
		new Intl.DateTimeFormat('en-US', {
			timeZone: zone,
			hourCycle: 'h23',
			year: 'numeric',
			month: '2-digit',
			day: '2-digit',
			hour: '2-digit',
			minute: '2-digit',
			second: '2-digit',
		})
			.formatToParts(new Date(ms))
			.map((p) => [p.type, p.value]),
	);
	return `${parts.year}-${parts.month}-${parts.day}T${parts.hour}:${parts.minute}:${parts.second}`;
}

describe('exactly once', () => {
	test('three consecutive polls with work orders added and changed between them: each change once, state after each poll', async () => {
		const { emu, credentialId } = await H.freshService(env.harness);
		const trigger = await env.harness.activate(H.triggerWorkflow({ credentialId }));
		let previousCursor = Date.parse(H.stateOf(trigger.activation).cursor);
		const rounds = [
			() => {
				emu.createWorkOrders([{}, { Trade: 'PLUMBING' }]);
				emu.updateWorkOrder(90000030, { Description: 'round 1' });
			},
			() => {
				emu.updateWorkOrder(90000030, { Description: 'round 2' }); // changed again
				emu.updateWorkOrder(90000121, { Priority: 'P2 - High' }); // created in round 1
				emu.setWorkOrderStatus(90000040, 'COMPLETED', 'PENDING CONFIRMATION');
				emu.createWorkOrder({});
			},
			() => {
				emu.createWorkOrders([{}, {}, {}]);
				emu.updateWorkOrders([90000050, 90000051], { Nte: 900 });
			},
		];
		for (const [index, change] of rounds.entries()) {
			emu.advanceTime(61); // the previous round's changes fall behind the next cursor
			const changes = H.changeMark(emu);
			change();
			const expected = H.expectedUpdated(emu, changes);
			const since = emu.now();
			const result = await trigger.poll();
			expect(result.error).toBeUndefined();
			expect({ round: index + 1, ids: H.ids(result) }).toEqual({ round: index + 1, ids: expected });
			// the whole record in its latest state
			for (const item of result.items)
				expect(item.json).toEqual(JSON.parse(JSON.stringify(emu.workOrder(item.json.Id))));
			// state: cursor = service clock at the read - lookback (never back), seen = what was emitted at/after it
			const state = H.stateOf(result);
			const cursor = expectCursorNear(state, emu, since);
			expect(cursor).toBeGreaterThan(previousCursor);
			previousCursor = cursor;
			expect(new Set(seenWithoutDigest(state))).toEqual(
				new Set(keysOf(result).filter((k) => Date.parse(k.split('@')[1]) >= cursor)),
			);
			expect(result.saved['node:Work Order Service Trigger'].state).toEqual(state);
			expect(result.executions.map((e) => e.outputs.Next.length)).toEqual([expected.length]);
		}
		const quiet = await trigger.poll();
		expect(quiet.items).toEqual([]);
	});

	test('120 work orders sharing one UpdatedDate across three pages: each emitted once', async () => {
		const { emu, credentialId } = await H.freshService(env.harness);
		const trigger = await env.harness.activate(H.triggerWorkflow({ credentialId }));
		const cursor = H.stateOf(trigger.activation).cursor;
		const batch = emu.updateWorkOrders(ALL_FIXTURES, { Description: 'bulk change' });
		expect(new Set(batch.map((w) => w.UpdatedDate_DTO)).size).toBe(1);
		const from = H.mark(emu);
		const result = await trigger.poll();
		expect(result.error).toBeUndefined();
		expect(H.ids(result)).toEqual(ALL_FIXTURES);
		const page = {
			status: 200,
			$filter: `UpdatedDate ge ${H.literal(cursor)}`,
			$orderby: 'UpdatedDate asc,Id asc',
			$top: '50',
			$count: 'true',
		};
		// pages overlap by one record: the first record of each page must be the last one read
		expect(H.reads(emu, from)).toEqual(
			[0, 49, 98].map((skip) => ({ ...page, $skip: String(skip) })),
		);
		expect(H.stateOf(result).seen).toHaveLength(120);

		// read again inside the lookback window: recognised, not emitted
		emu.advanceTime(10);
		const again = await trigger.poll();
		expect(again.items).toEqual([]);
		// past the window: the cursor moves beyond them and the read is empty
		emu.advanceTime(61);
		const later = await trigger.poll();
		expect(later.items).toEqual([]);
		expect(H.stateOf(later).seen).toEqual([]);
		expect(Date.parse(H.stateOf(later).cursor)).toBeGreaterThan(
			Date.parse(batch[0].UpdatedDate_DTO),
		);
	});

	test('a poll that runs out of its time budget stops after a page and the next poll continues after it (120 records, one UpdatedDate): each once', async () => {
		const { emu, credentialId } = await H.freshService(env.harness);
		const startDate = new Date(emu.now() - 1000).toISOString();
		const batch = emu.updateWorkOrders(ALL_FIXTURES, { Description: 'bulk change' });
		const at = new Date(Date.parse(batch[0].UpdatedDate_DTO)).toISOString();
		// n8n's poll budget (getPollBudgetMs): so short that each poll reads one page only
		const trigger = await env.harness.activate(
			H.triggerWorkflow({ credentialId, options: { startDate } }),
			{ pollBudgetMs: 1 },
		);
		expect(H.ids(trigger.activation)).toEqual(ALL_FIXTURES.slice(0, 50));
		expect(H.stateOf(trigger.activation)).toMatchObject({
			cursor: startDate,
			resume: { after: `90000050@${at}`, skip: 49 },
		});
		expect(H.stateOf(trigger.activation).seen).toHaveLength(50);
		let from = H.mark(emu);
		const second = await trigger.poll();
		expect(H.ids(second)).toEqual(ALL_FIXTURES.slice(50, 99));
		expect(H.reads(emu, from).map((r) => r.$skip)).toEqual(['49']);
		expect(H.stateOf(second).resume).toEqual({ after: `90000099@${at}`, skip: 98 });
		// a record read before changes meanwhile: the place moved, the read steps back, nothing is skipped
		emu.updateWorkOrder(90000003, { Description: 'changed between the polls' });
		from = H.mark(emu);
		const third = await trigger.poll();
		expect(H.reads(emu, from).map((r) => r.$skip)).toEqual(['98']);
		expect(H.ids(third)).toEqual([]);
		expect(H.stateOf(third).resume).toEqual({ after: `90000099@${at}`, skip: 49 }); // stepped back
		from = H.mark(emu);
		const fourth = await trigger.poll();
		expect(H.reads(emu, from).map((r) => r.$skip)).toEqual(['49']);
		expect(H.ids(fourth)).toEqual([90000100]); // 90000100 had slipped onto the page read before
		const rest = [];
		for (let i = 0; i < 3 && rest.length < 21; i++) rest.push(...H.ids(await trigger.poll()));
		expect(rest).toEqual([...ALL_FIXTURES.slice(100), 90000003]);
		// with one page per poll, reading the window again (inside the lookback) takes polls: nothing is emitted
		emu.advanceTime(61);
		let done;
		for (let i = 0; i < 6 && (!done || H.stateOf(done).seen.length); i++) {
			done = await trigger.poll();
			expect(done.items).toEqual([]);
		}
		expect(H.stateOf(done)).toMatchObject({ seen: [] });
		expect(H.stateOf(done).resume).toBeUndefined();
		expect(Date.parse(H.stateOf(done).cursor)).toBeGreaterThan(Date.parse(at));
	});

	test('a backlog with distinct dates, one page per poll: the cursor follows what was read and each poll continues at $skip 0', async () => {
		const { emu, credentialId } = await H.freshService(env.harness);
		const base = emu.now() - 3600_000;
		const created = emu.createWorkOrders(
			Array.from({ length: 130 }, (_, i) => ({ UpdatedDate: base + i * 1000 })),
		);
		const trigger = await env.harness.activate(
			H.triggerWorkflow({ credentialId, options: { startDate: new Date(base).toISOString() } }),
			{ pollBudgetMs: 1 },
		);
		const emitted = [...H.ids(trigger.activation)];
		expect(emitted).toEqual(created.slice(0, 50).map((w) => w.Id));
		expect(H.stateOf(trigger.activation)).toMatchObject({
			cursor: new Date(base + 49_000).toISOString(),
			resume: { after: `${created[49].Id}@${new Date(base + 49_000).toISOString()}`, skip: 0 },
		});
		expect(seenWithoutDigest(H.stateOf(trigger.activation))).toEqual([
			`${created[49].Id}@${new Date(base + 49_000).toISOString()}`,
		]);
		const from = H.mark(emu);
		let lastPollSince;
		for (let i = 0; i < 3; i++) {
			lastPollSince = emu.now();
			emitted.push(...H.ids(await trigger.poll()));
		}
		expect(emitted).toEqual(created.map((w) => w.Id));
		const reads = H.reads(emu, from);
		expect(reads.map((r) => r.$skip)).toEqual(['0', '0', '0']);
		expect(reads.slice(0, 2).map((r) => r.$filter)).toEqual([
			`UpdatedDate ge ${H.literal(base + 49_000)}`,
			`UpdatedDate ge ${H.literal(base + 98_000)}`, // the last page: the read is complete
		]);
		expectCursorNear(H.stateOf(trigger.polls[3]), emu, lastPollSince); // then the cursor is the service clock minus the lookback
		expect(H.stateOf(trigger.polls[3]).resume).toBeUndefined();
	});

	test('a work order changed while the poll is paging moves to the end and shifts the pages: nothing skipped, nothing twice', async () => {
		const { emu, credentialId } = await H.freshService(env.harness);
		const trigger = await env.harness.activate(H.triggerWorkflow({ credentialId }));
		emu.updateWorkOrders(ALL_FIXTURES, { Description: 'bulk change' });
		let pages = 0;
		emu.onResponse = (entry) => {
			if (entry.path !== '/api/v3/odata/workorders' || entry.query.$skip === undefined) return;
			pages++;
			// after the first page: 90000010 (read on it) changes and moves behind the others
			if (pages === 1) emu.updateWorkOrder(90000010, { Description: 'changed while paging' });
		};
		const from = H.mark(emu);
		const result = await trigger.poll();
		emu.onResponse = null;
		expect(result.error).toBeUndefined();
		// 90000051 was first on the second page; after the shift it sits on the first page (read before)
		expect(H.ids(result)).toEqual([...ALL_FIXTURES.filter((id) => id !== 90000010), 90000010]);
		expect(result.items.find((i) => i.json.Id === 90000010).json.Description).toBe(
			'changed while paging',
		);
		expect(H.reads(emu, from).map((r) => r.$skip)).toEqual(['0', '49', '0', '49', '98']);

		// and a record that stops matching while paging (its trade changes): the others still come once
		emu.advanceTime(61);
		emu.updateWorkOrders(ALL_FIXTURES, { Trade: 'BULK' });
		const filtered = await env.harness.activate(
			H.triggerWorkflow({
				credentialId,
				filters: { trades: 'BULK' },
				options: { startDate: new Date(emu.now() - 1000).toISOString() },
			}),
			{},
		);
		expect(filtered.activation.error).toBeUndefined();
		expect(H.ids(filtered.activation)).toEqual(ALL_FIXTURES);
		emu.advanceTime(61);
		emu.updateWorkOrders(ALL_FIXTURES, { Description: 'bulk again' });
		pages = 0;
		emu.onResponse = (entry) => {
			if (entry.path !== '/api/v3/odata/workorders' || entry.query.$skip === undefined) return;
			if (++pages === 1) emu.updateWorkOrder(90000005, { Trade: 'ELECTRICAL' });
		};
		const shifted = await filtered.poll();
		emu.onResponse = null;
		expect(H.ids(shifted)).toEqual(ALL_FIXTURES);
		expect(shifted.items.find((i) => i.json.Id === 90000005).json.Trade).toBe('BULK'); // as read, before it changed
	});

	test('a work order updated twice between polls: Updated once; Status Changed only when the status changed', async () => {
		const { emu, credentialId } = await H.freshService(env.harness);
		const updated = await env.harness.activate(
			H.triggerWorkflow({ credentialId, event: 'workOrderUpdated' }),
		);
		const statusChanged = await env.harness.activate(
			H.triggerWorkflow({ credentialId, event: 'workOrderStatusChanged' }),
		);
		const changes = H.changeMark(emu);
		const original = emu.workOrder(90000070).Status;
		emu.setWorkOrderStatus(90000060, 'IN PROGRESS', 'ON SITE'); // status, then another field
		emu.updateWorkOrder(90000060, { Description: 'and a note' });
		emu.updateWorkOrder(90000061, { Description: 'first' }); // two changes, no status change
		emu.updateWorkOrder(90000061, { Description: 'second' });
		emu.setWorkOrderStatus(90000070, 'ON HOLD', 'AWAITING APPROVAL'); // changed and changed back
		emu.setWorkOrderStatus(90000070, original.Primary, original.Extended);
		const u = await updated.poll();
		const s = await statusChanged.poll();
		expect(H.ids(u)).toEqual([90000060, 90000061, 90000070]);
		expect(H.ids(u)).toEqual(H.expectedUpdated(emu, changes));
		expect(u.items.find((i) => i.json.Id === 90000061).json.Description).toBe('second');
		expect(H.ids(s)).toEqual([90000060]);
		expect(H.ids(s)).toEqual(H.expectedStatusChanged(emu, changes));
		expect(s.items[0].json).toMatchObject({
			Status: { Primary: 'IN PROGRESS', Extended: 'ON SITE' },
			Description: 'and a note',
		});
	});

	test.each([
		['ahead of', 120_000],
		['behind', -120_000],
	])(
		'service clock 2 minutes %s n8n: the cursor follows the service clock; nothing before activation, everything after, once',
		async (_, skew) => {
			const { emu, credentialId } = await H.freshService(env.harness, { clockSkewMs: skew });
			emu.updateWorkOrder(90000001, {
				Description: 'before activation',
				UpdatedDate: emu.now() - 1500,
			});
			const since = emu.now();
			const realSince = Date.now();
			const trigger = await env.harness.activate(H.triggerWorkflow({ credentialId }));
			expect(trigger.activation.items).toEqual([]);
			const origin = expectOriginNear(H.stateOf(trigger.activation), emu, since);
			expect(H.stateOf(trigger.activation).cursor).toBe(new Date(origin).toISOString());
			// n8n's clock plus the skew, between the activation's start and now (not n8n's own clock)
			expect(origin).toBeGreaterThanOrEqual(wholeSeconds(realSince + skew));
			expect(origin).toBeLessThanOrEqual(Date.now() + skew);
			expect(Math.abs(origin - Date.now())).toBeGreaterThan(100_000);

			emu.updateWorkOrder(90000002, { Description: 'right after activation' });
			const first = await trigger.poll();
			expect(H.ids(first)).toEqual([90000002]);
			emu.advanceTime(30);
			const changes = H.changeMark(emu);
			emu.createWorkOrder({});
			emu.updateWorkOrder(90000002, { Description: 'again' });
			const second = await trigger.poll();
			expect(H.ids(second)).toEqual(H.expectedUpdated(emu, changes));
			emu.advanceTime(90);
			const third = await trigger.poll();
			expect(third.items).toEqual([]);
		},
	);

	test.each([
		['autumn (02:59 +02:00 -> 02:00 +01:00)', '2026-10-25T00:58:00Z'],
		['spring (01:59 +01:00 -> 03:00 +02:00)', '2026-03-29T00:58:00Z'],
	])(
		'service in Europe/Berlin across the %s daylight-saving change: every change once, in the order it happened',
		async (_, at) => {
			const { emu, credentialId } = await H.freshService(env.harness, {
				serviceTimeZone: 'Europe/Berlin',
				twinsInLocationZone: false,
				clockSkewMs: Date.parse(at) - Date.now(),
			});
			const trigger = await env.harness.activate(H.triggerWorkflow({ credentialId }));
			const changes = H.changeMark(emu);
			const a = emu.updateWorkOrder(90000001, { Description: 'before the change' });
			emu.advanceTime(120);
			const b = emu.updateWorkOrder(90000002, { Description: 'after the change' });
			expect(a.UpdatedDate_DTO.slice(-6)).not.toBe(b.UpdatedDate_DTO.slice(-6)); // the offsets differ
			const first = await trigger.poll();
			expect(H.ids(first)).toEqual([90000001, 90000002]);
			expect(H.ids(first)).toEqual(H.expectedUpdated(emu, changes));
			emu.advanceTime(30);
			const c = emu.updateWorkOrder(90000003, { Description: 'later' });
			const second = await trigger.poll();
			expect(H.ids(second)).toEqual([90000003]);
			expect(c.UpdatedDate_DTO).toMatch(/\+0[12]:00$/);
			emu.advanceTime(3600);
			const third = await trigger.poll();
			expect(third.items).toEqual([]);
		},
	);

	test('n8n restarts: the workflow is rebuilt from the saved static data only; nothing lost, nothing repeated', async () => {
		const { emu, credentialId } = await H.freshService(env.harness);
		const trigger = await env.harness.activate(H.triggerWorkflow({ credentialId }));
		emu.updateWorkOrder(90000001, { Description: 'A' });
		expect(H.ids(await trigger.poll())).toEqual([90000001]);
		emu.advanceTime(30);
		emu.updateWorkOrder(90000002, { Description: 'B' });
		expect(H.ids(await trigger.poll())).toEqual([90000002]);
		emu.advanceTime(70);
		const quiet = await trigger.poll(); // moves the cursor in memory only: n8n saves on emit
		expect(quiet.items).toEqual([]);
		expect(quiet.saved).toBeUndefined();
		expect(trigger.savedStaticData).not.toEqual(trigger.staticData);
		emu.updateWorkOrder(90000003, { Description: 'C' });
		const restarted = await trigger.restart();
		expect(restarted.error).toBeUndefined();
		expect(H.ids(restarted)).toEqual([90000003]);
		expect(H.ids(await trigger.poll())).toEqual([]);
	});
});
