import type { ICredentialDataDecryptedObject, IDataObject, IHttpRequestHelper } from 'n8n-workflow';
import { sleep } from 'n8n-workflow';

import { WorkOrderServiceAuthError, isWorkOrderServiceAuthError } from './http';
import {
	MAIN_REFRESH_TOKEN_LIFETIME_MS,
	TOKEN_REQUEST_TIMEOUT_MS,
	loginConfig,
	requestTokenOnce,
	storedTokenFields,
	storedTokenOf,
	type HttpRequestFn,
	type LoginConfig,
	type LoginKind,
	type StoredToken,
	type TokenRequest,
	type TokenResponse,
} from './tokenClient';

/**
 * Login coordination, process-wide.
 *
 * n8n runs a credential's `preAuthentication` per request, without a lock, and a node has no lock
 * either. The broker below holds, per credential identity (servers, client, user, child
 * subscriber, and a digest of the secrets), the newest token this process knows, the tokens the
 * service rejected, and the one login in flight. So:
 * - K concurrent first requests cause one login; K requests that hit an expired token, one re-login;
 *   callers that lost the race take the winner's token.
 * - Across processes (n8n queue mode, several workers): before a login, after a refused refresh
 *   (refresh tokens are single-use) and while the token endpoint throttles, the node re-reads the
 *   credential as n8n stores it (`getCredentials` reads the database) and takes a newer token that
 *   another execution or worker saved, instead of logging in again.
 * - Waits for the token endpoint (about one request per 5 s per user) are budgeted for a crowd:
 *   up to TOKEN_WAIT_BUDGET_MS in all, re-checking the stored credential while waiting.
 */

/**
 * A token is renewed a little before its stored expiry (saves a 401 per expiry): 30 s, or a tenth
 * of its lifetime when that is shorter; without a known issue time, at its expiry.
 */
const ACCESS_TOKEN_MARGIN_MS = 30_000;
const ACCESS_TOKEN_MARGIN_SHARE = 0.1;
const REFRESH_TOKEN_MARGIN_MS = 60_000;
/** Longest total wait for the token endpoint (throttling) within one login. */
export const TOKEN_WAIT_BUDGET_MS = 120_000;
/** How often the stored credential is re-read while waiting. */
const STORE_POLL_MS = 500;
/** A throttled token request is not repeated sooner than this, whatever Retry-After says. */
const MIN_THROTTLE_WAIT_MS = 250;
/** At most this many token requests within one login (each throttled one included). */
const MAX_TOKEN_ATTEMPTS = 8;
/**
 * After a refused refresh, how long to look for the token that whoever used the refresh token
 * first has saved, before logging in with the password (the token endpoint's per-user window).
 */
const REFUSED_REFRESH_GRACE_MS = 5_000;
const MAX_ENTRIES = 500;
const MAX_REMEMBERED = 32;

interface Entry {
	current?: StoredToken;
	/** Credentials (by id) known to hold `current` in n8n's store ('*': saved by n8n through preAuthentication). */
	persisted: Set<string>;
	rejected: string[];
	inflight?: Promise<StoredToken>;
	/** Every access and refresh token seen for this identity (for redaction). */
	seen: string[];
	/** Access tokens this process obtained itself from the token endpoint (the others were read from n8n's store). */
	own: string[];
}

function remember(list: string[], value: string): void {
	if (value === '' || list.includes(value)) return;
	list.push(value);
	if (list.length > MAX_REMEMBERED) list.shift();
}

class TokenBroker {
	private readonly entries = new Map<string, Entry>();

	entry(key: string): Entry {
		let entry = this.entries.get(key);
		if (entry) {
			// Most recently used last, so that the oldest identity is the one dropped.
			this.entries.delete(key);
		} else {
			entry = { persisted: new Set(), rejected: [], seen: [], own: [] };
		}
		this.entries.set(key, entry);
		if (this.entries.size > MAX_ENTRIES) {
			const oldest = this.entries.keys().next().value;
			if (oldest !== undefined && oldest !== key) this.entries.delete(oldest);
		}
		return entry;
	}
}

const broker = new TokenBroker();

function expiresAt(value: string): number | undefined {
	if (value === '') return undefined;
	const n = Number(value);
	return Number.isFinite(n) && n > 0 ? n : undefined;
}

/** A token that belongs to these settings, was not rejected and does not expire within the margin. */
export function isUsable(token: StoredToken | undefined, config: LoginConfig, now = Date.now()): token is StoredToken {
	if (!token || token.accessToken === '' || token.tokenIdentity !== config.identity) return false;
	if (broker.entry(config.key).rejected.includes(token.accessToken)) return false;
	const expiry = expiresAt(token.accessTokenExpiresAt);
	if (expiry === undefined) return true;
	const issued = expiresAt(token.accessTokenIssuedAt);
	const margin = issued !== undefined && issued < expiry ? Math.min(ACCESS_TOKEN_MARGIN_MS, (expiry - issued) * ACCESS_TOKEN_MARGIN_SHARE) : 0;
	return expiry > now + margin;
}

/**
 * The refresh token to try, from the sources in order of preference; a refresh token that any
 * source knows to be expired is not tried.
 */
function pickRefreshToken(config: LoginConfig, sources: Array<StoredToken | undefined>, now = Date.now()): string | undefined {
	const expired = new Set<string>();
	for (const token of sources) {
		const expiry = token ? expiresAt(token.refreshTokenExpiresAt) : undefined;
		if (token && expiry !== undefined && expiry <= now + REFRESH_TOKEN_MARGIN_MS) expired.add(token.refreshToken);
	}
	for (const token of sources) {
		if (!token || token.refreshToken === '' || token.tokenIdentity !== config.identity) continue;
		if (!expired.has(token.refreshToken)) return token.refreshToken;
	}
	return undefined;
}

function adopt(config: LoginConfig, token: StoredToken, persistedIn?: string): StoredToken {
	const entry = broker.entry(config.key);
	if (entry.current?.accessToken !== token.accessToken) {
		entry.current = token;
		entry.persisted = new Set();
	}
	if (persistedIn !== undefined) entry.persisted.add(persistedIn);
	remember(entry.seen, token.accessToken);
	remember(entry.seen, token.refreshToken);
	config.secrets.add(token.accessToken).add(token.refreshToken);
	return token;
}

/** The service rejected this access token (401): never hand it out again. */
export function rejectToken(config: LoginConfig, accessToken: string): void {
	if (accessToken === '') return;
	const entry = broker.entry(config.key);
	remember(entry.rejected, accessToken);
	remember(entry.seen, accessToken);
}

/**
 * Whether this process obtained the access token itself (a fresh login or refresh). A token read
 * from n8n's store may have been saved by another worker before the service revoked all tokens.
 */
export function isOwnToken(config: LoginConfig, accessToken: string | undefined): boolean {
	return accessToken !== undefined && broker.entry(config.key).own.includes(accessToken);
}

/** Every token this process has seen for the identity (for redaction). */
export function knownTokens(config: LoginConfig): string[] {
	return [...broker.entry(config.key).seen];
}

export interface LoginEnvironment {
	httpRequest: HttpRequestFn;
	/** Reads the credential as n8n stores it now (the node's getCredentials); absent in preAuthentication. */
	readStored?: () => Promise<IDataObject | undefined>;
	/** Bound of each token request. */
	tokenTimeoutMs?: number;
	/** Bound of all waiting for the token endpoint within one login. */
	waitBudgetMs?: number;
	/** The credential `readStored` reads (its id). */
	credentialId?: string;
}

/** A credential that has never held a token (as created, or as n8n hands it over before a first login). */
export function isFresh(credentials: IDataObject | undefined): boolean {
	const text = (value: unknown) => (typeof value === 'string' ? value : '');
	return text(credentials?.accessToken) === '' && text(credentials?.tokenIdentity) === '';
}

/**
 * A usable token for these settings: the newest one this process knows, one another execution or
 * worker saved, or a new login (refresh token first, password next, then the child-subscriber
 * exchange). One login per identity at a time; concurrent callers share its outcome. A credential
 * that never held a token logs in itself (or joins a login in flight) rather than taking a token
 * that another credential with the same settings holds.
 */
export async function obtainToken(config: LoginConfig, env: LoginEnvironment, known?: IDataObject): Promise<StoredToken> {
	const entry = broker.entry(config.key);
	if (!isFresh(known) && isUsable(entry.current, config)) return entry.current;
	if (!entry.inflight) {
		entry.inflight = login(config, env, storedTokenOf(known), isFresh(known)).finally(() => {
			entry.inflight = undefined;
		});
	}
	return await entry.inflight;
}

/**
 * Whether the caller that got `token` should let n8n save it into credential `credentialId`: the
 * first caller to ask gets true (once per token, credential and process).
 */
export function claimPersist(config: LoginConfig, token: StoredToken, credentialId: string): boolean {
	const entry = broker.entry(config.key);
	if (entry.current?.accessToken !== token.accessToken || entry.persisted.has(credentialId)) return false;
	entry.persisted.add(credentialId);
	return true;
}

/** Takes a usable token the credential `credentialId` already holds (as read at the start of an execution). */
export function adoptStored(config: LoginConfig, stored: IDataObject | undefined, credentialId: string): StoredToken | undefined {
	const token = storedTokenOf(stored);
	if (!isUsable(token, config)) return undefined;
	const entry = broker.entry(config.key);
	if (entry.current?.accessToken === token.accessToken) {
		entry.persisted.add(credentialId);
		return entry.current;
	}
	if (isUsable(entry.current, config)) return entry.current;
	return adopt(config, token, credentialId);
}

function throttledError(config: LoginConfig, purpose: string, status: number, attempts: number, waitedMs: number) {
	return new WorkOrderServiceAuthError(
		'throttled',
		config.secrets.redact(
			`The authorization server throttled the ${purpose} (HTTP ${status}) after ${attempts} attempt(s) and ${Math.round(waitedMs / 1000)} s of waiting. It allows about one token request per 5 seconds per user; tokens are cached and shared, so this clears once the burst is over.`,
		),
		status,
	);
}

async function login(
	config: LoginConfig,
	env: LoginEnvironment,
	known: StoredToken | undefined,
	fresh: boolean,
): Promise<StoredToken> {
	const entry = broker.entry(config.key);
	const timeoutMs = Math.min(env.tokenTimeoutMs ?? TOKEN_REQUEST_TIMEOUT_MS, TOKEN_REQUEST_TIMEOUT_MS);
	const budgetMs = env.waitBudgetMs ?? TOKEN_WAIT_BUDGET_MS;
	const refreshLifetime = config.kind === 'password' ? MAIN_REFRESH_TOKEN_LIFETIME_MS : undefined;
	let stored: StoredToken | undefined;

	/** Re-reads the stored credential; adopts its token when another execution saved a usable one. */
	const fromStore = async (): Promise<StoredToken | undefined> => {
		if (!env.readStored) return undefined;
		const data = await env.readStored();
		stored = storedTokenOf(data);
		if (stored) config.secrets.add(stored.accessToken).add(stored.refreshToken);
		return isUsable(stored, config) ? adopt(config, stored, env.credentialId) : undefined;
	};
	let waitedMs = 0;
	/** Waits (within the budget), watching the store; a token found there ends the wait. */
	const wait = async (ms: number): Promise<StoredToken | undefined> => {
		const until = Date.now() + ms;
		for (;;) {
			const left = until - Date.now();
			if (left <= 0) return undefined;
			const step = env.readStored ? Math.min(STORE_POLL_MS, left) : left;
			await sleep(step);
			waitedMs += step;
			const found = await fromStore();
			if (found) return found;
		}
	};

	// Another execution or worker may have logged in since this one read the credential.
	const early = await fromStore();
	if (early) return early;

	// The newest lineage first: what n8n stores now, what this process renewed last (unless the
	// credential never held a token: it logs in itself), what the caller held.
	let refreshToken = pickRefreshToken(config, [stored, fresh ? undefined : entry.current, known]);
	let universal: TokenResponse | undefined;
	let attempts = 0;
	for (;;) {
		let request: TokenRequest;
		let step: 'refresh' | 'login' | 'subsidiary';
		if (refreshToken !== undefined) {
			step = 'refresh';
			request = {
				form:
					config.kind === 'password'
						? { grant_type: 'refresh_token', refresh_token: refreshToken }
						: { refresh_token: refreshToken },
				authorization: config.basic,
				purpose: config.kind === 'password' ? 'token refresh' : 'JWT renewal',
				grantRefusalKind: 'invalidGrant',
			};
		} else if (universal !== undefined && config.subsidiaryId !== undefined) {
			step = 'subsidiary';
			request = {
				form: { subsidiary_id: config.subsidiaryId },
				authorization: `Bearer ${universal.accessToken}`,
				purpose: `child subscriber selection (subsidiary ${config.subsidiaryId})`,
				grantRefusalKind: 'subsidiary',
			};
		} else {
			step = 'login';
			request = {
				form:
					config.kind === 'password'
						? { grant_type: 'password', username: config.username, password: config.password }
						: { username: config.username, password: config.password },
				authorization: config.basic,
				purpose: config.kind === 'password' ? 'password grant' : 'JWT login',
				grantRefusalKind: 'invalidUser',
			};
		}
		attempts++;
		const outcome = await requestTokenOnce(env.httpRequest, config, request, timeoutMs).catch((error: unknown) => {
			if (step === 'refresh' && isWorkOrderServiceAuthError(error) && error.kind === 'invalidGrant') {
				return { kind: 'refused' as const };
			}
			throw error;
		});
		if (outcome.kind === 'refused') {
			// Refresh tokens are single-use: whoever used this one first is saving the new token.
			refreshToken = undefined;
			const found = env.readStored ? await wait(REFUSED_REFRESH_GRACE_MS) : undefined;
			if (found) return found;
			const again = pickRefreshToken(config, [stored]);
			if (again !== undefined && again !== request.form.refresh_token) refreshToken = again;
			continue;
		}
		if (outcome.kind === 'throttled') {
			const delay = Math.max(MIN_THROTTLE_WAIT_MS, outcome.retryAfterMs ?? Math.min(30_000, 1000 * 2 ** Math.min(attempts, 5)));
			if (attempts >= MAX_TOKEN_ATTEMPTS || waitedMs + delay > budgetMs) {
				throw throttledError(config, request.purpose, outcome.status, attempts, waitedMs);
			}
			const found = await wait(delay);
			if (found) return found;
			continue;
		}
		const token = outcome.token;
		config.secrets.add(token.accessToken).add(token.refreshToken);
		if (step === 'login' && config.subsidiaryId !== undefined) {
			universal = token;
			continue;
		}
		const previousRefresh = step === 'refresh' ? refreshToken : undefined;
		remember(entry.own, token.accessToken);
		return adopt(config, storedTokenFields(token, config.identity, previousRefresh, refreshLifetime));
	}
}

/**
 * The credential's `preAuthentication`: n8n calls it when the stored token is empty, after the
 * service answered 401 to a request made with the stored token, and when the user tests the
 * credential. It returns the hidden token fields, which n8n saves.
 */
export async function preAuthenticate(
	kind: LoginKind,
	helpers: IHttpRequestHelper,
	credentials: ICredentialDataDecryptedObject,
): Promise<IDataObject> {
	const config = loginConfig(kind, credentials);
	const presented = typeof credentials.accessToken === 'string' ? credentials.accessToken : '';
	config.secrets.add(presented).add(credentials.refreshToken);
	// n8n only passes a token here after the service rejected it (or for a credential test).
	if (presented !== '') rejectToken(config, presented);
	const token = await obtainToken(config, { httpRequest: helpers.helpers.httpRequest }, credentials);
	return { ...token };
}
