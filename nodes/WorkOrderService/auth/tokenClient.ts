import type { IHttpRequestHelper } from 'n8n-workflow';

import { bodyToText } from './http';
import type { LoginConfig } from './loginConfig';
import { readTokenAnswer, unreachableError, type TokenAnswer, type TokenAsked, type TokenOutcome } from './tokenResponse';

/**
 * The token endpoint: what each login step sends (refresh, password grant, child-subscriber
 * exchange, contractor JWT login and renewal) and the one call that sends it. One call of
 * `requestTokenOnce` is one HTTP request; waiting, retrying and coordination between callers live
 * in `tokenBroker.ts`, reading the answer in `tokenResponse.ts`.
 */

// What this module exported before the split, for the modules that import it from here.
export { basicAuthHeader, loginConfig, normalizeBaseUrl, requireText, requireUrl, tokenIdentity } from './loginConfig';
export type { LoginConfig, LoginKind } from './loginConfig';
export { MAIN_REFRESH_TOKEN_LIFETIME_MS, storedTokenFields, storedTokenOf } from './storedToken';
export type { StoredToken, TokenResponse } from './storedToken';
export type { TokenOutcome } from './tokenResponse';

/** Each token request waits at most this long for an answer (the README states it). */
export const TOKEN_REQUEST_TIMEOUT_MS = 30 * 1000;

export type HttpRequestFn = IHttpRequestHelper['helpers']['httpRequest'];

/** One form for the token endpoint, with the words and refusal kind its answer is read with. */
export interface TokenRequest extends TokenAsked {
	form: Record<string, string>;
	/** Basic (client) or Bearer (child-subscriber exchange) */
	authorization: string;
}

/** A form sent with the client as Basic. */
function clientRequest(config: LoginConfig, form: Record<string, string>, asked: TokenAsked): TokenRequest {
	return { form, authorization: config.basic, ...asked };
}

/** Password grant (spec 4.1): the client as Basic, the user's name and password. */
export function passwordGrant(config: LoginConfig): TokenRequest {
	const form = { grant_type: 'password', username: config.username, password: config.password };
	return clientRequest(config, form, { purpose: 'password grant', grantRefusalKind: 'invalidUser' });
}

/** Refresh of a password-grant token (spec 4.1); refresh tokens are single-use. */
export function refreshGrant(config: LoginConfig, refreshToken: string): TokenRequest {
	const form = { grant_type: 'refresh_token', refresh_token: refreshToken };
	return clientRequest(config, form, { purpose: 'token refresh', grantRefusalKind: 'invalidGrant' });
}

/** Contractor JWT login (POST /jwt/token, spec 4.3): the client as Basic, the user's name and password, no grant type. */
export function jwtLogin(config: LoginConfig): TokenRequest {
	const form = { username: config.username, password: config.password };
	return clientRequest(config, form, { purpose: 'JWT login', grantRefusalKind: 'invalidUser' });
}

/** Contractor JWT renewal (spec 4.3): the refresh token, no grant type. */
export function jwtRenewal(config: LoginConfig, refreshToken: string): TokenRequest {
	return clientRequest(config, { refresh_token: refreshToken }, { purpose: 'JWT renewal', grantRefusalKind: 'invalidGrant' });
}

/** Child-subscriber exchange (spec 5.8): a universal user's token, as Bearer, for one scoped to the subsidiary. */
export function childSubscriberExchange(universalAccessToken: string, subsidiaryId: string): TokenRequest {
	return {
		form: { subsidiary_id: subsidiaryId },
		authorization: `Bearer ${universalAccessToken}`,
		purpose: `child subscriber selection (subsidiary ${subsidiaryId})`,
		grantRefusalKind: 'subsidiary',
	};
}

/** The login with the user's password, for the credential's kind. */
export function loginRequest(config: LoginConfig): TokenRequest {
	return config.kind === 'password' ? passwordGrant(config) : jwtLogin(config);
}

/** The renewal with a refresh token, for the credential's kind. */
export function renewalRequest(config: LoginConfig, refreshToken: string): TokenRequest {
	return config.kind === 'password' ? refreshGrant(config, refreshToken) : jwtRenewal(config, refreshToken);
}

/** POSTs the form to the token endpoint once; the answer whatever its status, or the error when none came. */
async function postTokenForm(
	httpRequest: HttpRequestFn,
	config: LoginConfig,
	request: TokenRequest,
	timeoutMs: number,
): Promise<TokenAnswer> {
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
		throw unreachableError(origin, networkError, timeoutMs, request, config.secrets);
	}
	return { status: response.statusCode, headers: response.headers ?? {}, body: bodyToText(response.body) };
}

/**
 * One token request: POSTs the form, reads the answer. Returns the token, or `throttled` (429/503)
 * with what Retry-After says; throws a WorkOrderServiceAuthError that explains any other outcome.
 */
export async function requestTokenOnce(
	httpRequest: HttpRequestFn,
	config: LoginConfig,
	request: TokenRequest,
	timeoutMs = TOKEN_REQUEST_TIMEOUT_MS,
): Promise<TokenOutcome> {
	const answer = await postTokenForm(httpRequest, config, request, timeoutMs);
	const reading = readTokenAnswer(answer, request, config.secrets);
	if (reading.kind === 'error') throw reading.error;
	return reading;
}
