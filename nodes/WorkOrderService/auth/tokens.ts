import type {
	ICredentialDataDecryptedObject,
	IDataObject,
	IHttpRequestHelper,
	IHttpRequestOptions,
} from 'n8n-workflow';
import { createHash } from 'crypto';

import {
	WorkOrderServiceAuthError,
	isWorkOrderServiceAuthError,
	refusalError,
	throttledLoginError,
	unreachableError,
	type TokenAnswerClass,
	type TokenAsked,
} from '../transport/errors';
import {
	apiBaseUrl,
	asObject,
	bodyToText,
	headerValue,
	jsonOf,
	originOf,
	parseRetryAfter,
	settingUrl,
} from '../transport/policy';
import { SecretSet, seenTokens, tokensSeen } from '../transport/secrets';

/**
 * The one login path of the token credentials (password grant, contractor JWT).
 * `preAuthenticator(kind)` is the credential's `preAuthentication`: n8n calls it when the stored
 * access token (an `expirable` field) is empty, after a 401 (then it sends the request once more)
 * and for a credential Test, and persists what it returns. `bearerAuthentication(kind)` is its
 * `authenticate`. A throttled login fails with the wait; the client sends the request again after it.
 */

export type LoginKind = 'password' | 'contractor';

export type LoginConfig = ReturnType<typeof loginConfig>;

const TOKEN_FIELDS = [
	'accessToken',
	'refreshToken',
	'accessTokenExpiresAt',
	'accessTokenIssuedAt',
	'refreshTokenExpiresAt',
	'tokenIdentity',
	'tokenScope',
] as const;
/** The hidden fields a login writes into the credential (n8n persists them); times in ms since epoch as text, '' when unknown. */
export type StoredToken = Record<(typeof TOKEN_FIELDS)[number], string>;

export type TokenResponse = NonNullable<ReturnType<typeof readToken>>;

export interface TokenRequest extends TokenAsked {
	form: Record<string, string>;
	authorization: string;
}

export type TokenAnswerReading =
	| { kind: 'token'; token: TokenResponse }
	| { kind: 'throttled'; status: number; retryAfterMs?: number }
	| { kind: 'error'; error: WorkOrderServiceAuthError };
export type HttpRequestFn = IHttpRequestHelper['helpers']['httpRequest'];

/** Spec, section 8. */
export const MAIN_REFRESH_TOKEN_LIFETIME_MS = 30 * 24 * 3600 * 1000;
export const TOKEN_REQUEST_TIMEOUT_MS = 30 * 1000;
/** A token is renewed this much before its stored expiry (at most a tenth of its lifetime). */
const ACCESS_TOKEN_MARGIN_MS = 30_000;
const REFRESH_TOKEN_MARGIN_MS = 60_000;
/** A token sent this recently and presented again to preAuthentication was refused by the service. */
const SENT_RECENTLY_MS = 120_000;
/** A universal user's token waits this long for its child-subscriber exchange (when that was throttled). */
const UNIVERSAL_KEEP_MS = 60_000;
const MIN_THROTTLE_WAIT_MS = 250;
const MAX_ENTRIES = 500;
const MAX_REMEMBERED = 32;

/**
 * Marks the credential Test's request: a token it was sent with does not count as "sent lately", so
 * the next Test logs in afresh. `authenticate` removes the header before the request goes out.
 */
export const TEST_HEADER = 'X-Work-Order-Service-Credential-Test';

const text = (value: unknown) =>
	typeof value === 'string' ? value : value === undefined || value === null ? '' : String(value);
const configError = (message: string) => new WorkOrderServiceAuthError('configuration', message);
/** A positive finite number, also from text (token lifetimes, stored times); else undefined. */
const positive = (value: unknown) => {
	const n = typeof value === 'string' ? Number(value) : value;
	return typeof n === 'number' && Number.isFinite(n) && n > 0 ? n : undefined;
};

export function requireUrl(value: unknown, label: string): string {
	const url = settingUrl(value);
	if (url === undefined)
		throw configError(
			`The credential's ${label} must be an http(s) URL, e.g. https://login.example.com`,
		);
	return url;
}

export function normalizeBaseUrl(value: unknown): string {
	requireUrl(value, 'API Base URL');
	return apiBaseUrl(value) as string;
}

function requireText(value: unknown, label: string, trim = true): string {
	const given = typeof value === 'string' || typeof value === 'number' ? String(value) : '';
	if ((trim ? given.trim() : given) === '') throw configError(`The credential's ${label} is empty`);
	return trim ? given.trim() : given;
}

/** The credential fields a login needs, checked (secrets as typed), and the token identity. */
export function loginConfig(kind: LoginKind, credentials: ICredentialDataDecryptedObject) {
	const authServerUrl = requireUrl(credentials.authServerUrl, 'Authorization Server URL');
	const baseUrl = normalizeBaseUrl(credentials.baseUrl);
	const clientId = requireText(credentials.clientId, 'Client ID');
	const username = requireText(credentials.username, 'Username');
	const subsidiary = kind === 'password' ? text(credentials.subsidiaryId).trim() : '';
	if (subsidiary !== '' && !/^[1-9]\d{0,18}$/.test(subsidiary))
		throw configError(
			"The credential's Child Subscriber ID must be a positive whole number (or empty)",
		);
	const clientSecret = requireText(credentials.clientSecret, 'Client Secret', false);
	const password = requireText(credentials.password, 'Password', false);
	const sameUrl = (url: string) =>
		url.replace(/^[a-z]+:\/\/[^/]+/i, (prefix) => prefix.toLowerCase());
	const parts = [
		kind,
		sameUrl(authServerUrl),
		sameUrl(baseUrl),
		clientId,
		username.toLowerCase(),
		subsidiary,
		clientSecret,
		password,
	];
	return {
		kind,
		authServerUrl,
		baseUrl,
		clientId,
		clientSecret,
		username,
		password,
		subsidiaryId: subsidiary || undefined,
		basic: `Basic ${Buffer.from(`${clientId}:${clientSecret}`, 'utf8').toString('base64')}`,
		tokenUrl: `${authServerUrl}/${kind === 'password' ? 'oauth' : 'jwt'}/token`,
		identity: createHash('sha256').update(parts.join('\u0000')).digest('hex'),
	};
}

/** The secrets a login's messages must never show: the client secret, the password, and every token this process saw for the identity. */
export function loginSecrets(config: LoginConfig): SecretSet {
	const secrets = new SecretSet()
		.addBasic(config.clientId, config.clientSecret)
		.addBasic(config.username, config.password);
	for (const token of seenTokens(config.identity)) secrets.add(token);
	return secrets;
}

export function storedTokenOf(data: IDataObject | undefined): StoredToken | undefined {
	if (!data || text(data.accessToken) === '') return undefined;
	return Object.fromEntries(TOKEN_FIELDS.map((key) => [key, text(data[key])])) as StoredToken;
}

export function storedTokenFields(
	token: TokenResponse,
	identity: string,
	previousRefresh: string | undefined,
	refreshLifetimeMs: number | undefined,
	now = Date.now(),
): StoredToken {
	const refreshToken = token.refreshToken ?? previousRefresh ?? '';
	const refreshMs =
		token.refreshExpiresIn !== undefined ? token.refreshExpiresIn * 1000 : refreshLifetimeMs;
	return {
		accessToken: token.accessToken,
		refreshToken,
		accessTokenExpiresAt: token.expiresIn !== undefined ? String(now + token.expiresIn * 1000) : '',
		accessTokenIssuedAt: String(now),
		refreshTokenExpiresAt:
			refreshToken !== '' && refreshMs !== undefined ? String(now + refreshMs) : '',
		tokenIdentity: identity,
		tokenScope: token.scope ?? '',
	};
}

/* ---------------------------------------------------------------- the token endpoint */

/** A login (spec 4.1 password grant, 4.3 contractor JWT: no grant type), the client as Basic. */
export function loginRequest(config: LoginConfig): TokenRequest {
	const form = { username: config.username, password: config.password };
	if (config.kind === 'contractor')
		return {
			form,
			authorization: config.basic,
			purpose: 'JWT login',
			grantRefusalKind: 'invalidUser',
		};
	return {
		form: { grant_type: 'password', ...form },
		authorization: config.basic,
		purpose: 'password grant',
		grantRefusalKind: 'invalidUser',
	};
}

/** A renewal with the refresh token (single-use; the contractor's carries no grant type). */
export function renewalRequest(config: LoginConfig, refreshToken: string): TokenRequest {
	const form = { refresh_token: refreshToken };
	if (config.kind === 'contractor')
		return {
			form,
			authorization: config.basic,
			purpose: 'JWT renewal',
			grantRefusalKind: 'invalidGrant',
		};
	return {
		form: { grant_type: 'refresh_token', ...form },
		authorization: config.basic,
		purpose: 'token refresh',
		grantRefusalKind: 'invalidGrant',
	};
}

/** Child-subscriber exchange (spec 5.8): a universal user's token, as Bearer, for one scoped to the subsidiary. */
export function childSubscriberExchange(
	universalAccessToken: string,
	subsidiaryId: string,
): TokenRequest {
	return {
		form: { subsidiary_id: subsidiaryId },
		authorization: `Bearer ${universalAccessToken}`,
		purpose: `child subscriber selection (subsidiary ${subsidiaryId})`,
		grantRefusalKind: 'subsidiary',
	};
}

/** What an answer means, from its HTTP status and the OAuth `error` code of its body ('' when none). */
export function classifyTokenAnswer(status: number, errorCode: string): TokenAnswerClass {
	if (status === 429 || status === 503) return 'throttled';
	// a wrong client can be answered with a 302 to an HTML login page
	if (status >= 300 && status < 400) return 'redirected';
	if (status === 200 || status === 201) return 'token';
	const clientRefused = errorCode === 'invalid_client' || errorCode === 'unauthorized_client';
	if (!clientRefused && (errorCode === 'invalid_grant' || status === 400 || status === 403))
		return 'grantRefused';
	return status === 401 || clientRefused ? 'clientRefused' : 'failed';
}

export function readToken(json: IDataObject | undefined) {
	const accessToken = json?.access_token;
	if (typeof accessToken !== 'string' || accessToken === '') return undefined;
	const refreshToken = json?.refresh_token;
	return {
		accessToken,
		refreshToken:
			typeof refreshToken === 'string' && refreshToken !== '' ? refreshToken : undefined,
		expiresIn: positive(json?.expires_in),
		refreshExpiresIn: positive(json?.refresh_token_expires_in ?? json?.refresh_expires_in),
		scope: typeof json?.scope === 'string' ? json.scope : undefined,
	};
}

/** An answer of the token endpoint: the token, `throttled` with what Retry-After says, or the error that explains it. */
export function readTokenAnswer(
	answer: { status: number; headers: Record<string, unknown>; body: string },
	request: TokenAsked,
	redact: (text: string) => string,
): TokenAnswerReading {
	const json = asObject(jsonOf(answer.body)) as IDataObject | undefined;
	const errorCode = typeof json?.error === 'string' ? json.error : '';
	const answerClass = classifyTokenAnswer(answer.status, errorCode);
	if (answerClass === 'throttled')
		return {
			kind: 'throttled',
			status: answer.status,
			retryAfterMs: parseRetryAfter(headerValue(answer.headers, 'retry-after')),
		};
	const token = answerClass === 'token' ? readToken(json) : undefined;
	return token
		? { kind: 'token', token }
		: { kind: 'error', error: refusalError(answerClass, answer, errorCode, request, redact) };
}

/** One token request: POSTs the form (never following a redirect: a wrong client can be sent to a login page) and reads the answer; throws the error that explains a refusal. */
export async function requestToken(
	http: HttpRequestFn,
	config: LoginConfig,
	request: TokenRequest,
): Promise<Exclude<TokenAnswerReading, { kind: 'error' }>> {
	const redact = (words: string) => loginSecrets(config).redact(words);
	const response = (await http({
		method: 'POST',
		url: config.tokenUrl,
		body: new URLSearchParams(request.form).toString(),
		headers: {
			Authorization: request.authorization,
			'Content-Type': 'application/x-www-form-urlencoded',
			Accept: 'application/json',
		},
		disableFollowRedirect: true,
		ignoreHttpStatusErrors: true,
		returnFullResponse: true,
		encoding: 'arraybuffer',
		json: false,
		timeout: TOKEN_REQUEST_TIMEOUT_MS,
	}).catch((networkError: unknown) => {
		throw unreachableError(
			new URL(config.tokenUrl).origin,
			networkError,
			TOKEN_REQUEST_TIMEOUT_MS,
			request,
			redact,
		);
	})) as { statusCode: number; headers?: Record<string, unknown>; body: unknown };
	const reading = readTokenAnswer(
		{
			status: response.statusCode,
			headers: response.headers ?? {},
			body: bodyToText(response.body),
		},
		request,
		redact,
	);
	if (reading.kind === 'error') throw reading.error;
	return reading;
}

/* ---------------------------------------------------------------- per identity, in this process */

interface Entry {
	current?: StoredToken;
	/** Access tokens the service refused, and when this process first saw that. */
	rejected: Map<string, number>;
	/** Access tokens `authenticate` signed a request with, and when. */
	sent: Map<string, number>;
	inflight?: Promise<StoredToken>;
	throttledUntil: number;
	universal?: { token: TokenResponse; at: number };
}

const entries = new Map<string, Entry>();

/** What a restart does (tests). */
export function forgetTokens(): void {
	entries.clear();
	tokensSeen.clear();
}

/** Sets `key` as the newest entry of `map` and drops the oldest beyond `max`. */
function keepNewest<T>(map: Map<string, T>, key: string, value: T, max: number): T {
	map.delete(key);
	map.set(key, value);
	if (map.size > max) map.delete(map.keys().next().value as string);
	return value;
}

function entryOf(identity: string): Entry {
	return keepNewest(
		entries,
		identity,
		entries.get(identity) ?? {
			rejected: new Map(),
			sent: new Map(),
			throttledUntil: 0,
		},
		MAX_ENTRIES,
	);
}

/** A token seen for `identity` (transport/secrets.ts: an error shows none of them). */
function noteSeen(identity: string, token: string | undefined): void {
	if (token)
		remember(
			keepNewest(tokensSeen, identity, tokensSeen.get(identity) ?? new Map(), MAX_ENTRIES),
			token,
		);
}

/** A token and when it was last seen, among the newest MAX_REMEMBERED. */
function remember(list: Map<string, number>, key: string | undefined): void {
	if (key) keepNewest(list, key, Date.now(), MAX_REMEMBERED);
}

/** A token for this identity that was not rejected and does not expire within the margin. */
export function isUsable(
	token: StoredToken | undefined,
	config: LoginConfig,
	now = Date.now(),
): token is StoredToken {
	if (!token || token.accessToken === '' || token.tokenIdentity !== config.identity) return false;
	if (entries.get(config.identity)?.rejected.has(token.accessToken)) return false;
	const expiry = positive(token.accessTokenExpiresAt);
	const issued = positive(token.accessTokenIssuedAt);
	const margin =
		expiry !== undefined && issued !== undefined && issued < expiry
			? Math.min(ACCESS_TOKEN_MARGIN_MS, (expiry - issued) / 10)
			: 0;
	return expiry === undefined || expiry > now + margin;
}

/**
 * The credential's `preAuthentication`; returns the hidden token fields. A token presented that this
 * process signed a request with lately was refused: the newest token obtained since, else a renewal
 * (refresh token, else the password). No token: the newest token this process knows for the
 * identity, else the login in flight, else a login. A token not sent lately (a credential Test): a
 * fresh login (or the one in flight).
 */
export function preAuthenticator(kind: LoginKind) {
	return async function (
		this: IHttpRequestHelper,
		credentials: ICredentialDataDecryptedObject,
	): Promise<IDataObject> {
		const config = loginConfig(kind, credentials);
		const presented = storedTokenOf(credentials);
		const entry = entryOf(config.identity);
		noteSeen(config.identity, presented?.accessToken);
		noteSeen(config.identity, presented?.refreshToken);
		const sentAt = presented && entry.sent.get(presented.accessToken);
		const refused =
			presented !== undefined &&
			(entry.rejected.has(presented.accessToken) ||
				(sentAt !== undefined && Date.now() - sentAt < SENT_RECENTLY_MS));
		if (refused && !entry.rejected.has(presented.accessToken))
			remember(entry.rejected, presented.accessToken);
		if (entry.inflight) return { ...(await entry.inflight) };
		// a token obtained since the refusal was first seen (one obtained before may be revoked with it)
		const since = refused
			? (entry.rejected.get(presented.accessToken) ?? 0)
			: presented
				? Infinity
				: 0;
		if (
			isUsable(entry.current, config) &&
			(positive(entry.current.accessTokenIssuedAt) ?? 0) >= since
		)
			return { ...entry.current };
		const refresh = refused ? refreshTokenOf(presented, config) : undefined;
		const flight = login(config, this.helpers.httpRequest, entry, refresh).finally(() => {
			if (entry.inflight === flight) entry.inflight = undefined;
		});
		entry.inflight = flight;
		return { ...(await flight) };
	};
}

/** The refresh token of a refused token, unless it belongs to other settings or is known to be expired. */
function refreshTokenOf(token: StoredToken, config: LoginConfig): string | undefined {
	const expiry = positive(token.refreshTokenExpiresAt);
	if (token.refreshToken === '' || token.tokenIdentity !== config.identity) return undefined;
	return expiry !== undefined && expiry <= Date.now() + REFRESH_TOKEN_MARGIN_MS
		? undefined
		: token.refreshToken;
}

/** One login: the refresh token when there is one (refused: the password), then the child-subscriber exchange. */
async function login(
	config: LoginConfig,
	http: HttpRequestFn,
	entry: Entry,
	refreshToken: string | undefined,
): Promise<StoredToken> {
	let token =
		refreshToken !== undefined
			? await step(config, http, entry, renewalRequest(config, refreshToken), true)
			: undefined;
	const renewed = token !== undefined;
	if (!renewed && config.subsidiaryId !== undefined) {
		const kept =
			entry.universal && Date.now() - entry.universal.at < UNIVERSAL_KEEP_MS
				? entry.universal.token
				: undefined;
		const universal = (kept ??
			(await step(config, http, entry, loginRequest(config)))) as TokenResponse;
		entry.universal = { token: universal, at: Date.now() };
		token = await step(
			config,
			http,
			entry,
			childSubscriberExchange(universal.accessToken, config.subsidiaryId),
		);
		entry.universal = undefined;
	}
	token ??= await step(config, http, entry, loginRequest(config));
	const lifetime = config.kind === 'password' ? MAIN_REFRESH_TOKEN_LIFETIME_MS : undefined;
	entry.current = storedTokenFields(
		token as TokenResponse,
		config.identity,
		renewed ? refreshToken : undefined,
		lifetime,
	);
	return entry.current;
}

/** One token request; a refused refresh gives undefined (when `refusable`); throttling fails with the wait. */
async function step(
	config: LoginConfig,
	http: HttpRequestFn,
	entry: Entry,
	request: TokenRequest,
	refusable = false,
): Promise<TokenResponse | undefined> {
	const waitMs = entry.throttledUntil - Date.now();
	if (waitMs > 0) throw throttledLoginError(request.purpose, undefined, waitMs);
	const reading = await requestToken(http, config, request).catch((error: unknown) => {
		if (refusable && isWorkOrderServiceAuthError(error) && error.kind === 'invalidGrant')
			return undefined;
		throw error;
	});
	if (reading?.kind === 'token') {
		noteSeen(config.identity, reading.token.accessToken);
		noteSeen(config.identity, reading.token.refreshToken);
		return reading.token;
	}
	if (reading === undefined) return undefined;
	const wait = Math.max(MIN_THROTTLE_WAIT_MS, reading.retryAfterMs ?? 5_000);
	entry.throttledUntil = Date.now() + wait;
	throw throttledLoginError(request.purpose, reading.status, wait);
}

/**
 * The credential's `authenticate`: `Authorization: Bearer <token>` only when the token was issued
 * for the credential's current settings and secrets, and only to the origin of its API Base URL
 * (also in n8n's HTTP Request node); n8n's request layer carries no credential across origins.
 */
export function bearerAuthentication(kind: LoginKind) {
	return async (
		credentials: ICredentialDataDecryptedObject,
		requestOptions: IHttpRequestOptions,
	): Promise<IHttpRequestOptions> => {
		const options = requestOptions as IHttpRequestOptions & {
			sendCredentialsOnCrossOriginRedirect?: boolean;
			uri?: unknown;
		};
		options.sendCredentialsOnCrossOriginRedirect = false;
		// the credential Test's own request (see TEST_HEADER): the marker never goes on the wire
		const { [TEST_HEADER]: test, ...headers } = (options.headers ?? {}) as IDataObject;
		if (test !== undefined) options.headers = headers;
		const token = text(credentials.accessToken);
		// settings a login cannot use fail here, before anything is sent (the client does not check them)
		const config = loginConfig(kind, credentials);
		// n8n's request helpers use `url` (+ `baseURL`); its legacy request API (the HTTP Request node) uses `uri`
		const targetOrigin = originOf(String(options.url ?? options.uri ?? ''), options.baseURL);
		if (
			token === '' ||
			credentials.tokenIdentity !== config.identity ||
			targetOrigin === undefined ||
			targetOrigin !== originOf(config.baseUrl)
		)
			return options;
		if (test === undefined) remember(entryOf(config.identity).sent, token);
		options.headers = { ...headers, Authorization: `Bearer ${token}` };
		return options;
	};
}
