'use strict';
/**
 * The transport's policy without HTTP (transport/policy.ts): what the client does after one
 * attempt (done, again, fail), what it waits, what counts against Max Retries, and what it keeps
 * for the error. One row per case of the table in policy.ts.
 */
const {
	next,
	isThrottle,
	mayHaveBeenProcessed,
	MAX_REDIRECTS,
} = require('../../dist/nodes/WorkOrderService/transport/policy');
const { WorkOrderServiceAuthError } = require('../../dist/nodes/WorkOrderService/transport/errors');

const ORIGIN = 'https://wos.example';
const URL_ = `${ORIGIN}/api/v3/workorders/1`;

/** A fresh request (n8n 2.x: strict); `extra` overrides. */
const request = (extra = {}) => ({
	method: 'GET',
	url: URL_,
	headers: {},
	apiOrigin: ORIGIN,
	maxRetries: 3,
	maxWaitMs: 120_000,
	strict: true,
	...{ attempts: 0, retries: 0, redirects: 0, loginWaits: 0, waitedMs: 0, sleepMs: 0 },
	...{ episodes: new Set(), resend: false, answered: false, maybeProcessed: false },
	...extra,
});
const answer = (status, headers = {}, bodyText = '') => ({ status, headers, bodyText });
const noAnswer = (networkCode, notSent) => ({
	headers: {},
	bodyText: '',
	failure: { headers: {}, bodyText: '', networkCode, notSent },
});
const login = (kind, retryAfterMs) => ({
	headers: {},
	bodyText: '',
	failure: {
		headers: {},
		bodyText: '',
		login: new WorkOrderServiceAuthError(kind, 'login failed', undefined, retryAfterMs),
	},
});
/** What the budget set after a throttled answer: a pause it charges (default), or this request's own gate. */
const PAUSE = { ms: 0, charged: true, own: 0 };
const fixed = () => 0.5; // jitter in the middle: backoff(0) = 750 ms, backoff(1) = 1500 ms

/** The step and what it left in the request. */
function run(attempt, state = request(), wait = PAUSE, random = fixed) {
	const step = next(state, attempt, wait, random);
	return { step, state };
}

describe('next: one row per case', () => {
	test.each([
		['200', answer(200), request(), 'done', {}],
		['204', answer(204), request(), 'done', {}],
		[
			'302 to the same origin, GET',
			answer(302, { location: '/api/v3/workorders/2' }),
			request(),
			'again',
			{ url: `${ORIGIN}/api/v3/workorders/2`, redirects: 1, sleepMs: 0 },
		],
		[
			'307 to the same origin, POST',
			answer(307, { Location: `${ORIGIN}/api/v3/x` }),
			request({ method: 'POST' }),
			'again',
			{ url: `${ORIGIN}/api/v3/x`, redirects: 1 },
		],
		[
			'429 during a pause (the budget charges the wait)',
			answer(429),
			request(),
			'again',
			{ waitedMs: 0, sleepMs: 0, retries: 0, resend: true },
		],
		[
			'503 with Retry-After = a throttle, also for POST',
			answer(503, { 'retry-after': '1' }),
			request({ method: 'POST' }),
			'again',
			{ waitedMs: 0, sleepMs: 0, retries: 0, maybeProcessed: false },
		],
		[
			'503 saying "rate limit" = a throttle',
			answer(503, { 'content-type': 'application/json' }, '{"ErrorMessage":"Rate limit exceeded"}'),
			request({ method: 'POST' }),
			'again',
			{ sleepMs: 0, retries: 0 },
		],
		[
			'connection refused on a POST: not sent, retried with backoff',
			noAnswer('ECONNREFUSED', true),
			request({ method: 'POST' }),
			'again',
			{ waitedMs: 750, sleepMs: 750, retries: 1, maybeProcessed: false },
		],
		[
			'connect timeout on a POST: not sent, retried',
			noAnswer('ECONNABORTED', true),
			request({ method: 'POST', retries: 1 }),
			'again',
			{ waitedMs: 1500, sleepMs: 1500, retries: 2 },
		],
		[
			'500 on a GET: retried with backoff',
			answer(500),
			request(),
			'again',
			{ waitedMs: 750, sleepMs: 750, retries: 1, maybeProcessed: true },
		],
		[
			'502 on a PUT with Retry-After 3: that wait',
			answer(502, { 'retry-after': '3' }),
			request({ method: 'PUT' }),
			'again',
			{ waitedMs: 3000, sleepMs: 3000, retries: 1 },
		],
		[
			'connection reset after sending, GET: retried',
			noAnswer('ECONNRESET', false),
			request(),
			'again',
			{ sleepMs: 750, retries: 1 },
		],
		[
			'500 on a POST: may have been processed, never resent',
			answer(500),
			request({ method: 'POST' }),
			'fail',
			{ maybeProcessed: true, gaveUp: undefined },
		],
		[
			'connection reset after sending, POST: never resent',
			noAnswer('ECONNRESET', false),
			request({ method: 'POST' }),
			'fail',
			{ maybeProcessed: true },
		],
		[
			'no answer within the Timeout, GET: not resent',
			noAnswer('ECONNABORTED', false),
			request(),
			'fail',
			{},
		],
		['404', answer(404), request(), 'fail', { answered: true, maybeProcessed: false }],
		['401 (n8n already logged in again and sent it once more)', answer(401), request(), 'fail', {}],
		[
			'401 handed back by n8n 1.x (not met by n8n): sent again once, strictly, for n8n to log in',
			answer(401),
			request({ strict: false }),
			'again',
			{ strict: true, sleepMs: 0 },
		],
		[
			'a 503 without any sign of throttling on a POST',
			answer(503, {}, 'Upstream unavailable'),
			request({ method: 'POST' }),
			'fail',
			{ maybeProcessed: true },
		],
	])('%s', (_name, attempt, state, expected, fields) => {
		const result = run(attempt, state);
		expect(result.step).toBe(expected);
		expect(result.state).toMatchObject({ attempts: 1, ...fields });
		if (expected === 'fail') expect(result.state.last).toBe(attempt);
	});

	test("the budget's own gate (the window it learned) is this request's wait, counted against Max Wait", () => {
		const { step, state } = run(answer(429, { 'retry-after': '2' }), request(), {
			ms: 2000,
			charged: false,
			own: 0,
		});
		expect(step).toBe('again');
		expect(state).toMatchObject({ waitedMs: 2000, sleepMs: 0, retries: 0 });
	});

	test('a login failure is never retried', () => {
		expect(run(login('invalidUser')).step).toBe('fail');
	});

	test('a login the token endpoint throttled: sent again after the wait it names, not counted as a retry, within Max Wait', () => {
		expect(run(login('throttled', 5000)).state).toMatchObject({
			sleepMs: 5000,
			waitedMs: 5000,
			retries: 0,
			loginWaits: 1,
		});
		expect(run(login('throttled', 5000), request({ retries: 3, maxRetries: 3 })).step).toBe(
			'again',
		);
		expect(run(login('throttled', 5000), request({ waitedMs: 118_000 })).state.gaveUp).toMatch(
			/Max Wait/,
		);
		expect(run(login('throttled', 250), request({ loginWaits: 8 })).state.gaveUp).toMatch(
			/throttled 8 logins in a row/,
		);
	});
});

describe('next: the bounds', () => {
	test('redirects: another origin, no Location, too many, or a 302 that would turn a POST into a GET', () => {
		expect(run(answer(302, { location: 'https://evil.example/x' })).state.redirectRefused).toMatch(
			/another origin \(https:\/\/evil\.example\)/,
		);
		expect(run(answer(302)).state.redirectRefused).toBe('a redirect without a usable Location');
		expect(
			run(answer(302, { location: '/x' }), request({ redirects: MAX_REDIRECTS })).state
				.redirectRefused,
		).toBe(`more than ${MAX_REDIRECTS} redirects`);
		const post = run(answer(302, { location: '/x' }), request({ method: 'POST' }));
		expect(post.step).toBe('fail');
		expect(post.state.redirectRefused).toMatch(/turn this POST into a different request/);
		expect(post.state.last.status).toBe(302);
	});

	test('Max Retries: a retryable failure gives up once the retries are used; a throttle counts only the answers it had alone', () => {
		expect(run(answer(500), request({ retries: 3 })).state.gaveUp).toBe('Max Retries (3) reached');
		expect(run(answer(429), request(), { ...PAUSE, own: 4 }).state.gaveUp).toBe(
			'Max Retries (3) reached',
		);
		expect(run(answer(429), request(), { ...PAUSE, own: 3 }).step).toBe('again');
		// throttles shared with other requests are not its own: a long shared episode never runs out of retries
		expect(run(answer(429), request(), { ...PAUSE, own: 0 }).step).toBe('again');
	});

	test('Max Wait: the next wait may not take the request past it', () => {
		expect(
			run(answer(429), request({ waitedMs: 119_000 }), { ms: 2000, charged: false, own: 0 }).state
				.gaveUp,
		).toBe('the next wait (2 s) would exceed Max Wait (120 s)');
		const slow = run(answer(502, { 'retry-after': '30' }), request({ maxWaitMs: 1000 }));
		expect(slow.step).toBe('fail');
		expect(slow.state.gaveUp).toBe('the next wait (30 s) would exceed Max Wait (1 s)');
	});

	test('backoff grows with jitter: 0.5-1 s, 1-2 s, 2-4 s', () => {
		for (const [retries, lo, hi] of [
			[0, 500, 1000],
			[1, 1000, 2000],
			[2, 2000, 4000],
		]) {
			expect(run(answer(500), request({ retries }), PAUSE, () => 0).state.sleepMs).toBe(lo);
			expect(run(answer(500), request({ retries }), PAUSE, () => 1).state.sleepMs).toBe(hi);
		}
	});
});

describe('throttles, and what may have been processed', () => {
	test('isThrottle: 429; 503 only with Retry-After or words of a rate limit', () => {
		expect(isThrottle(429, {}, '')).toBe(true);
		expect(isThrottle(503, { 'Retry-After': 'soon' }, '')).toBe(true);
		expect(isThrottle(503, {}, 'Too Many Requests')).toBe(true);
		expect(isThrottle(503, {}, '<html><title>Maintenance</title></html>')).toBe(false);
		expect(isThrottle(500, { 'retry-after': '1' }, 'rate limit')).toBe(false);
	});

	test('mayHaveBeenProcessed: a 5xx (not a throttle), or no answer after the request was written; never a login failure or a request not sent', () => {
		expect(mayHaveBeenProcessed(answer(500))).toBe(true);
		expect(mayHaveBeenProcessed(answer(503, { 'retry-after': '1' }))).toBe(false);
		expect(mayHaveBeenProcessed(answer(404))).toBe(false);
		expect(mayHaveBeenProcessed(noAnswer('ECONNRESET', false))).toBe(true);
		expect(mayHaveBeenProcessed(noAnswer('ECONNREFUSED', true))).toBe(false);
		expect(mayHaveBeenProcessed(login('invalidUser'))).toBe(false);
	});
});
