import type { IDataObject } from 'n8n-workflow';

import type { LoginConfig } from './loginConfig';
import { storedTokenOf, timeOf, type StoredToken } from './storedToken';

/**
 * What this process knows per credential identity (servers, client, user, child subscriber, and a
 * digest of the secrets): the newest token, the tokens the service rejected, the login in flight,
 * where the token is saved, and every token seen (for redaction). Process-wide; the login that
 * fills it is in `tokenBroker.ts`.
 */

/**
 * A token is renewed a little before its stored expiry (saves a 401 per expiry): 30 s, or a tenth
 * of its lifetime when that is shorter; without a known issue time, at its expiry.
 */
const ACCESS_TOKEN_MARGIN_MS = 30_000;
const ACCESS_TOKEN_MARGIN_SHARE = 0.1;
const MAX_ENTRIES = 500;
const MAX_REMEMBERED = 32;

export interface Entry {
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

/** Adds a value to a short list (oldest dropped first); empty values and repeats are ignored. */
export function remember(list: string[], value: string): void {
	if (value === '' || list.includes(value)) return;
	list.push(value);
	if (list.length > MAX_REMEMBERED) list.shift();
}

const entries = new Map<string, Entry>();

/** The entry of an identity key; most recently used last, so that the oldest identity is the one dropped. */
export function entryOf(key: string): Entry {
	let entry = entries.get(key);
	if (entry) {
		entries.delete(key);
	} else {
		entry = { persisted: new Set(), rejected: [], seen: [], own: [] };
	}
	entries.set(key, entry);
	if (entries.size > MAX_ENTRIES) {
		const oldest = entries.keys().next().value;
		if (oldest !== undefined && oldest !== key) entries.delete(oldest);
	}
	return entry;
}

/** A token that belongs to these settings, was not rejected and does not expire within the margin. */
export function isUsable(token: StoredToken | undefined, config: LoginConfig, now = Date.now()): token is StoredToken {
	if (!token || token.accessToken === '' || token.tokenIdentity !== config.identity) return false;
	if (entryOf(config.key).rejected.includes(token.accessToken)) return false;
	const expiry = timeOf(token.accessTokenExpiresAt);
	if (expiry === undefined) return true;
	const issued = timeOf(token.accessTokenIssuedAt);
	const margin = issued !== undefined && issued < expiry ? Math.min(ACCESS_TOKEN_MARGIN_MS, (expiry - issued) * ACCESS_TOKEN_MARGIN_SHARE) : 0;
	return expiry > now + margin;
}

/** Makes `token` the identity's newest token (`persistedIn`: a credential known to hold it). */
export function adopt(config: LoginConfig, token: StoredToken, persistedIn?: string): StoredToken {
	const entry = entryOf(config.key);
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
	const entry = entryOf(config.key);
	remember(entry.rejected, accessToken);
	remember(entry.seen, accessToken);
}

/**
 * Whether this process obtained the access token itself (a fresh login or refresh). A token read
 * from n8n's store may have been saved by another worker before the service revoked all tokens.
 */
export function isOwnToken(config: LoginConfig, accessToken: string | undefined): boolean {
	return accessToken !== undefined && entryOf(config.key).own.includes(accessToken);
}

/** Every token this process has seen for the identity (for redaction). */
export function knownTokens(config: LoginConfig): string[] {
	return [...entryOf(config.key).seen];
}

/**
 * Whether the caller that got `token` should let n8n save it into credential `credentialId`: the
 * first caller to ask gets true (once per token, credential and process).
 */
export function claimPersist(config: LoginConfig, token: StoredToken, credentialId: string): boolean {
	const entry = entryOf(config.key);
	if (entry.current?.accessToken !== token.accessToken || entry.persisted.has(credentialId)) return false;
	entry.persisted.add(credentialId);
	return true;
}

/** Takes a usable token the credential `credentialId` already holds (as read at the start of an execution). */
export function adoptStored(config: LoginConfig, stored: IDataObject | undefined, credentialId: string): StoredToken | undefined {
	const token = storedTokenOf(stored);
	if (!isUsable(token, config)) return undefined;
	const entry = entryOf(config.key);
	if (entry.current?.accessToken === token.accessToken) {
		entry.persisted.add(credentialId);
		return entry.current;
	}
	if (isUsable(entry.current, config)) return entry.current;
	return adopt(config, token, credentialId);
}
