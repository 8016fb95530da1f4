import type { ICredentialDataDecryptedObject, IDataObject, IHttpRequestHelper } from 'n8n-workflow';
import { sleep } from 'n8n-workflow';

import { WorkOrderServiceAuthError, isWorkOrderServiceAuthError } from './http';
import { loginConfig, type LoginConfig, type LoginKind } from './loginConfig';
import {
	MAIN_REFRESH_TOKEN_LIFETIME_MS,
	isFresh,
	pickRefreshToken,
	storedTokenFields,
	storedTokenOf,
	type StoredToken,
	type TokenResponse,
} from './storedToken';
import { adopt, entryOf, isUsable, rejectToken, remember, type Entry } from './tokenCache';
import {
	TOKEN_REQUEST_TIMEOUT_MS,
	childSubscriberExchange,
	loginRequest,
	renewalRequest,
	requestTokenOnce,
	type HttpRequestFn,
	type TokenRequest,
} from './tokenClient';
import type { TokenOutcome } from './tokenResponse';

export { isFresh } from './storedToken';
export { adoptStored, claimPersist, isOwnToken, isUsable, knownTokens, rejectToken } from './tokenCache';

/**
 * Login coordination, process-wide.
 *
 * n8n runs a credential's `preAuthentication` per request, without a lock, and a node has no lock
 * either. The broker holds, per credential identity, one login in flight (`tokenCache.ts` holds
 * the newest token and the rejected ones). So:
 * - K concurrent first requests cause one login; K requests that hit an expired token, one re-login;
 *   callers that lost the race take the winner's token.
 * - Across processes (n8n queue mode, several workers): before a login, after a refused refresh
 *   (refresh tokens are single-use) and while the token endpoint throttles, the node re-reads the
 *   credential as n8n stores it (`getCredentials` reads the database) and takes a newer token that
 *   another execution or worker saved, instead of logging in again.
 * - Waits for the token endpoint (about one request per 5 s per user) are budgeted for a crowd:
 *   up to TOKEN_WAIT_BUDGET_MS in all, re-checking the stored credential while waiting.
 *
 * A login is a sequence of steps (`tokenClient.ts`): refresh (or JWT renewal) while there is a
 * refresh token, else the password grant (or JWT login), then the child-subscriber exchange.
 */

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

/**
 * A usable token for these settings: the newest one this process knows, one another execution or
 * worker saved, or a new login. One login per identity at a time; concurrent callers share its
 * outcome. A credential that never held a token logs in itself (or joins a login in flight) rather
 * than taking a token that another credential with the same settings holds.
 */
export async function obtainToken(config: LoginConfig, env: LoginEnvironment, known?: IDataObject): Promise<StoredToken> {
	const entry = entryOf(config.key);
	if (!isFresh(known) && isUsable(entry.current, config)) return entry.current;
	if (!entry.inflight) {
		entry.inflight = login(config, env, storedTokenOf(known), isFresh(known)).finally(() => {
			entry.inflight = undefined;
		});
	}
	return await entry.inflight;
}

/** One login in progress: what it has read from the store, waited and tried. */
interface LoginRun {
	config: LoginConfig;
	env: LoginEnvironment;
	entry: Entry;
	timeoutMs: number;
	budgetMs: number;
	/** The token n8n stores now, as last read. */
	stored?: StoredToken;
	waitedMs: number;
	attempts: number;
	/** The refresh token the next step uses (none: log in with the password). */
	refreshToken?: string;
	/** A universal user's token, to exchange for the child subscriber's. */
	universal?: TokenResponse;
}

type StepName = 'refresh' | 'login' | 'subsidiary';

/**
 * Logs in: the refresh token of the newest lineage first (what n8n stores now, what this process
 * renewed last unless the credential never held a token, what the caller held), else the password.
 */
async function login(config: LoginConfig, env: LoginEnvironment, known: StoredToken | undefined, fresh: boolean) {
	const run: LoginRun = {
		config,
		env,
		entry: entryOf(config.key),
		timeoutMs: Math.min(env.tokenTimeoutMs ?? TOKEN_REQUEST_TIMEOUT_MS, TOKEN_REQUEST_TIMEOUT_MS),
		budgetMs: env.waitBudgetMs ?? TOKEN_WAIT_BUDGET_MS,
		waitedMs: 0,
		attempts: 0,
	};
	// Another execution or worker may have logged in since this one read the credential.
	const early = await fromStore(run);
	if (early) return early;
	run.refreshToken = pickRefreshToken(config, [run.stored, fresh ? undefined : run.entry.current, known]);
	for (;;) {
		const token = await takeStep(run);
		if (token) return token;
	}
}

/** Re-reads the stored credential; adopts its token when another execution saved a usable one. */
async function fromStore(run: LoginRun): Promise<StoredToken | undefined> {
	if (!run.env.readStored) return undefined;
	const stored = storedTokenOf(await run.env.readStored());
	run.stored = stored;
	if (stored) run.config.secrets.add(stored.accessToken).add(stored.refreshToken);
	return isUsable(stored, run.config) ? adopt(run.config, stored, run.env.credentialId) : undefined;
}

/** Waits (counted against the budget), watching the store; a token found there ends the wait. */
async function waitWatchingStore(run: LoginRun, ms: number): Promise<StoredToken | undefined> {
	const until = Date.now() + ms;
	for (;;) {
		const left = until - Date.now();
		if (left <= 0) return undefined;
		const pause = run.env.readStored ? Math.min(STORE_POLL_MS, left) : left;
		await sleep(pause);
		run.waitedMs += pause;
		const found = await fromStore(run);
		if (found) return found;
	}
}

/** The next token request: refresh while there is a refresh token, the exchange after a universal login, else the login. */
function nextStep(run: LoginRun): { step: StepName; request: TokenRequest } {
	const { config, refreshToken, universal } = run;
	if (refreshToken !== undefined) return { step: 'refresh', request: renewalRequest(config, refreshToken) };
	if (universal !== undefined && config.subsidiaryId !== undefined) {
		return { step: 'subsidiary', request: childSubscriberExchange(universal.accessToken, config.subsidiaryId) };
	}
	return { step: 'login', request: loginRequest(config) };
}

/** One step: a token (the login's result, or none yet), a wait, or a throw when the login failed. */
async function takeStep(run: LoginRun): Promise<StoredToken | undefined> {
	const { step, request } = nextStep(run);
	run.attempts++;
	const outcome = await requestTokenOnce(run.env.httpRequest, run.config, request, run.timeoutMs).catch((error: unknown) => {
		if (step === 'refresh' && isWorkOrderServiceAuthError(error) && error.kind === 'invalidGrant') {
			return { kind: 'refused' as const };
		}
		throw error;
	});
	if (outcome.kind === 'refused') return await afterRefusedRefresh(run);
	if (outcome.kind === 'throttled') return await afterThrottled(run, request.purpose, outcome);
	return afterToken(run, step, outcome.token);
}

/**
 * Refresh tokens are single-use: whoever used this one first is saving the new token. Looks for it
 * in the store, then tries a newer refresh token stored meanwhile, else the password.
 */
async function afterRefusedRefresh(run: LoginRun): Promise<StoredToken | undefined> {
	const refused = run.refreshToken;
	run.refreshToken = undefined;
	const found = run.env.readStored ? await waitWatchingStore(run, REFUSED_REFRESH_GRACE_MS) : undefined;
	if (found) return found;
	const again = pickRefreshToken(run.config, [run.stored]);
	if (again !== undefined && again !== refused) run.refreshToken = again;
	return undefined;
}

/** How long to wait after the n-th token request was throttled: as Retry-After says, else backing off. */
export function throttleDelay(attempts: number, retryAfterMs: number | undefined): number {
	return Math.max(MIN_THROTTLE_WAIT_MS, retryAfterMs ?? Math.min(30_000, 1000 * 2 ** Math.min(attempts, 5)));
}

/** Waits out a throttled request (watching the store), or throws when the attempts or the budget are spent. */
async function afterThrottled(
	run: LoginRun,
	purpose: string,
	outcome: Extract<TokenOutcome, { kind: 'throttled' }>,
): Promise<StoredToken | undefined> {
	const delay = throttleDelay(run.attempts, outcome.retryAfterMs);
	if (run.attempts >= MAX_TOKEN_ATTEMPTS || run.waitedMs + delay > run.budgetMs) {
		throw throttledError(run.config, purpose, outcome.status, run.attempts, run.waitedMs);
	}
	return await waitWatchingStore(run, delay);
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

/** A universal user's token waits for the exchange; any other token is the login's result. */
function afterToken(run: LoginRun, step: StepName, token: TokenResponse): StoredToken | undefined {
	const { config } = run;
	config.secrets.add(token.accessToken).add(token.refreshToken);
	if (step === 'login' && config.subsidiaryId !== undefined) {
		run.universal = token;
		return undefined;
	}
	const previousRefresh = step === 'refresh' ? run.refreshToken : undefined;
	const refreshLifetime = config.kind === 'password' ? MAIN_REFRESH_TOKEN_LIFETIME_MS : undefined;
	remember(run.entry.own, token.accessToken);
	return adopt(config, storedTokenFields(token, config.identity, previousRefresh, refreshLifetime));
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
