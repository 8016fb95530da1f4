#!/usr/bin/env node
'use strict';
/**
 * What error object `this.helpers.httpRequestWithAuthentication` throws in each supported n8n,
 * for a request sent the way this package's transport sends it
 * (`encoding: 'arraybuffer', json: false, returnFullResponse: true`), and whether
 * `readHttpFailure` (dist/nodes/WorkOrderService/transport/errors.js) finds status, headers,
 * body and network code in it.
 *
 *   node test/e2e/error-shape.js                    # every version in n8n.N8N_VERSIONS
 *   node test/e2e/error-shape.js --version 1.123.81  # one version
 *   node test/e2e/error-shape.js --dump             # also print the whole error shapes
 *
 * A throwaway community package `n8n-nodes-e2e-errshape` (built in a temp dir) has one node that
 * makes the request, catches the error and outputs a description of it: constructor names, own
 * property names (enumerable or not), `response` (status, header names, type of `data`), `cause`
 * chain, `context`, `description`, `httpCode`, `messages`. A 127.0.0.1 server answers each case.
 * Needs `npm run build` first (readHttpFailure is loaded from dist/). Exit 1 when a check fails.
 */

const assert = require('node:assert/strict');
const { execFileSync } = require('node:child_process');
const fs = require('node:fs');
const http = require('node:http');
const os = require('node:os');
const path = require('node:path');
const n8n = require('./n8n');
const { unconnectablePort } = require('../reliability/network-faults');

const ERRORS_MODULE = path.resolve(
	__dirname,
	'..',
	'..',
	'dist',
	'nodes',
	'WorkOrderService',
	'transport',
	'errors.js',
);

// ---------------------------------------------------------------- throwaway package
const NODE_SOURCE = `'use strict';
function kindOf(v) {
  if (v === null) return 'null';
  if (Buffer.isBuffer(v)) return 'Buffer';
  if (v instanceof ArrayBuffer) return 'ArrayBuffer';
  if (ArrayBuffer.isView(v)) return v.constructor.name;
  if (typeof v === 'object') return (v.constructor && v.constructor.name) || 'Object';
  return typeof v;
}
const BULKY = new Set(['config', 'request', 'socket', '_events', '_eventsCount', 'agent', 'res', 'req', 'client', 'stack', 'node', 'workflow']);
function describe(v, depth, seen) {
  const kind = kindOf(v);
  if (v === null || v === undefined) return { kind };
  if (kind === 'Buffer' || kind === 'ArrayBuffer' || ArrayBuffer.isView(v)) {
    const b = kind === 'Buffer' ? v : kind === 'ArrayBuffer' ? Buffer.from(v) : Buffer.from(v.buffer, v.byteOffset, v.byteLength);
    return { kind, length: b.length, text: b.toString('utf8').slice(0, 200) };
  }
  if (typeof v === 'string') return { kind, text: v.slice(0, 200) };
  if (typeof v !== 'object') return { kind, value: typeof v === 'function' ? '[function]' : v };
  if (seen.has(v)) return { kind, seen: true };
  seen.add(v);
  if (depth > 4) return { kind, truncated: true };
  const out = { kind, props: {} };
  if (Array.isArray(v)) {
    out.items = v.slice(0, 5).map((x) => describe(x, depth + 1, seen));
    return out;
  }
  for (const key of Object.getOwnPropertyNames(v)) {
    const d = Object.getOwnPropertyDescriptor(v, key);
    const label = d.enumerable ? key : key + ' (non-enumerable)';
    if (BULKY.has(key)) { out.props[label] = { kind: kindOf(d.value), omitted: true }; continue; }
    if (key === 'headers' && d.value && typeof d.value === 'object') {
      out.props[label] = { kind: kindOf(d.value), names: Object.keys(d.value).sort(), 'content-type': d.value['content-type'], 'retry-after': d.value['retry-after'], 'x-probe': d.value['x-probe'] };
      continue;
    }
    try { out.props[label] = describe(d.get ? d.get.call(v) : d.value, depth + 1, seen); } catch (e) { out.props[label] = { kind: 'throws', message: e.message }; }
  }
  if (!Object.prototype.hasOwnProperty.call(v, 'cause') && 'cause' in v) out.props['cause (inherited)'] = describe(v.cause, depth + 1, seen);
  return out;
}
class E2eErrShape {
  constructor() {
    this.description = {
      displayName: 'E2E Error Shape', name: 'e2eErrShape', icon: 'fa:bug', group: ['transform'], version: 1,
      description: 'Describes the error httpRequestWithAuthentication throws', defaults: { name: 'E2E Error Shape' },
      inputs: ['main'], outputs: ['main'],
      credentials: [
        { name: 'e2eErrShapeApi', required: true, displayOptions: { show: { authentication: ['session'] } } },
        { name: 'e2eErrShapeOAuth2Api', required: true, displayOptions: { show: { authentication: ['oAuth2'] } } },
      ],
      properties: [
        { displayName: 'Authentication', name: 'authentication', type: 'options', default: 'none',
          options: [{ name: 'None', value: 'none' }, { name: 'Session', value: 'session' }, { name: 'OAuth2', value: 'oAuth2' }] },
        { displayName: 'Case', name: 'caseName', type: 'string', default: '' },
        { displayName: 'URL', name: 'url', type: 'string', default: '' },
        { displayName: 'Timeout', name: 'timeout', type: 'number', default: 5000 },
        { displayName: 'Errors Module', name: 'errorsModule', type: 'string', default: '' },
        { displayName: 'Ignore HTTP Status Errors', name: 'ignoreHttpStatusErrors', type: 'boolean', default: false },
      ],
    };
  }
  async execute() {
    const caseName = this.getNodeParameter('caseName', 0);
    const url = this.getNodeParameter('url', 0);
    const authentication = this.getNodeParameter('authentication', 0);
    const errorsModule = this.getNodeParameter('errorsModule', 0);
    const options = {
      method: 'GET', url, headers: { Accept: 'application/json' },
      encoding: 'arraybuffer', json: false, returnFullResponse: true, timeout: this.getNodeParameter('timeout', 0),
    };
    if (this.getNodeParameter('ignoreHttpStatusErrors', 0)) options.ignoreHttpStatusErrors = true;
    const type = { none: null, session: 'e2eErrShapeApi', oAuth2: 'e2eErrShapeOAuth2Api' }[authentication];
    let json;
    try {
      const res = type
        ? await this.helpers.httpRequestWithAuthentication.call(this, type, options)
        : await this.helpers.httpRequest(options);
      json = { caseName, thrown: false, statusCode: res.statusCode, headerNames: Object.keys(res.headers || {}).sort(), bodyKind: kindOf(res.body), bodyText: describe(res.body, 0, new Set()).text };
    } catch (error) {
      json = { caseName, thrown: true, shape: describe(error, 0, new Set()) };
      if (errorsModule) {
        const failure = require(errorsModule).readHttpFailure(error);
        json.failure = { ...failure, headerNames: Object.keys(failure.headers || {}).sort() };
        delete json.failure.headers;
      }
    }
    return [[{ json: JSON.parse(JSON.stringify(json)), pairedItem: { item: 0 } }]];
  }
}
module.exports = { E2eErrShape };
`;

const PACKAGE_FILES = {
	'package.json': JSON.stringify(
		{
			name: 'n8n-nodes-e2e-errshape',
			version: '0.0.1',
			keywords: ['n8n-community-node-package'],
			license: 'MIT',
			main: 'index.js',
			files: ['index.js', 'nodes', 'credentials'],
			n8n: {
				n8nNodesApiVersion: 1,
				credentials: [
					'credentials/E2eErrShapeApi.credentials.js',
					'credentials/E2eErrShapeOAuth2Api.credentials.js',
				],
				nodes: ['nodes/E2eErrShape.node.js'],
			},
			peerDependencies: { 'n8n-workflow': '*' },
		},
		null,
		2,
	),
	'index.js': 'module.exports = {};\n',
	// Like workOrderServiceApi: preAuthentication returns the expirable token plus two more keys.
	'credentials/E2eErrShapeApi.credentials.js': `'use strict';
class E2eErrShapeApi {
  constructor() {
    this.name = 'e2eErrShapeApi';
    this.displayName = 'E2E Error Shape API';
    this.properties = [
      { displayName: 'Base URL', name: 'baseUrl', type: 'string', default: '' },
      { displayName: 'Username', name: 'username', type: 'string', default: '' },
      { displayName: 'Password', name: 'password', type: 'string', typeOptions: { password: true }, default: '' },
      { displayName: 'Unset Option', name: 'unsetOption', type: 'string', default: 'the-default' },
      { displayName: 'Derived', name: 'derived', type: 'hidden', default: '={{$self["baseUrl"]}}/derived' },
      { displayName: 'Access Token', name: 'accessToken', type: 'hidden', typeOptions: { expirable: true }, default: '' },
      { displayName: 'Refresh Token', name: 'refreshToken', type: 'hidden', default: '' },
    ];
    this.authenticate = { type: 'generic', properties: { headers: { Authorization: '=Bearer {{$credentials.accessToken}}' } } };
  }
  async preAuthentication(credentials) {
    const res = await this.helpers.httpRequest({ method: 'POST', url: credentials.baseUrl + '/login', body: { username: credentials.username }, json: true });
    return { accessToken: res.token, refreshToken: 'rt-' + res.token, extraKey: 'from-preAuthentication' };
  }
}
module.exports = { E2eErrShapeApi };
`,
	'credentials/E2eErrShapeOAuth2Api.credentials.js': `'use strict';
class E2eErrShapeOAuth2Api {
  constructor() {
    this.name = 'e2eErrShapeOAuth2Api';
    this.extends = ['oAuth2Api'];
    this.displayName = 'E2E Error Shape OAuth2 API';
    this.properties = [
      { displayName: 'Grant Type', name: 'grantType', type: 'hidden', default: 'authorizationCode' },
      { displayName: 'Authorization URL', name: 'authUrl', type: 'string', default: '' },
      { displayName: 'Access Token URL', name: 'accessTokenUrl', type: 'string', default: '' },
      { displayName: 'Scope', name: 'scope', type: 'hidden', default: '' },
      { displayName: 'Auth URI Query Parameters', name: 'authQueryParameters', type: 'hidden', default: '' },
      { displayName: 'Authentication', name: 'authentication', type: 'hidden', default: 'header' },
    ];
  }
}
module.exports = { E2eErrShapeOAuth2Api };
`,
	'nodes/E2eErrShape.node.js': NODE_SOURCE,
};

function buildPackage(workDir) {
	const src = path.join(workDir, 'errshape');
	for (const [rel, content] of Object.entries(PACKAGE_FILES)) {
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

// ---------------------------------------------------------------- 127.0.0.1 server
const FORBIDDEN_BODY = {
	ErrorCodes: [4031],
	ErrorCode: 4031,
	ErrorMessage: 'Proposal amount 9000.00 exceeds your approval limit of 5000.00',
};

function startServer() {
	const log = [];
	let logins = 0;
	const server = http.createServer((req, res) => {
		let body = '';
		req.on('data', (d) => (body += d));
		req.on('end', () => {
			log.push({
				method: req.method,
				url: req.url,
				authorization: req.headers.authorization || null,
			});
			const send = (status, obj, headers = {}) => {
				res.writeHead(status, {
					'content-type': 'application/json; charset=utf-8',
					'x-probe': 'yes',
					...headers,
				});
				res.end(typeof obj === 'string' ? obj : JSON.stringify(obj));
			};
			if (req.url === '/login') return send(200, { token: `tok-${++logins}` });
			if (req.url === '/forbidden') return send(403, FORBIDDEN_BODY);
			if (req.url === '/always401')
				return send(401, { ErrorCodes: [1003], ErrorCode: 1003, ErrorMessage: 'Token rejected' });
			if (req.url === '/throttled')
				return send(429, { ErrorMessage: 'Slow down' }, { 'retry-after': '7' });
			if (req.url === '/text500') {
				res.writeHead(500, { 'content-type': 'text/plain' });
				return res.end('Service temporarily down\nsecond line');
			}
			if (req.url === '/hang') return; // never answers: client timeout
			if (req.url === '/reset') return req.socket.destroy();
			return send(404, { ErrorMessage: 'no such path' });
		});
	});
	return new Promise((resolve) =>
		server.listen(0, '127.0.0.1', () =>
			resolve({
				server,
				log,
				base: `http://127.0.0.1:${server.address().port}`,
				logins: () => logins,
			}),
		),
	);
}

// ---------------------------------------------------------------- cases
const CRED = { id: 'errShapeCred0001', name: 'Error shape session' };
const OAUTH = { id: 'errShapeOAuth001', name: 'Error shape OAuth2' };

function cases(base, closedPort, unconnectable) {
	return [
		// [case name, authentication, url, timeout ms, expected readHttpFailure (or answer), options]
		[
			'403 JSON, session credential',
			'session',
			`${base}/forbidden`,
			5000,
			{ status: 403, body: FORBIDDEN_BODY.ErrorMessage },
		],
		[
			'401 twice (preAuthentication retry), session credential',
			'session',
			`${base}/always401`,
			5000,
			{ status: 401, body: 'Token rejected' },
		],
		[
			'429 with Retry-After, session credential',
			'session',
			`${base}/throttled`,
			5000,
			{ status: 429, body: 'Slow down' },
		],
		[
			'500 text/plain, session credential',
			'session',
			`${base}/text500`,
			5000,
			{ status: 500, body: 'Service temporarily down' },
		],
		[
			'403 JSON, OAuth2 credential',
			'oAuth2',
			`${base}/forbidden`,
			5000,
			{ status: 403, body: FORBIDDEN_BODY.ErrorMessage },
		],
		[
			'403 JSON, no credential (helpers.httpRequest)',
			'none',
			`${base}/forbidden`,
			5000,
			{ status: 403, body: FORBIDDEN_BODY.ErrorMessage },
		],
		[
			'timeout, session credential',
			'session',
			`${base}/hang`,
			700,
			{ network: /TIMEDOUT|ECONNABORTED/ },
		],
		[
			'connection reset, session credential',
			'session',
			`${base}/reset`,
			5000,
			{ network: /ECONNRESET/ },
		],
		[
			'connection refused, session credential',
			'session',
			`http://127.0.0.1:${closedPort}/x`,
			5000,
			{ network: /ECONNREFUSED/, notSent: { 1: true, 2: true } },
		],
		// issue 19: a connect timeout (the request never left) vs a response timeout (it was written).
		// n8n 2.x keeps the request's socket in the error chain; n8n 1.x drops it (see readHttpFailure).
		[
			'connect timeout, session credential',
			'session',
			`${unconnectable}/x`,
			700,
			{ network: /TIMEDOUT|ECONNABORTED/, notSent: { 1: false, 2: true } },
		],
		[
			'response timeout, session credential (again)',
			'session',
			`${base}/hang`,
			700,
			{ network: /TIMEDOUT|ECONNABORTED/, notSent: { 1: false, 2: false } },
		],
		// What the node's transport uses for its token credentials: nothing thrown, headers kept.
		[
			'429 with Retry-After, session credential, ignoreHttpStatusErrors',
			'session',
			`${base}/throttled`,
			5000,
			{ answer: 429, header: 'retry-after', body: 'Slow down' },
			{ ignoreHttpStatusErrors: true },
		],
	];
}

function workflow(list) {
	const start = {
		id: 'b0000000-0000-4000-8000-000000000001',
		name: 'Start',
		type: 'n8n-nodes-base.manualTrigger',
		typeVersion: 1,
		position: [0, 0],
		parameters: {},
	};
	const nodes = [start];
	list.forEach(([caseName, authentication, url, timeout, , extra = {}], i) => {
		nodes.push({
			id: `b0000000-0000-4000-8000-${String(i + 2).padStart(12, '0')}`,
			name: `Case ${i + 1}`,
			type: 'n8n-nodes-e2e-errshape.e2eErrShape',
			typeVersion: 1,
			position: [220 * (i + 1), 0],
			parameters: { authentication, caseName, url, timeout, errorsModule: ERRORS_MODULE, ...extra },
			credentials:
				authentication === 'session'
					? { e2eErrShapeApi: CRED }
					: authentication === 'oAuth2'
						? { e2eErrShapeOAuth2Api: OAUTH }
						: undefined,
		});
	});
	const connections = {};
	for (let i = 0; i < nodes.length - 1; i++)
		connections[nodes[i].name] = { main: [[{ node: nodes[i + 1].name, type: 'main', index: 0 }]] };
	return {
		id: 'wfErrShape000001',
		name: 'error shapes',
		nodes,
		connections,
		settings: { executionOrder: 'v1' },
	};
}

/** One line per interesting path of the shape: where status, headers and body are. */
function summarize(shape) {
	const lines = [];
	const walk = (d, at, depth) => {
		if (!d || depth > 5) return;
		if (d.props) {
			for (const [k, v] of Object.entries(d.props)) {
				const key = k.replace(/ \((non-enumerable|inherited)\)$/, '');
				const p = `${at}.${key}${k.endsWith('(non-enumerable)') ? '*' : ''}`;
				if (
					['message', 'description', 'httpCode', 'code', 'status', 'name'].includes(key) &&
					(v.kind === 'string' || v.kind === 'number')
				) {
					lines.push(`${p} = ${JSON.stringify(v.text ?? v.value).slice(0, 90)}`);
				} else if (key === 'data' || key === 'body') {
					lines.push(
						`${p}: ${v.kind}${v.text !== undefined ? ` ${JSON.stringify(v.text).slice(0, 70)}` : ''}`,
					);
				} else if (key === 'headers') {
					lines.push(`${p}: ${v.kind} [${(v.names || []).join(', ')}]`);
				} else if (key === 'messages' && v.items) {
					lines.push(`${p} = ${JSON.stringify(v.items.map((x) => x.text))}`.slice(0, 140));
				} else if (v.kind === 'undefined' && ['cause', 'response', 'errorResponse'].includes(key)) {
					lines.push(`${p}: undefined`);
				}
				if (v.props && !['headers'].includes(key)) walk(v, p, depth + 1);
			}
		}
	};
	lines.push(`error: ${shape.kind}`);
	walk(shape, 'error', 0);
	return lines;
}

async function runVersion(version, opts) {
	const results = [];
	const check = (name, fn) => {
		try {
			fn();
			results.push(true);
			console.log(`ok   ${name}`);
		} catch (err) {
			results.push(false);
			console.log(`FAIL ${name}\n${String(err.message).replace(/^/gm, '     ')}`);
		}
	};
	console.log(`\n=== n8n ${version}`);
	const runtime = await n8n.ensureRuntime({ version, log: null });
	const workDir = fs.mkdtempSync(path.join(os.tmpdir(), 'n8n-e2e-errshape-'));
	const srv = await startServer();
	const closedPort = await n8n.freePort();
	const unconnectable = await unconnectablePort();
	const instance = await n8n.createInstance({
		encryptionKey: 'e2e-errshape-key-0123456789',
		runtime,
	});
	const shapes = {};
	try {
		await n8n.installCommunityPackage(instance, buildPackage(workDir));
		await n8n.importCredentials(instance, [
			{
				...CRED,
				type: 'e2eErrShapeApi',
				data: { baseUrl: srv.base, username: 'probe', password: 'secret' },
			},
			{
				...OAUTH,
				type: 'e2eErrShapeOAuth2Api',
				data: {
					clientId: 'c',
					clientSecret: 's',
					authUrl: `${srv.base}/authorize`,
					accessTokenUrl: `${srv.base}/token`,
					oauthTokenData: {
						access_token: 'at-0',
						refresh_token: 'rt-0',
						token_type: 'Bearer',
						expires_in: 3600,
					},
				},
			},
		]);
		const list = cases(srv.base, closedPort, unconnectable.url);
		await n8n.importWorkflows(instance, [workflow(list)]);
		const run = await n8n.executeOk(instance, 'wfErrShape000001');
		list.forEach(([caseName, , , , expected], i) => {
			const [item] = n8n.nodeOutput(run.result, `Case ${i + 1}`);
			shapes[caseName] = item;
			console.log(`--- ${caseName}`);
			if (!item.thrown) {
				console.log(
					`     not thrown: statusCode ${item.statusCode}, headers [${item.headerNames.join(', ')}], body ${item.bodyKind} ${JSON.stringify(item.bodyText)}`,
				);
			} else {
				for (const l of summarize(item.shape)) console.log(`     ${l}`);
				const f = item.failure;
				console.log(
					`     readHttpFailure -> status ${f.status}, headers [${f.headerNames.join(', ')}], networkCode ${f.networkCode}${f.notSent !== undefined ? `, notSent ${f.notSent}` : ''}, body ${JSON.stringify(f.bodyText).slice(0, 80)}${f.otherMessage ? `, otherMessage ${JSON.stringify(f.otherMessage)}` : ''}`,
				);
			}
			if (opts.dump) console.log(JSON.stringify(item.shape, null, 1).replace(/^/gm, '     '));
			if (expected.answer) {
				check(
					`${caseName}: answered ${expected.answer}, nothing thrown, ${expected.header} header and body there`,
					() => {
						assert.equal(item.thrown, false, 'nothing thrown');
						assert.equal(item.statusCode, expected.answer);
						assert.ok(item.headerNames.includes(expected.header), `headers: ${item.headerNames}`);
						assert.ok(String(item.bodyText).includes(expected.body), `body: ${item.bodyText}`);
					},
				);
				return;
			}
			check(
				`${caseName}: readHttpFailure finds ${expected.status ? `status ${expected.status} and the body` : `network code ${expected.network}`}`,
				() => {
					assert.ok(item.thrown, 'an error was thrown');
					if (expected.status) {
						assert.equal(item.failure.status, expected.status);
						assert.ok(
							item.failure.bodyText.includes(expected.body),
							`body: ${JSON.stringify(item.failure.bodyText)}`,
						);
					} else {
						assert.equal(item.failure.status, undefined);
						assert.match(String(item.failure.networkCode), expected.network);
					}
				},
			);
			if (expected.notSent) {
				const want = expected.notSent[version.split('.')[0]];
				check(
					`${caseName}: ${want ? 'nothing was sent (readHttpFailure.notSent)' : 'may have been sent: cannot be told apart here'}`,
					() => {
						assert.equal(Boolean(item.failure.notSent), want);
					},
				);
			}
		});
		// What n8n persisted from preAuthentication (the session credential logged in once or twice).
		const exported = await n8n.exportCredentials(instance);
		const stored = exported.find((c) => c.id === CRED.id).data;
		console.log(
			`--- preAuthentication persisted (logins: ${srv.logins()}): keys ${JSON.stringify(Object.keys(stored).sort())}`,
		);
		console.log(
			`     derived=${JSON.stringify(stored.derived)} unsetOption=${JSON.stringify(stored.unsetOption)} extraKey=${JSON.stringify(stored.extraKey)} accessToken=${JSON.stringify(stored.accessToken)}`,
		);
	} finally {
		unconnectable.stop();
		srv.server.close();
		await n8n.destroyInstance(instance);
		fs.rmSync(workDir, { recursive: true, force: true });
	}
	return {
		version,
		passed: results.filter(Boolean).length,
		failed: results.filter((r) => !r).length,
		shapes,
	};
}

async function main() {
	const i = process.argv.indexOf('--version');
	const versions = i > 0 ? [process.argv[i + 1]] : n8n.N8N_VERSIONS;
	if (!fs.existsSync(ERRORS_MODULE))
		throw new Error(`${ERRORS_MODULE} missing: run "npm run build" first`);
	const out = [];
	for (const v of versions)
		out.push(await runVersion(v, { dump: process.argv.includes('--dump') }));
	console.log('');
	for (const r of out) console.log(`n8n ${r.version}: ${r.passed} passed, ${r.failed} failed`);
	process.exitCode = out.some((r) => r.failed) ? 1 : 0;
}

main().catch((err) => {
	console.error(err);
	process.exitCode = 1;
});
