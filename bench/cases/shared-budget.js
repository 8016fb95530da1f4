'use strict';
/**
 * Case 9: one request budget per application per n8n process. Work-order NTE updates (PUT
 * /workorders/{id}/nte, repeatable, each tagged by its Actor) against the emulator's sliding rate limit of LIMIT per
 * WINDOW_MS per client id (429 + Retry-After in seconds), from worker processes (bench/lib/
 * budget-worker.js: the n8n-core harness with the package, several executions at once, as an
 * n8n worker runs them). Every arm starts with an empty window and fresh worker processes.
 *
 *   one process:  1 execution x 300 | 3 executions x 100 together | 3 x 200 started 2 s apart
 *   processes:    1 worker x 2 executions x 100 | 3 workers x 2 executions x 100 (queue mode: each
 *                 worker learns on its own; measured as worker processes, see RESULTS.md)
 *
 * Figures per arm: wall time from the first execution's start to the last one's end, its ratio to
 * the window floor (floor((n - 1) / LIMIT) windows), throttled answers, approvals delivered and
 * duplicated (from the emulator's log), executions that failed. `baselineDir`: a built package
 * directory (e.g. the previous release) run once in the same arms for comparison. `quick`: the arm
 * of the target only (3 executions x 100 together), one run, for `npm run bench -- --quick`.
 */
const path = require('node:path');
const { startEmulator } = require('../../test/emulator');
const S = require('../../test/support');
const { round, log, runWorker } = require('../lib/util');

const LIMIT = 40;
const WINDOW_MS = 4000;
const WORKER = path.join(__dirname, '..', 'lib', 'budget-worker.js');

const floorMs = (n) => Math.floor((n - 1) / LIMIT) * WINDOW_MS;

const ARMS = [
	{ key: '1x300', label: '1 execution x 300', workers: [[{ items: 300 }]] },
	{
		key: '3x100',
		label: '3 executions x 100, together',
		workers: [[{ items: 100 }, { items: 100 }, { items: 100 }]],
	},
	{
		key: '3x200s',
		label: '3 executions x 200, 2 s apart (ratio after the 4 s stagger)',
		stagger: 4000,
		workers: [[{ items: 200 }, { items: 200, delayMs: 2000 }, { items: 200, delayMs: 4000 }]],
	},
	{
		key: 'w1',
		label: '1 worker x 2 executions x 100',
		workers: [[{ items: 100 }, { items: 100 }]],
	},
	{
		key: 'w3',
		label: '3 workers x 2 executions x 100',
		workers: [0, 1, 2].map(() => [{ items: 100 }, { items: 100 }]),
	},
];

/** An arm with `share` of its items (quick runs). */
function scaled(arm, share) {
	if (share === 1) return arm;
	return {
		...arm,
		label: `${arm.label} (quick: ${share * 100}% of the items)`,
		workers: arm.workers.map((w) => w.map((e) => ({ ...e, items: Math.round(e.items * share) }))),
	};
}

async function runArm(emulator, arm, packageDir, run) {
	emulator.resetFaults();
	await new Promise((resolve) => setTimeout(resolve, WINDOW_MS + 200)); // the service's window empties
	emulator.clearRequests();
	emulator.setFaults({ rateLimit: { limit: LIMIT, windowMs: WINDOW_MS } });
	const credential = S.passwordCredential(emulator);
	const results = await Promise.all(
		arm.workers.map((executions, w) =>
			runWorker(
				WORKER,
				{
					kind: 'budget',
					packageDir,
					credential,
					workOrderId: emulator.fixtures.workOrders.noChecklist,
					executions: executions.map((e, k) => ({ ...e, tag: `${run}-${arm.key}-w${w}e${k}` })),
				},
				{ execArgv: [], timeoutMs: 900_000 },
			),
		),
	);
	const executions = results.flatMap((r) => r.executions);
	// from the first execution's start to the last one's end (worker processes' start-up excluded)
	const ms =
		Math.max(...executions.map((e) => e.endAt)) - Math.min(...executions.map((e) => e.startAt));
	emulator.resetFaults();
	const api = S.apiRequests(emulator);
	const items = arm.workers.flat().reduce((a, e) => a + e.items, 0);
	const accepted = new Map();
	for (const q of api) {
		if (
			q.status === 200 &&
			typeof q.body?.Actor === 'string' &&
			q.body.Actor.startsWith(`${run}-${arm.key}-`)
		)
			accepted.set(q.body.Actor, (accepted.get(q.body.Actor) ?? 0) + 1);
	}
	const floor = floorMs(items);
	const stagger = arm.stagger ?? 0;
	return {
		items,
		ms,
		floorMs: floor,
		vsFloor: round((ms - stagger) / floor, 2),
		throttled: api.filter((q) => q.status === 429).length,
		delivered: accepted.size,
		duplicates: [...accepted.values()].reduce((a, c) => a + c - 1, 0),
		failedExecutions: executions.filter((e) => e.status !== 'success').length,
		errors: executions
			.filter((e) => e.error)
			.map((e) => e.error)
			.slice(0, 3),
	};
}

async function run({ baselineDir, runs = 1, quick = false } = {}) {
	const emulator = await startEmulator({ logBodies: true });
	const out = {
		limit: LIMIT,
		windowMs: WINDOW_MS,
		runs,
		quick,
		arms: {},
		deliveries: [],
		baseline: baselineDir ? path.basename(baselineDir) : undefined,
	};
	try {
		for (const arm of ARMS.filter((a) => !quick || a.key === '3x100')) {
			const samples = [];
			const before = [];
			for (let r = 0; r < runs; r++) {
				log(`case 9: ${arm.label}, run ${r + 1}/${runs}`);
				samples.push(await runArm(emulator, arm, undefined, `r${r}`));
				if (baselineDir && r === 0) before.push(await runArm(emulator, arm, baselineDir, `b${r}`));
			}
			out.arms[arm.key] = { label: arm.label, samples, before: baselineDir ? before : undefined };
			samples.forEach((x, r) =>
				out.deliveries.push({
					label: `${arm.label}, run ${r + 1}`,
					delivered: x.delivered,
					sent: x.items,
					duplicates: x.duplicates,
					...(x.failedExecutions
						? {
								failed: true,
								error: `${x.failedExecutions} executions failed: ${x.errors[0]}`,
							}
						: {}),
				}),
			);
		}
	} finally {
		await emulator.close();
	}
	const all = (key, pick) => (out.arms[key]?.samples ?? []).map(pick);
	const worst = (key) => Math.max(...all(key, (s) => s.vsFloor));
	const maxThrottled = (key) => Math.max(...all(key, (s) => s.throttled));
	const allDelivered = Object.values(out.arms).every((a) =>
		a.samples.every((s) => s.delivered === s.items && s.duplicates === 0),
	);
	out.met = {
		together: worst('3x100') <= 1.2 && maxThrottled('3x100') <= 25,
		staggered: out.arms['3x200s']
			? worst('3x200s') <= 1.2 && all('3x200s', (s) => s.failedExecutions).every((f) => f === 0)
			: null,
		delivered: allDelivered,
	};
	out.status = 'run';
	return out;
}

module.exports = { run, ARMS, LIMIT, WINDOW_MS };
