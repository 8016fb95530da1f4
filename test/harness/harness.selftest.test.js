// @ts-check
'use strict';

/**
 * Self-test of the workflow test harness against a throwaway fixture package
 * built under the OS temp dir (source: ./fixture) and a token-issuing HTTP
 * server on 127.0.0.1 (./fixture/server.js).
 *
 * Besides proving the harness, the "transport facts" block pins down how
 * n8n-core 2.41's request helpers behave, since the real node's transport is
 * designed around them.
 */

const { afterAll, beforeAll, describe, expect, test } = require('@jest/globals');
const { NodeApiError, NodeOperationError } = require('n8n-workflow');

const { createHarness } = require('./index');
const { buildFixturePackage, removeFixturePackage } = require('./fixture/build');
const { createFixtureServer } = require('./fixture/server');

const TOKEN_CRED = { id: 'cred-token', name: 'Fixture token account' };
const OAUTH_CRED = { id: 'cred-oauth', name: 'Fixture OAuth account' };
const PASSWORD = 's3cret-pw';

/** @type {string} */ let fixtureDir;
/** @type {ReturnType<typeof createFixtureServer>} */ let server;
/** @type {string} */ let baseUrl;
/** @type {import('./index').Harness} */ let harness;

/** @param {string} name @param {string} type @param {Record<string, unknown>} parameters @param {[number, number]} position */
const node = (name, type, parameters, position, extra = {}) => ({
	id: name.toLowerCase().replace(/\W+/g, '-'),
	name,
	type,
	typeVersion: 1,
	position,
	parameters,
	...extra,
});

/**
 * Manual Trigger -> Items -> Fixture, as n8n would save it.
 * @param {unknown[]} items
 * @param {Record<string, unknown>} fixtureParameters
 * @param {Record<string, unknown>} [fixtureExtra] e.g. { onError: 'continueRegularOutput' }
 */
function workflow(items, fixtureParameters, fixtureExtra = {}) {
	return {
		name: 'harness self-test',
		nodes: [
			node('When clicking ‘Execute workflow’', 'n8n-nodes-base.manualTrigger', {}, [0, 0]),
			node('Items', 'harness.items', { items: JSON.stringify(items) }, [220, 0]),
			node('Fixture', harness.nodeType('harnessFixture'), fixtureParameters, [440, 0], {
				credentials: { fixtureTokenApi: TOKEN_CRED, fixtureOAuth2Api: OAUTH_CRED },
				...fixtureExtra,
			}),
		],
		connections: {
			'When clicking ‘Execute workflow’': { main: [[{ node: 'Items', type: 'main', index: 0 }]] },
			Items: { main: [[{ node: 'Fixture', type: 'main', index: 0 }]] },
		},
		settings: { executionOrder: 'v1' },
		pinData: {},
	};
}

/**
 * Run the fixture's "probe" operation and return its single output json.
 * @param {Record<string, unknown>} probe
 * @param {Record<string, { id: string, name: string }>} [nodeCredentials] override the node's credentials
 */
async function probe(probe, nodeCredentials) {
	const wf = workflow([{ json: {} }], { operation: 'probe', probe: JSON.stringify(probe) });
	if (nodeCredentials) Object.assign(/** @type {any} */ (wf.nodes[2]).credentials, nodeCredentials);
	const result = await harness.run(wf);
	expect(result.status).toBe('success');
	return /** @type {any} */ (result.outputs.Fixture[0].json);
}

beforeAll(async () => {
	fixtureDir = buildFixturePackage();
	server = createFixtureServer({ password: PASSWORD });
	baseUrl = await server.listen();
	harness = await createHarness({ packageDir: fixtureDir });
	harness.credentials.set(TOKEN_CRED.id, {
		name: TOKEN_CRED.name,
		type: 'fixtureTokenApi',
		data: { baseUrl, username: 'alice', password: PASSWORD },
	});
	server.addRefreshToken('refresh-1');
	harness.credentials.set(OAUTH_CRED.id, {
		name: OAUTH_CRED.name,
		type: 'fixtureOAuth2Api',
		data: {
			baseUrl,
			accessTokenUrl: `${baseUrl}/oauth/token`,
			clientId: 'cid',
			clientSecret: 'csecret',
			oauthTokenData: {
				access_token: 'expired-at-start',
				refresh_token: 'refresh-1',
				token_type: 'Bearer',
			},
		},
	});
});

afterAll(async () => {
	harness?.close();
	await server?.close();
	removeFixturePackage(fixtureDir);
});

describe('loading', () => {
	test('package nodes are named <package>.<node>; helper types are registered', () => {
		expect(harness.packageName).toBe('n8n-nodes-harness-fixture');
		expect(Object.keys(harness.nodeTypes.getKnownTypes()).sort()).toEqual([
			'harness.items',
			'n8n-nodes-base.convertToFile',
			'n8n-nodes-base.httpRequest',
			'n8n-nodes-base.if',
			'n8n-nodes-base.manualTrigger',
			'n8n-nodes-base.merge',
			'n8n-nodes-base.scheduleTrigger',
			'n8n-nodes-base.set',
			'n8n-nodes-base.webhook',
			'n8n-nodes-harness-fixture.harnessFixture',
			'n8n-nodes-harness-fixture.harnessFixtureWebhook',
		]);
		expect(harness.credentialTypes.recognizes('fixtureTokenApi')).toBe(true);
		expect(harness.credentialsHelper.getParentTypes('fixtureOAuth2Api')).toEqual(['oAuth2Api']);
	});
});

describe('(1) preAuthentication token is fetched once and persisted', () => {
	test('two items -> one token request; second run on the same harness -> none', async () => {
		const items = [{ json: { id: 'a' } }, { json: { id: 'b' } }];
		const first = await harness.run(workflow(items, { operation: 'get' }));
		expect(first.status).toBe('success');
		expect(first.error).toBeUndefined();
		expect(first.outputs.Fixture.map((i) => i.json)).toEqual([
			{ id: 'a', ok: true },
			{ id: 'b', ok: true },
		]);
		expect(first.outputs.Fixture.map((i) => i.pairedItem)).toEqual([{ item: 0 }, { item: 1 }]);
		expect(first.executionOrder).toEqual(['When clicking ‘Execute workflow’', 'Items', 'Fixture']);
		expect(first.lastNodeOutput).toBe(first.outputs.Fixture);
		expect(server.state.loginCount).toBe(1);

		const stored = harness.credentials.get(TOKEN_CRED.id);
		expect(stored?.accessToken).toBe(server.state.issuedTokens[0]);
		expect(harness.credentials.updates.map((u) => [u.id, u.via])).toEqual([
			[TOKEN_CRED.id, 'updateCredentials'],
		]);

		const second = await harness.run(workflow(items, { operation: 'get' }));
		expect(second.status).toBe('success');
		expect(server.state.loginCount).toBe(1);
		expect(harness.credentials.updates).toHaveLength(1);
	});
});

describe('(2) revoked token -> exactly one re-login and a successful retry', () => {
	test('401 with credentialsExpired=true re-runs preAuthentication once', async () => {
		const loginsBefore = server.state.loginCount;
		const thingsBefore = server.count('/things/');
		server.revokeAll();
		const result = await harness.run(workflow([{ json: { id: 'c' } }], { operation: 'get' }));
		expect(result.status).toBe('success');
		expect(result.outputs.Fixture[0].json).toEqual({ id: 'c', ok: true });
		expect(server.state.loginCount).toBe(loginsBefore + 1);
		expect(server.count('/things/') - thingsBefore).toBe(2); // the 401 and the retry
		expect(harness.credentials.get(TOKEN_CRED.id)?.accessToken).toBe(
			server.state.issuedTokens.at(-1),
		);
	});
});

describe('(3) NodeOperationError and continueOnFail', () => {
	const items = [{ json: { id: 'x' } }, { json: { fail: true } }, { json: { id: 'z' } }];

	test("onError: 'continueRegularOutput' -> an error item, the other items continue", async () => {
		const result = await harness.run(
			workflow(items, { operation: 'get' }, { onError: 'continueRegularOutput' }),
		);
		expect(result.status).toBe('success');
		expect(result.outputs.Fixture.map((i) => i.json)).toEqual([
			{ id: 'x', ok: true },
			{ error: 'Item 1 asked to fail' },
			{ id: 'z', ok: true },
		]);
		expect(result.outputs.Fixture.map((i) => i.pairedItem)).toEqual([
			{ item: 0 },
			{ item: 1 },
			{ item: 2 },
		]);
	});

	test('without it the run fails with that NodeOperationError (same class instance)', async () => {
		const result = await harness.run(workflow(items, { operation: 'get' }));
		expect(result.status).toBe('error');
		expect(result.error).toBeInstanceOf(NodeOperationError);
		const error = /** @type {NodeOperationError} */ (result.error);
		expect(error.message).toBe('Item 1 asked to fail');
		expect(error.description).toBe('fixture failure');
		expect(error.context.itemIndex).toBe(1);
		expect(error.node.name).toBe('Fixture');
		expect(result.nodeErrors.Fixture).toBe(error);
		// what WorkflowExecute itself stores is a plain copy:
		expect(result.executionError).not.toBeInstanceOf(NodeOperationError);
		expect(result.executionError?.message).toBe('Item 1 asked to fail');
		expect(result.runData.Fixture[0].error?.message).toBe('Item 1 asked to fail');
		expect(result.outputs.Fixture).toEqual([]);
	});
});

describe('(4) credential extending oAuth2Api refreshes through requestOAuth2', () => {
	test('401 -> refresh_token grant -> retry; token persisted via updateCredentialsOauthTokenData', async () => {
		const updatesBefore = harness.credentials.updates.length;
		const result = await harness.run(
			workflow([{ json: { id: 'o1' } }, { json: { id: 'o2' } }], { operation: 'getOAuth' }),
		);
		expect(result.status).toBe('success');
		expect(result.outputs.Fixture.map((i) => i.json)).toEqual([
			{ id: 'o1', via: 'oauth' },
			{ id: 'o2', via: 'oauth' },
		]);
		expect(server.state.refreshCount).toBe(1);
		const refresh = server.requests.find((r) => r.path === '/oauth/token');
		expect(refresh?.headers.authorization).toBe(
			`Basic ${Buffer.from('cid:csecret').toString('base64')}`,
		);
		expect(new URLSearchParams(refresh?.body.toString()).get('grant_type')).toBe('refresh_token');

		const newUpdates = harness.credentials.updates.slice(updatesBefore);
		expect(newUpdates.map((u) => [u.id, u.via])).toEqual([
			[OAUTH_CRED.id, 'updateCredentialsOauthTokenData'],
		]);
		const stored = /** @type {any} */ (harness.credentials.get(OAUTH_CRED.id));
		expect(stored.oauthTokenData.access_token).toBe(server.state.issuedOAuthTokens[0]);
		expect(stored.oauthTokenData.refresh_token).toBe('refresh-1');
		expect(stored.clientSecret).toBe('csecret');

		const again = await harness.run(workflow([{ json: { id: 'o3' } }], { operation: 'getOAuth' }));
		expect(again.status).toBe('success');
		expect(server.state.refreshCount).toBe(1);
	});
});

describe('(5) binary input from the source node', () => {
	test('getBinaryDataBuffer / assertBinaryData read what harness.items prepared', async () => {
		const pdfBytes = Buffer.from([0x25, 0x50, 0x44, 0x46, 0x00, 0xff]);
		const result = await harness.run(
			workflow(
				[
					{
						json: { n: 1 },
						binary: { data: { text: 'hello world', fileName: 'a.txt', mimeType: 'text/plain' } },
					},
					{
						json: { n: 2 },
						binary: {
							data: {
								base64: pdfBytes.toString('base64'),
								fileName: 'b.pdf',
								mimeType: 'application/pdf',
							},
						},
					},
				],
				{ operation: 'readBinary', binaryPropertyName: 'data' },
			),
		);
		expect(result.status).toBe('success');
		expect(result.outputs.Items[0].binary?.data).toMatchObject({
			fileName: 'a.txt',
			mimeType: 'text/plain',
		});
		const out = result.outputs.Fixture.map((i) => i.json);
		expect(out[0]).toMatchObject({
			fileName: 'a.txt',
			mimeType: 'text/plain',
			size: 11,
			isBuffer: true,
			text: 'hello world',
		});
		expect(out[1]).toMatchObject({
			fileName: 'b.pdf',
			mimeType: 'application/pdf',
			size: 6,
			base64: pdfBytes.toString('base64'),
		});
	});

	test('a missing binary property fails with NodeOperationError', async () => {
		const result = await harness.run(
			workflow([{ json: {} }], { operation: 'readBinary', binaryPropertyName: 'data' }),
		);
		expect(result.status).toBe('error');
		expect(result.error).toBeInstanceOf(NodeOperationError);
	});
});

describe('transport facts (n8n-core 2.41)', () => {
	test('httpRequest {encoding:arraybuffer, returnFullResponse, json:false} -> Buffer body + AxiosHeaders', async () => {
		const out = await probe({
			credential: 'fixtureTokenApi',
			path: '/binary',
			options: { method: 'GET', encoding: 'arraybuffer', returnFullResponse: true, json: false },
		});
		expect(out.ok).toBe(true);
		expect(out.response).toMatchObject({
			kind: 'fullResponse',
			keys: ['body', 'headers', 'statusCode', 'statusMessage'],
			statusCode: 200,
			statusMessage: 'OK',
			headersClass: 'AxiosHeaders',
			bodyType: 'Buffer',
			bodyBase64: Buffer.from([0xde, 0xad, 0xbe, 0xef, 0x00, 0x10]).toString('base64'),
		});
		expect(out.response.headers).toMatchObject({
			'content-type': 'application/pdf',
			'content-disposition': 'attachment; filename="doc.pdf"',
			'x-request-id': 'abc-123',
			'set-cookie': ['a=1', 'b=2'],
		});
		// generic authenticate writes into the caller's own options object:
		expect(out.optionsAfter.headers.Authorization).toMatch(/^Bearer tok-/);
	});

	test('4xx via httpRequestWithAuthentication -> NodeApiError wrapping the AxiosError', async () => {
		const out = await probe({
			credential: 'fixtureTokenApi',
			path: '/things/ratelimited',
			options: { method: 'GET', json: true },
		});
		expect(out.ok).toBe(false);
		expect(out.error).toMatchObject({
			class: 'NodeApiError',
			isNodeApiError: true,
			httpCode: '429',
			message: 'The service is receiving too many requests from you',
			description: 'slow down',
			contextData: { message: 'slow down', code: 'RATE' },
			messages: ['Request failed with status code 429'],
			level: 'warning',
		});
		expect(out.error.cause).toMatchObject({
			class: 'AxiosError',
			isAxiosError: true,
			code: 'ERR_BAD_REQUEST',
			responseStatus: 429,
			responseHeaders: { 'retry-after': '7' },
		});
		expect(out.error.cause.configHeaders.Authorization).toMatch(/^Bearer tok-/);
	});

	test('5xx with arraybuffer: context.data is the raw Buffer, description falls back', async () => {
		const out = await probe({
			credential: 'fixtureTokenApi',
			path: '/things/boom',
			options: { method: 'GET', encoding: 'arraybuffer', returnFullResponse: true, json: false },
		});
		expect(out.error).toMatchObject({
			httpCode: '500',
			message: 'The service was not able to process your request',
		});
		expect(out.error.contextDataType).toBe('Buffer');
		expect(Buffer.from(out.error.contextData).toString()).toBe(
			'{"error":{"message":"internal kaboom"}}',
		);
		expect(out.error.description).toBe('Request failed with status code 500');
		expect(out.error.cause.responseData.bodyType).toBe('Buffer');
	});

	test.each(['POST', 'PUT', 'PATCH', 'DELETE'])(
		'an empty {} body is never sent (%s)',
		async (method) => {
			const out = await probe({
				credential: 'fixtureTokenApi',
				path: '/echo',
				options: { method, body: {}, json: true },
			});
			expect(out.response.body).toMatchObject({ method, bodyLength: 0, contentType: null });
			expect(out.optionsAfter.hasBody).toBe(true); // kept on the options object for non-GET
		},
	);

	test("the string '{}' with an explicit Content-Type is sent", async () => {
		const out = await probe({
			credential: 'fixtureTokenApi',
			path: '/echo',
			options: {
				method: 'POST',
				body: '{}',
				headers: { 'Content-Type': 'application/json' },
				json: true,
			},
		});
		expect(out.response.body).toMatchObject({
			bodyLength: 2,
			contentType: 'application/json',
			bodyBase64: Buffer.from('{}').toString('base64'),
		});
	});

	test('plain this.helpers.httpRequest throws the raw AxiosError (no NodeApiError wrapping)', async () => {
		const out = await probe({
			credential: 'none',
			baseUrl,
			path: '/things/x',
			options: { method: 'GET', json: true },
		});
		expect(out.error).toMatchObject({
			class: 'AxiosError',
			isNodeApiError: false,
			message: 'Request failed with status code 401',
		});
	});

	test('for GET an empty {} body is deleted from the options object', async () => {
		const out = await probe({
			credential: 'fixtureTokenApi',
			path: '/echo',
			options: { method: 'GET', body: {}, json: true },
		});
		expect(out.response.body).toMatchObject({ method: 'GET', bodyLength: 0 });
		expect(out.optionsAfter.hasBody).toBe(false);
	});

	test('a Buffer body with a multipart Content-Type is re-sent intact after the 401 re-login', async () => {
		const multipart = Buffer.from(
			'--XYZ\r\nContent-Disposition: form-data; name="f"; filename="a.txt"\r\n\r\nhello\r\n--XYZ--\r\n',
		);
		server.revokeAll();
		const before = server.requests.length;
		const out = await probe({
			credential: 'fixtureTokenApi',
			path: '/echo',
			bodyBase64: multipart.toString('base64'),
			options: {
				method: 'POST',
				headers: { 'Content-Type': 'multipart/form-data; boundary=XYZ' },
				json: false,
			},
		});
		expect(out.ok).toBe(true);
		const seen = server.requests
			.slice(before)
			.map((r) => [r.method, r.path, r.body.equals(multipart) ? 'same' : r.body.length]);
		expect(seen).toEqual([
			['POST', '/echo', 'same'],
			['POST', '/login', 43],
			['POST', '/echo', 'same'],
		]);
		// json:false does not stop axios from parsing a JSON response body
		expect(out.response.body).toMatchObject({
			contentType: 'multipart/form-data; boundary=XYZ',
			bodyBase64: multipart.toString('base64'),
		});
	});

	test('with ignoreHttpStatusErrors a 401 is returned, not retried: no re-login', async () => {
		server.revokeAll();
		const logins = server.state.loginCount;
		const out = await probe({
			credential: 'fixtureTokenApi',
			path: '/things/q',
			options: {
				method: 'GET',
				json: true,
				ignoreHttpStatusErrors: true,
				returnFullResponse: true,
			},
		});
		expect(out.ok).toBe(true);
		expect(out.response).toMatchObject({
			statusCode: 401,
			body: { message: 'token revoked or missing' },
		});
		expect(server.state.loginCount).toBe(logins);
		// the stale token stays stored until a request sees a thrown 401
		const after = await probe({
			credential: 'fixtureTokenApi',
			path: '/things/q',
			options: { method: 'GET', json: true },
		});
		expect(after.ok).toBe(true);
		expect(server.state.loginCount).toBe(logins + 1);
	});

	test('timeout -> NodeApiError httpCode ECONNABORTED', async () => {
		const out = await probe({
			credential: 'fixtureTokenApi',
			path: '/slow?ms=1500',
			options: { method: 'GET', timeout: 200, json: true },
		});
		expect(out.ms).toBeLessThan(1200);
		expect(out.error).toMatchObject({
			class: 'NodeApiError',
			httpCode: 'ECONNABORTED',
			message: 'The connection was aborted, perhaps the server is offline',
		});
		expect(out.error.cause).toMatchObject({
			code: 'ECONNABORTED',
			message: 'timeout of 200ms exceeded',
			configTimeout: 200,
		});
	});

	test('no timeout given -> axios default of 300000 ms', async () => {
		const out = await probe({
			credential: 'fixtureTokenApi',
			path: '/things/ratelimited',
			options: { method: 'GET', json: true },
		});
		expect(out.error.cause.configTimeout).toBe(300000);
	});

	test('disableFollowRedirect works for this.helpers.httpRequest inside preAuthentication', async () => {
		const id = 'cred-redirect-probe';
		harness.credentials.set(id, {
			name: 'redirect probe',
			type: 'fixtureTokenApi',
			data: { baseUrl, username: 'alice', password: PASSWORD, probeRedirect: true },
		});
		const wf = workflow([{ json: { id: 'r' } }], { operation: 'get' });
		/** @type {any} */ (wf.nodes[2]).credentials = {
			fixtureTokenApi: { id, name: 'redirect probe' },
		};
		const hitsBefore = server.state.redirectTargetHits;
		const result = await harness.run(wf);
		expect(result.status).toBe('success');
		expect(server.state.redirectTargetHits).toBe(hitsBefore);
		expect(harness.credentials.get(id)?.redirectProbe).toEqual({
			statusCode: 302,
			location: '/redirect-target',
		});
	});

	test('requestOAuth2 passes encoding/returnFullResponse through', async () => {
		server.expireOAuthTokens();
		const refreshes = server.state.refreshCount;
		const out = await probe({
			credential: 'fixtureOAuth2Api',
			path: '/oauth/things/bytes',
			options: { method: 'GET', encoding: 'arraybuffer', returnFullResponse: true, json: false },
		});
		expect(server.state.refreshCount).toBe(refreshes + 1);
		expect(out.response).toMatchObject({
			kind: 'fullResponse',
			statusCode: 200,
			bodyType: 'Buffer',
			bodyBase64: Buffer.from([0, 1, 2, 250, 251, 252]).toString('base64'),
		});
	});

	test('requestOAuth2 does not refresh on 403 (default tokenExpiredStatusCode is 401)', async () => {
		const refreshes = server.state.refreshCount;
		const out = await probe({
			credential: 'fixtureOAuth2Api',
			path: '/oauth/things/forbidden',
			options: { method: 'GET', json: true },
		});
		expect(server.state.refreshCount).toBe(refreshes);
		expect(out.error).toMatchObject({ class: 'NodeApiError', httpCode: '403' });
	});

	test('a rejected refresh token (invalid_grant) -> NodeApiError wrapping a "needs to be reconnected" NodeOperationError', async () => {
		const id = 'cred-oauth-revoked';
		harness.credentials.set(id, {
			name: 'Revoked OAuth',
			type: 'fixtureOAuth2Api',
			data: {
				baseUrl,
				accessTokenUrl: `${baseUrl}/oauth/token`,
				clientId: 'cid',
				clientSecret: 'csecret',
				oauthTokenData: {
					access_token: 'stale',
					refresh_token: 'not-a-valid-refresh-token',
					token_type: 'Bearer',
				},
			},
		});
		const out = await probe(
			{
				credential: 'fixtureOAuth2Api',
				path: '/oauth/things/q',
				options: { method: 'GET', json: true },
			},
			{ fixtureOAuth2Api: { id, name: 'Revoked OAuth' } },
		);
		expect(out.error).toMatchObject({
			class: 'NodeApiError',
			httpCode: null,
			message: 'The credential "Revoked OAuth" needs to be reconnected.',
		});
		expect(out.error.cause).toMatchObject({ class: 'NodeOperationError' });
	});
});

describe('run options', () => {
	test('timeoutMs rejects the run (and cancels the execution)', async () => {
		const wf = workflow([{ json: {} }], {
			operation: 'probe',
			probe: JSON.stringify({
				credential: 'fixtureTokenApi',
				path: '/slow?ms=3000',
				options: { method: 'GET', json: true },
			}),
		});
		await expect(harness.run(wf, { timeoutMs: 300 })).rejects.toThrow('timed out after 300 ms');
	});

	test('credentials passed to run() are stored before the run', async () => {
		const id = 'cred-via-run-option';
		const wf = workflow([{ json: { id: 'k' } }], { operation: 'get' });
		/** @type {any} */ (wf.nodes[2]).credentials = { fixtureTokenApi: { id, name: 'via run()' } };
		const result = await harness.run(wf, {
			credentials: {
				[id]: {
					name: 'via run()',
					type: 'fixtureTokenApi',
					data: { baseUrl, username: 'alice', password: PASSWORD },
				},
			},
		});
		expect(result.status).toBe('success');
		expect(harness.credentials.get(id)?.accessToken).toBe(server.state.issuedTokens.at(-1));
	});

	test('an unknown credential id fails the run like n8n (credential not found)', async () => {
		const wf = workflow([{ json: { id: 'k' } }], { operation: 'get' });
		/** @type {any} */ (wf.nodes[2]).credentials = {
			fixtureTokenApi: { id: 'nope', name: 'missing' },
		};
		const result = await harness.run(wf);
		expect(result.status).toBe('error');
		expect(result.error?.message).toContain('Credential with ID "nope" does not exist');
	});
});

describe('secrets-leak audit of the captured logs', () => {
	test('logs were captured, and no password or token appears in them', () => {
		expect(harness.logs.length).toBeGreaterThan(10);
		expect(harness.logs.some((l) => l.includes('Workflow execution started'))).toBe(true);
		const all = harness.logs.join('\n');
		const secrets = [
			PASSWORD,
			'csecret',
			'refresh-1',
			'not-a-valid-refresh-token',
			...server.state.issuedTokens,
			...server.state.issuedOAuthTokens,
		];
		for (const secret of secrets) expect(all).not.toContain(secret);
	});

	test('the NodeApiError really is an n8n-workflow NodeApiError instance when a run fails', async () => {
		const result = await harness.run(
			workflow([{ json: { id: 'ratelimited' } }], { operation: 'get' }),
		);
		expect(result.status).toBe('error');
		expect(result.error).toBeInstanceOf(NodeApiError);
		expect(/** @type {NodeApiError} */ (result.error).httpCode).toBe('429');
	});
});
