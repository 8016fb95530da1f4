'use strict';
// The login steps and the token fields around them, without HTTP: what each step sends to the
// token endpoint, what a login stores, the token identity, and when a token counts as usable
// (renewals, refusals and throttling run through n8n-core in test/credentials).
const {
	childSubscriberExchange,
	loginRequest,
	renewalRequest,
	loginConfig,
	normalizeBaseUrl,
	storedTokenFields,
	storedTokenOf,
	isUsable,
} = require('../../dist/nodes/WorkOrderService/auth/tokens');

const FIELDS = {
	authServerUrl: 'https://Login.Example.com/auth/',
	baseUrl: 'https://api.example.com/v3/',
	clientId: 'client-1',
	clientSecret: 'secret-1',
	username: 'Jane@Example.com',
	password: ' pass word ',
};
const basic = `Basic ${Buffer.from('client-1:secret-1').toString('base64')}`;
const password = loginConfig('password', FIELDS);
const scoped = loginConfig('password', { ...FIELDS, subsidiaryId: ' 2001 ' });
const contractor = loginConfig('contractor', { ...FIELDS, subsidiaryId: '2001' });

describe('loginConfig', () => {
	test('token endpoints, Basic header and the password as typed', () => {
		expect(password.tokenUrl).toBe('https://Login.Example.com/auth/oauth/token');
		expect(contractor.tokenUrl).toBe('https://Login.Example.com/auth/jwt/token');
		expect(password.basic).toBe(basic);
		expect(password.password).toBe(' pass word ');
		expect(contractor.subsidiaryId).toBeUndefined();
	});

	test('the token identity: a one-way digest that changes with every setting and secret, never holding one', () => {
		expect(password.identity).toMatch(/^[0-9a-f]{64}$/);
		for (const secret of [
			'secret-1',
			' pass word ',
			'client-1',
			'Jane@Example.com',
			'login.example.com',
		])
			expect(password.identity).not.toContain(secret);
		const edits = [
			{ password: 'other' },
			{ password: ' pass word' },
			{ clientSecret: 'secret-2' },
			{ clientId: 'client-2' },
			{ username: 'joe@example.com' },
			{ authServerUrl: 'https://login2.example.com/auth' },
			{ baseUrl: 'https://api2.example.com' },
			{ subsidiaryId: '2001' },
		];
		for (const edit of edits)
			expect([edit, loginConfig('password', { ...FIELDS, ...edit }).identity]).not.toEqual([
				edit,
				password.identity,
			]);
		expect(contractor.identity).not.toBe(password.identity);
		// the same settings written differently are the same identity
		expect(
			loginConfig('password', {
				...FIELDS,
				authServerUrl: 'https://login.example.com/auth',
				username: 'jane@example.com',
			}).identity,
		).toBe(password.identity);
		expect(scoped.identity).not.toBe(password.identity);
	});

	test.each([
		[{ authServerUrl: 'login.example.com' }, /Authorization Server URL must be an http\(s\) URL/],
		[{ baseUrl: '' }, /API Base URL must be an http\(s\) URL/],
		[{ clientId: '  ' }, /Client ID is empty/],
		[{ clientSecret: '' }, /Client Secret is empty/],
		[{ password: undefined }, /Password is empty/],
		[{ subsidiaryId: '0' }, /Child Subscriber ID must be a positive whole number/],
		[{ subsidiaryId: '12a' }, /Child Subscriber ID must be a positive whole number/],
	])('%p is refused: %p', (change, message) => {
		expect(() => loginConfig('password', { ...FIELDS, ...change })).toThrow(message);
	});

	test('normalizeBaseUrl drops trailing slashes and /v3', () => {
		expect(normalizeBaseUrl(' https://api.example.com/V3// ')).toBe('https://api.example.com');
	});
});

describe('the steps: what each sends to the token endpoint', () => {
	test('password grant', () => {
		expect(loginRequest(password)).toEqual({
			form: { grant_type: 'password', username: 'Jane@Example.com', password: ' pass word ' },
			authorization: basic,
			purpose: 'password grant',
			grantRefusalKind: 'invalidUser',
		});
	});

	test('refresh', () => {
		expect(renewalRequest(password, 'rt-1')).toEqual({
			form: { grant_type: 'refresh_token', refresh_token: 'rt-1' },
			authorization: basic,
			purpose: 'token refresh',
			grantRefusalKind: 'invalidGrant',
		});
	});

	test('contractor JWT login and renewal: no grant type', () => {
		expect(loginRequest(contractor)).toEqual({
			form: { username: 'Jane@Example.com', password: ' pass word ' },
			authorization: basic,
			purpose: 'JWT login',
			grantRefusalKind: 'invalidUser',
		});
		expect(renewalRequest(contractor, 'rt-2')).toEqual({
			form: { refresh_token: 'rt-2' },
			authorization: basic,
			purpose: 'JWT renewal',
			grantRefusalKind: 'invalidGrant',
		});
	});

	test('child-subscriber exchange: the universal token as Bearer, the subsidiary in the form', () => {
		expect(childSubscriberExchange('universal-at', '2001')).toEqual({
			form: { subsidiary_id: '2001' },
			authorization: 'Bearer universal-at',
			purpose: 'child subscriber selection (subsidiary 2001)',
			grantRefusalKind: 'subsidiary',
		});
	});
});

describe('stored token fields', () => {
	const now = 1_700_000_000_000;

	test('what a login stores: expiries from the answer, the refresh lifetime default, identity and scope', () => {
		expect(
			storedTokenFields(
				{ accessToken: 'a', refreshToken: 'r', expiresIn: 3600, scope: 's' },
				'id',
				undefined,
				1000,
				now,
			),
		).toEqual({
			accessToken: 'a',
			refreshToken: 'r',
			accessTokenExpiresAt: String(now + 3_600_000),
			accessTokenIssuedAt: String(now),
			refreshTokenExpiresAt: String(now + 1000),
			tokenIdentity: 'id',
			tokenScope: 's',
		});
	});

	test('a refresh that brings no new refresh token keeps the one it used; unknown lifetimes stay empty', () => {
		const fields = storedTokenFields(
			{ accessToken: 'a', refreshExpiresIn: 60 },
			'id',
			'old-r',
			undefined,
			now,
		);
		expect(fields.refreshToken).toBe('old-r');
		expect(fields.refreshTokenExpiresAt).toBe(String(now + 60_000));
		expect(fields.accessTokenExpiresAt).toBe('');
		expect(
			storedTokenFields({ accessToken: 'a' }, 'id', undefined, 5000, now).refreshTokenExpiresAt,
		).toBe('');
	});

	test('read back as text; nothing without an access token', () => {
		expect(
			storedTokenOf({ accessToken: 'a', accessTokenExpiresAt: 123, refreshToken: null }),
		).toEqual({
			accessToken: 'a',
			refreshToken: '',
			accessTokenExpiresAt: '123',
			accessTokenIssuedAt: '',
			refreshTokenExpiresAt: '',
			tokenIdentity: '',
			tokenScope: '',
		});
		expect(storedTokenOf({ accessToken: '' })).toBeUndefined();
		expect(storedTokenOf(undefined)).toBeUndefined();
	});
});

describe('isUsable', () => {
	const config = loginConfig('password', { ...FIELDS, clientId: 'usable-client' });
	const now = 1_700_000_000_000;
	const stored = (accessToken, issued, expires, identity = config.identity) => ({
		accessToken,
		refreshToken: '',
		accessTokenIssuedAt: issued === undefined ? '' : String(issued),
		accessTokenExpiresAt: expires === undefined ? '' : String(expires),
		refreshTokenExpiresAt: '',
		tokenIdentity: identity,
		tokenScope: '',
	});

	test('renewed 30 s before expiry, or a tenth of a short lifetime; at expiry without an issue time', () => {
		expect(isUsable(stored('t1', now - 3_600_000, now + 31_000), config, now)).toBe(true);
		expect(isUsable(stored('t1', now - 3_600_000, now + 29_000), config, now)).toBe(false);
		expect(isUsable(stored('t2', now - 50_000, now + 6_000), config, now)).toBe(true); // lifetime 56 s: margin 5.6 s
		expect(isUsable(stored('t2', now - 50_000, now + 5_000), config, now)).toBe(false);
		expect(isUsable(stored('t3', undefined, now + 1), config, now)).toBe(true);
		expect(isUsable(stored('t3', undefined, now), config, now)).toBe(false);
		expect(isUsable(stored('t4', undefined, undefined), config, now)).toBe(true);
	});

	test('not for other settings, not when empty', () => {
		expect(isUsable(stored('t5', undefined, undefined, 'other'), config, now)).toBe(false);
		expect(isUsable(stored('', undefined, undefined), config, now)).toBe(false);
		expect(isUsable(undefined, config, now)).toBe(false);
	});
});
