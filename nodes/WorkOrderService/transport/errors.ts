/**
 * Reading failures of the HTTP layer, and the words shown to the user for them.
 * Pure functions: no I/O, unit-tested without a server.
 */

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
}

type Loose = Record<string, unknown> | undefined;

function asObject(value: unknown): Loose {
	return value !== null && typeof value === 'object' ? (value as Record<string, unknown>) : undefined;
}

export function bodyToText(body: unknown): string {
	if (body === undefined || body === null) return '';
	if (typeof body === 'string') return body;
	if (Buffer.isBuffer(body)) return body.toString('utf8');
	if (body instanceof ArrayBuffer) return Buffer.from(body).toString('utf8');
	if (ArrayBuffer.isView(body)) return Buffer.from(body.buffer, body.byteOffset, body.byteLength).toString('utf8');
	try {
		return JSON.stringify(body);
	} catch {
		return '';
	}
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

/** Walks an error and its causes for the HTTP response, the network code or a login failure. */
export function readHttpFailure(error: unknown): HttpFailure {
	const failure: HttpFailure = { headers: {}, bodyText: '' };
	const seen = new Set<unknown>();
	let current: unknown = error;
	while (current !== undefined && current !== null && !seen.has(current) && seen.size < 6) {
		seen.add(current);
		const obj = asObject(current);
		if (!obj) break;
		if (obj.name === 'WorkOrderServiceAuthError' && typeof obj.message === 'string') {
			failure.authErrorMessage = obj.message;
			failure.authErrorKind = typeof obj.kind === 'string' ? obj.kind : undefined;
			return failure;
		}
		const response = asObject(obj.response);
		if (failure.status === undefined && response && typeof response.status === 'number') {
			failure.status = response.status;
			failure.headers = asObject(response.headers) ?? {};
			failure.bodyText = bodyToText(response.data);
		}
		const code = typeof obj.code === 'string' ? obj.code : undefined;
		if (failure.networkCode === undefined && code && (NETWORK_CODES.has(code) || /^E[A-Z_]+$/.test(code))) {
			failure.networkCode = code;
		}
		current = obj.cause;
	}
	if (failure.status === undefined) {
		const obj = asObject(error);
		const httpCode = obj ? Number(obj.httpCode) : NaN;
		if (Number.isInteger(httpCode) && httpCode >= 100) failure.status = httpCode;
		if (failure.networkCode === undefined && obj && typeof obj.message === 'string') {
			const message = obj.message;
			if (/timeout|timed out/i.test(message)) failure.networkCode = 'ETIMEDOUT';
			else if (/socket hang up|ECONNRESET|aborted/i.test(message)) failure.networkCode = 'ECONNRESET';
			else if (failure.status === undefined) failure.otherMessage = message;
		}
	}
	return failure;
}

export function headerValue(headers: Record<string, unknown>, name: string): string | undefined {
	const lower = name.toLowerCase();
	for (const [key, value] of Object.entries(headers)) {
		if (key.toLowerCase() !== lower) continue;
		if (Array.isArray(value)) return value.length ? String(value[0]) : undefined;
		return value === undefined || value === null ? undefined : String(value);
	}
	return undefined;
}

/** Retry-After as delay-seconds or as an HTTP date, in ms; undefined when absent or unreadable. */
export function parseRetryAfter(value: string | undefined, now = Date.now()): number | undefined {
	if (value === undefined) return undefined;
	const text = value.trim();
	if (text === '') return undefined;
	if (/^\d+(\.\d+)?$/.test(text)) return Math.round(Number(text) * 1000);
	const date = Date.parse(text);
	if (Number.isNaN(date)) return undefined;
	return Math.max(0, date - now);
}

function firstLine(text: string): string | undefined {
	const line = text
		.split(/\r?\n/)
		.map((l) => l.replace(/\s+/g, ' ').trim())
		.find((l) => l !== '');
	if (line === undefined) return undefined;
	return line.length > 300 ? `${line.slice(0, 297)}...` : line;
}

function htmlText(html: string): string | undefined {
	const title = /<title[^>]*>([\s\S]*?)<\/title>/i.exec(html);
	if (title && title[1].trim() !== '') return firstLine(decodeEntities(title[1]));
	const heading = /<h[1-3][^>]*>([\s\S]*?)<\/h[1-3]>/i.exec(html);
	if (heading) return firstLine(decodeEntities(heading[1].replace(/<[^>]*>/g, ' ')));
	const text = html
		.replace(/<(script|style)[^>]*>[\s\S]*?<\/\1>/gi, ' ')
		.replace(/<[^>]*>/g, '\n');
	return firstLine(decodeEntities(text));
}

function decodeEntities(text: string): string {
	return text
		.replace(/&lt;/g, '<')
		.replace(/&gt;/g, '>')
		.replace(/&quot;/g, '"')
		.replace(/&#39;/g, "'")
		.replace(/&amp;/g, '&');
}

const MESSAGE_KEYS = ['ErrorMessage', 'errorMessage', 'Reason', 'reason', 'error_description', 'message', 'Message', 'title', 'detail', 'error'];

function messageFromJson(value: unknown, depth = 0): string | undefined {
	const obj = asObject(value);
	if (!obj || depth > 3) return undefined;
	for (const key of MESSAGE_KEYS) {
		const candidate = obj[key];
		if (typeof candidate === 'string' && candidate.trim() !== '') return firstLine(candidate);
		const nested = messageFromJson(candidate, depth + 1);
		if (nested) return nested;
	}
	return undefined;
}

/**
 * The service's own words: JSON `ErrorMessage`, `Reason` (or similar), the first line of a plain
 * text body, or the title of an HTML page. Never the whole page.
 */
export function serviceMessage(bodyText: string, contentType = ''): string | undefined {
	const text = bodyText.trim();
	if (text === '') return undefined;
	if (/json/i.test(contentType) || /^[{[]/.test(text)) {
		try {
			const parsed: unknown = JSON.parse(text);
			const message = messageFromJson(parsed);
			if (message) return message;
			if (typeof parsed === 'string') return firstLine(parsed);
		} catch {
			// not JSON after all: fall through to text
		}
	}
	if (/html/i.test(contentType) || /^<(!doctype|html|head|body|\?xml)/i.test(text) || /<\/[a-z]+>/i.test(text)) {
		return htmlText(text);
	}
	return firstLine(text);
}

/** The service's numeric error code, when the body carries one. */
export function serviceErrorCode(bodyText: string): number | undefined {
	try {
		const parsed = asObject(JSON.parse(bodyText));
		const code = parsed?.ErrorCode;
		return typeof code === 'number' ? code : undefined;
	} catch {
		return undefined;
	}
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
export function hintForStatus(status: number, method: string): string {
	if (status === 400 || status === 422) return 'Check the values sent for this item against the service rules shown above.';
	if (status === 401)
		return 'The service rejected the request even after a fresh login. The user may lack the security permission for this operation, or the credential belongs to another environment.';
	if (status === 403) return 'The user is not allowed to do this. Check the user\'s permissions in the service.';
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

/** Removes any secret value that could have slipped into a text (defence in depth). */
export function redact(text: string, secrets: Iterable<string>): string {
	let result = text;
	for (const secret of secrets) {
		if (typeof secret === 'string' && secret.length >= 4 && result.includes(secret)) {
			result = result.split(secret).join('[redacted]');
		}
	}
	return result.replace(/\b(Bearer|Basic)\s+[A-Za-z0-9\-._~+/]+=*/g, '$1 [redacted]');
}
