'use strict';
/**
 * Issue 5, test 6: leak audit. A distinctive client secret and passwords are added to the emulator;
 * every error path the node can reach is run (validation, each kind of 4xx refusal, 401 after a
 * re-login, 429 exhausted, 5xx, dropped connections, HTML/plain/empty bodies, token-endpoint
 * failures, bodies that echo the caller's token or secret). Every error message and description,
 * every output item, n8n's stored execution error and every captured log line is searched for
 * every secret: the client secret (also as its Basic header), the passwords, and every access and
 * refresh token the emulator issued (which includes the ones the credential holds at the end).
 */
const net = require('node:net');
const { NodeApiError, NodeOperationError } = require('n8n-workflow');
const support = require('../support');
const { WO, PROVIDER, TECH, PROPOSAL_OPEN, errorText } = require('./support');

const SECRET = {
	clientId: 'wos-leak-audit-client',
	clientSecret: 'CS-audit-3vQ8#client-secret-XK41',
	wrongClientSecret: 'CS-WRONG-audit-7pL2%secret-MM09',
	password: 'PW-audit-subscriber-Nh5!2290',
	viewerPassword: 'PW-audit-viewer-Jd7?6613',
	contractorPassword: 'PW-audit-contractor-Wb3&4478',
	wrongPassword: 'PW-WRONG-audit-Ee9*0051',
};
const USERS = {
	subscriber: { username: 'audit.subscriber', password: SECRET.password, from: 'subscriber' },
	viewer: { username: 'audit.viewer', password: SECRET.viewerPassword, from: 'viewer' },
	contractor: {
		username: 'audit.contractor',
		password: SECRET.contractorPassword,
		from: 'contractor',
	},
};

let emulator;
let harness;
let close;
let closedPort;

/** Everything that was shown or stored, labelled by where it came from. */
const haystack = [];
const paths = [];

beforeAll(async () => {
	const s = await support.setup();
	emulator = s.emulator;
	harness = s.harness;
	close = s.close;
	emulator.state.clients[SECRET.clientId] = {
		clientId: SECRET.clientId,
		clientSecret: SECRET.clientSecret,
		callbackUris: [],
	};
	for (const spec of Object.values(USERS)) {
		const original =
			emulator.state.users[emulator.fixtures.users[spec.from].username.toLowerCase()];
		emulator.state.users[spec.username] = {
			...original,
			permissions: [...original.permissions],
			username: spec.username,
			password: spec.password,
		};
	}
	// a port nothing listens on (for "unreachable")
	closedPort = await new Promise((resolve) => {
		const server = net.createServer();
		server.listen(0, '127.0.0.1', () => {
			const { port } = server.address();
			server.close(() => resolve(port));
		});
	});
});
afterAll(async () => {
	if (close) await close();
});
beforeEach(() => {
	emulator.resetFaults();
	emulator.onResponse = null;
	emulator.faults.badClientRedirect = false;
});

function passwordCredential(user = 'subscriber', extra = {}) {
	return {
		authServerUrl: emulator.authUrl,
		baseUrl: emulator.baseUrl,
		clientId: SECRET.clientId,
		clientSecret: SECRET.clientSecret,
		username: USERS[user].username,
		password: USERS[user].password,
		subsidiaryId: '',
		...extra,
	};
}

function contractorCredential(extra = {}) {
	return {
		authServerUrl: emulator.authUrl,
		baseUrl: emulator.baseUrl,
		clientId: SECRET.clientId,
		clientSecret: SECRET.clientSecret,
		username: USERS.contractor.username,
		password: USERS.contractor.password,
		...extra,
	};
}

/** The credential that logged in successfully once and keeps its tokens between runs. */
const MAIN = 'audit-main';
const VIEWER = 'audit-viewer';
const CONTRACTOR = 'audit-contractor';

/**
 * Runs one error path and adds everything it produced to the haystack.
 * spec: runNode spec + { name, credentialId, credentialData?, authentication? }
 * expectError(r): asserts the path really failed the way it should (so the audit is not vacuous).
 */
async function errorPath(name, spec, expectError) {
	const r = await support.runNode(harness, { timeoutMs: 20_000, ...spec });
	const errors = [];
	if (r.error) errors.push(r.error);
	for (const e of Object.values(r.result.nodeErrors ?? {})) if (e !== r.error) errors.push(e);
	for (const e of errors) {
		haystack.push({ path: name, where: 'error.message', text: String(e.message ?? '') });
		haystack.push({ path: name, where: 'error.description', text: String(e.description ?? '') });
		if (Array.isArray(e.messages))
			haystack.push({ path: name, where: 'error.messages', text: e.messages.join('\n') });
	}
	haystack.push({ path: name, where: 'output items', text: JSON.stringify(r.output) });
	if (r.result.executionError)
		haystack.push({
			path: name,
			where: 'stored execution error',
			text: JSON.stringify(r.result.executionError),
		});
	haystack.push({ path: name, where: 'run logs', text: r.result.logs.join('\n') });
	paths.push(name);
	expectError(r);
	return r;
}

function secretsNow() {
	const list = [
		['client secret', SECRET.clientSecret],
		[
			'client secret as Basic',
			Buffer.from(`${SECRET.clientId}:${SECRET.clientSecret}`).toString('base64'),
		],
		['wrong client secret', SECRET.wrongClientSecret],
		[
			'wrong client secret as Basic',
			Buffer.from(`${SECRET.clientId}:${SECRET.wrongClientSecret}`).toString('base64'),
		],
		['password', SECRET.password],
		['viewer password', SECRET.viewerPassword],
		['contractor password', SECRET.contractorPassword],
		['wrong password', SECRET.wrongPassword],
	];
	for (const id of [MAIN, VIEWER, CONTRACTOR]) {
		const data = harness.credentials.has(id) ? harness.credentials.get(id) : {};
		if (data.accessToken) list.push([`${id} current access token`, data.accessToken]);
		if (data.refreshToken) list.push([`${id} current refresh token`, data.refreshToken]);
	}
	emulator.state.tokens.forEach((t, n) => {
		list.push([`issued #${n} ${t.kind} access token of ${t.username}`, t.token]);
		if (t.refreshToken) list.push([`issued #${n} refresh token of ${t.username}`, t.refreshToken]);
	});
	return list;
}

/** [{ secret, path, where }] for every occurrence of a secret in the haystack. */
function hits(items = haystack) {
	const found = [];
	for (const [label, secret] of secretsNow()) {
		for (const h of items)
			if (h.text.includes(secret)) found.push({ secret: label, path: h.path, where: h.where });
	}
	return found;
}

const apiError = (status) => (r) => {
	expect(r.result.status).toBe('error');
	expect(r.error).toBeInstanceOf(NodeApiError);
	if (status !== undefined) expect(r.error.httpCode).toBe(String(status));
};
const loginError = (pattern) => (r) => {
	expect(r.result.status).toBe('error');
	expect(errorText(r.error)).toMatch(pattern);
};
const validationError = (r) => {
	expect(r.error).toBeInstanceOf(NodeOperationError);
};

const getWo = (id = WO, extra = {}) => ({
	resource: 'workOrder',
	operation: 'get',
	workOrderId: id,
	...extra,
});
const checklist = (extra = {}) => ({
	resource: 'checklistResponse',
	operation: 'submit',
	workOrderId: WO,
	questionId: 9103,
	questionType: 'textEntry',
	answer: 'audit answer',
	providerId: PROVIDER,
	technicianId: TECH,
	attempt: 1,
	...extra,
});

describe('leak audit: every error path, distinctive secrets, zero hits', () => {
	test('a successful login first, so that the credential holds real tokens to look for', async () => {
		const r = await support.runNode(harness, {
			credentialId: MAIN,
			credentialData: passwordCredential(),
			parameters: getWo(),
		});
		expect(r.error).toBeUndefined();
		const stored = harness.credentials.get(MAIN);
		expect(stored.accessToken).toMatch(/^at_/);
		expect(stored.refreshToken).toMatch(/^rt_/);
		haystack.push({
			path: 'successful run',
			where: 'output items',
			text: JSON.stringify(r.output),
		});
		haystack.push({ path: 'successful run', where: 'run logs', text: r.result.logs.join('\n') });
	});

	test('validation errors', async () => {
		await errorPath(
			'validation: bad work order id',
			{ credentialId: MAIN, parameters: getWo('={{ "1/../2" }}') },
			validationError,
		);
		await errorPath(
			'validation: bad e-mail',
			{
				credentialId: MAIN,
				parameters: {
					resource: 'proposal',
					operation: 'approve',
					proposalId: PROPOSAL_OPEN,
					additionalFields: { userEmail: 'x@y' },
				},
			},
			validationError,
		);
		await errorPath(
			'validation: 501-char answer',
			{ credentialId: MAIN, parameters: checklist({ answer: '={{ "x".repeat(501) }}' }) },
			validationError,
		);
		await errorPath(
			'validation: missing binary',
			{ credentialId: MAIN, parameters: checklist({ binaryPropertyName: 'photo' }) },
			validationError,
		);
		expect(hits()).toEqual([]);
	});

	test('4xx refusals of each kind: 400 (bad data, an approval limit, an invoiced work order, already approved), 404, and with Continue On Fail', async () => {
		await errorPath(
			'400 question not in checklist',
			{ credentialId: MAIN, parameters: checklist({ questionId: 9201 }) },
			apiError(400),
		);
		// (a work order ID beyond int32 is refused by the node now, before any request: the reference types it int32)
		await errorPath(
			'400 unknown attachment in a note (503)',
			{
				credentialId: MAIN,
				parameters: {
					resource: 'workOrderNote',
					operation: 'create',
					workOrderId: WO,
					note: 'audit',
					additionalFields: { attachmentIds: '999999' },
				},
			},
			apiError(400),
		);
		await errorPath(
			'400 over approval limit (100)',
			{
				credentialId: MAIN,
				parameters: {
					resource: 'proposal',
					operation: 'approve',
					proposalId: emulator.fixtures.proposals.overLimit,
				},
			},
			apiError(400),
		);
		await errorPath(
			'404 unknown work order',
			{ credentialId: MAIN, parameters: getWo(1) },
			apiError(404),
		);
		await errorPath(
			'400 invoiced work order (503)',
			{
				credentialId: MAIN,
				parameters: {
					resource: 'proposal',
					operation: 'approve',
					proposalId: emulator.fixtures.proposals.invoiced,
				},
			},
			apiError(400),
		);
		await errorPath(
			'400 already approved (503)',
			{
				credentialId: MAIN,
				parameters: {
					resource: 'proposal',
					operation: 'approve',
					proposalId: emulator.fixtures.proposals.approved,
				},
			},
			apiError(400),
		);
		await errorPath(
			'404 as an error item (Continue On Fail)',
			{ credentialId: MAIN, parameters: getWo(1), continueOnFail: true },
			(r) => {
				expect(r.output).toHaveLength(1);
				expect(r.output[0].json.httpCode).toBe('404');
			},
		);
		expect(hits()).toEqual([]);
	});

	test('401 after a re-login: viewer without the subsidiaries permission; a contractor moving a proposal (not a subscriber user: 400)', async () => {
		emulator.clearRequests();
		await errorPath(
			'401 viewer subsidiaries',
			{
				credentialId: VIEWER,
				credentialData: passwordCredential('viewer'),
				parameters: { resource: 'subsidiary', operation: 'getAll', returnAll: true },
			},
			(r) => {
				apiError(401)(r);
				expect(r.error.message).toMatch(/security permissions|subsidiaries\.read/);
			},
		);
		// it really re-logged in once (a second token request after the first 401), and did not loop
		const subsidiaryCalls = support
			.apiRequests(emulator)
			.filter((q) => q.path.endsWith('/subsidiaries'));
		expect(subsidiaryCalls).toHaveLength(2);
		expect(support.tokenRequests(emulator).length).toBeLessThanOrEqual(3);
		await errorPath(
			'400 contractor approve (401 not a subscriber user)',
			{
				credentialId: CONTRACTOR,
				authentication: 'contractor',
				credentialData: contractorCredential(),
				parameters: { resource: 'proposal', operation: 'approve', proposalId: PROPOSAL_OPEN },
			},
			(r) => {
				expect(r.result.status).toBe('error');
				expect(r.error).toBeInstanceOf(NodeApiError);
			},
		);
		expect(hits()).toEqual([]);
	});

	test('429 exhausted, 5xx on POST and GET, dropped connections', async () => {
		emulator.failNext({ method: 'GET', status: 429, count: 5, headers: { 'Retry-After': '0' } });
		await errorPath(
			'429 exhausted',
			{ credentialId: MAIN, parameters: getWo(WO, { requestOptions: { maxRetries: 1 } }) },
			apiError(429),
		);
		emulator.resetFaults();
		emulator.failNext({ method: 'GET', status: 429, headers: { 'Retry-After': '600' } });
		await errorPath(
			'429 beyond Max Wait',
			{ credentialId: MAIN, parameters: getWo() },
			apiError(429),
		);
		emulator.failNext({ method: 'POST', status: 500, afterProcessing: true });
		await errorPath('500 on POST', { credentialId: MAIN, parameters: checklist() }, apiError(500));
		emulator.failNext({ method: 'GET', status: 502, count: 5, headers: { 'Retry-After': '0' } });
		await errorPath(
			'502 on GET exhausted',
			{ credentialId: MAIN, parameters: getWo(WO, { requestOptions: { maxRetries: 1 } }) },
			apiError(502),
		);
		emulator.dropNext({ method: 'POST', afterProcessing: true });
		await errorPath('drop on POST', { credentialId: MAIN, parameters: checklist() }, apiError());
		emulator.dropNext({ method: 'GET', count: 5 });
		await errorPath(
			'drop on GET exhausted',
			{ credentialId: MAIN, parameters: getWo(WO, { requestOptions: { maxRetries: 1 } }) },
			apiError(),
		);
		emulator.dropNext({ method: 'POST', afterProcessing: true });
		await errorPath(
			'drop on POST, Continue On Fail',
			{ credentialId: MAIN, parameters: checklist(), continueOnFail: true },
			(r) => {
				expect(r.output[0].json.error).toBeDefined();
			},
		);
		expect(hits()).toEqual([]);
	});

	test("HTML, plain-text and empty error bodies; bodies that echo the caller's token, Authorization header or secret", async () => {
		const token = harness.credentials.get(MAIN).accessToken;
		const fail = (status, body, contentType, extra = {}) =>
			emulator.failNext({
				method: 'GET',
				path: `/api/v3/workorders/${WO}`,
				status,
				body,
				contentType,
				...extra,
			});
		const run = (name, check = apiError()) =>
			errorPath(
				name,
				{ credentialId: MAIN, parameters: getWo(WO, { requestOptions: { maxRetries: 0 } }) },
				check,
			);

		fail(
			500,
			'<!DOCTYPE html><html><head><title>Server Error</title></head><body><h1>Oops</h1></body></html>',
			'text/html',
		);
		await run('HTML body');
		fail(400, 'Bad request\nmore detail', 'text/plain');
		await run('plain-text body');
		fail(404, undefined, undefined);
		await run('empty body');
		// hostile / verbose service echoes what it received
		// a 401 makes n8n log in again once and resend: answer both the same way
		fail(401, { ErrorMessage: `Token ${token} is not valid for this resource` }, undefined, {
			count: 2,
		});
		await run('JSON body echoing the access token');
		fail(400, `Rejected request with header Authorization: Bearer ${token}`, 'text/plain');
		await run('text body echoing the Authorization header');
		fail(
			500,
			`<html><head><title>Error for Bearer ${token}</title></head><body>${token}</body></html>`,
			'text/html',
		);
		await run('HTML body echoing the token in its title');
		fail(403, {
			Reason: `client ${SECRET.clientId} with secret ${SECRET.clientSecret} and password ${SECRET.password} refused`,
		});
		await run('JSON Reason echoing client secret and password');
		// the service really sent the secrets back (so redaction, not luck, kept them out)
		const bodies = emulator.requests.map((q) => q.responseBody ?? '').join('\n');
		expect(bodies).toContain(token);
		expect(bodies).toContain(SECRET.clientSecret);
		expect(hits()).toEqual([]);
	});

	test('token endpoint failures: wrong secret, 302 redirect, wrong password, unreachable, throttled, HTML / echoing bodies', async () => {
		const fresh = (name, data, check, extra = {}) =>
			errorPath(
				name,
				{
					credentialId: `audit-login-${paths.length}`,
					credentialData: data,
					parameters: getWo(),
					...extra,
				},
				check,
			);
		// the main user's token is known in this process: a credential with the same settings and secrets
		// takes it instead of logging in; an identity of its own (another client ID: the injected answer
		// comes before the client is checked) makes these cases log in
		const ownIdentity = () =>
			passwordCredential('subscriber', { clientId: `${SECRET.clientId}-${paths.length}` });

		await fresh(
			'wrong client secret',
			passwordCredential('subscriber', { clientSecret: SECRET.wrongClientSecret }),
			loginError(/Client credentials rejected/i),
		);
		emulator.faults.badClientRedirect = true;
		await fresh(
			'302 redirect to a login page',
			passwordCredential('subscriber', { clientSecret: SECRET.wrongClientSecret }),
			loginError(/redirect/i),
		);
		emulator.faults.badClientRedirect = false;
		await fresh(
			'wrong password',
			passwordCredential('subscriber', { password: SECRET.wrongPassword }),
			loginError(/Username or password rejected/i),
		);
		await fresh(
			'unreachable authorization server',
			passwordCredential('subscriber', { authServerUrl: `http://127.0.0.1:${closedPort}/auth` }),
			loginError(/Could not reach/i),
		);
		emulator.failNext({
			path: '/auth/oauth/token',
			status: 429,
			count: 10,
			headers: { 'Retry-After': '0' },
			body: { error: 'too_many_requests' },
		});
		await fresh('token endpoint throttled', ownIdentity(), loginError(/throttled/i));
		emulator.resetFaults();
		emulator.failNext({
			path: '/auth/oauth/token',
			status: 500,
			body: '<html><head><title>Login service down</title></head><body>stack...</body></html>',
			contentType: 'text/html',
		});
		await fresh('token endpoint 500 HTML', ownIdentity(), loginError(/HTTP 500/));
		emulator.failNext({
			path: '/auth/oauth/token',
			status: 200,
			body: '<html><body>Sign in</body></html>',
			contentType: 'text/html',
		});
		await fresh('token endpoint 200 HTML', ownIdentity(), loginError(/HTML page/i));
		emulator.failNext({
			path: '/auth/oauth/token',
			status: 401,
			body: {
				error: 'invalid_client',
				error_description: `client_secret ${SECRET.clientSecret} does not match; password ${SECRET.password}`,
			},
		});
		await fresh(
			'token endpoint echoing secret and password',
			ownIdentity(),
			loginError(/Client credentials rejected/i),
		);
		emulator.failNext({
			path: '/auth/oauth/token',
			status: 400,
			body: { error: 'invalid_grant', error_description: `bad password ${SECRET.wrongPassword}` },
		});
		await fresh(
			'token endpoint echoing the wrong password',
			passwordCredential('subscriber', { password: SECRET.wrongPassword }),
			loginError(/Username or password rejected/i),
		);
		await fresh(
			'contractor wrong password',
			contractorCredential({ password: SECRET.wrongPassword }),
			loginError(/password/i),
			{ authentication: 'contractor' },
		);
		await fresh(
			'unreachable API base URL',
			passwordCredential('subscriber', { baseUrl: `http://127.0.0.1:${closedPort}/api` }),
			(r) => {
				expect(r.result.status).toBe('error');
			},
			{ parameters: getWo(WO, { requestOptions: { maxRetries: 0 } }) },
		);
		await fresh(
			'wrong secret with Continue On Fail',
			passwordCredential('subscriber', { clientSecret: SECRET.wrongClientSecret }),
			(r) => {
				expect(r.output).toHaveLength(1);
				expect(r.output[0].json.error).toMatch(/Client credentials rejected/i);
			},
			{ continueOnFail: true },
		);
		expect(hits()).toEqual([]);
	});

	test('the search finds a planted secret (the audit can fail)', () => {
		const planted = [
			{ path: 'planted', where: 'test', text: `xx${SECRET.clientSecret}xx` },
			{
				path: 'planted',
				where: 'test',
				text: `Bearer ${harness.credentials.get(MAIN).accessToken}`,
			},
		];
		expect(hits(planted).map((h) => h.secret)).toEqual([
			'client secret',
			`${MAIN} current access token`,
			expect.stringMatching(/^issued #\d+ oauth access token/),
		]);
	});

	test('summary: zero occurrences of every secret in every message, description, output item, stored error and log line', () => {
		// the whole harness log, not only the per-run slices
		haystack.push({ path: 'all runs', where: 'harness.logs', text: harness.logs.join('\n') });
		const secrets = secretsNow();
		const found = hits();
		const perSecret = Object.fromEntries(
			secrets.map(([label, secret]) => [
				label,
				haystack.filter((h) => h.text.includes(secret)).length,
			]),
		);
		const fixed = [
			'client secret',
			'client secret as Basic',
			'wrong client secret',
			'wrong client secret as Basic',
			'password',
			'viewer password',
			'contractor password',
			'wrong password',
		];
		console.log(
			`[reliability] leak audit: ${paths.length} error paths, ${haystack.length} texts (${haystack.reduce((n, h) => n + h.text.length, 0)} chars), ` +
				`${secrets.length} secrets (${secrets.length - fixed.length} tokens), hits: ${found.length}\n` +
				fixed.map((k) => `  ${k}: ${perSecret[k]}`).join('\n') +
				`\n  current tokens: ${secrets
					.filter(([l]) => l.includes('current'))
					.map(([l]) => `${l}=${perSecret[l]}`)
					.join(', ')}` +
				`\n  all issued tokens: ${secrets.filter(([l]) => l.startsWith('issued')).reduce((n, [l]) => n + perSecret[l], 0)}`,
		);
		expect(paths.length).toBeGreaterThanOrEqual(30);
		expect(found).toEqual([]);
	});
});
