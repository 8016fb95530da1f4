import type { ICredentialDataDecryptedObject, IDataObject, IHttpRequestHelper, IHttpRequestOptions } from 'n8n-workflow';
import { createHash } from 'crypto';

import { WorkOrderServiceAuthError, isWorkOrderServiceAuthError, joinUrl, originOf } from '../transport/http';
import { SecretSet } from './secrets';
import {
	childSubscriberExchange,
	loginRequest,
	renewalRequest,
	requestToken,
	type HttpRequestFn,
	type TokenRequest,
} from './tokenEndpoint';

/**
 * The one login path of the token credentials (password grant, contractor JWT), through n8n's
 * documented credential mechanism:
 * - `preAuthenticate` is the credential's `preAuthentication`. n8n calls it when the stored access
 *   token (an `expirable` field) is empty, after the service answered 401 to a request signed with
 *   it (then it sends the request once more), and when the user tests the credential. What it
 *   returns n8n persists, as for any expirable credential.
 * - `bearerAuthentication` is the credential's `authenticate`: the stored token goes only to the
 *   origin of the API Base URL, and only while it was issued for the credential's current servers,
 *   client, user, child subscriber and secrets (the token identity, a one-way digest).
 *
 * Per identity, in this process: one login at a time (concurrent callers share it), the newest
 * token (handed to a caller whose token the service rejected, when another caller already renewed
 * it), the rejected tokens, and when the token endpoint takes requests again after throttling.
 * A throttled login is not waited out here: it fails with `retryAfterMs`, the client sends the
 * request again after that wait, and n8n reads the credential afresh for it, so a token another
 * worker saved meanwhile is used instead of a second login.
 */

export type LoginKind = 'password' | 'contractor';

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
	/** Which settings and secrets a token belongs to: a SHA-256 digest, never the secrets themselves. */
	identity: string;
	secrets: SecretSet;
}

/** The hidden fields a login writes into the credential (n8n persists them). */
export interface StoredToken {
	accessToken: string;
	refreshToken: string;
	/** ms since epoch as text, '' when unknown */
	accessTokenExpiresAt: string;
	accessTokenIssuedAt: string;
	refreshTokenExpiresAt: string;
	tokenIdentity: string;
	tokenScope: string;
}

/** A token as the token endpoint issued it. */
export interface TokenResponse {
	accessToken: string;
	refreshToken?: string;
	expiresIn?: number;
	refreshExpiresIn?: number;
	scope?: string;
}

/** Main API refresh tokens live 30 days (spec, section 8). */
export const MAIN_REFRESH_TOKEN_LIFETIME_MS = 30 * 24 * 3600 * 1000;
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

/** Validates a configured http(s) URL; returns it without trailing slashes. */
export function requireUrl(value: unknown, label: string): string {
	const text = typeof value === 'string' ? value.trim() : '';
	if (!/^https?:\/\/[^\s/]+/i.test(text)) {
		throw new WorkOrderServiceAuthError('configuration', `The credential's ${label} must be an http(s) URL, e.g. https://login.example.com`);
	}
	return text.replace(/\/+$/, '');
}

/** The API Base URL as the node uses it: no trailing slash, no /v3 (the node appends it). */
export function normalizeBaseUrl(value: unknown): string {
	return requireUrl(value, 'API Base URL').replace(/\/v3$/i, '');
}

function requireText(value: unknown, label: string, trim = true): string {
	const text = typeof value === 'string' ? (trim ? value.trim() : value) : typeof value === 'number' ? String(value) : '';
	if (text === '') throw new WorkOrderServiceAuthError('configuration', `The credential's ${label} is empty`);
	return text;
}

/** The optional Child Subscriber ID of a password-grant credential: a positive whole number or nothing. */
function optionalSubsidiaryId(raw: unknown): string | undefined {
	const text = raw === undefined || raw === null ? '' : String(raw).trim();
	if (text === '') return undefined;
	if (!/^[1-9]\d{0,18}$/.test(text)) {
		throw new WorkOrderServiceAuthError('configuration', "The credential's Child Subscriber ID must be a positive whole number (or empty)");
	}
	return text;
}

const sameUrlKey = (url: string) => url.replace(/^[a-z]+:\/\/[^/]+/i, (prefix) => prefix.toLowerCase());

/** Reads and checks the credential fields a login needs (secrets as typed); computes the token identity. */
export function loginConfig(kind: LoginKind, credentials: ICredentialDataDecryptedObject): LoginConfig {
	const authServerUrl = requireUrl(credentials.authServerUrl, 'Authorization Server URL');
	const baseUrl = normalizeBaseUrl(credentials.baseUrl);
	const clientId = requireText(credentials.clientId, 'Client ID');
	const username = requireText(credentials.username, 'Username');
	const subsidiaryId = kind === 'password' ? optionalSubsidiaryId(credentials.subsidiaryId) : undefined;
	const clientSecret = requireText(credentials.clientSecret, 'Client Secret', false);
	const password = requireText(credentials.password, 'Password', false);
	const parts = [kind, sameUrlKey(authServerUrl), sameUrlKey(baseUrl), clientId, username.toLowerCase(), subsidiaryId ?? '', clientSecret, password];
	return {
		kind,
		authServerUrl,
		baseUrl,
		clientId,
		username,
		password,
		subsidiaryId,
		basic: `Basic ${Buffer.from(`${clientId}:${clientSecret}`, 'utf8').toString('base64')}`,
		tokenUrl: joinUrl(authServerUrl, kind === 'password' ? '/oauth/token' : '/jwt/token'),
		identity: createHash('sha256').update(parts.join('\u0000')).digest('hex'),
		secrets: new SecretSet().addBasic(clientId, clientSecret).addBasic(username, password),
	};
}

const text = (value: unknown) => (typeof value === 'string' ? value : value === undefined || value === null ? '' : String(value));

/** The stored token fields of a credential, as text; undefined when it holds no access token. */
export function storedTokenOf(data: IDataObject | undefined): StoredToken | undefined {
	if (!data || text(data.accessToken) === '') return undefined;
	const fields = ['accessToken', 'refreshToken', 'accessTokenExpiresAt', 'accessTokenIssuedAt', 'refreshTokenExpiresAt', 'tokenIdentity', 'tokenScope'];
	return Object.fromEntries(fields.map((key) => [key, text(data[key])])) as unknown as StoredToken;
}

/** What a login stores in the credential (hidden fields); n8n persists it. */
export function storedTokenFields(token: TokenResponse, identity: string, previousRefresh: string | undefined, refreshLifetimeMs: number | undefined, now = Date.now()): StoredToken {
	const refreshToken = token.refreshToken ?? previousRefresh ?? '';
	const refreshMs = token.refreshExpiresIn !== undefined ? token.refreshExpiresIn * 1000 : refreshLifetimeMs;
	return {
		accessToken: token.accessToken,
		refreshToken,
		accessTokenExpiresAt: token.expiresIn !== undefined ? String(now + token.expiresIn * 1000) : '',
		accessTokenIssuedAt: String(now),
		refreshTokenExpiresAt: refreshToken !== '' && refreshMs !== undefined ? String(now + refreshMs) : '',
		tokenIdentity: identity,
		tokenScope: token.scope ?? '',
	};
}

/** A stored time (ms since epoch as text); undefined when empty or unreadable. */
export function timeOf(value: string): number | undefined {
	const n = value === '' ? NaN : Number(value);
	return Number.isFinite(n) && n > 0 ? n : undefined;
}

/** What this process knows about one identity. */
interface Entry {
	current?: StoredToken;
	/** Access tokens the service refused, and when this process first saw that. */
	rejected: Map<string, number>;
	/** Access tokens `authenticate` signed a request with, and when. */
	sent: Map<string, number>;
	inflight?: Promise<StoredToken>;
	throttledUntil: number;
	universal?: { token: TokenResponse; at: number };
	/** Every token seen (for redaction). */
	seen: string[];
}

const entries = new Map<string, Entry>();

function entryOf(identity: string): Entry {
	let entry = entries.get(identity);
	if (entry) entries.delete(identity);
	else entry = { rejected: new Map(), sent: new Map(), throttledUntil: 0, seen: [] };
	entries.set(identity, entry);
	if (entries.size > MAX_ENTRIES) entries.delete(entries.keys().next().value as string);
	return entry;
}

function noteRefused(entry: Entry, accessToken: string): void {
	if (!entry.rejected.has(accessToken)) entry.rejected.set(accessToken, Date.now());
	if (entry.rejected.size > MAX_REMEMBERED) entry.rejected.delete(entry.rejected.keys().next().value as string);
}

function remember(list: string[], value: string | undefined): void {
	if (!value || list.includes(value)) return;
	list.push(value);
	if (list.length > MAX_REMEMBERED) list.shift();
}

/** A token for this identity that was not rejected and does not expire within the margin. */
export function isUsable(token: StoredToken | undefined, config: LoginConfig, now = Date.now()): token is StoredToken {
	if (!token || token.accessToken === '' || token.tokenIdentity !== config.identity) return false;
	if (entryOf(config.identity).rejected.has(token.accessToken)) return false;
	const expiry = timeOf(token.accessTokenExpiresAt);
	if (expiry === undefined) return true;
	const issued = timeOf(token.accessTokenIssuedAt);
	const margin = issued !== undefined && issued < expiry ? Math.min(ACCESS_TOKEN_MARGIN_MS, (expiry - issued) / 10) : 0;
	return expiry > now + margin;
}

/** Every token this process has seen for the identity (for redaction). */
export function knownTokens(config: LoginConfig): string[] {
	return [...entryOf(config.identity).seen];
}

/** Whether the service refused this token: this process signed a request with it lately, or saw it refused. */
function wasRefused(entry: Entry, accessToken: string): boolean {
	const at = entry.sent.get(accessToken);
	return entry.rejected.has(accessToken) || (at !== undefined && Date.now() - at < SENT_RECENTLY_MS);
}

/**
 * The credential's `preAuthentication`. A token presented that this process signed a request with
 * lately was refused by the service: the newest token another caller obtained, else a renewal
 * (refresh token, else the password). A token presented that was not (a credential Test) or no
 * token: a fresh login with the stored secrets. Returns the hidden token fields.
 */
export async function preAuthenticate(kind: LoginKind, helpers: IHttpRequestHelper, credentials: ICredentialDataDecryptedObject): Promise<IDataObject> {
	const config = loginConfig(kind, credentials);
	const presented = storedTokenOf(credentials);
	config.secrets.add(presented?.accessToken).add(presented?.refreshToken);
	const entry = entryOf(config.identity);
	const http = helpers.helpers.httpRequest;
	const refused = presented !== undefined && wasRefused(entry, presented.accessToken);
	if (refused) noteRefused(entry, presented.accessToken);
	// a login of these settings and secrets in flight: a fresh token request, shared
	if (entry.inflight) return { ...(await entry.inflight) };
	// a token obtained since the refusal was first seen (one obtained before may be revoked with it)
	const since = refused ? (entry.rejected.get(presented.accessToken) ?? 0) : Infinity;
	if (isUsable(entry.current, config) && (timeOf(entry.current.accessTokenIssuedAt) ?? 0) >= since) return { ...entry.current };
	const refresh = refused ? refreshTokenOf(presented, config) : undefined;
	const flight = login(config, http, entry, refresh).finally(() => {
		if (entry.inflight === flight) entry.inflight = undefined;
	});
	entry.inflight = flight;
	return { ...(await flight) };
}

/** The refresh token of a refused token, unless it belongs to other settings or is known to be expired. */
function refreshTokenOf(token: StoredToken, config: LoginConfig): string | undefined {
	const expiry = timeOf(token.refreshTokenExpiresAt);
	if (token.refreshToken === '' || token.tokenIdentity !== config.identity) return undefined;
	return expiry !== undefined && expiry <= Date.now() + REFRESH_TOKEN_MARGIN_MS ? undefined : token.refreshToken;
}

/** One login: the refresh token when there is one (refused: the password), then the child-subscriber exchange. */
async function login(config: LoginConfig, http: HttpRequestFn, entry: Entry, refreshToken: string | undefined): Promise<StoredToken> {
	let token = refreshToken !== undefined ? await step(config, http, entry, renewalRequest(config, refreshToken), true) : undefined;
	const renewed = token !== undefined;
	if (!renewed && config.subsidiaryId !== undefined) {
		const kept = entry.universal && Date.now() - entry.universal.at < UNIVERSAL_KEEP_MS ? entry.universal.token : undefined;
		const universal = kept ?? (await step(config, http, entry, loginRequest(config)));
		entry.universal = { token: universal as TokenResponse, at: Date.now() };
		token = await step(config, http, entry, childSubscriberExchange((universal as TokenResponse).accessToken, config.subsidiaryId));
		entry.universal = undefined;
	}
	token ??= await step(config, http, entry, loginRequest(config));
	const lifetime = config.kind === 'password' ? MAIN_REFRESH_TOKEN_LIFETIME_MS : undefined;
	const stored = storedTokenFields(token as TokenResponse, config.identity, renewed ? refreshToken : undefined, lifetime);
	entry.current = stored;
	remember(entry.seen, stored.accessToken);
	remember(entry.seen, stored.refreshToken);
	return stored;
}

/** One token request; a refused refresh gives undefined (when `refusable`); throttling fails with the wait. */
async function step(config: LoginConfig, http: HttpRequestFn, entry: Entry, request: TokenRequest, refusable = false): Promise<TokenResponse | undefined> {
	const waitMs = entry.throttledUntil - Date.now();
	if (waitMs > 0) throw throttledError(config, request.purpose, undefined, waitMs);
	const reading = await requestToken(http, config, request).catch((error: unknown) => {
		if (refusable && isWorkOrderServiceAuthError(error) && error.kind === 'invalidGrant') return undefined;
		throw error;
	});
	if (reading === undefined) return undefined;
	if (reading.kind === 'token') {
		config.secrets.add(reading.token.accessToken).add(reading.token.refreshToken);
		remember(entry.seen, reading.token.accessToken);
		remember(entry.seen, reading.token.refreshToken);
		return reading.token;
	}
	const wait = Math.max(MIN_THROTTLE_WAIT_MS, reading.retryAfterMs ?? 5_000);
	entry.throttledUntil = Date.now() + wait;
	throw throttledError(config, request.purpose, reading.status, wait);
}

function throttledError(config: LoginConfig, purpose: string, status: number | undefined, waitMs: number) {
	const answered = status !== undefined ? ` (HTTP ${status})` : '';
	return new WorkOrderServiceAuthError(
		'throttled',
		config.secrets.redact(
			`The authorization server throttled the ${purpose}${answered}; it takes token requests again in ${Math.ceil(waitMs / 1000)} s. It allows about one token request per 5 seconds per user; tokens are cached and shared, so this clears once the burst is over.`,
		),
		status,
		waitMs,
	);
}

/**
 * Marks the credential Test's request (`credentialTest`): a token it was sent with does not count
 * as "sent lately", so the next Test logs in afresh instead of taking it for a refused token.
 * `authenticate` removes the header before the request goes out.
 */
export const TEST_HEADER = 'X-Work-Order-Service-Credential-Test';

function noteSent(entry: Entry, token: string): void {
	entry.sent.delete(token);
	entry.sent.set(token, Date.now());
	if (entry.sent.size > MAX_REMEMBERED) entry.sent.delete(entry.sent.keys().next().value as string);
}

/**
 * The credential's `authenticate`: `Authorization: Bearer <token>` only when the token was issued
 * for the credential's current settings and secrets, and only to the origin of its API Base URL
 * (also in n8n's HTTP Request node); n8n's request layer carries no credential across origins.
 */
export function bearerAuthentication(kind: LoginKind) {
	return async (credentials: ICredentialDataDecryptedObject, requestOptions: IHttpRequestOptions): Promise<IHttpRequestOptions> => {
		const options = requestOptions as IHttpRequestOptions & { sendCredentialsOnCrossOriginRedirect?: boolean; uri?: unknown };
		options.sendCredentialsOnCrossOriginRedirect = false;
		// the credential Test's own request (see TEST_HEADER): the marker never goes on the wire
		const { [TEST_HEADER]: test, ...headers } = (options.headers ?? {}) as IDataObject;
		if (test !== undefined) options.headers = headers;
		const token = text(credentials.accessToken);
		let config: LoginConfig;
		try {
			config = loginConfig(kind, credentials);
		} catch {
			return options;
		}
		// n8n's request helpers use `url` (+ `baseURL`); its legacy request API (the HTTP Request node) uses `uri`.
		const url = String(options.url ?? options.uri ?? '');
		const target = /^https?:\/\//i.test(url) || !options.baseURL ? url : joinUrl(options.baseURL, url);
		const targetOrigin = originOf(target);
		if (token === '' || credentials.tokenIdentity !== config.identity || targetOrigin === undefined || targetOrigin !== originOf(config.baseUrl)) {
			return options;
		}
		if (test === undefined) noteSent(entryOf(config.identity), token);
		options.headers = { ...headers, Authorization: `Bearer ${token}` };
		return options;
	};
}
