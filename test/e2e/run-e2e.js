#!/usr/bin/env node
'use strict';
/**
 * End-to-end run of this package inside real n8n runtimes, headless: the same checks against
 * every version in n8n.N8N_VERSIONS (2.41.1, then 1.123.81), one after another.
 *
 *   npm run test:e2e                      (= npm run build && node test/e2e/run-e2e.js)
 *   node test/e2e/run-e2e.js [--build]    (--build runs `npm run build` first)
 *   node test/e2e/run-e2e.js --tarball f.tgz   (test a given tarball, e.g. a published version)
 *   node test/e2e/run-e2e.js --version 1.123.81   (one version; also --version=a,b;
 *                                          env N8N_E2E_N8N_VERSION=1.123.81 does the same)
 *
 * Once: `npm pack` of this package (or the given tarball). Then per n8n version:
 * 1. the cached n8n runtime of that version (setup-n8n.sh via n8n.ensureRuntime; cold install
 *    on first use, cached per version);
 * 2. the tarball installed as a community package into a fresh
 *    N8N_USER_FOLDER/.n8n/nodes (the way Settings > Community Nodes does it);
 * 3. a fresh emulator of the Work Order Service in this process; credentials of every kind imported
 *    into n8n's encrypted store, the example workflows (examples/*.json) plus three e2e workflows
 *    imported, each run with `n8n execute --id=... --rawOutput`;
 * 4. assertions on n8n's result JSON, on the emulator's request log and state, and on the
 *    credentials n8n persisted (export:credentials --decrypted).
 *
 * One line per check ("ok   ..." / "FAIL ..."), timings, a result line per version, and a closing
 * line `e2e: N passed, M failed` over all versions. Exit code 1 on any failure. Only 127.0.0.1 traffic.
 * N8N_E2E_KEEP=1 keeps the n8n user folder for debugging.
 *
 * One step alone, several times in a row (e.g. to show that it does not flake):
 *   E2E_ONLY=alarm E2E_REPEAT=10 node test/e2e/run-e2e.js --version 2.41.1
 * E2E_ONLY takes the steps after the main checks (trigger, agent, webhook, alarm, proposals; a
 * comma list); the main checks are then skipped. Each check is named with its run ("[run 3/10]").
 */

const assert = require('node:assert/strict');
const { spawnSync } = require('node:child_process');
const crypto = require('node:crypto');
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');

const n8n = require('./n8n');
const { startEmulator } = require('../emulator');
const { demoCredentials } = require('../../examples/demo-credentials');

const { runTriggerE2E } = require('../trigger/e2e-trigger');
const { runAgentE2E } = require('./ai-agent');
const { runWebhookE2E } = require('../webhook/e2e-webhook');

const ROOT = path.resolve(__dirname, '..', '..');
const EXAMPLES = path.join(ROOT, 'examples');
const PKG = 'n8n-nodes-work-order-service';
const NODE_TYPE = `${PKG}.workOrderService`;
const CREDENTIAL_TYPES = [
	'workOrderServiceApi',
	'workOrderServiceOAuth2Api',
	'workOrderServiceContractorApi',
];
const ENCRYPTION_KEY = 'wos-e2e-fixed-encryption-key-0123456789';
// n8n's OAuth2 callback URL for an instance on localhost:5678 (registered for the emulator's clients).
const OAUTH_REDIRECT_URI = 'http://localhost:5678/rest/oauth2-credential/callback';
const TWO_53 = 2n ** 53n;

// ------------------------------------------------------------------ small helpers
const started = Date.now();
/** The checks of the current section (the package, then one n8n version after another). */
let results = [];
/** Runs one check; never throws. Returns whether it passed. */
async function check(name, fn) {
	const t = Date.now();
	try {
		await fn();
		results.push({ name, ok: true });
		console.log(`ok   ${name} (${Date.now() - t} ms)`);
		return true;
	} catch (err) {
		results.push({ name, ok: false });
		console.log(
			`FAIL ${name} (${Date.now() - t} ms)\n${String(err && err.stack ? err.stack : err).replace(/^/gm, '     ')}`,
		);
		return false;
	}
}

function readExample(file) {
	return JSON.parse(fs.readFileSync(path.join(EXAMPLES, file), 'utf8'));
}

function basic(id, secret) {
	return `Basic ${Buffer.from(`${id}:${secret}`, 'utf8').toString('base64')}`;
}

function bearerOf(entry) {
	const m = /^Bearer (.+)$/i.exec(entry.headers.authorization || '');
	return m ? m[1] : null;
}

const isTokenRequest = (r) => r.path.startsWith('/auth/');
const isApiRequest = (r) => r.path.startsWith('/api/');

/** Newest mtime of the source files vs. their compiled counterparts in dist/. */

/** Log in through the emulator's authorize form and exchange the code the way n8n's callback does. */
async function authorizationCodeGrant(emu, user, client) {
	const { ClientOAuth2 } = require(path.join(ROOT, 'node_modules', '@n8n', 'client-oauth2'));
	const state = crypto.randomBytes(12).toString('base64url');
	// Same options n8n 2.41 builds in OAuth2CredentialController.convertCredentialToOptions for this
	// credential type: header client auth, scope '' (hidden, empty) split on ','.
	const oauth = new ClientOAuth2({
		clientId: client.clientId,
		clientSecret: client.clientSecret,
		accessTokenUri: `${emu.authUrl}/oauth/token`,
		authorizationUri: `${emu.authUrl}/oauth/authorize`,
		authentication: 'header',
		redirectUri: OAUTH_REDIRECT_URI,
		scopes: [''],
		scopesSeparator: ' ',
	});
	const authorizeUrl = oauth.code.getUri({ state });

	// 1. GET the authorize URL: the login form.
	const page = await fetch(authorizeUrl, { redirect: 'manual' });
	const html = await page.text();
	assert.equal(page.status, 200, `GET authorize: ${page.status} ${html.slice(0, 200)}`);
	const form = /<form[^>]*method="post"[^>]*action="([^"]+)"[^>]*>([\s\S]*?)<\/form>/i.exec(html);
	assert.ok(form, 'the authorize page has a login form');
	const unescape = (s) =>
		s
			.replace(/&quot;/g, '"')
			.replace(/&#39;/g, "'")
			.replace(/&lt;/g, '<')
			.replace(/&gt;/g, '>')
			.replace(/&amp;/g, '&');
	const fields = new URLSearchParams();
	for (const m of form[2].matchAll(/<input type="hidden" name="([^"]*)" value="([^"]*)">/g))
		fields.append(unescape(m[1]), unescape(m[2]));
	fields.set('username', user.username);
	fields.set('password', user.password);

	// 2. POST the form: 302 to the callback with code and state.
	const action = new URL(unescape(form[1]), emu.origin).toString();
	const posted = await fetch(action, {
		method: 'POST',
		headers: { 'content-type': 'application/x-www-form-urlencoded' },
		body: fields.toString(),
		redirect: 'manual',
	});
	const location = posted.headers.get('location');
	assert.equal(
		posted.status,
		302,
		`POST login form: ${posted.status} ${(await posted.text()).slice(0, 200)}`,
	);
	const callback = new URL(location);
	assert.equal(
		`${callback.origin}${callback.pathname}`,
		OAUTH_REDIRECT_URI,
		'redirected to the registered n8n callback',
	);
	assert.equal(callback.searchParams.get('state'), state, 'state comes back unchanged');
	assert.ok(callback.searchParams.get('code'), 'code in the callback');

	// 3. Exchange the code (Basic client header, redirect_uri), as n8n's callback handler does.
	const token = await oauth.code.getToken(location, { state });
	const data = { ...token.data };
	// n8n's callback stores the raw token response plus n8n_expires_at.
	const expiresIn = Number(data.expires_in);
	if (Number.isFinite(expiresIn) && expiresIn > 0)
		data.n8n_expires_at = String(Date.now() + expiresIn * 1000);
	return { data, authorizeUrl, callback: location };
}

// ------------------------------------------------------------------ e2e-only workflows
const START = {
	id: 'e2e00000-0000-4000-8000-000000000001',
	name: 'Start',
	type: 'n8n-nodes-base.manualTrigger',
	typeVersion: 1,
	position: [0, 0],
	parameters: {},
};
function chain(id, name, nodes) {
	const all = [
		START,
		...nodes.map((n, i) => ({
			id: `e2e00000-0000-4000-8000-${String(i + 2).padStart(12, '0')}`,
			position: [240 * (i + 1), 0],
			...n,
		})),
	];
	const connections = {};
	for (let i = 0; i < all.length - 1; i++)
		connections[all[i].name] = { main: [[{ node: all[i + 1].name, type: 'main', index: 0 }]] };
	return { id, name, nodes: all, connections, settings: { executionOrder: 'v1' } };
}

const OAUTH_CRED = {
	id: 'wosOAuthCodeE2e',
	name: 'Work Order Service OAuth2 (emulator, code grant)',
};
const WF = {
	unknown: 'wosE2eUnknownType',
	http: 'wosE2eHttpRequest',
	oauth: 'wosE2eOAuth2',
	batchStop: 'wosE2eBatchStops',
};
/** Four notes, one at a time; item 1 on a work order that does not exist (issue 19). */
const BATCH_STOP_ITEMS = [90000002, 99999999, 90000002, 90000002].map((wo, k) => ({
	wo,
	text: `e2e batch stop ${k}`,
}));

function e2eWorkflows(emu, passwordCred) {
	return [
		chain(WF.unknown, 'e2e: unknown node type of the package', [
			{
				name: 'Missing',
				type: `${PKG}.workOrderServiceDoesNotExist`,
				typeVersion: 1,
				parameters: {},
			},
		]),
		chain(WF.http, 'e2e: HTTP Request node with the workOrderServiceApi credential', [
			{
				name: 'Page API (not covered by the node)',
				type: 'n8n-nodes-base.httpRequest',
				typeVersion: 4.2,
				parameters: {
					url: `${emu.baseUrl}/v3/workorders?page=1&pageSize=5`,
					authentication: 'predefinedCredentialType',
					nodeCredentialType: 'workOrderServiceApi',
					options: {},
				},
				credentials: { workOrderServiceApi: passwordCred },
			},
			{
				name: 'Duplicates at location 502',
				type: 'n8n-nodes-base.httpRequest',
				typeVersion: 4.2,
				executeOnce: true, // the page API answers a bare WorkOrder[]: one item per work order before this node
				parameters: {
					url: `${emu.baseUrl}/v3/odata/locations(502)/workorders/Service.GetDuplicates()`,
					authentication: 'predefinedCredentialType',
					nodeCredentialType: 'workOrderServiceApi',
					options: {},
				},
				credentials: { workOrderServiceApi: passwordCred },
			},
		]),
		chain(WF.batchStop, 'e2e: a batch of notes that stops at item 1', [
			{
				name: 'Notes',
				type: 'n8n-nodes-base.set',
				typeVersion: 3.4,
				parameters: {
					mode: 'raw',
					jsonOutput: JSON.stringify({ list: BATCH_STOP_ITEMS }),
					options: {},
				},
			},
			{
				name: 'One per note',
				type: 'n8n-nodes-base.splitOut',
				typeVersion: 1,
				parameters: { fieldToSplitOut: 'list', options: {} },
			},
			{
				name: 'Create note',
				type: NODE_TYPE,
				typeVersion: 1,
				parameters: {
					authentication: 'password',
					resource: 'workOrderNote',
					operation: 'create',
					workOrderId: '={{ $json.wo }}',
					note: '={{ $json.text }}',
					requestOptions: { concurrency: 1 },
				},
				credentials: { workOrderServiceApi: passwordCred },
			},
		]),
		chain(WF.oauth, 'e2e: OAuth2 authorization-code credential', [
			{
				name: 'Get work order (OAuth2)',
				type: NODE_TYPE,
				typeVersion: 1,
				parameters: {
					authentication: 'oAuth2',
					resource: 'workOrder',
					operation: 'get',
					workOrderId: 90000001,
				},
				credentials: { workOrderServiceOAuth2Api: OAUTH_CRED },
			},
		]),
	];
}

// ------------------------------------------------------------------ main

/** The n8n versions to run: --version a[,b] (repeatable), else $N8N_E2E_N8N_VERSION, else all. */
function selectedVersions(argv) {
	const picked = [];
	argv.forEach((a, i) => {
		if (a === '--version' && argv[i + 1]) picked.push(...argv[i + 1].split(','));
		else if (a.startsWith('--version=')) picked.push(...a.slice('--version='.length).split(','));
	});
	if (!picked.length && process.env.N8N_E2E_N8N_VERSION)
		picked.push(...process.env.N8N_E2E_N8N_VERSION.split(','));
	const versions = [...new Set(picked.map((v) => v.trim()).filter(Boolean))];
	return versions.length ? versions : [...n8n.N8N_VERSIONS];
}

/** Build (with --build) and pack once; the tarball is installed into every n8n version. */
async function packTarball(workDir) {
	// ---- build + pack
	if (process.argv.includes('--build')) {
		const b = spawnSync('npm', ['run', 'build'], {
			cwd: ROOT,
			env: n8n.cleanNpmEnv(),
			stdio: ['ignore', 'inherit', 'inherit'],
		});
		if (b.status !== 0) throw new Error('npm run build failed');
	}
	let tarball = null;
	const tarballArg = process.argv.includes('--tarball')
		? process.argv[process.argv.indexOf('--tarball') + 1]
		: null;
	const checkTarballFiles = (files) => {
		assert.ok(files.includes('package.json'), 'package.json in tarball');
		assert.ok(
			files.includes('dist/nodes/WorkOrderService/WorkOrderService.node.js'),
			'node in tarball',
		);
		for (const c of [
			'WorkOrderServiceApi',
			'WorkOrderServiceOAuth2Api',
			'WorkOrderServiceContractorApi',
		]) {
			assert.ok(files.includes(`dist/credentials/${c}.credentials.js`), `${c} in tarball`);
		}
		assert.deepEqual(
			files.filter(
				(f) =>
					/^(test|nodes|credentials|examples)\//.test(f) ||
					(f.endsWith('.ts') && !f.endsWith('.d.ts')),
			),
			[],
		);
	};
	if (tarballArg) {
		await check(
			`given tarball ${path.basename(tarballArg)} holds the node and its 3 credentials`,
			async () => {
				const t = spawnSync('tar', ['-tzf', tarballArg], { encoding: 'utf8' });
				assert.equal(t.status, 0, t.stderr);
				checkTarballFiles(
					t.stdout
						.split('\n')
						.filter(Boolean)
						.map((f) => f.replace(/^package\//, '')),
				);
				tarball = path.resolve(tarballArg);
			},
		);
	} else {
		await check('dist/ is built from the current sources', async () => {
			const stale = n8n.staleDistFiles();
			assert.deepEqual(
				stale,
				[],
				`run "npm run build" first (stale or missing in dist/: ${stale.slice(0, 5).join(', ')})`,
			);
		});
		await check(
			'npm pack: the tarball holds the node, its 3 credentials and nothing of src/test',
			async () => {
				const packed = n8n.packPackage(workDir);
				const { info } = packed;
				checkTarballFiles(info.files.map((f) => f.path));
				tarball = packed.tarball;
				console.log(
					`     ${info.filename}: ${info.files.length} files, ${(info.size / 1024).toFixed(0)} KiB`,
				);
			},
		);
	}
	return tarball;
}

/**
 * The steps that follow the main checks, each with its own n8n instance and emulator, by the name
 * E2E_ONLY takes (runVersion calls them in this order after the main checks).
 */
const SECTIONS = {
	trigger: (o) => runTriggerE2E(o),
	agent: (o) => runAgentE2E(o),
	webhook: (o) => runWebhookE2E(o),
	alarm: (o) => require('./alarm-workflow').runAlarmE2E(o),
	proposals: (o) => require('./proposal-workflows').runProposalWorkflowsE2E(o),
	invoices: (o) => require('./invoice-workflows').runInvoiceWorkflowsE2E(o),
	places: (o) => require('./places-workflow').runPlacesE2E(o),
};

/**
 * E2E_ONLY=alarm[,webhook...]: only those steps (not the main checks), E2E_REPEAT=N times in a row
 * (default 1), each check named with its run (`[run 3/10]`). Unset: everything once.
 */
function onlySections() {
	const only = (process.env.E2E_ONLY || '')
		.split(',')
		.map((s) => s.trim())
		.filter(Boolean);
	if (!only.length) return null;
	const unknown = only.filter((s) => !SECTIONS[s]);
	if (unknown.length)
		throw new Error(`E2E_ONLY: unknown ${unknown.join(', ')} (known: ${Object.keys(SECTIONS)})`);
	const repeat = Number(process.env.E2E_REPEAT || '1');
	if (!Number.isInteger(repeat) || repeat < 1)
		throw new Error(`E2E_REPEAT: a whole number of at least 1, not ${process.env.E2E_REPEAT}`);
	return { only, repeat };
}

/** E2E_ONLY's steps in one n8n version, E2E_REPEAT times; the checks go to `results`. */
async function runSectionsOnly(version, tarball, { only, repeat }) {
	const versionStarted = Date.now();
	let install = { kind: 'failed', ms: 0 };
	try {
		const setupLog = [];
		const runtime = await n8n.ensureRuntime({
			version,
			log: (line) => {
				setupLog.push(line);
				process.stderr.write(line);
			},
		});
		const kind = /\[setup-n8n\] cached/.test(setupLog.join('')) ? 'cached' : 'cold';
		install = { kind, ms: runtime.setupMs };
		for (let run = 1; run <= repeat; run++) {
			const label = repeat > 1 ? ` [run ${run}/${repeat}]` : '';
			const checkRun = (name, fn) => check(`${name}${label}`, fn);
			for (const name of only) {
				console.log(`\n--- ${name}${label}`);
				await SECTIONS[name]({ version, tarball, check: checkRun });
			}
		}
	} catch (err) {
		results.push({ name: 'setup', ok: false });
		console.log(`FAIL setup (n8n ${version})\n${String(err.stack || err).replace(/^/gm, '     ')}`);
	}
	return { install, runtimeDir: n8n.runtimeDir(version), wallMs: Date.now() - versionStarted };
}

/** Every check of the package inside one n8n version; the checks go to `results`. */
async function runVersion(version, tarball) {
	const sectionsOnly = onlySections();
	if (sectionsOnly) return await runSectionsOnly(version, tarball, sectionsOnly);
	const versionStarted = Date.now();
	let runtime = null;
	let install = { kind: 'failed', ms: 0 };
	let emu = null;
	let instance = null;
	const runs = [];
	try {
		// ---- runtime (cold install or cache hit), measured
		const setupLog = [];
		runtime = await n8n.ensureRuntime({
			version,
			log: (s) => {
				setupLog.push(s);
				process.stderr.write(s);
			},
		});
		const installKind = /\[setup-n8n\] cached/.test(setupLog.join('')) ? 'cached' : 'cold';
		install = { kind: installKind, ms: runtime.setupMs };
		console.log(
			`runtime: ${runtime.dir} — ${installKind} (ensureRuntime ${(runtime.setupMs / 1000).toFixed(1)} s)`,
		);

		// ---- emulator + n8n instance
		emu = await startEmulator({ port: 0 });
		const fx = emu.fixtures;
		instance = await n8n.createInstance({ encryptionKey: ENCRYPTION_KEY, runtime });
		console.log(`emulator: ${emu.origin}; n8n user folder: ${instance.userFolder}`);

		const runWorkflow = async (id) => {
			const mark = emu.requests.length;
			const run = await n8n.execute(instance, id);
			const requests = emu.requests.slice(mark);
			runs.push({ id, run, requests, ms: run.ms });
			if (!run.ok) {
				const why = run.crashed
					? `CRASHED (code ${run.code}, signal ${run.signal})`
					: run.timedOut
						? 'TIMED OUT'
						: `workflow error: ${run.errorMessage || `exit code ${run.code}`}`;
				const tail = (s) => s.split('\n').slice(-30).join('\n');
				throw new Error(
					`n8n execute --id=${id}: ${why}\n--- stdout ---\n${tail(run.stdout)}\n--- stderr ---\n${tail(run.stderr)}`,
				);
			}
			return {
				run,
				result: run.result,
				requests,
				out: (node, opts) => n8n.nodeOutput(run.result, node, opts),
			};
		};

		await check(
			'install: tarball installed as a community package in <N8N_USER_FOLDER>/.n8n/nodes (no peer deps)',
			async () => {
				const pkg = await n8n.installCommunityPackage(instance, tarball);
				assert.equal(pkg.packageName, PKG);
				const ledger = JSON.parse(
					fs.readFileSync(path.join(instance.nodesDir, 'package.json'), 'utf8'),
				);
				assert.equal(ledger.dependencies[PKG], pkg.version);
				const installed = JSON.parse(fs.readFileSync(path.join(pkg.dir, 'package.json'), 'utf8'));
				assert.equal(installed.peerDependencies, undefined);
				assert.ok(
					!fs.existsSync(path.join(instance.nodesDir, 'node_modules', 'n8n-workflow')),
					'n8n-workflow comes from n8n',
				);
			},
		);

		await check(
			`load: n8n export:nodes lists ${NODE_TYPE} with its 3 credential types, no load warnings`,
			async () => {
				const { types, warnings } = await n8n.exportNodeTypes(instance);
				assert.deepEqual(warnings, [], 'n8n warned while loading packages');
				const node = types.find((t) => t.name === NODE_TYPE);
				assert.ok(
					node,
					`${NODE_TYPE} not loaded; package types: ${types.filter((t) => t.name.startsWith(PKG)).map((t) => t.name)}`,
				);
				assert.equal(node.displayName, 'Work Order Service');
				assert.deepEqual(node.credentials.map((c) => c.name).sort(), [...CREDENTIAL_TYPES].sort());
				assert.ok(types.some((t) => t.name === 'n8n-nodes-base.httpRequest'));
			},
		);

		// OAuth2 code grant first, so every credential is imported in one call.
		let oauthInitial = null;
		await check(
			'OAuth2 code grant: logged in through the emulator form, code exchanged by @n8n/client-oauth2 (Basic + redirect_uri)',
			async () => {
				const mark = emu.requests.length;
				const { data } = await authorizationCodeGrant(emu, fx.users.subscriber, fx.clients.main);
				const reqs = emu.requests.slice(mark);
				const authz = reqs.filter((r) => r.path === '/auth/oauth/authorize');
				assert.deepEqual(
					authz.map((r) => `${r.method} ${r.status}`),
					['GET 200', 'POST 302'],
				);
				const tok = reqs.filter((r) => r.path === '/auth/oauth/token');
				assert.equal(tok.length, 1);
				assert.equal(tok[0].status, 200);
				assert.equal(tok[0].body.grant_type, 'authorization_code');
				assert.equal(tok[0].body.redirect_uri, OAUTH_REDIRECT_URI);
				assert.equal(
					tok[0].headers.authorization,
					basic(fx.clients.main.clientId, fx.clients.main.clientSecret),
				);
				assert.match(data.access_token, /^at_/);
				assert.match(data.refresh_token, /^rt_/);
				oauthInitial = data;
			},
		);

		const creds = demoCredentials(emu);
		const passwordCred = creds.find((c) => c.id === 'wosPasswordDemo');
		const passwordRef = { id: passwordCred.id, name: passwordCred.name };
		await check(
			"import: credentials of every kind into n8n's encrypted store; the example + 4 e2e workflows",
			async () => {
				const all = [...creds];
				if (oauthInitial) {
					all.push({
						...OAUTH_CRED,
						type: 'workOrderServiceOAuth2Api',
						// authUrl / accessTokenUrl deliberately absent: their defaults are expressions on
						// $self["authServerUrl"], which n8n must resolve itself.
						data: {
							clientId: fx.clients.main.clientId,
							clientSecret: fx.clients.main.clientSecret,
							authServerUrl: emu.authUrl,
							baseUrl: emu.baseUrl,
							oauthTokenData: oauthInitial,
						},
					});
				}
				await n8n.importCredentials(instance, all);
				const rows = await n8n.queryDatabase(
					instance,
					'select id, type, data from credentials_entity order by id',
				);
				assert.deepEqual(rows.map((r) => r.id).sort(), all.map((c) => c.id).sort());
				for (const r of rows) {
					assert.ok(
						!r.data.startsWith('{') &&
							!r.data.includes(fx.users.subscriber.password) &&
							!r.data.includes(fx.clients.main.clientSecret),
						`credential ${r.id} stored unencrypted`,
					);
				}
				// 07 and 09 (instant trigger, schedule) are activated by proposal-workflows.js; 08 is imported here, run by alarm-workflow.js
				const examples = fs
					.readdirSync(EXAMPLES)
					.filter((f) => /^0[1-68]-.*\.json$/.test(f))
					.sort();
				assert.equal(examples.length, 7, `examples: ${examples.join(', ')}`);
				const workflows = [...examples.map(readExample), ...e2eWorkflows(emu, passwordRef)];
				await n8n.importWorkflows(instance, workflows);
				const wfRows = await n8n.queryDatabase(instance, 'select id from workflow_entity');
				assert.deepEqual(wfRows.map((r) => r.id).sort(), workflows.map((w) => w.id).sort());
			},
		);

		await check(
			'load: a workflow with an unknown node type of the package fails ("Unrecognized node type")',
			async () => {
				const run = await n8n.execute(instance, WF.unknown);
				assert.equal(run.crashed, false, `crashed: code ${run.code} signal ${run.signal}`);
				assert.equal(run.ok, false);
				assert.equal(
					run.errorMessage,
					`Unrecognized node type: ${PKG}.workOrderServiceDoesNotExist`,
				);
			},
		);

		// ---- 01 checklist answers
		const windows = {};
		const photoB64 = JSON.parse(
			readExample('01-checklist-answers.json').nodes.find(
				(n) => n.name === 'Nameplate photo (base64)',
			).parameters.jsonOutput,
		).photo;
		const photo = Buffer.from(photoB64, 'base64');
		await check(
			'01 checklist: one answer of each type (acknowledgement, selector, text, numeric), one with a photo file',
			async () => {
				const before = emu.state.checklistResponses.length;
				const { out, requests } = await runWorkflow('wosDemoChecklist');
				windows['01'] = requests;
				const item = (node) => {
					const items = out(node);
					assert.equal(items.length, 1, `${node}: ${items.length} items`);
					return items[0];
				};
				const withPhoto = item('Nameplate photo taken (acknowledgement + photo)');
				assert.equal(withPhoto.CheckListResponse.CheckListQuestionId, 9105);
				assert.equal(withPhoto.CheckListResponse.Answer, 'yes');
				assert.equal(withPhoto.CheckListResponsePicture.DocumentName, 'nameplate.png');
				assert.equal(item('Filters replaced (acknowledgement)').CheckListResponse.Answer, 'true');
				const selector = item('Unit condition (selector)').CheckListResponse;
				assert.equal(selector.Answer, 'Needs repair');
				assert.equal(selector.FreeTextAnswer, 'Compressor contactor pitted; replacement quoted');
				assert.equal(
					item('Work performed (text entry)').CheckListResponse.Answer,
					'replaced both return-air filters and cleaned the condensate drain.',
				);
				assert.equal(
					item('Discharge air temperature (numeric input)').CheckListResponse.Answer,
					'55.5',
				);

				const stored = emu.state.checklistResponses.slice(before);
				assert.deepEqual(
					stored.map((r) => r.questionId),
					[9105, 9101, 9102, 9103, 9104],
				);
				assert.deepEqual(
					[...new Set(stored.map((r) => r.questionType))].length,
					4,
					'four question types answered',
				);
				assert.ok(
					stored.every(
						(r) => r.workOrderId === 90000001 && r.username === fx.users.subscriber.username,
					),
				);
				const file = stored[0].file;
				assert.ok(file, 'the emulator stored a file for question 9105');
				assert.equal(file.filename, 'nameplate.png');
				assert.equal(file.contentType, 'image/png');
				assert.equal(file.size, photo.length);
				assert.ok(
					Buffer.compare(file.data, photo) === 0,
					'stored bytes equal the PNG of the workflow',
				);
				assert.equal(file.sha256, crypto.createHash('sha256').update(photo).digest('hex'));
				assert.ok(
					stored.slice(1).every((r) => r.file === null),
					'only the first answer carries a file',
				);
				const upload = requests.find((r) => r.method === 'POST' && r.parts);
				const part = upload.parts.find((p) => p.filename);
				assert.equal(part.filename, 'nameplate.png');
				assert.equal(part.contentType, 'image/png');
			},
		);

		// ---- 02 proposals
		let run02 = null;
		await check(
			'02 proposals: approve 61001, reject 61002 (reason 1, alert list), hold + reopen 61007 — state in the emulator',
			async () => {
				run02 = await runWorkflow('wosDemoProposals');
				windows['02'] = run02.requests;
				const p = emu.state.proposals;
				assert.equal(p[61001].Status, 'Approved');
				assert.equal(p[61002].Status, 'Rejected');
				assert.equal(p[61002].RejectReasonCodeId, 1);
				assert.equal(p[61007].Status, 'Open');
				assert.deepEqual(
					p[61007].history.slice(-2).map((h) => h.to),
					['OnHold', 'Open'],
				);
				const n = emu.state.notifications.filter((x) => x.type === 'proposal');
				const reject = n.find((x) => x.proposalId === 61002 && x.action === 'reject');
				assert.ok(
					reject && reject.useProposalAlertEmails === true,
					'reject used the proposal-alert list',
				);
				assert.deepEqual(
					run02.out('Approve proposal 61001').map((i) => i.status),
					['approved'],
				);
				assert.deepEqual(
					run02.out('Reject proposal 61002 with reason and alert e-mails').map((i) => i.status),
					['rejected'],
				);
				assert.deepEqual(
					run02.out('Put proposal 61007 on hold').map((i) => i.status),
					['onHold'],
				);
				assert.deepEqual(
					run02.out('Reopen proposal 61007').map((i) => i.status),
					['open'],
				);
				assert.equal(run02.out('Rejection reasons').length, 5);
			},
		);

		await check(
			"02 proposals: over-limit approval of 61005 refused with the service's message, kept as an error item",
			async () => {
				assert.ok(run02, 'workflow 02 ran');
				const refused = run02.requests.filter((r) => r.path === '/api/v3/proposals/61005/approve');
				assert.equal(refused.length, 1, 'one attempt (a 400 refusal is not retried)');
				assert.equal(refused[0].status, 400);
				const answer = JSON.parse(refused[0].responseBody);
				assert.equal(
					answer.ErrorCode,
					100,
					"the reference's code for an amount over the approval limit",
				);
				const serviceMessage = answer.ErrorMessage;
				assert.match(serviceMessage, /exceeds your approval limit/);
				const items = run02.out('Approve proposal 61005 (over the approval limit)');
				assert.equal(items.length, 1);
				assert.equal(typeof items[0].error, 'string');
				assert.ok(
					items[0].error.startsWith(
						'The Work Order Service refused to approve proposal 61005 (400 Bad Request): ',
					),
					`error item: ${items[0].error}`,
				);
				assert.ok(
					items[0].error.includes(serviceMessage) && items[0].error.includes('(error code 100)'),
					`error item: ${items[0].error}`,
				);
				assert.equal(
					emu.state.proposals[61005].Status,
					'Open',
					'refused approval leaves the proposal open',
				);
				assert.equal(
					run02.result.data.resultData.lastNodeExecuted,
					'Rejection reasons',
					'the workflow went on',
				);
			},
		);

		// ---- 03 notes
		await check(
			'03 notes: note created with an ID above 2^53, read back by that ID, every digit intact',
			async () => {
				const { out, requests } = await runWorkflow('wosDemoNotes');
				windows['03'] = requests;
				const created = out('Create note')[0].id;
				assert.equal(typeof created, 'string', `id is a ${typeof created}: ${created}`);
				assert.match(created, /^\d+$/);
				assert.ok(BigInt(created) > TWO_53, `${created} is not above 2^53`);
				const stored = emu.notesOf(90000005).find((x) => x.Id === BigInt(created));
				assert.ok(stored, `the emulator has note ${created}`);
				assert.equal(out('Read the note back')[0].Id, created);
				const get = requests.find(
					(r) =>
						r.method === 'GET' && r.path === `/api/v3/odata/workorders(90000005)/notes(${created})`,
				);
				assert.ok(
					get && get.status === 200,
					`GET notes(${created}) of the exact id; GETs: ${requests.filter((r) => r.method === 'GET').map((r) => r.path)}`,
				);
				const attach = requests.find(
					(r) =>
						r.method === 'POST' &&
						r.path === `/api/v3/workorders/90000005/notes/${created}/attachments`,
				);
				assert.ok(attach && attach.status === 201, 'attachment posted to the exact id');
				assert.deepEqual(
					out('Attachments of the note').map((a) => [a.NoteId, a.Name]),
					[[created, 'nameplate.png']],
				);
				const all = out('All notes of the work order').map((x) => x.Id);
				assert.ok(
					all.includes(created) &&
						all.includes('9223372036854775807') &&
						all.includes('9007199254740993'),
					`notes: ${all}`,
				);
			},
		);

		// ---- 04 work orders
		await check(
			'04 work orders: check in/out, get, Return All = 120 work orders in 3 OData requests ($skip 0/50/100)',
			async () => {
				const { out, requests } = await runWorkflow('wosDemoWorkOrders');
				windows['04'] = requests;
				// the service answers CheckInOutResponse { MechanicId }; the node adds the write's keys
				assert.deepEqual(Object.keys(out('Check in')[0]), [
					'success',
					'operation',
					'workOrderId',
					'MechanicId',
				]);
				assert.equal(out('Check in')[0].workOrderId, 90000001);
				assert.equal(typeof out('Check out')[0].MechanicId, 'number');
				const wo = out('Get work order')[0];
				assert.equal(wo.Id, 90000001);
				// Simplify (on by default) keeps Status { Primary, Extended } of the service's { Primary, Extended, CanCreateInvoice }
				const { Primary, Extended } = emu.state.workOrders[90000001].Status;
				assert.deepEqual(wo.Status, { Primary, Extended });
				const list = out('All work orders (pages of 50)');
				assert.equal(list.length, 120);
				assert.equal(new Set(list.map((w) => w.Id)).size, 120);
				assert.deepEqual(
					list.map((w) => w.Id),
					Array.from({ length: 120 }, (_, i) => 90000001 + i),
				);
				const odata = requests.filter(
					(r) => r.method === 'GET' && r.path === '/api/v3/odata/workorders',
				);
				assert.deepEqual(
					odata.map((r) => r.query.$skip),
					['0', '50', '100'],
				);
				assert.ok(odata.every((r) => r.status === 200));
			},
		);

		// ---- token persistence through n8n's credential store
		let storedPasswordToken = null;
		await check(
			'token persistence: 01 then 02 (password credential) made exactly 1 token request; 03, 04 none; stored accessToken reused',
			async () => {
				for (const k of ['01', '02', '03', '04']) assert.ok(windows[k], `workflow ${k} ran`);
				const tokenReqs = (k) => windows[k].filter(isTokenRequest);
				assert.deepEqual(
					['01', '02', '03', '04'].map((k) => tokenReqs(k).length),
					[1, 0, 0, 0],
				);
				const [login] = tokenReqs('01');
				assert.equal(login.path, '/auth/oauth/token');
				assert.equal(login.body.grant_type, 'password');
				assert.equal(login.body.username, fx.users.subscriber.username);
				const issued = JSON.parse(login.responseBody).access_token;
				const bearers = new Set(
					['01', '02', '03', '04'].flatMap((k) => windows[k].filter(isApiRequest).map(bearerOf)),
				);
				assert.deepEqual(
					[...bearers],
					[issued],
					'every API call of the four executions used the one token',
				);
				const exported = await n8n.exportCredentials(instance);
				const c = exported.find((x) => x.id === passwordCred.id);
				assert.equal(c.data.accessToken, issued, 'n8n stored the token in the credential');
				assert.ok(c.data.refreshToken, 'refresh token stored too');
				assert.equal(c.data.password, fx.users.subscriber.password);
				storedPasswordToken = c.data.accessToken;
			},
		);

		// ---- 05 child subscriber
		const usedTokens = {};
		let finalExport = null;
		await check(
			'05 child subscriber: universal user lists children; credential scoped to 2001 reads its 6 work orders',
			async () => {
				const { out, requests } = await runWorkflow('wosDemoChildSubscriber');
				assert.deepEqual(
					out('Child subscribers of the universal user').map((s) => s.Id),
					[2001, 2002],
				);
				const wos = out('Work orders of child subscriber 2001');
				assert.deepEqual(
					wos.map((w) => w.Id),
					Array.from({ length: 6 }, (_, i) => 92001001 + i),
				);
				assert.ok(wos.every((w) => w.Subscriber.Id === 2001));
				// One password login per credential; the child credential then scopes its token to 2001.
				const tokens = requests.filter(isTokenRequest);
				const describeToken = (r) =>
					r.body.subsidiary_id !== undefined
						? `subsidiary ${r.body.subsidiary_id}`
						: `${r.body.grant_type} ${r.body.username}`;
				assert.deepEqual(
					tokens.map((r) => `${describeToken(r)} ${r.status}`),
					[
						`password ${fx.users.universal.username} 200`,
						`password ${fx.users.universal.username} 200`,
						'subsidiary 2001 200',
					],
				);
				assert.equal(
					bearerOf(tokens[2]),
					JSON.parse(tokens[1].responseBody).access_token,
					"child step with the universal user's token",
				);
				const scoped = requests.filter((r) => r.path === '/api/v3/odata/workorders');
				assert.ok(scoped.length >= 1);
				assert.ok(
					scoped.every((r) => bearerOf(r) === JSON.parse(tokens[2].responseBody).access_token),
					'work orders read with the child-scoped token',
				);
				const rec = emu.state.tokens.find((t) => t.token === bearerOf(scoped[0]));
				usedTokens.wosUniversalDemo = JSON.parse(tokens[0].responseBody).access_token;
				usedTokens.wosChildDemo = rec.token;
				assert.equal(rec.scope, 'subsidiary:2001');
				assert.equal(rec.subscriberId, 2001);
			},
		);

		// ---- 06 contractor
		await check(
			"06 contractor: JWT credential (one /auth/jwt/token request) reads its provider's work orders and notes",
			async () => {
				const { out, requests } = await runWorkflow('wosDemoContractor');
				const tokens = requests.filter(isTokenRequest);
				assert.deepEqual(
					tokens.map((r) => `${r.path} ${r.status}`),
					['/auth/jwt/token 200'],
				);
				assert.equal(
					tokens[0].headers.authorization,
					basic(fx.clients.main.clientId, fx.clients.main.clientSecret),
				);
				const api = requests.filter(isApiRequest);
				assert.ok(
					api.length >= 2 && api.every((r) => r.tokenKind === 'jwt' && r.status === 200),
					'API calls with the JWT',
				);
				assert.equal(bearerOf(api[0]).split('.').length, 3);
				assert.equal(tokens[0].body.username, fx.users.contractor.username);
				assert.equal(tokens[0].body.grant_type, undefined, 'no grant_type on the JWT endpoint');
				usedTokens.wosContractorDemo = bearerOf(api[0]);
				const wos = out('Work orders visible to the contractor');
				assert.equal(wos.length, 5);
				assert.ok(wos.every((w) => w.Provider.Id === 3001));
				assert.ok(out('Notes of work order 90000005').length >= 4);
			},
		);

		// ---- n8n's HTTP Request node with this package's credential
		await check(
			'HTTP Request node, predefined credential workOrderServiceApi: page API + GetDuplicates() authorised with the stored token',
			async () => {
				const { out, requests } = await runWorkflow(WF.http);
				assert.equal(requests.filter(isTokenRequest).length, 0, 'the stored token is reused');
				const api = requests.filter(isApiRequest);
				assert.deepEqual(
					api.map((r) => `${r.method} ${r.path} ${JSON.stringify(r.query)} ${r.status}`),
					[
						'GET /api/v3/workorders {"page":"1","pageSize":"5"} 200',
						'GET /api/v3/odata/locations(502)/workorders/Service.GetDuplicates() {} 200',
					],
				);
				assert.ok(storedPasswordToken, 'stored token known from the persistence check');
				assert.ok(
					api.every((r) => r.headers.authorization === `Bearer ${storedPasswordToken}`),
					"Bearer = the credential's stored accessToken",
				);
				// GET /workorders answers WorkOrder[] (the reference): n8n makes one item of each
				const page = out('Page API (not covered by the node)');
				assert.deepEqual(
					page.map((w) => w.Id),
					Array.from({ length: 5 }, (_, i) => 90000001 + i),
				);
				assert.ok(
					page.every(
						(w) =>
							w.Location &&
							typeof w.Location.Name === 'string' &&
							w.Status &&
							'Primary' in w.Status,
					),
				);
				const [dups] = out('Duplicates at location 502');
				assert.deepEqual(dups.value.map((w) => w.Id).sort(), [90000011, 90000012]);
			},
		);

		// ---- issue 19: the error that stops a batch says what the service recorded, where n8n shows and stores it
		await check(
			'a batch that stops at item 1: the stored execution error names the item and says which notes were created and which not sent',
			async () => {
				const mark = emu.requests.length;
				const run = await n8n.execute(instance, WF.batchStop);
				runs.push({ id: WF.batchStop, run, requests: emu.requests.slice(mark), ms: run.ms });
				assert.ok(!run.ok && !run.crashed && !run.timedOut, 'the execution failed (not crashed)');
				const error = run.result?.data?.resultData?.error;
				assert.ok(error, 'resultData.error stored');
				assert.match(error.message, /404 Not Found to POST \/workorders\/99999999\/notes/);
				for (const text of [
					'Item 1 of 4 failed; it was not created.',
					'Item 0 was created (the service recorded it).',
					'Items 2-3 were not sent',
					'run only the items that were not created (items 1-3)',
				]) {
					assert.ok(
						String(error.description).includes(text),
						`description lacks "${text}": ${error.description}`,
					);
				}
				const nodeRun = run.result.data.resultData.runData['Create note'][0];
				assert.equal(
					nodeRun.error.description,
					error.description,
					"the node's run data keeps the same description",
				);
				const created = emu
					.notesOf(90000002)
					.map((n) => n.NoteData)
					.filter((t) => String(t).startsWith('e2e batch stop'));
				assert.deepEqual(created, ['e2e batch stop 0']);
			},
		);

		// ---- OAuth2 authorization-code credential: use, expire, refresh
		let oauthRun1Token = null;
		await check(
			'OAuth2 credential: workflow runs with the imported oauthTokenData (no token request)',
			async () => {
				assert.ok(oauthInitial, 'tokens obtained');
				const { out, requests } = await runWorkflow(WF.oauth);
				assert.equal(requests.filter(isTokenRequest).length, 0);
				const api = requests.filter(isApiRequest);
				assert.deepEqual(
					api.map((r) => `${r.method} ${r.path} ${r.status}`),
					['GET /api/v3/workorders/90000001 200'],
				);
				assert.equal(bearerOf(api[0]), oauthInitial.access_token);
				assert.equal(out('Get work order (OAuth2)')[0].Id, 90000001);
				oauthRun1Token = oauthInitial.access_token;
			},
		);

		await check(
			'OAuth2 credential: access token expired in the emulator -> n8n refreshes (refresh_token + Basic), retries, persists new oauthTokenData',
			async () => {
				assert.ok(oauthRun1Token, 'first OAuth2 run passed');
				emu.expireAccessTokens();
				const { out, requests } = await runWorkflow(WF.oauth);
				const seq = requests.map((r) => `${r.method} ${r.path} ${r.status}`);
				assert.deepEqual(seq, [
					'GET /api/v3/workorders/90000001 401',
					'POST /auth/oauth/token 200',
					'GET /api/v3/workorders/90000001 200',
				]);
				const [expired, refresh, retried] = requests;
				assert.equal(bearerOf(expired), oauthInitial.access_token);
				assert.deepEqual(
					JSON.parse(expired.responseBody).ErrorCodes,
					[1010, 1003],
					'refused as expired',
				);
				assert.equal(refresh.body.grant_type, 'refresh_token');
				assert.equal(refresh.body.refresh_token, oauthInitial.refresh_token);
				assert.equal(
					refresh.headers.authorization,
					basic(fx.clients.main.clientId, fx.clients.main.clientSecret),
				);
				assert.equal(refresh.body.client_secret, undefined, 'no client secret in the body');
				const issued = JSON.parse(refresh.responseBody);
				assert.equal(bearerOf(retried), issued.access_token);
				assert.equal(out('Get work order (OAuth2)')[0].Id, 90000001);
				const exported = await n8n.exportCredentials(instance);
				finalExport = exported;
				const c = exported.find((x) => x.id === OAUTH_CRED.id);
				assert.equal(
					c.data.oauthTokenData.access_token,
					issued.access_token,
					'new access token stored',
				);
				assert.equal(
					c.data.oauthTokenData.refresh_token,
					issued.refresh_token,
					'rotated refresh token stored',
				);
				assert.notEqual(c.data.oauthTokenData.refresh_token, oauthInitial.refresh_token);
				// The hidden authUrl/accessTokenUrl were never stored: n8n resolved their $self["authServerUrl"] defaults.
				assert.equal(c.data.accessTokenUrl, undefined);
				assert.equal(c.data.authUrl, undefined);
				// The password credential's token is unchanged (the HTTP Request node check used it).
				assert.equal(
					exported.find((x) => x.id === passwordCred.id).data.accessToken,
					storedPasswordToken,
				);
			},
		);

		await check(
			'credential store: the universal, child-subscriber and contractor credentials hold the tokens they used (JWT for the contractor)',
			async () => {
				assert.ok(finalExport, 'credentials exported after the OAuth2 refresh');
				for (const id of ['wosUniversalDemo', 'wosChildDemo', 'wosContractorDemo']) {
					assert.ok(usedTokens[id], `${id} ran`);
					const c = finalExport.find((x) => x.id === id);
					assert.equal(c.data.accessToken, usedTokens[id], `${id}: stored accessToken`);
				}
				assert.equal(
					finalExport.find((x) => x.id === 'wosChildDemo').data.tokenScope,
					'subsidiary:2001',
				);
			},
		);

		// ---- overall
		await check('no n8n process crashed or timed out; the emulator answered no 5xx', async () => {
			const bad = instance.timings.filter(
				(t) => t.signal || (typeof t.code === 'number' && t.code >= 128),
			);
			assert.deepEqual(bad, []);
			assert.ok(runs.every((r) => !r.run.crashed && !r.run.timedOut));
			const errors = emu.requests.filter((r) => r.status === null || r.status >= 500);
			assert.deepEqual(
				errors.map((r) => `${r.method} ${r.path} ${r.status}`),
				[],
			);
		});

		// ---- the trigger: workflows activated in a running n8n (`n8n start`), its own instance and emulator
		await runTriggerE2E({ version, tarball, check });

		// ---- the node as an AI agent's tool: AI Agent + OpenAI Chat Model against a scripted model server
		await runAgentE2E({ version, tarball, check });

		// ---- the instant (webhook) trigger: registered at activation, deliveries from the emulator, restart, deactivation
		await runWebhookE2E({ version, tarball, check });

		// ---- issue 27 workflow (2): another system's webhook call -> create, attach, note (examples/08-alarm-to-work-order.json)
		await require('./alarm-workflow').runAlarmE2E({ version, tarball, check });
		// ---- issue 27's workflows (1) and (3): examples 07 and 09 activated in a running n8n
		await require('./proposal-workflows').runProposalWorkflowsE2E({ version, tarball, check });
		// ---- issue 33's workflows: examples 10 (invoice within the NTE) and 11 (pay approved invoices)
		await require('./invoice-workflows').runInvoiceWorkflowsE2E({ version, tarball, check });
		await require('./places-workflow').runPlacesE2E({ version, tarball, check }); // issue 34: examples/12
	} catch (err) {
		results.push({ name: 'setup', ok: false });
		console.log(`FAIL setup (n8n ${version})\n${String(err.stack || err).replace(/^/gm, '     ')}`);
	} finally {
		if (runs.length) {
			console.log(
				`\nexecutions (n8n ${version}): workflow, result, wall ms, requests to the emulator (token endpoints)`,
			);
			for (const r of runs) {
				const state = r.run.ok
					? 'success'
					: r.run.crashed
						? `CRASHED ${r.run.code ?? r.run.signal}`
						: `failed (${r.run.errorMessage})`;
				console.log(
					`  ${r.id.padEnd(24)} ${state.padEnd(8)} ${String(r.ms).padStart(6)}  ${r.requests.length} (${r.requests.filter(isTokenRequest).length})`,
				);
			}
		}
		if (instance) {
			console.log(`\nn8n ${version} calls (ms):`);
			for (const t of instance.timings)
				console.log(
					`  ${String(t.ms).padStart(6)}  code=${t.code}${t.signal ? ` signal=${t.signal}` : ''}  ${t.command}`,
				);
			const exec = instance.timings.filter((t) => t.command.startsWith('execute'));
			if (exec.length)
				console.log(
					`  execute: ${exec.length} runs, ${(exec.reduce((s, t) => s + t.ms, 0) / exec.length / 1000).toFixed(1)} s average`,
				);
			await n8n.destroyInstance(instance);
		}
		if (emu) {
			console.log(
				`emulator: ${emu.requests.length} requests, ${emu.tokenRequests().length} to the token endpoints`,
			);
			await emu.close();
		}
	}
	return {
		install,
		runtimeDir: runtime?.dir ?? n8n.runtimeDir(version),
		wallMs: Date.now() - versionStarted,
	};
}

// ------------------------------------------------------------------ main
async function main() {
	const versions = selectedVersions(process.argv.slice(2));
	const unknown = versions.filter((v) => !n8n.N8N_VERSIONS.includes(v));
	console.log(
		`e2e: ${PKG} in real n8n ${versions.join(', ')}${unknown.length ? ` (not in the supported list ${n8n.N8N_VERSIONS.join(', ')}: ${unknown.join(', ')})` : ''}`,
	);
	const sections = [];

	console.log('\n=== package');
	const workDir = fs.mkdtempSync(path.join(os.tmpdir(), 'wos-e2e-pack-'));
	let tarball = null;
	results = [];
	try {
		tarball = await packTarball(workDir);
		if (!tarball) throw new Error('no tarball; cannot go on');
	} catch (err) {
		results.push({ name: 'setup', ok: false });
		console.log(`FAIL setup\n${String(err.stack || err).replace(/^/gm, '     ')}`);
	}
	sections.push({ name: 'package', results, wallMs: Date.now() - started });

	try {
		if (tarball) {
			for (const version of versions) {
				console.log(`\n=== n8n ${version} (Node ${n8n.NODE_VERSION})`);
				results = [];
				const info = await runVersion(version, tarball);
				sections.push({ name: `n8n ${version}`, version, results, ...info });
				const ok = results.filter((r) => r.ok).length;
				console.log(
					`\nn8n ${version}: ${ok} passed, ${results.length - ok} failed — runtime ${info.install.kind} ${(info.install.ms / 1000).toFixed(1)} s, wall ${(info.wallMs / 1000).toFixed(1)} s`,
				);
			}
		}
	} finally {
		fs.rmSync(workDir, { recursive: true, force: true });
	}

	console.log('\nsummary:');
	for (const s of sections) {
		const ok = s.results.filter((r) => r.ok).length;
		const extra = s.install
			? ` (runtime ${s.install.kind} ${(s.install.ms / 1000).toFixed(1)} s, wall ${(s.wallMs / 1000).toFixed(1)} s, ${s.runtimeDir})`
			: '';
		console.log(
			`  ${s.name.padEnd(15)} ${String(ok).padStart(2)} passed, ${s.results.length - ok} failed${extra}`,
		);
		for (const r of s.results.filter((x) => !x.ok)) console.log(`      FAIL ${r.name}`);
	}
	if (!tarball) console.log(`  not run (no tarball): n8n ${versions.join(', ')}`);
	const all = sections.flatMap((s) => s.results);
	const passed = all.filter((r) => r.ok).length;
	const failed = all.length - passed;
	console.log(
		`e2e wall time: ${((Date.now() - started) / 1000).toFixed(1)} s (n8n ${versions.join(', ')}; Node ${n8n.NODE_VERSION})`,
	);
	console.log(`e2e: ${passed} passed, ${failed} failed`);
	process.exitCode = failed ? 1 : 0;
}

main().catch((err) => {
	console.error(err);
	console.log('e2e: 0 passed, 1 failed');
	process.exitCode = 1;
});
