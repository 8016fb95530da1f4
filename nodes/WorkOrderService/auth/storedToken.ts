import type { IDataObject } from 'n8n-workflow';

import type { LoginConfig } from './loginConfig';

/**
 * The token fields a login writes into the credential (hidden fields that n8n persists), how they
 * are read back, and the expiry checks on them. Pure functions.
 */

/** Main API refresh tokens live 30 days (spec, section 8). */
export const MAIN_REFRESH_TOKEN_LIFETIME_MS = 30 * 24 * 3600 * 1000;
/** A refresh token that expires within this margin is not tried. */
const REFRESH_TOKEN_MARGIN_MS = 60_000;

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

/** A token as the token endpoint issued it. */
export interface TokenResponse {
	accessToken: string;
	refreshToken?: string;
	expiresIn?: number;
	refreshExpiresIn?: number;
	scope?: string;
}

function asText(value: unknown): string {
	return typeof value === 'string' ? value : value === undefined || value === null ? '' : String(value);
}

/** The stored token fields of a credential (or of a token record), as text. */
export function storedTokenOf(data: IDataObject | undefined): StoredToken | undefined {
	if (!data) return undefined;
	const accessToken = asText(data.accessToken);
	if (accessToken === '') return undefined;
	return {
		accessToken,
		refreshToken: asText(data.refreshToken),
		accessTokenExpiresAt: asText(data.accessTokenExpiresAt),
		accessTokenIssuedAt: asText(data.accessTokenIssuedAt),
		refreshTokenExpiresAt: asText(data.refreshTokenExpiresAt),
		tokenIdentity: asText(data.tokenIdentity),
		tokenScope: asText(data.tokenScope),
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

/** A credential that has never held a token (as created, or as n8n hands it over before a first login). */
export function isFresh(credentials: IDataObject | undefined): boolean {
	const text = (value: unknown) => (typeof value === 'string' ? value : '');
	return text(credentials?.accessToken) === '' && text(credentials?.tokenIdentity) === '';
}

/** A stored time (ms since epoch as text); undefined when empty or unreadable. */
export function timeOf(value: string): number | undefined {
	if (value === '') return undefined;
	const n = Number(value);
	return Number.isFinite(n) && n > 0 ? n : undefined;
}

/**
 * The refresh token to try, from the sources in order of preference; a refresh token that any
 * source knows to be expired is not tried.
 */
export function pickRefreshToken(
	config: LoginConfig,
	sources: Array<StoredToken | undefined>,
	now = Date.now(),
): string | undefined {
	const expired = new Set<string>();
	for (const token of sources) {
		const expiry = token ? timeOf(token.refreshTokenExpiresAt) : undefined;
		if (token && expiry !== undefined && expiry <= now + REFRESH_TOKEN_MARGIN_MS) expired.add(token.refreshToken);
	}
	for (const token of sources) {
		if (!token || token.refreshToken === '' || token.tokenIdentity !== config.identity) continue;
		if (!expired.has(token.refreshToken)) return token.refreshToken;
	}
	return undefined;
}
