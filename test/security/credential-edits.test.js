'use strict';
/**
 * Issue 10.1 (second half): a token is used only with the settings it was issued for.
 *
 * A credential logs in against emulator A; then its user edits it (API Base URL and authorization
 * server moved to emulator B, another user, another client, another child subscriber). The next
 * execution must not carry the old token (nor offer the old refresh token) anywhere: a fresh login
 * happens with the new settings. Checked for the node (both token-login types) and for n8n's HTTP
 * Request node using the credential (harness stand-in through n8n-core's requestWithAuthentication),
 * which goes through the credential's own authenticate/preAuthentication.
 */
const http = require('node:http');
const { startEmulator } = require('../emulator');
const support = require('../support');

let a;
let b;
let harness;
let closeA;
beforeAll(async () => {
	const s = await support.setup();
	a = s.emulator;
	harness = s.harness;
	closeA = s.close;
	b = await startEmulator();
});
afterAll(async () => {
	await closeA();
	await b.close();
});
beforeEach(() => {
	for (const emu of [a, b]) {
		emu.resetFaults();
		emu.clearRequests();
	}
});

const getWo = { resource: 'workOrder', operation: 'get', workOrderId: 90000001 };
const TYPES = { password: 'workOrderServiceApi', contractor: 'workOrderServiceContractorApi' };

function credentialFor(emu, authentication, userKey) {
	return authentication === 'password'
		? support.passwordCredential(emu, userKey ?? 'subscriber')
		: support.contractorCredential(emu, userKey ?? 'contractor');
}

async function run(id, authentication, data) {
	if (data) harness.credentials.set(id, { name: id, type: TYPES[authentication], data });
	return await support.runNode(harness, { credentialId: id, authentication, parameters: getWo });
}

/** Every token string the emulator ever received on its API or token endpoint. */
function tokensSeenBy(emu) {
	const seen = [];
	for (const q of emu.requests) {
		const auth = q.headers.authorization ?? '';
		if (auth.startsWith('Bearer ')) seen.push(auth.slice(7));
		if (q.body && typeof q.body === 'object' && typeof q.body.refresh_token === 'string')
			seen.push(q.body.refresh_token);
	}
	return seen;
}

describe.each(Object.keys(TYPES))('%s credential', (authentication) => {
	test('edited to settings a login cannot use (an empty Client ID) while its token is stored: a clear login error, nothing sent', async () => {
		const id = `unusable-${authentication}`;
		await run(id, authentication, credentialFor(a, authentication));
		const stored = harness.credentials.get(id);
		expect(stored.accessToken).not.toBe('');
		harness.credentials.set(id, {
			name: id,
			type: TYPES[authentication],
			data: { ...stored, clientId: '' },
		});
		a.clearRequests();
		const r = await run(id, authentication);
		expect(r.error.message).toBe(
			"Login to the Work Order Service failed: The credential's Client ID is empty",
		);
		expect(r.error.context.workOrderService).toMatchObject({ kind: 'login', outcome: 'notSent' });
		expect(a.requests).toEqual([]);
	});

	test("both URLs moved to another server: the old server's tokens are never sent to the new one; a fresh login there", async () => {
		const id = `moved-${authentication}`;
		const first = await run(id, authentication, credentialFor(a, authentication));
		expect(first.error).toBeUndefined();
		const old = harness.credentials.get(id);
		expect(old.accessToken).toBeTruthy();
		a.clearRequests();

		// the user edits the credential in n8n: the hidden token fields stay as they were
		harness.credentials.set(id, {
			name: id,
			type: TYPES[authentication],
			data: { ...old, authServerUrl: b.authUrl, baseUrl: b.baseUrl },
		});
		const second = await run(id, authentication);
		expect(second.error).toBeUndefined();
		expect(second.output.map((o) => o.json.Id)).toEqual([90000001]);

		const seen = tokensSeenBy(b);
		expect(seen).not.toContain(old.accessToken);
		expect(seen).not.toContain(old.refreshToken);
		const tokenCalls = b.tokenRequests();
		expect(tokenCalls).toHaveLength(1);
		expect(tokenCalls[0].body.refresh_token).toBeUndefined();
		expect(tokenCalls[0].body.username).toBe(credentialFor(b, authentication).username);
		// and A got nothing from the second run
		expect(a.requests).toHaveLength(0);
		// the token's identity is the new settings' one-way digest: it names no URL, user or secret
		const { loginConfig } = require('../../dist/nodes/WorkOrderService/auth/tokens');
		const now = harness.credentials.get(id);
		expect(now.tokenIdentity).toBe(
			loginConfig(authentication === 'contractor' ? 'contractor' : 'password', now).identity,
		);
		expect(now.tokenIdentity).toMatch(/^[0-9a-f]{64}$/);
	});

	test('only the API Base URL moved: the old token does not go to the new API; a fresh login first', async () => {
		const id = `base-moved-${authentication}`;
		await run(id, authentication, credentialFor(a, authentication));
		const old = harness.credentials.get(id);
		harness.credentials.set(id, {
			name: id,
			type: TYPES[authentication],
			data: { ...old, baseUrl: b.baseUrl },
		});
		a.clearRequests();
		await run(id, authentication);
		expect(tokensSeenBy(b)).not.toContain(old.accessToken);
		expect(b.requests.length).toBeGreaterThan(0); // it did call the new API (with a new token)
		// the first token request after the edit is a login with the password, not the old refresh token
		expect(a.tokenRequests()[0].body.refresh_token).toBeUndefined();
		expect(a.tokenRequests().map((t) => t.body.refresh_token)).not.toContain(old.refreshToken);
	});

	test("another user: the previous user's token is not used, the new user logs in", async () => {
		const id = `user-${authentication}`;
		await run(id, authentication, credentialFor(a, authentication));
		const old = harness.credentials.get(id);
		const otherKey = authentication === 'password' ? 'manager' : 'contractor';
		const other =
			authentication === 'password' ? a.fixtures.users.manager : a.fixtures.users.contractor;
		const edited = { ...old, username: other.username, password: other.password };
		if (authentication === 'contractor') {
			// a second contractor account for this test
			const copy = {
				...a.state.users[other.username.toLowerCase()],
				username: 'demo.contractor2',
				password: 'Demo#Contractor2',
			};
			a.state.users['demo.contractor2'] = copy;
			edited.username = 'demo.contractor2';
			edited.password = 'Demo#Contractor2';
		}
		harness.credentials.set(id, { name: id, type: TYPES[authentication], data: edited });
		a.clearRequests();
		const r = await run(id, authentication);
		expect(r.error).toBeUndefined();
		const api = a.requests.filter((q) => q.path.startsWith('/api/'));
		// the old token is not sent (it was issued for other settings): the service answers 401, n8n logs in afresh
		expect(api[0].headers.authorization).toBeUndefined();
		expect(api[0].status).toBe(401);
		expect(api.slice(1).map((q) => q.username)).toEqual([
			edited.username.toLowerCase() === otherKey ? otherKey : edited.username,
		]);
		expect(api.map((q) => q.headers.authorization)).not.toContain(`Bearer ${old.accessToken}`);
		expect(a.tokenRequests().map((t) => [t.body.username, t.body.refresh_token])).toEqual([
			[edited.username, undefined],
		]);
	});

	test.each([['password'], ['client secret']])(
		'the %s changed (on the service and in n8n): the old token, still valid there, is never sent again',
		async (what) => {
			const id = `secret-${what}-${authentication}`;
			await run(id, authentication, credentialFor(a, authentication));
			const old = harness.credentials.get(id);
			const record =
				what === 'password'
					? a.state.users[old.username.toLowerCase()]
					: a.state.clients[old.clientId];
			const field = what === 'password' ? 'password' : 'clientSecret';
			const before = record[field];
			record[field] = `${before}-rotated`;
			try {
				const edited = { ...old, [field]: record[field] };
				harness.credentials.set(id, { name: id, type: TYPES[authentication], data: edited });
				a.clearRequests();
				const r = await run(id, authentication);
				expect(r.error).toBeUndefined();
				expect(tokensSeenBy(a)).not.toContain(old.accessToken);
				const logins = a.tokenRequests();
				expect(logins.map((t) => t.body.refresh_token)).toEqual([undefined]);
				if (what === 'password') expect(logins[0].body.password).toBe(edited.password);
				else
					expect(logins[0].headers.authorization).toBe(
						`Basic ${Buffer.from(`${old.clientId}:${edited.clientSecret}`).toString('base64')}`,
					);
			} finally {
				record[field] = before;
			}
			expect(harness.credentials.get(id).accessToken).not.toBe(old.accessToken);
		},
	);

	test('another client: a fresh login with that client', async () => {
		const id = `client-${authentication}`;
		await run(id, authentication, credentialFor(a, authentication));
		const old = harness.credentials.get(id);
		const second = a.fixtures.clients.second;
		harness.credentials.set(id, {
			name: id,
			type: TYPES[authentication],
			data: { ...old, clientId: second.clientId, clientSecret: second.clientSecret },
		});
		a.clearRequests();
		const r = await run(id, authentication);
		expect(r.error).toBeUndefined();
		const api = a.requests.filter((q) => q.path.startsWith('/api/'));
		expect([api[0].headers.authorization, api[0].status]).toEqual([undefined, 401]);
		expect(api.slice(1).map((q) => q.clientId)).toEqual([second.clientId]);
		expect(a.tokenRequests().map((t) => t.clientId)).toEqual([second.clientId]);
	});
});

test('password grant: another child subscriber: the token scoped to the previous one is not used', async () => {
	const id = 'child-edit';
	const universal = support.passwordCredential(a, 'universal', { subsidiaryId: '2001' });
	await run(id, 'password', universal);
	const old = harness.credentials.get(id);
	expect(old.tokenScope).toBe('subsidiary:2001');
	harness.credentials.set(id, {
		name: id,
		type: TYPES.password,
		data: { ...old, subsidiaryId: '2002' },
	});
	a.clearRequests();
	const r = await support.runNode(harness, {
		credentialId: id,
		parameters: {
			resource: 'workOrder',
			operation: 'get',
			workOrderId: a.fixtures.workOrders.child2002[0],
		},
	});
	expect(r.error).toBeUndefined();
	expect(harness.credentials.get(id).tokenScope).toBe('subsidiary:2002');
	expect(
		a.requests.filter((q) => q.path.startsWith('/api/')).map((q) => q.headers.authorization),
	).not.toContain(`Bearer ${old.accessToken}`);
});

describe("n8n's HTTP Request node with this credential (predefined credential type)", () => {
	function httpRequestWorkflow(id, url, type = TYPES.password) {
		return {
			nodes: [
				{
					id: 't',
					name: 'Start',
					type: 'n8n-nodes-base.manualTrigger',
					typeVersion: 1,
					position: [0, 0],
					parameters: {},
				},
				{
					id: 'h',
					name: 'HTTP Request',
					type: 'n8n-nodes-base.httpRequest',
					typeVersion: 1,
					position: [200, 0],
					parameters: { credentialType: type, method: 'GET', url },
					credentials: { [type]: { id, name: id } },
				},
			],
			connections: { Start: { main: [[{ node: 'HTTP Request', type: 'main', index: 0 }]] } },
		};
	}

	test('after the credential moved to another server, the old token is not sent there (401, then a fresh login)', async () => {
		const id = 'http-moved';
		await run(id, 'password', credentialFor(a, 'password'));
		const old = harness.credentials.get(id);
		harness.credentials.set(id, {
			name: id,
			type: TYPES.password,
			data: { ...old, authServerUrl: b.authUrl, baseUrl: b.baseUrl },
		});
		const r = await harness.run(httpRequestWorkflow(id, `${b.baseUrl}/v3/workorders/90000001`));
		expect(r.outputs['HTTP Request'][0].json.statusCode).toBe(200);
		expect(tokensSeenBy(b)).not.toContain(old.accessToken);
		expect(tokensSeenBy(b)).not.toContain(old.refreshToken);
	});

	test('a URL on another origin gets no token; a redirect to another origin arrives without it', async () => {
		const id = 'http-origin';
		await run(id, 'password', credentialFor(a, 'password'));
		const token = harness.credentials.get(id).accessToken;
		a.clearRequests();
		const seen = [];
		const server = http.createServer((req, res) => {
			seen.push({ url: req.url, authorization: req.headers.authorization });
			res.writeHead(200, { 'content-type': 'application/json' });
			res.end('{}');
		});
		await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
		const other = `http://127.0.0.1:${server.address().port}`;
		try {
			await harness.run(httpRequestWorkflow(id, `${other}/direct`));
			a.failNext({ method: 'GET', status: 302, headers: { location: `${other}/redirected` } });
			await harness.run(httpRequestWorkflow(id, `${a.baseUrl}/v3/workorders/90000001`));
		} finally {
			await new Promise((resolve) => server.close(resolve));
		}
		expect(seen.map((s) => s.url)).toEqual(['/direct', '/redirected']);
		expect(seen.map((s) => s.authorization)).toEqual([undefined, undefined]);
		// while the API itself got the token from the same HTTP Request node
		expect(
			a.requests
				.filter((q) => q.path === '/api/v3/workorders/90000001')
				.map((q) => q.headers.authorization),
		).toEqual([`Bearer ${token}`]);
	});
});
