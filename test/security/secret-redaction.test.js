'use strict';
/**
 * Issue 10.2: no secret in any message, in any form.
 *
 * A hostile service echoes what it received. For every secret (client secret, password, access
 * token, refresh token) and every form a server could echo it in (raw, percent-encoded, form-encoded,
 * lower-case percent escapes, base64 with and without the "Basic " prefix, JSON-escaped), the form is
 * planted at the start of a service error message, and the test proves it was found and removed:
 * the error message/description, the Continue-On-Fail item and the run's log lines hold
 * "[redacted]" where the secret was, and not the planted text. Covered too: the access token of a
 * fresh credential's first login (obtained during the run), a token issued by a renewal in the
 * middle of a run, and the password echoed by the token endpoint in its form encoding.
 */
const support = require('../support');

// Secrets with characters that every encoding changes.
const SECRET = {
	clientId: 'wos-plant-client',
	clientSecret: 'CS-plant&=+/ "q\\é€<>~*!1',
	password: 'PW-plant&w=+% "x\\ü<>/~2',
};
const USER = 'plant.subscriber';

const FORMS = {
	raw: (s) => s,
	'percent-encoded': (s) => encodeURIComponent(s),
	'percent-encoded, lower-case hex': (s) =>
		encodeURIComponent(s).replace(/%[0-9A-F]{2}/g, (m) => m.toLowerCase()),
	'form-encoded': (s) => new URLSearchParams({ v: s }).toString().slice(2),
	base64: (s) => Buffer.from(s, 'utf8').toString('base64'),
	'JSON-escaped': (s) => JSON.stringify(s).slice(1, -1),
};

let env;
let emulator;
let harness;
beforeAll(async () => {
	env = await support.setup();
	({ emulator, harness } = env);
	emulator.state.clients[SECRET.clientId] = {
		clientId: SECRET.clientId,
		clientSecret: SECRET.clientSecret,
		callbackUris: [],
	};
	const original = emulator.state.users[emulator.fixtures.users.subscriber.username.toLowerCase()];
	emulator.state.users[USER] = {
		...original,
		permissions: [...original.permissions],
		username: USER,
		password: SECRET.password,
	};
});
afterAll(async () => {
	await env.close();
});
beforeEach(() => {
	// each test starts as a fresh n8n process: no token known for its settings
	support.forgetTokens();
	emulator.resetFaults();
	emulator.onResponse = null;
});

function credential() {
	return {
		authServerUrl: emulator.authUrl,
		baseUrl: emulator.baseUrl,
		clientId: SECRET.clientId,
		clientSecret: SECRET.clientSecret,
		username: USER,
		password: SECRET.password,
		subsidiaryId: '',
	};
}

const getWo = (extra = {}) => ({
	resource: 'workOrder',
	operation: 'get',
	workOrderId: '={{ $json.id }}',
	requestOptions: { maxRetries: 0, concurrency: 1 },
	...extra,
});
const echo = (text) => ({ ErrorCodes: [2006], ErrorCode: 2006, ErrorMessage: `echo ${text} end` });

/** Everything the user can see or n8n keeps from one run. */
function texts(r) {
	const all = [];
	if (r.error) all.push(String(r.error.message), String(r.error.description ?? ''));
	for (const e of Object.values(r.result.nodeErrors ?? {}))
		all.push(String(e.message), String(e.description ?? ''));
	all.push(JSON.stringify(r.output));
	if (r.result.executionError) all.push(JSON.stringify(r.result.executionError));
	all.push(r.result.logs.join('\n'));
	return all.join('\n');
}

/** The planted text is gone and "[redacted]" took its place in what the user sees. */
function expectRemoved(r, planted, label) {
	const seen = texts(r);
	expect([label, seen.includes(planted)]).toEqual([label, false]);
	const shown = r.error
		? `${r.error.message}\n${r.error.description ?? ''}`
		: JSON.stringify(r.output);
	expect([label, shown]).toEqual([label, expect.stringContaining('echo [redacted] end')]);
}

async function runWith(credentialId, options = {}) {
	return await support.runNode(harness, {
		credentialId,
		parameters: getWo(),
		items: support.items([{ id: 90000001 }]),
		timeoutMs: 20_000,
		...options,
	});
}

describe('every form of every secret, planted by a service that echoes, is found and removed', () => {
	const CRED = 'plant-main';
	let tokens;
	beforeAll(async () => {
		harness.credentials.set(CRED, { name: CRED, type: 'workOrderServiceApi', data: credential() });
		const first = await runWith(CRED);
		expect(first.error).toBeUndefined();
		const stored = harness.credentials.get(CRED);
		tokens = { 'access token': stored.accessToken, 'refresh token': stored.refreshToken };
		expect(tokens['access token']).toMatch(/^at_/);
	});

	const secrets = () => ({
		'client secret': SECRET.clientSecret,
		password: SECRET.password,
		...tokens,
	});
	for (const name of ['client secret', 'password', 'access token', 'refresh token']) {
		for (const [formName, form] of Object.entries(FORMS)) {
			test(`${name}, ${formName}: in an API error (message, description, logs)`, async () => {
				const planted = form(secrets()[name]);
				emulator.failNext({ method: 'GET', status: 400, body: echo(planted) });
				const r = await runWith(CRED);
				expect(r.result.status).toBe('error');
				expectRemoved(r, planted, `${name} ${formName}`);
				// the service really sent it back
				expect(
					JSON.parse(emulator.requests[emulator.requests.length - 1].responseBody).ErrorMessage,
				).toContain(planted);
			});
		}
	}

	test('the Basic value BASE64(client_id:client_secret) without its prefix, and with it', async () => {
		const basic = Buffer.from(`${SECRET.clientId}:${SECRET.clientSecret}`).toString('base64');
		for (const planted of [basic, `Basic ${basic}`, basic.replace(/=+$/, '')]) {
			emulator.failNext({ method: 'GET', status: 400, body: echo(planted) });
			const r = await runWith(CRED);
			expectRemoved(r, planted, planted);
		}
	});

	test('Continue On Fail: the error item holds no planted secret either', async () => {
		for (const [formName, form] of Object.entries(FORMS)) {
			const planted = form(SECRET.password);
			emulator.failNext({ method: 'GET', status: 400, body: echo(planted) });
			const r = await runWith(CRED, { continueOnFail: true });
			expect(r.output).toHaveLength(1);
			expect([formName, JSON.stringify(r.output).includes(planted)]).toEqual([formName, false]);
			expect(r.output[0].json.error).toContain('echo [redacted] end');
		}
	});
});

describe('tokens obtained during the run are redacted too', () => {
	test("a fresh credential's first access token, echoed by the first API call, in every form", async () => {
		for (const [formName, form] of Object.entries(FORMS)) {
			const id = `plant-fresh-${formName}`;
			support.forgetTokens(); // a first login for each form (the process knows no token of these settings)
			harness.credentials.set(id, { name: id, type: 'workOrderServiceApi', data: credential() });
			let planted;
			emulator.onResponse = (entry) => {
				if (entry.path === '/auth/oauth/token' && entry.status === 200) {
					planted = form(JSON.parse(entry.responseBody).access_token);
					emulator.failNext({ method: 'GET', path: '/api/', status: 400, body: echo(planted) });
				}
			};
			const r = await runWith(id);
			emulator.onResponse = null;
			expect(planted).toBeDefined();
			expect(r.result.status).toBe('error');
			expectRemoved(r, planted, formName);
		}
	});

	test('a token issued by a renewal in the middle of a run (access and refresh token), echoed later in the same run', async () => {
		const id = 'plant-renewal';
		harness.credentials.set(id, { name: id, type: 'workOrderServiceApi', data: credential() });
		expect((await runWith(id)).error).toBeUndefined();
		emulator.clearRequests();
		let apiAnswers = 0;
		let renewed;
		emulator.onResponse = (entry) => {
			if (entry.path.startsWith('/api/') && ++apiAnswers === 1) emulator.revokeAccessTokens();
			if (entry.path === '/auth/oauth/token' && entry.status === 200) {
				renewed = JSON.parse(entry.responseBody);
				// the third item's request is answered with both new tokens echoed
				emulator.failNext({
					method: 'GET',
					path: '/api/v3/workorders/90000004',
					status: 400,
					body: echo(`${renewed.access_token} ${renewed.refresh_token}`),
				});
			}
		};
		const r = await runWith(id, {
			items: support.items([{ id: 90000001 }, { id: 90000002 }, { id: 90000004 }]),
			continueOnFail: true,
		});
		emulator.onResponse = null;
		expect(renewed).toBeDefined();
		expect(r.output).toHaveLength(3);
		expect(r.output[2].json.error).toContain('echo [redacted] [redacted] end');
		expect(texts(r)).not.toContain(renewed.access_token);
		expect(texts(r)).not.toContain(renewed.refresh_token);
	});

	test('the token endpoint echoing the request body: the password as the form encoding sent it, and the client secret', async () => {
		for (const [formName, form] of Object.entries(FORMS)) {
			const id = `plant-login-${formName}`;
			const planted = form(SECRET.password);
			emulator.failNext({
				path: '/auth/oauth/token',
				status: 400,
				body: {
					error: 'invalid_grant',
					error_description: `echo ${planted} end (client ${form(SECRET.clientSecret)})`,
				},
			});
			const r = await runWith(id, { credentialData: credential() });
			expect(r.result.status).toBe('error');
			expect(r.error.message).toMatch(/Username or password rejected/);
			expect([formName, texts(r).includes(planted)]).toEqual([formName, false]);
			expect([formName, texts(r).includes(form(SECRET.clientSecret))]).toEqual([formName, false]);
			expect(r.error.message).toContain('echo [redacted] end');
		}
	});
});
