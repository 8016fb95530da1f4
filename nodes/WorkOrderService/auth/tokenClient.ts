import type { ICredentialDataDecryptedObject, IDataObject, IHttpRequestHelper } from 'n8n-workflow';
import { createHash } from 'crypto';

import {
	WorkOrderServiceAuthError,
	bodyToText,
	headerValue,
	joinUrl,
	looksLikeHtml,
	parseRetryAfter,
	serviceMessage,
} from './http';
import { SecretSet } from './secrets';

/**
 * Token logins of the password-grant and contractor (JWT) credentials: what is sent to the token
 * endpoint, and how its answers are read. One call of `requestTokenOnce` is one HTTP request;
 * waiting, retrying and coordination between callers live in `tokenBroker.ts`.
 *
 * Error messages name the cause (wrong client, wrong user, throttled, unreachable, redirected to a
 * login page) and pass through the credential's secret set, so no secret can reach them.
 */

/** Main API refresh tokens live 30 days (spec, section 8). */
export const MAIN_REFRESH_TOKEN_LIFETIME_MS = 30 * 24 * 3600 * 1000;
/** Each token request waits at most this long for an answer (the README states it). */
export const TOKEN_REQUEST_TIMEOUT_MS = 30 * 1000;

export type HttpRequestFn = IHttpRequestHelper['helpers']['httpRequest'];

export type LoginKind = 'password' | 'contractor';

/** What a credential says about its login, checked before anything is sent. */
export interface LoginConfig {
	kind: LoginKind;
	authServerUrl: string;
	/** API Base URL without /v3 and trailing slashes. */
	baseUrl: string;
	clientId: string;
	username: string;
	password: string;
	subsidiaryId?: string;
	/** `Basic BASE64(client_id:client_secret)` */
	basic: string;
	tokenUrl: string;
	/**
	 * Which settings a token belongs to (no secrets): a stored token is used only while the
	 * credential still has the same servers, client, user and child subscriber.
	 */
	identity: string;
	/** identity + a digest of the secrets: tokens are shared only with callers that know the same secrets. */
	key: string;
	secrets: SecretSet;
}

/** The hidden fields a login writes into the credential (n8n persists them). */
export interface StoredToken {
	accessToken: string;
	refreshToken: string;
	/** ms since epoch as text, '' when unknown */
	accessTokenExpiresAt: string;
	/** when the access token was issued (ms since epoch as text, '' when unknown) */
	accessTokenIssuedAt: string;
	refreshTokenExpiresAt: string;
	tokenIdentity: string;
	tokenScope: string;
}

export interface TokenResponse {
	accessToken: string;
	refreshToken?: string;
	expiresIn?: number;
	refreshExpiresIn?: number;
	scope?: string;
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

/** The API Base URL as the node uses it: no trailing slash, no /v3 (the node appends it). */
export function normalizeBaseUrl(value: unknown): string {
	return requireUrl(value, 'API Base URL').replace(/\/v3$/i, '');
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

function sameUrlKey(url: string): string {
	return url.replace(/^[a-z]+:\/\/[^/]+/i, (prefix) => prefix.toLowerCase());
}

/** Which settings a token belongs to (no secrets), from the credential's fields; throws when they are unusable. */
export function tokenIdentity(kind: LoginKind, credentials: ICredentialDataDecryptedObject) {
	const authServerUrl = requireUrl(credentials.authServerUrl, 'Authorization Server URL');
	const baseUrl = normalizeBaseUrl(credentials.baseUrl);
	const clientId = requireText(credentials.clientId, 'Client ID');
	const username = requireText(credentials.username, 'Username');
	let subsidiaryId: string | undefined;
	if (kind === 'password') {
		const raw = credentials.subsidiaryId;
		subsidiaryId = raw === undefined || raw === null || String(raw).trim() === '' ? undefined : String(raw).trim();
		if (subsidiaryId !== undefined && !/^[1-9]\d{0,18}$/.test(subsidiaryId)) {
			throw new WorkOrderServiceAuthError(
				'configuration',
				"The credential's Child Subscriber ID must be a positive whole number (or empty)",
			);
		}
	}
	const identity = [
		kind === 'password' ? 'oauth' : 'jwt',
		sameUrlKey(authServerUrl),
		sameUrlKey(baseUrl),
		clientId,
		username.toLowerCase(),
		subsidiaryId ?? '',
	].join('|');
	return { authServerUrl, baseUrl, clientId, username, subsidiaryId, identity };
}

/** Reads and checks the credential fields a login needs; computes the token identity. */
export function loginConfig(kind: LoginKind, credentials: ICredentialDataDecryptedObject): LoginConfig {
	const { authServerUrl, baseUrl, clientId, username, subsidiaryId, identity } = tokenIdentity(kind, credentials);
	const clientSecret = requireSecret(credentials.clientSecret, 'Client Secret');
	const password = requireSecret(credentials.password, 'Password');
	const key = createHash('sha256').update(`${identity}\u0000${clientSecret}\u0000${password}`).digest('hex');
	const secrets = new SecretSet().addBasic(clientId, clientSecret).addBasic(username, password);
	return {
		kind,
		authServerUrl,
		baseUrl,
		clientId,
		username,
		password,
		subsidiaryId,
		basic: basicAuthHeader(clientId, clientSecret),
		tokenUrl: joinUrl(authServerUrl, kind === 'password' ? '/oauth/token' : '/jwt/token'),
		identity,
		key,
		secrets,
	};
}

/** The stored token fields of a credential (or of a token record), as text. */
export function storedTokenOf(data: IDataObject | undefined): StoredToken | undefined {
	if (!data) return undefined;
	const text = (value: unknown) => (typeof value === 'string' ? value : value === undefined || value === null ? '' : String(value));
	const accessToken = text(data.accessToken);
	if (accessToken === '') return undefined;
	return {
		accessToken,
		refreshToken: text(data.refreshToken),
		accessTokenExpiresAt: text(data.accessTokenExpiresAt),
		accessTokenIssuedAt: text(data.accessTokenIssuedAt),
		refreshTokenExpiresAt: text(data.refreshTokenExpiresAt),
		tokenIdentity: text(data.tokenIdentity),
		tokenScope: text(data.tokenScope),
	};
}

/** What a login stores in the credential (hidden fields); n8n persists it. */
export function storedTokenFields(
	token: TokenResponse,
	identity: string,
	previousRefreshToken: string | undefined,
	defaultRefreshLifetimeMs: number | undefined,
	now = Date.now(),
): StoredToken {
	const refreshToken = token.refreshToken ?? previousRefreshToken ?? '';
	const refreshLifetimeMs =
		token.refreshExpiresIn !== undefined ? token.refreshExpiresIn * 1000 : defaultRefreshLifetimeMs;
	return {
		accessToken: token.accessToken,
		refreshToken,
		accessTokenExpiresAt: token.expiresIn !== undefined ? String(now + token.expiresIn * 1000) : '',
		accessTokenIssuedAt: String(now),
		refreshTokenExpiresAt:
			refreshToken !== '' && refreshLifetimeMs !== undefined ? String(now + refreshLifetimeMs) : '',
		tokenIdentity: identity,
		tokenScope: token.scope ?? '',
	};
}

function parseJsonObject(text: string): IDataObject | undefined {
	try {
		const value: unknown = JSON.parse(text);
		return value !== null && typeof value === 'object' && !Array.isArray(value) ? (value as IDataObject) : undefined;
	} catch {
		return undefined;
	}
}

function describeNetworkError(error: unknown): string {
	const err = error as { code?: unknown; cause?: { code?: unknown }; message?: unknown };
	const code = err?.code ?? err?.cause?.code;
	if (typeof code === 'string' && code !== '') return code === 'ECONNABORTED' ? 'timed out' : code;
	if (typeof err?.message === 'string' && /timeout|timed out/i.test(err.message)) return 'timed out';
	return 'network error';
}

export interface TokenRequest {
	form: Record<string, string>;
	/** Basic (client) or Bearer (child-subscriber exchange) */
	authorization: string;
	/** Words for messages: "password grant", "token refresh", ... */
	purpose: string;
	/** Which refusals mean "this grant is not valid" (a refused refresh leads to a new login). */
	grantRefusalKind: 'invalidUser' | 'invalidGrant' | 'subsidiary';
}

export type TokenOutcome =
	| { kind: 'token'; token: TokenResponse }
	| { kind: 'throttled'; status: number; retryAfterMs?: number };

/**
 * POSTs one form to the token endpoint, once. Returns the token, or `throttled` (429/503) with
 * what Retry-After says; throws a WorkOrderServiceAuthError that explains any other outcome.
 */
export async function requestTokenOnce(
	httpRequest: HttpRequestFn,
	config: LoginConfig,
	request: TokenRequest,
	timeoutMs = TOKEN_REQUEST_TIMEOUT_MS,
): Promise<TokenOutcome> {
	const fail = (kind: WorkOrderServiceAuthError['kind'], message: string, status?: number) =>
		new WorkOrderServiceAuthError(kind, config.secrets.redact(message), status);
	const origin = new URL(config.tokenUrl).origin;
	let response: { statusCode: number; headers?: Record<string, unknown>; body: unknown };
	try {
		response = (await httpRequest({
			method: 'POST',
			url: config.tokenUrl,
			body: new URLSearchParams(request.form).toString(),
			headers: {
				Authorization: request.authorization,
				'Content-Type': 'application/x-www-form-urlencoded',
				Accept: 'application/json',
			},
			// A wrong client can be answered with a 302 to an HTML login page: report it, never follow it.
			disableFollowRedirect: true,
			ignoreHttpStatusErrors: true,
			returnFullResponse: true,
			encoding: 'arraybuffer',
			json: false,
			timeout: timeoutMs,
		})) as typeof response;
	} catch (networkError) {
		throw fail(
			'unreachable',
			`Could not reach the authorization server at ${origin} (${describeNetworkError(networkError)}; each token request waits at most ${Math.round(timeoutMs / 1000)} s) during the ${request.purpose}. Check the Authorization Server URL and the network.`,
		);
	}
	const statusCode = response.statusCode;
	const headers = response.headers ?? {};
	const body = bodyToText(response.body);
	const contentType = headerValue(headers, 'content-type') ?? '';
	if (statusCode === 429 || statusCode === 503) {
		return { kind: 'throttled', status: statusCode, retryAfterMs: parseRetryAfter(headerValue(headers, 'retry-after')) };
	}
	if (statusCode >= 300 && statusCode < 400) {
		throw fail(
			'redirected',
			`Client credentials or authorization URL rejected: the authorization server answered the ${request.purpose} with a redirect (HTTP ${statusCode}) to a login page. Check the Client ID, the Client Secret and the Authorization Server URL (production and sandbox clients differ).`,
			statusCode,
		);
	}
	const json = parseJsonObject(body);
	if (statusCode === 200 || statusCode === 201) {
		const accessToken = json?.access_token;
		if (typeof accessToken !== 'string' || accessToken === '') {
			const what = looksLikeHtml(body, contentType) ? 'an HTML page' : 'a response without access_token';
			throw fail(
				'badResponse',
				`The authorization server answered the ${request.purpose} with ${what} instead of a token. Check the Authorization Server URL (it is the address that serves /oauth/token and /jwt/token).`,
				statusCode,
			);
		}
		const positive = (value: unknown) => {
			const n = typeof value === 'string' ? Number(value) : value;
			return typeof n === 'number' && Number.isFinite(n) && n > 0 ? n : undefined;
		};
		return {
			kind: 'token',
			token: {
				accessToken,
				refreshToken: typeof json?.refresh_token === 'string' && json.refresh_token !== '' ? json.refresh_token : undefined,
				expiresIn: positive(json?.expires_in),
				refreshExpiresIn: positive(json?.refresh_token_expires_in ?? json?.refresh_expires_in),
				scope: typeof json?.scope === 'string' ? json.scope : undefined,
			},
		};
	}
	const reason = looksLikeHtml(body, contentType) ? undefined : serviceMessage(body, contentType);
	const reasonText = reason ? `: ${reason}` : '';
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
		throw fail(
			request.grantRefusalKind,
			`${words[request.grantRefusalKind]} (HTTP ${statusCode}) during the ${request.purpose}${reasonText}.${hint[request.grantRefusalKind]}`,
			statusCode,
		);
	}
	if (statusCode === 401 || clientRefused) {
		if (request.grantRefusalKind === 'subsidiary' && errorCode !== 'invalid_client') {
			throw fail(
				'subsidiary',
				`The child subscriber could not be selected (HTTP ${statusCode})${reasonText}. Check the Child Subscriber ID and that the user is a universal user with access to it.`,
				statusCode,
			);
		}
		throw fail(
			'invalidClient',
			`Client credentials rejected by the authorization server (HTTP ${statusCode}) during the ${request.purpose}${reasonText}. Check the Client ID and Client Secret, and that the client belongs to this environment.`,
			statusCode,
		);
	}
	throw fail('badResponse', `The authorization server failed the ${request.purpose} with HTTP ${statusCode}${reasonText}.`, statusCode);
}
