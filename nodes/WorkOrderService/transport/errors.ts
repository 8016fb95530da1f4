import { bodyToText, isWorkOrderServiceAuthError } from '../auth/http';
import { SecretSet } from '../auth/secrets';

/**
 * Reading failures of the HTTP layer, and the words shown to the user for them.
 * Pure functions: no I/O, unit-tested without a server. The HTTP helpers shared with the
 * credentials live in credentials/common/http.ts and are re-exported here.
 */

export {
	bodyToText,
	headerValue,
	parseRetryAfter,
	serviceErrorCode,
	serviceMessage,
} from '../auth/http';

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
 * What the socket of a failed request says (n8n 2.x keeps the request error as `cause`; n8n 1.x
 * drops it): nothing dispatched to the kernel, or a TLS handshake that never completed, means
 * nothing reached the service. A reused keep-alive socket says nothing about this request.
 */
export function socketEvidence(error: unknown): 'notSent' | 'sent' | undefined {
	const request = asObject(asObject(error)?.request);
	if (!request) return undefined;
	const socket = asObject(request.socket) ?? asObject(asObject(request._currentRequest)?.socket);
	if (!socket) return undefined;
	if (request.reusedSocket === true) return 'sent';
	if (socket.encrypted === true && socket._secureEstablished === false) return 'notSent';
	const dispatched = socket._bytesDispatched;
	if (typeof dispatched !== 'number') return undefined;
	return dispatched > 0 ? 'sent' : 'notSent';
}

/** Walks an error and its causes for the HTTP response, the network code or a login failure. */
export function readHttpFailure(error: unknown): HttpFailure {
	const failure: HttpFailure = { headers: {}, bodyText: '' };
	const seen = new Set<unknown>();
	let evidence: 'notSent' | 'sent' | undefined;
	let current: unknown = error;
	while (current !== undefined && current !== null && !seen.has(current) && seen.size < 6) {
		seen.add(current);
		const obj = asObject(current);
		if (!obj) break;
		if (isWorkOrderServiceAuthError(current)) {
			failure.authErrorMessage = current.message;
			failure.authErrorKind = current.kind;
			return failure;
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
		evidence ??= socketEvidence(current);
		current = obj.cause;
	}
	if (failure.status === undefined) {
		// n8n 1.x wraps the request error in a NodeApiError that keeps neither its `cause` nor its
		// `response`; left are `httpCode` (the HTTP status, or a network code such as ECONNREFUSED),
		// `context.data` (the response body, e.g. a Buffer) and `messages` (the original messages).
		// The response headers are gone there.
		const obj = asObject(error);
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
		if (failure.networkCode === undefined && obj) {
			const messages = [obj.message, ...(Array.isArray(obj.messages) ? obj.messages : [])].filter(
				(m): m is string => typeof m === 'string',
			);
			for (const message of messages) {
				const named = /\b(E[A-Z]{4,}[A-Z_]*)\b/.exec(message)?.[1];
				if (named && NETWORK_CODES.has(named)) failure.networkCode = named;
				else if (/timeout|timed out/i.test(message)) failure.networkCode = 'ETIMEDOUT';
				else if (/certificate|handshake|SSL routines/i.test(message)) failure.networkCode = 'ERR_TLS_HANDSHAKE';
				else if (/socket hang up|aborted/i.test(message)) failure.networkCode = 'ECONNRESET';
				if (failure.networkCode !== undefined) break;
			}
			if (failure.networkCode === undefined && failure.status === undefined && typeof obj.message === 'string') {
				failure.otherMessage = obj.message;
			}
		}
	}
	if (failure.status === undefined && failure.networkCode !== undefined) {
		// The socket knows best; without it (n8n 1.x) only the code can prove that nothing was sent.
		failure.notSent = evidence !== undefined ? evidence === 'notSent' : isNotSentCode(failure.networkCode);
	}
	return failure;
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

/** Removes any secret value (in any of its encodings) and Authorization header values from a text. */
export function redact(text: string, secrets: Iterable<string> | SecretSet): string {
	if (secrets instanceof SecretSet) return secrets.redact(text);
	const set = new SecretSet();
	for (const secret of secrets) set.add(secret);
	return set.redact(text);
}
