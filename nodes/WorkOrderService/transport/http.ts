/**
 * Reading HTTP answers, for API calls and token logins alike: headers, Retry-After, body text, the
 * service's own words, URL joining and origins, and the login error type with its guard.
 */

const AUTH_ERROR_BRAND = Symbol.for('n8n-nodes-work-order-service.authError');

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

/**
 * Raised by a token login. Its message is safe to show (secrets are removed when it is built).
 * n8n may wrap it in a NodeApiError (as `cause`); `isWorkOrderServiceAuthError` finds it by a
 * brand that survives module duplication, not by matching the class name.
 */
export class WorkOrderServiceAuthError extends Error {
	readonly kind: AuthErrorKind;

	readonly httpStatus?: number;

	/** A throttled login: when the token endpoint takes requests again (the request may be sent again then). */
	readonly retryAfterMs?: number;

	constructor(kind: AuthErrorKind, message: string, httpStatus?: number, retryAfterMs?: number) {
		super(message);
		this.name = 'WorkOrderServiceAuthError';
		this.kind = kind;
		this.httpStatus = httpStatus;
		this.retryAfterMs = retryAfterMs;
		Object.defineProperty(this, AUTH_ERROR_BRAND, { value: true });
	}
}

export function isWorkOrderServiceAuthError(value: unknown): value is WorkOrderServiceAuthError {
	return (
		typeof value === 'object' &&
		value !== null &&
		(value instanceof WorkOrderServiceAuthError || (value as Record<symbol, unknown>)[AUTH_ERROR_BRAND] === true)
	);
}

/** Joins a configured URL and a path without doubling or losing slashes. */
export function joinUrl(base: string, path: string): string {
	return `${base.replace(/\/+$/, '')}/${path.replace(/^\/+/, '')}`;
}

/** The origin (scheme://host:port) of an absolute URL, lower-cased; undefined when it is not one. */
export function originOf(url: string): string | undefined {
	try {
		const parsed = new URL(url);
		return parsed.protocol === 'http:' || parsed.protocol === 'https:' ? parsed.origin.toLowerCase() : undefined;
	} catch {
		return undefined;
	}
}

/** A header's first value, whatever the case of its name. */
export function headerValue(headers: Record<string, unknown> | undefined, name: string): string | undefined {
	if (!headers) return undefined;
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

/** Any body n8n's request layer hands back (Buffer, ArrayBuffer, view, string, object), as text. */
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

export function looksLikeHtml(text: string, contentType = ''): boolean {
	return /html/i.test(contentType) || /^\s*<(!doctype|html|head|body)/i.test(text);
}

function asObject(value: unknown): Record<string, unknown> | undefined {
	return value !== null && typeof value === 'object' ? (value as Record<string, unknown>) : undefined;
}

function firstLine(text: string): string | undefined {
	const line = text
		.split(/\r?\n/)
		.map((l) => l.replace(/\s+/g, ' ').trim())
		.find((l) => l !== '');
	if (line === undefined) return undefined;
	return line.length > 300 ? `${line.slice(0, 297)}...` : line;
}

function decodeEntities(text: string): string {
	return text
		.replace(/&lt;/g, '<')
		.replace(/&gt;/g, '>')
		.replace(/&quot;/g, '"')
		.replace(/&#39;/g, "'")
		.replace(/&amp;/g, '&');
}

function htmlText(html: string): string | undefined {
	const title = /<title[^>]*>([\s\S]*?)<\/title>/i.exec(html);
	if (title && title[1].trim() !== '') return firstLine(decodeEntities(title[1]));
	const heading = /<h[1-3][^>]*>([\s\S]*?)<\/h[1-3]>/i.exec(html);
	if (heading) return firstLine(decodeEntities(heading[1].replace(/<[^>]*>/g, ' ')));
	const text = html.replace(/<(script|style)[^>]*>[\s\S]*?<\/\1>/gi, ' ').replace(/<[^>]*>/g, '\n');
	return firstLine(decodeEntities(text));
}

/** Keys under which the service (and OAuth servers) put their words, most specific first. */
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

function messageFromJson(value: unknown, depth = 0): string | undefined {
	const obj = asObject(value);
	if (!obj || depth > 3) return undefined;
	for (const key of MESSAGE_KEYS) {
		if (!Object.prototype.hasOwnProperty.call(obj, key)) continue;
		const candidate = obj[key];
		if (typeof candidate === 'string' && candidate.trim() !== '') return firstLine(candidate);
		const nested = messageFromJson(candidate, depth + 1);
		if (nested) return nested;
	}
	return undefined;
}

/**
 * The service's own words: JSON `ErrorMessage`, `Reason`, `error_description` (or similar), the
 * first line of a plain-text body, or the title of an HTML page. Never the whole page; at most
 * 300 characters.
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
