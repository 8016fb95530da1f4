'use strict';

/**
 * The authorization code grant: /oauth/authorize (login form, session cookie, redirect_uri
 * rules, codes that are single-use, short-lived and bound to their client) and the code exchange.
 * Every test starts a fresh emulator on a free port (./helpers.js) and talks to it over real HTTP.
 */

const { useEmulator, tokenRequest, api } = require('./helpers');

/** @type {import('../index').Emulator} */
let emu;
/** @type {any} */
let fx;
useEmulator((e) => {
	emu = e;
	fx = e.fixtures;
});

describe('authorization code grant and /oauth/authorize', () => {
	const cb = 'http://localhost:5678/rest/oauth2-credential/callback';

	/** @param {Record<string, string>} q */
	const authorizeUrl = (q) => `${emu.authUrl}/oauth/authorize?${new URLSearchParams(q)}`;

	/**
	 * Logs in through the form; returns the redirect Location.
	 * @param {Record<string, string>} q @param {string} [who]
	 */
	async function signIn(q, who = 'subscriber') {
		const u = fx.users[who];
		const r = await fetch(authorizeUrl(q), {
			method: 'POST',
			headers: { 'content-type': 'application/x-www-form-urlencoded' },
			body: new URLSearchParams({ username: u.username, password: u.password }),
			redirect: 'manual',
		});
		return {
			status: r.status,
			location: r.headers.get('location'),
			cookie: r.headers.get('set-cookie'),
			text: await r.text(),
		};
	}

	test('not logged in: GET shows an HTML login form that posts back with the query preserved', async () => {
		const q = {
			response_type: 'code',
			client_id: fx.clients.main.clientId,
			redirect_uri: cb,
			state: 'xyz',
		};
		const r = await fetch(authorizeUrl(q), { redirect: 'manual' });
		expect(r.status).toBe(200);
		expect(r.headers.get('content-type')).toMatch(/text\/html/);
		const html = await r.text();
		expect(html).toMatch(/<form method="post"/);
		expect(html).toMatch(/name="username"/);
		expect(html).toMatch(/name="password"/);
		expect(html).toContain('state=xyz');
	});

	test('login redirects to redirect_uri with code and state; the code is exchanged once (single use)', async () => {
		const q = {
			response_type: 'code',
			client_id: fx.clients.main.clientId,
			redirect_uri: cb,
			state: 's-123',
		};
		const s = await signIn(q);
		expect(s.status).toBe(302);
		const loc = new URL(/** @type {string} */ (s.location));
		expect(`${loc.origin}${loc.pathname}`).toBe(cb);
		expect(loc.searchParams.get('state')).toBe('s-123');
		const code = /** @type {string} */ (loc.searchParams.get('code'));
		expect(code).toBeTruthy();
		const t = await tokenRequest({ grant_type: 'authorization_code', code, redirect_uri: cb });
		expect(t.status).toBe(200);
		expect(t.body).toMatchObject({ token_type: 'bearer', expires_in: 600 });
		expect(
			(await api('GET', '/workorders?pageSize=1', { token: t.body.access_token })).status,
		).toBe(200);
		const again = await tokenRequest({ grant_type: 'authorization_code', code, redirect_uri: cb });
		expect([again.status, again.body.error]).toEqual([400, 'invalid_grant']);
	});

	test('redirect_uri rule: when sent to /authorize it is required and must match at the token endpoint', async () => {
		const q = { response_type: 'code', client_id: fx.clients.main.clientId, redirect_uri: cb };
		const code1 = new URL(/** @type {string} */ ((await signIn(q)).location)).searchParams.get(
			'code',
		);
		const missing = await tokenRequest({
			grant_type: 'authorization_code',
			code: /** @type {string} */ (code1),
		});
		expect([missing.status, missing.body.error]).toEqual([400, 'invalid_grant']);
		expect(missing.body.error_description).toMatch(/redirect_uri/);
		const code2 = new URL(/** @type {string} */ ((await signIn(q)).location)).searchParams.get(
			'code',
		);
		const other = await tokenRequest({
			grant_type: 'authorization_code',
			code: /** @type {string} */ (code2),
			redirect_uri: 'http://127.0.0.1:5678/rest/oauth2-credential/callback',
		});
		expect([other.status, other.body.error]).toEqual([400, 'invalid_grant']);
	});

	test('redirect_uri omitted: redirect to the registered callback; the exchange needs no redirect_uri', async () => {
		const s = await signIn({ response_type: 'code', client_id: fx.clients.main.clientId });
		expect(s.status).toBe(302);
		expect(s.location).toMatch(new RegExp(`^${fx.clients.main.callbackUris[0]}\\?code=`));
		const code = /** @type {string} */ (
			new URL(/** @type {string} */ (s.location)).searchParams.get('code')
		);
		const t = await tokenRequest({ grant_type: 'authorization_code', code });
		expect(t.status).toBe(200);
	});

	test('an unregistered redirect_uri is refused without redirecting; addCallbackUri() registers it', async () => {
		const evil = 'http://127.0.0.1:9/steal';
		const r = await fetch(
			authorizeUrl({
				response_type: 'code',
				client_id: fx.clients.main.clientId,
				redirect_uri: evil,
			}),
			{
				redirect: 'manual',
			},
		);
		expect(r.status).toBe(400);
		expect(r.headers.get('location')).toBeNull();
		emu.addCallbackUri(fx.clients.main.clientId, evil);
		const s = await signIn({
			response_type: 'code',
			client_id: fx.clients.main.clientId,
			redirect_uri: evil,
		});
		expect(s.location).toMatch(/^http:\/\/127\.0\.0\.1:9\/steal\?code=/);
	});

	test('a session cookie from the login makes the next GET redirect at once with a new code', async () => {
		const q = { response_type: 'code', client_id: fx.clients.main.clientId, redirect_uri: cb };
		const s = await signIn(q);
		const cookie = /** @type {string} */ (s.cookie).split(';')[0];
		const r = await fetch(authorizeUrl(q), { headers: { cookie }, redirect: 'manual' });
		expect(r.status).toBe(302);
		const code = new URL(/** @type {string} */ (r.headers.get('location'))).searchParams.get(
			'code',
		);
		expect(code).toBeTruthy();
		expect(code).not.toBe(new URL(/** @type {string} */ (s.location)).searchParams.get('code'));
	});

	test('codes are short-lived (60 s) and bound to the client they were issued to', async () => {
		const q = { response_type: 'code', client_id: fx.clients.main.clientId, redirect_uri: cb };
		const code = /** @type {string} */ (
			new URL(/** @type {string} */ ((await signIn(q)).location)).searchParams.get('code')
		);
		const wrongClient = await tokenRequest(
			{ grant_type: 'authorization_code', code, redirect_uri: cb },
			{ client: fx.clients.second },
		);
		expect([wrongClient.status, wrongClient.body.error]).toEqual([400, 'invalid_grant']);
		const code2 = /** @type {string} */ (
			new URL(/** @type {string} */ ((await signIn(q)).location)).searchParams.get('code')
		);
		emu.advanceTime(61);
		const late = await tokenRequest({
			grant_type: 'authorization_code',
			code: code2,
			redirect_uri: cb,
		});
		expect([late.status, late.body.error]).toEqual([400, 'invalid_grant']);
	});

	test('a wrong password re-shows the form (401, no redirect); response_type other than code redirects with an error', async () => {
		const q = { response_type: 'code', client_id: fx.clients.main.clientId, redirect_uri: cb };
		const r = await fetch(authorizeUrl(q), {
			method: 'POST',
			headers: { 'content-type': 'application/x-www-form-urlencoded' },
			body: 'username=demo.subscriber&password=wrong',
			redirect: 'manual',
		});
		expect(r.status).toBe(401);
		expect(r.headers.get('location')).toBeNull();
		expect(await r.text()).toMatch(/Invalid user name or password/);
		const t = await fetch(authorizeUrl({ ...q, response_type: 'token', state: 'k' }), {
			redirect: 'manual',
		});
		expect(t.status).toBe(302);
		expect(t.headers.get('location')).toBe(`${cb}?error=unsupported_response_type&state=k`);
	});

	test('an application without a callback URI: the code is shown on a page', async () => {
		const s = await signIn({ response_type: 'code', client_id: fx.clients.noCallback.clientId });
		expect(s.status).toBe(200);
		const code = /<code id="code">([^<]+)<\/code>/.exec(s.text);
		expect(code).not.toBeNull();
		const t = await tokenRequest(
			{ grant_type: 'authorization_code', code: /** @type {any} */ (code)[1] },
			{ client: fx.clients.noCallback },
		);
		expect(t.status).toBe(200);
	});
});

// =================================================================================================
