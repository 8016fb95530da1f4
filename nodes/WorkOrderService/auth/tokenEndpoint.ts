import type { IDataObject, IHttpRequestHelper } from 'n8n-workflow';

import {
	WorkOrderServiceAuthError,
	bodyToText,
	headerValue,
	looksLikeHtml,
	parseRetryAfter,
	serviceMessage,
	type AuthErrorKind,
} from '../transport/http';
import type { SecretSet } from './secrets';
import type { LoginConfig, TokenResponse } from './tokens';

/**
 * The token endpoint: what each login step sends (refresh, password grant, child-subscriber
 * exchange, contractor JWT login and renewal), the one call that sends it, and how its answer is
 * read (pure functions: classify the status, read the token, word the refusal). Every message
 * names the cause (wrong client, wrong user, throttled, unreachable, redirected to a login page)
 * and passes through the credential's secret set, so no secret can reach it. Waiting and
 * coordination between callers live in `tokens.ts`.
 */

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
export async function requestToken(
	httpRequest: HttpRequestFn,
	config: LoginConfig,
	request: TokenRequest,
): Promise<Exclude<TokenAnswerReading, { kind: 'error' }>> {
	const answer = await postTokenForm(httpRequest, config, request, TOKEN_REQUEST_TIMEOUT_MS);
	const reading = readTokenAnswer(answer, request, config.secrets);
	if (reading.kind === 'error') throw reading.error;
	return reading;
}

/** Which refusals mean "this grant is not valid" (a refused refresh leads to a new login). */
export type GrantRefusalKind = 'invalidUser' | 'invalidGrant' | 'subsidiary';

/** What reading an answer needs to know about the request it answers. */
export interface TokenAsked {
	/** Words for messages: "password grant", "token refresh", ... */
	purpose: string;
	grantRefusalKind: GrantRefusalKind;
}

/** One answer of the token endpoint, its body as text. */
export interface TokenAnswer {
	status: number;
	headers: Record<string, unknown>;
	body: string;
}

export type TokenAnswerReading =
	| { kind: 'token'; token: TokenResponse }
	| { kind: 'throttled'; status: number; retryAfterMs?: number }
	| { kind: 'error'; error: WorkOrderServiceAuthError };

export type TokenAnswerClass = 'throttled' | 'redirected' | 'token' | 'grantRefused' | 'clientRefused' | 'failed';

/** What an answer means, from its HTTP status and the OAuth `error` code of its body ('' when none). */
export function classifyTokenAnswer(status: number, errorCode: string): TokenAnswerClass {
	if (status === 429 || status === 503) return 'throttled';
	// A wrong client can be answered with a 302 to an HTML login page.
	if (status >= 300 && status < 400) return 'redirected';
	if (status === 200 || status === 201) return 'token';
	const clientRefused = errorCode === 'invalid_client' || errorCode === 'unauthorized_client';
	if (!clientRefused && (errorCode === 'invalid_grant' || status === 400 || status === 403)) return 'grantRefused';
	if (status === 401 || clientRefused) return 'clientRefused';
	return 'failed';
}

function parseJsonObject(text: string): IDataObject | undefined {
	try {
		const value: unknown = JSON.parse(text);
		return value !== null && typeof value === 'object' && !Array.isArray(value) ? (value as IDataObject) : undefined;
	} catch {
		return undefined;
	}
}

function positive(value: unknown): number | undefined {
	const n = typeof value === 'string' ? Number(value) : value;
	return typeof n === 'number' && Number.isFinite(n) && n > 0 ? n : undefined;
}

/** The token in a JSON body; undefined when the body carries no access_token. */
export function readToken(json: IDataObject | undefined): TokenResponse | undefined {
	const accessToken = json?.access_token;
	if (typeof accessToken !== 'string' || accessToken === '') return undefined;
	return {
		accessToken,
		refreshToken: typeof json?.refresh_token === 'string' && json.refresh_token !== '' ? json.refresh_token : undefined,
		expiresIn: positive(json?.expires_in),
		refreshExpiresIn: positive(json?.refresh_token_expires_in ?? json?.refresh_expires_in),
		scope: typeof json?.scope === 'string' ? json.scope : undefined,
	};
}

/** What the wording of a refusal draws on. */
export interface RefusalFacts {
	status: number;
	/** The OAuth `error` code, '' when none. */
	errorCode: string;
	/** The body is an HTML page. */
	html: boolean;
	/** The server's own words (never from an HTML page), when it gave any. */
	reason?: string;
}

const SUBSIDIARY_HINT = ' Check the Child Subscriber ID and that the user is a universal user with access to it.';

const GRANT_REFUSED: Record<GrantRefusalKind, { words: string; hint: string }> = {
	invalidUser: { words: 'Username or password rejected', hint: ' Check the Username and Password of the credential.' },
	invalidGrant: { words: 'Stored refresh token rejected', hint: '' },
	subsidiary: { words: 'The child subscriber could not be selected', hint: SUBSIDIARY_HINT },
};

interface Worded {
	kind: AuthErrorKind;
	message: string;
}

function grantRefused(facts: RefusalFacts, asked: TokenAsked, reasonText: string): Worded {
	const { words, hint } = GRANT_REFUSED[asked.grantRefusalKind];
	return {
		kind: asked.grantRefusalKind,
		message: `${words} (HTTP ${facts.status}) during the ${asked.purpose}${reasonText}.${hint}`,
	};
}

function clientRefused(facts: RefusalFacts, asked: TokenAsked, reasonText: string): Worded {
	if (asked.grantRefusalKind === 'subsidiary' && facts.errorCode !== 'invalid_client') {
		return {
			kind: 'subsidiary',
			message: `The child subscriber could not be selected (HTTP ${facts.status})${reasonText}.${SUBSIDIARY_HINT}`,
		};
	}
	return {
		kind: 'invalidClient',
		message: `Client credentials rejected by the authorization server (HTTP ${facts.status}) during the ${asked.purpose}${reasonText}. Check the Client ID and Client Secret, and that the client belongs to this environment.`,
	};
}

/** The error kind and message for an answer that brought no token (its class is not 'throttled'). */
export function wordRefusal(answerClass: TokenAnswerClass, facts: RefusalFacts, asked: TokenAsked): Worded {
	const reasonText = facts.reason ? `: ${facts.reason}` : '';
	switch (answerClass) {
		case 'redirected':
			return {
				kind: 'redirected',
				message: `Client credentials or authorization URL rejected: the authorization server answered the ${asked.purpose} with a redirect (HTTP ${facts.status}) to a login page. Check the Client ID, the Client Secret and the Authorization Server URL (production and sandbox clients differ).`,
			};
		case 'token': {
			const what = facts.html ? 'an HTML page' : 'a response without access_token';
			return {
				kind: 'badResponse',
				message: `The authorization server answered the ${asked.purpose} with ${what} instead of a token. Check the Authorization Server URL (it is the address that serves /oauth/token and /jwt/token).`,
			};
		}
		case 'grantRefused':
			return grantRefused(facts, asked, reasonText);
		case 'clientRefused':
			return clientRefused(facts, asked, reasonText);
		default:
			return { kind: 'badResponse', message: `The authorization server failed the ${asked.purpose} with HTTP ${facts.status}${reasonText}.` };
	}
}

function refusalFacts(answer: TokenAnswer, errorCode: string): RefusalFacts {
	const contentType = headerValue(answer.headers, 'content-type') ?? '';
	const html = looksLikeHtml(answer.body, contentType);
	return { status: answer.status, errorCode, html, reason: html ? undefined : serviceMessage(answer.body, contentType) };
}

/** An answer of the token endpoint: the token, `throttled` with what Retry-After says, or the error that explains it. */
export function readTokenAnswer(answer: TokenAnswer, asked: TokenAsked, secrets: SecretSet): TokenAnswerReading {
	const json = parseJsonObject(answer.body);
	const errorCode = typeof json?.error === 'string' ? json.error : '';
	const answerClass = classifyTokenAnswer(answer.status, errorCode);
	if (answerClass === 'throttled') {
		const retryAfterMs = parseRetryAfter(headerValue(answer.headers, 'retry-after'));
		return { kind: 'throttled', status: answer.status, retryAfterMs };
	}
	const token = answerClass === 'token' ? readToken(json) : undefined;
	if (token) return { kind: 'token', token };
	const { kind, message } = wordRefusal(answerClass, refusalFacts(answer, errorCode), asked);
	return { kind: 'error', error: new WorkOrderServiceAuthError(kind, secrets.redact(message), answer.status) };
}

/** How a request failure reads in a message: its error code, "timed out", or "network error". */
export function describeNetworkError(error: unknown): string {
	const err = error as { code?: unknown; cause?: { code?: unknown }; message?: unknown };
	const code = err?.code ?? err?.cause?.code;
	if (typeof code === 'string' && code !== '') return code === 'ECONNABORTED' ? 'timed out' : code;
	if (typeof err?.message === 'string' && /timeout|timed out/i.test(err.message)) return 'timed out';
	return 'network error';
}

/** The error for a token request that got no answer at all. */
export function unreachableError(
	origin: string,
	networkError: unknown,
	timeoutMs: number,
	asked: TokenAsked,
	secrets: SecretSet,
): WorkOrderServiceAuthError {
	const why = `${describeNetworkError(networkError)}; each token request waits at most ${Math.round(timeoutMs / 1000)} s`;
	return new WorkOrderServiceAuthError(
		'unreachable',
		secrets.redact(
			`Could not reach the authorization server at ${origin} (${why}) during the ${asked.purpose}. Check the Authorization Server URL and the network.`,
		),
	);
}
