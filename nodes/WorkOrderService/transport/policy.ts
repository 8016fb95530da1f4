import type { IDataObject } from 'n8n-workflow';

import type { Budget, Episode, Sent } from './budget';
import type { HttpFailure } from './errors';

/**
 * The state model of one request: `Request` (the call and its state across attempts) and `Attempt`
 * (what one attempt brought back). `next`, the policy, reads both, updates the request and says
 * what the client does now. Pure: no I/O, no timer.
 *
 * | attempt                                        | next     | sent again                  | wait                         | counts against Max Retries |
 * | ---------------------------------------------- | -------- | --------------------------- | ---------------------------- | -------------------------- |
 * | 2xx                                            | done     |                             |                              |                            |
 * | 3xx to the same origin (GET/HEAD, or 307/308)  | again    | to the new URL              | none                         | no (at most 5)             |
 * | a file's 3xx to any http(s) address            | again    | to the new URL              | none                         | no (at most 5)             |
 * | 3xx elsewhere, without Location, or a rewrite  | fail     |                             |                              |                            |
 * | login throttled by the token endpoint          | again    | every method                | the wait the login names     | no (at most 8 in a row)    |
 * | throttled (429; 503 with Retry-After or words) | again    | every method                | the budget's (pause or gate) | only if alone in episode   |
 * | not sent (refused, DNS, TLS, connect timeout)  | again    | every method                | Retry-After or backoff       | yes                        |
 * | 5xx, or no answer after the request was sent   | again    | GET/HEAD/OPTIONS/PUT/DELETE | Retry-After or backoff       | yes                        |
 * | no answer within the Timeout (request sent)    | fail     |                             |                              |                            |
 * | other 4xx, a login failure                     | fail     |                             |                              |                            |
 *
 * A 401 is final: n8n already logged in again through the credential's preAuthentication and sent
 * the request once more. (n8n 1.x, where the client has n8n hand error answers back to read their
 * headers, and a file, whose answer is read whatever its status, a 401 is sent again once, `strict`,
 * for n8n to meet.) A file's hop to another origin is no request of the service: its 429 is no
 * throttle of the service's and its 401 is not sent again. Max Wait bounds the sum of waits.
 */

export interface Request {
	method: string;
	url: string;
	qs?: IDataObject;
	headers: IDataObject;
	body?: Buffer | string;
	apiOrigin: string;
	maxRetries: number;
	maxWaitMs: number;
	/** n8n throws error statuses (always on n8n 2.x; on n8n 1.x, and for a file, only for the resend after a 401). */
	strict: boolean;
	/** A file (transport/download.ts): its body a stream; redirects followed to any http(s) origin, a throttle only counted from the API origin. */
	file?: boolean;
	attempts: number;
	retries: number;
	redirects: number;
	loginWaits: number;
	waitedMs: number;
	sleepMs: number;
	/** The throttling episodes it was throttled in, and its start in the budget (budget.ts). */
	episodes: Set<Episode>;
	start?: { at: number; probe: boolean; from?: Sent };
	resend: boolean;
	answered: boolean;
	/** A 5xx, or no answer after the request was written: a write may have been processed. */
	maybeProcessed: boolean;
	/** Not sent again once it may have been processed, whatever its method (ApiRequest.once). */
	once?: boolean;
	last?: Attempt;
	gaveUp?: string;
	redirectRefused?: string;
}

export interface Attempt {
	status?: number;
	headers: Record<string, unknown>;
	body?: unknown;
	/** The body as text (error answers only). */
	bodyText: string;
	failure?: HttpFailure;
	error?: unknown;
}

type ThrottleWait = ReturnType<Budget['throttleWait']>;

const IDEMPOTENT_METHODS = new Set(['GET', 'HEAD', 'OPTIONS', 'PUT', 'DELETE']);
export const READ_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);
export const MAX_REDIRECTS = 5;
export const MAX_LOGIN_WAITS = 8;

export function headerValue(
	headers: Record<string, unknown> | undefined,
	name: string,
): string | undefined {
	const value = Object.entries(headers ?? {}).find(
		([key]) => key.toLowerCase() === name.toLowerCase(),
	)?.[1];
	const first: unknown = Array.isArray(value) ? value[0] : value;
	return first === undefined || first === null ? undefined : String(first);
}

/** Retry-After as delay-seconds or as an HTTP date, in ms; undefined when absent or unreadable. */
export function parseRetryAfter(value: string | undefined, now = Date.now()): number | undefined {
	const text = value?.trim() ?? '';
	if (/^\d+(\.\d+)?$/.test(text)) return Math.round(Number(text) * 1000);
	const date = text === '' ? NaN : Date.parse(text);
	return Number.isNaN(date) ? undefined : Math.max(0, date - now);
}

/** `text` (relative to `base`) as an http(s) URL; undefined when it is none. */
export function webUrl(text: string, base?: string | URL): URL | undefined {
	try {
		const url = new URL(text, base);
		return url.protocol === 'http:' || url.protocol === 'https:' ? url : undefined;
	} catch {
		return undefined;
	}
}

export const originOf = (url: string, base?: string) => webUrl(url, base)?.origin.toLowerCase();

/** A credential's server setting: an http(s) URL without trailing slashes; undefined when it is none. */
export function settingUrl(value: unknown): string | undefined {
	const url = value === undefined || value === null ? '' : String(value).trim();
	return /^https?:\/\/[^\s/]+/i.test(url) ? url.replace(/\/+$/, '') : undefined;
}

/** The API Base URL as the client uses it: without trailing slashes and /v3 (the client appends it). */
export const apiBaseUrl = (value: unknown) => settingUrl(value)?.replace(/\/v3$/i, '');

/** Any body n8n's request layer hands back (Buffer, ArrayBuffer, view, string, object), as text. */
export function bodyToText(body: unknown): string {
	if (body === undefined || body === null) return '';
	if (typeof body === 'string') return body;
	// a stream (a file's answer) is read by its owner, never here
	if (typeof (body as { pipe?: unknown }).pipe === 'function') return '';
	if (body instanceof ArrayBuffer) return Buffer.from(body).toString('utf8');
	if (ArrayBuffer.isView(body))
		return Buffer.from(body.buffer, body.byteOffset, body.byteLength).toString('utf8');
	try {
		return JSON.stringify(body);
	} catch {
		return '';
	}
}

/** 0.5-1 s, 1-2 s, 2-4 s, ... at most 15-30 s: growing delays with jitter. */
export function backoffMs(attempt: number, random = Math.random): number {
	const base = Math.min(30_000, 1000 * 2 ** attempt);
	return Math.round(base / 2 + random() * (base / 2));
}

/** A 429, or a 503 that says it throttles (a Retry-After header, or words to that effect). */
export function isThrottle(
	status: number | undefined,
	headers: Record<string, unknown>,
	bodyText: string,
): boolean {
	if (status !== 429 && status !== 503) return false;
	return (
		status === 429 ||
		headerValue(headers, 'retry-after') !== undefined ||
		/rate limit|too many requests|throttl/i.test(bodyText.slice(0, 2000))
	);
}

/** A 5xx that is not a throttle, or no answer after the request was written (not a login failure). */
export function mayHaveBeenProcessed(attempt: Attempt): boolean {
	if (attempt.status === undefined)
		return attempt.failure?.networkCode !== undefined && attempt.failure.notSent !== true;
	return attempt.status >= 500 && !isThrottle(attempt.status, attempt.headers, attempt.bodyText);
}

export const maxWaitReason = (nextMs: number, maxWaitMs: number) =>
	`the next wait (${Math.ceil(nextMs / 1000)} s) would exceed Max Wait (${Math.round(maxWaitMs / 1000)} s)`;

type Step = 'done' | 'again' | 'fail';

function fail(request: Request, gaveUp?: string): Step {
	request.gaveUp = gaveUp;
	return 'fail';
}

/** Sent again after `waitMs`: slept by the client or waited in the budget. */
function again(request: Request, waitMs: number, sleep: boolean): Step {
	request.waitedMs += waitMs;
	request.sleepMs = sleep ? waitMs : 0;
	request.resend = true;
	return 'again';
}

/**
 * A redirect: followed at most MAX_REDIRECTS times, never turning a write into another request;
 * an API call's only to the API origin, a file's to any http(s) address (the client signs each hop
 * by its origin).
 */
function redirect(request: Request, attempt: Attempt): Step {
	const status = attempt.status as number;
	const location = headerValue(attempt.headers, 'location');
	let target: string | undefined;
	try {
		target = location ? new URL(location, request.url).toString() : undefined;
	} catch {
		target = undefined;
	}
	const origin = target && originOf(target);
	request.redirectRefused =
		target === undefined
			? 'a redirect without a usable Location'
			: request.file && origin === undefined
				? 'a redirect to an address that is not http(s)'
				: !request.file && origin !== request.apiOrigin
					? `a redirect to another origin (${origin ?? target.split('/').slice(0, 3).join('/')}), which was not followed, so the credential's token was not sent there`
					: request.redirects >= MAX_REDIRECTS
						? `more than ${MAX_REDIRECTS} redirects`
						: !(
									request.method === 'GET' ||
									request.method === 'HEAD' ||
									status === 307 ||
									status === 308
							  )
							? `a redirect (HTTP ${status}) that would turn this ${request.method} into a different request, so it was not sent again`
							: undefined;
	if (request.redirectRefused !== undefined || target === undefined) {
		request.last = attempt;
		return 'fail';
	}
	request.redirects++;
	request.url = target;
	request.qs = undefined;
	request.sleepMs = 0;
	return 'again';
}

/** Throttled: not processed, so sent again for every method, when the budget lets it start. */
function throttled(request: Request, wait: ThrottleWait): Step {
	if (wait.own + request.retries > request.maxRetries)
		return fail(request, `Max Retries (${request.maxRetries}) reached`);
	// a pause is charged to every waiting request by the budget; a gate is this request's own wait
	if (wait.charged) return again(request, 0, false);
	if (request.waitedMs + wait.ms > request.maxWaitMs)
		return fail(request, maxWaitReason(wait.ms, request.maxWaitMs));
	return again(request, wait.ms, false);
}

/** Other failures: sent again when nothing was sent, or for idempotent methods after a 5xx or a dropped connection. */
function failed(request: Request, attempt: Attempt, random: () => number): Step {
	const { status, failure } = attempt;
	const notSent = status === undefined && failure?.notSent === true;
	const timedOut =
		status === undefined && !notSent && /TIMEDOUT|ECONNABORTED/.test(failure?.networkCode ?? '');
	const transient =
		status !== undefined
			? status >= 500 && status <= 599
			: failure?.networkCode !== undefined && !timedOut;
	if (
		failure?.login !== undefined ||
		!(notSent || (transient && IDEMPOTENT_METHODS.has(request.method) && request.once !== true))
	)
		return fail(request);
	if (request.retries >= request.maxRetries)
		return fail(request, `Max Retries (${request.maxRetries}) reached`);
	const delay =
		parseRetryAfter(headerValue(attempt.headers, 'retry-after')) ??
		backoffMs(request.retries, random);
	if (request.waitedMs + delay > request.maxWaitMs)
		return fail(request, maxWaitReason(delay, request.maxWaitMs));
	request.retries++;
	return again(request, delay, true);
}

/**
 * What the client does after an attempt (the table above): `done`, `again` (after `sleepMs` and the
 * budget's start; `wait`: what the budget set for a throttled answer) or `fail` (see `last`, `gaveUp`, `redirectRefused`).
 */
export function next(
	request: Request,
	attempt: Attempt,
	wait: ThrottleWait,
	random: () => number = Math.random,
): Step {
	const { status, failure } = attempt;
	request.attempts++;
	request.answered ||= status !== undefined;
	if (status !== undefined && status >= 200 && status < 300 && failure === undefined) return 'done';
	if (status !== undefined && status >= 300 && status < 400) return redirect(request, attempt);
	request.last = attempt;
	request.maybeProcessed ||= mayHaveBeenProcessed(attempt);
	// a file's hop to another origin (a storage server) is no request of the service's
	const own = !request.file || originOf(request.url) === request.apiOrigin;
	if (status === 401 && !request.strict && own) {
		request.strict = true;
		request.sleepMs = 0;
		return 'again';
	}
	const loginWait = failure?.login?.kind === 'throttled' ? failure.login.retryAfterMs : undefined;
	if (loginWait !== undefined) {
		if (request.loginWaits >= MAX_LOGIN_WAITS)
			return fail(request, `the token endpoint throttled ${MAX_LOGIN_WAITS} logins in a row`);
		if (request.waitedMs + loginWait > request.maxWaitMs)
			return fail(request, maxWaitReason(loginWait, request.maxWaitMs));
		request.loginWaits++;
		return again(request, loginWait, true);
	}
	if (own && failure?.login === undefined && isThrottle(status, attempt.headers, attempt.bodyText))
		return throttled(request, wait);
	return failed(request, attempt, random);
}

export const asObject = (value: unknown) =>
	value !== null && typeof value === 'object' ? (value as Record<string, unknown>) : undefined;

/** `text` parsed as JSON; undefined when it is none. */
export function jsonOf(text: string): unknown {
	try {
		return JSON.parse(text);
	} catch {
		return undefined;
	}
}
