'use strict';

/**
 * The request log and the emulator's options: what is logged per request, tokenRequests(),
 * logBodies: false, the control endpoint's state, and cli.js.
 * Every test starts a fresh emulator on a free port (./helpers.js) and talks to it over real HTTP.
 */

const path = require('node:path');
const { spawn } = require('node:child_process');
const { startEmulator } = require('../index');
const { useEmulator, basic, login, token, jwtLogin, api } = require('./helpers');

/** @type {import('../index').Emulator} */
let emu;
/** @type {any} */
let fx;
useEmulator((e) => {
	emu = e;
	fx = e.fixtures;
});

describe('request log and options', () => {
	test('each request is logged in order with method, paths, query, lower-cased headers, parsed body, status and attribution', async () => {
		const t = await token();
		emu.clearRequests();
		await api('POST', `/workorders/${fx.workOrders.checklist}/notes?x=1&x=2&y=%20z`, {
			token: t,
			json: { Note: 'hello' },
			headers: { 'X-Trace': 'abc' },
			deliberate: 'query parameters the notes call does not take',
		});
		await api('GET', `/odata/workorders(${fx.workOrders.checklist})`, { token: t });
		expect(emu.requests).toHaveLength(2);
		const [a, b] = emu.requests;
		expect(b.seq).toBe(a.seq + 1);
		expect(a).toMatchObject({
			method: 'POST',
			path: `/api/v3/workorders/${fx.workOrders.checklist}/notes`,
			query: { x: ['1', '2'], y: ' z' },
			body: { Note: 'hello' },
			status: 201,
			clientId: fx.clients.main.clientId,
			username: fx.users.subscriber.username,
			tokenKind: 'oauth',
		});
		expect(a.headers['x-trace']).toBe('abc');
		expect(a.rawBody?.toString()).toBe('{"Note":"hello"}');
		expect(a.bodySize).toBe(16);
		expect(b.rawPath).toBe(`/api/v3/odata/workorders(${fx.workOrders.checklist})`);
		const tokenLog = emu.tokenRequests();
		expect(tokenLog).toHaveLength(0);
	});

	test('tokenRequests() lists token-endpoint calls with the form body', async () => {
		await login();
		await jwtLogin();
		const list = emu.tokenRequests();
		expect(list.map((r) => r.path)).toEqual(['/auth/oauth/token', '/auth/jwt/token']);
		expect(list[0].body).toMatchObject({
			grant_type: 'password',
			username: fx.users.subscriber.username,
		});
		expect(list[0]).toMatchObject({
			status: 200,
			clientId: fx.clients.main.clientId,
			username: fx.users.subscriber.username,
		});
	});

	test('logBodies: false keeps only sizes; a 20 MB multipart upload is accepted', async () => {
		const lean = await startEmulator({ logBodies: false, workOrderCount: 20 });
		try {
			expect(lean.fixtures.workOrders.mainCount).toBe(20);
			const u = lean.fixtures.users.subscriber;
			const tr = await fetch(`${lean.authUrl}/oauth/token`, {
				method: 'POST',
				headers: {
					authorization: basic(lean.fixtures.clients.main),
					'content-type': 'application/x-www-form-urlencoded',
				},
				body: new URLSearchParams({
					grant_type: 'password',
					username: u.username,
					password: u.password,
				}),
			});
			const t = (await tr.json()).access_token;
			const big = Buffer.alloc(20 * 1024 * 1024, 7);
			const fd = new FormData();
			fd.append('file', new Blob([big], { type: 'application/octet-stream' }), 'big.bin');
			const r = await fetch(
				`${lean.baseUrl}/v3/workorders/${lean.fixtures.notes.workOrderId}/notes/${lean.fixtures.notes.big31}/attachments`,
				{
					method: 'POST',
					headers: { authorization: `Bearer ${t}` },
					body: fd,
				},
			);
			expect(r.status).toBe(201);
			expect(await r.json()).toEqual([lean.state.attachments.at(-1).Id]);
			expect(lean.state.attachments.at(-1).Size).toBe(big.length);
			const entry = lean.requests.at(-1);
			expect(entry?.rawBody).toBeUndefined();
			expect(entry?.bodySize).toBeGreaterThan(big.length);
			expect(entry?.parts?.[0]).toEqual({
				name: 'file',
				filename: 'big.bin',
				contentType: 'application/octet-stream',
				size: big.length,
			});
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
		const child = spawn(
			process.execPath,
			[path.join(__dirname, '..', 'cli.js'), '--port', '0', '--quiet'],
			{ stdio: ['ignore', 'pipe', 'pipe'] },
		);
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

// Polling-trigger support: work orders that change, dates in the service's time zone, OData filters
// =================================================================================================
