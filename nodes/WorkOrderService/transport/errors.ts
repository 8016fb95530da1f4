import type { INode, JsonObject } from 'n8n-workflow';
import { NodeApiError, NodeOperationError } from 'n8n-workflow';

import {
	kindOfStatus,
	withMeaning,
	type ErrorKind,
	type ItemOutcome,
} from '../helpers/errorMeaning';
import type { RequestSettings } from './client';
import { asObject, bodyToText, headerValue, jsonOf, type Request } from './policy';

/**
 * Every error of the package's HTTP code: a failure read from what n8n throws (documented error
 * fields and codes, never private fields), the service's own words, and the words the user sees.
 * Pure functions; the caller's `redact` (auth/secrets.ts) removes secrets.
 */

export type AuthErrorKind =
	| 'configuration'
	| 'invalidClient'
	| 'invalidUser'
	| 'invalidGrant'
	| 'subsidiary'
	| 'throttled'
	| 'unreachable'
	| 'redirected'
	| 'badResponse';

const AUTH_ERROR_BRAND = Symbol.for('n8n-nodes-work-order-service.authError');

/** Raised by a token login; its message is safe to show. The brand survives module duplication. */
export class WorkOrderServiceAuthError extends Error {
	constructor(
		readonly kind: AuthErrorKind,
		message: string,
		readonly httpStatus?: number,
		/** A throttled login: when the token endpoint takes requests again. */
		readonly retryAfterMs?: number,
	) {
		super(message);
		this.name = 'WorkOrderServiceAuthError';
		Object.defineProperty(this, AUTH_ERROR_BRAND, { value: true });
	}
}

export function isWorkOrderServiceAuthError(value: unknown): value is WorkOrderServiceAuthError {
	return (
		value instanceof WorkOrderServiceAuthError ||
		(typeof value === 'object' &&
			value !== null &&
			(value as Record<symbol, unknown>)[AUTH_ERROR_BRAND] === true)
	);
}

export interface HttpFailure {
	status?: number;
	headers: Record<string, unknown>;
	bodyText: string;
	networkCode?: string;
	login?: WorkOrderServiceAuthError;
	/** Any other message n8n produced (e.g. an OAuth2 credential that must be reconnected). */
	otherMessage?: string;
	/** No answer, and no byte of the request can have reached the service (refused, DNS, TLS, no connection within the Timeout). */
	notSent?: boolean;
}

/**
 * Whether this n8n keeps the request error (with the response's headers) as the `cause` of the
 * NodeApiError it throws for an error status (n8n 2.x). n8n 1.x drops it: a 429's Retry-After or
 * a redirect's Location can only be read from an answer n8n hands back.
 */
export const ERRORS_KEEP_RESPONSE = ((): boolean => {
	const probe = new Error('probe');
	const node = {
		id: 'probe',
		name: 'probe',
		type: 'probe',
		typeVersion: 1,
		position: [0, 0],
		parameters: {},
	} as INode;
	return (
		(new NodeApiError(node, probe as unknown as JsonObject) as { cause?: unknown }).cause === probe
	);
})();

/** Failures before a connection carries any byte of the request: refused, no such host, unreachable, TLS, connect timeout. */
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
]);
const TLS_CODE =
	/^(ERR_SSL_|ERR_TLS_|CERT_)|^(DEPTH_ZERO_SELF_SIGNED_CERT|SELF_SIGNED_CERT_IN_CHAIN|UNABLE_TO_VERIFY_LEAF_SIGNATURE|UNABLE_TO_GET_ISSUER_CERT(_LOCALLY)?|HOSTNAME_MISMATCH)$/;
const NETWORK_CODE =
	/^E[A-Z_]+$|^UND_ERR_(SOCKET|CONNECT_TIMEOUT)$|^ERR_(BAD_RESPONSE|SOCKET_CONNECTION_TIMEOUT)$/;
/** Codes a message may name (n8n 1.x keeps only the messages). */
const NAMED_CODE =
	/\b(ECONN(?:RESET|REFUSED|ABORTED)|ETIMEDOUT|ESOCKETTIMEDOUT|EPIPE|ENOTFOUND|EAI_AGAIN|EHOSTUNREACH|ENETUNREACH)\b/;

const networkCodeOf = (code: unknown) =>
	typeof code === 'string' && (NETWORK_CODE.test(code) || TLS_CODE.test(code)) ? code : undefined;

export function isNotSentCode(code: string | undefined): boolean {
	return code !== undefined && (NOT_SENT_CODES.has(code) || TLS_CODE.test(code));
}

/**
 * Whether the request left this process, from public APIs only: axios' documented `request` of the
 * request error (kept as `cause` by n8n 2.x) is Node's http.ClientRequest, whose Writable
 * `writableFinished` says whether every byte was handed to the operating system. A reused
 * keep-alive socket proves nothing.
 */
export function requestFlushed(error: unknown): boolean | undefined {
	const request = asObject(asObject(error)?.request);
	if (!request || typeof request.writableFinished !== 'boolean') return undefined;
	return request.reusedSocket === true || request.writableFinished;
}

/** Walks an error and its causes for the answer, the network code or a login failure. */
export function readHttpFailure(error: unknown): HttpFailure {
	const failure: HttpFailure = { headers: {}, bodyText: '' };
	const seen = new Set<unknown>();
	let flushed: boolean | undefined;
	for (
		let current = error, obj = asObject(current);
		obj && !seen.has(current) && seen.size < 6;
		current = obj.cause, obj = asObject(current)
	) {
		seen.add(current);
		if (isWorkOrderServiceAuthError(current)) return { headers: {}, bodyText: '', login: current };
		const response = asObject(obj.response);
		if (failure.status === undefined && typeof response?.status === 'number') {
			Object.assign(failure, {
				status: response.status,
				headers: asObject(response.headers) ?? {},
				bodyText: bodyToText(response.data),
			});
		}
		failure.networkCode ??= networkCodeOf(obj.code);
		flushed ??= requestFlushed(current);
	}
	if (failure.status === undefined) readN8n1Error(asObject(error), failure);
	// The request's own state knows best; without it (n8n 1.x) only the code can prove that nothing was sent.
	if (failure.status === undefined && failure.networkCode !== undefined)
		failure.notSent = isNotSentCode(failure.networkCode) || flushed === false;
	return failure;
}

/**
 * n8n 1.x wraps the request error in a NodeApiError that keeps neither its `cause` nor its
 * `response`: left are `httpCode` (the status, or a network code), `context.data` (the body) and
 * `messages`. The headers are gone.
 */
function readN8n1Error(obj: Record<string, unknown> | undefined, failure: HttpFailure): void {
	const httpCode = obj?.httpCode;
	if (Number.isInteger(Number(httpCode)) && Number(httpCode) >= 100) {
		failure.status = Number(httpCode);
		if (failure.bodyText === '') failure.bodyText = bodyToText(asObject(obj?.context)?.data);
	}
	failure.networkCode ??= networkCodeOf(httpCode);
	if (failure.networkCode !== undefined || !obj) return;
	for (const message of [obj.message, ...(Array.isArray(obj.messages) ? obj.messages : [])])
		failure.networkCode ??= networkCodeIn(message);
	if (
		failure.networkCode === undefined &&
		failure.status === undefined &&
		typeof obj.message === 'string'
	)
		failure.otherMessage = obj.message;
}

function networkCodeIn(message: unknown): string | undefined {
	if (typeof message !== 'string') return undefined;
	const named = NAMED_CODE.exec(message)?.[1];
	if (named) return named;
	if (/timeout|timed out/i.test(message)) return 'ETIMEDOUT';
	if (/certificate|handshake|SSL routines/i.test(message)) return 'ERR_TLS_HANDSHAKE';
	if (/socket hang up|aborted/i.test(message)) return 'ECONNRESET';
	return undefined;
}

/* ---------------------------------------------------------------- the service's words */

const MESSAGE_KEYS = [
	'ErrorMessage',
	'errorMessage',
	'Reason',
	'reason',
	'error_description',
	'message',
	'Message',
	'title',
	'detail',
	'error',
];

function firstLine(text: string): string | undefined {
	const line = text
		.split(/\r?\n/)
		.map((l) => l.replace(/\s+/g, ' ').trim())
		.find((l) => l !== '');
	return line !== undefined && line.length > 300 ? `${line.slice(0, 297)}...` : line;
}

function messageFromJson(value: unknown, depth = 0): string | undefined {
	const obj = asObject(value);
	for (const key of obj && depth <= 3 ? MESSAGE_KEYS : []) {
		const candidate = Object.prototype.hasOwnProperty.call(obj, key)
			? (obj as Record<string, unknown>)[key]
			: undefined;
		if (typeof candidate === 'string' && candidate.trim() !== '') return firstLine(candidate);
		const nested = messageFromJson(candidate, depth + 1);
		if (nested) return nested;
	}
	return undefined;
}

export function looksLikeHtml(text: string, contentType = ''): boolean {
	return /html/i.test(contentType) || /^\s*<(!doctype|html|head|body)/i.test(text);
}

function htmlText(html: string): string | undefined {
	const decode = (text: string) =>
		text
			.replace(/&lt;/g, '<')
			.replace(/&gt;/g, '>')
			.replace(/&quot;/g, '"')
			.replace(/&#39;/g, "'")
			.replace(/&amp;/g, '&');
	const title = /<title[^>]*>([\s\S]*?)<\/title>/i.exec(html)?.[1];
	if (title && title.trim() !== '') return firstLine(decode(title));
	const heading = /<h[1-3][^>]*>([\s\S]*?)<\/h[1-3]>/i.exec(html)?.[1];
	if (heading) return firstLine(decode(heading.replace(/<[^>]*>/g, ' ')));
	return firstLine(
		decode(html.replace(/<(script|style)[^>]*>[\s\S]*?<\/\1>/gi, ' ').replace(/<[^>]*>/g, '\n')),
	);
}

/** The service's own words: a JSON `ErrorMessage`, `Reason`, `error_description` (or similar), an XML <Message>, a text's first line, an HTML title; at most 300 characters. */
export function serviceMessage(bodyText: string, contentType = ''): string | undefined {
	const text = bodyText.trim();
	if (text === '') return undefined;
	if (/json/i.test(contentType) || /^[{[]/.test(text)) {
		const parsed = jsonOf(text);
		const message = typeof parsed === 'string' ? firstLine(parsed) : messageFromJson(parsed);
		if (message) return message;
	}
	// an XML error (a file store's `<Error><Code/><Message/></Error>`) says it in <Message>
	const xml = /<Message>([^<]{1,300})<\/Message>/i.exec(text)?.[1];
	if (xml) return firstLine(xml);
	if (
		/html/i.test(contentType) ||
		/^<(!doctype|html|head|body|\?xml)/i.test(text) ||
		/<\/[a-z]+>/i.test(text)
	)
		return htmlText(text);
	return firstLine(text);
}

/** An `ErrorResponse`'s code: `ErrorCode`, else the first of `ErrorCodes`; a number or a name (the reference types it a string, deployments send numbers). */
export function serviceErrorCode(bodyText: string): number | string | undefined {
	const body = asObject(jsonOf(bodyText));
	const code =
		body?.ErrorCode ?? (Array.isArray(body?.ErrorCodes) ? body.ErrorCodes[0] : undefined);
	if (typeof code === 'number' && Number.isFinite(code)) return code;
	return typeof code === 'string' && /^[\w.-]{1,80}$/.test(code.trim()) ? code.trim() : undefined;
}

/* ---------------------------------------------------------------- API calls */

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

/** An error's words and what it means; `said`: what the service answered (its reason, its code) and after how many attempts. */
export type ErrorText = {
	kind: ErrorKind;
	message: string;
	description: string;
	httpCode?: string;
	said?: ServiceAnswer;
};
export type ServiceAnswer = { words?: string; code?: number | string; attempts: number };

type AttemptInfo = Pick<Request, 'attempts' | 'waitedMs' | 'gaveUp'>;
type TextSettings = Pick<RequestSettings, 'maxRetries' | 'maxWaitMs' | 'timeoutMs'>;

export function hintForStatus(status: number, method: string, serviceWords?: string): string {
	if (status === 400 || status === 422)
		return 'Check the values sent for this item against the service rules shown above.';
	if (status === 401)
		return 'The service rejected the request even after a fresh login. The user may lack the security permission for this operation, or the credential belongs to another environment.';
	// the service's own reason (e.g. an approval limit) says more than a generic permission hint
	if (status === 403)
		return serviceWords
			? `The service refused this request. Its reason: ${serviceWords}`
			: "The user is not allowed to do this. Check the user's permissions in the service.";
	if (status === 404) {
		return method === 'GET'
			? 'Check the IDs. A record created moments ago can take up to about 30 seconds to become readable.'
			: 'Check the IDs: the record does not exist or is not visible to this user.';
	}
	if (status === 409)
		return 'The record changed state in the meantime; read it again before retrying.';
	if (status === 413) return 'The file is too large for the service.';
	if (status === 415) return 'The service did not accept the content type sent.';
	if (status === 429 || status === 503)
		return 'The service is throttling requests. Lower "Requests Per Minute" in the node options, or raise "Max Retries" / "Max Wait".';
	return status >= 500
		? 'The service failed. Try again later; if it persists, contact the service provider.'
		: 'Check the request parameters.';
}

export const routeOf = (method: string, path: string) =>
	`${method.toUpperCase()} ${path.split('?')[0]}`;

/** " Tried 3 times over 4 s; gave up: ..." (empty for a single attempt that did not give up). */
export function retryNote(info: AttemptInfo): string {
	if (info.attempts > 1)
		return ` Tried ${info.attempts} times over ${Math.round(info.waitedMs / 1000)} s${info.gaveUp ? `; gave up: ${info.gaveUp}` : ''}.`;
	return info.gaveUp ? ` Gave up: ${info.gaveUp}.` : '';
}

export function throttleHint(gaveUp: string | undefined, settings: TextSettings): string {
	if (gaveUp?.includes('Max Retries')) {
		return `The service throttled this request again and again while it accepted others. Raise "Max Retries" (now ${settings.maxRetries}) in the node's Request Options, or lower "Concurrency".`;
	}
	return `The service kept throttling requests for longer than this item may wait. Raise "Max Wait (Seconds)" (now ${Math.round(settings.maxWaitMs / 1000)} s) in the node's Request Options, or set "Requests Per Minute" below the service's limit (production allows about 300 per minute per application, shared by every workflow and worker that uses it).`;
}

const MAYBE_RECORDED = 'may or may not have been recorded by the service';
const NOT_AGAIN =
	'was not sent again automatically, to avoid a duplicate. Check the work order before running this item again.';
const timeoutWords = (settings: TextSettings) =>
	`the Timeout of ${Math.round(settings.timeoutMs / 1000)} s`;

function answeredText(
	route: string,
	failure: HttpFailure,
	info: AttemptInfo,
	settings: TextSettings,
	throttled: boolean,
): ErrorText {
	const status = failure.status as number;
	const method = route.split(' ')[0];
	const words = serviceMessage(
		failure.bodyText,
		headerValue(failure.headers, 'content-type') ?? '',
	);
	const code = serviceErrorCode(failure.bodyText);
	const label = STATUS_TEXT[status] ? `${status} ${STATUS_TEXT[status]}` : String(status);
	let message = `The Work Order Service answered ${label} to ${route}${words ? `: ${words}` : ''}${code !== undefined ? ` (error code ${code})` : ''}`;
	if (info.attempts > 1) message += ` (gave up after ${info.attempts} attempts)`;
	const maybe = (method === 'POST' || method === 'PATCH') && status >= 500 && !throttled;
	const hint = maybe
		? `The submission ${MAYBE_RECORDED}: it ${NOT_AGAIN}`
		: throttled
			? throttleHint(info.gaveUp, settings)
			: hintForStatus(status, method, words);
	return {
		kind: kindOfStatus(status, throttled),
		message,
		description: hint + retryNote(info),
		httpCode: String(status),
		said: { words, code, attempts: info.attempts },
	};
}

/** Nothing reached the service: refused, no such host, TLS, or no connection within the Timeout. */
export function notSentText(
	route: string,
	failure: HttpFailure,
	info: AttemptInfo,
	settings: TextSettings,
): ErrorText {
	const code = failure.networkCode ?? 'network error';
	const what = /TIMEDOUT|ECONNABORTED|CONNECT_TIMEOUT|CONNECTION_TIMEOUT/.test(code)
		? `no connection within ${timeoutWords(settings)}`
		: /^(ERR_SSL_|ERR_TLS_|CERT_|EPROTO$)|CERT|SIGNED/.test(code)
			? `the secure connection failed, ${code}`
			: code;
	return {
		kind: 'unreachable',
		message: `The request ${route} was not sent: the Work Order Service could not be reached (${what})`,
		description: `Nothing reached the service, so nothing was recorded for this item; running it again is safe. Check the credential's API Base URL (host, port, https certificate) and the network.${retryNote(info)}`,
	};
}

/** The request was written (or may have been) and no answer came. */
function noAnswerText(
	route: string,
	failure: HttpFailure,
	info: AttemptInfo,
	settings: TextSettings,
): ErrorText {
	const code = failure.networkCode ?? 'network error';
	const timedOut = /TIMEDOUT|ECONNABORTED/.test(code);
	const write = /^(POST|PATCH) /.test(route);
	const message = `No answer from the Work Order Service for ${route}${timedOut ? ` within ${timeoutWords(settings)}` : ` (${code})`}`;
	const description = write
		? `The connection ended after the request was sent, so the submission ${MAYBE_RECORDED}. It ${NOT_AGAIN}`
		: timedOut
			? "A request that got no answer within the Timeout is not sent again. Check the API Base URL and the service, or raise the Timeout in the node's Request Options."
			: 'Check the API Base URL and the network, or raise the Timeout in the node options.';
	return { kind: 'noAnswer', message, description: description + retryNote(info) };
}

export function failureText(
	route: string,
	failure: HttpFailure,
	info: AttemptInfo,
	settings: TextSettings,
	throttled: boolean,
): ErrorText {
	if (failure.login) {
		return {
			kind: 'login',
			message: `Login to the Work Order Service failed: ${failure.login.message}`,
			description: 'The request was not sent. Fix the credential, then run the workflow again.',
		};
	}
	if (failure.status !== undefined) return answeredText(route, failure, info, settings, throttled);
	return failure.notSent
		? notSentText(route, failure, info, settings)
		: noAnswerText(route, failure, info, settings);
}

export function redirectText(
	route: string,
	status: number,
	reason: string,
	info: AttemptInfo,
): ErrorText {
	return {
		kind: 'redirected',
		message: `The Work Order Service answered ${route} with ${reason}`,
		description: `HTTP ${status}. API calls go only to the origin of the credential's API Base URL. If the service has moved, set the new address as the API Base URL.${info.attempts > 1 ? ` Tried ${info.attempts} times.` : ''}`,
		httpCode: String(status),
	};
}

/** The request never started: the application's requests were paused for longer than its Max Wait. */
export function throttledTooLongText(
	route: string,
	gaveUp: string,
	settings: TextSettings,
): ErrorText {
	return {
		kind: 'throttled',
		message: `The request ${route} was not sent: the Work Order Service kept throttling this application's requests for longer than Max Wait (${Math.round(settings.maxWaitMs / 1000)} s)`,
		description: `${throttleHint(gaveUp, settings)} Nothing was sent for this item; running it again is safe.`,
	};
}

/** The error the user sees for `text`, secrets removed; it carries what it means (helpers/errorMeaning.ts), with `outcome`: what the request may have left in the service. */
export function apiError(
	node: INode,
	text: ErrorText,
	itemIndex: number | undefined,
	redact: (text: string) => string,
	outcome: ItemOutcome,
): NodeApiError {
	const message = redact(text.message);
	const description = redact(text.description);
	const error = new NodeApiError(
		node,
		{ message, description, ...(text.httpCode ? { httpCode: text.httpCode } : {}) },
		{ message, description, httpCode: text.httpCode, itemIndex },
	);
	const status = Number(text.httpCode);
	withMeaning(error, {
		kind: text.kind,
		outcome,
		...(Number.isInteger(status) && status >= 100 ? { status } : {}),
		...(text.said
			? {
					words: text.said.words === undefined ? undefined : redact(text.said.words),
					code: text.said.code,
					attempts: text.said.attempts,
				}
			: {}),
	});
	// NodeApiError swaps a message naming a network code (ECONNREFUSED, ...) for generic text; ours says what happened
	return Object.assign(error, { message, description });
}

/** An error n8n raised that is no HTTP failure (e.g. an OAuth2 credential to reconnect), redacted, for the item. */
export function keptError(
	node: INode,
	original: NodeApiError | NodeOperationError,
	redact: (text: string) => string,
	itemIndex: number | undefined,
	outcome: ItemOutcome,
): Error {
	if (itemIndex !== undefined) original.context.itemIndex = itemIndex;
	original.message = redact(original.message);
	if (original.description) original.description = redact(original.description);
	withMeaning(original, { kind: 'failed', outcome });
	return original instanceof NodeApiError
		? new NodeApiError(node, original as unknown as JsonObject)
		: new NodeOperationError(node, original);
}

/* ---------------------------------------------------------------- token logins */

export interface TokenAsked {
	purpose: string;
	grantRefusalKind: 'invalidUser' | 'invalidGrant' | 'subsidiary';
}

export type TokenAnswerClass =
	| 'throttled'
	| 'redirected'
	| 'token'
	| 'grantRefused'
	| 'clientRefused'
	| 'failed';

const SUBSIDIARY_HINT =
	' Check the Child Subscriber ID and that the user is a universal user with access to it.';
const GRANT_REFUSED = {
	invalidUser: [
		'Username or password rejected',
		' Check the Username and Password of the credential.',
	],
	invalidGrant: ['Stored refresh token rejected', ''],
	subsidiary: ['The child subscriber could not be selected', SUBSIDIARY_HINT],
};

/** The login error for a token answer that brought no token (not a throttled one): its kind and words, from the status, the OAuth `error` code and the body. */
export function refusalError(
	answerClass: TokenAnswerClass,
	answer: { status: number; headers: Record<string, unknown>; body: string },
	errorCode: string,
	asked: TokenAsked,
	redact: (text: string) => string,
): WorkOrderServiceAuthError {
	const { status } = answer;
	const contentType = headerValue(answer.headers, 'content-type') ?? '';
	const html = looksLikeHtml(answer.body, contentType);
	const reason = html ? undefined : serviceMessage(answer.body, contentType);
	const because = reason ? `: ${reason}` : '';
	const make = (kind: AuthErrorKind, message: string) =>
		new WorkOrderServiceAuthError(kind, redact(message), status);
	if (answerClass === 'redirected') {
		return make(
			'redirected',
			`Client credentials or authorization URL rejected: the authorization server answered the ${asked.purpose} with a redirect (HTTP ${status}) to a login page. Check the Client ID, the Client Secret and the Authorization Server URL (production and sandbox clients differ).`,
		);
	}
	if (answerClass === 'token') {
		return make(
			'badResponse',
			`The authorization server answered the ${asked.purpose} with ${html ? 'an HTML page' : 'a response without access_token'} instead of a token. Check the Authorization Server URL (it is the address that serves /oauth/token and /jwt/token).`,
		);
	}
	if (answerClass === 'grantRefused') {
		const [words, hint] = GRANT_REFUSED[asked.grantRefusalKind];
		return make(
			asked.grantRefusalKind,
			`${words} (HTTP ${status}) during the ${asked.purpose}${because}.${hint}`,
		);
	}
	if (
		answerClass === 'clientRefused' &&
		asked.grantRefusalKind === 'subsidiary' &&
		errorCode !== 'invalid_client'
	) {
		return make(
			'subsidiary',
			`The child subscriber could not be selected (HTTP ${status})${because}.${SUBSIDIARY_HINT}`,
		);
	}
	if (answerClass === 'clientRefused') {
		return make(
			'invalidClient',
			`Client credentials rejected by the authorization server (HTTP ${status}) during the ${asked.purpose}${because}. Check the Client ID and Client Secret, and that the client belongs to this environment.`,
		);
	}
	return make(
		'badResponse',
		`The authorization server failed the ${asked.purpose} with HTTP ${status}${because}.`,
	);
}

export function describeNetworkError(error: unknown): string {
	const err = error as
		| { code?: unknown; cause?: { code?: unknown }; message?: unknown }
		| undefined;
	const code = err?.code ?? err?.cause?.code;
	if (typeof code === 'string' && code !== '') return code === 'ECONNABORTED' ? 'timed out' : code;
	return typeof err?.message === 'string' && /timeout|timed out/i.test(err.message)
		? 'timed out'
		: 'network error';
}

export function unreachableError(
	origin: string,
	networkError: unknown,
	timeoutMs: number,
	asked: TokenAsked,
	redact: (text: string) => string,
): WorkOrderServiceAuthError {
	const why = `${describeNetworkError(networkError)}; each token request waits at most ${Math.round(timeoutMs / 1000)} s`;
	return new WorkOrderServiceAuthError(
		'unreachable',
		redact(
			`Could not reach the authorization server at ${origin} (${why}) during the ${asked.purpose}. Check the Authorization Server URL and the network.`,
		),
	);
}

/** The error for a login the token endpoint throttled (now, or shortly before): the request is sent again after `waitMs`. */
export function throttledLoginError(
	purpose: string,
	status: number | undefined,
	waitMs: number,
): WorkOrderServiceAuthError {
	const answered = status !== undefined ? ` (HTTP ${status})` : '';
	const message = `The authorization server throttled the ${purpose}${answered}; it takes token requests again in ${Math.ceil(waitMs / 1000)} s. It allows about one token request per 5 seconds per user; tokens are cached and shared, so this clears once the burst is over.`;
	return new WorkOrderServiceAuthError('throttled', message, status, waitMs);
}
