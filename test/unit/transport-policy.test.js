'use strict';
/**
 * The transport's policy without HTTP (transport/policy.ts): what the client does after one
 * attempt (ok, redirect, retry, fail), what it waits, what counts against Max Retries, and
 * what the request budget learns from an answer. One row per case of the table in policy.ts.
 */
const { decide, isThrottle, mayHaveBeenProcessed, verdictOf, MAX_REDIRECTS } = require('../../dist/nodes/WorkOrderService/transport/policy');

const ORIGIN = 'https://wos.example';
const URL_ = `${ORIGIN}/api/v3/workorders/1`;

/** Where a fresh request stands; `extra` overrides. */
const at = (extra = {}) => ({
	loginWaits: 0,
	renewable: false,
	method: 'GET',
	url: URL_,
	apiOrigin: ORIGIN,
	redirects: 0,
	retries: 0,
	ownThrottles: 0,
	waitedMs: 0,
	throttleWait: { ms: 0, charged: true },
	maxRetries: 3,
	maxWaitMs: 120_000,
	...extra,
});
const answer = (status, headers = {}, bodyText = '') => ({ status, headers, bodyText });
const noAnswer = (networkCode, notSent) => ({ headers: {}, bodyText: '', failure: { headers: {}, bodyText: '', networkCode, notSent } });
const fixed = () => 0.5; // jitter in the middle: backoff(0) = 750 ms, backoff(1) = 1500 ms

describe('decide: one row per case', () => {
	test.each([
		['200', answer(200), at(), { kind: 'ok' }],
		['204', answer(204), at(), { kind: 'ok' }],
		['302 to the same origin, GET', answer(302, { location: '/api/v3/workorders/2' }), at(), { kind: 'redirect', url: `${ORIGIN}/api/v3/workorders/2` }],
		['307 to the same origin, POST', answer(307, { Location: `${ORIGIN}/api/v3/x` }), at({ method: 'POST' }), { kind: 'redirect', url: `${ORIGIN}/api/v3/x` }],
		['429 during a pause (the budget charges the wait)', answer(429), at(), { kind: 'retry', waitMs: 0, sleep: false, countsAsRetry: false }],
		['429 with the budget gated 2 s (this request\'s own wait)', answer(429, { 'retry-after': '2' }), at({ throttleWait: { ms: 2000, charged: false } }), { kind: 'retry', waitMs: 2000, sleep: false, countsAsRetry: false }],
		['503 with Retry-After = a throttle, also for POST', answer(503, { 'retry-after': '1' }), at({ method: 'POST' }), { kind: 'retry', waitMs: 0, sleep: false, countsAsRetry: false }],
		['503 saying "rate limit" = a throttle', answer(503, { 'content-type': 'application/json' }, '{"ErrorMessage":"Rate limit exceeded"}'), at({ method: 'POST' }), { kind: 'retry', waitMs: 0, sleep: false, countsAsRetry: false }],
		['connection refused on a POST: not sent, retried with backoff', noAnswer('ECONNREFUSED', true), at({ method: 'POST' }), { kind: 'retry', waitMs: 750, sleep: true, countsAsRetry: true }],
		['connect timeout on a POST: not sent, retried', noAnswer('ECONNABORTED', true), at({ method: 'POST', retries: 1 }), { kind: 'retry', waitMs: 1500, sleep: true, countsAsRetry: true }],
		['500 on a GET: retried with backoff', answer(500), at(), { kind: 'retry', waitMs: 750, sleep: true, countsAsRetry: true }],
		['502 on a PUT with Retry-After 3: that wait', answer(502, { 'retry-after': '3' }), at({ method: 'PUT' }), { kind: 'retry', waitMs: 3000, sleep: true, countsAsRetry: true }],
		['connection reset after sending, GET: retried', noAnswer('ECONNRESET', false), at(), { kind: 'retry', waitMs: 750, sleep: true, countsAsRetry: true }],
		['500 on a POST: may have been processed, never resent', answer(500), at({ method: 'POST' }), { kind: 'fail' }],
		['connection reset after sending, POST: never resent', noAnswer('ECONNRESET', false), at({ method: 'POST' }), { kind: 'fail' }],
		['no answer within the Timeout, GET: not resent', noAnswer('ECONNABORTED', false), at(), { kind: 'fail' }],
		['404', answer(404), at(), { kind: 'fail' }],
		['401 (n8n already logged in again and sent it once more)', answer(401), at(), { kind: 'fail' }],
		['401 handed back by n8n 1.x (not met by n8n): sent again once, for n8n to log in', answer(401), at({ renewable: true }), { kind: 'renew' }],
		['a 503 without any sign of throttling on a POST', answer(503, {}, 'Upstream unavailable'), at({ method: 'POST' }), { kind: 'fail' }],
	])('%s', (_name, outcome, standing, expected) => {
		expect(decide(outcome, standing, fixed)).toEqual(expected);
	});

	test('a login failure is never retried', () => {
		const outcome = { headers: {}, bodyText: '', failure: { headers: {}, bodyText: '', authErrorMessage: 'Username or password rejected' } };
		expect(decide(outcome, at(), fixed)).toEqual({ kind: 'fail' });
	});
	test('a login the token endpoint throttled: sent again after the wait it names, not counted as a retry, within Max Wait', () => {
		const throttled = (ms) => ({ headers: {}, bodyText: '', failure: { headers: {}, bodyText: '', authErrorMessage: 'throttled', authErrorKind: 'throttled', authRetryAfterMs: ms } });
		expect(decide(throttled(5000), at())).toEqual({ kind: 'retry', waitMs: 5000, sleep: true, countsAsRetry: false });
		expect(decide(throttled(5000), at({ retries: 3, maxRetries: 3 }))).toEqual({ kind: 'retry', waitMs: 5000, sleep: true, countsAsRetry: false });
		expect(decide(throttled(5000), at({ waitedMs: 118_000, maxWaitMs: 120_000 }))).toMatchObject({ kind: 'fail', gaveUp: expect.stringMatching(/Max Wait/) });
		expect(decide(throttled(250), at({ loginWaits: 8 }))).toMatchObject({ kind: 'fail', gaveUp: expect.stringMatching(/throttled 8 logins in a row/) });
	});

});

describe('decide: the bounds', () => {
	test('redirects: another origin, no Location, too many, or a 302 that would turn a POST into a GET', () => {
		expect(decide(answer(302, { location: 'https://evil.example/x' }), at(), fixed).redirectReason).toMatch(/another origin \(https:\/\/evil\.example\)/);
		expect(decide(answer(302), at(), fixed).redirectReason).toBe('a redirect without a usable Location');
		expect(decide(answer(302, { location: '/x' }), at({ redirects: MAX_REDIRECTS }), fixed).redirectReason).toBe(`more than ${MAX_REDIRECTS} redirects`);
		expect(decide(answer(302, { location: '/x' }), at({ method: 'POST' }), fixed).redirectReason).toMatch(/turn this POST into a different request/);
	});

	test('Max Retries: a retryable failure gives up once the retries are used; a throttle counts only the answers it had alone', () => {
		expect(decide(answer(500), at({ retries: 3 }), fixed)).toEqual({ kind: 'fail', gaveUp: 'Max Retries (3) reached' });
		expect(decide(answer(429), at({ ownThrottles: 4 }), fixed)).toEqual({ kind: 'fail', gaveUp: 'Max Retries (3) reached' });
		expect(decide(answer(429), at({ ownThrottles: 3 }), fixed).kind).toBe('retry');
		// throttles shared with other requests are not in ownThrottles: a long shared episode never runs out of retries
		expect(decide(answer(429), at({ ownThrottles: 0, retries: 0 }), fixed).kind).toBe('retry');
	});

	test('Max Wait: the next wait may not take the request past it', () => {
		expect(decide(answer(429), at({ waitedMs: 119_000, throttleWait: { ms: 2000, charged: false } }), fixed)).toEqual({
			kind: 'fail',
			gaveUp: 'the next wait (2 s) would exceed Max Wait (120 s)',
		});
		expect(decide(answer(502, { 'retry-after': '30' }), at({ maxWaitMs: 1000 }), fixed)).toEqual({
			kind: 'fail',
			gaveUp: 'the next wait (30 s) would exceed Max Wait (1 s)',
		});
	});

	test('backoff grows with jitter: 0.5-1 s, 1-2 s, 2-4 s', () => {
		for (const [retries, lo, hi] of [[0, 500, 1000], [1, 1000, 2000], [2, 2000, 4000]]) {
			expect(decide(answer(500), at({ retries }), () => 0).waitMs).toBe(lo);
			expect(decide(answer(500), at({ retries }), () => 1).waitMs).toBe(hi);
		}
	});
});

describe('what the budget learns, and what may have been processed', () => {
	const now = Date.parse('2026-11-25T12:00:00Z');
	test('verdictOf', () => {
		expect(verdictOf(answer(200), now)).toEqual({ kind: 'accepted' });
		expect(verdictOf(answer(404), now)).toEqual({ kind: 'accepted' });
		expect(verdictOf(noAnswer('ECONNRESET', false), now)).toEqual({ kind: 'noAnswer' });
		expect(verdictOf(answer(429, { 'retry-after': '4' }), now)).toEqual({ kind: 'throttled', retryAfterMs: 4000, grainMs: 1000 });
		expect(verdictOf(answer(429, { 'retry-after': '1.5' }), now)).toEqual({ kind: 'throttled', retryAfterMs: 1500, grainMs: 1 });
		expect(verdictOf(answer(429, { 'retry-after': 'Wed, 25 Nov 2026 12:00:03 GMT' }), now)).toEqual({ kind: 'throttled', retryAfterMs: 3000, grainMs: 1000 });
		expect(verdictOf(answer(429), now)).toEqual({ kind: 'throttled', retryAfterMs: undefined, grainMs: 1000 });
	});

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
		expect(mayHaveBeenProcessed({ headers: {}, bodyText: '', failure: { headers: {}, bodyText: '', authErrorMessage: 'x' } })).toBe(false);
	});
});
