'use strict';

/**
 * What the emulator's contract tests share (not a test file): a fresh emulator for every test
 * (useEmulator) and small clients for its endpoints over real HTTP. The tests (one file per area,
 * in this folder) check the emulator against the spec
 * (../../../../shared/spec/work-order-service-api.md) and the decisions in ../README.md.
 */

const http = require('node:http');
const { startEmulator } = require('../index');

/** @type {import('../index').Emulator} */
let emu;
/** @type {any} */
let fx;
/** @type {(e: import('../index').Emulator) => void} */
let onStart = () => {};

/**
 * Starts a fresh emulator on a free port before every test of the file and closes it after;
 * `set` receives each one (and the one restart() starts). Call at the top level of a test file.
 * @param {(e: import('../index').Emulator) => void} set
 */
function useEmulator(set) {
	onStart = set;
	beforeEach(async () => {
		emu = await startEmulator();
		fx = emu.fixtures;
		onStart(emu);
	});
	afterEach(async () => {
		await emu.close();
	});
}

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
		body:
			form === null
				? undefined
				: typeof form === 'string'
					? form
					: new URLSearchParams(form).toString(),
		redirect: 'manual',
	});
	return read(r);
}

/** @param {string} [who] @param {any} [client] */
async function login(who = 'subscriber', client) {
	const u = fx.users[who];
	const r = await tokenRequest(
		{ grant_type: 'password', username: u.username, password: u.password },
		{ client },
	);
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
	const r = await tokenRequest(
		{ username: u.username, password: u.password },
		{ endpoint: '/jwt/token' },
	);
	if (r.status !== 200) throw new Error(`jwt login failed: ${r.status} ${r.text}`);
	return r.body;
}

/**
 * @param {string} method @param {string} p path under /api/v3
 * @param {{ token?: string, json?: any, body?: any, headers?: Record<string, string>, deliberate?: string }} [o]
 *   `deliberate`: why the request departs from the service's reference on purpose (a test of a
 *   refusal); the contract test does not count it (test/contract/README.md)
 */
async function api(method, p, o = {}) {
	/** @type {Record<string, string>} */
	const headers = {};
	if (o.token) headers.authorization = `Bearer ${o.token}`;
	if (o.deliberate) headers['x-contract-deliberate'] = o.deliberate;
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
				res.on('end', () =>
					resolve({
						status: res.statusCode || 0,
						text: Buffer.concat(chunks).toString('utf8'),
						headers: res.headers,
					}),
				);
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
	fd.append(
		'CheckListResponseRequest',
		typeof request === 'string' ? request : JSON.stringify(request),
	);
	if (file)
		fd.append(
			'file',
			new Blob([file.data || Buffer.from('img')], { type: file.type || 'image/jpeg' }),
			file.name || 'photo.jpg',
		);
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
 * @param {string} [deliberate] why the request is invalid on purpose (see api)
 */
function submit(tok, request, file = null, deliberate = undefined) {
	return api('POST', '/checklists/CheckListResponse', {
		token: tok,
		body: checklistForm(request, file),
		deliberate,
	});
}

/**
 * An OData error answer (ASP.NET OData): 400 `{ error: { code, message, details } }`.
 * @param {{ status: number, body: any }} r @param {string | RegExp} [message]
 */
function expectODataError(r, message) {
	expect(r.status).toBe(400);
	expect(r.body).toEqual({
		error: {
			code: '',
			message: expect.stringMatching(/^The query specified in the URI is not valid\. /),
			details: [],
		},
	});
	if (message !== undefined) expect(r.body.error.message).toMatch(message);
}

/** @param {{ status: number, body: any }} r @param {number} status @param {number} [code] */
function expectError(r, status, code) {
	expect(r.status).toBe(status);
	expect(r.body).toEqual(
		expect.objectContaining({
			ErrorCodes: expect.any(Array),
			ErrorCode: expect.any(Number),
			ErrorMessage: expect.any(String),
		}),
	);
	expect(r.body.ErrorMessage.length).toBeGreaterThan(5);
	if (code !== undefined) expect(r.body.ErrorCodes).toContain(code);
	expect(r.body.ErrorCodes[0]).toBe(r.body.ErrorCode);
}

/** Replaces the emulator of this test by one started with `opts` (afterEach closes it). @param {any} opts */
async function restart(opts) {
	await emu.close();
	emu = await startEmulator(opts);
	fx = emu.fixtures;
	onStart(emu);
}

/**
 * GET /odata/workorders with the given OData options (each value percent-encoded, '+' as %2B).
 * @param {string} t @param {Record<string, string | number>} opts @param {string} [path]
 */
function odata(t, opts, path = '/odata/workorders', deliberate = undefined) {
	const qs = Object.entries(opts)
		.map(([k, v]) => `${k}=${encodeURIComponent(String(v))}`)
		.join('&');
	return api('GET', `${path}?${qs}`, { token: t, deliberate });
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

module.exports = {
	useEmulator,
	basic,
	read,
	tokenRequest,
	login,
	token,
	jwtLogin,
	api,
	raw,
	checklistForm,
	answer,
	submit,
	expectError,
	expectODataError,
	restart,
	odata,
	idsOf,
	expectedIds,
	readAllPages,
};
