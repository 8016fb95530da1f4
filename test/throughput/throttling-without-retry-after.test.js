'use strict';
/**
 * Issue 19: a service that throttles without saying how long to wait (429, or 503, with no
 * Retry-After). The node backs off by itself: one shared pause for the application, probed with
 * one request at a time at growing delays (with jitter), and learns the service's window from the
 * moment it accepts again. Every method is sent again (a throttled request was not processed).
 *
 * Floors: a sliding limit of L per W lets the n-th request (0-based) start at floor(n / L) windows
 * at the earliest. Each test starts its own emulator, so no learned state carries over.
 */
const support = require('../support');

function floorMs(items, limit, windowMs) {
	return Math.floor((items - 1) / limit) * windowMs;
}

/** Items tagged `<run>-<n>`, each with an Open proposal of its own (the service refuses to approve one twice); the node approves it with the tag as Comments. */
function approvals(tag, n) {
	const ids = support.openProposals(env.emulator, n);
	return support.items(ids.map((id, k) => ({ tag: `${tag}-${k}`, id })));
}

const approve = (extra = {}) => ({
	resource: 'proposal',
	operation: 'approve',
	proposalId: '={{ $json.id }}',
	additionalFields: { comments: '={{ $json.tag }}' },
	...extra,
});

/** Accepted (204) approvals per tag, from the emulator's log. */
function acceptedTags(emulator, tag) {
	const counts = new Map();
	for (const q of emulator.requests) {
		if (q.method !== 'PUT' || !q.path.endsWith('/approve') || q.status !== 204) continue;
		const t = q.body?.Comments;
		if (typeof t === 'string' && t.startsWith(`${tag}-`)) counts.set(t, (counts.get(t) ?? 0) + 1);
	}
	return counts;
}

let env;
beforeEach(async () => {
	env = await support.setup();
	env.harness.credentials.set('cred-1', {
		name: 'Emulator password',
		type: 'workOrderServiceApi',
		data: support.passwordCredential(env.emulator),
	});
});
afterEach(async () => {
	await env.close();
});

test('30 approvals against 8 requests per 15 s, 429 without Retry-After, default Request Options: 30/30 approved once each, within 1.5x the window floor', async () => {
	env.emulator.setFaults({ rateLimit: { limit: 8, windowMs: 15_000, retryAfter: 'none' } });
	const started = Date.now();
	const r = await support.runNode(env.harness, {
		parameters: approve(),
		items: approvals('nra', 30),
		timeoutMs: 120_000,
	});
	const ms = Date.now() - started;
	expect(r.error).toBeUndefined();
	expect(r.output).toHaveLength(30);
	expect(r.output.map((o) => o.pairedItem.item)).toEqual(Array.from({ length: 30 }, (_, k) => k));
	const accepted = acceptedTags(env.emulator, 'nra');
	expect(accepted.size).toBe(30);
	expect([...accepted.values()].every((c) => c === 1)).toBe(true);
	const puts = support.apiRequests(env.emulator).filter((q) => q.method === 'PUT');
	const throttled = puts.filter((q) => q.status === 429);
	expect(throttled.length).toBeGreaterThan(0);
	for (const q of throttled) expect(q.responseHeaders['retry-after']).toBeUndefined();
	const floor = floorMs(30, 8, 15_000);
	expect(ms).toBeLessThanOrEqual(floor * 1.5);
	console.log(
		`[throughput] 30 approvals, 8 per 15 s, no Retry-After: ${(ms / 1000).toFixed(1)} s = ${(ms / floor).toFixed(2)}x the floor ${floor / 1000} s; ${throttled.length} throttled answers`,
	);
}, 120_000);

test('503 without Retry-After (the service says it is a rate limit), 12 approvals against 4 per 5 s: all approved, none twice', async () => {
	env.emulator.setFaults({
		rateLimit: { limit: 4, windowMs: 5000, retryAfter: 'none', status: 503 },
	});
	const started = Date.now();
	const r = await support.runNode(env.harness, {
		parameters: approve(),
		items: approvals('n503', 12),
		timeoutMs: 60_000,
	});
	const ms = Date.now() - started;
	expect(r.error).toBeUndefined();
	const accepted = acceptedTags(env.emulator, 'n503');
	expect(accepted.size).toBe(12);
	expect([...accepted.values()].every((c) => c === 1)).toBe(true);
	expect(support.apiRequests(env.emulator).filter((q) => q.status === 503).length).toBeGreaterThan(
		0,
	);
	expect(ms).toBeLessThanOrEqual(floorMs(12, 4, 5000) * 1.5 + 2000);
}, 60_000);

test('POSTs are sent again too (a throttled request was not processed): 10 notes against 4 per 3 s without Retry-After, each stored once', async () => {
	env.emulator.setFaults({ rateLimit: { limit: 4, windowMs: 3000, retryAfter: 'none' } });
	const wo = env.emulator.fixtures.workOrders.notes;
	const before = env.emulator.notesOf(wo).length;
	const r = await support.runNode(env.harness, {
		parameters: {
			resource: 'workOrderNote',
			operation: 'create',
			workOrderId: wo,
			note: '={{ $json.tag }}',
		},
		items: approvals('post-nra', 10),
		timeoutMs: 60_000,
	});
	expect(r.error).toBeUndefined();
	const notes = env.emulator
		.notesOf(wo)
		.slice(before)
		.map((n) => n.NoteData);
	expect(notes.filter((t) => String(t).startsWith('post-nra-')).sort()).toEqual(
		Array.from({ length: 10 }, (_, k) => `post-nra-${k}`).sort(),
	);
	expect(
		support.apiRequests(env.emulator).filter((q) => q.method === 'POST' && q.status === 429).length,
	).toBeGreaterThan(0);
}, 60_000);

test('a service that never accepts again: the waiting items fail as soon as the next wait would pass Max Wait, with an error naming the option to change (not Max Retries)', async () => {
	env.emulator.setFaults({ rateLimit: { limit: 1, windowMs: 600_000, retryAfter: 'none' } });
	const started = Date.now();
	const r = await support.runNode(env.harness, {
		parameters: approve({ requestOptions: { maxWaitSeconds: 4 } }),
		items: approvals('never', 3),
		continueOnFail: true,
		timeoutMs: 60_000,
	});
	const ms = Date.now() - started;
	expect(r.output).toHaveLength(3);
	const failed = r.output.filter((o) => o.json.error);
	expect(failed.length).toBe(2);
	for (const f of failed) {
		expect(f.json.errorDescription).toMatch(/Raise "Max Wait \(Seconds\)" \(now 4 s\)/);
		expect(f.json.errorDescription).toMatch(/would exceed Max Wait \(4 s\)/);
		expect(f.json.errorDescription).not.toMatch(/Max Retries \(\d+\) reached/);
	}
	// the probes kept being refused: more throttled answers than Max Retries (3) would allow one request
	const throttled = support.apiRequests(env.emulator).filter((q) => q.status === 429);
	expect(throttled.length).toBeGreaterThanOrEqual(3);
	expect(ms).toBeLessThan(4000 + 3000);
}, 60_000);
