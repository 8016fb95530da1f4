'use strict';
/**
 * Work Order Service Trigger at tenant scale (issue 17): an activation that returns whatever the
 * tenant size, nothing that happens after activation starts absorbed, every status change of a
 * 50,000-work-order tenant caught with static data under 1 MB, versions told apart by content
 * (one-second dates), failures and restarts while the trigger settles. All through n8n-core's poll
 * path (harness.activate / trigger.poll() / trigger.restart()) against the emulator over HTTP.
 */
const { NodeApiError } = require('n8n-workflow');
const { mulberry32 } = require('../support/prng');
const H = require('./helpers');

const env = H.useHarness();
const LIST = '/api/v3/odata/workorders';
const SANDBOX_RATE = { limit: 40, windowMs: 60_000 };
const MB = 1024 * 1024;
/** Figures measured here, printed once at the end (docs/trigger.md quotes them). */
const figures = [];
afterAll(() => {
	if (figures.length) console.log(`trigger at scale:\n  ${figures.join('\n  ')}`);
});

/** Bytes of the trigger's static data as n8n stores it (JSON). */
function bytesOf(result) {
	return Buffer.byteLength(JSON.stringify(result.nodeStaticData), 'utf8');
}

/** The requests the emulator received after index `from` of its log (API and login). */
function received(emu, from) {
	return emu.requests.slice(from);
}

/** The baseline (status) reads among `entries`. */
function baselineReads(entries) {
	return entries.filter((r) => r.path === LIST && r.query.$orderby === 'Id desc');
}

/** Polls until the trigger settled (its state has no `baseline`); returns the polls. */
async function pollUntilSettled(trigger, max = 30) {
	const polls = [];
	let last = trigger.polls[trigger.polls.length - 1];
	while (H.stateOf(last).baseline && polls.length < max) {
		last = await trigger.poll();
		expect(last.error).toBeUndefined();
		polls.push(last);
	}
	expect(H.stateOf(last).baseline).toBeUndefined();
	return polls;
}

/** The current status of a work order as a `[Primary, Extended]` pair. */
function statusOf(emu, id) {
	const s = emu.workOrder(id).Status;
	return [s.Primary, s.Extended];
}

/** Another status than the one the work order has. */
function otherStatus(emu, id, n = 0) {
	const choices = [
		['IN PROGRESS', 'ON SITE'],
		['COMPLETED', 'PENDING CONFIRMATION'],
		['ON HOLD', 'AWAITING PARTS'],
		['OPEN', 'DISPATCHED'],
	];
	const [primary, extended] = statusOf(emu, id);
	return choices.filter(([p, e]) => p !== primary || e !== extended)[n % 3];
}

describe('activation at tenant scale (5,100 work orders, 40 requests per minute)', () => {
	const cases = [
		['Work Order Created', 'workOrderCreated', {}],
		['Work Order Updated', 'workOrderUpdated', {}],
		['Work Order Status Changed', 'workOrderStatusChanged', {}],
		['Work Order Updated with a Start Date 30 days back', 'workOrderUpdated', { startDays: 30 }],
		['Work Order Created with a Start Date 30 days back', 'workOrderCreated', { startDays: 30 }],
	];
	test.each(cases)(
		'%s: at most 10 requests and 20 s; the rest continues in later polls',
		async (_, event, spec) => {
			const { emu, credentialId } = await H.freshService(env.harness, { workOrderCount: 5100 });
			emu.setFaults({ rateLimit: SANDBOX_RATE });
			const options = spec.startDays
				? { startDate: new Date(emu.now() - spec.startDays * 86_400_000).toISOString() }
				: {};
			const from = emu.requests.length;
			const started = Date.now();
			const trigger = await env.harness.activate(
				H.triggerWorkflow({ credentialId, event, options }),
			);
			const tookMs = Date.now() - started;
			expect(trigger.activation.error).toBeUndefined();
			const requests = received(emu, from);
			// every request the emulator received, the login included
			expect(requests.length).toBeLessThanOrEqual(10);
			expect(requests.filter((r) => r.status === 429)).toEqual([]);
			// the time the service saw (request log: first request to last answer) and the time n8n waited
			const first = Date.parse(requests[0].time);
			const last = requests[requests.length - 1];
			const spanMs = Date.parse(last.time) + last.durationMs - first;
			expect(spanMs).toBeLessThanOrEqual(20_000);
			expect(tookMs).toBeLessThan(20_000);
			figures.push(
				`activation, ${_}: ${requests.length} requests (${requests.filter((r) => r.path.startsWith('/api/')).length} to the API), ${spanMs} ms at the service, ${tookMs} ms in n8n-core`,
			);

			const state = H.stateOf(trigger.activation);
			expect(trigger.activation.saved['node:Work Order Service Trigger'].state).toEqual(state);
			if (event === 'workOrderStatusChanged') {
				// the statuses as of T0: as many pages as the activation allowed, newest Ids first; the rest later
				const pages = baselineReads(requests);
				expect(pages.length).toBeGreaterThanOrEqual(5);
				expect(state.baseline.after).toBe(String(90005100 - 50 * pages.length + 1));
			}
			if (spec.startDays) {
				// a backlog since the Start Date: emitted in order, the rest through `resume`
				const backlog = Object.values(emu.state.workOrders)
					.filter(
						(w) =>
							w.SubscriberId === 1001 &&
							Date.parse(w[event === 'workOrderCreated' ? 'CallDate_DTO' : 'UpdatedDate_DTO']) >=
								Date.parse(options.startDate),
					)
					.map((w) => w.Id);
				expect(backlog.length).toBeGreaterThan(2000);
				expect(trigger.activation.items.length).toBeGreaterThan(0);
				expect(trigger.activation.items.length).toBeLessThan(backlog.length);
				expect(state.resume).toBeDefined();
				// the next polls go on where the activation stopped; nothing twice (the rate limit is lifted to keep the test short)
				emu.resetFaults();
				const emitted = [...H.ids(trigger.activation)];
				for (let i = 0; i < 5 && emitted.length < backlog.length; i++)
					emitted.push(...H.ids(await trigger.poll()));
				expect(new Set(emitted).size).toBe(emitted.length);
				expect([...emitted].sort()).toEqual([...backlog].sort());
			}
		},
		90_000,
	); // the activation is paced by the sandbox limit (~15 s), then the backlog of 2,000+ items is polled

	test('n8n starting again (restart) is an activation too: at most 10 requests while settling, then it goes on', async () => {
		const { emu, credentialId } = await H.freshService(env.harness, { workOrderCount: 5100 });
		emu.setFaults({ rateLimit: SANDBOX_RATE });
		const trigger = await env.harness.activate(
			H.triggerWorkflow({ credentialId, event: 'workOrderStatusChanged' }),
		);
		expect(trigger.activation.error).toBeUndefined();
		emu.resetFaults();
		emu.setFaults({ rateLimit: SANDBOX_RATE });
		const from = emu.requests.length;
		const restarted = await trigger.restart();
		expect(restarted.error).toBeUndefined();
		expect(received(emu, from).length).toBeLessThanOrEqual(10);
		expect(H.stateOf(restarted).baseline.after).not.toBe(
			H.stateOf(trigger.activation).baseline.after,
		);
	});

	test('an activation that meets the rate limit does not wait for it: the status read stops, the next poll continues', async () => {
		const { emu, credentialId } = await H.freshService(env.harness, { workOrderCount: 5100 });
		// the sandbox window is nearly used up by other work: 3 more requests this minute
		emu.setFaults({ rateLimit: { limit: 3, windowMs: 60_000, retryAfterSeconds: 50 } });
		const started = Date.now();
		const trigger = await env.harness.activate(
			H.triggerWorkflow({ credentialId, event: 'workOrderStatusChanged' }),
		);
		expect(trigger.activation.error).toBeUndefined();
		expect(Date.now() - started).toBeLessThan(10_000);
		const throttled = emu.requests.filter((r) => r.status === 429);
		expect(throttled).toHaveLength(1); // tried once, not again
		const state = H.stateOf(trigger.activation);
		expect(state.baseline.after).toBe(String(90005100 - 50 * 2 + 1)); // two pages read
		emu.resetFaults();
		const next = await trigger.poll();
		expect(next.error).toBeUndefined();
		expect(Number(H.stateOf(next).baseline?.after ?? 0)).not.toBe(Number(state.baseline.after));
	});
});

describe('nothing that happens after activation starts is absorbed', () => {
	test('Status Changed: a status change and a new work order while the activation pages; a change right after it returns', async () => {
		const { emu, credentialId } = await H.freshService(env.harness, { workOrderCount: 5100 });
		const readEarly = 90005090; // on the first status page (highest Ids first)
		const readLate = 90000100; // far from the pages the activation reads
		let pages = 0;
		let created;
		const changes = H.changeMark(emu);
		emu.onResponse = (entry) => {
			if (entry.path !== LIST || entry.query.$orderby !== 'Id desc') return;
			if (++pages === 2) {
				emu.setWorkOrderStatus(readEarly, ...otherStatus(emu, readEarly));
				emu.setWorkOrderStatus(readLate, ...otherStatus(emu, readLate));
				[created] = emu.createWorkOrders([{}]);
			}
		};
		const trigger = await env.harness.activate(
			H.triggerWorkflow({ credentialId, event: 'workOrderStatusChanged' }),
		);
		emu.onResponse = null;
		expect(trigger.activation.error).toBeUndefined();
		expect(pages).toBeGreaterThan(2);
		expect(trigger.activation.items).toEqual([]);
		const afterReturn = 90002000;
		emu.setWorkOrderStatus(afterReturn, ...otherStatus(emu, afterReturn));

		const first = await trigger.poll();
		expect(first.error).toBeUndefined();
		// readEarly: its T0 status was read, then it changed; readLate: changed before its T0 status was
		// read (Unknown Previous Status: emitted); afterReturn likewise. The new work order is not a status change.
		expect(H.ids(first).sort()).toEqual([readEarly, readLate, afterReturn].sort());
		expect(H.ids(first)).toEqual(H.expectedStatusChanged(emu, changes));
		const rest = (await pollUntilSettled(trigger)).flatMap(H.ids);
		expect(rest).toEqual([]);
		// the new work order is known from now on
		const next = H.changeMark(emu);
		emu.setWorkOrderStatus(created.Id, 'IN PROGRESS', 'EN ROUTE');
		expect(H.ids(await trigger.poll())).toEqual([created.Id]);
		expect(H.expectedStatusChanged(emu, next)).toEqual([created.Id]);
	});

	test('Updated with a Start Date: a status change and a new work order while the activation pages the backlog, each emitted once', async () => {
		const { emu, credentialId } = await H.freshService(env.harness, { workOrderCount: 5100 });
		const startDate = new Date(emu.now() - 20 * 86_400_000).toISOString();
		const backlog = Object.values(emu.state.workOrders)
			.filter(
				(w) => w.SubscriberId === 1001 && Date.parse(w.UpdatedDate_DTO) >= Date.parse(startDate),
			)
			.sort((a, b) => Date.parse(a.UpdatedDate_DTO) - Date.parse(b.UpdatedDate_DTO) || a.Id - b.Id);
		const onFirstPage = backlog[10].Id;
		let pages = 0;
		let created;
		emu.onResponse = (entry) => {
			if (entry.path !== LIST || entry.query.$skip === undefined) return;
			if (++pages === 2) {
				emu.setWorkOrderStatus(onFirstPage, ...otherStatus(emu, onFirstPage));
				[created] = emu.createWorkOrders([{}]);
			}
		};
		const trigger = await env.harness.activate(
			H.triggerWorkflow({ credentialId, options: { startDate } }),
		);
		emu.onResponse = null;
		expect(trigger.activation.error).toBeUndefined();
		const emitted = [...trigger.activation.items.map((i) => i.json)];
		for (let i = 0; i < 6; i++) emitted.push(...(await trigger.poll()).items.map((i) => i.json));
		const count = (id) => emitted.filter((w) => w.Id === id).length;
		// emitted once as read on the first page, and once more in its new state
		expect(count(onFirstPage)).toBe(2);
		expect(emitted.filter((w) => w.Id === onFirstPage).map((w) => w.Status.Primary)[1]).toBe(
			emu.workOrder(onFirstPage).Status.Primary,
		);
		expect(count(created.Id)).toBe(1);
		const others = emitted.filter((w) => w.Id !== onFirstPage);
		expect(new Set(others.map((w) => w.Id)).size).toBe(others.length);
		expect(others.length).toBe(backlog.length); // the backlog less the changed one, plus the new one
	});

	test.each([
		['workOrderUpdated', (emu) => emu.updateWorkOrder(90000007, { Description: 'right after' }).Id],
		['workOrderCreated', (emu) => emu.createWorkOrder({}).Id],
	])(
		'%s: a change made right after the activation returns (same second as T0) is emitted by the next poll',
		async (event, change) => {
			const { emu, credentialId } = await H.freshService(env.harness, { datePrecisionMs: 1000 });
			const trigger = await env.harness.activate(H.triggerWorkflow({ credentialId, event }));
			const id = change(emu);
			const origin = Date.parse(H.stateOf(trigger.activation).origin);
			expect(Date.parse(emu.workOrder(id).UpdatedDate_DTO)).toBeGreaterThanOrEqual(origin);
			expect(H.ids(await trigger.poll())).toEqual([id]);
			emu.advanceTime(30);
			expect((await trigger.poll()).items).toEqual([]);
		},
	);
});

describe('Status Changed on a tenant of 50,000 work orders', () => {
	test('settles in a few polls with static data under 1 MB at every poll; 200 random status changes across the id range, each emitted once within 3 polls; changed and back emits nothing', async () => {
		const { emu, credentialId } = await H.freshService(env.harness, { workOrderCount: 50_000 });
		const trigger = await env.harness.activate(
			H.triggerWorkflow({ credentialId, event: 'workOrderStatusChanged' }),
		);
		expect(trigger.activation.error).toBeUndefined();
		const sizes = [bytesOf(trigger.activation)];
		const settling = await pollUntilSettled(trigger);
		sizes.push(...settling.map(bytesOf));
		expect(settling.length).toBeLessThanOrEqual(5);
		const state = H.stateOf(settling[settling.length - 1]);
		expect(state.statuses.ids.split(',')).toHaveLength(50_000);
		// each status page was read once: no page twice, none skipped (keyset by Id)
		const pages = baselineReads(emu.requests);
		expect(pages).toHaveLength(1001); // 1,000 full pages and the empty one that ends the read
		expect(new Set(pages.map((r) => r.query.$filter)).size).toBe(pages.length);

		const random = mulberry32(17);
		const ids = new Set();
		while (ids.size < 220) ids.add(90000001 + Math.floor(random() * 50_000));
		const [changed, back] = [[...ids].slice(0, 200), [...ids].slice(200)];
		const changes = H.changeMark(emu);
		changed.forEach((id, i) => emu.setWorkOrderStatus(id, ...otherStatus(emu, id, i)));
		for (const id of back) {
			const before = statusOf(emu, id);
			emu.setWorkOrderStatus(id, ...otherStatus(emu, id));
			emu.setWorkOrderStatus(id, ...before);
		}
		const emitted = [];
		for (let i = 0; i < 3; i++) {
			const poll = await trigger.poll();
			expect(poll.error).toBeUndefined();
			sizes.push(bytesOf(poll));
			emitted.push(...H.ids(poll));
		}
		expect(emitted.length).toBe(200);
		expect([...emitted].sort()).toEqual([...changed].sort());
		expect([...emitted].sort()).toEqual(H.expectedStatusChanged(emu, changes).sort());
		expect(Math.max(...sizes)).toBeLessThan(MB);
		figures.push(
			`50,000 work orders: settled after the activation and ${settling.length} polls (${pages.length} status pages); static data ${Math.round(Math.min(...sizes) / 1024)}-${Math.round(Math.max(...sizes) / 1024)} KB over ${sizes.length} polls`,
		);
	}, 240_000); // 5 to 10 s on an idle machine (1,000 status pages through n8n-core and HTTP); a busy one is slower

	test('while settling: changes anywhere in the id range are each emitted once (read status, or unknown previous status); Ignore emits only the known ones', async () => {
		const { emu, credentialId } = await H.freshService(env.harness, { workOrderCount: 3000 });
		const emitting = await env.harness.activate(
			H.triggerWorkflow({ credentialId, event: 'workOrderStatusChanged' }),
		);
		const ignoring = await env.harness.activate(
			H.triggerWorkflow({
				credentialId,
				event: 'workOrderStatusChanged',
				options: { unknownPreviousStatus: 'ignore' },
			}),
		);
		const read = Number(H.stateOf(emitting.activation).baseline.after);
		const known = [90003000, read + 5]; // their T0 status was read at activation
		const unknown = [90000010, read - 500]; // not yet: changed before their status was read
		const changes = H.changeMark(emu);
		for (const id of [...known, ...unknown]) emu.setWorkOrderStatus(id, ...otherStatus(emu, id));
		const e = await emitting.poll();
		const i = await ignoring.poll();
		expect(H.ids(e).sort()).toEqual([...known, ...unknown].sort());
		expect(H.ids(e).sort()).toEqual(H.expectedStatusChanged(emu, changes).sort());
		expect(H.ids(i).sort()).toEqual(known.sort());
		const logged = e.logs.find((line) =>
			line.includes('Work Order Service Polling Trigger polled'),
		);
		expect(logged).toMatch(/"unknownPreviousStatus":2/);
		// once settled, the unknown ones are known: their next change is compared
		await pollUntilSettled(emitting);
		await pollUntilSettled(ignoring);
		const next = H.changeMark(emu);
		emu.setWorkOrderStatus(unknown[0], ...otherStatus(emu, unknown[0], 1));
		emu.updateWorkOrder(unknown[1], { Description: 'no status change' });
		expect(H.ids(await emitting.poll())).toEqual([unknown[0]]);
		expect(H.ids(await ignoring.poll())).toEqual([unknown[0]]);
		expect(H.expectedStatusChanged(emu, next)).toEqual([unknown[0]]);
	});

	test('settling under a rate limit: throttled status pages are waited out within the poll, the window is read first, nothing fails and each change comes once', async () => {
		const { emu, credentialId } = await H.freshService(env.harness, { workOrderCount: 1500 });
		emu.setFaults({ rateLimit: { limit: 10, windowMs: 2000 } }); // 300 requests per minute, in 2-second windows
		const trigger = await env.harness.activate(
			H.triggerWorkflow({ credentialId, event: 'workOrderStatusChanged' }),
		);
		expect(trigger.activation.error).toBeUndefined();
		const changes = H.changeMark(emu);
		emu.setWorkOrderStatus(90000003, ...otherStatus(emu, 90000003)); // not read yet: unknown previous status
		emu.setWorkOrderStatus(90001499, ...otherStatus(emu, 90001499)); // read at activation
		emu.advanceTime(3); // the activation's requests leave the service's window
		const from = H.mark(emu);
		const polls = await pollUntilSettled(trigger);
		expect(polls.map((p) => p.error)).toEqual(polls.map(() => undefined));
		expect(polls.flatMap(H.ids).sort()).toEqual([90000003, 90001499]);
		expect(H.expectedStatusChanged(emu, changes).sort()).toEqual([90000003, 90001499]);
		const reads = emu.requests.filter((r) => r.seq > from && r.path === LIST);
		expect(reads.filter((r) => r.status === 429).length).toBeGreaterThan(0); // the limit was met ...
		expect(reads[0].query.$skip).toBe('0'); // ... after the window read, which came first
		expect(H.stateOf(polls[polls.length - 1]).statuses.ids.split(',')).toHaveLength(1500);
	}, 60_000);

	test('Max Work Orders Remembered: beyond it the oldest (lowest Ids) are forgotten and their next change is an unknown previous status', async () => {
		const { emu, credentialId } = await H.freshService(env.harness, { workOrderCount: 1500 });
		const trigger = await env.harness.activate(
			H.triggerWorkflow({
				credentialId,
				event: 'workOrderStatusChanged',
				options: { maxRemembered: 1000 },
			}),
		);
		await pollUntilSettled(trigger);
		const state = H.stateOf(trigger.polls[trigger.polls.length - 1]);
		expect(state.statuses.ids.split(',')).toHaveLength(1000);
		expect(state.statuses.forgottenBelow).toBe('90000500');
		const changes = H.changeMark(emu);
		emu.setWorkOrderStatus(90000010, ...otherStatus(emu, 90000010)); // forgotten: emitted (Emit)
		emu.updateWorkOrder(90000020, { Description: 'forgotten, no status change' }); // emitted too: its earlier status is unknown
		emu.setWorkOrderStatus(90001200, ...otherStatus(emu, 90001200)); // remembered: compared
		emu.updateWorkOrder(90001300, { Description: 'remembered, no status change' });
		const poll = await trigger.poll();
		expect(H.ids(poll).sort()).toEqual([90000010, 90000020, 90001200]);
		expect(H.expectedStatusChanged(emu, changes).sort()).toEqual([90000010, 90001200]);
		expect(H.stateOf(poll).statuses.ids.split(',')).toHaveLength(1000);
	});
});

describe('versions told apart by content (dates with one-second precision)', () => {
	test('a second change within the same second (same UpdatedDate) is emitted: Updated and Status Changed', async () => {
		const { emu, credentialId } = await H.freshService(env.harness, { datePrecisionMs: 1000 });
		const updated = await env.harness.activate(
			H.triggerWorkflow({ credentialId, event: 'workOrderUpdated' }),
		);
		const status = await env.harness.activate(
			H.triggerWorkflow({ credentialId, event: 'workOrderStatusChanged' }),
		);
		await pollUntilSettled(status);
		emu.advanceTime(2);
		const first = emu.setWorkOrderStatus(90000040, 'IN PROGRESS', 'ON SITE');
		const at = first.UpdatedDate_DTO;
		expect(at).toMatch(/\.000[-+]\d\d:\d\d$/);
		const u1 = await updated.poll();
		const s1 = await status.poll();
		expect(H.ids(u1)).toEqual([90000040]);
		expect(H.ids(s1)).toEqual([90000040]);
		// the second change in the same second: the service writes the same UpdatedDate
		const second = emu.setWorkOrderStatus(90000040, 'COMPLETED', 'PENDING CONFIRMATION', {
			UpdatedDate: at,
		});
		expect(second.UpdatedDate_DTO).toBe(at);
		const u2 = await updated.poll();
		const s2 = await status.poll();
		expect(u2.items.map((i) => i.json.Status.Primary)).toEqual(['COMPLETED']);
		expect(s2.items.map((i) => i.json.Status.Primary)).toEqual(['COMPLETED']);
		// read again inside the lookback window: the same versions, not emitted again
		expect((await updated.poll()).items).toEqual([]);
		expect((await status.poll()).items).toEqual([]);
		const keys = H.stateOf(u2).seen.filter((k) => k.startsWith('90000040@'));
		expect(keys).toHaveLength(2);
		expect(new Set(keys.map((k) => k.split('#')[0])).size).toBe(1);
	});

	test('a version older than one handled (a lagging replica) is not emitted again', async () => {
		const { emu, credentialId } = await H.freshService(env.harness);
		const trigger = await env.harness.activate(H.triggerWorkflow({ credentialId }));
		const old = JSON.parse(JSON.stringify(emu.updateWorkOrder(90000050, { Description: 'first' })));
		emu.advanceTime(5);
		emu.updateWorkOrder(90000050, { Description: 'second' });
		expect(H.ids(await trigger.poll())).toEqual([90000050]);
		// the next read comes from a replica that still has the first version
		const current = emu.workOrder(90000050);
		const saved = { ...current };
		Object.assign(current, {
			Description: old.Description,
			UpdatedDate: old.UpdatedDate,
			UpdatedDate_DTO: old.UpdatedDate_DTO,
		});
		const lagging = await trigger.poll();
		Object.assign(current, saved);
		expect(lagging.items).toEqual([]);
	});
});

describe('failures and restarts while the trigger settles', () => {
	test('a failed activation saves nothing that could skip a change; the same workflow polling again, or n8n activating it again, loses nothing', async () => {
		const { emu, credentialId } = await H.freshService(env.harness, { workOrderCount: 1000 });
		// the service refuses the second status page (not a passing failure): the activation fails
		let pages = 0;
		emu.onResponse = (entry) => {
			if (entry.path === LIST && entry.query.$orderby === 'Id desc' && ++pages === 1) {
				emu.failNext({
					path: LIST,
					status: 400,
					body: { ErrorCode: 2008, ErrorMessage: 'Query refused (test)' },
				});
			}
		};
		const wf = H.triggerWorkflow({ credentialId, event: 'workOrderStatusChanged' });
		const trigger = await env.harness.activate(wf);
		emu.onResponse = null;
		expect(trigger.activation.errorVia).toBe('thrown');
		expect(trigger.activation.error).toBeInstanceOf(NodeApiError);
		expect(trigger.activation.error.message).toContain('Query refused (test)');
		expect(trigger.activation.saved).toBeUndefined(); // n8n saves nothing
		// in memory only a true state: T0 and nothing read (no statuses, no progress)
		const inMemory = H.stateOf(trigger.activation);
		expect(inMemory).toMatchObject({ cursor: inMemory.origin, seen: [], baseline: {} });
		expect(inMemory.statuses.ids).toBe('');

		const changes = H.changeMark(emu);
		emu.setWorkOrderStatus(90000900, ...otherStatus(emu, 90000900));
		// the same workflow object polls again (n8n retrying it): it continues from T0
		const again = await trigger.poll();
		expect(again.error).toBeUndefined();
		expect(H.ids(again)).toEqual(H.expectedStatusChanged(emu, changes));
		expect(H.ids(again)).toEqual([90000900]);

		// n8n activating it anew (nothing was saved before the first emit): a fresh T0, then every change after it
		emu.advanceTime(2); // the change above is then dated before the new T0 (T0 has whole seconds)
		const fresh = await env.harness.activate(wf);
		expect(fresh.activation.error).toBeUndefined();
		const next = H.changeMark(emu);
		emu.setWorkOrderStatus(90000100, ...otherStatus(emu, 90000100));
		emu.setWorkOrderStatus(90000990, ...otherStatus(emu, 90000990));
		const polled = [];
		for (let i = 0; i < 4; i++) polled.push(...H.ids(await fresh.poll()));
		expect(polled.sort()).toEqual([90000100, 90000990]);
		expect(H.expectedStatusChanged(emu, next).sort()).toEqual([90000100, 90000990]);
	});

	test('a throttled or failing status read in a later poll pauses the read, not the poll: the changes are emitted, the read goes on', async () => {
		const { emu, credentialId } = await H.freshService(env.harness, { workOrderCount: 2000 });
		const trigger = await env.harness.activate(
			H.triggerWorkflow({
				credentialId,
				event: 'workOrderStatusChanged',
				requestOptions: { maxRetries: 0 },
			}),
		);
		const after = H.stateOf(trigger.activation).baseline.after;
		emu.setWorkOrderStatus(90001999, ...otherStatus(emu, 90001999));
		// the window read comes first: let it through, fail the first status page
		let n = 0;
		emu.onResponse = (entry) => {
			if (entry.path === LIST && ++n === 1)
				emu.failNext({ path: LIST, status: 503, body: { ErrorCode: 9000, ErrorMessage: 'Busy' } });
		};
		const poll = await trigger.poll();
		emu.onResponse = null;
		expect(poll.error).toBeUndefined();
		expect(H.ids(poll)).toEqual([90001999]);
		expect(H.stateOf(poll).baseline.after).toBe(after);
		expect(poll.logs.some((line) => /paused until the next poll/.test(line))).toBe(true);
		const next = await trigger.poll();
		expect(Number(H.stateOf(next).baseline?.after ?? 0)).toBeLessThan(Number(after));
	});

	test('n8n restarts while the trigger settles: back to the last saved state, then neither a skipped nor a repeated change', async () => {
		const { emu, credentialId } = await H.freshService(env.harness, { workOrderCount: 2500 });
		const trigger = await env.harness.activate(
			H.triggerWorkflow({ credentialId, event: 'workOrderStatusChanged' }),
			{ pollBudgetMs: 1 },
		);
		const emitted = [];
		const expected = [];
		const change = (id) => {
			const mark = H.changeMark(emu);
			emu.setWorkOrderStatus(id, ...otherStatus(emu, id, expected.length));
			expected.push(...H.expectedStatusChanged(emu, mark));
		};
		// poll budget 1 ms: one status page per poll, so settling takes many polls
		change(90002400);
		let r = await trigger.poll();
		emitted.push(...H.ids(r));
		expect(r.saved).toBeDefined(); // emitted: n8n saved this state
		const savedAfter = H.stateOf(r).baseline.after;
		r = await trigger.poll(); // nothing to emit: its progress stays in memory
		expect(r.saved).toBeUndefined();
		expect(H.stateOf(r).baseline.after).not.toBe(savedAfter);
		change(90000050);
		change(90002300);
		const restarted = await trigger.restart();
		expect(restarted.error).toBeUndefined();
		emitted.push(...H.ids(restarted));
		for (let i = 0; i < 60 && H.stateOf(trigger.polls[trigger.polls.length - 1]).baseline; i++) {
			if (i === 5) change(90001000);
			emitted.push(...H.ids(await trigger.poll()));
		}
		expect(H.stateOf(trigger.polls[trigger.polls.length - 1]).baseline).toBeUndefined();
		change(90000051);
		emitted.push(...H.ids(await trigger.poll()));
		expect(emitted.sort()).toEqual(expected.sort());
		expect(new Set(emitted).size).toBe(emitted.length);
	}, 120_000);

	test('a poll that comes while the previous one still runs does nothing (no second read of the same state)', async () => {
		const { emu, credentialId } = await H.freshService(env.harness);
		const trigger = await env.harness.activate(H.triggerWorkflow({ credentialId }));
		emu.updateWorkOrder(90000060, { Description: 'once' });
		emu.setFaults({ latencyMs: 300 });
		const from = H.mark(emu);
		const [a, b] = await Promise.all([trigger.poll(), trigger.poll()]);
		emu.resetFaults();
		expect([...H.ids(a), ...H.ids(b)]).toEqual([90000060]);
		expect(H.reads(emu, from)).toHaveLength(1);
		expect([...a.logs, ...b.logs].some((line) => /previous poll is still running/.test(line))).toBe(
			true,
		);
	});
});

describe('a state saved by the previous version (1)', () => {
	test('Updated and Status Changed take it over: nothing lost, nothing repeated', async () => {
		const { emu, credentialId } = await H.freshService(env.harness);
		const now = emu.now();
		const cursor = new Date(Math.floor(now / 1000) * 1000 - 60_000).toISOString();
		// handled by version 1 inside its lookback window
		const handled = emu.updateWorkOrder(90000005, {
			Description: 'handled by version 1',
			UpdatedDate: now - 30_000,
		});
		const handledKey = `90000005@${new Date(Date.parse(handled.UpdatedDate_DTO)).toISOString()}`;
		const status5 = emu.workOrder(90000006).Status;
		const v1 = (event, extra = {}) => ({
			'node:Work Order Service Trigger': {
				state: { version: 1, event, startDate: '', cursor, seen: [handledKey], ...extra },
			},
		});
		const updated = await env.harness.activate(H.triggerWorkflow({ credentialId }), {
			staticData: v1('workOrderUpdated'),
		});
		const statusChanged = await env.harness.activate(
			H.triggerWorkflow({ credentialId, event: 'workOrderStatusChanged' }),
			{
				staticData: v1('workOrderStatusChanged', {
					statusValues: [`${status5.Primary}\u001f${status5.Extended ?? ''}`],
					statuses: [['90000006', 0]],
				}),
			},
		);
		// a change version 1 would have seen after its cursor
		const changes = H.changeMark(emu);
		emu.updateWorkOrder(90000007, { Description: 'after the upgrade' });
		emu.setWorkOrderStatus(90000006, 'COMPLETED', 'PENDING CONFIRMATION');
		const u = [...H.ids(updated.activation), ...H.ids(await updated.poll())];
		expect(u).toEqual(H.expectedUpdated(emu, changes));
		expect([...u].sort()).toEqual([90000006, 90000007]);
		expect(H.stateOf(updated.activation).version).toBe(2);
		const s = [...H.ids(statusChanged.activation), ...H.ids(await statusChanged.poll())];
		s.push(...(await pollUntilSettled(statusChanged)).flatMap(H.ids));
		expect(s).toEqual([90000006]);
		expect(
			H.stateOf(statusChanged.polls[statusChanged.polls.length - 1]).statuses.ids.split(',').length,
		).toBeGreaterThanOrEqual(120);
	});
});
