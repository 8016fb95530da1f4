import { headerValue, originOf, parseRetryAfter, serviceMessage } from './http';
import type { HttpFailure } from './errors';
import { backoffMs, type Verdict } from './limiter';

/**
 * What the client does with one attempt's outcome: pure functions, no I/O (unit-tested in
 * test/unit/transport-policy.test.js). The client's loop asks `decide` and does what it says.
 *
 * | outcome                                        | decision  | sent again              | wait                          | counts against Max Retries |
 * | ---------------------------------------------- | --------- | ----------------------- | ----------------------------- | -------------------------- |
 * | 2xx                                            | ok        |                         |                               |                            |
 * | 3xx to the same origin (GET/HEAD, or 307/308)  | redirect  | to the new URL          | none                          | no (at most 5)             |
 * | 3xx elsewhere, without Location, or a rewrite  | fail      |                         |                               |                            |
 * | login throttled by the token endpoint          | retry     | every method            | the wait the login names      | no                         |
 * | throttled (429; 503 with Retry-After or words) | retry     | every method            | the budget's (pause or gate)  | only if alone in episode   |
 * | not sent (refused, DNS, TLS, connect timeout)  | retry     | every method            | Retry-After or backoff        | yes                        |
 * | 5xx, or no answer after the request was sent   | retry     | GET/HEAD/OPTIONS/PUT/DELETE | Retry-After or backoff    | yes                        |
 * | no answer within the Timeout (request sent)    | fail      | never                   |                               |                            |
 * | other 4xx, a login failure                     | fail      |                         |                               |                            |
 *
 * A 401 is final here: n8n already logged in again through the credential's preAuthentication and
 * sent the request once more (n8n 1.x, where the client has n8n hand error answers back to read
 * their headers: the 401 is sent again once for n8n to meet: `renew`). Backoff: 0.5-1 s, 1-2 s, 2-4 s, ... (jitter), at most 30 s. Max Wait
 * bounds the sum of waits.
 */

const IDEMPOTENT_METHODS = new Set(['GET', 'HEAD', 'OPTIONS', 'PUT', 'DELETE']);
export const READ_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);
export const MAX_REDIRECTS = 5;
/** A request waits for a throttled login at most this many times (each wait as the token endpoint names it). */
export const MAX_LOGIN_WAITS = 8;

/**
 * What one attempt brought back: the service's answer (`status`, any), or a failure without one
 * (`failure`: a network failure or a failed login, read from n8n's `error`).
 */
export interface Outcome {
	status?: number;
	headers: Record<string, unknown>;
	bodyText: string;
	/** The body as n8n's request layer handed it over (for the parser). */
	body?: unknown;
	failure?: HttpFailure;
	error?: unknown;
}

/** Where the request stands. */
export interface Standing {
	method: string;
	url: string;
	apiOrigin: string;
	redirects: number;
	/** n8n 1.x: a 401 was handed back, not met by n8n itself; sent again once, strictly. */
	renewable: boolean;
	/** Retries after failures other than throttling so far. */
	retries: number;
	/** Waits for a throttled login so far. */
	loginWaits: number;
	/** Throttled answers this request had alone in their episode (limiter.ownThrottles). */
	ownThrottles: number;
	waitedMs: number;
	/** What the budget set after a throttled answer: its wait, and whether it counts as a pause (charged per waiter). */
	throttleWait: { ms: number; charged: boolean };
	maxRetries: number;
	maxWaitMs: number;
}

export type Decision =
	| { kind: 'ok' }
	| { kind: 'redirect'; url: string }
	| { kind: 'renew' }
	/** `waitMs`: added to the request's waited time; `sleep`: the client waits it itself (else the budget does). */
	| { kind: 'retry'; waitMs: number; sleep: boolean; countsAsRetry: boolean }
	| { kind: 'fail'; gaveUp?: string; redirectReason?: string };

/** A 429, or a 503 that says it throttles (a Retry-After header, or words to that effect). */
export function isThrottle(status: number | undefined, headers: Record<string, unknown>, bodyText: string): boolean {
	if (status === 429) return true;
	if (status !== 503) return false;
	if (headerValue(headers, 'retry-after') !== undefined) return true;
	return /rate limit|too many requests|throttl/i.test(serviceMessage(bodyText, headerValue(headers, 'content-type') ?? '') ?? '');
}

/** What the budget learns from an outcome. Whole seconds and HTTP dates say when within a second; "1.5" says it exactly. */
export function verdictOf(outcome: Outcome, now = Date.now()): Verdict {
	if (outcome.status === undefined) return { kind: 'noAnswer' };
	if (!isThrottle(outcome.status, outcome.headers, outcome.bodyText)) return { kind: 'accepted' };
	const header = headerValue(outcome.headers, 'retry-after');
	const grainMs = /^\s*\d+\.\d+\s*$/.test(header ?? '') ? 1 : 1000;
	return { kind: 'throttled', retryAfterMs: parseRetryAfter(header, now), grainMs };
}

/** An attempt that may have been processed: a 5xx that is not a throttle, or no answer after the request was written (not a login failure). */
export function mayHaveBeenProcessed(outcome: Outcome): boolean {
	if (outcome.status === undefined) return outcome.failure?.networkCode !== undefined && outcome.failure.notSent !== true;
	return outcome.status >= 500 && !isThrottle(outcome.status, outcome.headers, outcome.bodyText);
}

export function maxWaitReason(nextMs: number, maxWaitMs: number): string {
	return `the next wait (${Math.ceil(nextMs / 1000)} s) would exceed Max Wait (${Math.round(maxWaitMs / 1000)} s)`;
}

export function safeUrl(location: string, base: string): string | undefined {
	try {
		return new URL(location, base).toString();
	} catch {
		return undefined;
	}
}

/** A redirect: followed only to the same origin, at most MAX_REDIRECTS times, never turning a write into another request. */
function redirectDecision(outcome: Outcome, at: Standing): Decision {
	const status = outcome.status as number;
	const location = headerValue(outcome.headers, 'location');
	const target = location ? safeUrl(location, at.url) : undefined;
	const targetOrigin = target ? originOf(target) : undefined;
	const reason =
		target === undefined
			? 'a redirect without a usable Location'
			: targetOrigin !== at.apiOrigin
				? `a redirect to another origin (${targetOrigin ?? target.split('/').slice(0, 3).join('/')}), which was not followed, so the credential's token was not sent there`
				: at.redirects >= MAX_REDIRECTS
					? `more than ${MAX_REDIRECTS} redirects`
					: !(at.method === 'GET' || at.method === 'HEAD' || status === 307 || status === 308)
						? `a redirect (HTTP ${status}) that would turn this ${at.method} into a different request, so it was not sent again`
						: undefined;
	if (reason !== undefined || target === undefined) return { kind: 'fail', redirectReason: reason ?? 'a redirect' };
	return { kind: 'redirect', url: target };
}

/** Throttled: not processed, so sent again for every method, when the budget lets it start. */
function throttledDecision(at: Standing): Decision {
	if (at.ownThrottles + at.retries > at.maxRetries) return { kind: 'fail', gaveUp: `Max Retries (${at.maxRetries}) reached` };
	const { ms, charged } = at.throttleWait;
	// a pause is charged to every waiting request by the budget; a gate is this request's own wait
	if (charged) return { kind: 'retry', waitMs: 0, sleep: false, countsAsRetry: false };
	if (at.waitedMs + ms > at.maxWaitMs) return { kind: 'fail', gaveUp: maxWaitReason(ms, at.maxWaitMs) };
	return { kind: 'retry', waitMs: ms, sleep: false, countsAsRetry: false };
}

/** Other failures: retried when nothing was sent, or for idempotent methods after a 5xx or a dropped connection. */
function failureDecision(outcome: Outcome, at: Standing, random: () => number): Decision {
	const failure = outcome.failure;
	const networkCode = failure?.networkCode;
	const notSent = outcome.status === undefined && failure?.notSent === true;
	const timedOut = outcome.status === undefined && !notSent && /TIMEDOUT|ECONNABORTED/.test(networkCode ?? '');
	const transient =
		(outcome.status !== undefined && outcome.status >= 500 && outcome.status <= 599) ||
		(outcome.status === undefined && networkCode !== undefined && !timedOut);
	const retryable = failure?.authErrorMessage === undefined && (notSent || (transient && IDEMPOTENT_METHODS.has(at.method)));
	if (!retryable) return { kind: 'fail' };
	if (at.retries >= at.maxRetries) return { kind: 'fail', gaveUp: `Max Retries (${at.maxRetries}) reached` };
	const delay = parseRetryAfter(headerValue(outcome.headers, 'retry-after')) ?? backoffMs(at.retries, random);
	if (at.waitedMs + delay > at.maxWaitMs) return { kind: 'fail', gaveUp: maxWaitReason(delay, at.maxWaitMs) };
	return { kind: 'retry', waitMs: delay, sleep: true, countsAsRetry: true };
}

/** What to do after one attempt (see the table above). */
export function decide(outcome: Outcome, at: Standing, random: () => number = Math.random): Decision {
	const status = outcome.status;
	if (status !== undefined && status >= 200 && status < 300 && outcome.failure === undefined) return { kind: 'ok' };
	if (status !== undefined && status >= 300 && status < 400) return redirectDecision(outcome, at);
	if (status === 401 && at.renewable) return { kind: 'renew' };
	const loginWait = outcome.failure?.authErrorKind === 'throttled' ? outcome.failure.authRetryAfterMs : undefined;
	if (loginWait !== undefined) {
		if (at.loginWaits >= MAX_LOGIN_WAITS) return { kind: 'fail', gaveUp: `the token endpoint throttled ${MAX_LOGIN_WAITS} logins in a row` };
		if (at.waitedMs + loginWait > at.maxWaitMs) return { kind: 'fail', gaveUp: maxWaitReason(loginWait, at.maxWaitMs) };
		return { kind: 'retry', waitMs: loginWait, sleep: true, countsAsRetry: false };
	}
	if (outcome.failure?.authErrorMessage === undefined && isThrottle(status, outcome.headers, outcome.bodyText)) return throttledDecision(at);
	return failureDecision(outcome, at, random);
}
