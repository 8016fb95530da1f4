import type { INode, JsonObject } from 'n8n-workflow';
import { NodeApiError, NodeOperationError } from 'n8n-workflow';

import { bodyToText, headerValue, isWorkOrderServiceAuthError, serviceErrorCode, serviceMessage } from './http';
import { SecretSet } from '../auth/secrets';

/**
 * Reading failures of the HTTP layer, and the words shown to the user for them (the error
 * builders: message, description, HTTP status). Pure functions: no I/O, unit-tested without a
 * server. The HTTP helpers shared with the login code live in http.ts and are re-exported here.
 */

export {
	bodyToText,
	headerValue,
	parseRetryAfter,
	serviceErrorCode,
	serviceMessage,
} from './http';

export interface HttpFailure {
	/** HTTP status when the service answered. */
	status?: number;
	headers: Record<string, unknown>;
	/** Response body as text ('' when none). */
	bodyText: string;
	/** Network error code (ECONNRESET, ETIMEDOUT, ...) when no answer came. */
	networkCode?: string;
	/** A token login failed; its message is already safe to show. */
	authErrorMessage?: string;
	authErrorKind?: string;
	/** A throttled login: when the token endpoint takes requests again. */
	authRetryAfterMs?: number;
	/** Any other message n8n produced (e.g. an OAuth2 credential that must be reconnected). */
	otherMessage?: string;
	/**
	 * No answer, and no byte of the request can have reached the service: the connection was
	 * refused, the name did not resolve, the TLS handshake failed, or the connection was never
	 * established before the Timeout. False when the request may have been written.
	 */
	notSent?: boolean;
}

type Loose = Record<string, unknown> | undefined;

/**
 * Whether this n8n keeps the request error, with the response and its headers, as the `cause` of
 * the NodeApiError it throws for an error status (n8n 2.x); n8n 1.x drops it, so a 429's
 * Retry-After or a redirect's Location can only be read from an answer n8n hands back
 * (`ignoreHttpStatusErrors`). Probed once, on n8n-workflow's own NodeApiError.
 */
export const ERRORS_KEEP_RESPONSE = ((): boolean => {
	const probe = new Error('probe');
	const node = { id: 'probe', name: 'probe', type: 'probe', typeVersion: 1, position: [0, 0], parameters: {} } as INode;
	return (new NodeApiError(node, probe as unknown as JsonObject) as { cause?: unknown }).cause === probe;
})();

function asObject(value: unknown): Loose {
	return value !== null && typeof value === 'object' ? (value as Record<string, unknown>) : undefined;
}

const NETWORK_CODES = new Set([
	'ECONNRESET',
	'ECONNREFUSED',
	'ECONNABORTED',
	'ETIMEDOUT',
	'ESOCKETTIMEDOUT',
	'EPIPE',
	'ENOTFOUND',
	'EAI_AGAIN',
	'EHOSTUNREACH',
	'ENETUNREACH',
	'ERR_SOCKET_CONNECTION_TIMEOUT',
	'UND_ERR_SOCKET',
	'ERR_BAD_RESPONSE',
]);

/**
 * Failures that happen before a connection carries any byte of the request: refused, no such
 * host, unreachable network, a failed TLS handshake or certificate check, a connect timeout.
 */
const NOT_SENT_CODES = new Set([
	'ECONNREFUSED',
	'ENOTFOUND',
	'EAI_AGAIN',
	'EAI_NONAME',
	'EAI_FAIL',
	'EHOSTUNREACH',
	'ENETUNREACH',
	'ENETDOWN',
	'EADDRNOTAVAIL',
	'EPROTO',
	'UND_ERR_CONNECT_TIMEOUT',
	'ERR_SOCKET_CONNECTION_TIMEOUT',
	'DEPTH_ZERO_SELF_SIGNED_CERT',
	'SELF_SIGNED_CERT_IN_CHAIN',
	'UNABLE_TO_VERIFY_LEAF_SIGNATURE',
	'UNABLE_TO_GET_ISSUER_CERT',
	'UNABLE_TO_GET_ISSUER_CERT_LOCALLY',
	'HOSTNAME_MISMATCH',
]);

function isTlsCode(code: string): boolean {
	return /^(ERR_SSL_|ERR_TLS_|CERT_)/.test(code) || NOT_SENT_CODES.has(code) && !/^E/.test(code);
}

/** Is this code one of a failure before any byte of the request was sent? */
export function isNotSentCode(code: string | undefined): boolean {
	return code !== undefined && (NOT_SENT_CODES.has(code) || isTlsCode(code));
}

/**
 * Whether the request left this process, from public APIs only: axios' documented `request` of
 * the request error (n8n 2.x keeps that error as `cause`; n8n 1.x drops it) is Node's
 * http.ClientRequest, whose Writable `writableFinished` says whether every byte of it was handed
 * to the operating system. Not flushed (refused, connect timeout, reset before the request was
 * written) means nothing reached the service. A reused keep-alive socket proves nothing.
 */
export function requestFlushed(error: unknown): boolean | undefined {
	const request = asObject(asObject(error)?.request);
	if (!request || typeof request.writableFinished !== 'boolean') return undefined;
	if (request.reusedSocket === true) return true;
	return request.writableFinished;
}

/** Walks an error and its causes for the HTTP response, the network code or a login failure. */
export function readHttpFailure(error: unknown): HttpFailure {
	const failure: HttpFailure = { headers: {}, bodyText: '' };
	const flushed = walkCauses(error, failure);
	if (failure.authErrorMessage !== undefined) return failure;
	if (failure.status === undefined) readN8n1Error(asObject(error), failure);
	if (failure.status === undefined && failure.networkCode !== undefined) {
		// The request's own state knows best; without it (n8n 1.x) only the code can prove that nothing was sent.
		failure.notSent = isNotSentCode(failure.networkCode) || flushed === false;
	}
	return failure;
}

/** The error and its `cause` chain (n8n 2.x keeps the request error there): response, code, login failure, whether the request was flushed. */
function walkCauses(error: unknown, failure: HttpFailure): boolean | undefined {
	const seen = new Set<unknown>();
	let flushed: boolean | undefined;
	let current: unknown = error;
	while (current !== undefined && current !== null && !seen.has(current) && seen.size < 6) {
		seen.add(current);
		const obj = asObject(current);
		if (!obj) break;
		if (isWorkOrderServiceAuthError(current)) {
			failure.authErrorMessage = current.message;
			failure.authErrorKind = current.kind;
			failure.authRetryAfterMs = current.retryAfterMs;
			return undefined;
		}
		const response = asObject(obj.response);
		if (failure.status === undefined && response && typeof response.status === 'number') {
			failure.status = response.status;
			failure.headers = asObject(response.headers) ?? {};
			failure.bodyText = bodyToText(response.data);
		}
		const code = typeof obj.code === 'string' ? obj.code : undefined;
		if (failure.networkCode === undefined && code && (NETWORK_CODES.has(code) || /^E[A-Z_]+$/.test(code) || isTlsCode(code))) {
			failure.networkCode = code;
		}
		flushed ??= requestFlushed(current);
		current = obj.cause;
	}
	return flushed;
}

/**
 * n8n 1.x wraps the request error in a NodeApiError that keeps neither its `cause` nor its
 * `response`; left are `httpCode` (the HTTP status, or a network code such as ECONNREFUSED),
 * `context.data` (the response body, e.g. a Buffer) and `messages` (the original messages). The
 * response headers are gone there.
 */
function readN8n1Error(obj: Loose, failure: HttpFailure): void {
	const rawHttpCode = obj?.httpCode;
	const httpCode = Number(rawHttpCode);
	if (Number.isInteger(httpCode) && httpCode >= 100) {
		failure.status = httpCode;
		const data = asObject(obj?.context)?.data;
		if (failure.bodyText === '' && data !== undefined && data !== null) failure.bodyText = bodyToText(data);
	}
	if (failure.networkCode === undefined && typeof rawHttpCode === 'string' && (/^E[A-Z_]+$/.test(rawHttpCode) || isTlsCode(rawHttpCode))) {
		failure.networkCode = rawHttpCode;
	}
	if (failure.networkCode !== undefined || !obj) return;
	const messages = [obj.message, ...(Array.isArray(obj.messages) ? obj.messages : [])].filter((m): m is string => typeof m === 'string');
	for (const message of messages) {
		failure.networkCode = networkCodeIn(message);
		if (failure.networkCode !== undefined) return;
	}
	if (failure.status === undefined && typeof obj.message === 'string') failure.otherMessage = obj.message;
}

/** A network failure named or described in a message (n8n 1.x keeps only the messages). */
function networkCodeIn(message: string): string | undefined {
	const named = /\b(E[A-Z]{4,}[A-Z_]*)\b/.exec(message)?.[1];
	if (named && NETWORK_CODES.has(named)) return named;
	if (/timeout|timed out/i.test(message)) return 'ETIMEDOUT';
	if (/certificate|handshake|SSL routines/i.test(message)) return 'ERR_TLS_HANDSHAKE';
	if (/socket hang up|aborted/i.test(message)) return 'ECONNRESET';
	return undefined;
}

const STATUS_TEXT: Record<number, string> = {
	400: 'Bad Request',
	401: 'Unauthorized',
	403: 'Forbidden',
	404: 'Not Found',
	405: 'Method Not Allowed',
	409: 'Conflict',
	413: 'Payload Too Large',
	415: 'Unsupported Media Type',
	422: 'Unprocessable Entity',
	429: 'Too Many Requests',
	500: 'Internal Server Error',
	502: 'Bad Gateway',
	503: 'Service Unavailable',
	504: 'Gateway Timeout',
};

export function statusLabel(status: number): string {
	return STATUS_TEXT[status] ? `${status} ${STATUS_TEXT[status]}` : String(status);
}

/** What to check, by status. */
export function hintForStatus(status: number, method: string, serviceWords?: string): string {
	if (status === 400 || status === 422) return 'Check the values sent for this item against the service rules shown above.';
	if (status === 401)
		return 'The service rejected the request even after a fresh login. The user may lack the security permission for this operation, or the credential belongs to another environment.';
	if (status === 403) {
		// The service's own reason (e.g. an approval limit) says more than a generic permission hint.
		return serviceWords
			? `The service refused this request. Its reason: ${serviceWords}`
			: 'The user is not allowed to do this. Check the user\'s permissions in the service.';
	}
	if (status === 404)
		return method === 'GET'
			? 'Check the IDs. A record created moments ago can take up to about 30 seconds to become readable.'
			: 'Check the IDs: the record does not exist or is not visible to this user.';
	if (status === 409) return 'The record changed state in the meantime; read it again before retrying.';
	if (status === 413) return 'The file is too large for the service.';
	if (status === 415) return 'The service did not accept the content type sent.';
	if (status === 429 || status === 503) return 'The service is throttling requests. Lower "Requests Per Minute" in the node options, or raise "Max Retries" / "Max Wait".';
	if (status >= 500) return 'The service failed. Try again later; if it persists, contact the service provider.';
	return 'Check the request parameters.';
}

/** The words of an error: what n8n shows as the message, what it shows below it, and the HTTP status. */
export interface ErrorText {
	message: string;
	description: string;
	httpCode?: string;
}

/** How a request went: its attempts, the time it waited, and why it gave up. */
export interface AttemptInfo {
	attempts: number;
	waitedMs: number;
	gaveUp?: string;
}

/** The Request Options the texts name. */
export interface TextSettings {
	maxRetries: number;
	maxWaitMs: number;
	timeoutMs: number;
}

/** "GET /workorders/1": the method and the path without its query. */
export function routeOf(method: string, path: string): string {
	return `${method.toUpperCase()} ${path.split('?')[0]}`;
}

/** " Tried 3 times over 4 s; gave up: ..." (empty for a single attempt that did not give up). */
export function retryNote(info: AttemptInfo): string {
	if (info.attempts > 1) return ` Tried ${info.attempts} times over ${Math.round(info.waitedMs / 1000)} s${info.gaveUp ? `; gave up: ${info.gaveUp}` : ''}.`;
	return info.gaveUp ? ` Gave up: ${info.gaveUp}.` : '';
}

/** What to change when throttled requests gave up: the option that bounded them. */
export function throttleHint(gaveUp: string | undefined, settings: TextSettings): string {
	if (gaveUp?.includes('Max Retries')) {
		return `The service throttled this request again and again while it accepted others. Raise "Max Retries" (now ${settings.maxRetries}) in the node's Request Options, or lower "Concurrency".`;
	}
	return `The service kept throttling requests for longer than this item may wait. Raise "Max Wait (Seconds)" (now ${Math.round(settings.maxWaitMs / 1000)} s) in the node's Request Options, or set "Requests Per Minute" below the service's limit (production allows about 300 per minute per application, shared by every workflow and worker that uses it).`;
}

const MAYBE_RECORDED =
	'The submission may or may not have been recorded by the service: it was not sent again automatically, to avoid a duplicate. Check the work order before running this item again.';

/** The service answered with an error status. `throttled`: a 429 or a throttling 503. */
export function answeredText(route: string, failure: HttpFailure, info: AttemptInfo, settings: TextSettings, throttled: boolean): ErrorText {
	const status = failure.status as number;
	const method = route.split(' ')[0];
	const words = serviceMessage(failure.bodyText, headerValue(failure.headers, 'content-type') ?? '');
	const code = serviceErrorCode(failure.bodyText);
	let message = `The Work Order Service answered ${statusLabel(status)} to ${route}${words ? `: ${words}` : ''}${code !== undefined ? ` (error code ${code})` : ''}`;
	if (info.attempts > 1) message += ` (gave up after ${info.attempts} attempts)`;
	const maybeProcessed = (method === 'POST' || method === 'PATCH') && status >= 500 && !throttled;
	const hint = maybeProcessed ? MAYBE_RECORDED : throttled ? throttleHint(info.gaveUp, settings) : hintForStatus(status, method, words);
	return { message, description: hint + retryNote(info), httpCode: String(status) };
}

/** Nothing reached the service: refused, no such host, TLS, or no connection within the Timeout. */
export function notSentText(route: string, failure: HttpFailure, info: AttemptInfo, settings: TextSettings): ErrorText {
	const code = failure.networkCode ?? 'network error';
	const what = /TIMEDOUT|ECONNABORTED|CONNECT_TIMEOUT|CONNECTION_TIMEOUT/.test(code)
		? `no connection within the Timeout of ${Math.round(settings.timeoutMs / 1000)} s`
		: /^(ERR_SSL_|ERR_TLS_|CERT_|EPROTO$)|CERT|SIGNED/.test(code)
			? `the secure connection failed, ${code}`
			: code;
	return {
		message: `The request ${route} was not sent: the Work Order Service could not be reached (${what})`,
		description: `Nothing reached the service, so nothing was recorded for this item; running it again is safe. Check the credential's API Base URL (host, port, https certificate) and the network.${retryNote(info)}`,
	};
}

/** The request was written (or may have been) and no answer came. */
export function noAnswerText(route: string, failure: HttpFailure, info: AttemptInfo, settings: TextSettings): ErrorText {
	const code = failure.networkCode ?? 'network error';
	const timedOut = /TIMEDOUT|ECONNABORTED/.test(code);
	const method = route.split(' ')[0];
	const message = timedOut
		? `No answer from the Work Order Service for ${route} within the Timeout of ${Math.round(settings.timeoutMs / 1000)} s`
		: `No answer from the Work Order Service for ${route} (${code})`;
	const description =
		method === 'POST' || method === 'PATCH'
			? 'The connection ended after the request was sent, so the submission may or may not have been recorded by the service. It was not sent again automatically, to avoid a duplicate. Check the work order before running this item again.'
			: timedOut
				? "A request that got no answer within the Timeout is not sent again. Check the API Base URL and the service, or raise the Timeout in the node's Request Options."
				: 'Check the API Base URL and the network, or raise the Timeout in the node options.';
	return { message, description: description + retryNote(info) };
}

/** The words for a request that failed for good (a login failure, an answer, nothing sent, no answer). */
export function failureText(route: string, failure: HttpFailure, info: AttemptInfo, settings: TextSettings, throttled: boolean): ErrorText {
	if (failure.authErrorMessage !== undefined) {
		return {
			message: `Login to the Work Order Service failed: ${failure.authErrorMessage}`,
			description: 'The request was not sent. Fix the credential, then run the workflow again.',
		};
	}
	if (failure.status !== undefined) return answeredText(route, failure, info, settings, throttled);
	if (failure.notSent) return notSentText(route, failure, info, settings);
	return noAnswerText(route, failure, info, settings);
}

/** A redirect the client did not follow. */
export function redirectText(route: string, status: number, reason: string, info: AttemptInfo): ErrorText {
	return {
		message: `The Work Order Service answered ${route} with ${reason}`,
		description: `HTTP ${status}. API calls go only to the origin of the credential's API Base URL. If the service has moved, set the new address as the API Base URL.${info.attempts > 1 ? ` Tried ${info.attempts} times.` : ''}`,
		httpCode: String(status),
	};
}

/** The request never started: the application's requests were paused for longer than its Max Wait. */
export function throttledTooLongText(route: string, gaveUp: string, settings: TextSettings): ErrorText {
	return {
		message: `The request ${route} was not sent: the Work Order Service kept throttling this application's requests for longer than Max Wait (${Math.round(settings.maxWaitMs / 1000)} s)`,
		description: `${throttleHint(gaveUp, settings)} Nothing was sent for this item; running it again is safe.`,
	};
}

/** Removes any secret value (in any of its encodings) and Authorization header values from a text. */
export function redact(text: string, secrets: Iterable<string> | SecretSet): string {
	if (secrets instanceof SecretSet) return secrets.redact(text);
	const set = new SecretSet();
	for (const secret of secrets) set.add(secret);
	return set.redact(text);
}

/** The error n8n shows for these words (already redacted), for the request's item. */
export function makeApiError(node: INode, text: ErrorText, itemIndex: number | undefined): NodeApiError {
	const { message, description, httpCode } = text;
	const errorObject: JsonObject = { message, description };
	if (httpCode) errorObject.httpCode = httpCode;
	const error = new NodeApiError(node, errorObject, { message, description, httpCode, itemIndex });
	// NodeApiError swaps a message that mentions a network code (ECONNREFUSED, ...) for generic
	// text; ours already says what happened and what to check, so keep it.
	error.message = message;
	error.description = description;
	return error;
}

/** An error n8n raised that is no HTTP failure (e.g. an OAuth2 credential to reconnect), redacted, for the item. */
export function keptError(node: INode, original: NodeApiError | NodeOperationError, redact: (text: string) => string, itemIndex: number | undefined): Error {
	if (itemIndex !== undefined) original.context.itemIndex = itemIndex;
	original.message = redact(original.message);
	if (original.description) original.description = redact(original.description);
	if (original instanceof NodeApiError) return new NodeApiError(node, original as unknown as JsonObject);
	return new NodeOperationError(node, original);
}
