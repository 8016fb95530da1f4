import type { ICredentialDataDecryptedObject, IDataObject, IHttpRequestHelper } from 'n8n-workflow';
import { sleep } from 'n8n-workflow';

/**
 * Token logins shared by the password-grant and contractor (JWT) credentials.
 *
 * Everything here runs inside a credential's `preAuthentication`, which n8n calls only when the
 * hidden, expirable `accessToken` field is empty or after the service answered 401. What it returns
 * is persisted by n8n, so one token serves every item and every execution until it is rejected.
 *
 * Error messages name the cause (wrong client, wrong user, throttled, unreachable, redirected to a
 * login page) and never contain a secret, a token or an Authorization header.
 */

/** Main API refresh tokens live 30 days (spec, section 8); renew a little before that. */
const MAIN_REFRESH_TOKEN_LIFETIME_MS = 30 * 24 * 3600 * 1000;
const EXPIRY_MARGIN_MS = 60 * 1000;
const TOKEN_REQUEST_TIMEOUT_MS = 30 * 1000;
/** The token endpoint allows about one request per 5 s per user; wait for it, a bounded number of times. */
const TOKEN_THROTTLE_MAX_ATTEMPTS = 4;
const TOKEN_THROTTLE_MAX_WAIT_MS = 60 * 1000;

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
 * Raised by a token login. n8n wraps it in a NodeApiError (as `cause`); the node's transport
 * recognises it by `name` and shows its message, which is safe to display.
 */
export class WorkOrderServiceAuthError extends Error {
	readonly kind: AuthErrorKind;

	readonly httpStatus?: number;

	constructor(kind: AuthErrorKind, message: string, httpStatus?: number) {
		super(message);
		this.name = 'WorkOrderServiceAuthError';
		this.kind = kind;
		this.httpStatus = httpStatus;
	}
}

export interface TokenResponse {
	accessToken: string;
	refreshToken?: string;
	expiresIn?: number;
	refreshExpiresIn?: number;
	scope?: string;
	tokenType?: string;
}

interface HttpResult {
	statusCode: number;
	headers: Record<string, unknown>;
	body: string;
}

/** Joins a configured URL and a path without doubling or losing slashes. */
export function joinUrl(base: string, path: string): string {
	return `${base.replace(/\/+$/, '')}/${path.replace(/^\/+/, '')}`;
}

/** `Basic BASE64(client_id:client_secret)`, exactly: no encoding of the parts, no spaces. */
export function basicAuthHeader(clientId: string, clientSecret: string): string {
	return `Basic ${Buffer.from(`${clientId}:${clientSecret}`, 'utf8').toString('base64')}`;
}

/** Validates a configured http(s) URL; returns it without trailing slashes. */
export function requireUrl(value: unknown, label: string): string {
	const text = typeof value === 'string' ? value.trim() : '';
	if (!/^https?:\/\/[^\s/]+/i.test(text)) {
		throw new WorkOrderServiceAuthError(
			'configuration',
			`The credential's ${label} must be an http(s) URL, e.g. https://login.example.com`,
		);
	}
	return text.replace(/\/+$/, '');
}

export function requireText(value: unknown, label: string): string {
	const text = typeof value === 'string' ? value.trim() : typeof value === 'number' ? String(value) : '';
	if (text === '') {
		throw new WorkOrderServiceAuthError('configuration', `The credential's ${label} is empty`);
	}
	return text;
}

/** Secrets are compared as typed: a password may legitimately start or end with a space. */
function requireSecret(value: unknown, label: string): string {
	if (typeof value !== 'string' || value === '') {
		throw new WorkOrderServiceAuthError('configuration', `The credential's ${label} is empty`);
	}
	return value;
}

function headerValue(headers: Record<string, unknown>, name: string): string | undefined {
	const value = headers[name] ?? headers[name.toLowerCase()];
	if (Array.isArray(value)) return value.length ? String(value[0]) : undefined;
	return value === undefined || value === null ? undefined : String(value);
}

/** Retry-After as delay-seconds or as an HTTP date; undefined when absent or unreadable. */
export function parseRetryAfterMs(value: string | undefined, now = Date.now()): number | undefined {
	if (value === undefined) return undefined;
	const text = value.trim();
	if (/^\d+(\.\d+)?$/.test(text)) return Math.round(Number(text) * 1000);
	const date = Date.parse(text);
	if (Number.isNaN(date)) return undefined;
	return Math.max(0, date - now);
}

function toText(body: unknown): string {
	if (body === undefined || body === null) return '';
	if (typeof body === 'string') return body;
	if (Buffer.isBuffer(body)) return body.toString('utf8');
	if (body instanceof ArrayBuffer) return Buffer.from(body).toString('utf8');
	return JSON.stringify(body);
}

function parseJsonObject(text: string): IDataObject | undefined {
	try {
		const value: unknown = JSON.parse(text);
		return value !== null && typeof value === 'object' && !Array.isArray(value)
			? (value as IDataObject)
			: undefined;
	} catch {
		return undefined;
	}
}

function looksLikeHtml(text: string, headers: Record<string, unknown>): boolean {
	const type = headerValue(headers, 'content-type') ?? '';
	return /html/i.test(type) || /^\s*<(!doctype|html|head|body)/i.test(text);
}

/** The service's own words for a refusal, shortened, from an OAuth or a service error body. */
function serviceReason(text: string): string | undefined {
	const json = parseJsonObject(text);
	if (json) {
		for (const key of ['error_description', 'ErrorMessage', 'Reason', 'message', 'error']) {
			const value = json[key];
			if (typeof value === 'string' && value.trim() !== '') return value.trim().slice(0, 300);
		}
		return undefined;
	}
	const line = text
		.replace(/<[^>]*>/g, ' ')
		.split(/\r?\n/)
		.map((l) => l.trim())
		.find((l) => l !== '');
	return line ? line.slice(0, 300) : undefined;
}

function describeNetworkError(error: unknown): string {
	const err = error as { code?: unknown; cause?: { code?: unknown }; message?: unknown };
	const code = err?.code ?? err?.cause?.code;
	if (typeof code === 'string' && code !== '') return code;
	return 'network error';
}

/** Sends the form; a network failure comes back as `{ networkError }` instead of a throw. */
async function postForm(
	helpers: IHttpRequestHelper,
	url: string,
	form: Record<string, string>,
	authorization: string,
): Promise<HttpResult | { networkError: unknown }> {
	const sent = helpers.helpers.httpRequest({
		method: 'POST',
		url,
		body: new URLSearchParams(form).toString(),
		headers: {
			Authorization: authorization,
			'Content-Type': 'application/x-www-form-urlencoded',
			Accept: 'application/json',
		},
		// A wrong client can be answered with a 302 to an HTML login page: report it, do not follow it.
		disableFollowRedirect: true,
		ignoreHttpStatusErrors: true,
		returnFullResponse: true,
		encoding: 'arraybuffer',
		json: false,
		timeout: TOKEN_REQUEST_TIMEOUT_MS,
	}) as Promise<{ statusCode: number; headers?: Record<string, unknown>; body: unknown }>;
	const response = await sent.then(
		(value) => value,
		(networkError: unknown) => ({ networkError }),
	);
	if ('networkError' in response) return response;
	return {
		statusCode: response.statusCode,
		headers: response.headers ?? {},
		body: toText(response.body),
	};
}

export interface TokenRequest {
	/** Full URL of the token endpoint. */
	url: string;
	form: Record<string, string>;
	authorization: string;
	/** Words for messages: "password grant", "token refresh", ... */
	purpose: string;
	/** Which refusals mean "this grant is not valid" (used to fall back from refresh to login). */
	grantRefusalKind: 'invalidUser' | 'invalidGrant' | 'subsidiary';
}

/**
 * POSTs one form to a token endpoint and returns the token, or throws a WorkOrderServiceAuthError
 * whose message explains the cause. Waits out 429/503 throttling as Retry-After says, bounded.
 */
export async function requestToken(helpers: IHttpRequestHelper, request: TokenRequest): Promise<TokenResponse> {
	const { origin } = new URL(request.url);
	let waitedMs = 0;
	for (let attempt = 1; ; attempt++) {
		const result = await postForm(helpers, request.url, request.form, request.authorization);
		if ('networkError' in result) {
			throw new WorkOrderServiceAuthError(
				'unreachable',
				`Could not reach the authorization server at ${origin} (${describeNetworkError(result.networkError)}) during the ${request.purpose}. Check the Authorization Server URL and the network.`,
			);
		}
		const { statusCode, headers, body } = result;
		if (statusCode === 429 || statusCode === 503) {
			const retryAfter = parseRetryAfterMs(headerValue(headers, 'retry-after'));
			const delay = retryAfter ?? Math.min(30000, 1000 * 2 ** attempt);
			if (attempt < TOKEN_THROTTLE_MAX_ATTEMPTS && waitedMs + delay <= TOKEN_THROTTLE_MAX_WAIT_MS) {
				waitedMs += delay;
				await sleep(delay);
				continue;
			}
			throw new WorkOrderServiceAuthError(
				'throttled',
				`The authorization server throttled the ${request.purpose} (HTTP ${statusCode}) after ${attempt} attempt(s) and ${Math.round(waitedMs / 1000)} s of waiting. It allows about one token request per 5 seconds per user; tokens are cached, so this clears once the burst is over.`,
				statusCode,
			);
		}
		if (statusCode >= 300 && statusCode < 400) {
			throw new WorkOrderServiceAuthError(
				'redirected',
				`Client credentials or authorization URL rejected: the authorization server answered the ${request.purpose} with a redirect (HTTP ${statusCode}) to a login page. Check the Client ID, the Client Secret and the Authorization Server URL (production and sandbox clients differ).`,
				statusCode,
			);
		}
		const json = parseJsonObject(body);
		if (statusCode === 200 || statusCode === 201) {
			const accessToken = json?.access_token;
			if (typeof accessToken !== 'string' || accessToken === '') {
				const what = looksLikeHtml(body, headers) ? 'an HTML page' : 'a response without access_token';
				throw new WorkOrderServiceAuthError(
					'badResponse',
					`The authorization server answered the ${request.purpose} with ${what} instead of a token. Check the Authorization Server URL (it is the address that serves /oauth/token and /jwt/token).`,
					statusCode,
				);
			}
			const numberOrUndefined = (value: unknown) => {
				const n = typeof value === 'string' ? Number(value) : value;
				return typeof n === 'number' && Number.isFinite(n) && n > 0 ? n : undefined;
			};
			return {
				accessToken,
				refreshToken:
					typeof json?.refresh_token === 'string' && json.refresh_token !== ''
						? json.refresh_token
						: undefined,
				expiresIn: numberOrUndefined(json?.expires_in),
				refreshExpiresIn: numberOrUndefined(json?.refresh_token_expires_in ?? json?.refresh_expires_in),
				scope: typeof json?.scope === 'string' ? json.scope : undefined,
				tokenType: typeof json?.token_type === 'string' ? json.token_type : undefined,
			};
		}
		const reason = serviceReason(body);
		const reasonText = reason && !looksLikeHtml(body, headers) ? `: ${reason}` : '';
		const errorCode = typeof json?.error === 'string' ? json.error : '';
		const clientRefused = errorCode === 'invalid_client' || errorCode === 'unauthorized_client';
		if (!clientRefused && (errorCode === 'invalid_grant' || statusCode === 400 || statusCode === 403)) {
			const words: Record<TokenRequest['grantRefusalKind'], string> = {
				invalidUser: 'Username or password rejected',
				invalidGrant: 'Stored refresh token rejected',
				subsidiary: 'The child subscriber could not be selected',
			};
			const hint: Record<TokenRequest['grantRefusalKind'], string> = {
				invalidUser: ' Check the Username and Password of the credential.',
				invalidGrant: '',
				subsidiary: ' Check the Child Subscriber ID and that the user is a universal user with access to it.',
			};
			throw new WorkOrderServiceAuthError(
				request.grantRefusalKind,
				`${words[request.grantRefusalKind]} (HTTP ${statusCode}) during the ${request.purpose}${reasonText}.${hint[request.grantRefusalKind]}`,
				statusCode,
			);
		}
		if (statusCode === 401 || clientRefused) {
			if (request.grantRefusalKind === 'subsidiary' && errorCode !== 'invalid_client') {
				throw new WorkOrderServiceAuthError(
					'subsidiary',
					`The child subscriber could not be selected (HTTP ${statusCode})${reasonText}. Check the Child Subscriber ID and that the user is a universal user with access to it.`,
					statusCode,
				);
			}
			throw new WorkOrderServiceAuthError(
				'invalidClient',
				`Client credentials rejected by the authorization server (HTTP ${statusCode}) during the ${request.purpose}${reasonText}. Check the Client ID and Client Secret, and that the client belongs to this environment.`,
				statusCode,
			);
		}
		throw new WorkOrderServiceAuthError(
			'badResponse',
			`The authorization server failed the ${request.purpose} with HTTP ${statusCode}${reasonText}.`,
			statusCode,
		);
	}
}

/**
 * Tries a refresh; `undefined` when the service refused the refresh token (expired, revoked,
 * rotated), so that the caller logs in afresh. Any other failure is thrown.
 */
async function tryRefresh(helpers: IHttpRequestHelper, request: TokenRequest): Promise<TokenResponse | undefined> {
	const outcome = await requestToken(helpers, request).then(
		(token) => ({ token }),
		(failure: unknown) => ({ failure }),
	);
	if ('token' in outcome) return outcome.token;
	if (outcome.failure instanceof WorkOrderServiceAuthError && outcome.failure.kind === 'invalidGrant') return undefined;
	throw outcome.failure;
}

/** What a login stores in the credential (hidden fields); n8n persists it. */
export function storedTokenFields(
	token: TokenResponse,
	identity: string,
	previousRefreshToken: string | undefined,
	defaultRefreshLifetimeMs: number | undefined,
	now = Date.now(),
): IDataObject {
	const refreshToken = token.refreshToken ?? previousRefreshToken ?? '';
	const refreshLifetimeMs =
		token.refreshExpiresIn !== undefined ? token.refreshExpiresIn * 1000 : defaultRefreshLifetimeMs;
	return {
		accessToken: token.accessToken,
		refreshToken,
		accessTokenExpiresAt: token.expiresIn !== undefined ? String(now + token.expiresIn * 1000) : '',
		refreshTokenExpiresAt:
			refreshToken !== '' && refreshLifetimeMs !== undefined ? String(now + refreshLifetimeMs) : '',
		tokenIdentity: identity,
		tokenScope: token.scope ?? '',
	};
}

/**
 * The stored refresh token may be used only for the same server, client and user it was issued
 * to (the user may have edited the credential since) and only while it is still valid.
 */
function usableRefreshToken(credentials: ICredentialDataDecryptedObject, identity: string): string | undefined {
	const refreshToken = credentials.refreshToken;
	if (typeof refreshToken !== 'string' || refreshToken === '') return undefined;
	if (credentials.tokenIdentity !== identity) return undefined;
	const expiresAt = Number(credentials.refreshTokenExpiresAt);
	if (credentials.refreshTokenExpiresAt && Number.isFinite(expiresAt) && expiresAt <= Date.now() + EXPIRY_MARGIN_MS) {
		return undefined;
	}
	return refreshToken;
}

interface LoginSettings {
	authServerUrl: string;
	username: string;
	password: string;
	clientId: string;
	/** `Basic BASE64(client_id:client_secret)` */
	basic: string;
}

/** The fields both token logins need, checked before anything is sent. */
function loginSettings(credentials: ICredentialDataDecryptedObject): LoginSettings {
	const authServerUrl = requireUrl(credentials.authServerUrl, 'Authorization Server URL');
	const clientId = requireText(credentials.clientId, 'Client ID');
	const clientSecret = requireSecret(credentials.clientSecret, 'Client Secret');
	return {
		authServerUrl,
		clientId,
		basic: basicAuthHeader(clientId, clientSecret),
		username: requireText(credentials.username, 'Username'),
		password: requireSecret(credentials.password, 'Password'),
	};
}

/**
 * Main API login (credential `workOrderServiceApi`): refresh token first, password grant next, then
 * the child-subscriber exchange when a Child Subscriber ID is set (spec 4.1 and 5.5-5.8).
 */
export async function passwordGrantLogin(
	helpers: IHttpRequestHelper,
	credentials: ICredentialDataDecryptedObject,
): Promise<IDataObject> {
	const { authServerUrl, clientId, basic, username, password } = loginSettings(credentials);
	const subsidiaryRaw = credentials.subsidiaryId;
	const subsidiaryId =
		subsidiaryRaw === undefined || subsidiaryRaw === null || String(subsidiaryRaw).trim() === ''
			? undefined
			: String(subsidiaryRaw).trim();
	if (subsidiaryId !== undefined && !/^[1-9]\d{0,18}$/.test(subsidiaryId)) {
		throw new WorkOrderServiceAuthError(
			'configuration',
			"The credential's Child Subscriber ID must be a positive whole number (or empty)",
		);
	}
	const tokenUrl = joinUrl(authServerUrl, '/oauth/token');
	const identity = ['oauth', authServerUrl, clientId, username, subsidiaryId ?? ''].join('|');

	const refreshToken = usableRefreshToken(credentials, identity);
	if (refreshToken !== undefined) {
		// An expired or revoked refresh token is not an error: log in again with the password.
		const refreshed = await tryRefresh(helpers, {
			url: tokenUrl,
			form: { grant_type: 'refresh_token', refresh_token: refreshToken },
			authorization: basic,
			purpose: 'token refresh',
			grantRefusalKind: 'invalidGrant',
		});
		if (refreshed) return storedTokenFields(refreshed, identity, refreshToken, MAIN_REFRESH_TOKEN_LIFETIME_MS);
	}

	let token = await requestToken(helpers, {
		url: tokenUrl,
		form: { grant_type: 'password', username, password },
		authorization: basic,
		purpose: 'password grant',
		grantRefusalKind: 'invalidUser',
	});
	if (subsidiaryId !== undefined) {
		token = await requestToken(helpers, {
			url: tokenUrl,
			form: { subsidiary_id: subsidiaryId },
			authorization: `Bearer ${token.accessToken}`,
			purpose: `child subscriber selection (subsidiary ${subsidiaryId})`,
			grantRefusalKind: 'subsidiary',
		});
	}
	return storedTokenFields(token, identity, undefined, MAIN_REFRESH_TOKEN_LIFETIME_MS);
}

/**
 * Contractor API login (credential `workOrderServiceContractorApi`): POST /jwt/token with the
 * client as Basic and username/password, or refresh_token for renewal; no grant_type (spec 4.3).
 */
export async function contractorJwtLogin(
	helpers: IHttpRequestHelper,
	credentials: ICredentialDataDecryptedObject,
): Promise<IDataObject> {
	const { authServerUrl, clientId, basic, username, password } = loginSettings(credentials);
	const tokenUrl = joinUrl(authServerUrl, '/jwt/token');
	const identity = ['jwt', authServerUrl, clientId, username].join('|');

	const refreshToken = usableRefreshToken(credentials, identity);
	if (refreshToken !== undefined) {
		const refreshed = await tryRefresh(helpers, {
			url: tokenUrl,
			form: { refresh_token: refreshToken },
			authorization: basic,
			purpose: 'JWT renewal',
			grantRefusalKind: 'invalidGrant',
		});
		if (refreshed) return storedTokenFields(refreshed, identity, refreshToken, undefined);
	}
	const token = await requestToken(helpers, {
		url: tokenUrl,
		form: { username, password },
		authorization: basic,
		purpose: 'JWT login',
		grantRefusalKind: 'invalidUser',
	});
	return storedTokenFields(token, identity, undefined, undefined);
}
