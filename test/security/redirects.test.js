'use strict';
/**
 * Issue 10.1: a token goes only where the credential says.
 *
 * A second HTTP server on another port plays the attacker: the service (the emulator) answers API
 * calls with redirects to it. Whatever the status (301/302/303/307/308) and the method (GET, PUT,
 * multipart POST), and whatever the credential type, that server must receive no request carrying
 * a token (the node does not follow a redirect to another origin at all), and the error names the
 * other origin. Redirects within the API's own origin are followed for reads (and for 307/308,
 * which keep method and body), never turned into another request.
 */
const http = require('node:http');
const { NodeApiError } = require('n8n-workflow');
const support = require('../support');

const env = support.useEnvironment();
const WO = 90000001;
const OTHER_WO = 90000004;
const PROPOSAL = 61001;

/** The attacker's server: records every request it gets. */
let capture;
beforeAll(async () => {
	const requests = [];
	const server = http.createServer((req, res) => {
		let body = '';
		req.on('data', (c) => (body += c));
		req.on('end', () => {
			requests.push({ method: req.method, url: req.url, headers: req.headers, body });
			res.writeHead(200, { 'content-type': 'application/json' });
			res.end('{"Id":1,"stolen":true}');
		});
	});
	await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
	capture = { server, requests, origin: `http://127.0.0.1:${server.address().port}` };
});
afterAll(async () => {
	await new Promise((resolve) => capture.server.close(resolve));
});
beforeEach(() => {
	// each test starts as a fresh n8n process: no token known for its settings
	support.forgetTokens();
	capture.requests.length = 0;
});

const getWo = { resource: 'workOrder', operation: 'get', workOrderId: WO };
const approve = {
	resource: 'proposal',
	operation: 'reopen',
	proposalId: PROPOSAL,
	additionalFields: { comments: 'redirect test' },
};
const checklist = {
	resource: 'checklistResponse',
	operation: 'submit',
	workOrderId: WO,
	questionId: 9103,
	questionType: 'textEntry',
	answer: 'redirect test',
	providerId: 3001,
	technicianId: 4001,
	attempt: 1,
};
const CASES = [
	['GET', `/api/v3/workorders/${WO}`, getWo],
	['PUT', `/api/v3/proposals/${PROPOSAL}/open`, approve],
	['POST', '/api/v3/checklists/CheckListResponse', checklist],
];

describe('a redirect to another origin is never followed: the other server gets nothing, the error names it', () => {
	for (const status of [301, 302, 303, 307, 308]) {
		test.each(CASES)(`HTTP ${status} on %s %s`, async (method, path, parameters) => {
			env.emulator.failNext({
				method,
				path,
				status,
				headers: { location: `${capture.origin}/steal?from=${status}` },
			});
			const r = await env.run({ parameters: { ...parameters, requestOptions: { maxRetries: 3 } } });
			expect(r.result.status).toBe('error');
			expect(r.error).toBeInstanceOf(NodeApiError);
			expect(r.error.message).toContain(`another origin (${capture.origin})`);
			expect(r.error.message).toMatch(/not followed/);
			expect(r.error.httpCode).toBe(String(status));
			expect(capture.requests).toEqual([]);
			// the request itself went out once, to the API, with the token
			expect(r.api.filter((q) => q.method === method)).toHaveLength(1);
			expect(r.api[0].headers.authorization).toMatch(/^Bearer at_/);
		});
	}

	test('Continue On Fail: the item becomes an error item naming the origin; nothing reached the other server', async () => {
		env.emulator.failNext({
			method: 'GET',
			status: 302,
			headers: { location: `${capture.origin}/x` },
		});
		const r = await env.run({
			parameters: getWo,
			continueOnFail: true,
			items: support.items([{}, {}]),
		});
		expect(r.output).toHaveLength(2);
		expect(r.output[0].json.error).toContain(capture.origin);
		expect(r.output[0].json.httpCode).toBe('302');
		expect(r.output[1].json.Id).toBe(WO);
		expect(capture.requests).toEqual([]);
	});

	test('the same host name on another port, or https instead of http, is another origin', async () => {
		const port = Number(new URL(env.emulator.origin).port);
		for (const location of [
			`https://127.0.0.1:${port}/api/v3/workorders/${WO}`,
			`http://localhost:${port}/api/v3/workorders/${WO}`,
		]) {
			env.emulator.failNext({ method: 'GET', status: 302, headers: { location } });
			const r = await env.run({ parameters: getWo });
			expect([location, r.result.status]).toEqual([location, 'error']);
			expect(r.error.message).toContain(new URL(location).origin);
		}
	});

	test('OAuth2 (authorization code) credential: the token n8n signs with is not carried to the other origin either', async () => {
		const { emulator, harness } = env;
		const client = emulator.fixtures.clients.main;
		const user = emulator.fixtures.users.subscriber;
		const token = await (
			await fetch(`${emulator.authUrl}/oauth/token`, {
				method: 'POST',
				headers: {
					authorization: `Basic ${Buffer.from(`${client.clientId}:${client.clientSecret}`).toString('base64')}`,
					'content-type': 'application/x-www-form-urlencoded',
				},
				body: new URLSearchParams({
					grant_type: 'password',
					username: user.username,
					password: user.password,
				}).toString(),
			})
		).json();
		harness.credentials.set('oauth-redirect', {
			name: 'OAuth2',
			type: 'workOrderServiceOAuth2Api',
			data: {
				authServerUrl: emulator.authUrl,
				baseUrl: emulator.baseUrl,
				clientId: client.clientId,
				clientSecret: client.clientSecret,
				oauthTokenData: token,
			},
		});
		env.emulator.failNext({
			method: 'GET',
			status: 307,
			headers: { location: `${capture.origin}/steal` },
		});
		const r = await env.run({
			authentication: 'oAuth2',
			credentialId: 'oauth-redirect',
			parameters: getWo,
		});
		expect(r.result.status).toBe('error');
		expect(r.error.message).toContain(`another origin (${capture.origin})`);
		expect(capture.requests).toEqual([]);
	});
});

describe('token requests are never redirected', () => {
	test('a token endpoint that redirects to another origin: not followed, a clear login error, nothing sent there', async () => {
		env.emulator.failNext({
			path: '/auth/oauth/token',
			status: 307,
			headers: { location: `${capture.origin}/oauth/token` },
		});
		const r = await env.run({
			credentialId: 'fresh-redirected',
			credentialData: support.passwordCredential(env.emulator),
			parameters: getWo,
		});
		expect(r.result.status).toBe('error');
		expect(r.error.message).toMatch(/redirect \(HTTP 307\)/);
		expect(capture.requests).toEqual([]);
		expect(r.api).toEqual([]);
	});
});

describe('redirects within the API origin', () => {
	test('GET: followed (relative or absolute Location), with the token, to the record it points at', async () => {
		for (const location of [
			`/api/v3/workorders/${OTHER_WO}`,
			`${env.emulator.baseUrl}/v3/workorders/${OTHER_WO}`,
		]) {
			env.emulator.failNext({
				method: 'GET',
				path: `/api/v3/workorders/${WO}`,
				status: 302,
				headers: { location },
			});
			const r = await env.run({ parameters: getWo });
			expect(r.error).toBeUndefined();
			expect(r.output.map((o) => o.json.Id)).toEqual([OTHER_WO]);
			expect(r.api.map((q) => [q.method, q.path, q.status])).toEqual([
				['GET', `/api/v3/workorders/${WO}`, 302],
				['GET', `/api/v3/workorders/${OTHER_WO}`, 200],
			]);
			expect(r.api[1].headers.authorization).toBe(r.api[0].headers.authorization);
		}
	});

	test('PUT with 307: sent again to the new path with the same method and body', async () => {
		const target = `/api/v3/proposals/${PROPOSAL}/onhold`;
		env.emulator.failNext({
			method: 'PUT',
			path: `/api/v3/proposals/${PROPOSAL}/open`,
			status: 307,
			headers: { location: target },
		});
		const r = await env.run({ parameters: approve });
		expect(r.error).toBeUndefined();
		expect(r.api.map((q) => [q.method, q.path, q.status])).toEqual([
			['PUT', `/api/v3/proposals/${PROPOSAL}/open`, 307],
			['PUT', target, 204],
		]);
		expect(r.api[1].body).toEqual(r.api[0].body);
	});

	test('PUT or POST with 302/303: not turned into another request; a clear error, sent once', async () => {
		for (const [method, path, parameters] of CASES.slice(1)) {
			env.emulator.failNext({
				method,
				path,
				status: 303,
				headers: { location: '/api/v3/somewhere-else' },
			});
			const r = await env.run({ parameters });
			expect(r.result.status).toBe('error');
			expect(r.error.message).toMatch(
				new RegExp(`would turn this ${method} into a different request`),
			);
			expect(r.api).toHaveLength(1);
		}
	});

	test('a redirect loop ends after 5 hops with an error', async () => {
		env.emulator.failNext({
			method: 'GET',
			status: 302,
			count: 10,
			headers: { location: `/api/v3/workorders/${WO}` },
		});
		const r = await env.run({ parameters: getWo });
		expect(r.result.status).toBe('error');
		expect(r.error.message).toMatch(/more than 5 redirects/);
		expect(r.api).toHaveLength(6);
		env.emulator.resetFaults();
	});
});
