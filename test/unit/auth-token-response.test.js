'use strict';
// Reading the token endpoint's answers, without HTTP: every status/body case -> outcome, error kind
// and message; the service's own words are kept, secrets echoed back are redacted.
const {
	classifyTokenAnswer,
	readToken,
	readTokenAnswer,
	loginConfig,
	loginSecrets,
} = require('../../dist/nodes/WorkOrderService/auth/tokens');
const {
	describeNetworkError,
	unreachableError,
	isWorkOrderServiceAuthError,
} = require('../../dist/nodes/WorkOrderService/transport/errors');

const CLIENT_SECRET = 'cs-Very$ecret/42';
const PASSWORD = 'pw hunter2+more';
const config = loginConfig('password', {
	authServerUrl: 'https://login.example.com/auth',
	baseUrl: 'https://api.example.com',
	clientId: 'client-1',
	clientSecret: CLIENT_SECRET,
	username: 'jane@example.com',
	password: PASSWORD,
});
/** What a login's messages are cleaned with: the client secret, the password (also as Basic) and the tokens seen. */
const redact = (text) => loginSecrets(config).redact(text);

const PASSWORD_GRANT = { purpose: 'password grant', grantRefusalKind: 'invalidUser' };
const REFRESH = { purpose: 'token refresh', grantRefusalKind: 'invalidGrant' };
const JWT_LOGIN = { purpose: 'JWT login', grantRefusalKind: 'invalidUser' };
const SUBSIDIARY = {
	purpose: 'child subscriber selection (subsidiary 2001)',
	grantRefusalKind: 'subsidiary',
};

const JSON_TYPE = { 'Content-Type': 'application/json' };
const HTML_TYPE = { 'content-type': 'text/html; charset=utf-8' };
const json = (value) => JSON.stringify(value);
const answer = (status, body = '', headers = JSON_TYPE) => ({ status, headers, body });

function errorOf(reading) {
	expect(reading.kind).toBe('error');
	expect(isWorkOrderServiceAuthError(reading.error)).toBe(true);
	return reading.error;
}

describe('classifyTokenAnswer: status and OAuth error code -> what the answer means', () => {
	test.each([
		[200, '', 'token'],
		[201, '', 'token'],
		[429, '', 'throttled'],
		[503, '', 'throttled'],
		[503, 'invalid_client', 'throttled'],
		[301, '', 'redirected'],
		[302, '', 'redirected'],
		[307, 'invalid_grant', 'redirected'],
		[400, '', 'grantRefused'],
		[403, '', 'grantRefused'],
		[400, 'invalid_grant', 'grantRefused'],
		[401, 'invalid_grant', 'grantRefused'],
		[500, 'invalid_grant', 'grantRefused'],
		[401, '', 'clientRefused'],
		[400, 'invalid_client', 'clientRefused'],
		[403, 'unauthorized_client', 'clientRefused'],
		[500, 'invalid_client', 'clientRefused'],
		[204, '', 'failed'],
		[404, '', 'failed'],
		[500, '', 'failed'],
		[502, 'server_error', 'failed'],
	])('HTTP %i, error "%s" -> %s', (status, code, expected) => {
		expect(classifyTokenAnswer(status, code)).toBe(expected);
	});
});

describe('readToken', () => {
	test('all fields, numbers given as text, the alternative refresh lifetime key', () => {
		expect(
			readToken({
				access_token: 'at-1',
				refresh_token: 'rt-1',
				expires_in: '3600',
				refresh_expires_in: 86400,
				scope: 'api',
			}),
		).toEqual({
			accessToken: 'at-1',
			refreshToken: 'rt-1',
			expiresIn: 3600,
			refreshExpiresIn: 86400,
			scope: 'api',
		});
		expect(
			readToken({ access_token: 'at-1', refresh_token_expires_in: 60, refresh_expires_in: 99 })
				.refreshExpiresIn,
		).toBe(60);
	});

	test('an empty refresh token, zero, negative or unreadable lifetimes and a non-text scope are left out', () => {
		expect(
			readToken({
				access_token: 'at-2',
				refresh_token: '',
				expires_in: 0,
				refresh_expires_in: -5,
				scope: 7,
			}),
		).toEqual({
			accessToken: 'at-2',
			refreshToken: undefined,
			expiresIn: undefined,
			refreshExpiresIn: undefined,
			scope: undefined,
		});
		expect(readToken({ access_token: 'at-3', expires_in: 'soon' }).expiresIn).toBeUndefined();
	});

	test('no token without a non-empty text access_token', () => {
		expect(readToken(undefined)).toBeUndefined();
		expect(readToken({})).toBeUndefined();
		expect(readToken({ access_token: '' })).toBeUndefined();
		expect(readToken({ access_token: 42 })).toBeUndefined();
	});
});

describe('readTokenAnswer: tokens', () => {
	test.each([200, 201])('HTTP %i with a JSON token', (status) => {
		const reading = readTokenAnswer(
			answer(status, json({ access_token: 'at', expires_in: 600 })),
			PASSWORD_GRANT,
			redact,
		);
		expect(reading).toEqual({
			kind: 'token',
			token: {
				accessToken: 'at',
				refreshToken: undefined,
				expiresIn: 600,
				refreshExpiresIn: undefined,
				scope: undefined,
			},
		});
	});

	test('a token whose body is labelled text/plain is still read', () => {
		const reading = readTokenAnswer(
			answer(200, json({ access_token: 'at' }), { 'content-type': 'text/plain' }),
			JWT_LOGIN,
			redact,
		);
		expect(reading.kind).toBe('token');
	});

	test('HTTP 200 with an HTML page: badResponse naming the HTML page and the Authorization Server URL', () => {
		const error = errorOf(
			readTokenAnswer(
				answer(200, '<!DOCTYPE html><title>Sign in</title>', HTML_TYPE),
				PASSWORD_GRANT,
				redact,
			),
		);
		expect(error.kind).toBe('badResponse');
		expect(error.httpStatus).toBe(200);
		expect(error.message).toBe(
			'The authorization server answered the password grant with an HTML page instead of a token. Check the Authorization Server URL (it is the address that serves /oauth/token and /jwt/token).',
		);
	});

	test.each([
		['JSON without access_token', json({ token: 'x' })],
		['empty access_token', json({ access_token: '' })],
		['a JSON array', json([{ access_token: 'x' }])],
		['not JSON', 'OK'],
		['empty body', ''],
	])('HTTP 200 with %s: "a response without access_token"', (_name, body) => {
		const error = errorOf(readTokenAnswer(answer(200, body), REFRESH, redact));
		expect(error.kind).toBe('badResponse');
		expect(error.message).toMatch(
			/^The authorization server answered the token refresh with a response without access_token instead of a token\./,
		);
	});
});

describe('readTokenAnswer: throttling', () => {
	test('429 with Retry-After in seconds', () => {
		const reading = readTokenAnswer(
			answer(429, json({ error: 'slow_down' }), { 'Retry-After': '3' }),
			PASSWORD_GRANT,
			redact,
		);
		expect(reading).toEqual({ kind: 'throttled', status: 429, retryAfterMs: 3000 });
	});

	test('503 with Retry-After as an HTTP date (header name in any case)', () => {
		const reading = readTokenAnswer(
			answer(503, '', { 'retry-after': new Date(Date.now() + 60_000).toUTCString() }),
			REFRESH,
			redact,
		);
		expect(reading.kind).toBe('throttled');
		expect(reading.status).toBe(503);
		expect(reading.retryAfterMs).toBeGreaterThan(50_000);
		expect(reading.retryAfterMs).toBeLessThanOrEqual(60_000);
	});

	test('429 without (or with an unreadable) Retry-After', () => {
		expect(readTokenAnswer(answer(429, ''), PASSWORD_GRANT, redact)).toEqual({
			kind: 'throttled',
			status: 429,
			retryAfterMs: undefined,
		});
		expect(
			readTokenAnswer(answer(429, '', { 'Retry-After': 'later' }), PASSWORD_GRANT, redact)
				.retryAfterMs,
		).toBeUndefined();
	});
});

describe('readTokenAnswer: refusals -> error kind and message', () => {
	test.each([
		[
			'302 to a login page',
			answer(302, '<html><title>Login</title></html>', {
				Location: 'https://login.example.com/login',
				'content-type': 'text/html',
			}),
			PASSWORD_GRANT,
			'redirected',
			'Client credentials or authorization URL rejected: the authorization server answered the password grant with a redirect (HTTP 302) to a login page. Check the Client ID, the Client Secret and the Authorization Server URL (production and sandbox clients differ).',
		],
		[
			'400 invalid_grant on the password grant',
			answer(
				400,
				json({
					error: 'invalid_grant',
					error_description: 'The user name or password is incorrect.',
				}),
			),
			PASSWORD_GRANT,
			'invalidUser',
			'Username or password rejected (HTTP 400) during the password grant: The user name or password is incorrect.. Check the Username and Password of the credential.',
		],
		[
			'400 invalid_grant on the JWT login',
			answer(400, json({ error: 'invalid_grant' })),
			JWT_LOGIN,
			'invalidUser',
			'Username or password rejected (HTTP 400) during the JWT login: invalid_grant. Check the Username and Password of the credential.',
		],
		[
			'400 invalid_grant on a refresh (no hint: a new login follows)',
			answer(400, json({ error: 'invalid_grant', error_description: 'refresh token expired' })),
			REFRESH,
			'invalidGrant',
			'Stored refresh token rejected (HTTP 400) during the token refresh: refresh token expired.',
		],
		[
			'403 without a body',
			answer(403, ''),
			PASSWORD_GRANT,
			'invalidUser',
			'Username or password rejected (HTTP 403) during the password grant. Check the Username and Password of the credential.',
		],
		[
			'401 invalid_grant is a grant refusal, not a client one',
			answer(401, json({ error: 'invalid_grant' })),
			REFRESH,
			'invalidGrant',
			'Stored refresh token rejected (HTTP 401) during the token refresh: invalid_grant.',
		],
		[
			'400 on the child-subscriber exchange',
			answer(400, json({ error: 'invalid_request', error_description: 'no access to subsidiary' })),
			SUBSIDIARY,
			'subsidiary',
			'The child subscriber could not be selected (HTTP 400) during the child subscriber selection (subsidiary 2001): no access to subsidiary. Check the Child Subscriber ID and that the user is a universal user with access to it.',
		],
		[
			'401 on the child-subscriber exchange',
			answer(401, ''),
			SUBSIDIARY,
			'subsidiary',
			'The child subscriber could not be selected (HTTP 401). Check the Child Subscriber ID and that the user is a universal user with access to it.',
		],
		[
			'401 invalid_client on the child-subscriber exchange names the client',
			answer(401, json({ error: 'invalid_client' })),
			SUBSIDIARY,
			'invalidClient',
			'Client credentials rejected by the authorization server (HTTP 401) during the child subscriber selection (subsidiary 2001): invalid_client. Check the Client ID and Client Secret, and that the client belongs to this environment.',
		],
		[
			'401 invalid_client',
			answer(
				401,
				json({ error: 'invalid_client', error_description: 'Client authentication failed' }),
			),
			PASSWORD_GRANT,
			'invalidClient',
			'Client credentials rejected by the authorization server (HTTP 401) during the password grant: Client authentication failed. Check the Client ID and Client Secret, and that the client belongs to this environment.',
		],
		[
			'400 unauthorized_client',
			answer(400, json({ error: 'unauthorized_client' })),
			JWT_LOGIN,
			'invalidClient',
			'Client credentials rejected by the authorization server (HTTP 400) during the JWT login: unauthorized_client. Check the Client ID and Client Secret, and that the client belongs to this environment.',
		],
		[
			'401 with an HTML page: no words from the page',
			answer(401, '<html><head><title>Unauthorized</title></head></html>', HTML_TYPE),
			PASSWORD_GRANT,
			'invalidClient',
			'Client credentials rejected by the authorization server (HTTP 401) during the password grant. Check the Client ID and Client Secret, and that the client belongs to this environment.',
		],
		[
			'500 with a JSON message',
			answer(500, json({ message: 'database unavailable' })),
			REFRESH,
			'badResponse',
			'The authorization server failed the token refresh with HTTP 500: database unavailable.',
		],
		[
			'502 with an HTML page',
			answer(502, '<html><head><title>502 Bad Gateway</title></head></html>', HTML_TYPE),
			PASSWORD_GRANT,
			'badResponse',
			'The authorization server failed the password grant with HTTP 502.',
		],
		[
			'404 with plain text: its first line',
			answer(404, 'Not Found\nno such route', { 'content-type': 'text/plain' }),
			JWT_LOGIN,
			'badResponse',
			'The authorization server failed the JWT login with HTTP 404: Not Found.',
		],
		[
			'204 without a body',
			answer(204, '', {}),
			PASSWORD_GRANT,
			'badResponse',
			'The authorization server failed the password grant with HTTP 204.',
		],
	])('%s', (_name, given, asked, kind, message) => {
		const error = errorOf(readTokenAnswer(given, asked, redact));
		expect(error.kind).toBe(kind);
		expect(error.httpStatus).toBe(given.status);
		expect(error.message).toBe(message);
	});

	test('a long server message is cut, never the whole body', () => {
		const error = errorOf(
			readTokenAnswer(answer(500, json({ message: 'x'.repeat(5000) })), REFRESH, redact),
		);
		expect(error.message.length).toBeLessThan(450);
		expect(error.message).toMatch(/\.\.\.\.$/);
	});
});

describe('readTokenAnswer: secrets echoed by the server are redacted', () => {
	const basic = Buffer.from(`client-1:${CLIENT_SECRET}`).toString('base64');
	test.each([
		['the password as sent', `wrong password ${PASSWORD}`],
		[
			'the password form-encoded',
			`password=${new URLSearchParams({ p: PASSWORD }).toString().slice(2)} rejected`,
		],
		['the client secret', `client secret ${CLIENT_SECRET} unknown`],
		['the client secret percent-encoded', `secret=${encodeURIComponent(CLIENT_SECRET)}`],
		['the Basic header', `header was Basic ${basic}`],
		['the Basic value alone', `credentials ${basic} unknown`],
	])('%s', (_name, description) => {
		for (const [status, asked] of [
			[400, PASSWORD_GRANT],
			[401, PASSWORD_GRANT],
			[500, REFRESH],
		]) {
			const error = errorOf(
				readTokenAnswer(
					answer(status, json({ error: 'x', error_description: description })),
					asked,
					redact,
				),
			);
			expect(error.message).toContain('[redacted]');
			expect(error.message).not.toContain(PASSWORD);
			expect(error.message).not.toContain(CLIENT_SECRET);
			expect(error.message).not.toContain(encodeURIComponent(CLIENT_SECRET));
			expect(error.message).not.toContain(basic);
		}
	});

	test('a token added to the secret set (an issued token) is redacted too', () => {
		const own = loginConfig('contractor', {
			authServerUrl: 'https://login.example.com',
			baseUrl: 'https://api.example.com/v3',
			clientId: 'c',
			clientSecret: 'secret-c',
			username: 'u',
			password: 'pass-u',
		});
		const secrets = loginSecrets(own).add('rt-abcdef123456');
		const error = errorOf(
			readTokenAnswer(
				answer(400, json({ error_description: 'refresh token rt-abcdef123456 was used' })),
				REFRESH,
				(text) => secrets.redact(text),
			),
		);
		expect(error.message).toBe(
			'Stored refresh token rejected (HTTP 400) during the token refresh: refresh token [redacted] was used.',
		);
	});
});

describe('no answer at all', () => {
	test.each([
		[{ code: 'ECONNREFUSED' }, 'ECONNREFUSED'],
		[{ code: 'ECONNABORTED' }, 'timed out'],
		[{ cause: { code: 'ENOTFOUND' } }, 'ENOTFOUND'],
		[new Error('timeout of 30000ms exceeded'), 'timed out'],
		[new Error('socket hang up'), 'network error'],
		[undefined, 'network error'],
	])('describeNetworkError(%p) -> %s', (error, expected) => {
		expect(describeNetworkError(error)).toBe(expected);
	});

	test('unreachableError names the server, the cause, the wait bound and the step; no status; redacted', () => {
		const error = unreachableError(
			'https://login.example.com',
			{ code: 'ECONNREFUSED' },
			30_000,
			PASSWORD_GRANT,
			redact,
		);
		expect(isWorkOrderServiceAuthError(error)).toBe(true);
		expect(error.kind).toBe('unreachable');
		expect(error.httpStatus).toBeUndefined();
		expect(error.message).toBe(
			'Could not reach the authorization server at https://login.example.com (ECONNREFUSED; each token request waits at most 30 s) during the password grant. Check the Authorization Server URL and the network.',
		);
		const leaky = unreachableError(
			'https://login.example.com',
			{ code: `E_${CLIENT_SECRET}` },
			5_400,
			REFRESH,
			redact,
		);
		expect(leaky.message).toContain('at most 5 s');
		expect(leaky.message).not.toContain(CLIENT_SECRET);
	});
});
