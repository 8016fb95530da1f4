'use strict';

/**
 * The fault switches: latency and jitter, per-client rate limits (429/503 with Retry-After), the
 * token rate limit, injected responses (failNext), dropped connections (dropNext), afterProcessing,
 * and resetFaults().
 * Every test starts a fresh emulator on a free port (./helpers.js) and talks to it over real HTTP.
 */

const {
	useEmulator,
	tokenRequest,
	login,
	token,
	api,
	answer,
	submit,
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
		emu.clearRequests();
		const seen = [];
		for (let i = 0; i < 8; i++) {
			const started = Date.now();
			expect((await api('GET', '/workorders?pageSize=1', { token: t })).status).toBe(200);
			seen.push(Date.now() - started);
		}
		// the client waits at least the latency ...
		for (const ms of seen) expect(ms).toBeGreaterThanOrEqual(18);
		// ... and the delay is measured where the emulator adds it: its request log, arrival to answer
		// (the client's time adds its own share of a busy machine, which is no delay of the emulator)
		const times = emu.requests.map((r) => r.durationMs);
		expect(times).toHaveLength(8);
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
		expect(emu.requests.at(-1)).toMatchObject({
			status: 429,
			throttled: true,
			clientId: fx.clients.main.clientId,
		});
		expect((await api('GET', '/workorders?pageSize=1', { token: b })).status).toBe(200);
		emu.advanceTime(61);
		expect((await api('GET', '/workorders?pageSize=1', { token: a })).status).toBe(200);
	});

	test('rateLimit can answer 503 with an HTTP-date Retry-After, a fixed number of seconds, or none', async () => {
		const t = await token();
		emu.setFaults({
			rateLimit: {
				limit: 1,
				windowMs: 60000,
				status: 503,
				retryAfter: 'date',
				retryAfterSeconds: 30,
			},
		});
		await api('GET', '/workorders?pageSize=1', { token: t });
		const r = await api('GET', '/workorders?pageSize=1', { token: t });
		expect(r.status).toBe(503);
		const date = /** @type {string} */ (r.headers.get('retry-after'));
		expect(date).toMatch(/GMT$/);
		const wait = Date.parse(date) - Date.now();
		expect(wait).toBeGreaterThan(25000);
		expect(wait).toBeLessThanOrEqual(31000);
		emu.setFaults({
			rateLimit: {
				limit: 1,
				windowMs: 60000,
				status: 429,
				retryAfter: 'seconds',
				retryAfterSeconds: 7,
			},
		});
		expect(
			(await api('GET', '/workorders?pageSize=1', { token: t })).headers.get('retry-after'),
		).toBe('7');
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
		emu.failNext({
			method: 'GET',
			path: '/api/v3/workorders',
			status: 500,
			body: { Reason: 'database down' },
		});
		const a = await api('GET', wo, { token: t });
		expect([a.status, a.text, a.headers.get('content-type')]).toEqual([
			500,
			'{"Reason":"database down"}',
			'application/json; charset=utf-8',
		]);
		emu.failNext({
			path: /odata/,
			status: 502,
			body: '<html><body>Bad gateway</body></html>',
			contentType: 'text/html',
		});
		const b = await api('GET', '/odata/workorders', { token: t });
		expect([b.status, b.headers.get('content-type'), b.text]).toEqual([
			502,
			'text/html',
			'<html><body>Bad gateway</body></html>',
		]);
		emu.failNext({ status: 400, body: 'plain words' });
		const c = await api('GET', wo, { token: t });
		expect([c.status, c.text, c.headers.get('content-type')]).toEqual([
			400,
			'plain words',
			'text/plain; charset=utf-8',
		]);
		emu.failNext({ method: 'POST', status: 503, count: 2, headers: { 'Retry-After': '3' } });
		expect((await api('GET', wo, { token: t })).status).toBe(200);
		for (let i = 0; i < 2; i++) {
			const d = await api('POST', `${wo}/notes`, { token: t, json: { Note: 'x' } });
			expect([d.status, d.text, d.headers.get('retry-after')]).toEqual([503, '', '3']);
		}
		expect((await api('POST', `${wo}/notes`, { token: t, json: { Note: 'x' } })).status).toBe(201);
		expect(emu.requests.filter((r) => r.injected).map((r) => r.status)).toEqual([
			500, 502, 400, 503, 503,
		]);
	});

	test('dropNext destroys the socket without a response; the next request is served', async () => {
		const t = await token();
		emu.dropNext({ path: '/api/v3/workorders' });
		await expect(
			fetch(`${emu.baseUrl}/v3/workorders`, { headers: { authorization: `Bearer ${t}` } }),
		).rejects.toThrow();
		expect(emu.requests.at(-1)).toMatchObject({ dropped: true, status: null });
		expect((await api('GET', '/workorders', { token: t })).status).toBe(200);
	});

	test('afterProcessing: the request is fully processed before the injected error or drop', async () => {
		const t = await token();
		const wo = fx.workOrders.checklist;
		emu.failNext({
			method: 'POST',
			path: '/api/v3/checklists',
			status: 504,
			body: 'Gateway Timeout',
			afterProcessing: true,
		});
		const r = await submit(t, answer({ Answer: 'yes' }));
		expect(r.status).toBe(504);
		expect(emu.state.checklistResponses).toHaveLength(1);
		expect(emu.requests.at(-1)).toMatchObject({
			injected: true,
			processedStatus: 201,
			status: 504,
		});
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
		expect(
			(await api('POST', `/workorders/${wo}/notes`, { token: t, json: { Note: 'maybe saved' } }))
				.status,
		).toBe(500);
		expect(emu.notesOf(wo)).toHaveLength(before + 1);
	});

	test('resetFaults() clears switches and queued faults', async () => {
		const t = await token();
		emu.setFaults({ rateLimit: { limit: 1, windowMs: 60000 }, latencyMs: 1 });
		emu.failNext({ status: 500 });
		emu.resetFaults();
		for (let i = 0; i < 3; i++)
			expect((await api('GET', '/workorders?pageSize=1', { token: t })).status).toBe(200);
	});
});

// =================================================================================================
