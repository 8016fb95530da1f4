#!/usr/bin/env node
'use strict';
/**
 * Self-check of the e2e runtime and of n8n.js, independent of this repo's own nodes:
 * builds a throwaway community package `n8n-nodes-e2e-probe` in a temp dir, packs it,
 * installs it into a fresh n8n instance and runs four workflows against a 127.0.0.1 server:
 *   wf-probe      Manual Trigger -> E2E Probe (this.helpers.httpRequest)
 *   wf-http       Manual Trigger -> n8n's HTTP Request node
 *   wf-probe-auth Manual Trigger -> E2E Probe with a credential of the probe's own type,
 *                 whose token comes from preAuthentication (run twice: one login in total)
 *   wf-http-auth  Manual Trigger -> HTTP Request, "predefined credential type" = e2eProbeApi
 * plus: the credential read back decrypted, a workflow error reported as not ok, an unknown
 * node type reported as not ok, and crash detection on a synthetic exit.
 *
 *   node test/e2e/selfcheck.js        # prints "N passed, M failed" and per-call timings
 */

const assert = require('node:assert/strict');
const { execFileSync } = require('node:child_process');
const fs = require('node:fs');
const http = require('node:http');
const os = require('node:os');
const path = require('node:path');
const n8n = require('./n8n');

// ---------------------------------------------------------------- probe package
const PROBE_FILES = {
	'package.json': JSON.stringify(
		{
			name: 'n8n-nodes-e2e-probe',
			version: '0.0.1',
			description: 'Throwaway community package for the e2e self-check',
			keywords: ['n8n-community-node-package'],
			license: 'MIT',
			main: 'index.js',
			files: ['index.js', 'nodes', 'credentials'],
			n8n: {
				n8nNodesApiVersion: 1,
				credentials: [
					'credentials/E2eProbeApi.credentials.js',
					'credentials/E2eProbeOAuth2Api.credentials.js',
				],
				nodes: ['nodes/E2eProbe.node.js'],
			},
			peerDependencies: { 'n8n-workflow': '*' },
		},
		null,
		2,
	),
	'index.js': 'module.exports = {};\n',
	'credentials/E2eProbeApi.credentials.js': `'use strict';
// A session token obtained through preAuthentication and stored back by n8n (expirable field).
class E2eProbeApi {
  constructor() {
    this.name = 'e2eProbeApi';
    this.displayName = 'E2E Probe API';
    this.properties = [
      { displayName: 'Base URL', name: 'baseUrl', type: 'string', default: '' },
      { displayName: 'Username', name: 'username', type: 'string', default: '' },
      { displayName: 'Password', name: 'password', type: 'string', typeOptions: { password: true }, default: '' },
      { displayName: 'Session Token', name: 'sessionToken', type: 'hidden', typeOptions: { expirable: true }, default: '' },
    ];
    this.authenticate = {
      type: 'generic',
      properties: { headers: { Authorization: '=Bearer {{$credentials.sessionToken}}' } },
    };
  }
  async preAuthentication(credentials) {
    const res = await this.helpers.httpRequest({
      method: 'POST',
      url: credentials.baseUrl + '/login',
      body: { username: credentials.username, password: credentials.password },
      json: true,
    });
    return { sessionToken: res.token };
  }
}
module.exports = { E2eProbeApi };
`,
	'credentials/E2eProbeOAuth2Api.credentials.js': `'use strict';
// Authorization-code OAuth2; n8n keeps the tokens in data.oauthTokenData and refreshes on 401.
class E2eProbeOAuth2Api {
  constructor() {
    this.name = 'e2eProbeOAuth2Api';
    this.extends = ['oAuth2Api'];
    this.displayName = 'E2E Probe OAuth2 API';
    this.properties = [
      { displayName: 'Grant Type', name: 'grantType', type: 'hidden', default: 'authorizationCode' },
      { displayName: 'Authorization URL', name: 'authUrl', type: 'string', default: '' },
      { displayName: 'Access Token URL', name: 'accessTokenUrl', type: 'string', default: '' },
      { displayName: 'Scope', name: 'scope', type: 'hidden', default: 'probe' },
      { displayName: 'Auth URI Query Parameters', name: 'authQueryParameters', type: 'hidden', default: '' },
      { displayName: 'Authentication', name: 'authentication', type: 'hidden', default: 'header' },
    ];
  }
}
module.exports = { E2eProbeOAuth2Api };
`,
	'nodes/E2eProbe.node.js': `'use strict';
class E2eProbe {
  constructor() {
    this.description = {
      displayName: 'E2E Probe',
      name: 'e2eProbe',
      icon: 'fa:vial',
      group: ['transform'],
      version: 1,
      description: 'Calls a URL with this.helpers.httpRequest[WithAuthentication]',
      defaults: { name: 'E2E Probe' },
      inputs: ['main'],
      outputs: ['main'],
      credentials: [
        { name: 'e2eProbeApi', required: true, displayOptions: { show: { authentication: ['session'] } } },
        { name: 'e2eProbeOAuth2Api', required: true, displayOptions: { show: { authentication: ['oAuth2'] } } },
      ],
      properties: [
        {
          displayName: 'Authentication',
          name: 'authentication',
          type: 'options',
          options: [
            { name: 'None', value: 'none' },
            { name: 'Session', value: 'session' },
            { name: 'OAuth2', value: 'oAuth2' },
          ],
          default: 'none',
        },
        { displayName: 'URL', name: 'url', type: 'string', default: '' },
      ],
    };
  }
  async execute() {
    const items = this.getInputData();
    const out = [];
    const credentialType = { none: null, session: 'e2eProbeApi', oAuth2: 'e2eProbeOAuth2Api' };
    for (let i = 0; i < items.length; i++) {
      const url = this.getNodeParameter('url', i);
      const authentication = this.getNodeParameter('authentication', i);
      const type = credentialType[authentication];
      const response = type
        ? await this.helpers.httpRequestWithAuthentication.call(this, type, { url, json: true })
        : await this.helpers.httpRequest({ url, json: true });
      out.push({ json: { probe: true, url, authentication, response }, pairedItem: { item: i } });
    }
    return [out];
  }
}
module.exports = { E2eProbe };
`,
};

function buildProbePackage(workDir) {
	const src = path.join(workDir, 'probe');
	for (const [rel, content] of Object.entries(PROBE_FILES)) {
		fs.mkdirSync(path.dirname(path.join(src, rel)), { recursive: true });
		fs.writeFileSync(path.join(src, rel), content);
	}
	const out = execFileSync(
		'npm',
		['pack', '--ignore-scripts', '--pack-destination', workDir, '--loglevel=error'],
		{
			cwd: src,
			encoding: 'utf8',
			stdio: ['ignore', 'pipe', 'pipe'],
		},
	);
	return path.join(workDir, out.trim().split('\n').pop());
}

// ---------------------------------------------------------------- local server
function startServer() {
	const log = [];
	let tokens = 0;
	const valid = new Set();
	const server = http.createServer((req, res) => {
		let body = '';
		req.on('data', (d) => (body += d));
		req.on('end', () => {
			log.push({
				method: req.method,
				url: req.url,
				authorization: req.headers.authorization || null,
				body,
			});
			const send = (status, obj) => {
				res.writeHead(status, { 'content-type': 'application/json' });
				res.end(JSON.stringify(obj));
			};
			if (req.method === 'GET' && req.url === '/hello')
				return send(200, { hello: 'world', big: '9007199254740993' });
			if (req.method === 'POST' && req.url === '/login') {
				const { username, password } = JSON.parse(body || '{}');
				if (username !== 'probe' || password !== 'secret')
					return send(401, { message: 'bad login' });
				tokens += 1;
				valid.add(`tok-${tokens}`);
				return send(200, { token: `tok-${tokens}` });
			}
			if (req.method === 'POST' && req.url === '/oauth/token') {
				// refresh_token grant only; client authenticates with HTTP Basic (credential authentication 'header').
				const form = new URLSearchParams(body);
				const basic = Buffer.from(`probe-client:probe-client-secret`).toString('base64');
				if (req.headers.authorization !== `Basic ${basic}`)
					return send(401, { error: 'invalid_client' });
				if (form.get('grant_type') !== 'refresh_token' || !valid.has(form.get('refresh_token'))) {
					return send(400, { error: 'invalid_grant' });
				}
				valid.delete(form.get('refresh_token'));
				tokens += 1;
				valid.add(`at-${tokens}`);
				valid.add(`rt-${tokens}`);
				return send(200, {
					access_token: `at-${tokens}`,
					refresh_token: `rt-${tokens}`,
					token_type: 'Bearer',
					expires_in: 3600,
				});
			}
			if (req.method === 'GET' && req.url.startsWith('/secure')) {
				const m = /^Bearer ((?:tok|at)-\d+)$/i.exec(req.headers.authorization || '');
				if (!m || !valid.has(m[1])) return send(401, { message: 'no valid token' });
				return send(200, { secure: true, token: m[1], path: req.url });
			}
			if (req.url === '/fail') return send(500, { message: 'boom from server' });
			return send(404, { message: 'not found' });
		});
	});
	return new Promise((resolve) => {
		server.listen(0, '127.0.0.1', () =>
			resolve({
				server,
				log,
				revokeAll: () => valid.clear(),
				// tokens handed out "by the authorization endpoint", as the real test will obtain them
				grantInitial: () => {
					valid.add('at-0');
					valid.add('rt-0');
					return {
						access_token: 'at-0',
						refresh_token: 'rt-0',
						token_type: 'Bearer',
						expires_in: 3600,
					};
				},
				revokeAccessTokens: () => {
					for (const t of [...valid]) if (t.startsWith('at-')) valid.delete(t);
				},
				base: `http://127.0.0.1:${server.address().port}`,
			}),
		);
	});
}

// ---------------------------------------------------------------- workflows
const manualTrigger = {
	id: 'a0000000-0000-4000-8000-000000000001',
	name: 'Start',
	type: 'n8n-nodes-base.manualTrigger',
	typeVersion: 1,
	position: [0, 0],
	parameters: {},
};
function linear(id, name, node) {
	return {
		id,
		name,
		nodes: [
			manualTrigger,
			{ id: 'a0000000-0000-4000-8000-000000000002', position: [220, 0], ...node },
		],
		connections: { Start: { main: [[{ node: node.name, type: 'main', index: 0 }]] } },
		settings: { executionOrder: 'v1' },
	};
}
const CRED = { id: 'probeCred0000001', name: 'Probe account' };
const CRED2 = { id: 'probeCred0000002', name: 'Probe account 2' };
const OAUTH_CRED = { id: 'probeOAuth000001', name: 'Probe OAuth2' };

function workflows(base) {
	return [
		linear('wfProbe000000001', 'probe: httpRequest', {
			name: 'Probe',
			type: 'n8n-nodes-e2e-probe.e2eProbe',
			typeVersion: 1,
			parameters: { url: `${base}/hello` },
		}),
		linear('wfHttp0000000001', 'http request node', {
			name: 'HTTP',
			type: 'n8n-nodes-base.httpRequest',
			typeVersion: 4.2,
			parameters: { url: `${base}/hello`, options: {} },
		}),
		linear('wfProbeAuth00001', 'probe: credential', {
			name: 'Probe',
			type: 'n8n-nodes-e2e-probe.e2eProbe',
			typeVersion: 1,
			parameters: { url: `${base}/secure/probe`, authentication: 'session' },
			credentials: { e2eProbeApi: CRED },
		}),
		linear('wfHttpAuth000001', 'http request node: predefined credential', {
			name: 'HTTP',
			type: 'n8n-nodes-base.httpRequest',
			typeVersion: 4.2,
			parameters: {
				url: `${base}/secure/other`,
				authentication: 'predefinedCredentialType',
				nodeCredentialType: 'e2eProbeApi',
				options: {},
			},
			credentials: { e2eProbeApi: CRED },
		}),
		linear('wfHttpAuth000002', 'http request node: predefined credential, no token yet', {
			name: 'HTTP',
			type: 'n8n-nodes-base.httpRequest',
			typeVersion: 4.2,
			parameters: {
				url: `${base}/secure/fresh`,
				authentication: 'predefinedCredentialType',
				nodeCredentialType: 'e2eProbeApi',
				options: {},
			},
			credentials: { e2eProbeApi: CRED2 },
		}),
		linear('wfOAuth000000001', 'probe: oauth2 credential', {
			name: 'Probe',
			type: 'n8n-nodes-e2e-probe.e2eProbe',
			typeVersion: 1,
			parameters: { url: `${base}/secure/oauth`, authentication: 'oAuth2' },
			credentials: { e2eProbeOAuth2Api: OAUTH_CRED },
		}),
		linear('wfFail0000000001', 'probe: server error', {
			name: 'Probe',
			type: 'n8n-nodes-e2e-probe.e2eProbe',
			typeVersion: 1,
			parameters: { url: `${base}/fail` },
		}),
		linear('wfUnknown0000001', 'unknown node type', {
			name: 'Nope',
			type: 'n8n-nodes-e2e-probe.doesNotExist',
			typeVersion: 1,
			parameters: {},
		}),
	];
}

// ---------------------------------------------------------------- run
async function main() {
	const started = Date.now();
	const workDir = fs.mkdtempSync(path.join(os.tmpdir(), 'n8n-e2e-selfcheck-'));
	const results = [];
	const check = async (name, fn) => {
		const t = Date.now();
		try {
			await fn();
			results.push({ name, ok: true });
			console.log(`ok   ${name} (${Date.now() - t} ms)`);
		} catch (err) {
			results.push({ name, ok: false });
			console.log(
				`FAIL ${name} (${Date.now() - t} ms)\n${String(err.stack || err).replace(/^/gm, '     ')}`,
			);
		}
	};

	const runtime = await n8n.ensureRuntime();
	console.log(`runtime: ${runtime.dir} (ensureRuntime ${runtime.setupMs} ms)`);
	const { server, log, base, revokeAll, grantInitial, revokeAccessTokens } = await startServer();
	const instance = await n8n.createInstance({ encryptionKey: 'e2e-selfcheck-key-0123456789' });
	console.log(`instance: ${instance.userFolder} (broker port ${instance.brokerPort})`);
	const tarball = buildProbePackage(workDir);
	const countLogins = () => log.filter((r) => r.url === '/login').length;

	try {
		await check('install probe package as community package', async () => {
			const pkg = await n8n.installCommunityPackage(instance, tarball);
			assert.equal(pkg.packageName, 'n8n-nodes-e2e-probe');
			assert.ok(
				fs.existsSync(
					path.join(
						instance.nodesDir,
						'node_modules',
						'n8n-nodes-e2e-probe',
						'nodes',
						'E2eProbe.node.js',
					),
				),
			);
			const ledger = JSON.parse(
				fs.readFileSync(path.join(instance.nodesDir, 'package.json'), 'utf8'),
			);
			assert.equal(ledger.dependencies['n8n-nodes-e2e-probe'], '0.0.1');
		});

		await check(
			'n8n loads the package: export:nodes lists n8n-nodes-e2e-probe.e2eProbe',
			async () => {
				const { types, warnings } = await n8n.exportNodeTypes(instance);
				const probe = types.find((t) => t.name === 'n8n-nodes-e2e-probe.e2eProbe');
				assert.ok(probe, 'probe node type listed');
				assert.equal(probe.version, 1);
				assert.deepEqual(
					probe.credentials.map((c) => c.name),
					['e2eProbeApi', 'e2eProbeOAuth2Api'],
				);
				assert.ok(types.some((t) => t.name === 'n8n-nodes-base.httpRequest'));
				assert.deepEqual(warnings, []);
			},
		);

		await check('import credentials (plain data is encrypted)', async () => {
			await n8n.importCredentials(instance, [
				{
					...CRED,
					type: 'e2eProbeApi',
					data: { baseUrl: base, username: 'probe', password: 'secret' },
				},
				{
					...CRED2,
					type: 'e2eProbeApi',
					data: { baseUrl: base, username: 'probe', password: 'secret' },
				},
			]);
			const [{ data: raw }] = await n8n.queryDatabase(
				instance,
				'select data from credentials_entity where id = ?',
				[CRED.id],
			);
			assert.ok(
				raw.length > 0 && !raw.includes('secret') && !raw.startsWith('{'),
				`stored data looks unencrypted: ${raw}`,
			);
			const creds = await n8n.exportCredentials(instance);
			const c = creds.find((x) => x.id === CRED.id);
			assert.equal(c.type, 'e2eProbeApi');
			assert.deepEqual(c.data, { baseUrl: base, username: 'probe', password: 'secret' });
		});

		await check('import workflows with explicit ids', async () => {
			await n8n.importWorkflows(instance, workflows(base));
			const wfs = await n8n.exportWorkflows(instance);
			assert.deepEqual(
				wfs.map((w) => w.id).sort(),
				workflows(base)
					.map((w) => w.id)
					.sort(),
			);
		});

		await check('community node runs (type n8n-nodes-e2e-probe.e2eProbe)', async () => {
			const run = await n8n.executeOk(instance, 'wfProbe000000001');
			const items = n8n.nodeOutput(run.result, 'Probe');
			assert.equal(items.length, 1);
			assert.deepEqual(items[0].response, { hello: 'world', big: '9007199254740993' });
			assert.equal(run.result.status, 'success');
			assert.equal(run.result.data.resultData.lastNodeExecuted, 'Probe');
		});

		await check("n8n's HTTP Request node runs against 127.0.0.1", async () => {
			const run = await n8n.executeOk(instance, 'wfHttp0000000001');
			assert.deepEqual(n8n.nodeOutput(run.result, 'HTTP'), [
				{ hello: 'world', big: '9007199254740993' },
			]);
		});

		await check(
			'community credential type: preAuthentication token stored and reused',
			async () => {
				const before = countLogins();
				const run1 = await n8n.executeOk(instance, 'wfProbeAuth00001');
				const run2 = await n8n.executeOk(instance, 'wfProbeAuth00001');
				assert.equal(countLogins() - before, 1, 'two executions must log in exactly once');
				assert.equal(n8n.nodeOutput(run1.result, 'Probe')[0].response.token, 'tok-1');
				assert.equal(n8n.nodeOutput(run2.result, 'Probe')[0].response.token, 'tok-1');
				const c = (await n8n.exportCredentials(instance)).find((x) => x.id === CRED.id);
				assert.equal(
					c.data.sessionToken,
					'tok-1',
					'the token is persisted in the credential store',
				);
			},
		);

		await check(
			'HTTP Request node with predefined credential type from the community package',
			async () => {
				const run = await n8n.executeOk(instance, 'wfHttpAuth000001');
				const [item] = n8n.nodeOutput(run.result, 'HTTP');
				assert.equal(item.secure, true);
				assert.equal(item.path, '/secure/other');
			},
		);

		await check(
			'HTTP Request node, predefined credential without a token: preAuthentication runs',
			async () => {
				const before = countLogins();
				const run = await n8n.executeOk(instance, 'wfHttpAuth000002');
				assert.equal(countLogins() - before, 1);
				const [item] = n8n.nodeOutput(run.result, 'HTTP');
				assert.equal(item.path, '/secure/fresh');
				const c = (await n8n.exportCredentials(instance)).find((x) => x.id === CRED2.id);
				assert.equal(c.data.sessionToken, item.token);
			},
		);

		await check('a token rejected with 401 is renewed once and the new one persisted', async () => {
			revokeAll();
			const before = countLogins();
			const run = await n8n.executeOk(instance, 'wfProbeAuth00001');
			assert.equal(countLogins() - before, 1);
			const token = n8n.nodeOutput(run.result, 'Probe')[0].response.token;
			assert.notEqual(token, 'tok-1');
			const c = (await n8n.exportCredentials(instance)).find((x) => x.id === CRED.id);
			assert.equal(c.data.sessionToken, token);
		});

		await check(
			'OAuth2 (authorization code) credential: imported tokens used, refreshed on 401, persisted',
			async () => {
				const initial = grantInitial();
				await n8n.importCredentials(instance, [
					{
						...OAUTH_CRED,
						type: 'e2eProbeOAuth2Api',
						data: {
							clientId: 'probe-client',
							clientSecret: 'probe-client-secret',
							authUrl: `${base}/oauth/authorize`,
							accessTokenUrl: `${base}/oauth/token`,
							oauthTokenData: initial,
						},
					},
				]);
				const run1 = await n8n.executeOk(instance, 'wfOAuth000000001');
				assert.equal(n8n.nodeOutput(run1.result, 'Probe')[0].response.token, 'at-0');
				revokeAccessTokens();
				const refreshesBefore = log.filter((r) => r.url === '/oauth/token').length;
				const run2 = await n8n.executeOk(instance, 'wfOAuth000000001');
				const newToken = n8n.nodeOutput(run2.result, 'Probe')[0].response.token;
				assert.match(newToken, /^at-[1-9]/);
				assert.equal(log.filter((r) => r.url === '/oauth/token').length - refreshesBefore, 1);
				const c = (await n8n.exportCredentials(instance)).find((x) => x.id === OAUTH_CRED.id);
				assert.equal(c.data.oauthTokenData.access_token, newToken);
				assert.notEqual(c.data.oauthTokenData.refresh_token, 'rt-0');
			},
		);

		await check('a failing node is reported as not ok, with the error', async () => {
			const run = await n8n.execute(instance, 'wfFail0000000001');
			assert.equal(run.ok, false);
			assert.equal(run.crashed, false);
			assert.equal(run.code, 1);
			assert.ok(run.error, 'error present in result');
			assert.match(JSON.stringify(run.error), /boom from server/);
			assert.equal(run.errorMessage, run.error.message);
		});

		await check('an unknown node type is reported as not ok', async () => {
			const run = await n8n.execute(instance, 'wfUnknown0000001');
			assert.equal(run.ok, false);
			assert.equal(run.result, null);
			assert.equal(run.errorMessage, 'Unrecognized node type: n8n-nodes-e2e-probe.doesNotExist');
		});

		await check('a crash after printing a result is never ok', async () => {
			// Same parsing path as execute(), with a fake n8n that prints a result and segfaults.
			const fake = path.join(workDir, 'fake-n8n.js');
			fs.writeFileSync(
				fake,
				'console.log(\'{\\n  "data": {"resultData": {"runData": {}}}\\n}\'); process.kill(process.pid, \'SIGSEGV\');',
			);
			const fakeInstance = {
				...instance,
				runtime: { ...instance.runtime, n8nBin: fake },
				timings: [],
			};
			const run = await n8n.execute(fakeInstance, 'whatever');
			assert.equal(run.crashed, true);
			assert.equal(run.ok, false);
			assert.ok(run.result, 'result was parsed, and still not ok');
		});
	} finally {
		server.close();
		console.log('\nper-call timings (ms):');
		for (const t of instance.timings)
			console.log(
				`  ${String(t.ms).padStart(6)}  code=${t.code}${t.signal ? ` signal=${t.signal}` : ''}  ${t.command}`,
			);
		await n8n.destroyInstance(instance);
		fs.rmSync(workDir, { recursive: true, force: true });
	}
	const passed = results.filter((r) => r.ok).length;
	const failed = results.length - passed;
	console.log(`\nwall time ${((Date.now() - started) / 1000).toFixed(1)} s`);
	console.log(`${passed} passed, ${failed} failed`);
	process.exitCode = failed ? 1 : 0;
}

main().catch((err) => {
	console.error(err);
	process.exitCode = 1;
});
