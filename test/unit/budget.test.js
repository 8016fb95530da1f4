'use strict';
/**
 * The application's request budget (transport/budget.ts, with the learned window of window.ts) without HTTP: requests are driven
 * against a simulated service (a sliding window of `limit` per `windowMs`, as deployed instances
 * and the emulator have) on jest's fake clock, so minutes of throttling run in milliseconds and
 * every figure is exact.
 */
const { Budget, MaxWaitExceeded } = require('../../dist/nodes/WorkOrderService/transport/budget');
const { backoffMs } = require('../../dist/nodes/WorkOrderService/transport/policy');
const { learnWindow } = require('../../dist/nodes/WorkOrderService/transport/window');

const LATENCY_MS = 20;

/** A sliding-window service; `retryAfter`: 'seconds' (rounded up, as the emulator does) or 'none'. */
function slidingService({ limit, windowMs, retryAfter = 'seconds' }) {
	const accepted = [];
	const service = {
		limit,
		windowMs,
		throttled: 0,
		acceptedAt: [],
		answer(now) {
			while (accepted.length && accepted[0] <= now - service.windowMs) accepted.shift();
			if (accepted.length >= service.limit) {
				service.throttled++;
				if (retryAfter === 'none') return { status: 429, headers: {}, bodyText: '' };
				const seconds = Math.max(1, Math.ceil((accepted[0] + service.windowMs - now) / 1000));
				return { status: 429, headers: { 'retry-after': String(seconds) }, bodyText: '' };
			}
			accepted.push(now);
			service.acceptedAt.push(now);
			return { status: 204, headers: {}, bodyText: '' };
		},
	};
	return service;
}

/** A request's state as the budget uses it (policy.ts `Request`). */
const newRequest = () => ({ waitedMs: 0, episodes: new Set(), resend: false });

/** One request as the client sends it: acquire, answer after LATENCY_MS, release; resend while throttled. */
async function request(lane, service, { maxWaitMs = 120_000, onStart } = {}) {
	const state = newRequest();
	for (;;) {
		await lane.acquire(state, Math.max(0, maxWaitMs - state.waitedMs));
		onStart?.(state.start);
		await new Promise((resolve) => setTimeout(resolve, LATENCY_MS / 2));
		const answer = service.answer(Date.now());
		await new Promise((resolve) => setTimeout(resolve, LATENCY_MS / 2));
		lane.release(state, answer);
		if (answer.status === 204) return { state };
		const wait = lane.budget.throttleWait(state);
		if (!wait.charged) state.waitedMs += wait.ms;
		state.resend = true;
	}
}

/** Runs `n` requests through a lane, `concurrency` at a time (as the router's item lanes do). */
async function batch(lane, service, n, options) {
	let next = 0;
	const results = [];
	const worker = async () => {
		while (next < n) {
			const k = next++;
			results[k] = await request(lane, service, options);
		}
	};
	await Promise.all(Array.from({ length: lane.concurrency }, worker));
	return results;
}

/** Runs a promise to completion on the fake clock; returns its value and the simulated time it took. */
async function simulate(promise) {
	const started = Date.now();
	let done = false;
	let value;
	let error;
	promise.then(
		(v) => {
			done = true;
			value = v;
		},
		(e) => {
			done = true;
			error = e;
		},
	);
	for (let guard = 0; !done && guard < 200_000; guard++) await jest.advanceTimersByTimeAsync(10);
	if (error) throw error;
	return { value, ms: Date.now() - started };
}

const floorMs = (n, limit, windowMs) => Math.floor((n - 1) / limit) * windowMs;

beforeEach(() => {
	jest.useFakeTimers({ now: new Date('2026-11-25T12:00:00Z') });
});
afterEach(() => {
	jest.useRealTimers();
});

describe('pure parts', () => {
	test('backoffMs: 0.5-1 s, 1-2 s, 2-4 s, ..., at most 30 s', () => {
		expect(backoffMs(0, () => 0)).toBe(500);
		expect(backoffMs(0, () => 1)).toBe(1000);
		expect(backoffMs(2, () => 0.5)).toBe(3000);
		expect(backoffMs(20, () => 1)).toBe(30_000);
	});

	test('learnWindow takes the densest burst before the reopening, not a quiet spell before it', () => {
		// a quiet spell (one request every 5 s) then a burst of 8 at t=100 s; reopening at 115 s
		const quiet = Array.from({ length: 10 }, (_, k) => 50_000 + k * 5000);
		const burst = Array.from({ length: 8 }, (_, k) => 100_000 + k * 5);
		expect(learnWindow([...quiet, ...burst], 115_000)).toEqual({ count: 8, windowMs: 15_000 });
		expect(learnWindow([], 115_000)).toBeUndefined();
	});

	test('own throttles: a throttled answer counts against Max Retries only when no other request shared its episode', () => {
		const alone = newRequest();
		const crowd = newRequest();
		const other = newRequest();
		const solo = { owners: new Map([[alone, 2]]) };
		const shared = {
			owners: new Map([
				[crowd, 1],
				[other, 3],
			]),
		};
		alone.episodes.add(solo);
		crowd.episodes.add(shared);
		other.episodes.add(shared);
		const budget = new Budget(20);
		expect(budget.throttleWait(alone).own).toBe(2);
		expect(budget.throttleWait(crowd).own).toBe(0);
		expect(budget.throttleWait(other).own).toBe(0);
	});
});

describe('one execution against a throttling service', () => {
	test('30 requests against 8 per 15 s without Retry-After: all accepted, within 1.5x the floor; the window is learned', async () => {
		const service = slidingService({ limit: 8, windowMs: 15_000, retryAfter: 'none' });
		const budget = new Budget(20);
		const { ms } = await simulate(batch(budget.lane(20, 0), service, 30));
		expect(service.acceptedAt).toHaveLength(30);
		expect(ms).toBeLessThanOrEqual(floorMs(30, 8, 15_000) * 1.5);
		expect(budget.model.count).toBe(8);
		expect(budget.model.windowMs).toBeGreaterThanOrEqual(15_000);
		expect(budget.model.windowMs).toBeLessThanOrEqual(15_000 * 1.3);
	});

	test('with Retry-After: one burst of throttled answers (the requests in flight), then none', async () => {
		const service = slidingService({ limit: 40, windowMs: 4000 });
		const budget = new Budget(20);
		const { ms } = await simulate(batch(budget.lane(20, 0), service, 300));
		expect(service.acceptedAt).toHaveLength(300);
		expect(service.throttled).toBeLessThanOrEqual(24);
		expect(ms).toBeLessThanOrEqual(floorMs(300, 40, 4000) * 1.15);
	});

	test("the Retry-After's whole seconds are narrowed: after a few windows the learned window is within 5% of the service's", async () => {
		const service = slidingService({ limit: 10, windowMs: 2300 });
		const budget = new Budget(20);
		await simulate(batch(budget.lane(20, 0), service, 200));
		expect(budget.model.windowMs).toBeGreaterThanOrEqual(2300);
		expect(budget.model.windowMs).toBeLessThanOrEqual(2300 * 1.05 + LATENCY_MS);
	});

	test('what it learned rises again: when the service allows more, one more per window is tried after 8 full windows', async () => {
		const service = slidingService({ limit: 8, windowMs: 2000 });
		const budget = new Budget(20);
		const lane = budget.lane(20, 0);
		const running = batch(lane, service, 600);
		await jest.advanceTimersByTimeAsync(20_000);
		const learned = budget.model.count;
		expect(learned).toBeLessThanOrEqual(8);
		service.limit = 12;
		await simulate(running);
		expect(budget.model.count).toBeGreaterThan(learned);
		expect(budget.model.count).toBeLessThanOrEqual(12);
	});
});

describe('one budget for the executions of an application', () => {
	test('three lanes of 100 started together: 300 accepted, at most 25 throttled answers, within 1.3x the floor', async () => {
		const service = slidingService({ limit: 40, windowMs: 4000 });
		const budget = new Budget(20);
		const lanes = [budget.lane(20, 0), budget.lane(20, 0), budget.lane(20, 0)];
		const { ms } = await simulate(Promise.all(lanes.map((lane) => batch(lane, service, 100))));
		expect(service.acceptedAt).toHaveLength(300);
		expect(service.throttled).toBeLessThanOrEqual(25);
		expect(ms).toBeLessThanOrEqual(floorMs(300, 40, 4000) * 1.3);
	});

	test('a lane that joins late gets its turn at once (round robin), not after the others finish', async () => {
		const service = slidingService({ limit: 10, windowMs: 2000 });
		const budget = new Budget(20);
		const starts = { early: [], late: [] };
		const early = batch(budget.lane(20, 0), service, 200, {
			onStart: (t) => starts.early.push(t.at),
		});
		await jest.advanceTimersByTimeAsync(5000);
		const joinedAt = Date.now();
		const late = batch(budget.lane(20, 0), service, 50, { onStart: (t) => starts.late.push(t.at) });
		await simulate(Promise.all([early, late]));
		expect(starts.late[0] - joinedAt).toBeLessThanOrEqual(2000 + 100);
		// while both ran, the late lane had about half of the starts
		const both = [
			...starts.early.filter((t) => t >= joinedAt && t <= starts.late[starts.late.length - 1]),
			...starts.late,
		];
		expect(starts.late.length / both.length).toBeGreaterThanOrEqual(0.4);
	});

	test('Concurrency stays per lane: a lane of 1 never has two requests in flight', async () => {
		const service = slidingService({ limit: 1000, windowMs: 1000 });
		const budget = new Budget(20);
		const one = budget.lane(1, 0);
		let max = 0;
		const watch = setInterval(() => (max = Math.max(max, one.inFlight)), 1);
		await simulate(Promise.all([batch(one, service, 20), batch(budget.lane(20, 0), service, 100)]));
		clearInterval(watch);
		expect(max).toBe(1);
	});

	test('Requests Per Minute paces the application: starts at least 60000/RPM apart, never bunched after a late timer', async () => {
		const service = slidingService({ limit: 1000, windowMs: 1000 });
		const budget = new Budget(20);
		const starts = [];
		await simulate(batch(budget.lane(20, 600), service, 30, { onStart: (t) => starts.push(t.at) }));
		for (let k = 1; k < starts.length; k++)
			expect(starts[k] - starts[k - 1]).toBeGreaterThanOrEqual(100);
	});

	test('forgotten when idle: a new execution on an idle budget starts without the learned window', async () => {
		const service = slidingService({ limit: 8, windowMs: 2000 });
		const budget = new Budget(20);
		await simulate(batch(budget.lane(20, 0), service, 30));
		expect(budget.model).toBeDefined();
		await jest.advanceTimersByTimeAsync(2500); // the service's window empties
		service.limit = 40;
		const next = budget.lane(20, 0);
		const { ms } = await simulate(batch(next, service, 40));
		expect(ms).toBeLessThan(1000);
		expect(budget.model).toBeUndefined();
	});
});

describe('bounds', () => {
	test('a service that never accepts again: every waiting request gives up with MaxWaitExceeded once the next wait would pass its Max Wait', async () => {
		const service = slidingService({ limit: 1, windowMs: 3_600_000, retryAfter: 'none' });
		const budget = new Budget(20);
		const lane = budget.lane(20, 0);
		const outcomes = await simulate(
			Promise.all(
				Array.from({ length: 4 }, () =>
					request(lane, service, { maxWaitMs: 10_000 }).then(
						() => 'accepted',
						(e) => e,
					),
				),
			),
		);
		const failed = outcomes.value.filter((o) => o instanceof MaxWaitExceeded);
		expect(failed).toHaveLength(3);
		for (const f of failed) expect(f.waitedMs).toBeLessThanOrEqual(10_000);
		// the last waits end by 10 s; then only the round trips of the probes that end them (one at a time, jitter decides how many)
		expect(outcomes.ms).toBeLessThanOrEqual(10_000 + LATENCY_MS * 8);
	});
});
