#!/usr/bin/env node
'use strict';
/**
 * Try the package in a real n8n, in one command:
 *
 *   npm run dev                          (= npm run build && node examples/dev.js)
 *   npm run dev -- --port 5679           n8n's port (default 5678)
 *   npm run dev -- --emulator-port 8788  the emulator's port (default 8787; the credentials are rewritten)
 *   npm run dev -- --fresh               start from an empty n8n user folder (forgets your workflows)
 *   npm run dev -- --check               start, check, stop (CI): see below
 *
 * What it does:
 *   1. the n8n runtime: n8n 2.41.1 with its own Node.js 24 in ~/.cache/n8n-nodes-work-order-service
 *      (installed by test/e2e/setup-n8n.sh on first use: a few minutes, about 3 GB; cached afterwards;
 *      N8N_E2E_CACHE_DIR moves it, N8N_E2E_N8N_VERSION=1.123.81 picks the other tested version);
 *   2. `npm pack` of this clone (built by `npm run build`), installed as a community package in an
 *      n8n user folder of this clone's own, kept between runs (so your own workflows stay) beside the
 *      runtime: ~/.cache/n8n-nodes-work-order-service/dev/<clone folder>-<hash>/user. Not inside the
 *      clone: n8n copies its editor's files (about 700 .js files) into <user folder>/.cache, and
 *      `npm run lint` (`eslint .`, n8n's default config, which only ignores dist/) would lint them;
 *   3. the emulator of the Work Order Service on http://127.0.0.1:8787;
 *   4. the demo credentials of examples/credentials.json and one of the emulator's administrator
 *      (for the instant trigger) imported (each start: they point at the emulator), and the example
 *      workflows examples/0*.json imported (on the first start);
 *   5. `n8n start` on http://localhost:5678, the owner account set up on the first start;
 *   6. prints the editor URL, the owner's login, the credentials it imported, what a credential of
 *      your own takes (URLs as the fields want them, client ID and secret) and the emulator's logins
 *      (which one is an administrator), and runs until Ctrl+C, which stops n8n and the emulator.
 *
 * --check (CI): the same in a fresh user folder with free ports, then over HTTP: logs in as the owner,
 * checks that the editor's node types (/types/nodes.json) list the package's nodes, runs the example
 * workflow "04-work-orders" through n8n's REST API (POST /rest/workflows/:id/run) and checks its
 * execution (GET /rest/executions/:id) and the requests the emulator received; then stops everything.
 * Prints `dev check: N passed, M failed`; exit code 1 on a failure.
 */

const assert = require('node:assert/strict');
const fs = require('node:fs');
const fsp = require('node:fs/promises');
const path = require('node:path');

const n8n = require('../test/e2e/n8n');
const { startEmulator } = require('../test/emulator');
const { adminCredential, demoCredentials } = require('./demo-credentials');

const ROOT = path.resolve(__dirname, '..');
/** This clone's own folder for `npm run dev`, beside the n8n runtimes (see 2. above). */
const DEV_DIR = path.join(
	path.dirname(n8n.runtimeDir()),
	'dev',
	`${path.basename(ROOT)}-${require('node:crypto').createHash('sha256').update(ROOT).digest('hex').slice(0, 8)}`,
);
const PKG = require('../package.json');
const NODE_TYPES = [
	`${PKG.name}.workOrderService`,
	`${PKG.name}.workOrderServiceTrigger`,
	`${PKG.name}.workOrderServicePollingTrigger`,
];
const ENCRYPTION_KEY = 'wos-dev-encryption-key-not-for-production';
/** The owner account `npm run dev` sets up (a local demo n8n on 127.0.0.1 only). */
const OWNER = Object.freeze({
	email: 'owner@example.com',
	firstName: 'Demo',
	lastName: 'Owner',
	password: 'WorkOrders-Demo-1',
});
const CHECK_WORKFLOW = 'wosDemoWorkOrders';

// ------------------------------------------------------------------ options
function parseArgs(argv) {
	const opts = { port: 5678, emulatorPort: 8787, check: false, fresh: false };
	for (let i = 0; i < argv.length; i++) {
		const [flag, inline] = argv[i].split('=', 2);
		const value = () => (inline !== undefined ? inline : argv[++i]);
		if (flag === '--check') opts.check = true;
		else if (flag === '--fresh') opts.fresh = true;
		else if (flag === '--port') opts.port = Number(value());
		else if (flag === '--emulator-port') opts.emulatorPort = Number(value());
		else if (flag === '--help' || flag === '-h') opts.help = true;
		else throw new Error(`unknown option ${argv[i]} (see --help)`);
	}
	for (const k of ['port', 'emulatorPort']) {
		if (!Number.isInteger(opts[k]) || opts[k] < 0 || opts[k] > 65535)
			throw new Error(`invalid --${k === 'port' ? 'port' : 'emulator-port'}: ${opts[k]}`);
	}
	return opts;
}

function sleep(ms) {
	return new Promise((resolve) => setTimeout(resolve, ms));
}

/** fetch on 127.0.0.1 with a cookie jar of one cookie; resolves { status, json, text, headers }. */
async function http(url, { method = 'GET', body, cookie, timeoutMs = 15_000 } = {}) {
	const res = await fetch(url, {
		method,
		headers: {
			...(body ? { 'content-type': 'application/json' } : {}),
			...(cookie ? { cookie } : {}),
		},
		body: body ? JSON.stringify(body) : undefined,
		redirect: 'manual',
		signal: AbortSignal.timeout(timeoutMs),
	});
	const text = await res.text();
	let json = null;
	try {
		json = JSON.parse(text);
	} catch {
		/* not JSON */
	}
	return { status: res.status, json, text, headers: res.headers };
}

/** Whether 127.0.0.1:port can be listened on right now. */
function portIsFree(port) {
	return new Promise((resolve) => {
		const srv = require('node:net').createServer();
		srv.once('error', () => resolve(false));
		srv.listen(port, '127.0.0.1', () => srv.close(() => resolve(true)));
	});
}

// ------------------------------------------------------------------ n8n start / stop
async function startN8n(instance, { port, logFile }) {
	const { spawn } = require('node:child_process');
	const editorUrl = `http://localhost:${port}`;
	const env = {
		...instance.env,
		N8N_PORT: String(port),
		N8N_LISTEN_ADDRESS: '127.0.0.1',
		N8N_HOST: 'localhost',
		N8N_PROTOCOL: 'http',
		N8N_EDITOR_BASE_URL: `${editorUrl}/`,
		WEBHOOK_URL: `${editorUrl}/`,
		N8N_SECURE_COOKIE: 'false',
		N8N_RUNNERS_MODE: 'internal',
	};
	// This run's part of the log (the file is appended to across runs).
	const logStart = fs.existsSync(logFile) ? fs.statSync(logFile).size : 0;
	const out = fs.openSync(logFile, 'a');
	const child = spawn(instance.runtime.node, [instance.runtime.n8nBin, 'start'], {
		cwd: instance.dir,
		env,
		stdio: ['ignore', out, out],
		detached: true, // own process group: stop() ends n8n and its task runner together
	});
	fs.closeSync(out);
	let exited = null;
	child.on('exit', (code, signal) => {
		exited = { code, signal };
	});
	const killGroup = (sig) => {
		try {
			process.kill(-child.pid, sig);
		} catch {
			/* gone */
		}
	};
	const onExit = () => killGroup('SIGKILL');
	process.on('exit', onExit);
	const log = () => {
		try {
			return fs.readFileSync(logFile).subarray(logStart).toString('utf8');
		} catch {
			return '';
		}
	};
	const logTail = () => log().split('\n').slice(-40).join('\n');
	const stop = async () => {
		process.removeListener('exit', onExit);
		if (!exited) killGroup('SIGTERM');
		const deadline = Date.now() + 20_000;
		while (!exited && Date.now() < deadline) await sleep(100);
		killGroup('SIGKILL');
		return exited;
	};
	const baseUrl = `http://127.0.0.1:${port}`;
	const deadline = Date.now() + 240_000;
	for (;;) {
		if (exited)
			throw new Error(
				`n8n start exited (${JSON.stringify(exited)}); the end of ${logFile}:\n${logTail()}`,
			);
		if (Date.now() > deadline) {
			await stop();
			throw new Error(
				`n8n did not answer on ${baseUrl} within 240 s; the end of ${logFile}:\n${logTail()}`,
			);
		}
		// Ready: this n8n said so in its own log (so that another server on the port cannot pass for
		// it), and its REST API answers.
		if (/Editor is now accessible/.test(log())) {
			try {
				const res = await http(`${baseUrl}/rest/settings`, { timeoutMs: 5_000 });
				if (res.status === 200)
					return { baseUrl, editorUrl, settings: res.json?.data ?? res.json, stop, child };
			} catch {
				/* not answering yet */
			}
		}
		await sleep(500);
	}
}

/** The owner account: set up on the first start, then logged in. Returns the session cookie. */
async function ensureOwner(baseUrl, settings) {
	if (settings?.userManagement?.showSetupOnFirstLoad) {
		const res = await http(`${baseUrl}/rest/owner/setup`, { method: 'POST', body: OWNER });
		if (res.status !== 200)
			throw new Error(`owner set-up: HTTP ${res.status} ${res.text.slice(0, 300)}`);
	}
	const login = await http(`${baseUrl}/rest/login`, {
		method: 'POST',
		body: { emailOrLdapLoginId: OWNER.email, email: OWNER.email, password: OWNER.password },
	});
	if (login.status !== 200) return null; // the owner changed the password in the editor: fine for a person
	const cookie = (login.headers.getSetCookie?.() ?? [login.headers.get('set-cookie') || ''])
		.map((c) => c.split(';')[0])
		.find((c) => c.startsWith('n8n-auth='));
	return cookie || null;
}

// ------------------------------------------------------------------ the check (--check)
async function runChecks({ server, cookie, emulator, instance, workflows }) {
	const results = [];
	const check = async (name, fn) => {
		const t = Date.now();
		try {
			await fn();
			results.push(true);
			console.log(`ok   ${name} (${Date.now() - t} ms)`);
		} catch (err) {
			results.push(false);
			console.log(
				`FAIL ${name} (${Date.now() - t} ms)\n${String(err && err.stack ? err.stack : err).replace(/^/gm, '     ')}`,
			);
		}
	};

	await check(`owner ${OWNER.email} logged in over HTTP (POST /rest/login)`, async () => {
		assert.ok(cookie, 'no n8n-auth cookie after logging in');
	});

	await check(
		`the editor's node types (GET /types/nodes.json) list ${NODE_TYPES.join(', ')}`,
		async () => {
			const res = await http(`${server.baseUrl}/types/nodes.json`, { cookie, timeoutMs: 60_000 });
			assert.equal(res.status, 200, `HTTP ${res.status}`);
			const types = Array.isArray(res.json) ? res.json : [];
			assert.ok(types.length > 100, `only ${types.length} node types`);
			for (const name of NODE_TYPES) {
				const t = types.find((x) => x.name === name);
				assert.ok(
					t,
					`${name} missing; package types: ${types.filter((x) => x.name.startsWith(PKG.name)).map((x) => x.name)}`,
				);
			}
			const node = types.find((x) => x.name === NODE_TYPES[0]);
			assert.equal(node.displayName, 'Work Order Service');
		},
	);

	await check(
		"the credentials of examples/credentials.json, the administrator's and the 6 example workflows are in n8n (GET /rest/credentials, /rest/workflows)",
		async () => {
			const creds = await http(`${server.baseUrl}/rest/credentials`, { cookie });
			assert.equal(creds.status, 200, `credentials: HTTP ${creds.status}`);
			const credIds = creds.json.data.map((c) => c.id);
			for (const c of [...demoCredentials(emulator), adminCredential(emulator)])
				assert.ok(credIds.includes(c.id), `credential ${c.id} missing: ${credIds}`);
			const wfs = await http(`${server.baseUrl}/rest/workflows`, { cookie });
			assert.equal(wfs.status, 200, `workflows: HTTP ${wfs.status}`);
			const wfIds = wfs.json.data.map((w) => w.id);
			for (const w of workflows)
				assert.ok(wfIds.includes(w.id), `workflow ${w.id} missing: ${wfIds}`);
		},
	);

	await check(
		'what it prints: every imported credential, the administrator login for the instant trigger, the API URL as the field wants it (without /v3)',
		async () => {
			const credentials = [...demoCredentials(emulator), adminCredential(emulator)];
			const text = credentialLines(emulator, credentials).join('\n');
			for (const c of credentials)
				assert.ok(text.includes(c.name), `credential ${c.name} not printed`);
			const admin = emulator.fixtures.users.manager;
			assert.match(
				text,
				new RegExp(
					`${admin.username} / ${admin.password.replace(/[#$]/g, '\\$&')} +ADMINISTRATOR \\("Super Admin"\\): the one for the instant trigger`,
				),
			);
			assert.match(text, new RegExp(`API Base URL +${emulator.baseUrl.replace(/[.]/g, '\\.')} `));
			assert.ok(!/\/v3\b/.test(text.replace('without /v3', '')), 'an URL with /v3 printed');
			assert.ok(
				text.includes(emulator.fixtures.clients.main.clientSecret),
				'the client secret printed',
			);
			// the URL printed is the one the imported credentials use, and the API answers under it + /v3
			for (const c of credentials) assert.equal(c.data.baseUrl, emulator.baseUrl);
			const res = await http(`${emulator.baseUrl}/v3/workorders/90000001`);
			assert.equal(
				res.status,
				401,
				`GET ${emulator.baseUrl}/v3/workorders/90000001 without a token: HTTP ${res.status}`,
			);
		},
	);

	await check(
		'example 04-work-orders runs in n8n (POST /rest/workflows/:id/run): 120 work orders in 3 pages, check-in/out, work order 90000001',
		async () => {
			const workflow = workflows.find((w) => w.id === CHECK_WORKFLOW);
			const trigger = workflow.nodes.find((n) => n.type === 'n8n-nodes-base.manualTrigger');
			const mark = emulator.requests.length;
			const run = await http(`${server.baseUrl}/rest/workflows/${CHECK_WORKFLOW}/run`, {
				method: 'POST',
				cookie,
				body: { workflowData: workflow, triggerToStartFrom: { name: trigger.name } },
				timeoutMs: 120_000,
			});
			assert.equal(run.status, 200, `run: HTTP ${run.status} ${run.text.slice(0, 500)}`);
			const executionId = run.json?.data?.executionId;
			assert.ok(executionId, `no executionId: ${run.text.slice(0, 300)}`);
			let execution = null;
			const deadline = Date.now() + 120_000;
			while (Date.now() < deadline) {
				const res = await http(`${server.baseUrl}/rest/executions/${executionId}`, { cookie });
				if (
					res.status === 200 &&
					res.json?.data &&
					!['new', 'running', 'waiting'].includes(res.json.data.status)
				) {
					execution = res.json.data;
					break;
				}
				await sleep(500);
			}
			assert.ok(execution, `execution ${executionId} did not finish within 120 s`);
			assert.equal(execution.status, 'success', `execution ${executionId}: ${execution.status}`);
			const { parse } = require(path.join(instance.runtime.dir, 'node_modules', 'flatted'));
			const data = typeof execution.data === 'string' ? parse(execution.data) : execution.data;
			const out = (nodeName) =>
				data.resultData.runData[nodeName][0].data.main[0].map((i) => i.json);
			assert.equal(out('Get work order')[0].Id, 90000001);
			const list = out('All work orders (pages of 50)');
			assert.equal(list.length, 120);
			assert.equal(new Set(list.map((w) => w.Id)).size, 120);
			assert.equal(typeof out('Check in')[0].MechanicId, 'number');
			assert.equal(typeof out('Check out')[0].MechanicId, 'number');
			const seen = emulator.requests.slice(mark);
			const pages = seen.filter((r) => r.method === 'GET' && r.path === '/api/v3/odata/workorders');
			assert.deepEqual(
				pages.map((r) => `${r.query.$skip} ${r.status}`),
				['0 200', '50 200', '100 200'],
			);
			assert.ok(
				seen.some(
					(r) => r.method === 'GET' && r.path === '/api/v3/workorders/90000001' && r.status === 200,
				),
				'GET /api/v3/workorders/90000001',
			);
			assert.ok(
				seen
					.filter((r) => r.path.startsWith('/api/'))
					.every((r) => /^Bearer /.test(r.headers.authorization || '')),
				'every API call with a Bearer token',
			);
		},
	);

	const passed = results.filter(Boolean).length;
	return { passed, failed: results.length - passed };
}

// ------------------------------------------------------------------ what it prints
/** A path with the home folder as ~. */
function rel(p) {
	const home = require('node:os').homedir();
	return p.startsWith(`${home}${path.sep}`) ? `~${p.slice(home.length)}` : p;
}

const LOGIN_OF_TYPE = {
	workOrderServiceApi: 'Password Grant',
	workOrderServiceContractorApi: 'Contractor (JWT)',
	workOrderServiceOAuth2Api: 'Authorization Code (OAuth2)',
};

/** What a login can do, from the emulator's fixtures (test/emulator/fixtures.js). */
function loginNote(user) {
	const parts = [];
	if (user.webhookAdmin)
		parts.push(
			user.kind === 'contractor'
				? 'ADMINISTRATOR ("Provider Automation Admin") of its provider'
				: 'ADMINISTRATOR ("Super Admin"): the one for the instant trigger',
		);
	if (user.kind === 'contractor')
		parts.push(
			`contractor (Contractor JWT credential), provider ${user.providerId}, technician ${user.technicianId}`,
		);
	else if (user.kind === 'universal')
		parts.push(
			`universal user, child subscribers ${user.children.join(', ')} (Child Subscriber ID)${user.permissions.includes('subsidiaries.read') ? '' : ', may not list them'}`,
		);
	else parts.push(`subscriber ${user.subscriberId}`);
	if (user.permissions.length === 1) parts.push('read only');
	else if (user.approvalLimit) parts.push(`approval limit ${user.approvalLimit}`);
	return parts.join('; ');
}

/** The imported credentials, what a credential of one's own takes, and the emulator's logins. */
function credentialLines(emulator, credentials) {
	const users = Object.values(emulator.fixtures.users);
	const client = emulator.fixtures.clients.main;
	const width = Math.max(...credentials.map((c) => c.name.length));
	const pad = (text, n) => text + ' '.repeat(Math.max(1, n - text.length));
	const lines = [
		'',
		"  Credentials   imported (pick one in a node's Credential field; Credentials page to see them):",
	];
	for (const c of credentials) {
		const user = users.find((u) => u.username === c.data.username);
		const who = user
			? `${user.username}${c.data.subsidiaryId ? `, child subscriber ${c.data.subsidiaryId}` : ''}${user.webhookAdmin ? ' (administrator: for the instant trigger)' : ''}`
			: 'click Connect and sign in with a login below';
		lines.push(`    ${pad(c.name, width + 2)}${pad(LOGIN_OF_TYPE[c.type] ?? c.type, 30)}${who}`);
	}
	const login = Math.max(...users.map((u) => `${u.username} / ${u.password}`.length));
	lines.push(
		'',
		'  Your own      Credentials > Create credential > "Work Order Service Password Grant API" (or Contractor JWT):',
		`    Authorization Server URL  ${emulator.authUrl}`,
		`    API Base URL              ${emulator.baseUrl}   (as the field wants it: without /v3, the node adds it)`,
		`    Client ID / Secret        ${client.clientId}  /  ${client.clientSecret}`,
		'    Username / Password       one of the logins below',
		'',
		'  Logins        (username / password)',
		...users.map((u) => `    ${pad(`${u.username} / ${u.password}`, login + 3)}${loginNote(u)}`),
	);
	return lines;
}

/** What `npm run dev` prints once n8n is up (also checked by --check). */
function banner({
	runtime,
	server,
	cookie,
	emulator,
	credentials,
	workflows,
	userFolder,
	logFile,
	started,
}) {
	return [
		'',
		`n8n ${runtime.n8nVersion} is running with ${PKG.name}@${PKG.version} installed (started in ${((Date.now() - started) / 1000).toFixed(0)} s).`,
		'',
		`  Editor        ${server.editorUrl}`,
		`  Log in        ${OWNER.email}  /  ${OWNER.password}${cookie ? '' : '   (the login failed: did you change the password? --fresh starts over)'}`,
		...credentialLines(emulator, credentials),
		'',
		`  Emulator      ${emulator.origin}  (the Work Order Service; npm run emulator -- --help lists its switches)`,
		`  Workflows     the ${workflows.length} examples of examples/ ("Work Order Service demo: ..."); open one and click "Execute workflow"`,
		`  User folder   ${rel(userFolder)} (kept between runs; --fresh starts over), n8n's log: ${rel(logFile)}`,
		'',
		'Press Ctrl+C to stop n8n and the emulator.',
	];
}

// ------------------------------------------------------------------ main
async function main() {
	const opts = parseArgs(process.argv.slice(2));
	if (opts.help) {
		console.log(
			fs
				.readFileSync(__filename, 'utf8')
				.split('*/')[0]
				.replace(/^#!.*\n'use strict';\n\/\*\*\n/, '')
				.replace(/^ \* ?/gm, ''),
		);
		return 0;
	}
	const started = Date.now();
	// `npm run dev` has just built (tsc is incremental: an unchanged source with a new mtime keeps its
	// older output, so the mtime check would complain for nothing). Run directly, check dist/.
	const stale = process.env.npm_lifecycle_event === 'dev' ? [] : n8n.staleDistFiles();
	if (stale.length)
		throw new Error(
			`dist/ is older than the sources (${stale.slice(0, 3).join(', ')}): run "npm run dev", which builds first`,
		);

	await fsp.mkdir(DEV_DIR, { recursive: true });
	const userFolder = opts.check
		? await fsp.mkdtemp(path.join(DEV_DIR, 'check-'))
		: path.join(DEV_DIR, 'user');
	if (opts.fresh && !opts.check) await fsp.rm(userFolder, { recursive: true, force: true });
	await fsp.mkdir(userFolder, { recursive: true });
	const logFile = path.join(opts.check ? userFolder : DEV_DIR, 'n8n.log');

	console.log(
		`n8n runtime: ${n8n.runtimeDir()} (the first start installs it: a few minutes, about 3 GB)`,
	);
	const runtime = await n8n.ensureRuntime();
	const port = opts.check ? await n8n.freePort() : opts.port;
	if (!(await portIsFree(port))) {
		throw new Error(
			`port ${port} is in use (another n8n, or another "npm run dev"?): stop it, or pass --port N`,
		);
	}
	const instance = await n8n.createInstance({
		runtime,
		baseDir: DEV_DIR,
		encryptionKey: ENCRYPTION_KEY,
		env: { N8N_USER_FOLDER: userFolder, N8N_PORT: String(port), N8N_LOG_LEVEL: 'info' },
	});
	// createInstance made a scratch folder (temporary files of the n8n calls); n8n itself uses userFolder.
	instance.userFolder = userFolder;
	instance.nodesDir = path.join(userFolder, '.n8n', 'nodes');

	let emulator = null;
	let server = null;
	let stopping = null;
	const stopAll = async () => {
		if (!stopping) {
			stopping = (async () => {
				if (server) await server.stop();
				if (emulator) await emulator.close();
				await n8n.destroyInstance(instance);
				if (opts.check) await fsp.rm(userFolder, { recursive: true, force: true });
			})();
		}
		return stopping;
	};

	try {
		const { tarball } = n8n.packPackage(instance.dir);
		await n8n.installCommunityPackage(instance, tarball);
		console.log(`package: ${path.basename(tarball)} installed in ${instance.nodesDir}`);

		try {
			emulator = await startEmulator({
				port: opts.check ? 0 : opts.emulatorPort,
				host: '127.0.0.1',
			});
		} catch (err) {
			if (err && err.code === 'EADDRINUSE') {
				throw new Error(
					`port ${opts.emulatorPort} is in use (another "npm run emulator" or "npm run dev"?): stop it, or pass --emulator-port N`,
				);
			}
			throw err;
		}
		const credentials = [...demoCredentials(emulator), adminCredential(emulator)];
		await n8n.importCredentials(instance, credentials);
		const workflows = fs
			.readdirSync(__dirname)
			.filter((f) => /^\d\d-.*\.json$/.test(f))
			.sort()
			.map((f) => JSON.parse(fs.readFileSync(path.join(__dirname, f), 'utf8')));
		const marker = path.join(userFolder, '.examples-imported');
		if (!fs.existsSync(marker)) {
			await n8n.importWorkflows(instance, workflows);
			await fsp.writeFile(marker, `${new Date().toISOString()}\n`);
		}

		server = await startN8n(instance, { port, logFile });
		const cookie = await ensureOwner(server.baseUrl, server.settings);

		if (opts.check) {
			const { passed, failed } = await runChecks({ server, cookie, emulator, instance, workflows });
			await stopAll();
			console.log(
				`dev check: n8n ${runtime.n8nVersion} with ${PKG.name}@${PKG.version}, ${((Date.now() - started) / 1000).toFixed(1)} s, stopped`,
			);
			console.log(`dev check: ${passed} passed, ${failed} failed`);
			return failed ? 1 : 0;
		}

		console.log(
			banner({
				runtime,
				server,
				cookie,
				emulator,
				credentials,
				workflows,
				userFolder,
				logFile,
				started,
			}).join('\n'),
		);
		await new Promise((resolve) => {
			process.once('SIGINT', resolve);
			process.once('SIGTERM', resolve);
			server.child.once('exit', resolve);
		});
		const n8nDied = server.child.exitCode !== null || server.child.signalCode !== null;
		console.log(
			n8nDied
				? `\nn8n stopped by itself; see ${rel(logFile)}. Stopping the emulator...`
				: '\nStopping n8n and the emulator...',
		);
		await stopAll();
		console.log('Stopped.');
		return n8nDied ? 1 : 0;
	} catch (err) {
		await stopAll();
		throw err;
	}
}

main().then(
	(code) => {
		process.exitCode = code;
	},
	(err) => {
		// the message says what went wrong (with n8n's log where n8n failed); DEBUG=1 adds the stack
		console.error(
			`npm run dev: ${process.env.DEBUG && err && err.stack ? err.stack : (err && err.message) || err}`,
		);
		if (process.argv.includes('--check')) console.log('dev check: 0 passed, 1 failed');
		process.exitCode = 1;
	},
);
