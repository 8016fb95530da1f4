'use strict';
/**
 * Issue 29: no timer outlives the execution that set it. The application's request budget
 * (transport/budget.ts) wakes only waiters that exist: its one timer lives in a waiting call and is
 * cleared when that waiter leaves (started, or given up because the service's pause exceeds its
 * Max Wait). Through n8n-core's real execution against the emulator: every timer set while the
 * package's code was on the stack (async_hooks) is gone when the run returns, and the process has
 * no more active timers (`process.getActiveResourcesInfo()`) than before the run.
 */
const { createHook } = require('node:async_hooks');
const { useEnvironment, items } = require('./support');

const env = useEnvironment();

const getWo = (extra = {}) => ({
	resource: 'workOrder',
	operation: 'get',
	workOrderId: '={{ $json.id }}',
	...extra,
});

/** Active timers of the process (Timeout and Immediate handles). */
function timers() {
	return process
		.getActiveResourcesInfo()
		.filter((kind) => kind === 'Timeout' || kind === 'Immediate').length;
}

/** Records the timers created with this package's code (dist/nodes, dist/credentials) on the stack; `stop()` lists those still pending. */
function watchPackageTimers() {
	const live = new Map();
	const hook = createHook({
		init(id, type) {
			if (type !== 'Timeout') return;
			const limit = Error.stackTraceLimit;
			Error.stackTraceLimit = 100;
			const stack = new Error().stack ?? '';
			Error.stackTraceLimit = limit;
			if (/[\\/]dist[\\/](nodes|credentials)[\\/]/.test(stack)) live.set(id, stack);
		},
		destroy(id) {
			live.delete(id);
		},
	}).enable();
	return {
		stop() {
			hook.disable();
			return [...live.values()];
		},
	};
}

/** Lets pending callbacks run (without adding a timer that would still be active when counted). */
async function settle() {
	for (let k = 0; k < 5; k++) await new Promise((resolve) => setImmediate(resolve));
}

test('throttled with a short pause, then a long one that exceeds Max Wait: the run returns with no timer left behind', async () => {
	// warm up: the login and n8n's own first-use timers are not part of what is measured
	await env.run({ parameters: getWo(), items: items({ id: 90000001 }) });
	await settle();
	const before = timers();

	// item 0 is throttled with Retry-After 2 s: the budget pauses and a waiting call holds the alarm;
	// item 1 is then throttled with Retry-After 60 s: the pause exceeds every waiter's Max Wait (5 s),
	// so both give up at once, long before the 2 s alarm would have rung
	env.emulator.setFaults({ latencyMs: 150 });
	env.emulator.failNext({
		path: '/api/v3/workorders/90000001',
		status: 429,
		headers: { 'Retry-After': '2' },
		body: { ErrorMessage: 'Slow down' },
	});
	env.emulator.failNext({
		path: '/api/v3/workorders/90000002',
		status: 429,
		headers: { 'Retry-After': '60' },
		body: { ErrorMessage: 'Slow down' },
	});
	const watch = watchPackageTimers();
	const started = Date.now();
	const r = await env.run({
		parameters: getWo({ requestOptions: { maxWaitSeconds: 5, concurrency: 2 } }),
		items: items({ id: 90000001 }, { id: 90000002 }),
		continueOnFail: true,
	});
	await settle();
	const pending = watch.stop();
	const after = timers();

	expect(r.output.map((o) => o.json.error ?? o.json.Id)).toEqual([
		'The Work Order Service answered 429 Too Many Requests to GET /workorders/90000001: Slow down',
		'The Work Order Service answered 429 Too Many Requests to GET /workorders/90000002: Slow down',
	]);
	for (const o of r.output)
		expect(o.json.errorDescription).toMatch(/would exceed Max Wait \(5 s\)/);
	expect(Date.now() - started).toBeLessThan(2000);
	expect(r.api.map((q) => [q.path, q.status])).toEqual([
		['/api/v3/workorders/90000001', 429],
		['/api/v3/workorders/90000002', 429],
	]);
	expect(pending).toEqual([]);
	expect(after).toBeLessThanOrEqual(before);
}, 30_000);

test('a run paced by Requests Per Minute returns with no timer left behind', async () => {
	await settle();
	const before = timers();
	const watch = watchPackageTimers();
	const r = await env.run({
		parameters: getWo({ requestOptions: { requestsPerMinute: 600 } }),
		items: items({ id: 90000001 }, { id: 90000002 }, { id: 90000001 }),
	});
	await settle();
	expect(r.output.map((o) => o.json.Id)).toEqual([90000001, 90000002, 90000001]);
	expect(r.api).toHaveLength(3);
	expect(watch.stop()).toEqual([]);
	expect(timers()).toBeLessThanOrEqual(before);
}, 30_000);
