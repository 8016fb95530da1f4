'use strict';
/**
 * Issue 5, test 1: a large batch of checklist answers against a throttled service. Every input item
 * must end as exactly one output item, the service must hold exactly one response per item, and no
 * answer may be submitted twice.
 *
 * The sandbox allows about 40 requests a minute; here the emulator allows 40 per 1 s window, so
 * the same throttling dynamics happen 60x faster. The 429s carry Retry-After in seconds.
 */
const {
	useEnvironment,
	items,
	checklistParams,
	checklistRequestJson,
	WO,
	TEXT_QUESTION,
} = require('./support');

const env = useEnvironment();

const LIMIT = 40;
const WINDOW_MS = 1000;

/** A unique, lowercase answer per item (the service lowercases Text Entry answers). */
const answerOf = (tag, i) => `${tag} answer ${String(i).padStart(4, '0')}`;

/**
 * Everything the issue asks about a batch: one output per input, paired 0..n-1 once each, no error
 * item, exactly n stored responses, each answer stored once and POSTed successfully once.
 */
function expectBatchAccounted(r, tag, n) {
	// the run succeeded and no item failed
	expect(r.error).toBeUndefined();
	expect(r.result.status).toBe('success');
	expect(r.output).toHaveLength(n);
	const errored = r.output.filter((o) => o.json.error !== undefined);
	expect(errored).toEqual([]);

	// every input item ends as exactly one output item
	const paired = r.output.map((o) => o.pairedItem?.item);
	expect([...paired].sort((a, b) => a - b)).toEqual(Array.from({ length: n }, (_, i) => i));
	for (const o of r.output) {
		expect(o.json.CheckListResponse.Answer).toBe(answerOf(tag, o.pairedItem.item));
	}

	// the emulator holds exactly n responses of this batch, no duplicates
	const stored = env.emulator.state.checklistResponses.filter((s) =>
		String(s.request.Answer).startsWith(`${tag} `),
	);
	expect(stored).toHaveLength(n);
	const keys = stored.map(
		(s) => `${s.questionId}|${s.workOrderId}|${s.request.Attempt}|${s.request.Answer}`,
	);
	expect(new Set(keys).size).toBe(n);
	expect(new Set(stored.map((s) => s.request.Answer))).toEqual(
		new Set(Array.from({ length: n }, (_, i) => answerOf(tag, i))),
	);
	// the output carries the ids the service assigned, each once
	expect(new Set(r.output.map((o) => o.json.CheckListResponse.Id))).toEqual(
		new Set(stored.map((s) => s.Id)),
	);

	// on the wire: exactly one accepted POST per answer; the others were throttled (not processed)
	const posts = r.api.filter(
		(q) => q.method === 'POST' && q.path === '/api/v3/checklists/CheckListResponse',
	);
	const accepted = posts.filter((q) => q.status === 201);
	expect(accepted).toHaveLength(n);
	expect(new Set(accepted.map((q) => checklistRequestJson(q).Answer)).size).toBe(n);
	for (const q of posts) expect([201, 429]).toContain(q.status);
	const throttled = posts.filter((q) => q.status === 429);
	for (const q of throttled) expect(q.throttled).toBe(true);
	return { posts, throttled };
}

describe('1,000 checklist answers against an emulator limited to 40 requests per window', () => {
	test('default request options: every item ends as exactly one output item, 1,000 responses stored, no duplicates', async () => {
		const N = 1000;
		const tag = 'batch1000';
		env.emulator.setFaults({
			rateLimit: { limit: LIMIT, windowMs: WINDOW_MS, retryAfter: 'seconds' },
		});
		const jsons = Array.from({ length: N }, (_, i) => ({ answer: answerOf(tag, i) }));
		const r = await env.run({
			parameters: checklistParams(),
			items: items(...jsons),
			timeoutMs: 85_000,
		});
		const { posts, throttled } = expectBatchAccounted(r, tag, N);

		// the throttle really was hit (otherwise this test proves nothing), and each throttled
		// request was answered with Retry-After in seconds
		expect(throttled.length).toBeGreaterThan(0);
		for (const q of throttled) expect(q.responseHeaders['retry-after']).toMatch(/^\d+$/);
		// the stored responses are for the right question / work order / attempt
		const stored = env.emulator.state.checklistResponses.filter((s) =>
			String(s.request.Answer).startsWith(`${tag} `),
		);
		for (const s of stored) {
			expect(s.questionId).toBe(TEXT_QUESTION);
			expect(s.workOrderId).toBe(WO);
			expect(s.request.Attempt).toBe(1);
		}
		const figures = {
			items: N,
			outputItems: r.output.length,
			storedResponses: stored.length,
			duplicates: N - new Set(stored.map((s) => s.request.Answer)).size,
			posts: posts.length,
			throttled429: throttled.length,
			wallSeconds: +(r.ms / 1000).toFixed(1),
		};
		console.log(
			`[reliability] 1,000-item batch (default options, ${LIMIT} req / ${WINDOW_MS} ms): ${JSON.stringify(figures)}`,
		);
	}, 90_000);

	test('"Requests Per Minute" pacing scaled to the window keeps a batch under the limit: no 429 at all', async () => {
		const N = 150;
		const tag = 'paced150';
		env.emulator.setFaults({
			rateLimit: { limit: LIMIT, windowMs: WINDOW_MS, retryAfter: 'seconds' },
		});
		// 40 per 1 s is 2,400 per minute; pace at 2,000 per minute (one request every 30 ms)
		const jsons = Array.from({ length: N }, (_, i) => ({ answer: answerOf(tag, i) }));
		const r = await env.run({
			parameters: checklistParams({ requestOptions: { requestsPerMinute: 2000 } }),
			items: items(...jsons),
			timeoutMs: 30_000,
		});
		const { throttled } = expectBatchAccounted(r, tag, N);
		expect(throttled).toHaveLength(0);
		// pacing really spaced the requests: N requests at 30 ms intervals take at least (N-1) x 30 ms
		expect(r.ms).toBeGreaterThanOrEqual((N - 1) * 30 - 50);
		console.log(
			`[reliability] ${N}-item batch paced at 2000/min: 429s=${throttled.length}, wall=${(r.ms / 1000).toFixed(1)} s`,
		);
	}, 40_000);
});
