'use strict';
/**
 * The three credential types as n8n loads them from dist/ (through the harness's
 * PackageDirectoryLoader): public names, password fields, the `authenticate` that makes n8n apply
 * `Authorization: Bearer <token>`, and a `test` request against {base_url}/v3 that, run the way n8n's
 * credential tester runs it (preAuthentication forced for the temporary noOp node, then
 * authenticate, then the request), logs in for real and is answered 200 by the emulator.
 */
const { Container } = require('@n8n/di');
const { OutboundHttp } = require('@n8n/backend-network');
const { ClientOAuth2 } = require('@n8n/client-oauth2');
const { Workflow } = require('n8n-workflow');
const H = require('./helpers');

let emulator;
let harness;

H.useSuite((suite) => ({ emulator, harness } = suite));

const TYPES = {
	workOrderServiceApi: 'Work Order Service Password Grant API',
	workOrderServiceOAuth2Api: 'Work Order Service Authorization Code OAuth2 API',
	workOrderServiceContractorApi: 'Work Order Service Contractor JWT API',
};

/** n8n's httpRequest helper (what n8n-core's request helpers call). */
const helpers = {
	helpers: { httpRequest: (options) => Container.get(OutboundHttp).requests().request(options) },
};

/** A throwaway workflow + node to resolve expressions with, like n8n's credential tester. */
async function withExpressionContext(fn, credentialType, credentialId) {
	const node = {
		id: 'temp-node',
		name: 'Temp-Node',
		type: 'n8n-nodes-base.noOp',
		typeVersion: 1,
		position: [0, 0],
		parameters: { temp: '' },
		credentials: credentialType
			? { [credentialType]: { id: credentialId, name: 'under test' } }
			: undefined,
	};
	// The workflow only hosts the expression engine (its node must be a known type); the noOp node
	// object is what n8n's tester hands to preAuthentication (isTestingCredentials).
	const host = { ...node, type: 'n8n-nodes-base.manualTrigger', credentials: undefined };
	const workflow = new Workflow({
		nodes: [host],
		connections: {},
		active: false,
		nodeTypes: harness.nodeTypes,
	});
	await workflow.expression.acquireIsolate?.();
	try {
		return await fn(workflow, node);
	} finally {
		await workflow.expression.releaseIsolate?.();
	}
}

function resolve(value, credentials, workflow, node) {
	return harness.credentialsHelper.resolveValue(
		value,
		{ $credentials: credentials },
		workflow,
		node,
	);
}

/**
 * Runs a credential type's `test` the way n8n's CredentialsTester does for a type with
 * preAuthentication: defaults applied, login forced (temporary noOp node with `temp: ''`), the
 * type's authenticate applied, the test request sent. Returns the response (full).
 */
async function runCredentialTest(type, credentialId, data) {
	harness.credentials.set(credentialId, { name: 'under test', type, data });
	const credentialType = harness.credentialTypes.getByName(type);
	const decrypted = await harness.credentialsHelper.applyDefaultsAndOverwrites(
		{ executionId: 'cred-test', variables: {} },
		data,
		type,
		'internal',
	);
	return await withExpressionContext(
		async (workflow, node) => {
			const pre = await harness.credentialsHelper.preAuthentication(
				helpers,
				decrypted,
				type,
				node,
				false,
			);
			if (pre) Object.assign(decrypted, pre);
			const request = credentialType.test.request;
			let options = {
				method: request.method ?? 'GET',
				url: `${resolve(request.baseURL, decrypted, workflow, node)}${request.url}`,
				qs: request.qs,
				headers: { ...(request.headers ?? {}) },
				returnFullResponse: true,
				ignoreHttpStatusErrors: true,
				json: true,
			};
			options = await harness.credentialsHelper.authenticate(
				decrypted,
				type,
				options,
				workflow,
				node,
			);
			return await helpers.helpers.httpRequest(options);
		},
		type,
		credentialId,
	);
}

describe('types as n8n loads them', () => {
	test.each(Object.entries(TYPES))(
		'%s: display name "%s", Authorization Server URL and API Base URL fields',
		(name, displayName) => {
			const type = harness.credentialTypes.getByName(name);
			expect(type.name).toBe(name);
			expect(type.displayName).toBe(displayName);
			const props = harness.credentialsHelper.getCredentialsProperties(name);
			const names = props.map((p) => p.name);
			for (const field of ['authServerUrl', 'baseUrl', 'clientId', 'clientSecret'])
				expect(names).toContain(field);
		},
	);

	test("the OAuth2 type extends n8n's oAuth2Api with the authorization code grant and the Basic header", () => {
		const type = harness.credentialTypes.getByName('workOrderServiceOAuth2Api');
		expect(type.extends).toEqual(['oAuth2Api']);
		const byName = Object.fromEntries(
			harness.credentialsHelper
				.getCredentialsProperties('workOrderServiceOAuth2Api')
				.map((p) => [p.name, p]),
		);
		expect(byName.grantType).toMatchObject({ type: 'hidden', default: 'authorizationCode' });
		expect(byName.authentication).toMatchObject({ type: 'hidden', default: 'header' });
		expect(byName.authUrl.type).toBe('hidden');
		expect(byName.accessTokenUrl.type).toBe('hidden');
	});

	test.each([
		['workOrderServiceApi', ['clientSecret', 'password', 'accessToken', 'refreshToken']],
		['workOrderServiceContractorApi', ['clientSecret', 'password', 'accessToken', 'refreshToken']],
		['workOrderServiceOAuth2Api', ['clientSecret']],
	])('%s: secret fields are password fields', (name, secretFields) => {
		const byName = Object.fromEntries(
			harness.credentialsHelper.getCredentialsProperties(name).map((p) => [p.name, p]),
		);
		for (const field of secretFields)
			expect([field, byName[field]?.typeOptions?.password]).toEqual([field, true]);
	});

	test.each(['workOrderServiceApi', 'workOrderServiceContractorApi'])(
		'%s: login in preAuthentication with a hidden expirable accessToken',
		(name) => {
			const type = harness.credentialTypes.getByName(name);
			expect(typeof type.preAuthentication).toBe('function');
			const expirable = type.properties.filter(
				(p) => p.type === 'hidden' && p.typeOptions?.expirable === true,
			);
			expect(expirable.map((p) => p.name)).toEqual(['accessToken']);
			const hidden = type.properties.filter((p) => p.type === 'hidden').map((p) => p.name);
			expect(hidden).toEqual(
				expect.arrayContaining([
					'accessToken',
					'refreshToken',
					'accessTokenExpiresAt',
					'refreshTokenExpiresAt',
					'tokenIdentity',
					'tokenScope',
				]),
			);
		},
	);

	test('the password-grant type has the optional Child Subscriber ID', () => {
		const field = harness.credentialTypes
			.getByName('workOrderServiceApi')
			.properties.find((p) => p.name === 'subsidiaryId');
		expect(field).toBeDefined();
		expect(field.required).not.toBe(true);
		expect(field.default).toBe('');
	});
});

describe('authenticate: n8n applies Authorization: Bearer <token>, only to the API origin and only for the current settings', () => {
	const KIND = { workOrderServiceApi: 'password', workOrderServiceContractorApi: 'contractor' };
	/** The credential as stored after a login with its current settings (tokenIdentity as the login writes it). */
	function loggedIn(name, extra = {}) {
		const data =
			name === 'workOrderServiceApi'
				? H.passwordCredential(emulator)
				: H.contractorCredential(emulator);
		const { loginConfig } = require('../../dist/nodes/WorkOrderService/auth/tokens');
		return {
			...data,
			accessToken: 'tok.e2e-1234',
			tokenIdentity: loginConfig(KIND[name], data).identity,
			...extra,
		};
	}
	async function sign(name, credentials, request) {
		return await withExpressionContext((workflow, node) =>
			harness.credentialsHelper.authenticate(
				credentials,
				name,
				{ headers: { Accept: 'application/json' }, ...request },
				workflow,
				node,
			),
		);
	}

	test.each(Object.keys(KIND))(
		'%s: Bearer for a request to the API Base URL; never credentials across origins on a redirect',
		async (name) => {
			expect(typeof harness.credentialTypes.getByName(name).authenticate).toBe('function');
			const signed = await sign(name, loggedIn(name), { url: `${emulator.baseUrl}/v3/workorders` });
			expect(signed.headers).toEqual({
				Accept: 'application/json',
				Authorization: 'Bearer tok.e2e-1234',
			});
			expect(signed.sendCredentialsOnCrossOriginRedirect).toBe(false);
			expect(JSON.stringify(signed)).not.toContain(H.LEAK.clientSecret);
			// the credential test's form: baseURL + relative url
			const viaBase = await sign(name, loggedIn(name), {
				baseURL: emulator.baseUrl,
				url: '/v3/odata/workorders',
			});
			expect(viaBase.headers.Authorization).toBe('Bearer tok.e2e-1234');
		},
	);

	test.each(Object.keys(KIND))(
		'%s: no token for another origin (another port, another scheme, another host)',
		async (name) => {
			const port = Number(new URL(emulator.baseUrl).port);
			for (const url of [
				`http://127.0.0.1:${port + 1}/api/v3/workorders`,
				`https://127.0.0.1:${port}/api/v3/workorders`,
				`http://localhost:${port}/api/v3/workorders`,
			]) {
				const signed = await sign(name, loggedIn(name), { url });
				expect([url, signed.headers.Authorization]).toEqual([url, undefined]);
			}
		},
	);

	test.each(Object.keys(KIND))(
		'%s: no token issued for other settings (edited API Base URL, server, client or user)',
		async (name) => {
			const stale = loggedIn(name);
			for (const edit of [
				{ username: 'someone.else' },
				{ clientId: 'other-client' },
				{ authServerUrl: 'http://127.0.0.1:1/auth' },
			]) {
				const signed = await sign(
					name,
					{ ...stale, ...edit },
					{ url: `${emulator.baseUrl}/v3/workorders` },
				);
				expect([edit, signed.headers.Authorization]).toEqual([edit, undefined]);
			}
			const moved = await sign(
				name,
				{ ...stale, baseUrl: 'http://127.0.0.1:1/api' },
				{ url: 'http://127.0.0.1:1/api/v3/workorders' },
			);
			expect(moved.headers.Authorization).toBeUndefined();
		},
	);

	test("workOrderServiceOAuth2Api: no own authenticate (n8n's requestOAuth2 signs it) and the signed request carries Bearer <access_token>", () => {
		const type = harness.credentialTypes.getByName('workOrderServiceOAuth2Api');
		expect(type.authenticate).toBeUndefined();
		// what requestOAuth2 does with the stored oauthTokenData
		const client = new ClientOAuth2({
			clientId: 'x',
			clientSecret: 'y',
			accessTokenUri: `${emulator.authUrl}/oauth/token`,
			authentication: 'header',
		});
		const token = client.createToken({
			access_token: 'at_signed',
			token_type: 'bearer',
			refresh_token: 'rt_x',
			expires_in: 600,
		});
		expect(
			token.sign({ url: `${emulator.baseUrl}/v3/workorders`, headers: {} }).headers.Authorization,
		).toBe('Bearer at_signed');
	});
});

describe('test requests', () => {
	test.each(Object.keys(TYPES))(
		"%s: GET {baseUrl}/v3/... resolved from the credential, whatever the base URL's trailing slash or /v3",
		async (name) => {
			const { request } = harness.credentialTypes.getByName(name).test;
			expect(request.url).toMatch(/^\/v3\//);
			expect(request.method ?? 'GET').toBe('GET');
			for (const entered of [
				emulator.baseUrl,
				`${emulator.baseUrl}/`,
				`${emulator.baseUrl}/v3`,
				`${emulator.baseUrl}/v3/`,
			]) {
				const url = await withExpressionContext(
					(workflow, node) =>
						`${resolve(request.baseURL, { baseUrl: entered }, workflow, node)}${request.url}`,
				);
				expect(url).toBe(`${emulator.baseUrl}/v3/odata/workorders`);
			}
		},
	);

	test('workOrderServiceApi: the credential test logs in for real (even with a stored token) and the test request is answered 200', async () => {
		const stale = {
			...H.passwordCredential(emulator),
			accessToken: 'at_stale-token-from-last-week',
			refreshToken: '',
		};
		const response = await runCredentialTest('workOrderServiceApi', 'ctest-password', stale);
		expect(response.statusCode).toBe(200);
		const tokens = H.tokenRequests(emulator);
		expect(tokens.map(H.grantOf)).toEqual(['password']);
		expect(tokens[0].headers.authorization).toBe(H.basic());
		const api = H.apiRequests(emulator);
		expect(api.map((r) => [r.method, r.path, r.query.$top, r.status])).toEqual([
			['GET', '/api/v3/odata/workorders', '1', 200],
		]);
		expect(api[0].headers.authorization).toBe(`Bearer ${H.responseJson(tokens[0]).access_token}`);
	});

	test('workOrderServiceApi with a Child Subscriber ID: the test runs the subsidiary exchange too', async () => {
		const response = await runCredentialTest(
			'workOrderServiceApi',
			'ctest-child',
			H.passwordCredential(emulator, 'universal', { subsidiaryId: '2001' }),
		);
		expect(response.statusCode).toBe(200);
		expect(H.tokenRequests(emulator).map(H.grantOf)).toEqual(['password', 'subsidiary']);
		expect(response.body.value.every((wo) => wo.Subscriber.Id === 2001)).toBe(true);
	});

	test('workOrderServiceContractorApi: the credential test logs in at /jwt/token and the test request is answered 200', async () => {
		const response = await runCredentialTest(
			'workOrderServiceContractorApi',
			'ctest-contractor',
			H.contractorCredential(emulator),
		);
		expect(response.statusCode).toBe(200);
		const tokens = H.tokenRequests(emulator);
		expect(tokens.map((t) => t.path)).toEqual(['/auth/jwt/token']);
		expect(H.apiRequests(emulator)[0].headers.authorization).toBe(
			`Bearer ${H.responseJson(tokens[0]).access_token}`,
		);
	});

	test('a credential test with a wrong password fails with the explanation, without the password', async () => {
		const data = H.passwordCredential(emulator, 'subscriber', { password: H.LEAK.wrongPassword });
		const error = await runCredentialTest('workOrderServiceApi', 'ctest-wrong', data).then(
			() => undefined,
			(e) => e,
		);
		expect(error).toBeInstanceOf(Error);
		expect(error.message).toMatch(/username or password rejected/i);
		expect(error.message).not.toContain(H.LEAK.wrongPassword);
		expect(H.apiRequests(emulator)).toHaveLength(0);
	});

	/** The outcome of a credential Test as n8n's tester reports it: 'OK' or the error's message. */
	async function testResult(type, id, data) {
		return await runCredentialTest(type, id, data).then(
			(response) => (response.statusCode === 200 ? 'OK' : `HTTP ${response.statusCode}`),
			(error) => error.message,
		);
	}

	describe.each([
		['workOrderServiceApi', () => H.passwordCredential(emulator), 'password', 'refresh_token'],
		[
			'workOrderServiceContractorApi',
			() => H.contractorCredential(emulator),
			'jwt-password',
			'jwt-refresh',
		],
	])(
		'%s: the Test proves what is stored now, also right after a good Test',
		(type, credential, loginGrant, refreshGrant) => {
			/** A good Test, and the credential as n8n stored it after that Test (with its token). */
			async function goodTest(id) {
				expect(await testResult(type, id, credential())).toBe('OK');
				const stored = harness.credentials.get(id);
				expect(stored.accessToken).toBeTruthy();
				emulator.clearRequests();
				return stored;
			}

			test('the same Test again: a fresh login with the password, never the stored or cached token, never the refresh token', async () => {
				const stored = await goodTest(`ctest-again-${type}`);
				expect(await testResult(type, `ctest-again-${type}`, stored)).toBe('OK');
				const tokens = H.tokenRequests(emulator);
				expect(tokens.map(H.grantOf)).toEqual([loginGrant]);
				expect(tokens.map(H.grantOf)).not.toContain(refreshGrant);
				const api = H.apiRequests(emulator);
				expect(api.map(H.bearerOf)).toEqual([H.responseJson(tokens[0]).access_token]);
				expect(api[0].headers['x-work-order-service-credential-test']).toBeUndefined();
			});

			test('then a wrong password: the Test fails naming the username/password, no API call with the old token', async () => {
				const stored = await goodTest(`ctest-pw-${type}`);
				const message = await testResult(type, `ctest-pw-${type}`, {
					...stored,
					password: H.LEAK.wrongPassword,
				});
				expect(message).toMatch(/Username or password rejected/);
				expect(message).not.toContain(H.LEAK.wrongPassword);
				expect(H.tokenRequests(emulator).map((t) => [H.grantOf(t), t.status])).toEqual([
					[loginGrant, 400],
				]);
				expect(H.apiRequests(emulator)).toHaveLength(0);
			});

			test('then a wrong client secret: the Test fails naming the client credentials', async () => {
				const stored = await goodTest(`ctest-cs-${type}`);
				const message = await testResult(type, `ctest-cs-${type}`, {
					...stored,
					clientSecret: H.LEAK.wrongClientSecret,
				});
				expect(message).toMatch(/Client credentials rejected|Client ID, the Client Secret/);
				expect(message).not.toContain(H.LEAK.wrongClientSecret);
				expect(H.tokenRequests(emulator)).toHaveLength(1);
				expect(H.apiRequests(emulator)).toHaveLength(0);
			});

			test('then a user that does not exist: the Test fails naming the username/password', async () => {
				const stored = await goodTest(`ctest-user-${type}`);
				const message = await testResult(type, `ctest-user-${type}`, {
					...stored,
					username: 'nobody.here',
				});
				expect(message).toMatch(/Username or password rejected/);
				expect(H.apiRequests(emulator)).toHaveLength(0);
			});

			test('then the password changed on the service only: the next Test fails, although the stored token still works', async () => {
				const stored = await goodTest(`ctest-rotated-${type}`);
				const user = emulator.state.users[stored.username.toLowerCase()];
				const before = user.password;
				user.password = 'rotated-on-the-service-1234';
				try {
					expect(await testResult(type, `ctest-rotated-${type}`, stored)).toMatch(
						/Username or password rejected/,
					);
					expect(H.tokenRequests(emulator).map(H.grantOf)).toEqual([loginGrant]);
				} finally {
					user.password = before;
				}
			});
		},
	);

	test('workOrderServiceOAuth2Api: the test request with a connected token is answered 200', async () => {
		// a token for the code-flow credential (issued here by the password grant, only to have one)
		const tokenResponse = await fetch(`${emulator.authUrl}/oauth/token`, {
			method: 'POST',
			headers: { authorization: H.basic(), 'content-type': 'application/x-www-form-urlencoded' },
			body: new URLSearchParams({
				grant_type: 'password',
				username: H.LEAK.users.subscriber.username,
				password: H.LEAK.users.subscriber.password,
			}).toString(),
		}).then((r) => r.json());
		const { request } = harness.credentialTypes.getByName('workOrderServiceOAuth2Api').test;
		const client = new ClientOAuth2({
			clientId: H.LEAK.clientId,
			clientSecret: H.LEAK.clientSecret,
			accessTokenUri: `${emulator.authUrl}/oauth/token`,
			authentication: 'header',
		});
		const url = await withExpressionContext(
			(workflow, node) =>
				`${resolve(request.baseURL, { baseUrl: emulator.baseUrl }, workflow, node)}${request.url}`,
		);
		const signed = client.createToken(tokenResponse).sign({
			url,
			qs: request.qs,
			method: 'GET',
			headers: {},
			returnFullResponse: true,
			ignoreHttpStatusErrors: true,
			json: true,
		});
		const response = await helpers.helpers.httpRequest(signed);
		expect(response.statusCode).toBe(200);
	});
});

test('leak check: the harness log of the credential tests holds no secret', () => {
	const secrets = H.allSecrets(emulator);
	expect(H.findLeaks({ 'harness.logs': harness.logs.join('\n') }, secrets)).toEqual([]);
});
