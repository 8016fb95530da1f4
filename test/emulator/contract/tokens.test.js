'use strict';

/**
 * The token endpoints and what the API accepts: /oauth/token (password, refresh and subsidiary
 * grants, client authentication, lifetimes, expiry and revocation), the API's Bearer check and
 * permissions, child-subscriber scoping, and the contractor API's /jwt/token.
 * Every test starts a fresh emulator on a free port (./helpers.js) and talks to it over real HTTP.
 */

const {
	useEmulator,
	basic,
	tokenRequest,
	login,
	token,
	jwtLogin,
	api,
	expectError,
} = require('./helpers');

/** @type {import('../index').Emulator} */
let emu;
/** @type {any} */
let fx;
useEmulator((e) => {
	emu = e;
	fx = e.fixtures;
});

describe('token endpoint /oauth/token', () => {
	test('password grant: 200 with access_token, token_type bearer, expires_in 600, refresh_token; no scope for a plain subscriber', async () => {
		const u = fx.users.subscriber;
		const r = await tokenRequest({
			grant_type: 'password',
			username: u.username,
			password: u.password,
		});
		expect(r.status).toBe(200);
		expect(r.body).toEqual({
			access_token: expect.any(String),
			token_type: 'bearer',
			expires_in: 600,
			refresh_token: expect.any(String),
		});
		expect(r.headers.get('cache-control')).toBe('no-store');
		const wo = await api('GET', `/workorders/${fx.workOrders.checklist}`, {
			token: r.body.access_token,
		});
		expect(wo.status).toBe(200);
		expect(emu.state.tokens.at(-1)).toMatchObject({
			username: u.username,
			clientId: fx.clients.main.clientId,
			grant: 'password',
		});
	});

	test('password grant of a universal user carries scope', async () => {
		const t = await login('universal');
		expect(t.scope).toBe('universal');
	});

	test('the body must be form-encoded: JSON gets 415, an empty body 400', async () => {
		const u = fx.users.subscriber;
		const j = await tokenRequest(
			JSON.stringify({ grant_type: 'password', username: u.username, password: u.password }),
			{
				headers: { 'content-type': 'application/json' },
			},
		);
		expect(j.status).toBe(415);
		expect(j.body.error).toBe('invalid_request');
		const none = await tokenRequest(null, { headers: { 'content-type': '' } });
		expect(none.status).toBe(400);
	});

	test('client credentials only as Basic BASE64(client_id:client_secret): body credentials, wrong secret and sloppy encodings get 401 invalid_client', async () => {
		const u = fx.users.subscriber;
		const c = fx.clients.main;
		const form = { grant_type: 'password', username: u.username, password: u.password };
		const inBody = await tokenRequest(
			{ ...form, client_id: c.clientId, client_secret: c.clientSecret },
			{ noAuth: true },
		);
		expect(inBody.status).toBe(401);
		expect(inBody.body.error).toBe('invalid_client');
		expect(inBody.body.error_description).toMatch(/Authorization header/);
		const wrong = await tokenRequest(form, {
			client: { clientId: c.clientId, clientSecret: 'nope' },
		});
		expect(wrong.status).toBe(401);
		expect(wrong.body.error).toBe('invalid_client');
		expect(wrong.headers.get('www-authenticate')).toMatch(/^Basic/);
		for (const bad of [
			`Basic ${Buffer.from(`${c.clientId}: ${c.clientSecret}`).toString('base64')}`,
			`Basic ${Buffer.from(`${c.clientId}:${c.clientSecret}\n`).toString('base64')}`,
			`Basic ${Buffer.from(`${c.clientId}:${c.clientSecret}`).toString('base64').replace(/=+$/, '')}x`,
			`Basic ${Buffer.from(`${encodeURIComponent(c.clientId)}%3A${c.clientSecret}`).toString('base64')}`,
			`Bearer-ish ${Buffer.from(`${c.clientId}:${c.clientSecret}`).toString('base64')}`,
		]) {
			const r = await tokenRequest(form, { headers: { authorization: bad } });
			expect([r.status, r.body && r.body.error]).toEqual([401, 'invalid_client']);
		}
		const ok = await tokenRequest(form);
		expect(ok.status).toBe(200);
	});

	test('wrong user or password: 400 invalid_grant with error_description; unknown or missing grant_type: 400', async () => {
		const r = await tokenRequest({
			grant_type: 'password',
			username: fx.users.subscriber.username,
			password: 'wrong',
		});
		expect(r.status).toBe(400);
		expect(r.body).toEqual({ error: 'invalid_grant', error_description: expect.any(String) });
		const unknown = await tokenRequest({ grant_type: 'client_credentials' });
		expect([unknown.status, unknown.body.error]).toEqual([400, 'unsupported_grant_type']);
		const missing = await tokenRequest({ username: 'x', password: 'y' });
		expect([missing.status, missing.body.error]).toEqual([400, 'invalid_request']);
		const noPassword = await tokenRequest({
			grant_type: 'password',
			username: fx.users.subscriber.username,
		});
		expect([noPassword.status, noPassword.body.error]).toEqual([400, 'invalid_request']);
	});

	test('password-grant credentials are accepted only in the body, not in the URL', async () => {
		const u = fx.users.subscriber;
		const r = await fetch(
			`${emu.authUrl}/oauth/token?username=${encodeURIComponent(u.username)}&password=${encodeURIComponent(u.password)}`,
			{
				method: 'POST',
				headers: {
					authorization: basic(fx.clients.main),
					'content-type': 'application/x-www-form-urlencoded',
				},
				body: 'grant_type=password',
			},
		);
		const body = await r.json();
		expect(r.status).toBe(400);
		expect(body.error).toBe('invalid_request');
	});

	test('badClientRedirect: a wrong client is answered with a 302 to an HTML login page instead of 401', async () => {
		emu.setFaults({ badClientRedirect: true });
		const u = fx.users.subscriber;
		const r = await tokenRequest(
			{ grant_type: 'password', username: u.username, password: u.password },
			{ client: { clientId: 'nobody', clientSecret: 'x' } },
		);
		expect(r.status).toBe(302);
		const location = r.headers.get('location');
		expect(location).toMatch(/\/auth\/login/);
		expect(r.headers.get('content-type')).toMatch(/text\/html/);
		const page = await fetch(/** @type {string} */ (location));
		expect(page.status).toBe(200);
		expect(await page.text()).toMatch(/<form/);
		// the right client still works
		expect(
			(await tokenRequest({ grant_type: 'password', username: u.username, password: u.password }))
				.status,
		).toBe(200);
	});

	test('refresh_token grant rotates: new access and refresh token; the old refresh token is then invalid', async () => {
		const first = await login();
		const r = await tokenRequest({
			grant_type: 'refresh_token',
			refresh_token: first.refresh_token,
		});
		expect(r.status).toBe(200);
		expect(r.body.access_token).not.toBe(first.access_token);
		expect(r.body.refresh_token).not.toBe(first.refresh_token);
		expect(r.body.token_type).toBe('bearer');
		expect(r.body.expires_in).toBe(600);
		expect(
			(await api('GET', '/workorders?pageSize=1', { token: r.body.access_token })).status,
		).toBe(200);
		const reuse = await tokenRequest({
			grant_type: 'refresh_token',
			refresh_token: first.refresh_token,
		});
		expect([reuse.status, reuse.body.error]).toEqual([400, 'invalid_grant']);
		const otherClient = await tokenRequest(
			{ grant_type: 'refresh_token', refresh_token: r.body.refresh_token },
			{ client: fx.clients.second },
		);
		expect([otherClient.status, otherClient.body.error]).toEqual([400, 'invalid_grant']);
	});

	test('refresh tokens live 30 days; expireRefreshTokens() makes them invalid', async () => {
		const a = await login();
		emu.advanceTime(29 * 86400);
		const ok = await tokenRequest({ grant_type: 'refresh_token', refresh_token: a.refresh_token });
		expect(ok.status).toBe(200);
		emu.advanceTime(30 * 86400 + 1);
		const late = await tokenRequest({
			grant_type: 'refresh_token',
			refresh_token: ok.body.refresh_token,
		});
		expect([late.status, late.body.error]).toEqual([400, 'invalid_grant']);
		const b = await login();
		emu.expireRefreshTokens();
		const expired = await tokenRequest({
			grant_type: 'refresh_token',
			refresh_token: b.refresh_token,
		});
		expect(expired.status).toBe(400);
		expect(expired.body.error_description).toMatch(/expired/);
	});

	test('access tokens expire after expires_in seconds (emulator clock) and setTtl changes the lifetime', async () => {
		const t = await token();
		emu.advanceTime(599);
		expect((await api('GET', `/workorders/${fx.workOrders.checklist}`, { token: t })).status).toBe(
			200,
		);
		emu.advanceTime(2);
		const r = await api('GET', `/workorders/${fx.workOrders.checklist}`, { token: t });
		expectError(r, 401, 1003);
		emu.setTtl({ access: 5 });
		const short = await login();
		expect(short.expires_in).toBe(5);
	});

	test('expireAccessTokens(): access tokens answer 401, refresh still works', async () => {
		const t = await login();
		emu.expireAccessTokens();
		expectError(await api('GET', '/workorders', { token: t.access_token }), 401, 1003);
		const r = await tokenRequest({ grant_type: 'refresh_token', refresh_token: t.refresh_token });
		expect(r.status).toBe(200);
		expect((await api('GET', '/workorders', { token: r.body.access_token })).status).toBe(200);
	});

	test('revokeAccessTokens(): current access tokens and JWTs answer 401 (revoked), refresh tokens stay valid, new tokens work', async () => {
		const t = await login();
		const j = await jwtLogin();
		emu.revokeAccessTokens();
		expectError(await api('GET', '/workorders', { token: t.access_token }), 401, 1004);
		expectError(await api('GET', '/workorders', { token: j.access_token }), 401, 1004);
		const r = await tokenRequest({ grant_type: 'refresh_token', refresh_token: t.refresh_token });
		expect(r.status).toBe(200);
		expect((await api('GET', '/workorders', { token: r.body.access_token })).status).toBe(200);
		const jr = await tokenRequest({ refresh_token: j.refresh_token }, { endpoint: '/jwt/token' });
		expect(jr.status).toBe(200);
	});
});

describe('API authorization', () => {
	test('no Authorization header: 401 with the error body; code 1010 (rejected by security permissions) first', async () => {
		const r = await api('GET', '/workorders');
		expectError(r, 401, 1001);
		expect(r.body.ErrorCode).toBe(1010);
		expect(r.headers.get('www-authenticate')).toMatch(/^Bearer/);
	});

	test('Basic instead of Bearer, or an unknown token: 401', async () => {
		expectError(
			await api('GET', '/workorders', { headers: { authorization: basic(fx.clients.main) } }),
			401,
			1001,
		);
		expectError(await api('GET', '/workorders', { token: 'at_not-a-real-token' }), 401, 1002);
		expectError(await api('GET', '/odata/workorders', { token: 'a.b.c' }), 401, 1002);
	});

	test('a valid token without the permission gets 401 with code 1011 (viewer cannot change proposals or write notes)', async () => {
		const t = await token('viewer');
		expect((await api('GET', `/workorders/${fx.workOrders.proposal}`, { token: t })).status).toBe(
			200,
		);
		const p = await api('PUT', `/proposals/${fx.proposals.open}/approve`, { token: t, json: {} });
		expectError(p, 401, 1011);
		expect(p.body.ErrorMessage).toMatch(/security permissions/);
		expectError(
			await api('POST', `/workorders/${fx.workOrders.checklist}/notes`, {
				token: t,
				json: { Note: 'x' },
			}),
			401,
			1011,
		);
		expect(emu.state.proposals[fx.proposals.open].Status).toBe('Open');
	});
});

describe('child subscriber scoping', () => {
	test('universal token + subsidiary_id gives a token scoped to that child; it sees only the child data', async () => {
		const uni = await login('universal');
		const r = await tokenRequest(
			{ subsidiary_id: '2001' },
			{ headers: { authorization: `Bearer ${uni.access_token}` } },
		);
		expect(r.status).toBe(200);
		expect(r.body).toEqual({
			access_token: expect.any(String),
			token_type: 'bearer',
			expires_in: 600,
			refresh_token: expect.any(String),
			scope: 'subsidiary:2001',
		});
		const child = r.body.access_token;
		const list = await api('GET', '/odata/workorders?$count=true', { token: child });
		expect(list.status).toBe(200);
		expect(list.body['@odata.count']).toBe(fx.workOrders.child2001.length);
		expect(list.body.value.every((/** @type {any} */ w) => w.Subscriber.Id === 2001)).toBe(true);
		expect(
			(await api('GET', `/workorders/${fx.workOrders.child2001[0]}`, { token: child })).status,
		).toBe(200);
		expectError(
			await api('GET', `/workorders/${fx.workOrders.child2002[0]}`, { token: child }),
			404,
			5002,
		);
		expectError(
			await api('GET', `/workorders/${fx.workOrders.checklist}`, { token: child }),
			404,
			5002,
		);
		expectError(
			await api('GET', `/workorders/${fx.workOrders.universalParent[0]}`, { token: child }),
			404,
			5002,
		);
		// the unscoped universal token sees the parent's data only
		const parent = await api('GET', '/odata/workorders?$count=true', { token: uni.access_token });
		expect(parent.body['@odata.count']).toBe(fx.workOrders.universalParent.length);
		// and the main subscriber sees none of the holdings data
		const main = await token();
		expectError(
			await api('GET', `/workorders/${fx.workOrders.child2001[0]}`, { token: main }),
			404,
			5002,
		);
		expectError(
			await api('PUT', `/proposals/${fx.proposals.child2001}/onhold`, { token: main, json: {} }),
			400,
			502,
		);
		expect(
			(await api('PUT', `/proposals/${fx.proposals.child2001}/onhold`, { token: child, json: {} }))
				.status,
		).toBe(204);
	});

	test('refreshing a scoped token keeps the scope', async () => {
		const uni = await login('universal');
		const scoped = (
			await tokenRequest(
				{ subsidiary_id: '2002' },
				{ headers: { authorization: `Bearer ${uni.access_token}` } },
			)
		).body;
		const r = await tokenRequest({
			grant_type: 'refresh_token',
			refresh_token: scoped.refresh_token,
		});
		expect(r.status).toBe(200);
		expect(r.body.scope).toBe('subsidiary:2002');
		const list = await api('GET', '/odata/workorders?$count=true', { token: r.body.access_token });
		expect(list.body['@odata.count']).toBe(fx.workOrders.child2002.length);
	});

	test('refusals: non-universal Bearer, a subscriber that is not a child, no permission, missing subsidiary_id, invalid Bearer', async () => {
		const sub = await token();
		const notUniversal = await tokenRequest(
			{ subsidiary_id: '2001' },
			{ headers: { authorization: `Bearer ${sub}` } },
		);
		expect([notUniversal.status, notUniversal.body.error]).toEqual([401, 'access_denied']);
		const uni = await token('universal');
		const notChild = await tokenRequest(
			{ subsidiary_id: '1001' },
			{ headers: { authorization: `Bearer ${uni}` } },
		);
		expect([notChild.status, notChild.body.error]).toEqual([400, 'invalid_scope']);
		const limited = await token('noSubsidiaryPermission');
		const noPerm = await tokenRequest(
			{ subsidiary_id: '2001' },
			{ headers: { authorization: `Bearer ${limited}` } },
		);
		expect([noPerm.status, noPerm.body.error]).toEqual([401, 'access_denied']);
		const missing = await tokenRequest({}, { headers: { authorization: `Bearer ${uni}` } });
		expect([missing.status, missing.body.error]).toEqual([400, 'invalid_request']);
		const invalid = await tokenRequest(
			{ subsidiary_id: '2001' },
			{ headers: { authorization: 'Bearer nope' } },
		);
		expect([invalid.status, invalid.body.error]).toEqual([401, 'invalid_token']);
	});

	test('GET /subscribers/current/subsidiaries lists the children; it is permission-gated', async () => {
		const r = await api('GET', '/subscribers/current/subsidiaries', {
			token: await token('universal'),
		});
		expect(r.status).toBe(200);
		expect(r.body).toEqual([
			{ Id: 2001, Name: 'Holdings East', ParentId: 2000, IsActive: true },
			{ Id: 2002, Name: 'Holdings West', ParentId: 2000, IsActive: true },
		]);
		expectError(
			await api('GET', '/subscribers/current/subsidiaries', {
				token: await token('noSubsidiaryPermission'),
			}),
			401,
			1011,
		);
		expectError(
			await api('GET', '/subscribers/current/subsidiaries', {
				token: (await jwtLogin()).access_token,
			}),
			401,
			1011,
		);
		const plain = await api('GET', '/subscribers/current/subsidiaries', { token: await token() });
		expect([plain.status, plain.body]).toEqual([200, []]);
	});
});

describe('contractor API /jwt/token', () => {
	test('username+password: token_type jwt, a three-part JWT, expires_in 14400; works on the API as the provider', async () => {
		const r = await tokenRequest(
			{ username: fx.users.contractor.username, password: fx.users.contractor.password },
			{ endpoint: '/jwt/token' },
		);
		expect(r.status).toBe(200);
		expect(r.body).toEqual({
			access_token: expect.any(String),
			token_type: 'jwt',
			expires_in: 14400,
			refresh_token: expect.any(String),
		});
		const parts = r.body.access_token.split('.');
		expect(parts).toHaveLength(3);
		for (const p of parts) expect(p).toMatch(/^[A-Za-z0-9_-]+$/);
		const payload = JSON.parse(Buffer.from(parts[1], 'base64url').toString());
		expect(payload).toMatchObject({ sub: fx.users.contractor.username, pid: fx.providerId });
		expect(payload.exp - payload.iat).toBe(14400);
		const list = await api('GET', '/odata/workorders?$count=true&$top=1', {
			token: r.body.access_token,
		});
		expect(list.status).toBe(200);
		expect(list.body['@odata.count']).toBe(fx.workOrders.contractorVisibleCount);
		expect(
			(await api('GET', `/workorders/${fx.workOrders.checklist}`, { token: r.body.access_token }))
				.status,
		).toBe(200);
		expectError(
			await api('GET', `/workorders/${fx.workOrders.otherProvider}`, {
				token: r.body.access_token,
			}),
			404,
			5002,
		);
		expect(emu.requests.at(-1)).toMatchObject({
			tokenKind: 'jwt',
			username: fx.users.contractor.username,
		});
	});

	test('renewal with refresh_token (no grant_type) rotates the refresh token', async () => {
		const first = await jwtLogin();
		const r = await tokenRequest(
			{ refresh_token: first.refresh_token },
			{ endpoint: '/jwt/token' },
		);
		expect(r.status).toBe(200);
		expect(r.body.token_type).toBe('jwt');
		expect(r.body.access_token).not.toBe(first.access_token);
		const again = await tokenRequest(
			{ refresh_token: first.refresh_token },
			{ endpoint: '/jwt/token' },
		);
		expect([again.status, again.body.error]).toEqual([400, 'invalid_grant']);
	});

	test('a grant_type parameter is refused; Basic client required; not both credentials and refresh_token', async () => {
		const u = fx.users.contractor;
		const g = await tokenRequest(
			{ grant_type: 'password', username: u.username, password: u.password },
			{ endpoint: '/jwt/token' },
		);
		expect([g.status, g.body.error]).toEqual([400, 'invalid_request']);
		expect(g.body.error_description).toMatch(/grant_type/);
		const noClient = await tokenRequest(
			{ username: u.username, password: u.password },
			{ endpoint: '/jwt/token', noAuth: true },
		);
		expect([noClient.status, noClient.body.error]).toEqual([401, 'invalid_client']);
		const both = await tokenRequest(
			{ username: u.username, password: u.password, refresh_token: 'x' },
			{ endpoint: '/jwt/token' },
		);
		expect(both.status).toBe(400);
		const wrong = await tokenRequest(
			{ username: u.username, password: 'bad' },
			{ endpoint: '/jwt/token' },
		);
		expect([wrong.status, wrong.body.error]).toEqual([400, 'invalid_grant']);
	});

	test('JWT lifetime follows setTtl({ jwt }) and expiry gives 401; refresh tokens do not cross endpoints', async () => {
		emu.setTtl({ jwt: 60 });
		const j = await jwtLogin();
		expect(j.expires_in).toBe(60);
		emu.advanceTime(61);
		expectError(await api('GET', '/workorders', { token: j.access_token }), 401, 1003);
		const o = await login();
		const cross1 = await tokenRequest(
			{ refresh_token: o.refresh_token },
			{ endpoint: '/jwt/token' },
		);
		expect(cross1.status).toBe(400);
		const cross2 = await tokenRequest({
			grant_type: 'refresh_token',
			refresh_token: j.refresh_token,
		});
		expect(cross2.status).toBe(400);
	});

	test('contractors cannot change proposal status: only subscriber users may (400, code 401 "invalid subscriber")', async () => {
		const j = await jwtLogin();
		const r = await api('PUT', `/proposals/${fx.proposals.open}/approve`, {
			token: j.access_token,
			json: {},
		});
		expectError(r, 400, 401);
		expect(emu.state.proposals[fx.proposals.open].Status).toBe('Open');
	});
});

// =================================================================================================
