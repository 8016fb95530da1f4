'use strict';

/**
 * Contract tests of the Work Order Service emulator, against the spec
 * (../../../shared/spec/work-order-service-api.md) and the decisions in README.md.
 * Every test starts a fresh emulator on a free port and talks to it over real HTTP.
 */

const http = require('node:http');
const path = require('node:path');
const { spawn } = require('node:child_process');
const { startEmulator, createEmulator } = require('./index');

/** @type {import('./index').Emulator} */
let emu;
/** @type {any} */
let fx;

beforeEach(async () => {
  emu = await startEmulator();
  fx = emu.fixtures;
});

afterEach(async () => {
  await emu.close();
});

// ---- helpers ---------------------------------------------------------------------------------

/** @param {{ clientId: string, clientSecret: string }} c */
const basic = (c) => `Basic ${Buffer.from(`${c.clientId}:${c.clientSecret}`).toString('base64')}`;

/**
 * @param {Response} r
 */
async function read(r) {
  const text = await r.text();
  let body = null;
  try {
    body = JSON.parse(text);
  } catch {
    body = null;
  }
  return { status: r.status, text, body, headers: r.headers };
}

/**
 * @param {Record<string, string> | string | null} form
 * @param {{ client?: any, headers?: Record<string, string>, endpoint?: string, noAuth?: boolean }} [o]
 */
async function tokenRequest(form, o = {}) {
  /** @type {Record<string, string>} */
  const headers = { 'content-type': 'application/x-www-form-urlencoded' };
  if (!o.noAuth) headers.authorization = basic(o.client || fx.clients.main);
  Object.assign(headers, o.headers || {});
  for (const k of Object.keys(headers)) if (headers[k] === '') delete headers[k];
  const r = await fetch(`${emu.authUrl}${o.endpoint || '/oauth/token'}`, {
    method: 'POST',
    headers,
    body: form === null ? undefined : typeof form === 'string' ? form : new URLSearchParams(form).toString(),
    redirect: 'manual',
  });
  return read(r);
}

/** @param {string} [who] @param {any} [client] */
async function login(who = 'subscriber', client) {
  const u = fx.users[who];
  const r = await tokenRequest({ grant_type: 'password', username: u.username, password: u.password }, { client });
  if (r.status !== 200) throw new Error(`login ${who} failed: ${r.status} ${r.text}`);
  return r.body;
}

/** @param {string} [who] */
async function token(who = 'subscriber') {
  return (await login(who)).access_token;
}

/** @param {string} [who] */
async function jwtLogin(who = 'contractor') {
  const u = fx.users[who];
  const r = await tokenRequest({ username: u.username, password: u.password }, { endpoint: '/jwt/token' });
  if (r.status !== 200) throw new Error(`jwt login failed: ${r.status} ${r.text}`);
  return r.body;
}

/**
 * @param {string} method @param {string} p path under /api/v3
 * @param {{ token?: string, json?: any, body?: any, headers?: Record<string, string> }} [o]
 */
async function api(method, p, o = {}) {
  /** @type {Record<string, string>} */
  const headers = {};
  if (o.token) headers.authorization = `Bearer ${o.token}`;
  let body = o.body;
  if (o.json !== undefined) {
    headers['content-type'] = 'application/json';
    body = typeof o.json === 'string' ? o.json : JSON.stringify(o.json);
  }
  Object.assign(headers, o.headers || {});
  const r = await fetch(`${emu.baseUrl}/v3${p}`, { method, headers, body, redirect: 'manual' });
  return read(r);
}

/**
 * Raw HTTP request (no URL normalisation by fetch).
 * @param {string} method @param {string} rawPath @param {{ headers?: Record<string, string>, body?: Buffer | string }} [o]
 * @returns {Promise<{ status: number, text: string, headers: import('node:http').IncomingHttpHeaders }>}
 */
function raw(method, rawPath, o = {}) {
  return new Promise((resolve, reject) => {
    const req = http.request(
      { host: '127.0.0.1', port: emu.port, method, path: rawPath, headers: o.headers || {} },
      (res) => {
        const chunks = /** @type {Buffer[]} */ ([]);
        res.on('data', (c) => chunks.push(c));
        res.on('end', () => resolve({ status: res.statusCode || 0, text: Buffer.concat(chunks).toString('utf8'), headers: res.headers }));
      },
    );
    req.on('error', reject);
    if (o.body !== undefined) req.write(o.body);
    req.end();
  });
}

/**
 * Multipart request for POST /checklists/CheckListResponse.
 * @param {any} request the CheckListResponseRequest object (or a string to send as is)
 * @param {{ name?: string, data?: Buffer, type?: string } | null} [file]
 */
function checklistForm(request, file = null) {
  const fd = new FormData();
  fd.append('CheckListResponseRequest', typeof request === 'string' ? request : JSON.stringify(request));
  if (file) fd.append('file', new Blob([file.data || Buffer.from('img')], { type: file.type || 'image/jpeg' }), file.name || 'photo.jpg');
  return fd;
}

/** @param {Record<string, any>} extra */
function answer(extra) {
  return {
    CheckListQuestionID: fx.questions.acknowledgement,
    ProviderID: fx.providerId,
    TechnicianID: fx.technicianId,
    EntityID: fx.workOrders.checklist,
    Attempt: 1,
    ...extra,
  };
}

/**
 * @param {string} tok @param {any} request @param {{ name?: string, data?: Buffer, type?: string } | null} [file]
 */
function submit(tok, request, file = null) {
  return api('POST', '/checklists/CheckListResponse', { token: tok, body: checklistForm(request, file) });
}

/** @param {{ status: number, body: any }} r @param {number} status @param {number} [code] */
function expectError(r, status, code) {
  expect(r.status).toBe(status);
  expect(r.body).toEqual(
    expect.objectContaining({ ErrorCodes: expect.any(Array), ErrorCode: expect.any(Number), ErrorMessage: expect.any(String) }),
  );
  expect(r.body.ErrorMessage.length).toBeGreaterThan(5);
  if (code !== undefined) expect(r.body.ErrorCodes).toContain(code);
  expect(r.body.ErrorCodes[0]).toBe(r.body.ErrorCode);
}

// =================================================================================================
describe('token endpoint /oauth/token', () => {
  test('password grant: 200 with access_token, token_type bearer, expires_in 600, refresh_token; no scope for a plain subscriber', async () => {
    const u = fx.users.subscriber;
    const r = await tokenRequest({ grant_type: 'password', username: u.username, password: u.password });
    expect(r.status).toBe(200);
    expect(r.body).toEqual({
      access_token: expect.any(String),
      token_type: 'bearer',
      expires_in: 600,
      refresh_token: expect.any(String),
    });
    expect(r.headers.get('cache-control')).toBe('no-store');
    const wo = await api('GET', `/workorders/${fx.workOrders.checklist}`, { token: r.body.access_token });
    expect(wo.status).toBe(200);
    expect(emu.state.tokens.at(-1)).toMatchObject({ username: u.username, clientId: fx.clients.main.clientId, grant: 'password' });
  });

  test('password grant of a universal user carries scope', async () => {
    const t = await login('universal');
    expect(t.scope).toBe('universal');
  });

  test('the body must be form-encoded: JSON gets 415, an empty body 400', async () => {
    const u = fx.users.subscriber;
    const j = await tokenRequest(JSON.stringify({ grant_type: 'password', username: u.username, password: u.password }), {
      headers: { 'content-type': 'application/json' },
    });
    expect(j.status).toBe(415);
    expect(j.body.error).toBe('invalid_request');
    const none = await tokenRequest(null, { headers: { 'content-type': '' } });
    expect(none.status).toBe(400);
  });

  test('client credentials only as Basic BASE64(client_id:client_secret): body credentials, wrong secret and sloppy encodings get 401 invalid_client', async () => {
    const u = fx.users.subscriber;
    const c = fx.clients.main;
    const form = { grant_type: 'password', username: u.username, password: u.password };
    const inBody = await tokenRequest({ ...form, client_id: c.clientId, client_secret: c.clientSecret }, { noAuth: true });
    expect(inBody.status).toBe(401);
    expect(inBody.body.error).toBe('invalid_client');
    expect(inBody.body.error_description).toMatch(/Authorization header/);
    const wrong = await tokenRequest(form, { client: { clientId: c.clientId, clientSecret: 'nope' } });
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
    const r = await tokenRequest({ grant_type: 'password', username: fx.users.subscriber.username, password: 'wrong' });
    expect(r.status).toBe(400);
    expect(r.body).toEqual({ error: 'invalid_grant', error_description: expect.any(String) });
    const unknown = await tokenRequest({ grant_type: 'client_credentials' });
    expect([unknown.status, unknown.body.error]).toEqual([400, 'unsupported_grant_type']);
    const missing = await tokenRequest({ username: 'x', password: 'y' });
    expect([missing.status, missing.body.error]).toEqual([400, 'invalid_request']);
    const noPassword = await tokenRequest({ grant_type: 'password', username: fx.users.subscriber.username });
    expect([noPassword.status, noPassword.body.error]).toEqual([400, 'invalid_request']);
  });

  test('password-grant credentials are accepted only in the body, not in the URL', async () => {
    const u = fx.users.subscriber;
    const r = await fetch(
      `${emu.authUrl}/oauth/token?username=${encodeURIComponent(u.username)}&password=${encodeURIComponent(u.password)}`,
      {
        method: 'POST',
        headers: { authorization: basic(fx.clients.main), 'content-type': 'application/x-www-form-urlencoded' },
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
    expect((await tokenRequest({ grant_type: 'password', username: u.username, password: u.password })).status).toBe(200);
  });

  test('refresh_token grant rotates: new access and refresh token; the old refresh token is then invalid', async () => {
    const first = await login();
    const r = await tokenRequest({ grant_type: 'refresh_token', refresh_token: first.refresh_token });
    expect(r.status).toBe(200);
    expect(r.body.access_token).not.toBe(first.access_token);
    expect(r.body.refresh_token).not.toBe(first.refresh_token);
    expect(r.body.token_type).toBe('bearer');
    expect(r.body.expires_in).toBe(600);
    expect((await api('GET', '/workorders?pageSize=1', { token: r.body.access_token })).status).toBe(200);
    const reuse = await tokenRequest({ grant_type: 'refresh_token', refresh_token: first.refresh_token });
    expect([reuse.status, reuse.body.error]).toEqual([400, 'invalid_grant']);
    const otherClient = await tokenRequest({ grant_type: 'refresh_token', refresh_token: r.body.refresh_token }, { client: fx.clients.second });
    expect([otherClient.status, otherClient.body.error]).toEqual([400, 'invalid_grant']);
  });

  test('refresh tokens live 30 days; expireRefreshTokens() makes them invalid', async () => {
    const a = await login();
    emu.advanceTime(29 * 86400);
    const ok = await tokenRequest({ grant_type: 'refresh_token', refresh_token: a.refresh_token });
    expect(ok.status).toBe(200);
    emu.advanceTime(30 * 86400 + 1);
    const late = await tokenRequest({ grant_type: 'refresh_token', refresh_token: ok.body.refresh_token });
    expect([late.status, late.body.error]).toEqual([400, 'invalid_grant']);
    const b = await login();
    emu.expireRefreshTokens();
    const expired = await tokenRequest({ grant_type: 'refresh_token', refresh_token: b.refresh_token });
    expect(expired.status).toBe(400);
    expect(expired.body.error_description).toMatch(/expired/);
  });

  test('access tokens expire after expires_in seconds (emulator clock) and setTtl changes the lifetime', async () => {
    const t = await token();
    emu.advanceTime(599);
    expect((await api('GET', `/workorders/${fx.workOrders.checklist}`, { token: t })).status).toBe(200);
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

// =================================================================================================
describe('API authorization', () => {
  test('no Authorization header: 401 with the error body; code 1010 (rejected by security permissions) first', async () => {
    const r = await api('GET', '/workorders');
    expectError(r, 401, 1001);
    expect(r.body.ErrorCode).toBe(1010);
    expect(r.headers.get('www-authenticate')).toMatch(/^Bearer/);
  });

  test('Basic instead of Bearer, or an unknown token: 401', async () => {
    expectError(await api('GET', '/workorders', { headers: { authorization: basic(fx.clients.main) } }), 401, 1001);
    expectError(await api('GET', '/workorders', { token: 'at_not-a-real-token' }), 401, 1002);
    expectError(await api('GET', '/odata/workorders', { token: 'a.b.c' }), 401, 1002);
  });

  test('a valid token without the permission gets 401 with code 1011 (viewer cannot change proposals or write notes)', async () => {
    const t = await token('viewer');
    expect((await api('GET', `/workorders/${fx.workOrders.proposal}`, { token: t })).status).toBe(200);
    const p = await api('PUT', `/proposals/${fx.proposals.open}/approve`, { token: t, json: {} });
    expectError(p, 401, 1011);
    expect(p.body.ErrorMessage).toMatch(/security permissions/);
    expectError(await api('POST', `/workorders/${fx.workOrders.checklist}/notes`, { token: t, json: { NoteData: 'x' } }), 401, 1011);
    expect(emu.state.proposals[fx.proposals.open].Status).toBe('Open');
  });
});

// =================================================================================================
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
    return { status: r.status, location: r.headers.get('location'), cookie: r.headers.get('set-cookie'), text: await r.text() };
  }

  test('not logged in: GET shows an HTML login form that posts back with the query preserved', async () => {
    const q = { response_type: 'code', client_id: fx.clients.main.clientId, redirect_uri: cb, state: 'xyz' };
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
    const q = { response_type: 'code', client_id: fx.clients.main.clientId, redirect_uri: cb, state: 's-123' };
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
    expect((await api('GET', '/workorders?pageSize=1', { token: t.body.access_token })).status).toBe(200);
    const again = await tokenRequest({ grant_type: 'authorization_code', code, redirect_uri: cb });
    expect([again.status, again.body.error]).toEqual([400, 'invalid_grant']);
  });

  test('redirect_uri rule: when sent to /authorize it is required and must match at the token endpoint', async () => {
    const q = { response_type: 'code', client_id: fx.clients.main.clientId, redirect_uri: cb };
    const code1 = new URL(/** @type {string} */ ((await signIn(q)).location)).searchParams.get('code');
    const missing = await tokenRequest({ grant_type: 'authorization_code', code: /** @type {string} */ (code1) });
    expect([missing.status, missing.body.error]).toEqual([400, 'invalid_grant']);
    expect(missing.body.error_description).toMatch(/redirect_uri/);
    const code2 = new URL(/** @type {string} */ ((await signIn(q)).location)).searchParams.get('code');
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
    const code = /** @type {string} */ (new URL(/** @type {string} */ (s.location)).searchParams.get('code'));
    const t = await tokenRequest({ grant_type: 'authorization_code', code });
    expect(t.status).toBe(200);
  });

  test('an unregistered redirect_uri is refused without redirecting; addCallbackUri() registers it', async () => {
    const evil = 'http://127.0.0.1:9/steal';
    const r = await fetch(authorizeUrl({ response_type: 'code', client_id: fx.clients.main.clientId, redirect_uri: evil }), {
      redirect: 'manual',
    });
    expect(r.status).toBe(400);
    expect(r.headers.get('location')).toBeNull();
    emu.addCallbackUri(fx.clients.main.clientId, evil);
    const s = await signIn({ response_type: 'code', client_id: fx.clients.main.clientId, redirect_uri: evil });
    expect(s.location).toMatch(/^http:\/\/127\.0\.0\.1:9\/steal\?code=/);
  });

  test('a session cookie from the login makes the next GET redirect at once with a new code', async () => {
    const q = { response_type: 'code', client_id: fx.clients.main.clientId, redirect_uri: cb };
    const s = await signIn(q);
    const cookie = /** @type {string} */ (s.cookie).split(';')[0];
    const r = await fetch(authorizeUrl(q), { headers: { cookie }, redirect: 'manual' });
    expect(r.status).toBe(302);
    const code = new URL(/** @type {string} */ (r.headers.get('location'))).searchParams.get('code');
    expect(code).toBeTruthy();
    expect(code).not.toBe(new URL(/** @type {string} */ (s.location)).searchParams.get('code'));
  });

  test('codes are short-lived (60 s) and bound to the client they were issued to', async () => {
    const q = { response_type: 'code', client_id: fx.clients.main.clientId, redirect_uri: cb };
    const code = /** @type {string} */ (new URL(/** @type {string} */ ((await signIn(q)).location)).searchParams.get('code'));
    const wrongClient = await tokenRequest({ grant_type: 'authorization_code', code, redirect_uri: cb }, { client: fx.clients.second });
    expect([wrongClient.status, wrongClient.body.error]).toEqual([400, 'invalid_grant']);
    const code2 = /** @type {string} */ (new URL(/** @type {string} */ ((await signIn(q)).location)).searchParams.get('code'));
    emu.advanceTime(61);
    const late = await tokenRequest({ grant_type: 'authorization_code', code: code2, redirect_uri: cb });
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
    const t = await fetch(authorizeUrl({ ...q, response_type: 'token', state: 'k' }), { redirect: 'manual' });
    expect(t.status).toBe(302);
    expect(t.headers.get('location')).toBe(`${cb}?error=unsupported_response_type&state=k`);
  });

  test('an application without a callback URI: the code is shown on a page', async () => {
    const s = await signIn({ response_type: 'code', client_id: fx.clients.noCallback.clientId });
    expect(s.status).toBe(200);
    const code = /<code id="code">([^<]+)<\/code>/.exec(s.text);
    expect(code).not.toBeNull();
    const t = await tokenRequest({ grant_type: 'authorization_code', code: /** @type {any} */ (code)[1] }, { client: fx.clients.noCallback });
    expect(t.status).toBe(200);
  });
});

// =================================================================================================
describe('child subscriber scoping', () => {
  test('universal token + subsidiary_id gives a token scoped to that child; it sees only the child data', async () => {
    const uni = await login('universal');
    const r = await tokenRequest({ subsidiary_id: '2001' }, { headers: { authorization: `Bearer ${uni.access_token}` } });
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
    expect(list.body.value.every((/** @type {any} */ w) => w.SubscriberId === 2001)).toBe(true);
    expect((await api('GET', `/workorders/${fx.workOrders.child2001[0]}`, { token: child })).status).toBe(200);
    expectError(await api('GET', `/workorders/${fx.workOrders.child2002[0]}`, { token: child }), 404, 5002);
    expectError(await api('GET', `/workorders/${fx.workOrders.checklist}`, { token: child }), 404, 5002);
    expectError(await api('GET', `/workorders/${fx.workOrders.universalParent[0]}`, { token: child }), 404, 5002);
    // the unscoped universal token sees the parent's data only
    const parent = await api('GET', '/odata/workorders?$count=true', { token: uni.access_token });
    expect(parent.body['@odata.count']).toBe(fx.workOrders.universalParent.length);
    // and the main subscriber sees none of the holdings data
    const main = await token();
    expectError(await api('GET', `/workorders/${fx.workOrders.child2001[0]}`, { token: main }), 404, 5002);
    expectError(await api('PUT', `/proposals/${fx.proposals.child2001}/onhold`, { token: main, json: {} }), 404, 5004);
    expect((await api('PUT', `/proposals/${fx.proposals.child2001}/onhold`, { token: child, json: {} })).status).toBe(204);
  });

  test('refreshing a scoped token keeps the scope', async () => {
    const uni = await login('universal');
    const scoped = (await tokenRequest({ subsidiary_id: '2002' }, { headers: { authorization: `Bearer ${uni.access_token}` } })).body;
    const r = await tokenRequest({ grant_type: 'refresh_token', refresh_token: scoped.refresh_token });
    expect(r.status).toBe(200);
    expect(r.body.scope).toBe('subsidiary:2002');
    const list = await api('GET', '/odata/workorders?$count=true', { token: r.body.access_token });
    expect(list.body['@odata.count']).toBe(fx.workOrders.child2002.length);
  });

  test('refusals: non-universal Bearer, a subscriber that is not a child, no permission, missing subsidiary_id, invalid Bearer', async () => {
    const sub = await token();
    const notUniversal = await tokenRequest({ subsidiary_id: '2001' }, { headers: { authorization: `Bearer ${sub}` } });
    expect([notUniversal.status, notUniversal.body.error]).toEqual([401, 'access_denied']);
    const uni = await token('universal');
    const notChild = await tokenRequest({ subsidiary_id: '1001' }, { headers: { authorization: `Bearer ${uni}` } });
    expect([notChild.status, notChild.body.error]).toEqual([400, 'invalid_scope']);
    const limited = await token('noSubsidiaryPermission');
    const noPerm = await tokenRequest({ subsidiary_id: '2001' }, { headers: { authorization: `Bearer ${limited}` } });
    expect([noPerm.status, noPerm.body.error]).toEqual([401, 'access_denied']);
    const missing = await tokenRequest({}, { headers: { authorization: `Bearer ${uni}` } });
    expect([missing.status, missing.body.error]).toEqual([400, 'invalid_request']);
    const invalid = await tokenRequest({ subsidiary_id: '2001' }, { headers: { authorization: 'Bearer nope' } });
    expect([invalid.status, invalid.body.error]).toEqual([401, 'invalid_token']);
  });

  test('GET /subscribers/current/subsidiaries lists the children; it is permission-gated', async () => {
    const r = await api('GET', '/subscribers/current/subsidiaries', { token: await token('universal') });
    expect(r.status).toBe(200);
    expect(r.body).toEqual([
      { Id: 2001, Name: 'Holdings East', ParentId: 2000, IsActive: true },
      { Id: 2002, Name: 'Holdings West', ParentId: 2000, IsActive: true },
    ]);
    expectError(await api('GET', '/subscribers/current/subsidiaries', { token: await token('noSubsidiaryPermission') }), 401, 1011);
    expectError(await api('GET', '/subscribers/current/subsidiaries', { token: (await jwtLogin()).access_token }), 401, 1011);
    const plain = await api('GET', '/subscribers/current/subsidiaries', { token: await token() });
    expect([plain.status, plain.body]).toEqual([200, []]);
  });
});

// =================================================================================================
describe('contractor API /jwt/token', () => {
  test('username+password: token_type jwt, a three-part JWT, expires_in 14400; works on the API as the provider', async () => {
    const r = await tokenRequest(
      { username: fx.users.contractor.username, password: fx.users.contractor.password },
      { endpoint: '/jwt/token' },
    );
    expect(r.status).toBe(200);
    expect(r.body).toEqual({ access_token: expect.any(String), token_type: 'jwt', expires_in: 14400, refresh_token: expect.any(String) });
    const parts = r.body.access_token.split('.');
    expect(parts).toHaveLength(3);
    for (const p of parts) expect(p).toMatch(/^[A-Za-z0-9_-]+$/);
    const payload = JSON.parse(Buffer.from(parts[1], 'base64url').toString());
    expect(payload).toMatchObject({ sub: fx.users.contractor.username, pid: fx.providerId });
    expect(payload.exp - payload.iat).toBe(14400);
    const list = await api('GET', '/odata/workorders?$count=true&$top=1', { token: r.body.access_token });
    expect(list.status).toBe(200);
    expect(list.body['@odata.count']).toBe(fx.workOrders.contractorVisibleCount);
    expect((await api('GET', `/workorders/${fx.workOrders.checklist}`, { token: r.body.access_token })).status).toBe(200);
    expectError(await api('GET', `/workorders/${fx.workOrders.otherProvider}`, { token: r.body.access_token }), 404, 5002);
    expect(emu.requests.at(-1)).toMatchObject({ tokenKind: 'jwt', username: fx.users.contractor.username });
  });

  test('renewal with refresh_token (no grant_type) rotates the refresh token', async () => {
    const first = await jwtLogin();
    const r = await tokenRequest({ refresh_token: first.refresh_token }, { endpoint: '/jwt/token' });
    expect(r.status).toBe(200);
    expect(r.body.token_type).toBe('jwt');
    expect(r.body.access_token).not.toBe(first.access_token);
    const again = await tokenRequest({ refresh_token: first.refresh_token }, { endpoint: '/jwt/token' });
    expect([again.status, again.body.error]).toEqual([400, 'invalid_grant']);
  });

  test('a grant_type parameter is refused; Basic client required; not both credentials and refresh_token', async () => {
    const u = fx.users.contractor;
    const g = await tokenRequest({ grant_type: 'password', username: u.username, password: u.password }, { endpoint: '/jwt/token' });
    expect([g.status, g.body.error]).toEqual([400, 'invalid_request']);
    expect(g.body.error_description).toMatch(/grant_type/);
    const noClient = await tokenRequest({ username: u.username, password: u.password }, { endpoint: '/jwt/token', noAuth: true });
    expect([noClient.status, noClient.body.error]).toEqual([401, 'invalid_client']);
    const both = await tokenRequest({ username: u.username, password: u.password, refresh_token: 'x' }, { endpoint: '/jwt/token' });
    expect(both.status).toBe(400);
    const wrong = await tokenRequest({ username: u.username, password: 'bad' }, { endpoint: '/jwt/token' });
    expect([wrong.status, wrong.body.error]).toEqual([400, 'invalid_grant']);
  });

  test('JWT lifetime follows setTtl({ jwt }) and expiry gives 401; refresh tokens do not cross endpoints', async () => {
    emu.setTtl({ jwt: 60 });
    const j = await jwtLogin();
    expect(j.expires_in).toBe(60);
    emu.advanceTime(61);
    expectError(await api('GET', '/workorders', { token: j.access_token }), 401, 1003);
    const o = await login();
    const cross1 = await tokenRequest({ refresh_token: o.refresh_token }, { endpoint: '/jwt/token' });
    expect(cross1.status).toBe(400);
    const cross2 = await tokenRequest({ grant_type: 'refresh_token', refresh_token: j.refresh_token });
    expect(cross2.status).toBe(400);
  });

  test('contractors cannot change proposal status (401, permission)', async () => {
    const j = await jwtLogin();
    const r = await api('PUT', `/proposals/${fx.proposals.open}/approve`, { token: j.access_token, json: {} });
    expectError(r, 401, 1011);
    expect(emu.state.proposals[fx.proposals.open].Status).toBe('Open');
  });
});

// =================================================================================================
describe('POST /checklists/CheckListResponse', () => {
  test('201 with CheckListResponse and CheckListResponsePicture shaped as in the spec (no file: zeros and nulls)', async () => {
    const t = await token();
    const r = await submit(t, answer({ Answer: 'Yes' }));
    expect(r.status).toBe(201);
    expect(Object.keys(r.body)).toEqual(['CheckListResponse', 'CheckListResponsePicture']);
    const c = r.body.CheckListResponse;
    expect(c).toEqual({
      CheckListQuestionId: fx.questions.acknowledgement,
      CheckListQuestionOptionId: null,
      ProviderId: fx.providerId,
      TechnicianId: fx.technicianId,
      Id: expect.any(Number),
      Answer: 'yes',
      FreeTextAnswer: null,
      EntityId: fx.workOrders.checklist,
      EntityTypeId: 0,
      Attempt: 1,
      UpdatedDate: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?$/),
      UpdatedDateDto: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?\+00:00$/),
    });
    expect(r.body.CheckListResponsePicture).toEqual({
      Id: 0,
      CheckListResponseId: 0,
      DocumentName: null,
      DocumentPath: null,
      ThumbnailPath: null,
      HasThumbnail: null,
      UpdatedBy: null,
    });
    const second = await submit(t, answer({ Answer: 'no', Attempt: 2 }));
    expect(second.body.CheckListResponse.Id).not.toBe(c.Id);
    expect(emu.state.checklistResponses).toHaveLength(2);
    expect(emu.state.checklistResponses[0]).toMatchObject({ Id: c.Id, workOrderId: fx.workOrders.checklist, file: null });
  });

  test('Acknowledgement accepts on, off, 1, 0, true, false, yes, no (any case, or a JSON boolean); anything else 400', async () => {
    const t = await token();
    for (const word of ['on', 'off', '1', '0', 'true', 'false', 'yes', 'no', 'YES', 'On']) {
      const r = await submit(t, answer({ Answer: word }));
      expect([word, r.status, r.body.CheckListResponse.Answer]).toEqual([word, 201, word.toLowerCase()]);
    }
    const b = await submit(t, answer({ Answer: true }));
    expect([b.status, b.body.CheckListResponse.Answer]).toEqual([201, 'true']);
    expectError(await submit(t, answer({ Answer: 'maybe' })), 400, 3007);
    expectError(await submit(t, answer({ Answer: '2' })), 400, 3007);
  });

  test('Answer is required for every type except Selector', async () => {
    const t = await token();
    for (const q of [fx.questions.acknowledgement, fx.questions.textEntry, fx.questions.numericInput]) {
      expectError(await submit(t, answer({ CheckListQuestionID: q })), 400, 3006);
      expectError(await submit(t, answer({ CheckListQuestionID: q, Answer: '' })), 400, 3006);
    }
  });

  test('Selector: option required and must belong to the question; Answer is the option label', async () => {
    const t = await token();
    const { questionId, optionId, label } = fx.questions.selectorPlain;
    expectError(await submit(t, answer({ CheckListQuestionID: questionId })), 400, 3002);
    expectError(await submit(t, answer({ CheckListQuestionID: questionId, CheckListQuestionOptionID: 12345 })), 400, 3003);
    const ok = await submit(t, answer({ CheckListQuestionID: questionId, CheckListQuestionOptionID: optionId }));
    expect(ok.status).toBe(201);
    expect(ok.body.CheckListResponse).toMatchObject({ CheckListQuestionOptionId: optionId, Answer: label, FreeTextAnswer: null });
  });

  test('Selector: the sample spelling CheckListQuestionOptionId is accepted', async () => {
    const t = await token();
    const r = await submit(t, answer({ CheckListQuestionID: fx.questions.selector, CheckListQuestionOptionId: fx.questions.selectorOptions.replaced }));
    expect(r.status).toBe(201);
    expect(r.body.CheckListResponse).toMatchObject({ CheckListQuestionOptionId: fx.questions.selectorOptions.replaced, Answer: 'Replaced' });
  });

  test('Selector: FreeTextAnswer required for an IsConditionalFollowUp option, refused for other options', async () => {
    const t = await token();
    const { questionId, optionId } = fx.questions.selectorConditional;
    expectError(await submit(t, answer({ CheckListQuestionID: questionId, CheckListQuestionOptionID: optionId })), 400, 3004);
    const ok = await submit(t, answer({ CheckListQuestionID: questionId, CheckListQuestionOptionID: optionId, FreeTextAnswer: 'Fan bearing worn' }));
    expect(ok.status).toBe(201);
    expect(ok.body.CheckListResponse).toMatchObject({ Answer: 'Needs repair', FreeTextAnswer: 'Fan bearing worn', CheckListQuestionOptionId: optionId });
    const plain = fx.questions.selectorPlain;
    expectError(
      await submit(t, answer({ CheckListQuestionID: plain.questionId, CheckListQuestionOptionID: plain.optionId, FreeTextAnswer: 'x' })),
      400,
      3005,
    );
  });

  test('FreeTextAnswer is not allowed for non-Selector questions', async () => {
    const t = await token();
    expectError(await submit(t, answer({ Answer: 'yes', FreeTextAnswer: 'comment' })), 400, 3005);
    expectError(await submit(t, answer({ CheckListQuestionID: fx.questions.textEntry, Answer: 'a', FreeTextAnswer: 'c' })), 400, 3005);
  });

  test('Text Entry: at most 500 characters; returned in lower case', async () => {
    const t = await token();
    const ok = await submit(t, answer({ CheckListQuestionID: fx.questions.textEntry, Answer: 'Replaced Belt ' + 'A'.repeat(486) }));
    expect(ok.status).toBe(201);
    expect(ok.body.CheckListResponse.Answer).toBe('replaced belt ' + 'a'.repeat(486));
    expect(ok.body.CheckListResponse.Answer).toHaveLength(500);
    expectError(await submit(t, answer({ CheckListQuestionID: fx.questions.textEntry, Answer: 'x'.repeat(501) })), 400, 3008);
  });

  test('Numeric Input: a JSON number or a numeric string, returned as a numeric string; other text 400', async () => {
    const t = await token();
    const q = fx.questions.numericInput;
    const n = await submit(t, answer({ CheckListQuestionID: q, Answer: 72.5 }));
    expect(n.status).toBe(201);
    expect(n.text).toContain('"Answer":"72.5"');
    const s = await submit(t, answer({ CheckListQuestionID: q, Answer: '-4' }));
    expect(s.body.CheckListResponse.Answer).toBe('-4');
    expectError(await submit(t, answer({ CheckListQuestionID: q, Answer: 'warm' })), 400, 3009);
    expectError(await submit(t, answer({ CheckListQuestionID: q, Answer: '12abc' })), 400, 3009);
  });

  test('CheckListQuestionID, ProviderID, TechnicianID, EntityID and Attempt are required integers; Attempt >= 1', async () => {
    const t = await token();
    for (const f of ['CheckListQuestionID', 'ProviderID', 'TechnicianID', 'EntityID', 'Attempt']) {
      const req = answer({ Answer: 'yes' });
      delete req[f];
      const r = await submit(t, req);
      expectError(r, 400, 2007);
      expect(r.body.ErrorMessage).toContain(f);
    }
    expectError(await submit(t, answer({ Answer: 'yes', ProviderID: 'acme' })), 400, 2006);
    expectError(await submit(t, answer({ Answer: 'yes', Attempt: 1.5 })), 400, 2006);
    const zero = await submit(t, answer({ Answer: 'yes', Attempt: 0 }));
    expectError(zero, 400, 3014);
    expect(zero.body.ErrorMessage).toMatch(/visit/);
  });

  test('PictureFlag 2 requires a file; with a file the picture object is filled (DocumentPath #workorders/..., HasThumbnail for images)', async () => {
    const t = await token();
    const req = answer({ CheckListQuestionID: fx.questions.pictureRequired, Answer: 'yes' });
    expectError(await submit(t, req), 400, 3010);
    expectError(await submit(t, req, { name: 'empty.jpg', data: Buffer.alloc(0) }), 400, 3010);
    const img = Buffer.from([0xff, 0xd8, 0xff, 0xe0, 1, 2, 3, 4, 0xff, 0xd9]);
    const r = await submit(t, req, { name: 'nameplate.jpg', data: img, type: 'image/jpeg' });
    expect(r.status).toBe(201);
    const pic = r.body.CheckListResponsePicture;
    expect(pic).toEqual({
      Id: expect.any(Number),
      CheckListResponseId: r.body.CheckListResponse.Id,
      DocumentName: 'nameplate.jpg',
      DocumentPath: expect.stringMatching(/^#workorders\/\S+$/),
      ThumbnailPath: expect.stringMatching(/^#workorders\/\S+$/),
      HasThumbnail: true,
      UpdatedBy: null,
    });
    expect(pic.Id).toBeGreaterThan(0);
    const stored = emu.state.checklistResponses.at(-1);
    expect(stored.file).toMatchObject({ filename: 'nameplate.jpg', contentType: 'image/jpeg', size: img.length });
    expect(Buffer.compare(stored.file.data, img)).toBe(0);
    const pdf = await submit(t, answer({ Answer: 'yes' }), { name: 'report.pdf', data: Buffer.from('%PDF-1.4'), type: 'application/pdf' });
    expect(pdf.body.CheckListResponsePicture).toMatchObject({ DocumentName: 'report.pdf', HasThumbnail: false });
  });

  test('the work order must exist and be visible', async () => {
    const t = await token();
    expectError(await submit(t, answer({ Answer: 'yes', EntityID: 99999999 })), 404, 5002);
    expectError(await submit(t, answer({ Answer: 'yes', EntityID: fx.workOrders.child2001[0] })), 404, 5002);
  });

  test('the work order trade+category must have a checklist that contains the question', async () => {
    const t = await token();
    expectError(await submit(t, answer({ Answer: 'yes', EntityID: fx.workOrders.noChecklist })), 400, 3012);
    expectError(await submit(t, answer({ Answer: 'yes', EntityID: fx.workOrders.electricalChecklist })), 400, 3001);
    const ok = await submit(t, answer({ Answer: 'yes', CheckListQuestionID: fx.questions.electrical, EntityID: fx.workOrders.electricalChecklist }));
    expect(ok.status).toBe(201);
  });

  test('per-location enablement: a work order at a location with checklists disabled is refused', async () => {
    const t = await token();
    const r = await submit(t, answer({ Answer: 'yes', EntityID: fx.workOrders.checklistDisabledLocation }));
    expectError(r, 400, 3013);
    expect(r.body.ErrorMessage).toContain(String(fx.locations.checklistsDisabled));
  });

  test('a child subscriber without per-location checklists answers its own checklist with a scoped token', async () => {
    const uni = await token('universal');
    const child = (await tokenRequest({ subsidiary_id: '2001' }, { headers: { authorization: `Bearer ${uni}` } })).body.access_token;
    const wo = fx.workOrders.child2001[0];
    const r = await submit(child, { CheckListQuestionID: fx.questions.child2001, ProviderID: 3002, TechnicianID: fx.otherTechnicianId, EntityID: wo, Attempt: 1, Answer: 'on' });
    expect(r.status).toBe(201);
  });

  test('ProviderID must be the work order provider and TechnicianID one of its technicians', async () => {
    const t = await token();
    expectError(await submit(t, answer({ Answer: 'yes', ProviderID: 3002 })), 400, 3015);
    expectError(await submit(t, answer({ Answer: 'yes', TechnicianID: fx.otherTechnicianId })), 400, 3015);
  });

  test('the contractor (JWT) can submit for its provider', async () => {
    const j = await jwtLogin();
    const r = await submit(j.access_token, answer({ Answer: 'off' }));
    expect(r.status).toBe(201);
    expect(emu.state.checklistResponses.at(-1)).toMatchObject({ username: fx.users.contractor.username });
  });

  test('malformed requests: not multipart 415, missing JSON part 400, bad JSON 400, broken multipart 400', async () => {
    const t = await token();
    const asJson = await api('POST', '/checklists/CheckListResponse', { token: t, json: answer({ Answer: 'yes' }) });
    expectError(asJson, 415, 2002);
    const fd = new FormData();
    fd.append('file', new Blob([Buffer.from('x')], { type: 'image/png' }), 'x.png');
    expectError(await api('POST', '/checklists/CheckListResponse', { token: t, body: fd }), 400, 2005);
    expectError(await submit(t, '{"CheckListQuestionID": 9101,'), 400, 2001);
    expectError(await submit(t, '[1,2]'), 400, 2006);
    const broken = await api('POST', '/checklists/CheckListResponse', {
      token: t,
      body: '--abc\r\nContent-Disposition: form-data; name="CheckListResponseRequest"\r\n\r\n{}',
      headers: { 'content-type': 'multipart/form-data; boundary=abc' },
    });
    expectError(broken, 400, 2005);
    const noBoundary = await api('POST', '/checklists/CheckListResponse', {
      token: t,
      body: 'x',
      headers: { 'content-type': 'multipart/form-data' },
    });
    expectError(noBoundary, 400, 2005);
    expect(emu.state.checklistResponses).toHaveLength(0);
  });

  test('the request log holds the multipart parts (name, filename, content type, size, data, parsed JSON)', async () => {
    const t = await token();
    const req = answer({ Answer: 'yes' });
    await submit(t, req, { name: 'p.png', data: Buffer.from('PNGDATA'), type: 'image/png' });
    const entry = emu.requests.at(-1);
    expect(entry).toMatchObject({ method: 'POST', path: '/api/v3/checklists/CheckListResponse', status: 201, tokenKind: 'oauth' });
    const parts = /** @type {any[]} */ (entry.parts);
    expect(parts.map((p) => p.name)).toEqual(['CheckListResponseRequest', 'file']);
    expect(parts[0].json).toEqual(req);
    expect(parts[1]).toMatchObject({ filename: 'p.png', contentType: 'image/png', size: 7 });
    expect(parts[1].data.toString()).toBe('PNGDATA');
  });
});

// =================================================================================================
describe('proposal status', () => {
  test('open, onhold, approve, reject from any state: 204 with no body; status and history updated', async () => {
    const t = await token();
    const id = fx.proposals.open;
    for (const [action, status] of [
      ['onhold', 'OnHold'],
      ['approve', 'Approved'],
      ['reject', 'Rejected'],
      ['open', 'Open'],
      ['approve', 'Approved'],
      ['open', 'Open'],
    ]) {
      const r = await api('PUT', `/proposals/${id}/${action}`, { token: t, json: {} });
      expect([action, r.status, r.text]).toEqual([action, 204, '']);
      expect(emu.state.proposals[id].Status).toBe(status);
    }
    expect(emu.state.proposals[id].history.map((/** @type {any} */ h) => h.to)).toEqual([
      'Open', 'OnHold', 'Approved', 'Rejected', 'Open', 'Approved', 'Open',
    ]);
  });

  test('approve refused when the linked work order is invoiced (409, 4002)', async () => {
    const r = await api('PUT', `/proposals/${fx.proposals.invoiced}/approve`, { token: await token('manager'), json: {} });
    expectError(r, 409, 4002);
    expect(r.body.ErrorMessage).toMatch(/invoiced/);
    expect(emu.state.proposals[fx.proposals.invoiced].Status).toBe('Open');
    expect(emu.state.notifications).toHaveLength(0);
  });

  test('approve refused when no work order is linked (409, 4003)', async () => {
    const r = await api('PUT', `/proposals/${fx.proposals.noWorkOrder}/approve`, { token: await token('manager'), json: { Comments: 'x' } });
    expectError(r, 409, 4003);
    expect(r.body.ErrorMessage).toMatch(/no work order/);
    expect(emu.state.proposals[fx.proposals.noWorkOrder].Status).toBe('Open');
  });

  test('approve refused when the amount exceeds the approving user limit (403, 4004); a user with a higher limit may approve', async () => {
    const r = await api('PUT', `/proposals/${fx.proposals.overLimit}/approve`, { token: await token(), json: {} });
    expectError(r, 403, 4004);
    expect(r.body.ErrorMessage).toMatch(/approval limit/);
    expect(emu.state.proposals[fx.proposals.overLimit].Status).toBe('Open');
    const ok = await api('PUT', `/proposals/${fx.proposals.overLimit}/approve`, { token: await token('manager'), json: {} });
    expect(ok.status).toBe(204);
    expect(emu.state.proposals[fx.proposals.overLimit].Status).toBe('Approved');
  });

  test('the other moves are not refused for the invoiced / no-work-order proposals', async () => {
    const t = await token();
    expect((await api('PUT', `/proposals/${fx.proposals.invoiced}/reject`, { token: t, json: {} })).status).toBe(204);
    expect((await api('PUT', `/proposals/${fx.proposals.noWorkOrder}/onhold`, { token: t, json: { Comments: 'later' } })).status).toBe(204);
  });

  test('body: Content-Type application/json required (415), body required (400), bad JSON 400, non-object 400; {} is fine', async () => {
    const t = await token();
    const p = `/proposals/${fx.proposals.open}/onhold`;
    expectError(await api('PUT', p, { token: t, body: 'Comments=x', headers: { 'content-type': 'application/x-www-form-urlencoded' } }), 415, 2002);
    expectError(await api('PUT', p, { token: t }), 400, 2003);
    expectError(await api('PUT', p, { token: t, body: '', headers: { 'content-type': 'application/json' } }), 400, 2003);
    expectError(await api('PUT', p, { token: t, json: '{"Comments": ' }), 400, 2001);
    expectError(await api('PUT', p, { token: t, json: '["x"]' }), 400, 2006);
    expect(emu.state.proposals[fx.proposals.open].Status).toBe('Open');
    expect((await api('PUT', p, { token: t, json: {} })).status).toBe(204);
  });

  test('fields: e-mails validated, ActionSource Standard|DecisionEngine, RejectReasonCodeId must be a known code', async () => {
    const t = await token();
    const id = fx.proposals.open;
    expectError(await api('PUT', `/proposals/${id}/open`, { token: t, json: { ProviderEmail: 'not-an-email' } }), 400, 2010);
    expectError(await api('PUT', `/proposals/${id}/open`, { token: t, json: { UserEmail: 'a@b' } }), 400, 2010);
    expectError(await api('PUT', `/proposals/${id}/onhold`, { token: t, json: { ActionSource: 'Robot' } }), 400, 4006);
    expectError(await api('PUT', `/proposals/${id}/reject`, { token: t, json: { RejectReasonCodeId: 99 } }), 400, 4007);
    expectError(await api('PUT', `/proposals/${id}/reject`, { token: t, json: { RejectReasonCodeId: 'x' } }), 400, 2006);
    expect(emu.state.proposals[id].Status).toBe('Open');
    const ok = await api('PUT', `/proposals/${id}/reject`, { token: t, json: { RejectReasonCodeId: 1, ActionSource: 'DecisionEngine' } });
    expect(ok.status).toBe(204);
    expect(emu.state.proposals[id]).toMatchObject({ Status: 'Rejected', RejectReasonCodeId: 1, ActionSource: 'DecisionEngine' });
    expect(emu.state.proposals[id].history.at(-1)).toMatchObject({ action: 'reject', rejectReasonCodeId: 1, actionSource: 'DecisionEngine' });
  });

  test('Comments, and ReasonString on approve, are appended as notes of the work order with new int64 ids', async () => {
    const t = await token();
    const wo = fx.workOrders.proposal;
    const before = emu.notesOf(wo).length;
    expect((await api('PUT', `/proposals/${fx.proposals.open}/approve`, { token: t, json: { Comments: 'Go ahead', ReasonString: 'Within budget' } })).status).toBe(204);
    expect((await api('PUT', `/proposals/${fx.proposals.open}/onhold`, { token: t, json: { Comments: 'Wait for the landlord', ReasonString: 'ignored here' } })).status).toBe(204);
    const notes = emu.notesOf(wo);
    expect(notes).toHaveLength(before + 2);
    const [n1, n2] = notes.slice(-2);
    expect(n1.NoteData).toMatch(/approved/);
    expect(n1.NoteData).toContain('Within budget');
    expect(n1.NoteData).toContain('Go ahead');
    expect(n2.NoteData).toContain('Wait for the landlord');
    expect(n2.NoteData).not.toContain('ignored here');
    expect(typeof n1.Id).toBe('bigint');
    expect(n1.Id > 2n ** 53n).toBe(true);
    expect(n2.Id > n1.Id).toBe(true);
    const list = await api('GET', `/workorders/${wo}/notes`, { token: t });
    expect(list.text).toContain(`"Id":${n2.Id}`);
  });

  test('notifications: defaults are the provider e-mail and the current user e-mail; ProviderEmail/UserEmail override', async () => {
    const t = await token();
    await api('PUT', `/proposals/${fx.proposals.open}/onhold`, { token: t, json: {} });
    expect(emu.state.notifications.at(-1)).toMatchObject({
      proposalId: fx.proposals.open,
      action: 'onhold',
      recipients: [fx.providers.main.email, fx.users.subscriber.email],
    });
    await api('PUT', `/proposals/${fx.proposals.open}/open`, { token: t, json: { ProviderEmail: 'pm@acme.example', UserEmail: 'me@retail.example' } });
    expect(emu.state.notifications.at(-1)).toMatchObject({ action: 'open', recipients: ['pm@acme.example', 'me@retail.example'] });
    await api('PUT', `/proposals/${fx.proposals.otherProvider}/onhold`, { token: t, json: {} });
    expect(emu.state.notifications.at(-1).recipients).toEqual([fx.providers.other.email, fx.users.subscriber.email]);
  });

  test('reject with useProposalAlertEmails=true and no e-mails: every user of the proposal-alerts list is notified', async () => {
    const t = await token();
    const alerts = fx.subscribers.proposalAlertEmails[1001];
    expect((await api('PUT', `/proposals/${fx.proposals.open}/reject?useProposalAlertEmails=true`, { token: t, json: { RejectReasonCodeId: 2 } })).status).toBe(204);
    const n = emu.state.notifications.at(-1);
    expect(n).toMatchObject({ action: 'reject', useProposalAlertEmails: true });
    for (const a of alerts) expect(n.recipients).toContain(a);
    expect(n.recipients).not.toContain(fx.users.subscriber.email);
    // with an e-mail passed, the list is not used
    await api('PUT', `/proposals/${fx.proposals.onHold}/reject?useProposalAlertEmails=true`, { token: t, json: { UserEmail: 'one@retail.example' } });
    const m = emu.state.notifications.at(-1);
    expect(m.useProposalAlertEmails).toBe(false);
    expect(m.recipients).toEqual([fx.providers.main.email, 'one@retail.example']);
    // false: ignored
    await api('PUT', `/proposals/${fx.proposals.rejected}/reject?useProposalAlertEmails=false`, { token: t, json: {} });
    expect(emu.state.notifications.at(-1).recipients).toEqual([fx.providers.main.email, fx.users.subscriber.email]);
    expectError(await api('PUT', `/proposals/${fx.proposals.rejected}/reject?useProposalAlertEmails=maybe`, { token: t, json: {} }), 400, 4008);
  });

  test('useProposalAlertEmails is ignored on open, onhold and approve', async () => {
    const t = await token();
    const r = await api('PUT', `/proposals/${fx.proposals.open}/onhold?useProposalAlertEmails=true`, { token: t, json: {} });
    expect(r.status).toBe(204);
    expect(emu.state.notifications.at(-1)).toMatchObject({ useProposalAlertEmails: false, recipients: [fx.providers.main.email, fx.users.subscriber.email] });
    expect((await api('PUT', `/proposals/${fx.proposals.open}/approve?useProposalAlertEmails=maybe`, { token: t, json: {} })).status).toBe(204);
  });

  test('unknown proposal 404; a non-integer id 400; an unknown action 404', async () => {
    const t = await token();
    expectError(await api('PUT', '/proposals/12345/approve', { token: t, json: {} }), 404, 5004);
    expectError(await api('PUT', '/proposals/abc/approve', { token: t, json: {} }), 400, 2004);
    expectError(await api('PUT', `/proposals/${fx.proposals.open}/cancel`, { token: t, json: {} }), 404, 5000);
  });

  test('GET /proposals/RejectionReasons lists {Id, Code, Description}', async () => {
    const r = await api('GET', '/proposals/RejectionReasons', { token: await token() });
    expect(r.status).toBe(200);
    expect(r.body).toEqual(fx.rejectionReasons);
    expect(r.body[0]).toEqual({ Id: 1, Code: 'PRICE_TOO_HIGH', Description: 'Price is too high' });
  });
});

// =================================================================================================
describe('work order notes (int64 ids)', () => {
  test('GET /workorders/{id}/notes: {Notes, AllNotesCount}; ids above 2^31, 2^53 and the int64 maximum as exact literals', async () => {
    const r = await api('GET', `/workorders/${fx.notes.workOrderId}/notes`, { token: await token() });
    expect(r.status).toBe(200);
    for (const id of [fx.notes.big31, fx.notes.big53, fx.notes.max64]) {
      expect(r.text).toContain(`"Id":${id},`);
      expect(r.text).not.toContain(`"${id}"`);
    }
    expect(r.body.AllNotesCount).toBe(4);
    expect(r.body.Notes).toHaveLength(4);
    expect(Object.keys(r.body.Notes[0])).toEqual(
      expect.arrayContaining(['Id', 'NoteData', 'DateCreated', 'DateCreatedDto', 'CreatedBy', 'MailedTo', 'ActionRequired', 'ScheduledDate', 'FollowUpDate', 'IsPinned', 'Visibility', 'Attachments']),
    );
  });

  test('paging=page:size pages the notes list; a malformed paging value is 400', async () => {
    const t = await token();
    const p1 = await api('GET', `/workorders/${fx.notes.workOrderId}/notes?paging=1:3`, { token: t });
    const p2 = await api('GET', `/workorders/${fx.notes.workOrderId}/notes?paging=2:3`, { token: t });
    expect(p1.body.Notes).toHaveLength(3);
    expect(p2.body.Notes).toHaveLength(1);
    expect(p1.body.AllNotesCount).toBe(4);
    expect(p2.body.AllNotesCount).toBe(4);
    expectError(await api('GET', `/workorders/${fx.notes.workOrderId}/notes?paging=first`, { token: t }), 400, 2008);
  });

  test('POST /workorders/{id}/notes: NoteData required; optional fields stored; 201 with the note and an id above 2^53', async () => {
    const t = await token();
    const wo = fx.notes.workOrderId;
    expectError(await api('POST', `/workorders/${wo}/notes`, { token: t, json: {} }), 400, 2007);
    expectError(await api('POST', `/workorders/${wo}/notes`, { token: t, json: { NoteData: '   ' } }), 400, 2007);
    expectError(await api('POST', `/workorders/${wo}/notes`, { token: t, json: { NoteData: 5 } }), 400, 2006);
    expectError(await api('POST', `/workorders/${wo}/notes`, { token: t, json: { NoteData: 'x', IsPinned: 'yes' } }), 400, 2006);
    expectError(await api('POST', `/workorders/${wo}/notes`, { token: t, json: { NoteData: 'x', MailedTo: 'a@b.example;broken' } }), 400, 2010);
    expectError(await api('POST', `/workorders/${wo}/notes`, { token: t, json: { NoteData: 'x', ScheduledDate: 'tomorrow' } }), 400, 2006);
    const r = await api('POST', `/workorders/${wo}/notes`, {
      token: t,
      json: {
        NoteData: 'Please call before arrival',
        MailedTo: 'a@shop.example; b@shop.example',
        ActionRequired: true,
        ScheduledDate: '2030-01-02T10:00:00Z',
        FollowUpDate: '2030-01-05T00:00:00',
        Visibility: 1,
        NotifyFollowers: true,
        DoNotSendEmail: false,
        IsPinned: true,
      },
    });
    expect(r.status).toBe(201);
    expect(r.text).toMatch(/^\{"Id":9007199254741000,/);
    expect(r.body).toMatchObject({
      WorkOrderId: wo,
      NoteData: 'Please call before arrival',
      MailedTo: 'a@shop.example;b@shop.example',
      ActionRequired: true,
      ScheduledDate: '2030-01-02T10:00:00.000',
      ScheduledDateDto: '2030-01-02T10:00:00.000+00:00',
      FollowUpDate: '2030-01-05T00:00:00.000',
      Visibility: 1,
      IsPinned: true,
      CreatedBy: 'Sam Subscriber',
    });
    expect(r.headers.get('location')).toContain(`notes(9007199254741000)`);
    expect(emu.state.notifications.at(-1)).toMatchObject({ type: 'note', recipients: ['a@shop.example', 'b@shop.example'] });
    const next = await api('POST', `/workorders/${wo}/notes`, { token: t, json: { NoteData: 'second', DoNotSendEmail: true, MailedTo: 'c@shop.example' } });
    expect(next.text).toMatch(/^\{"Id":9007199254741001,/);
    expect(emu.state.notifications).toHaveLength(1);
    const list = await api('GET', `/workorders/${wo}/notes?paging=1:1`, { token: t });
    expect(list.text).toContain('"Id":9007199254741001');
    expect(list.body.AllNotesCount).toBe(6);
  });

  test('incoming JSON bodies are parsed without losing digits (BigInt in the request log)', async () => {
    const t = await token();
    await api('POST', `/workorders/${fx.notes.workOrderId}/notes`, { token: t, json: '{"NoteData":"reply","ReplyToNoteId":9223372036854775807}' });
    expect(emu.requests.at(-1).body.ReplyToNoteId).toBe(9223372036854775807n);
  });

  test('OData notes list and single note by int64 id; ids beyond int64 are 400, unknown ids 404', async () => {
    const t = await token();
    const wo = fx.notes.workOrderId;
    const list = await api('GET', `/odata/workorders(${wo})/notes`, { token: t });
    expect(list.status).toBe(200);
    expect(list.text).toContain(`"@odata.context":"${emu.baseUrl}/v3/odata/$metadata#WorkOrders(${wo})/Notes"`);
    expect(list.text).toContain(`"Id":${fx.notes.max64}`);
    expect(list.body.value).toHaveLength(4);
    const one = await api('GET', `/odata/workorders(${wo})/notes(${fx.notes.max64})`, { token: t });
    expect(one.status).toBe(200);
    expect(one.text).toMatch(new RegExp(`^\\{"Id":${fx.notes.max64},"WorkOrderId":${wo},`));
    const big53 = await api('GET', `/odata/workorders(${wo})/notes(${fx.notes.big53})`, { token: t });
    expect(big53.text).toContain(`"Id":${fx.notes.big53},`);
    expect(big53.text).toContain(`"NoteId":${fx.notes.big53},`);
    expectError(await api('GET', `/odata/workorders(${wo})/notes(9223372036854775808)`, { token: t }), 400, 2004);
    expectError(await api('GET', `/odata/workorders(${wo})/notes(9007199254740992)`, { token: t }), 404, 5003);
    expectError(await api('GET', `/odata/workorders(${wo})/notes(abc)`, { token: t }), 400, 2004);
    const filtered = await api('GET', `/odata/workorders(${wo})/notes?$filter=Id eq ${fx.notes.big53}`, { token: t });
    expect(filtered.body.value).toHaveLength(1);
    expect(filtered.text).toContain(`"Id":${fx.notes.big53}`);
  });

  test('replicaLagMs: a note created a moment ago is not readable yet', async () => {
    emu.setFaults({ replicaLagMs: 30000 });
    const t = await token();
    const r = await api('POST', `/workorders/${fx.workOrders.checklist}/notes`, { token: t, json: { NoteData: 'fresh' } });
    expect(r.status).toBe(201);
    const id = /"Id":(\d+)/.exec(r.text)?.[1];
    expectError(await api('GET', `/odata/workorders(${fx.workOrders.checklist})/notes(${id})`, { token: t }), 404, 5003);
    emu.advanceTime(31);
    const t2 = await token();
    expect((await api('GET', `/odata/workorders(${fx.workOrders.checklist})/notes(${id})`, { token: t2 })).status).toBe(200);
  });
});

// =================================================================================================
describe('note attachments', () => {
  test('POST multipart file → 201 attachment record; listed per note and per work order; bytes stored', async () => {
    const t = await token();
    const wo = fx.notes.workOrderId;
    const noteId = fx.notes.max64;
    const fd = new FormData();
    const bytes = Buffer.from('%PDF-1.7 invoice');
    fd.append('file', new Blob([bytes], { type: 'application/pdf' }), 'invoice.pdf');
    const r = await api('POST', `/workorders/${wo}/notes/${noteId}/attachments`, { token: t, body: fd });
    expect(r.status).toBe(201);
    expect(r.text).toContain(`"NoteId":${noteId},`);
    expect(r.body).toMatchObject({
      Id: expect.any(Number),
      WorkOrderId: wo,
      FileName: 'invoice.pdf',
      ContentType: 'application/pdf',
      Size: bytes.length,
      DocumentPath: expect.stringMatching(/^#workorders\//),
      HasThumbnail: false,
    });
    const stored = emu.state.attachments.at(-1);
    expect(stored).toMatchObject({ FileName: 'invoice.pdf', Size: bytes.length, ContentType: 'application/pdf', NoteId: BigInt(noteId) });
    expect(Buffer.compare(stored.data, bytes)).toBe(0);
    const perNote = await api('GET', `/odata/workorders(${wo})/notes(${noteId})/attachments`, { token: t });
    expect(perNote.body.value.map((/** @type {any} */ a) => a.Id)).toEqual([r.body.Id]);
    const perWo = await api('GET', `/odata/workorders(${wo})/attachments?$count=true`, { token: t });
    expect(perWo.body['@odata.count']).toBe(2); // fixture attachment + this one
    const note = await api('GET', `/odata/workorders(${wo})/notes(${noteId})`, { token: t });
    expect(note.body.Attachments.map((/** @type {any} */ a) => a.FileName)).toEqual(['invoice.pdf']);
  });

  test('attachment errors: missing file part 400, not multipart 415, unknown note 404, unknown work order 404', async () => {
    const t = await token();
    const wo = fx.notes.workOrderId;
    const fd = new FormData();
    fd.append('other', 'x');
    expectError(await api('POST', `/workorders/${wo}/notes/${fx.notes.big31}/attachments`, { token: t, body: fd }), 400, 2005);
    expectError(await api('POST', `/workorders/${wo}/notes/${fx.notes.big31}/attachments`, { token: t, json: {} }), 415, 2002);
    const f2 = new FormData();
    f2.append('file', new Blob([Buffer.from('x')]), 'x.bin');
    expectError(await api('POST', `/workorders/${wo}/notes/123/attachments`, { token: t, body: f2 }), 404, 5003);
    const f3 = new FormData();
    f3.append('file', new Blob([Buffer.from('x')]), 'x.bin');
    expectError(await api('POST', `/workorders/99999999/notes/1/attachments`, { token: t, body: f3 }), 404, 5002);
    expect(emu.state.attachments).toHaveLength(1);
  });
});

// =================================================================================================
describe('check-in / check-out', () => {
  test('universalCheckIn and universalCheckOut record activity; Service.CheckInActivity() lists it', async () => {
    const j = (await jwtLogin()).access_token;
    const wo = fx.workOrders.checklist;
    const a = await api('POST', `/workorders/${wo}/universalCheckIn`, { token: j, json: { Latitude: 32.7767, Longitude: -96.797 } });
    expect(a.status).toBe(201);
    expect(a.body).toMatchObject({ WorkOrderId: wo, ActivityType: 'CheckIn', Latitude: 32.7767, Longitude: -96.797, TechnicianId: fx.technicianId, UserId: fx.users.contractor.userId });
    expect(emu.state.workOrders[wo].Status).toEqual({ Primary: 'IN PROGRESS', Extended: 'ON SITE' });
    const b = await api('POST', `/workorders/${wo}/universalCheckOut`, { token: j, json: { UserId: 77, WorkCompleted: true } });
    expect(b.status).toBe(201);
    expect(b.body).toMatchObject({ ActivityType: 'CheckOut', CheckInId: a.body.Id, UserId: 77 });
    expect(emu.state.workOrders[wo].Status.Primary).toBe('COMPLETED');
    const list = await api('GET', `/odata/workorders(${wo})/Service.CheckInActivity()`, { token: j });
    expect(list.status).toBe(200);
    expect(list.body.value.map((/** @type {any} */ x) => x.ActivityType)).toEqual(['CheckIn', 'CheckOut']);
    expect(emu.state.checkIns).toHaveLength(2);
  });

  test('no body is fine; invalid JSON, out-of-range latitude and a wrong content type are refused', async () => {
    const t = await token();
    const wo = fx.workOrders.noChecklist;
    expect((await api('POST', `/workorders/${wo}/universalCheckIn`, { token: t })).status).toBe(201);
    expectError(await api('POST', `/workorders/${wo}/universalCheckIn`, { token: t, json: '{bad' }), 400, 2001);
    expectError(await api('POST', `/workorders/${wo}/universalCheckIn`, { token: t, json: { Latitude: 123 } }), 400, 2006);
    expectError(await api('POST', `/workorders/${wo}/universalCheckOut`, { token: t, body: 'x', headers: { 'content-type': 'text/plain' } }), 415, 2002);
    expectError(await api('POST', `/workorders/${fx.workOrders.otherProvider}/universalCheckIn`, { token: (await jwtLogin()).access_token }), 404, 5002);
    expect(emu.state.checkIns).toHaveLength(1);
  });
});

// =================================================================================================
describe('work orders: REST and OData', () => {
  test('GET /workorders pages with page/pageSize, at most 50 per page', async () => {
    const t = await token();
    const big = await api('GET', '/workorders?pageSize=100', { token: t });
    expect(big.status).toBe(200);
    expect(big.body.WorkOrders).toHaveLength(50);
    expect(big.body).toMatchObject({ Page: 1, PageSize: 50, TotalCount: fx.workOrders.mainCount, TotalPages: 3 });
    const p3 = await api('GET', '/workorders?page=3&pageSize=50', { token: t });
    expect(p3.body.WorkOrders).toHaveLength(fx.workOrders.mainCount - 100);
    const small = await api('GET', '/workorders?page=2&pageSize=10', { token: t });
    expect(small.body.WorkOrders[0].Id).toBe(fx.workOrders.mainFirst + 10);
    expectError(await api('GET', '/workorders?page=0', { token: t }), 400, 2008);
    expectError(await api('GET', '/workorders?pageSize=x', { token: t }), 400, 2008);
  });

  test('GET /workorders/{id} returns the work order with plausible fields; bad id 400, unknown 404', async () => {
    const t = await token();
    const r = await api('GET', `/workorders/${fx.workOrders.invoiced}`, { token: t });
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({
      Id: fx.workOrders.invoiced,
      Number: String(fx.workOrders.invoiced),
      Status: { Primary: 'COMPLETED', Extended: 'INVOICED' },
      Trade: expect.any(String),
      Category: expect.any(String),
      LocationId: expect.any(Number),
      SubscriberId: 1001,
      ProviderId: fx.providerId,
      Caller: expect.any(String),
      Description: expect.any(String),
      Nte: expect.any(Number),
      IsInvoiced: true,
      CreatedDate: expect.stringMatching(/^\d{4}-\d\d-\d\dT[\d:.]+$/),
      CreatedDateDto: expect.stringMatching(/\+00:00$/),
    });
    expectError(await api('GET', '/workorders/12ab', { token: t }), 400, 2004);
    expectError(await api('GET', '/workorders/99999999999', { token: t }), 400, 2004);
    expectError(await api('GET', '/workorders/99999999', { token: t }), 404, 5002);
  });

  test('OData list: value array, at most 50 per page whatever $top says, $skip, $count, no @odata.nextLink', async () => {
    const t = await token();
    const ids = new Set();
    for (let skip = 0; ; skip += 50) {
      const r = await api('GET', `/odata/workorders?$top=500&$skip=${skip}&$count=true`, { token: t });
      expect(r.status).toBe(200);
      expect(r.body['@odata.context']).toBe(`${emu.baseUrl}/v3/odata/$metadata#WorkOrders`);
      expect(r.body['@odata.count']).toBe(fx.workOrders.mainCount);
      expect(r.text).not.toContain('nextLink');
      expect(r.body.value.length).toBeLessThanOrEqual(50);
      for (const w of r.body.value) ids.add(w.Id);
      if (r.body.value.length < 50) break;
    }
    expect(ids.size).toBe(fx.workOrders.mainCount);
    const top5 = await api('GET', '/odata/workorders?$top=5&$skip=2', { token: t });
    expect(top5.body.value.map((/** @type {any} */ w) => w.Id)).toEqual([3, 4, 5, 6, 7].map((k) => fx.workOrders.mainFirst + k - 1));
    expect(top5.body['@odata.count']).toBeUndefined();
  });

  test('OData $filter (eq joined by and), $orderby, $select; unsupported syntax is 400 with a message', async () => {
    const t = await token();
    const f = await api('GET', `/odata/workorders?$filter=${encodeURIComponent("Status/Primary eq 'OPEN' and LocationId eq 502 and IsInvoiced eq false")}&$count=true`, { token: t });
    expect(f.status).toBe(200);
    expect(f.body.value.length).toBeGreaterThan(0);
    expect(f.body.value.every((/** @type {any} */ w) => w.Status.Primary === 'OPEN' && w.LocationId === 502)).toBe(true);
    const inv = await api('GET', `/odata/workorders?$filter=IsInvoiced eq true`, { token: t });
    expect(inv.body.value.map((/** @type {any} */ w) => w.Id)).toEqual([fx.workOrders.invoiced]);
    const quote = await api('GET', `/odata/workorders?$filter=${encodeURIComponent("Description eq 'It''s broken'")}`, { token: t });
    expect([quote.status, quote.body.value]).toEqual([200, []]);
    const o = await api('GET', '/odata/workorders?$orderby=Nte desc,Id asc&$top=3&$select=Id,Nte', { token: t });
    expect(o.body['@odata.context']).toBe(`${emu.baseUrl}/v3/odata/$metadata#WorkOrders(Id,Nte)`);
    expect(Object.keys(o.body.value[0])).toEqual(['Id', 'Nte']);
    const ntes = o.body.value.map((/** @type {any} */ w) => w.Nte);
    expect([...ntes].sort((a, b) => b - a)).toEqual(ntes);
    for (const bad of ['Nte gt', "Trade eq 'HVAC' xor Trade eq 'PLUMBING'", 'contains(Trade,\'H\')', 'Bogus eq 1', "Trade eq HVAC"]) {
      const r = await api('GET', `/odata/workorders?$filter=${encodeURIComponent(bad)}`, { token: t });
      expectError(r, 400, 2008);
    }
    expectError(await api('GET', '/odata/workorders?$orderby=Bogus', { token: t }), 400, 2008);
    expectError(await api('GET', '/odata/workorders?$select=Id,Bogus', { token: t }), 400, 2008);
    expectError(await api('GET', '/odata/workorders?$expand=Notes', { token: t }), 400, 2008);
    expectError(await api('GET', '/odata/workorders?$top=-1', { token: t }), 400, 2008);
  });

  test('OData single work order returns the object', async () => {
    const r = await api('GET', `/odata/workorders(${fx.workOrders.checklist})`, { token: await token() });
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({ Id: fx.workOrders.checklist, Trade: 'HVAC', Category: 'PREVENTIVE MAINTENANCE' });
    expect(r.body.value).toBeUndefined();
  });

  test('locations({id})/workorders, Service.GetDuplicates(), Service.GetRecalls(); unknown location 404', async () => {
    const t = await token();
    const loc = fx.locations.duplicatesAndRecalls;
    const all = await api('GET', `/odata/locations(${loc})/workorders?$count=true`, { token: t });
    expect(all.status).toBe(200);
    expect(all.body.value.every((/** @type {any} */ w) => w.LocationId === loc)).toBe(true);
    expect(all.body['@odata.count']).toBeGreaterThan(3);
    const d = await api('GET', `/odata/locations(${loc})/workorders/Service.GetDuplicates()`, { token: t });
    expect(d.body.value.map((/** @type {any} */ w) => w.Id)).toEqual([fx.workOrders.duplicateA, fx.workOrders.duplicateB]);
    const rc = await api('GET', `/odata/locations(${loc})/workorders/Service.GetRecalls()`, { token: t });
    expect(rc.body.value.map((/** @type {any} */ w) => w.Id)).toEqual([fx.workOrders.recall]);
    expectError(await api('GET', '/odata/locations(999)/workorders', { token: t }), 404, 5005);
    expectError(await api('GET', '/odata/locations(701)/workorders', { token: t }), 404, 5005);
  });

  test('Service.NearBy(latitude=..,longitude=..) returns nearby work orders, nearest first', async () => {
    const t = await token();
    const c = fx.locations.coordinates[501];
    const r = await api('GET', `/odata/workorders/Service.NearBy(latitude=${c.latitude},longitude=${c.longitude})?$count=true`, { token: t });
    expect(r.status).toBe(200);
    expect(r.body.value.length).toBeGreaterThan(0);
    expect(r.body.value[0].LocationId).toBe(501);
    expect(r.body.value.every((/** @type {any} */ w) => [501, 505].includes(w.LocationId))).toBe(true);
    expectError(await api('GET', '/odata/workorders/Service.NearBy(latitude=32.7)', { token: t }), 400, 2004);
    expectError(await api('GET', '/odata/workorders/Service.NearBy(latitude=north,longitude=1)', { token: t }), 400, 2004);
  });
});

// =================================================================================================
describe('errors, paths and malformed requests', () => {
  test('unknown paths are 404 with the error body; a known path with the wrong method is 405 with Allow', async () => {
    const t = await token();
    expectError(await api('GET', '/nothing/here', { token: t }), 404, 5000);
    const v2 = await fetch(`${emu.baseUrl}/v2/workorders`);
    expect(v2.status).toBe(404);
    const other = await fetch(`${emu.origin}/elsewhere`);
    expect(other.status).toBe(404);
    const m = await api('DELETE', `/workorders/${fx.workOrders.checklist}`, { token: t });
    expectError(m, 405, 5001);
    expect(m.headers.get('allow')).toBe('GET');
  });

  test('path segments are percent-decoded one by one; an encoded slash or .. never reaches another resource', async () => {
    const t = await token();
    const auth = { authorization: `Bearer ${t}` };
    const ok = await raw('GET', `/api/v3/odata/workorders%28${fx.workOrders.checklist}%29`, { headers: auth });
    expect(ok.status).toBe(200);
    for (const p of [
      `/api/v3/workorders/${fx.workOrders.checklist}%2Fnotes`,
      `/api/v3/workorders/${fx.workOrders.checklist}/../${fx.workOrders.noChecklist}`,
      `/api/v3/workorders/%2e%2e/workorders`,
      '/api/v3/workorders/%E0%A4%A',
      `/api/v3/workorders/${fx.workOrders.checklist}%5Cnotes`,
    ]) {
      const r = await raw('GET', p, { headers: auth });
      expect([p, r.status]).toEqual([p, 400]);
      expect(JSON.parse(r.text).ErrorCode).toBe(2004);
    }
  });

  test('garbage never crashes the server: bad JSON, huge ids, wrong content types, truncated multipart', async () => {
    const t = await token();
    const auth = { authorization: `Bearer ${t}` };
    const cases = [
      raw('POST', `/api/v3/workorders/${fx.workOrders.checklist}/notes`, { headers: { ...auth, 'content-type': 'application/json' }, body: '\u0000\u0001{{' }),
      raw('POST', `/api/v3/workorders/${fx.workOrders.checklist}/notes`, { headers: { ...auth, 'content-type': 'application/json' }, body: '{"NoteData":"x"} trailing' }),
      raw('PUT', `/api/v3/proposals/${fx.proposals.open}/approve`, { headers: { ...auth, 'content-type': 'application/json' }, body: 'null' }),
      raw('GET', `/api/v3/odata/workorders(${'9'.repeat(40)})`, { headers: auth }),
      raw('POST', '/api/v3/checklists/CheckListResponse', { headers: { ...auth, 'content-type': 'multipart/form-data; boundary=zz' }, body: '--zz\r\nContent-Disposition: form-data; name="CheckListResponseRequest"\r\n\r\n{"a":1}\r\n--zz' }),
      raw('POST', '/auth/oauth/token', { headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: '%%%&&&===' }),
    ];
    const results = await Promise.all(cases);
    for (const r of results) {
      expect(r.status).toBeGreaterThanOrEqual(400);
      expect(r.status).toBeLessThan(500);
    }
    expect((await api('GET', '/workorders?pageSize=1', { token: t })).status).toBe(200);
  });
});

// =================================================================================================
describe('fault switches', () => {
  test('latencyMs delays every answer', async () => {
    const t = await token();
    emu.setFaults({ latencyMs: 120 });
    const started = Date.now();
    expect((await api('GET', '/workorders?pageSize=1', { token: t })).status).toBe(200);
    expect(Date.now() - started).toBeGreaterThanOrEqual(110);
  });

  test('latencyJitterMs adds a random delay per request on top of latencyMs', async () => {
    const t = await token();
    emu.setFaults({ latencyMs: 20, latencyJitterMs: 200 });
    const times = [];
    for (let i = 0; i < 8; i++) {
      const started = Date.now();
      expect((await api('GET', '/workorders?pageSize=1', { token: t })).status).toBe(200);
      times.push(Date.now() - started);
    }
    for (const ms of times) expect(ms).toBeGreaterThanOrEqual(18);
    for (const ms of times) expect(ms).toBeLessThan(400);
    expect(Math.max(...times) - Math.min(...times)).toBeGreaterThan(10);
  });

  test('rateLimit per client_id: 429 with Retry-After in seconds; another client is not affected; throttled calls are logged', async () => {
    const a = await token();
    const b = (await login('subscriber', fx.clients.second)).access_token;
    emu.setFaults({ rateLimit: { limit: 2, windowMs: 60000, status: 429, retryAfter: 'seconds' } });
    expect((await api('GET', '/workorders?pageSize=1', { token: a })).status).toBe(200);
    expect((await api('GET', '/workorders?pageSize=1', { token: a })).status).toBe(200);
    const r = await api('GET', '/workorders?pageSize=1', { token: a });
    expectError(r, 429, 6001);
    expect(r.headers.get('retry-after')).toMatch(/^\d+$/);
    expect(Number(r.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(emu.requests.at(-1)).toMatchObject({ status: 429, throttled: true, clientId: fx.clients.main.clientId });
    expect((await api('GET', '/workorders?pageSize=1', { token: b })).status).toBe(200);
    emu.advanceTime(61);
    expect((await api('GET', '/workorders?pageSize=1', { token: a })).status).toBe(200);
  });

  test('rateLimit can answer 503 with an HTTP-date Retry-After, a fixed number of seconds, or none', async () => {
    const t = await token();
    emu.setFaults({ rateLimit: { limit: 1, windowMs: 60000, status: 503, retryAfter: 'date', retryAfterSeconds: 30 } });
    await api('GET', '/workorders?pageSize=1', { token: t });
    const r = await api('GET', '/workorders?pageSize=1', { token: t });
    expect(r.status).toBe(503);
    const date = /** @type {string} */ (r.headers.get('retry-after'));
    expect(date).toMatch(/GMT$/);
    const wait = Date.parse(date) - Date.now();
    expect(wait).toBeGreaterThan(25000);
    expect(wait).toBeLessThanOrEqual(31000);
    emu.setFaults({ rateLimit: { limit: 1, windowMs: 60000, status: 429, retryAfter: 'seconds', retryAfterSeconds: 7 } });
    expect((await api('GET', '/workorders?pageSize=1', { token: t })).headers.get('retry-after')).toBe('7');
    emu.setFaults({ rateLimit: { limit: 1, windowMs: 60000, status: 429, retryAfter: 'none' } });
    const none = await api('GET', '/workorders?pageSize=1', { token: t });
    expect([none.status, none.headers.get('retry-after')]).toEqual([429, null]);
  });

  test('tokenRateLimit: one token request per user per window, else 429 with Retry-After', async () => {
    emu.setFaults({ tokenRateLimit: { perUserMs: 5000 } });
    const u = fx.users.subscriber;
    const form = { grant_type: 'password', username: u.username, password: u.password };
    expect((await tokenRequest(form)).status).toBe(200);
    const r = await tokenRequest(form);
    expect(r.status).toBe(429);
    expect(r.headers.get('retry-after')).toMatch(/^[1-5]$/);
    expect((await login('manager')).access_token).toBeTruthy();
    emu.advanceTime(5);
    expect((await tokenRequest(form)).status).toBe(200);
    expect(emu.tokenRequests().map((x) => x.status)).toEqual([200, 429, 200, 200]);
  });

  test('failNext injects any response shape (JSON, text, HTML, empty), matched by method and path prefix or RegExp, count times', async () => {
    const t = await token();
    const wo = `/workorders/${fx.workOrders.checklist}`;
    emu.failNext({ method: 'GET', path: '/api/v3/workorders', status: 500, body: { Reason: 'database down' } });
    const a = await api('GET', wo, { token: t });
    expect([a.status, a.text, a.headers.get('content-type')]).toEqual([500, '{"Reason":"database down"}', 'application/json; charset=utf-8']);
    emu.failNext({ path: /odata/, status: 502, body: '<html><body>Bad gateway</body></html>', contentType: 'text/html' });
    const b = await api('GET', '/odata/workorders', { token: t });
    expect([b.status, b.headers.get('content-type'), b.text]).toEqual([502, 'text/html', '<html><body>Bad gateway</body></html>']);
    emu.failNext({ status: 400, body: 'plain words' });
    const c = await api('GET', wo, { token: t });
    expect([c.status, c.text, c.headers.get('content-type')]).toEqual([400, 'plain words', 'text/plain; charset=utf-8']);
    emu.failNext({ method: 'POST', status: 503, count: 2, headers: { 'Retry-After': '3' } });
    expect((await api('GET', wo, { token: t })).status).toBe(200);
    for (let i = 0; i < 2; i++) {
      const d = await api('POST', `${wo}/notes`, { token: t, json: { NoteData: 'x' } });
      expect([d.status, d.text, d.headers.get('retry-after')]).toEqual([503, '', '3']);
    }
    expect((await api('POST', `${wo}/notes`, { token: t, json: { NoteData: 'x' } })).status).toBe(201);
    expect(emu.requests.filter((r) => r.injected).map((r) => r.status)).toEqual([500, 502, 400, 503, 503]);
  });

  test('dropNext destroys the socket without a response; the next request is served', async () => {
    const t = await token();
    emu.dropNext({ path: '/api/v3/workorders' });
    await expect(fetch(`${emu.baseUrl}/v3/workorders`, { headers: { authorization: `Bearer ${t}` } })).rejects.toThrow();
    expect(emu.requests.at(-1)).toMatchObject({ dropped: true, status: null });
    expect((await api('GET', '/workorders', { token: t })).status).toBe(200);
  });

  test('afterProcessing: the request is fully processed before the injected error or drop', async () => {
    const t = await token();
    const wo = fx.workOrders.checklist;
    emu.failNext({ method: 'POST', path: '/api/v3/checklists', status: 504, body: 'Gateway Timeout', afterProcessing: true });
    const r = await submit(t, answer({ Answer: 'yes' }));
    expect(r.status).toBe(504);
    expect(emu.state.checklistResponses).toHaveLength(1);
    expect(emu.requests.at(-1)).toMatchObject({ injected: true, processedStatus: 201, status: 504 });
    emu.dropNext({ method: 'PUT', afterProcessing: true });
    await expect(
      fetch(`${emu.baseUrl}/v3/proposals/${fx.proposals.open}/approve`, {
        method: 'PUT',
        headers: { authorization: `Bearer ${t}`, 'content-type': 'application/json' },
        body: '{}',
      }),
    ).rejects.toThrow();
    expect(emu.state.proposals[fx.proposals.open].Status).toBe('Approved');
    const before = emu.notesOf(wo).length;
    emu.failNext({ path: `/api/v3/workorders/${wo}/notes`, status: 500, afterProcessing: true });
    expect((await api('POST', `/workorders/${wo}/notes`, { token: t, json: { NoteData: 'maybe saved' } })).status).toBe(500);
    expect(emu.notesOf(wo)).toHaveLength(before + 1);
  });

  test('resetFaults() clears switches and queued faults', async () => {
    const t = await token();
    emu.setFaults({ rateLimit: { limit: 1, windowMs: 60000 }, latencyMs: 1 });
    emu.failNext({ status: 500 });
    emu.resetFaults();
    for (let i = 0; i < 3; i++) expect((await api('GET', '/workorders?pageSize=1', { token: t })).status).toBe(200);
  });
});

// =================================================================================================
describe('request log and options', () => {
  test('each request is logged in order with method, paths, query, lower-cased headers, parsed body, status and attribution', async () => {
    const t = await token();
    emu.clearRequests();
    await api('POST', `/workorders/${fx.workOrders.checklist}/notes?x=1&x=2&y=%20z`, { token: t, json: { NoteData: 'hello' }, headers: { 'X-Trace': 'abc' } });
    await api('GET', `/odata/workorders(${fx.workOrders.checklist})`, { token: t });
    expect(emu.requests).toHaveLength(2);
    const [a, b] = emu.requests;
    expect(b.seq).toBe(a.seq + 1);
    expect(a).toMatchObject({
      method: 'POST',
      path: `/api/v3/workorders/${fx.workOrders.checklist}/notes`,
      query: { x: ['1', '2'], y: ' z' },
      body: { NoteData: 'hello' },
      status: 201,
      clientId: fx.clients.main.clientId,
      username: fx.users.subscriber.username,
      tokenKind: 'oauth',
    });
    expect(a.headers['x-trace']).toBe('abc');
    expect(a.rawBody?.toString()).toBe('{"NoteData":"hello"}');
    expect(a.bodySize).toBe(20);
    expect(b.rawPath).toBe(`/api/v3/odata/workorders(${fx.workOrders.checklist})`);
    const tokenLog = emu.tokenRequests();
    expect(tokenLog).toHaveLength(0);
  });

  test('tokenRequests() lists token-endpoint calls with the form body', async () => {
    await login();
    await jwtLogin();
    const list = emu.tokenRequests();
    expect(list.map((r) => r.path)).toEqual(['/auth/oauth/token', '/auth/jwt/token']);
    expect(list[0].body).toMatchObject({ grant_type: 'password', username: fx.users.subscriber.username });
    expect(list[0]).toMatchObject({ status: 200, clientId: fx.clients.main.clientId, username: fx.users.subscriber.username });
  });

  test('logBodies: false keeps only sizes; a 20 MB multipart upload is accepted', async () => {
    const lean = await startEmulator({ logBodies: false, workOrderCount: 20 });
    try {
      expect(lean.fixtures.workOrders.mainCount).toBe(20);
      const u = lean.fixtures.users.subscriber;
      const tr = await fetch(`${lean.authUrl}/oauth/token`, {
        method: 'POST',
        headers: { authorization: basic(lean.fixtures.clients.main), 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams({ grant_type: 'password', username: u.username, password: u.password }),
      });
      const t = (await tr.json()).access_token;
      const big = Buffer.alloc(20 * 1024 * 1024, 7);
      const fd = new FormData();
      fd.append('file', new Blob([big], { type: 'application/octet-stream' }), 'big.bin');
      const r = await fetch(`${lean.baseUrl}/v3/workorders/${lean.fixtures.notes.workOrderId}/notes/${lean.fixtures.notes.big31}/attachments`, {
        method: 'POST',
        headers: { authorization: `Bearer ${t}` },
        body: fd,
      });
      expect(r.status).toBe(201);
      expect((await r.json()).Size).toBe(big.length);
      const entry = lean.requests.at(-1);
      expect(entry?.rawBody).toBeUndefined();
      expect(entry?.bodySize).toBeGreaterThan(big.length);
      expect(entry?.parts?.[0]).toEqual({ name: 'file', filename: 'big.bin', contentType: 'application/octet-stream', size: big.length });
      expect(lean.state.attachments.at(-1).data).toBeUndefined();
    } finally {
      await lean.close();
    }
  });

  test('the control endpoint serves state with int64 literals (for out-of-process runs)', async () => {
    const r = await fetch(`${emu.origin}/__emulator/state`);
    const text = await r.text();
    expect(r.status).toBe(200);
    expect(text).toContain(`"Id":${fx.notes.max64}`);
    expect(emu.requests).toHaveLength(0);
  });

  test('cli.js starts the server, prints URLs and demo credentials, and stops on SIGTERM', async () => {
    const child = spawn(process.execPath, [path.join(__dirname, 'cli.js'), '--port', '0', '--quiet'], { stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    await new Promise((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`no banner: ${out}`)), 5000);
      child.stdout.on('data', (d) => {
        out += d;
        if (out.includes('Ctrl+C')) {
          clearTimeout(timer);
          resolve(undefined);
        }
      });
      child.on('error', reject);
    });
    expect(out).toMatch(/Base URL \(API\)\s+http:\/\/127\.0\.0\.1:\d+\/api/);
    expect(out).toMatch(/Auth URL\s+http:\/\/127\.0\.0\.1:\d+\/auth/);
    expect(out).toContain(fx.clients.main.clientId);
    expect(out).toContain(fx.clients.main.clientSecret);
    expect(out).toContain(fx.users.subscriber.password);
    const base = /Base URL \(API\)\s+(\S+)/.exec(out)?.[1];
    const ping = await fetch(`${base}/v3/workorders`);
    expect(ping.status).toBe(401);
    const code = await new Promise((resolve) => {
      child.on('exit', (c) => resolve(c));
      child.kill('SIGTERM');
    });
    expect(code).toBe(0);
  });
});

// =================================================================================================
// Polling-trigger support: work orders that change, dates in the service's time zone, OData filters
// =================================================================================================

/** Replaces the emulator of this test by one started with `opts` (afterEach closes it). @param {any} opts */
async function restart(opts) {
  await emu.close();
  emu = await startEmulator(opts);
  fx = emu.fixtures;
}

/**
 * GET /odata/workorders with the given OData options (each value percent-encoded, '+' as %2B).
 * @param {string} t @param {Record<string, string | number>} opts @param {string} [path]
 */
function odata(t, opts, path = '/odata/workorders') {
  const qs = Object.entries(opts)
    .map(([k, v]) => `${k}=${encodeURIComponent(String(v))}`)
    .join('&');
  return api('GET', `${path}?${qs}`, { token: t });
}

/** Ids of an OData answer. @param {{ body: any }} r @returns {number[]} */
const idsOf = (r) => r.body.value.map((/** @type {any} */ w) => w.Id);

/** All main-subscriber work orders (what demo.subscriber sees), by predicate, as sorted ids. @param {(w: any) => boolean} pred */
function expectedIds(pred) {
  return Object.values(emu.state.workOrders)
    .filter((w) => w.SubscriberId === 1001 && pred(w))
    .map((w) => w.Id)
    .sort((a, b) => a - b);
}

/** Reads every page the way the trigger does: $top=50, $skip += 50, stop on a short page. @param {string} t @param {Record<string, string>} opts */
async function readAllPages(t, opts) {
  /** @type {any[]} */
  const pages = [];
  for (let skip = 0; skip < 5000; skip += 50) {
    const r = await odata(t, { ...opts, $top: 50, $skip: skip, $count: 'true' });
    expect(r.status).toBe(200);
    expect(r.text).not.toContain('nextLink');
    pages.push(r.body);
    if (r.body.value.length < 50) break;
  }
  return pages;
}

describe('OData $filter operators, precedence and literals', () => {
  test('eq ne gt ge lt le on numbers (any size, decimals) and on strings (case-insensitive), a literal on either side', async () => {
    const t = await token();
    /** @type {Array<[string, (w: any) => boolean]>} */
    const cases = [
      ['Nte gt 500', (w) => w.Nte > 500],
      ['Nte ge 500', (w) => w.Nte >= 500],
      ['Nte lt 500', (w) => w.Nte < 500],
      ['Nte le 500', (w) => w.Nte <= 500],
      ['Nte ne 500', (w) => w.Nte !== 500],
      ['Nte eq 500.0', (w) => w.Nte === 500],
      ['Nte gt 499.5m', (w) => w.Nte > 499.5],
      ['500 lt Nte', (w) => w.Nte > 500],
      ['Id gt 9007199254740993', () => false],
      ['Id lt 9223372036854775807', () => true],
      ["Status/Primary eq 'open'", (w) => w.Status.Primary === 'OPEN'],
      ["status/primary eq 'OPEN'", () => false], // property names are case-sensitive: unknown → 400 (checked below)
      ["Status/Primary ne 'Completed'", (w) => w.Status.Primary !== 'COMPLETED'],
      ["Trade gt 'hvac'", (w) => w.Trade.toLowerCase() > 'hvac'],
      ["Trade le 'HVAC'", (w) => w.Trade.toLowerCase() <= 'hvac'],
      ['RecallWorkOrderId ne null', (w) => w.RecallWorkOrderId !== null],
      ['RecallWorkOrderId eq null', (w) => w.RecallWorkOrderId === null],
      ['RecallWorkOrderId gt 0', (w) => w.RecallWorkOrderId !== null],
      ['IsInvoiced ne true', (w) => !w.IsInvoiced],
    ];
    for (const [filter, pred] of cases) {
      const r = await odata(t, { $filter: filter, $count: 'true', $top: 50 });
      if (filter.startsWith('status/')) {
        expectError(r, 400, 2008);
        continue;
      }
      expect([filter, r.status]).toEqual([filter, 200]);
      const all = expectedIds(pred);
      expect([filter, r.body['@odata.count']]).toEqual([filter, all.length]);
      expect([filter, idsOf(r)]).toEqual([filter, all.slice(0, 50)]);
    }
  });

  test('and binds tighter than or; parentheses regroup; not; a bare boolean property is a condition', async () => {
    const t = await token();
    /** @type {Array<[string, (w: any) => boolean]>} */
    const cases = [
      ["Trade eq 'PLUMBING' or Trade eq 'HVAC' and LocationId eq 501", (w) => w.Trade === 'PLUMBING' || (w.Trade === 'HVAC' && w.LocationId === 501)],
      ["(Trade eq 'PLUMBING' or Trade eq 'HVAC') and LocationId eq 501", (w) => (w.Trade === 'PLUMBING' || w.Trade === 'HVAC') && w.LocationId === 501],
      ["LocationId eq 501 and Trade eq 'HVAC' or Trade eq 'PLUMBING'", (w) => (w.LocationId === 501 && w.Trade === 'HVAC') || w.Trade === 'PLUMBING'],
      ["LocationId eq 501 and (Trade eq 'HVAC' or Trade eq 'PLUMBING')", (w) => w.LocationId === 501 && (w.Trade === 'HVAC' || w.Trade === 'PLUMBING')],
      ["not (Trade eq 'HVAC' or Trade eq 'PLUMBING')", (w) => w.Trade !== 'HVAC' && w.Trade !== 'PLUMBING'],
      ["not Trade eq 'HVAC' and LocationId eq 502", (w) => w.Trade !== 'HVAC' && w.LocationId === 502],
      ['((((LocationId eq 504))))', (w) => w.LocationId === 504],
      ['IsInvoiced', (w) => w.IsInvoiced],
      ['not IsInvoiced and IsRecall', (w) => !w.IsInvoiced && w.IsRecall],
      ["Status/Primary eq 'OPEN' OR Status/Primary EQ 'COMPLETED' AND Nte GE 900", (w) => w.Status.Primary === 'OPEN' || (w.Status.Primary === 'COMPLETED' && w.Nte >= 900)],
    ];
    for (const [filter, pred] of cases) {
      const r = await odata(t, { $filter: filter, $count: 'true' });
      expect([filter, r.status]).toEqual([filter, 200]);
      const all = expectedIds(pred);
      expect(all.length).toBeGreaterThan(0);
      expect([filter, r.body['@odata.count']]).toEqual([filter, all.length]);
    }
  });

  test('syntax errors, unknown properties (anywhere in the tree), functions and mismatched types are 400 with code 2008', async () => {
    const t = await token();
    for (const bad of [
      "(Trade eq 'HVAC'",
      "Trade eq 'HVAC')",
      "Trade eq 'HVAC' and",
      "or Trade eq 'HVAC'",
      "Trade eq 'HVAC' LocationId eq 501",
      'Nte between 1',
      'Nte gt',
      '()',
      '500',
      "Trade eq 'HVAC' or (LocationId eq 501 and Bogus eq 1)",
      "startswith(Trade,'H')",
      "Trade eq 'unterminated",
      'UpdatedDate ge 5',
      'UpdatedDate ge true',
      "UpdatedDate ge 'yesterday'",
      'Trade ge 2026-03-29T00:00:00Z',
      'UpdatedDate ge 2026-02-30T00:00:00Z',
      'UpdatedDate ge 2026-03-29T24:00:00Z',
      'UpdatedDate ge 2026-03-29T01:30:00.123456789Z',
      'UpdatedDate ge 2026-03-29T01:30:00+15:00',
      "UpdatedDate ge guid'2026-03-29T01:30:00Z'",
      "UpdatedDate ge datetime'tomorrow'",
      'UpdatedDate',
    ]) {
      const r = await odata(t, { $filter: bad });
      expect([bad, r.status]).toEqual([bad, 400]);
      expectError(r, 400, 2008);
    }
    expectError(await odata(t, { $filter: '' }), 400, 2008);
  });

  test("an unencoded '+' of an offset arrives as a space: 400 naming the fix (%2B or Z)", async () => {
    const t = await token();
    const r = await api('GET', '/odata/workorders?$filter=UpdatedDate ge 2026-03-29T01:30:00+01:00', { token: t });
    expectError(r, 400, 2008);
    expect(r.body.ErrorMessage).toContain('%2B');
    const ok = await api('GET', '/odata/workorders?$filter=UpdatedDate%20ge%202026-03-29T01:30:00%2B01:00&$count=true', { token: t });
    expect(ok.status).toBe(200);
  });
});

describe('OData dates: literal forms, instants, order', () => {
  test('every accepted literal form of one instant selects the same records; ge includes, gt excludes the exact instant', async () => {
    const t = await token();
    const at = '2031-05-06T07:08:09.123Z'; // later than every fixture
    const wo = emu.createWorkOrder({ UpdatedDate: at });
    const later = emu.createWorkOrder({ UpdatedDate: '2031-05-06T07:08:10Z' });
    const forms = [
      '2031-05-06T07:08:09.123Z',
      '2031-05-06T07:08:09.1230000Z',
      '2031-05-06T09:08:09.123+02:00',
      '2031-05-06T02:08:09.123-05:00',
      '2031-05-06T07:08:09.123', // no offset: the service's zone (UTC here)
      "datetime'2031-05-06T07:08:09.123'",
      "datetimeoffset'2031-05-06T07:08:09.123Z'",
      "'2031-05-06T07:08:09.123Z'",
      "'2031-05-06T08:08:09.123+01:00'",
    ];
    for (const lit of forms) {
      const ge = await odata(t, { $filter: `UpdatedDate ge ${lit}`, $orderby: 'UpdatedDate asc' });
      expect([lit, ge.status, idsOf(ge)]).toEqual([lit, 200, [wo.Id, later.Id]]);
      const eq = await odata(t, { $filter: `UpdatedDate eq ${lit}` });
      expect([lit, idsOf(eq)]).toEqual([lit, [wo.Id]]);
      const gt = await odata(t, { $filter: `UpdatedDateDto gt ${lit}` });
      expect([lit, idsOf(gt)]).toEqual([lit, [later.Id]]);
    }
    // sub-millisecond literals: .1231 is after the record's .123
    expect(idsOf(await odata(t, { $filter: 'UpdatedDate ge 2031-05-06T07:08:09.1231Z' }))).toEqual([later.Id]);
    // without seconds, a date alone (midnight in the service's zone)
    expect(idsOf(await odata(t, { $filter: 'UpdatedDate ge 2031-05-06T07:08Z', $orderby: 'Id' }))).toEqual([wo.Id, later.Id]);
    expect(idsOf(await odata(t, { $filter: 'UpdatedDate ge 2031-05-06', $orderby: 'Id' }))).toEqual([wo.Id, later.Id]);
    expect(idsOf(await odata(t, { $filter: 'UpdatedDate lt 2031-05-06 and UpdatedDate ge 2031-01-01' }))).toEqual([]);
    // a date property against another one
    const pp = await odata(t, { $filter: 'UpdatedDate gt CreatedDate', $count: 'true' });
    expect(pp.body['@odata.count']).toBe(expectedIds((w) => Date.parse(w.UpdatedDateDto) > Date.parse(w.CreatedDateDto)).length);
  });

  test('$orderby on a date orders by instant, ties broken by Id ascending (also after desc)', async () => {
    const t = await token();
    const same = '2031-01-01T00:00:00Z';
    const [a, b, c] = emu.createWorkOrders([{ UpdatedDate: same }, { UpdatedDate: same }, { UpdatedDate: same }]);
    const before = emu.createWorkOrder({ UpdatedDate: '2030-12-31T23:59:59.999Z' });
    const asc = await odata(t, { $filter: 'UpdatedDate ge 2030-12-01T00:00:00Z', $orderby: 'UpdatedDate asc' });
    expect(idsOf(asc)).toEqual([before.Id, a.Id, b.Id, c.Id]);
    const desc = await odata(t, { $filter: 'UpdatedDate ge 2030-12-01T00:00:00Z', $orderby: 'UpdatedDate desc' });
    expect(idsOf(desc)).toEqual([a.Id, b.Id, c.Id, before.Id]);
    const byIdDesc = await odata(t, { $filter: 'UpdatedDate ge 2030-12-01T00:00:00Z', $orderby: 'UpdatedDate desc,Id desc' });
    expect(idsOf(byIdDesc)).toEqual([c.Id, b.Id, a.Id, before.Id]);
    // the whole list ordered by UpdatedDate is ordered by instant
    const all = await odata(t, { $orderby: 'UpdatedDateDto asc', $top: 50 });
    const instants = all.body.value.map((/** @type {any} */ w) => Date.parse(w.UpdatedDateDto));
    expect([...instants].sort((x, y) => x - y)).toEqual(instants);
  });
});

describe('the service time zone: X local without offset, XDto with offset', () => {
  test('default UTC: X has no offset, XDto ends in +00:00, same wall time', async () => {
    const wo = emu.createWorkOrder({ CallDate: '2026-03-29T01:30:00Z' });
    expect(wo).toMatchObject({
      CallDate: '2026-03-29T01:30:00.000',
      CallDateDto: '2026-03-29T01:30:00.000+00:00',
      CreatedDateDto: '2026-03-29T01:30:00.000+00:00',
      UpdatedDateDto: '2026-03-29T01:30:00.000+00:00',
      ScheduledDateDto: '2026-03-31T01:30:00.000+00:00',
    });
    expect(emu.serviceTimeZone).toBe('UTC');
  });

  test('Europe/Berlin: offsets follow daylight saving; fixtures, new records, notes and check-ins use it', async () => {
    await restart({ serviceTimeZone: 'Europe/Berlin' });
    const t = await token();
    const mine = `Id ge ${fx.workOrders.firstNewId}`; // only the records of this test
    const w1 = emu.createWorkOrder({ UpdatedDate: '2026-03-29T00:30:00Z' }); // before the spring change
    const w2 = emu.createWorkOrder({ UpdatedDate: '2026-03-29T01:30:00Z' }); // after it
    expect([w1.UpdatedDate, w1.UpdatedDateDto]).toEqual(['2026-03-29T01:30:00.000', '2026-03-29T01:30:00.000+01:00']);
    expect([w2.UpdatedDate, w2.UpdatedDateDto]).toEqual(['2026-03-29T03:30:00.000', '2026-03-29T03:30:00.000+02:00']);
    // autumn: one wall time twice, different offsets; created in reverse instant order
    const late = emu.createWorkOrder({ UpdatedDateDto: '2026-10-25T02:30:00+01:00' });
    const early = emu.createWorkOrder({ UpdatedDateDto: '2026-10-25T02:30:00+02:00' });
    expect(late.UpdatedDate).toBe(early.UpdatedDate);
    const autumn = await odata(t, { $filter: `${mine} and UpdatedDate ge 2026-10-01T00:00:00Z and UpdatedDate lt 2026-11-01T00:00:00Z`, $orderby: 'UpdatedDate asc' });
    expect(idsOf(autumn)).toEqual([early.Id, late.Id]);
    // a literal without offset is Berlin time; in the overlap the earlier instant (+02:00)
    expect(idsOf(await odata(t, { $filter: `${mine} and UpdatedDate gt 2026-10-25T02:30:00 and UpdatedDate lt 2026-11-01T00:00:00Z` }))).toEqual([late.Id]);
    expect(idsOf(await odata(t, { $filter: `${mine} and UpdatedDate eq 2026-10-25T02:30:00.000+01:00` }))).toEqual([late.Id]);
    // spring gap: 02:30 does not exist, it is read as 03:30+02:00 (= 01:30Z)
    expect(idsOf(await odata(t, { $filter: `${mine} and UpdatedDate ge 2026-03-29T02:30:00 and UpdatedDate lt 2026-04-01T00:00:00Z` }))).toEqual([w2.Id]);
    expect(idsOf(await odata(t, { $filter: `${mine} and UpdatedDate ge 2026-03-29T01:30:00+01:00 and UpdatedDate lt 2026-04-01T00:00:00Z`, $orderby: 'UpdatedDate' }))).toEqual([w1.Id, w2.Id]);
    expect(idsOf(await odata(t, { $filter: `${mine} and UpdatedDate eq datetime'2026-03-29T01:30:00'` }))).toEqual([w1.Id]);
    // the fixtures: every date pair is the same instant written in Berlin time
    for (const w of Object.values(emu.state.workOrders)) {
      for (const f of ['CallDate', 'ScheduledDate', 'CreatedDate', 'UpdatedDate']) {
        expect(w[`${f}Dto`]).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}\+0[12]:00$/);
        expect(w[`${f}Dto`].startsWith(w[f])).toBe(true);
      }
    }
    // a note date without offset is Berlin time; check-in writes Berlin time
    const n = await api('POST', `/workorders/${w1.Id}/notes`, { token: t, json: { NoteData: 'x', ScheduledDate: '2026-07-01T09:00:00' } });
    expect(n.body.ScheduledDateDto).toBe('2026-07-01T09:00:00.000+02:00');
    expect(n.body.DateCreatedDto).toMatch(/\+0[12]:00$/);
    const ci = await api('POST', `/workorders/${w1.Id}/universalCheckIn`, { token: t });
    expect(ci.body.ActivityDateDto).toMatch(/\+0[12]:00$/);
    expect(emu.workOrder(w1.Id).UpdatedDateDto).toMatch(/\+0[12]:00$/);
  });

  test('fixed offsets: utcOffsetMinutes or serviceTimeZone "+05:30"; bad zones and both options are refused', async () => {
    await restart({ utcOffsetMinutes: -300 });
    expect(emu.createWorkOrder({ CallDate: '2026-01-15T12:00:00Z' }).CallDateDto).toBe('2026-01-15T07:00:00.000-05:00');
    expect(emu.createWorkOrder({ CallDate: '2026-01-15T12:00:00' }).CallDateDto).toBe('2026-01-15T12:00:00.000-05:00');
    expect(emu.serviceTimeZone).toBe('-05:00');
    await restart({ serviceTimeZone: '+05:30' });
    expect(emu.createWorkOrder({ CallDate: '2026-01-15T12:00:00Z' }).CallDate).toBe('2026-01-15T17:30:00.000');
    expect(() => createEmulator({ serviceTimeZone: 'Mars/Olympus' })).toThrow(/time zone/);
    expect(() => createEmulator({ serviceTimeZone: 'UTC', utcOffsetMinutes: 0 })).toThrow(/not both/);
    await expect(startEmulator({ utcOffsetMinutes: 15 * 60 })).rejects.toThrow(/utcOffsetMinutes/);
  });

  test('setServiceTimeZone() rewrites every stored date for the new zone; instants do not change', async () => {
    const wo = emu.createWorkOrder({ UpdatedDate: '2026-07-01T10:00:00Z' });
    const note = emu.notesOf(fx.notes.workOrderId)[0];
    const noteInstant = Date.parse(note.DateCreatedDto);
    emu.setServiceTimeZone('America/New_York');
    expect([wo.UpdatedDate, wo.UpdatedDateDto]).toEqual(['2026-07-01T06:00:00.000', '2026-07-01T06:00:00.000-04:00']);
    expect(Date.parse(note.DateCreatedDto)).toBe(noteInstant);
    expect(note.DateCreatedDto).toMatch(/-0[45]:00$/);
    expect(emu.formatDate('2026-12-01T12:00:00Z')).toEqual({ local: '2026-12-01T07:00:00.000', dto: '2026-12-01T07:00:00.000-05:00', offset: '-05:00' });
    const r = await fetch(`${emu.origin}/__emulator/time`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ serviceTimeZone: 'UTC' }) });
    expect((await r.json()).serviceTimeZone).toBe('UTC');
    expect(wo.UpdatedDateDto).toBe('2026-07-01T10:00:00.000+00:00');
  });
});

describe('service clock skew', () => {
  test('clockSkewMs: the service writes dates, the Date header and judges tokens 2 minutes ahead of real time', async () => {
    await restart({ clockSkewMs: 120000 });
    expect(emu.clockSkewMs).toBe(120000);
    const before = Date.now();
    const wo = emu.createWorkOrder();
    const stamped = Date.parse(wo.UpdatedDateDto);
    expect(stamped).toBeGreaterThanOrEqual(before + 120000);
    expect(stamped).toBeLessThan(Date.now() + 120000 + 1000);
    const r = await fetch(`${emu.baseUrl}/v3/workorders`);
    const date = Date.parse(/** @type {string} */ (r.headers.get('date')));
    expect(date).toBeGreaterThan(Date.now() + 115000);
    // real "now" is in the service's past: a trigger cursor taken from n8n's clock misses nothing but re-reads
    const t = await token();
    const seen = await odata(t, { $filter: `UpdatedDate ge ${new Date(Date.now()).toISOString()}` });
    expect(idsOf(seen)).toEqual([wo.Id]);
  });

  test('setClockSkew() sets it absolutely (behind: negative), advanceTime() adds; the control endpoint does both', async () => {
    emu.setClockSkew(-120000);
    const wo = emu.createWorkOrder();
    expect(Date.parse(wo.UpdatedDateDto)).toBeLessThanOrEqual(Date.now() - 119000);
    emu.advanceTime(60);
    expect(emu.clockSkewMs).toBe(-60000);
    const r = await fetch(`${emu.origin}/__emulator/time`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ skewMs: 120000, advanceSeconds: 30 }) });
    const info = await r.json();
    expect(info).toMatchObject({ skewMs: 150000, serviceTimeZone: 'UTC', utcOffset: '+00:00' });
    expect(Date.parse(info.nowDto)).toBeGreaterThan(Date.now() + 140000);
    const g = await (await fetch(`${emu.origin}/__emulator/time`)).json();
    expect(g.skewMs).toBe(150000);
    expect(emu.requests).toHaveLength(0);
  });
});

describe('work orders created and changed while a trigger polls', () => {
  test('createWorkOrder(): ids continue after the fixtures, defaults filled, dates now(); visible through the API', async () => {
    const t = await token();
    const before = emu.now();
    const wo = emu.createWorkOrder({ LocationId: 502, Trade: 'PLUMBING', Category: 'REPAIR', Description: 'Burst pipe' });
    const after = emu.now();
    expect(wo.Id).toBe(fx.workOrders.firstNewId);
    expect(fx.workOrders.firstNewId).toBe(fx.workOrders.mainLast + 1);
    expect(wo).toMatchObject({
      Number: String(wo.Id),
      SubscriberId: 1001,
      ProviderId: 3001,
      LocationId: 502,
      LocationName: emu.state.locations[502].Name,
      StoreId: 'S502',
      Status: { Primary: 'OPEN', Extended: 'DISPATCH CONFIRMED' },
      Trade: 'PLUMBING',
      Category: 'REPAIR',
      Description: 'Burst pipe',
      IsInvoiced: false,
    });
    const stamp = Date.parse(wo.UpdatedDateDto);
    expect(stamp).toBeGreaterThanOrEqual(before);
    expect(stamp).toBeLessThanOrEqual(after);
    expect(wo.CallDateDto).toBe(wo.UpdatedDateDto);
    expect(wo.CreatedDateDto).toBe(wo.UpdatedDateDto);
    expect(Object.keys(wo)).toEqual(Object.keys(emu.state.workOrders[fx.workOrders.mainFirst]));
    expect(emu.createWorkOrder().Id).toBe(fx.workOrders.firstNewId + 1);
    const got = await api('GET', `/workorders/${wo.Id}`, { token: t });
    expect(got.body).toEqual(JSON.parse(JSON.stringify(wo)));
    const all = await odata(t, { $count: 'true' });
    expect(all.body['@odata.count']).toBe(fx.workOrders.mainCount + 2);
    // a child subscriber's location: subscriber and provider follow it; explicit ids
    const child = emu.createWorkOrder({ Id: 92001999, LocationId: 701, Status: { Primary: 'OPEN' } });
    expect(child).toMatchObject({ SubscriberId: 2001, ProviderId: 3002, Status: { Primary: 'OPEN', Extended: null } });
    expect((await api('GET', `/workorders/${child.Id}`, { token: t })).status).toBe(404);
  });

  test('updateWorkOrder() stamps UpdatedDate with now() (or the date given) and keeps the rest; errors throw', async () => {
    const id = fx.workOrders.checklist;
    const old = { ...emu.workOrder(id) };
    emu.advanceTime(3600);
    const wo = emu.updateWorkOrder(id, { Description: 'Roof unit 1: belt squeal', Nte: 900 });
    expect(Date.parse(wo.UpdatedDateDto)).toBeGreaterThanOrEqual(Date.now() + 3600 * 1000 - 5);
    expect(wo).toMatchObject({ Description: 'Roof unit 1: belt squeal', Nte: 900, CallDate: old.CallDate, CreatedDate: old.CreatedDate, Status: old.Status });
    emu.updateWorkOrder(id, { UpdatedDate: '2030-01-02T03:04:05.678Z' });
    expect(emu.workOrder(id).UpdatedDateDto).toBe('2030-01-02T03:04:05.678+00:00');
    emu.updateWorkOrder(id, { updateddatedto: new Date(Date.UTC(2030, 0, 3)) });
    expect(emu.workOrder(id).UpdatedDate).toBe('2030-01-03T00:00:00.000');
    emu.updateWorkOrder(String(id), { UpdatedDate: Date.UTC(2030, 0, 4), LocationId: 504 });
    expect(emu.workOrder(id)).toMatchObject({ UpdatedDate: '2030-01-04T00:00:00.000', LocationId: 504, StoreId: 'S504', LocationName: emu.state.locations[504].Name });
    expect(() => emu.updateWorkOrder(99999999, {})).toThrow(/does not exist/);
    expect(() => emu.updateWorkOrder(id, { Bogus: 1 })).toThrow(/unknown work order field/);
    expect(() => emu.updateWorkOrder(id, { Id: 5 })).toThrow(/cannot be changed/);
    expect(() => emu.updateWorkOrder(id, { UpdatedDate: 'soon' })).toThrow(/ISO 8601/);
    expect(() => emu.updateWorkOrder(id, { UpdatedDate: '2030-01-01T00:00:00Z', UpdatedDateDto: '2030-01-01T00:00:00Z' })).toThrow(/not both/);
    expect(() => emu.updateWorkOrder(id, { LocationId: 999 })).toThrow(/LocationId/);
    expect(() => emu.createWorkOrder({ Id: fx.workOrders.checklist })).toThrow(/already exists/);
  });

  test('setWorkOrderStatus(): Primary/Extended change, UpdatedDate moves; workOrderChanges records created/updated/status changes', async () => {
    const wo = emu.createWorkOrder({ CallDate: '2031-02-01T08:00:00Z' });
    emu.setWorkOrderStatus(wo.Id, 'IN PROGRESS', 'ON SITE', { UpdatedDate: '2031-02-01T09:00:00Z' });
    expect(wo).toMatchObject({ Status: { Primary: 'IN PROGRESS', Extended: 'ON SITE' }, UpdatedDateDto: '2031-02-01T09:00:00.000+00:00' });
    emu.setWorkOrderStatus(wo.Id, 'IN PROGRESS', 'INCOMPLETE', { UpdatedDate: '2031-02-01T10:00:00Z' });
    emu.setWorkOrderStatus(wo.Id, 'COMPLETED'); // Extended kept
    expect(wo.Status).toEqual({ Primary: 'COMPLETED', Extended: 'INCOMPLETE' });
    emu.updateWorkOrder(wo.Id, { Nte: 1 });
    const changes = emu.state.workOrderChanges.filter((c) => c.workOrderId === wo.Id);
    expect(changes.map((c) => [c.kind, c.primaryStatusChanged, c.statusChanged, c.statusAfter.Primary])).toEqual([
      ['created', false, false, 'OPEN'],
      ['updated', true, true, 'IN PROGRESS'],
      ['updated', false, true, 'IN PROGRESS'],
      ['updated', true, true, 'COMPLETED'],
      ['updated', false, false, 'COMPLETED'],
    ]);
    expect(changes[1]).toMatchObject({ at: '2031-02-01T09:00:00.000+00:00', statusBefore: { Primary: 'OPEN', Extended: 'DISPATCH CONFIRMED' }, source: 'emulator' });
    expect(changes[4].fields).toEqual(expect.arrayContaining(['Nte', 'UpdatedDate']));
    // a check-in through the API changes the status the same way
    await api('POST', `/workorders/${wo.Id}/universalCheckIn`, { token: await token() });
    expect(emu.state.workOrderChanges.at(-1)).toMatchObject({ workOrderId: wo.Id, source: 'api:CheckIn', primaryStatusChanged: true, statusAfter: { Primary: 'IN PROGRESS', Extended: 'ON SITE' } });
  });

  test('120 records with one identical UpdatedDate page 50/50/20 with a stable order: each exactly once; $count counts all matches', async () => {
    const t = await token();
    const same = '2031-03-01T12:00:00.000Z';
    const created = emu.createWorkOrders(Array.from({ length: 120 }, (_, k) => ({ LocationId: k % 2 ? 501 : 502, UpdatedDate: same })));
    expect(new Set(created.map((w) => w.UpdatedDateDto))).toEqual(new Set(['2031-03-01T12:00:00.000+00:00']));
    const pages = await readAllPages(t, { $filter: `UpdatedDate ge ${same}`, $orderby: 'UpdatedDate asc' });
    expect(pages.map((p) => p.value.length)).toEqual([50, 50, 20]);
    expect(pages.map((p) => p['@odata.count'])).toEqual([120, 120, 120]);
    const ids = pages.flatMap((p) => p.value.map((/** @type {any} */ w) => w.Id));
    expect(ids).toEqual(created.map((w) => w.Id)); // Id ascending within the tie, no gaps or repeats
    // with user filters ANDed, as the trigger composes them
    const filtered = await readAllPages(t, {
      $filter: `UpdatedDate ge ${same} and (LocationId eq 501) and (Status/Primary eq 'OPEN') and (Trade eq 'HVAC') and (Category eq 'REPAIR') and (Nte le 500 or Nte eq null)`,
      $orderby: 'UpdatedDate asc',
    });
    expect(filtered.map((p) => p.value.length)).toEqual([50, 10]);
    expect(filtered[0]['@odata.count']).toBe(60);
    // 75 of them changed again at one later instant keep paging stable
    const touched = emu.updateWorkOrders(created.slice(0, 75).map((w) => w.Id), { UpdatedDate: '2031-03-01T12:00:00.001Z' });
    expect(new Set(touched.map((w) => w.UpdatedDateDto))).toEqual(new Set(['2031-03-01T12:00:00.001+00:00']));
    const again = await readAllPages(t, { $filter: `UpdatedDate gt ${same}`, $orderby: 'UpdatedDate asc' });
    expect(again.map((p) => p.value.length)).toEqual([50, 25]);
    expect(again.flatMap((p) => p.value.map((/** @type {any} */ w) => w.Id))).toEqual(created.slice(0, 75).map((w) => w.Id));
    // CallDate ("created" mode) follows the creation instant
    const byCall = await readAllPages(t, { $filter: `CallDate ge ${same}`, $orderby: 'CallDate asc' });
    expect(byCall[0]['@odata.count']).toBe(120);
    // without a date in the changes, a batch shares one now() to the millisecond
    const now = emu.updateWorkOrders(created.slice(0, 110).map((w) => w.Id), { Nte: 600 });
    expect(new Set(now.map((w) => w.UpdatedDateDto)).size).toBe(1);
    expect(Math.abs(Date.parse(now[0].UpdatedDateDto) - Date.now())).toBeLessThan(5000);
  });

  test('every page is read from live data: a record changed between two page reads moves to the end and shifts $skip', async () => {
    const t = await token();
    const base = Date.parse('2032-01-01T00:00:00Z');
    const created = emu.createWorkOrders(Array.from({ length: 60 }, (_, k) => ({ UpdatedDate: base + k * 1000 })));
    const opts = { $filter: 'UpdatedDate ge 2032-01-01T00:00:00Z', $orderby: 'UpdatedDate asc', $top: 50, $count: 'true' };
    const p1 = await odata(t, { ...opts, $skip: 0 });
    expect(idsOf(p1)).toEqual(created.slice(0, 50).map((w) => w.Id));
    emu.updateWorkOrder(created[0].Id, { UpdatedDate: base + 3600 * 1000 }); // changed while the trigger pages
    const p2 = await odata(t, { ...opts, $skip: 50 });
    // created[50] slid back onto page 1 and is not on page 2; created[0] shows up again at the end
    expect(idsOf(p2)).toEqual([...created.slice(51).map((w) => w.Id), created[0].Id]);
    expect(p2.body['@odata.count']).toBe(60);
  });

  test('control endpoints: POST/PATCH/GET /__emulator/workorders (single and batch), not logged, no faults', async () => {
    const ctl = async (/** @type {string} */ method, /** @type {string} */ p, /** @type {any} */ body) => {
      const r = await fetch(`${emu.origin}/__emulator${p}`, { method, headers: { 'content-type': 'application/json' }, body: body === undefined ? undefined : JSON.stringify(body) });
      return { status: r.status, body: await r.json() };
    };
    emu.failNext({ status: 500 });
    const one = await ctl('POST', '/workorders', { Trade: 'DOORS', UpdatedDate: '2031-04-01T00:00:00+02:00' });
    expect(one.status).toBe(201);
    expect(one.body).toMatchObject({ Id: fx.workOrders.firstNewId, Trade: 'DOORS', UpdatedDateDto: '2031-03-31T22:00:00.000+00:00' });
    const batch = await ctl('POST', '/workorders', [{}, { Status: 'ON HOLD' }]);
    expect(batch.status).toBe(201);
    expect(batch.body.map((/** @type {any} */ w) => w.Id)).toEqual([fx.workOrders.firstNewId + 1, fx.workOrders.firstNewId + 2]);
    expect(batch.body[0].UpdatedDateDto).toBe(batch.body[1].UpdatedDateDto);
    expect(batch.body[1].Status).toEqual({ Primary: 'ON HOLD', Extended: null });
    const patched = await ctl('PATCH', `/workorders/${one.body.Id}`, { Status: { Primary: 'COMPLETED', Extended: 'PENDING CONFIRMATION' } });
    expect(patched.status).toBe(200);
    expect(patched.body.Status.Primary).toBe('COMPLETED');
    expect(Math.abs(Date.parse(patched.body.UpdatedDateDto) - Date.now())).toBeLessThan(5000); // now(), not the date given at creation
    const bulk = await ctl('PATCH', '/workorders', { ids: batch.body.map((/** @type {any} */ w) => w.Id), changes: { UpdatedDate: '2031-05-01T00:00:00Z' } });
    expect(bulk.body.map((/** @type {any} */ w) => w.UpdatedDate)).toEqual(['2031-05-01T00:00:00.000', '2031-05-01T00:00:00.000']);
    expect((await ctl('GET', `/workorders/${one.body.Id}`)).body.Status.Primary).toBe('COMPLETED');
    expect((await ctl('GET', '/workorder-changes')).body.length).toBe(6);
    expect((await ctl('PATCH', '/workorders/99999999', {})).status).toBe(404);
    expect((await ctl('GET', '/workorders/99999999')).status).toBe(404);
    const bad = await ctl('POST', '/workorders', { Bogus: 1 });
    expect([bad.status, bad.body.error]).toEqual([400, expect.stringContaining('Bogus')]);
    expect((await ctl('POST', '/workorders', { Id: one.body.Id })).status).toBe(409);
    expect((await ctl('PATCH', '/workorders', { changes: {} })).status).toBe(400);
    expect(emu.requests).toHaveLength(0);
    // the queued fault is still waiting for the first API request
    expect((await api('GET', '/workorders')).status).toBe(500);
  });
});

describe('tenants at scale and deployed date precision (trigger issue 17)', () => {
  /** Ids of every page of a keyset read: `$filter=<filter> and Id lt <last>&$orderby=Id desc`, until an empty page. */
  async function keysetRead(/** @type {string} */ t, /** @type {string} */ filter) {
    /** @type {number[]} */
    const ids = [];
    let last;
    for (let n = 0; n < 1000; n++) {
      const r = await odata(t, { $filter: last === undefined ? filter : `${filter} and Id lt ${last}`, $orderby: 'Id desc', $top: 50, $select: 'Id,Status' });
      expect(r.status).toBe(200);
      const page = idsOf(r);
      if (page.length === 0) return ids;
      ids.push(...page);
      last = page[page.length - 1];
    }
    throw new Error('keyset read did not end');
  }

  test('datePrecisionMs 1000: the dates the service writes are whole seconds, so two changes within a second share UpdatedDate; setDatePrecision / POST /__emulator/time', async () => {
    const e = await startEmulator({ datePrecisionMs: 1000 });
    try {
      expect(Object.values(e.state.workOrders).every((w) => /\.000$/.test(w.UpdatedDate) && /\.000$/.test(w.CallDate))).toBe(true);
      e.setClockSkew(Date.parse('2031-06-01T10:00:00.100Z') - Date.now());
      const a = e.setWorkOrderStatus(90000001, 'IN PROGRESS', 'ON SITE');
      const first = a.UpdatedDateDto;
      const b = e.setWorkOrderStatus(90000001, 'COMPLETED', 'PENDING CONFIRMATION');
      expect(first).toBe('2031-06-01T10:00:00.000+00:00');
      expect(b.UpdatedDateDto).toBe(first);
      expect(e.createWorkOrder({ UpdatedDate: '2031-06-01T10:00:05.999Z' }).UpdatedDateDto).toBe('2031-06-01T10:00:05.000+00:00');
      const r = await fetch(`${e.origin}/__emulator/time`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ datePrecisionMs: 1 }) });
      expect((await r.json()).datePrecisionMs).toBe(1);
      expect(e.updateWorkOrder(90000002, { UpdatedDate: '2031-06-01T10:00:05.999Z' }).UpdatedDateDto).toBe('2031-06-01T10:00:05.999+00:00');
      expect(() => e.setDatePrecision(0)).toThrow(/datePrecisionMs/);
    } finally {
      await e.close();
    }
    expect(() => createEmulator({ datePrecisionMs: 1.5 })).toThrow(/datePrecisionMs/);
  });

  test('50,000 work orders (workOrderCount, or createWorkOrders in one call): a keyset read by Id returns each once, and matches the full list', async () => {
    const e = await startEmulator({ workOrderCount: 50000 });
    try {
      const { fixtures } = e;
      expect(fixtures.workOrders.mainLast).toBe(90050000);
      const more = e.createWorkOrders(Array.from({ length: 2000 }, (_, i) => ({ LocationId: 501 + (i % 2), Status: i % 3 ? 'OPEN' : 'COMPLETED' })));
      expect(more.map((w) => w.Id)).toEqual(Array.from({ length: 2000 }, (_, i) => fixtures.workOrders.firstNewId + i));
      const c = await (await fetch(`${e.authUrl}/oauth/token`, {
        method: 'POST',
        headers: { authorization: basic(fixtures.clients.main), 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams({ grant_type: 'password', username: fixtures.users.subscriber.username, password: fixtures.users.subscriber.password }),
      })).json();
      const get = (/** @type {Record<string, any>} */ q) => {
        const qs = Object.entries(q).map(([k, v]) => `${k}=${encodeURIComponent(String(v))}`).join('&');
        return fetch(`${e.baseUrl}/v3/odata/workorders?${qs}`, { headers: { authorization: `Bearer ${c.access_token}` } }).then((r) => r.json());
      };
      // a status read as the trigger makes it: T0, keyset, newest Ids first (the emulator's fast path)
      const t0 = new Date(e.now() + 1000).toISOString();
      const ids = [];
      let last;
      for (;;) {
        const page = await get({ $filter: `UpdatedDate lt ${t0}${last ? ` and Id lt ${last}` : ''} and LocationId eq 502`, $orderby: 'Id desc', $top: 50, $select: 'Id,Status,UpdatedDateDto' });
        expect(Object.keys(page.value[0] ?? { Id: 0, Status: 0, UpdatedDateDto: 0 })).toEqual(['Id', 'Status', 'UpdatedDateDto']);
        if (page.value.length === 0) break;
        ids.push(...page.value.map((/** @type {any} */ w) => w.Id));
        last = ids[ids.length - 1];
      }
      const expected = Object.values(e.state.workOrders)
        .filter((w) => w.SubscriberId === 1001 && w.LocationId === 502)
        .map((w) => w.Id)
        .sort((a, b) => b - a);
      expect(expected.length).toBeGreaterThan(10000);
      expect(ids).toEqual(expected);
      // the same page through the general path ($count asks for every match) is identical
      const lazy = await get({ $filter: `Id lt 90030000`, $orderby: 'Id desc', $top: 50, $skip: 100 });
      const counted = await get({ $filter: `Id lt 90030000`, $orderby: 'Id desc', $top: 50, $skip: 100, $count: true });
      expect(counted['@odata.count']).toBe(30000 - 1);
      expect(counted.value).toEqual(lazy.value);
      const range = { $filter: '90010000 lt Id and Id le 90010120 and not (Id eq 90010005)', $orderby: 'Id asc', $top: 50, $skip: 50 };
      const rangeLazy = await get(range);
      expect(rangeLazy.value.map((/** @type {any} */ w) => w.Id)).toEqual(Array.from({ length: 50 }, (_, i) => 90010052 + i));
      expect((await get({ ...range, $count: true })).value).toEqual(rangeLazy.value);
      // ordering by another key selects the first records without sorting all: same as a full sort
      const byTrade = await get({ $orderby: 'Trade desc,UpdatedDate asc', $top: 50, $skip: 20 });
      const all = Object.values(e.state.workOrders).filter((w) => w.SubscriberId === 1001);
      const sorted = [...all].sort((a, b) => (a.Trade < b.Trade ? 1 : a.Trade > b.Trade ? -1 : Date.parse(a.UpdatedDateDto) - Date.parse(b.UpdatedDateDto) || a.Id - b.Id));
      expect(byTrade.value.map((/** @type {any} */ w) => w.Id)).toEqual(sorted.slice(20, 70).map((w) => w.Id));
    } finally {
      await e.close();
    }
  });

  test('the lists follow every change: a new work order, a move to another subscriber, a status change (cached lists rebuilt)', async () => {
    const t = await token();
    const first = await keysetRead(t, "Status/Primary eq 'COMPLETED'");
    const wo = emu.createWorkOrder({ Status: { Primary: 'COMPLETED', Extended: null } });
    emu.setWorkOrderStatus(90000001, 'COMPLETED', 'PENDING CONFIRMATION');
    emu.updateWorkOrder(first[0], { LocationId: 701 }); // to child subscriber 2001: no longer visible
    const second = await keysetRead(t, "Status/Primary eq 'COMPLETED'");
    expect(second).toEqual([wo.Id, ...first.slice(1), 90000001].sort((a, b) => b - a));
    expect((await api('GET', `/workorders/${first[0]}`, { token: t })).status).toBe(404);
  });
});
