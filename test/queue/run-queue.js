#!/usr/bin/env node
'use strict';
/**
 * n8n queue mode, end to end: this package in a real n8n 2.41.1 main + 2 workers sharing one
 * PostgreSQL database and one Redis, driven through a production webhook.
 *
 *   npm run test:queue                         (= npm run build && node test/queue/run-queue.js)
 *   node test/queue/run-queue.js --tarball f.tgz   (test a given tarball instead of `npm pack`)
 *   options: --scenarios a,b,c  --executions 50  --items 20  --timeout 300 (s per scenario)  --keep
 *
 * 1. redis-server and PostgreSQL from Debian's packages (apt-get install -y when missing; as root);
 * 2. in one temp dir, on free 127.0.0.1 ports: Redis (no persistence), a private PostgreSQL cluster
 *    (initdb + postgres run as the `postgres` OS user), the Work Order Service emulator in this
 *    process, and n8n (`n8n start` + 2 x `n8n worker --concurrency=5`, EXECUTIONS_MODE=queue),
 *    each n8n process with its own N8N_USER_FOLDER holding the community package;
 * 3. one password-grant credential and one workflow (Webhook -> Split Out -> Work Order Service
 *    "put proposal <the item's id> on hold" with the item's tag as Comments), published before main
 *    starts; each item has a proposal of its own, made Open in the emulator before the calls (the
 *    service refuses to put a proposal on hold that already is);
 * 4. per scenario: 50 webhook calls x 20 items with unique tags, then assertions on PostgreSQL's
 *    execution_entity (all success), the workers' logs (both ran executions) and the emulator's
 *    request log (every tag answered 204 exactly once; token requests per token expiry);
 *    a = steady state; b = token limit on + all access tokens revoked at the 400th update;
 *    c = token limit on + 5 s access tokens + 400 ms service latency, node Concurrency 2 (at least 2 expiries).
 *
 * One line per check (PASS/FAIL + figures), then `queue: N passed, M failed`; exit code 1 on any
 * failure. Everything started here is stopped (process groups, temp dir) on success, failure,
 * SIGINT and SIGTERM. Only 127.0.0.1 traffic.
 */

const { spawn, spawnSync } = require('node:child_process');
const crypto = require('node:crypto');
const fs = require('node:fs');
const fsp = require('node:fs/promises');
const http = require('node:http');
const net = require('node:net');
const os = require('node:os');
const path = require('node:path');

const n8n = require('../e2e/n8n');
const { startEmulator } = require('../emulator');
const { demoCredentials } = require('../../examples/demo-credentials');

const ROOT = path.resolve(__dirname, '..', '..');
const PKG = 'n8n-nodes-work-order-service';
const NODE_TYPE = `${PKG}.workOrderService`;
const ENCRYPTION_KEY = 'wos-queue-shared-encryption-key-0123456789';
const WORKERS = 2;
const WORKER_CONCURRENCY = 5;
/** The work order the items' proposals are linked to (each item puts its own Open proposal on hold). */
const PROPOSAL_WORK_ORDER = 90000006;
const OPERATION = 'putOnHold';
const ACTION_PATH = 'onhold';
const UPDATE_PATH = new RegExp(`^/api/v3/proposals/\\d+/${ACTION_PATH}$`, 'i');
const TOKEN_PATH = /^\/auth\/(oauth|jwt)\/token$/i;
const WORKFLOW_ID = 'wosQueueWebhook01';
const CREDENTIAL_ID = 'wosPasswordDemo';
const WEBHOOK_PATH = 'wos-queue-proposals';
const TERMINAL = new Set(['success', 'error', 'crashed', 'canceled']);

// ------------------------------------------------------------------ arguments
function argValue(name, fallback) {
	const i = process.argv.indexOf(name);
	if (i < 0) return fallback;
	const v = process.argv[i + 1];
	if (v === undefined || v.startsWith('--')) throw new Error(`${name} needs a value`);
	return v;
}
const opts = {
	tarball: argValue('--tarball', null),
	scenarios: argValue('--scenarios', 'a,b,c')
		.split(',')
		.map((s) => s.trim())
		.filter(Boolean),
	executions: Number(argValue('--executions', '50')),
	items: Number(argValue('--items', '20')),
	timeoutMs: Number(argValue('--timeout', '300')) * 1000,
	keep: process.argv.includes('--keep') || process.env.N8N_QUEUE_KEEP === '1',
};

// ------------------------------------------------------------------ results
const startedAt = Date.now();
const results = [];
let interrupted = null; // the signal that stopped the run; nothing is reported after it
function report(ok, name, figures) {
	if (interrupted) return;
	results.push({ ok, name });
	console.log(`${ok ? 'PASS' : 'FAIL'} ${name}${figures ? `: ${figures}` : ''}`);
}
function info(line) {
	if (interrupted) return;
	console.log(`     ${line}`);
}
const secs = (ms) => `${(ms / 1000).toFixed(1)} s`;

// ------------------------------------------------------------------ everything we start
/** Long-running process groups: { name, pid, child, exited, stopSignal, logFile } */
const services = [];
const tempDirs = [];
let emulator = null;
let pgClient = null;
let stopping = null;

function killGroup(pid, signal) {
	try {
		process.kill(-pid, signal);
		return true;
	} catch {
		return false;
	}
}

/** Last resort, synchronous: nothing of ours may survive the harness. */
process.on('exit', () => {
	for (const s of services) if (!s.exited) killGroup(s.pid, 'SIGKILL');
	if (!opts.keep)
		for (const d of tempDirs) fs.rmSync(d, { recursive: true, force: true, maxRetries: 2 });
});

async function waitExit(svc, ms) {
	const deadline = Date.now() + ms;
	while (!svc.exited && Date.now() < deadline) await sleep(100);
	return Boolean(svc.exited);
}

/** n8n processes first (they talk to the others while shutting down), then Redis and PostgreSQL. */
async function stopAll({ graceMs = 20_000 } = {}) {
	if (stopping) return stopping;
	stopping = (async () => {
		const tiers = [
			services.filter((s) => s.kind === 'n8n'),
			services.filter((s) => s.kind !== 'n8n'),
		];
		for (const tier of tiers) {
			for (const s of tier) if (!s.exited) killGroup(s.pid, s.stopSignal);
			await Promise.all(
				tier.map(async (s) => {
					if (await waitExit(s, graceMs)) return;
					killGroup(s.pid, 'SIGKILL');
					await waitExit(s, 5_000);
				}),
			);
			// Leftovers in a group (task runners, postgres backends) go too.
			for (const s of tier) killGroup(s.pid, 'SIGKILL');
		}
		if (pgClient) await pgClient.end().catch(() => {});
		pgClient = null;
		if (emulator) await emulator.close().catch(() => {});
		emulator = null;
		if (opts.keep) console.log(`kept: ${tempDirs.join(' ')}`);
		else
			for (const d of tempDirs)
				await fsp.rm(d, { recursive: true, force: true, maxRetries: 2 }).catch(() => {});
	})();
	return stopping;
}

for (const sig of ['SIGINT', 'SIGTERM', 'SIGHUP']) {
	process.on(sig, () => {
		if (interrupted) return;
		interrupted = sig;
		const code = sig === 'SIGINT' ? 130 : 143;
		console.log(`\n${sig}: stopping everything this run started`);
		setTimeout(() => process.exit(code), 30_000).unref();
		// No waiting for running executions: 5 s for a clean stop, then SIGKILL (the exit handler
		// also kills whatever the interrupted main flow may still start).
		stopAll({ graceMs: 5_000 }).finally(() => {
			console.log(`queue: interrupted by ${sig}`);
			process.exit(code);
		});
	});
}

/**
 * Start a long-running process in its own process group; stdout+stderr go to logFile.
 * spawnOpts.uid/gid run it as another OS user (PostgreSQL refuses to run as root).
 */
function startService(
	kind,
	name,
	cmd,
	args,
	{ env, cwd, uid, gid, logFile, stopSignal = 'SIGTERM' },
) {
	if (stopping) throw new Error(`not starting ${name}: the run is stopping`);
	const fd = fs.openSync(logFile, 'a');
	let child;
	try {
		child = spawn(cmd, args, { env, cwd, uid, gid, detached: true, stdio: ['ignore', fd, fd] });
	} finally {
		fs.closeSync(fd);
	}
	const svc = {
		kind,
		name,
		pid: child.pid,
		child,
		exited: null,
		stopSignal,
		logFile,
		spawnError: null,
	};
	services.push(svc);
	child.on('error', (err) => {
		svc.spawnError = err;
		svc.exited = svc.exited || { code: null, signal: null, error: err.message };
	});
	child.on('exit', (code, signal) => {
		svc.exited = { code, signal };
	});
	return svc;
}

function tail(file, lines = 40) {
	try {
		return fs.readFileSync(file, 'utf8').split('\n').slice(-lines).join('\n');
	} catch {
		return '(no log)';
	}
}

function sleep(ms) {
	return new Promise((r) => setTimeout(r, ms));
}

/** Poll fn() until it returns a truthy value; fail early when svc died. */
async function waitFor(what, fn, { timeoutMs, svc, intervalMs = 250 }) {
	const deadline = Date.now() + timeoutMs;
	let lastErr = null;
	while (Date.now() < deadline) {
		if (svc && svc.exited) {
			throw new Error(
				`${svc.name} exited (${JSON.stringify(svc.exited)}) while waiting for ${what}\n--- ${svc.logFile} ---\n${tail(svc.logFile)}`,
			);
		}
		try {
			const v = await fn();
			if (v) return v;
		} catch (err) {
			lastErr = err;
		}
		await sleep(intervalMs);
	}
	throw new Error(
		`timed out after ${secs(timeoutMs)} waiting for ${what}${lastErr ? ` (last error: ${lastErr.message})` : ''}${svc ? `\n--- ${svc.logFile} ---\n${tail(svc.logFile)}` : ''}`,
	);
}

function httpGet(url, timeoutMs = 2000) {
	return new Promise((resolve, reject) => {
		const req = http.get(url, { timeout: timeoutMs, agent: false }, (res) => {
			let body = '';
			res.setEncoding('utf8');
			res.on('data', (d) => (body += d));
			res.on('end', () => resolve({ status: res.statusCode, body }));
		});
		req.on('timeout', () => req.destroy(new Error('timeout')));
		req.on('error', reject);
	});
}

/**
 * POSTs JSON through `agent`. Each scenario makes its own keep-alive agent and destroys it after
 * its calls: a connection left idle between scenarios is closed by n8n (its keep-alive timeout is
 * 5 s) while this process is busy making the next scenario's 1,000 proposals, and a call sent on
 * it before the close is seen fails with "socket hang up" (10 calls, one per pooled connection,
 * on a busy machine) without reaching n8n.
 */
function httpPostJson(url, data, agent, timeoutMs = 30_000) {
	const payload = Buffer.from(JSON.stringify(data));
	return new Promise((resolve, reject) => {
		const req = http.request(
			url,
			{
				method: 'POST',
				agent,
				timeout: timeoutMs,
				headers: { 'content-type': 'application/json', 'content-length': String(payload.length) },
			},
			(res) => {
				let body = '';
				res.setEncoding('utf8');
				res.on('data', (d) => (body += d));
				res.on('end', () => resolve({ status: res.statusCode, body }));
			},
		);
		req.on('timeout', () => req.destroy(new Error('timeout')));
		req.on('error', reject);
		req.end(payload);
	});
}

/** Redis answers PING with +PONG. */
function redisPing(port) {
	return new Promise((resolve) => {
		const sock = net.connect({ host: '127.0.0.1', port });
		let buf = '';
		const done = (v) => {
			sock.destroy();
			resolve(v);
		};
		sock.setTimeout(1000, () => done(false));
		sock.on('error', () => done(false));
		sock.on('connect', () => sock.write('PING\r\n'));
		sock.on('data', (d) => {
			buf += d;
			if (buf.includes('\r\n')) done(buf.startsWith('+PONG'));
		});
	});
}

// ------------------------------------------------------------------ system packages
function which(cmd) {
	const r = spawnSync('sh', ['-c', `command -v ${cmd}`], { encoding: 'utf8' });
	return r.status === 0 ? r.stdout.trim() : null;
}

/** Highest installed PostgreSQL's bin dir (Debian: /usr/lib/postgresql/<major>/bin). */
function postgresBinDir() {
	const base = '/usr/lib/postgresql';
	if (fs.existsSync(base)) {
		const majors = fs
			.readdirSync(base)
			.filter(
				(d) =>
					/^\d+$/.test(d) &&
					fs.existsSync(path.join(base, d, 'bin', 'postgres')) &&
					fs.existsSync(path.join(base, d, 'bin', 'initdb')),
			)
			.sort((a, b) => Number(b) - Number(a));
		if (majors.length) return path.join(base, majors[0], 'bin');
	}
	const p = which('postgres');
	const i = which('initdb');
	if (p && i && path.dirname(fs.realpathSync(p)) === path.dirname(fs.realpathSync(i)))
		return path.dirname(fs.realpathSync(p));
	return null;
}

function ensureSystemPackages() {
	const missing = [];
	if (!which('redis-server')) missing.push('redis-server');
	if (!postgresBinDir()) missing.push('postgresql');
	if (!missing.length) return { installed: [], ms: 0 };
	const t = Date.now();
	if (process.getuid && process.getuid() !== 0) {
		throw new Error(
			`missing ${missing.join(', ')}; install them (apt-get install -y ${missing.join(' ')}) or run as root`,
		);
	}
	const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
	const install = () =>
		spawnSync('apt-get', ['install', '-y', '-q', ...missing], {
			env,
			encoding: 'utf8',
			stdio: ['ignore', 'pipe', 'pipe'],
			timeout: 900_000,
		});
	let r = install();
	if (r.status !== 0) {
		const u = spawnSync('apt-get', ['update', '-q'], {
			env,
			encoding: 'utf8',
			stdio: ['ignore', 'pipe', 'pipe'],
			timeout: 600_000,
		});
		if (u.status !== 0)
			throw new Error(`apt-get update failed:\n${(u.stdout + u.stderr).slice(-3000)}`);
		r = install();
	}
	if (r.status !== 0)
		throw new Error(
			`apt-get install -y ${missing.join(' ')} failed:\n${(r.stdout + r.stderr).slice(-3000)}`,
		);
	if (!which('redis-server') || !postgresBinDir())
		throw new Error(
			`apt-get installed ${missing.join(', ')} but redis-server / postgres are still not found`,
		);
	return { installed: missing, ms: Date.now() - t };
}

/** uid/gid of the `postgres` OS user when we are root (PostgreSQL refuses root); else our own. */
function postgresUser() {
	if (!process.getuid || process.getuid() !== 0)
		return { uid: undefined, gid: undefined, name: os.userInfo().username };
	const r = spawnSync('getent', ['passwd', 'postgres'], { encoding: 'utf8' });
	if (r.status !== 0)
		throw new Error(
			'running as root but there is no `postgres` OS user (apt-get install postgresql creates it)',
		);
	const [, , uid, gid] = r.stdout.trim().split(':');
	return { uid: Number(uid), gid: Number(gid), name: 'postgres' };
}

// ------------------------------------------------------------------ PostgreSQL
/** Whether another OS user can reach dir (every ancestor searchable by "others"). */
function traversableByOthers(dir) {
	for (let d = path.resolve(dir); ; d = path.dirname(d)) {
		if ((fs.statSync(d).mode & 0o001) === 0) return false;
		if (path.dirname(d) === d) return true;
	}
}

async function startPostgres(baseDir, runtime, logDir) {
	const bin = postgresBinDir();
	const user = postgresUser();
	let pgParent = baseDir;
	if (user.uid !== undefined && !traversableByOthers(baseDir)) {
		// e.g. TMPDIR under /root: the postgres OS user could not reach its data dir there
		pgParent = await fsp.mkdtemp('/tmp/wos-queue-pg-');
		tempDirs.push(pgParent);
		await fsp.chmod(pgParent, 0o711);
	}
	const pgDir = path.join(pgParent, 'pg');
	const dataDir = path.join(pgDir, 'data');
	const sockDir = path.join(pgDir, 'sock');
	await fsp.mkdir(sockDir, { recursive: true });
	const superPassword = crypto.randomBytes(12).toString('hex');
	const pwFile = path.join(pgDir, 'superuser.pw');
	await fsp.writeFile(pwFile, `${superPassword}\n`, { mode: 0o600 });
	if (user.uid !== undefined) {
		for (const p of [pgDir, sockDir, pwFile]) await fsp.chown(p, user.uid, user.gid);
	}
	const env = { PATH: process.env.PATH, LANG: 'C', LC_ALL: 'C', HOME: pgDir, TZ: 'UTC' };
	const t = Date.now();
	const init = spawnSync(
		path.join(bin, 'initdb'),
		[
			'-D',
			dataDir,
			'-U',
			'postgres',
			'--auth=scram-sha-256',
			`--pwfile=${pwFile}`,
			'-E',
			'UTF8',
			'--no-locale',
			'--no-sync',
		],
		{ cwd: pgDir, env, uid: user.uid, gid: user.gid, encoding: 'utf8', timeout: 120_000 },
	);
	if (init.status !== 0)
		throw new Error(
			`initdb failed (${init.status} ${init.signal || ''}):\n${init.stdout}\n${init.stderr}`,
		);
	const initMs = Date.now() - t;
	const port = await n8n.freePort();
	const logFile = path.join(logDir, 'postgres.log');
	const svc = startService(
		'db',
		'postgres',
		path.join(bin, 'postgres'),
		[
			'-D',
			dataDir,
			'-p',
			String(port),
			'-k',
			sockDir,
			'-h',
			'127.0.0.1',
			// a throwaway cluster: durability off, so n8n's many small commits do not wait on the disk
			'-c',
			'fsync=off',
			'-c',
			'synchronous_commit=off',
			'-c',
			'full_page_writes=off',
			'-c',
			'max_connections=100',
		],
		{
			env,
			cwd: pgDir,
			uid: user.uid,
			gid: user.gid,
			logFile,
			stopSignal: 'SIGINT' /* fast shutdown */,
		},
	);
	const { Client } = require(path.join(runtime.dir, 'node_modules', 'pg'));
	const connectAs = async (u, password, database) => {
		const c = new Client({
			host: '127.0.0.1',
			port,
			user: u,
			password,
			database,
			connectionTimeoutMillis: 3000,
		});
		await c.connect();
		return c;
	};
	const admin = await waitFor(
		'PostgreSQL to accept connections',
		() => connectAs('postgres', superPassword, 'postgres'),
		{ timeoutMs: 60_000, svc },
	);
	const db = {
		host: '127.0.0.1',
		port,
		database: 'n8n_queue',
		user: 'n8n_queue',
		password: crypto.randomBytes(12).toString('hex'),
	};
	try {
		const version = (await admin.query('show server_version')).rows[0].server_version;
		await admin.query(`CREATE ROLE ${db.user} LOGIN PASSWORD '${db.password}'`);
		await admin.query(`CREATE DATABASE ${db.database} OWNER ${db.user}`);
		db.version = version;
	} finally {
		await admin.end();
	}
	pgClient = await connectAs(db.user, db.password, db.database);
	pgClient.on('error', () => {}); // a server stopping under us must not crash the harness
	return { svc, db, initMs, readyMs: Date.now() - t, bin, osUser: user.name };
}

async function startRedis(baseDir, logDir) {
	const dir = path.join(baseDir, 'redis');
	await fsp.mkdir(dir, { recursive: true });
	const port = await n8n.freePort();
	const t = Date.now();
	const svc = startService(
		'redis',
		'redis-server',
		which('redis-server'),
		[
			'--port',
			String(port),
			'--bind',
			'127.0.0.1',
			'--save',
			'',
			'--appendonly',
			'no',
			'--dir',
			dir,
			'--daemonize',
			'no',
		],
		{
			env: { PATH: process.env.PATH, HOME: dir },
			cwd: dir,
			logFile: path.join(logDir, 'redis.log'),
		},
	);
	await waitFor('Redis to answer PING', () => redisPing(port), { timeoutMs: 30_000, svc });
	return { svc, port, readyMs: Date.now() - t };
}

// ------------------------------------------------------------------ n8n
function workflowDefinition(credentialName) {
	return {
		id: WORKFLOW_ID,
		name: 'queue: webhook -> split out -> put proposal on hold',
		nodes: [
			{
				id: 'b0000000-0000-4000-8000-000000000001',
				name: 'Webhook',
				type: 'n8n-nodes-base.webhook',
				typeVersion: 2,
				position: [0, 0],
				webhookId: 'b0000000-0000-4000-8000-0000000000aa',
				parameters: {
					httpMethod: 'POST',
					path: WEBHOOK_PATH,
					responseMode: 'onReceived',
					options: {},
				},
			},
			{
				id: 'b0000000-0000-4000-8000-000000000002',
				name: 'Split Out',
				type: 'n8n-nodes-base.splitOut',
				typeVersion: 1,
				position: [220, 0],
				parameters: { fieldToSplitOut: 'body.items', include: 'noOtherFields', options: {} },
			},
			{
				id: 'b0000000-0000-4000-8000-000000000003',
				name: 'Put proposal on hold',
				type: NODE_TYPE,
				typeVersion: 1,
				position: [440, 0],
				parameters: {
					authentication: 'password',
					resource: 'proposal',
					operation: OPERATION,
					proposalId: '={{ $json.id }}',
					additionalFields: { comments: '={{ $json.tag }}' },
					// the node's Concurrency for the scenario (items carry it; absent = the node's default)
					requestOptions: { concurrency: '={{ $json.concurrency }}' },
				},
				credentials: { workOrderServiceApi: { id: CREDENTIAL_ID, name: credentialName } },
			},
		],
		connections: {
			Webhook: { main: [[{ node: 'Split Out', type: 'main', index: 0 }]] },
			'Split Out': { main: [[{ node: 'Put proposal on hold', type: 'main', index: 0 }]] },
		},
		settings: {
			executionOrder: 'v1',
			saveDataSuccessExecution: 'all',
			saveDataErrorExecution: 'all',
		},
	};
}

function startN8n(instance, name, args, logDir, extraEnv = {}) {
	const { runtime } = instance;
	return startService('n8n', name, runtime.node, [runtime.n8nBin, ...args], {
		env: { ...instance.env, ...extraEnv },
		cwd: instance.dir,
		logFile: path.join(logDir, `${name}.log`),
	});
}

// ------------------------------------------------------------------ analysis
function grantOf(entry) {
	const b = entry.body && typeof entry.body === 'object' ? entry.body : {};
	if (b.grant_type) return String(b.grant_type);
	if (b.refresh_token) return 'refresh_token';
	if (b.username) return 'password';
	return '?';
}

/**
 * Token requests per expiry, from the emulator's clock and its issued tokens (a 401 is not needed
 * to see an expiry: a client may renew a token it knows is about to expire).
 * The expiries form a chain: the first is the scenario's own event (all access tokens revoked, or
 * expired at the start); the next one is the end of the first access token issued after it (its
 * expiresAt), and so on, while requests were still being made. Each token request belongs to the
 * expiry whose window it falls in: [expiry - margin, next expiry - margin), margin = half the
 * access-token lifetime for a natural expiry (so a renewal just before it counts for it) and 0 for
 * the scenario's own event. Token requests before the first window form the "before any expiry"
 * bucket (e.g. a first login).
 */
function tokenExpiries(tokenReqs, issued, { first, until, ttlMs }) {
	const ends = [];
	if (first && first.at <= until) {
		ends.push({ at: first.at, cause: first.cause, margin: 0 });
		const margin = Math.round(ttlMs / 2);
		let from = first.at; // the window of the current expiry starts here
		let end = first.at;
		for (;;) {
			// the first token issued for this expiry (a renewal may come a little before the end)
			const next = issued.find((t) => t.issuedAt >= from && t.expiresAt > end);
			if (!next || next.expiresAt > until) break;
			end = next.expiresAt;
			from = end - margin;
			ends.push({ at: end, cause: 'expired', margin });
		}
	}
	const bounds = ends.map((e) => e.at - e.margin);
	const before = [];
	const episodes = ends.map((e) => ({ ...e, requests: [] }));
	for (const r of tokenReqs) {
		const t = Date.parse(r.time);
		let i = -1;
		while (i + 1 < bounds.length && t >= bounds[i + 1]) i += 1;
		(i < 0 ? before : episodes[i].requests).push(r);
	}
	return { before, episodes };
}

function describeTokenRequests(list) {
	const by = {};
	for (const e of list) {
		const k = `${grantOf(e)}:${e.status === null ? 'dropped' : e.status}`;
		by[k] = (by[k] || 0) + 1;
	}
	return (
		Object.entries(by)
			.map(([k, v]) => `${v} ${k}`)
			.join(', ') || 'none'
	);
}

/** Workers' "Worker started execution <id>" log lines -> Map(execution id -> [worker names]). */
function executionsByWorker(workerSvcs) {
	const map = new Map();
	for (const w of workerSvcs) {
		let text = '';
		try {
			text = fs.readFileSync(w.logFile, 'utf8');
		} catch {
			/* no log */
		}
		for (const m of text.matchAll(/Worker started execution (\d+) \(job/g)) {
			const id = Number(m[1]);
			if (!map.has(id)) map.set(id, []);
			map.get(id).push(w.name);
		}
	}
	return map;
}

async function executionErrors(ids, runtime) {
	if (!ids.length) return [];
	const { parse } = require(path.join(runtime.dir, 'node_modules', 'flatted'));
	const rows = (
		await pgClient.query(
			'select "executionId"::int as id, data from execution_data where "executionId" = any($1::int[])',
			[ids],
		)
	).rows;
	const messages = [];
	for (const r of rows) {
		let msg = '(no error message stored)';
		try {
			const d = parse(r.data);
			const err = d?.resultData?.error;
			if (err)
				msg = `${err.message || ''}${err.description ? ` — ${err.description}` : ''}`.trim() || msg;
		} catch (e) {
			msg = `(unreadable execution data: ${e.message})`;
		}
		messages.push(msg);
	}
	return messages;
}

function countBy(list) {
	const m = new Map();
	for (const x of list) m.set(x, (m.get(x) || 0) + 1);
	return [...m.entries()].sort((a, b) => b[1] - a[1]);
}

// ------------------------------------------------------------------ scenarios
const SCENARIOS = {
	a: {
		title: 'steady state (no faults)',
		tokenTarget: false,
		setup() {},
	},
	b: {
		title:
			'revoked tokens (token limit 1/5 s per user, rotating refresh tokens, all access tokens revoked at the 400th update)',
		tokenTarget: true,
		setup(emu, sc) {
			emu.setFaults({ tokenRateLimit: { perUserMs: 5000, retryAfter: 'seconds' } });
			// the 400th of 1000 updates (40 % of the updates with other --executions/--items)
			sc.revokeAt = Math.min(400, Math.max(1, Math.floor(opts.executions * opts.items * 0.4)));
			let updates = 0;
			emu.onResponse = (log) => {
				if (log.method === 'PUT' && log.status === 204 && UPDATE_PATH.test(log.path)) {
					updates += 1;
					if (updates === sc.revokeAt) {
						emu.revokeAccessTokens();
						sc.firstExpiry = { at: emu.now(), cause: 'revoked' };
						sc.note = `revoked all access tokens after update #${updates} (request seq ${log.seq})`;
					}
				}
			};
		},
	},
	c: {
		title:
			'short token lifetimes (access tokens live 5 s, token limit 1/5 s per user, 400 ms service latency, node Concurrency 2)',
		tokenTarget: true,
		minExpiries: 2,
		concurrency: 2,
		setup(emu, sc) {
			// 400 ms per answer and 2 requests at a time: 20 updates take >= 4 s per execution, so the
			// burst keeps 2 x 5 executions busy for >= 20 s, i.e. across several token lifetimes
			emu.setFaults({ latencyMs: 400, tokenRateLimit: { perUserMs: 5000, retryAfter: 'seconds' } });
			emu.setTtl({ access: 5 });
			sc.ttlMs = 5000;
			emu.expireAccessTokens(); // the long-lived token of the previous scenario ends now
			sc.firstExpiry = { at: emu.now(), cause: 'expired' };
			sc.note = 'access-token lifetime 5 s; the current token expired at the start';
		},
	},
};

async function runScenario(key, ctx) {
	const { emu, workerSvcs, mainPort, runtime, mainSvc } = ctx;
	const sc = { key, ...SCENARIOS[key], note: null, firstExpiry: null, ttlMs: 600_000 };
	const label = `[${key}]`;
	console.log(`\n--- scenario ${key}: ${sc.title}`);

	// Fresh emulator conditions; the token the credential holds carries over (that is the point of b and c).
	emu.onResponse = null;
	emu.resetFaults();
	emu.setTtl({ access: 600 });
	const startSeq = emu.requests.length ? emu.requests[emu.requests.length - 1].seq : 0;
	const scenarioStart = emu.now();
	const maxIdBefore = Number(
		(await pgClient.query('select coalesce(max(id), 0)::int as m from execution_entity')).rows[0].m,
	);
	sc.setup(emu, sc);

	const expected = new Set();
	const bodies = [];
	for (let e = 0; e < opts.executions; e++) {
		const items = [];
		for (let i = 0; i < opts.items; i++) {
			const tag = `q${key}-${startedAt.toString(36)}-e${String(e).padStart(3, '0')}-i${String(i).padStart(3, '0')}`;
			expected.add(tag);
			const id = emu.createProposal({ WorkOrderId: PROPOSAL_WORK_ORDER, Amount: 100 }).Id;
			items.push(sc.concurrency ? { tag, id, concurrency: sc.concurrency } : { tag, id });
		}
		bodies.push({ scenario: key, call: e, items });
	}

	// ---- the webhook calls, 10 at a time
	const url = `http://127.0.0.1:${mainPort}/webhook/${WEBHOOK_PATH}`;
	const t0 = Date.now();
	const answers = [];
	let next = 0;
	const agent = new http.Agent({ keepAlive: true, maxSockets: 10 });
	try {
		await Promise.all(
			Array.from({ length: 10 }, async () => {
				while (next < bodies.length) {
					const b = bodies[next++];
					try {
						answers.push(await httpPostJson(url, b, agent));
					} catch (err) {
						answers.push({ status: null, body: err.message });
					}
				}
			}),
		);
	} finally {
		agent.destroy();
	}
	const postMs = Date.now() - t0;
	const ok200 = answers.filter((a) => a.status === 200).length;
	report(
		ok200 === bodies.length,
		`${label} webhook calls answered 200`,
		`${ok200}/${bodies.length} in ${secs(postMs)}${ok200 === bodies.length ? '' : `; e.g. ${JSON.stringify(answers.find((a) => a.status !== 200)).slice(0, 300)}`}`,
	);

	// ---- wait until every execution of this scenario reached a final status
	let rows = [];
	let timedOut = false;
	let deathSeen = 0;
	const deadline = Date.now() + opts.timeoutMs;
	for (;;) {
		rows = (
			await pgClient.query(
				'select id::int as id, status, finished, "startedAt", "stoppedAt" from execution_entity where "workflowId" = $1 and id > $2 order by id',
				[WORKFLOW_ID, maxIdBefore],
			)
		).rows;
		const done = rows.filter((r) => TERMINAL.has(r.status)).length;
		if (rows.length >= ok200 && done === rows.length) break;
		if (Date.now() > deadline) {
			timedOut = true;
			break;
		}
		if (interrupted) break;
		if (!deathSeen && (mainSvc.exited || workerSvcs.some((w) => w.exited))) {
			// report the death; give the survivors 30 s more, no longer
			deathSeen = Date.now();
			info(
				`an n8n process exited: ${[mainSvc, ...workerSvcs]
					.filter((x) => x.exited)
					.map((x) => `${x.name} ${JSON.stringify(x.exited)}`)
					.join(', ')}`,
			);
		}
		if (deathSeen && Date.now() - deathSeen > 30_000) {
			timedOut = true;
			break;
		}
		await sleep(500);
	}
	const observedMs = Date.now() - t0;
	const lastStop = rows.reduce(
		(m, r) => (r.stoppedAt && r.stoppedAt.getTime() > m ? r.stoppedAt.getTime() : m),
		0,
	);
	const wallMs = lastStop ? lastStop - t0 : observedMs;
	await sleep(300); // let the last responses reach the request log / worker logs
	const entries = emu.requests.filter((r) => r.seq > startSeq);
	emu.onResponse = null;

	// ---- executions
	const statusCount = countBy(rows.map((r) => r.status));
	const success = rows.filter((r) => r.status === 'success').length;
	const failedRows = rows.filter((r) => TERMINAL.has(r.status) && r.status !== 'success');
	const unfinished =
		rows.filter((r) => !TERMINAL.has(r.status)).length + Math.max(0, opts.executions - rows.length);
	const execOk = rows.length === opts.executions && success === opts.executions;
	report(
		execOk,
		`${label} executions`,
		`${success} ok / ${failedRows.length} failed / ${unfinished} unfinished of ${opts.executions} (statuses: ${statusCount.map(([s, n]) => `${n} ${s}`).join(', ') || 'none'}); wall ${secs(wallMs)}${timedOut ? ` — TIMED OUT after ${secs(observedMs)}` : ''}`,
	);
	if (failedRows.length) {
		const msgs = countBy(
			await executionErrors(
				failedRows.map((r) => r.id),
				runtime,
			),
		);
		for (const [m, n] of msgs.slice(0, 5)) info(`${n} x ${m.slice(0, 400)}`);
	}

	// ---- which worker ran what
	const byWorker = executionsByWorker(workerSvcs);
	const ids = rows.map((r) => r.id);
	const perWorker = Object.fromEntries(workerSvcs.map((w) => [w.name, 0]));
	let notStarted = 0;
	let startedTwice = 0;
	for (const id of ids) {
		const ws = byWorker.get(id) || [];
		if (!ws.length) notStarted += 1;
		if (ws.length > 1) startedTwice += 1;
		for (const w of ws) perWorker[w] += 1;
	}
	const spreadOk =
		ids.length > 0 && Object.values(perWorker).every((n) => n > 0) && notStarted === 0;
	report(
		spreadOk,
		`${label} executions spread over the ${workerSvcs.length} workers`,
		`${Object.entries(perWorker)
			.map(([w, n]) => `${w} ${n}`)
			.join(
				', ',
			)}${notStarted ? `; ${notStarted} not seen in any worker log` : ''}${startedTwice ? `; ${startedTwice} started more than once` : ''}`,
	);

	// ---- deliveries: 204 answers per tag
	const updates = entries.filter((e) => e.method === 'PUT' && UPDATE_PATH.test(e.path));
	const delivered = new Map();
	let unexpected = 0;
	for (const e of updates) {
		if (e.status !== 204) continue;
		const tag = e.body && typeof e.body === 'object' ? e.body.Comments : undefined;
		if (!expected.has(tag)) {
			unexpected += 1;
			continue;
		}
		delivered.set(tag, (delivered.get(tag) || 0) + 1);
	}
	let lost = 0;
	let duplicated = 0;
	for (const tag of expected) {
		const n = delivered.get(tag) || 0;
		if (n === 0) lost += 1;
		else if (n > 1) duplicated += n - 1;
	}
	const updStatus = countBy(updates.map((e) => (e.status === null ? 'dropped' : String(e.status))));
	report(
		lost === 0 && duplicated === 0 && unexpected === 0,
		`${label} every tag delivered exactly once`,
		`${expected.size} items: ${delivered.size} delivered, ${lost} lost, ${duplicated} duplicated, ${unexpected} unexpected (PUT answers: ${updStatus.map(([s, n]) => `${n} x ${s}`).join(', ') || 'none'})`,
	);

	// ---- token requests
	const tokenReqs = entries.filter((e) => TOKEN_PATH.test(e.path));
	const lastActivity = entries.reduce((m, e) => Math.max(m, Date.parse(e.time)), 0);
	const issued = emu.state.tokens
		.filter((t) => t.issuedAt >= scenarioStart)
		.sort((x, y) => x.issuedAt - y.issuedAt);
	const { before, episodes } = tokenExpiries(tokenReqs, issued, {
		first: sc.firstExpiry,
		until: lastActivity,
		ttlMs: sc.ttlMs || 600_000,
	});
	const perExpiry = episodes.map((ep) => ep.requests.length);
	const limit = workerSvcs.length + 2;
	const tokenFigures = `${tokenReqs.length} token requests (${describeTokenRequests(tokenReqs)}); ${before.length} before any expiry; ${episodes.length} expiries (${[...new Set(episodes.map((e) => e.cause))].join('/') || '-'}), per expiry [${perExpiry.join(', ')}], max ${Math.max(0, ...perExpiry)}`;
	if (sc.note) info(sc.note);
	if (sc.tokenTarget) {
		const worst = Math.max(before.length, ...perExpiry);
		const minExpiries = sc.minExpiries || 1;
		const okTokens = episodes.length >= minExpiries && worst <= limit;
		report(
			okTokens,
			`${label} token requests at most ${limit} (workers + 2) per expiry`,
			`${tokenFigures}${episodes.length >= minExpiries ? '' : ` — fewer than ${minExpiries} expiries happened: the scenario did not test what it should`}`,
		);
	} else {
		info(
			`${label} tokens: ${episodes.length ? tokenFigures : `${tokenReqs.length} token requests (${describeTokenRequests(tokenReqs)}), first logins; no expiry in this scenario`}`,
		);
	}
	const api401 = entries.filter((e) => e.path.startsWith('/api/') && e.status === 401).length;
	const api429 = entries.filter(
		(e) => e.path.startsWith('/api/') && (e.status === 429 || e.status === 503),
	).length;
	info(
		`${label} API requests ${entries.filter((e) => e.path.startsWith('/api/')).length} (${api401} x 401, ${api429} throttled); wall ${secs(wallMs)} from the first webhook call to the last execution's end`,
	);
	return {
		key,
		wallMs,
		success,
		failed: failedRows.length,
		unfinished,
		lost,
		duplicated,
		tokens: tokenReqs.length,
		perExpiry,
	};
}

// ------------------------------------------------------------------ main
async function main() {
	console.log(
		`queue: n8n queue mode (main + ${WORKERS} workers x concurrency ${WORKER_CONCURRENCY}), ${opts.executions} webhook calls x ${opts.items} items per scenario; scenarios ${opts.scenarios.join(',')}`,
	);
	for (const k of opts.scenarios)
		if (!SCENARIOS[k]) throw new Error(`unknown scenario "${k}" (a, b, c)`);

	// ---- system packages
	const sys = ensureSystemPackages();
	info(
		`system packages: ${sys.installed.length ? `installed ${sys.installed.join(', ')} in ${secs(sys.ms)}` : 'redis-server and postgresql present'} (postgres: ${postgresBinDir()})`,
	);

	// ---- runtime (may wait for a background install holding the lock)
	const runtime = await n8n.ensureRuntime();
	info(
		`n8n runtime: ${runtime.dir} (n8n ${runtime.n8nVersion}; ensureRuntime ${secs(runtime.setupMs)})`,
	);

	const baseDir = await fsp.mkdtemp(path.join(os.tmpdir(), 'wos-queue-'));
	tempDirs.push(baseDir);
	await fsp.chmod(baseDir, 0o711); // the postgres OS user must reach its own subfolder
	const logDir = path.join(baseDir, 'logs');
	await fsp.mkdir(logDir);

	// ---- tarball
	let tarball;
	if (opts.tarball) {
		tarball = path.resolve(opts.tarball);
		const t = spawnSync('tar', ['-tzf', tarball], { encoding: 'utf8' });
		const ok =
			t.status === 0 &&
			t.stdout.includes('package/dist/nodes/WorkOrderService/WorkOrderService.node.js');
		report(
			ok,
			`given tarball ${path.basename(tarball)} holds the node`,
			ok ? null : (t.stderr || 'node file missing').trim(),
		);
		if (!ok) return;
	} else {
		const packDir = path.join(baseDir, 'pack');
		await fsp.mkdir(packDir);
		// `npm run test:queue` has just built
		let packed = null;
		let failure = '';
		try {
			packed = n8n.packPackage(packDir);
		} catch (err) {
			failure = err.message;
		}
		const ok =
			packed !== null &&
			packed.info.files.some(
				(f) => f.path === 'dist/nodes/WorkOrderService/WorkOrderService.node.js',
			);
		report(
			ok,
			'npm pack: tarball with the node',
			ok
				? `${packed.info.filename}, ${packed.info.files.length} files`
				: failure || 'the node is not in the tarball',
		);
		if (!ok) return;
		tarball = packed.tarball;
	}

	// ---- Redis, PostgreSQL, emulator
	const t0 = Date.now();
	const [redis, pg] = await Promise.all([
		startRedis(baseDir, logDir),
		startPostgres(baseDir, runtime, logDir),
	]);
	emulator = await startEmulator({ port: 0 });
	const emu = emulator;
	info(
		`redis 127.0.0.1:${redis.port} (${secs(redis.readyMs)}); postgres ${pg.db.version} 127.0.0.1:${pg.db.port} as OS user ${pg.osUser} (initdb ${secs(pg.initMs)}, ready ${secs(pg.readyMs)}); emulator ${emu.origin}`,
	);

	// ---- n8n instances: one user folder each, one database, one Redis, one key
	const queueEnv = {
		EXECUTIONS_MODE: 'queue',
		QUEUE_BULL_REDIS_HOST: '127.0.0.1',
		QUEUE_BULL_REDIS_PORT: String(redis.port),
		DB_TYPE: 'postgresdb',
		DB_POSTGRESDB_HOST: pg.db.host,
		DB_POSTGRESDB_PORT: String(pg.db.port),
		DB_POSTGRESDB_DATABASE: pg.db.database,
		DB_POSTGRESDB_USER: pg.db.user,
		DB_POSTGRESDB_PASSWORD: pg.db.password,
		N8N_LISTEN_ADDRESS: '127.0.0.1',
		N8N_HOST: '127.0.0.1',
		N8N_GRACEFUL_SHUTDOWN_TIMEOUT: '10',
	};
	const mainInst = await n8n.createInstance({
		encryptionKey: ENCRYPTION_KEY,
		runtime,
		baseDir,
		env: queueEnv,
	});
	const workerInsts = [];
	for (let i = 0; i < WORKERS; i++) {
		const healthPort = await n8n.freePort();
		workerInsts.push(
			await n8n.createInstance({
				encryptionKey: ENCRYPTION_KEY,
				runtime,
				baseDir,
				env: {
					...queueEnv,
					// the worker's HTTP server (/healthz, /healthz/readiness) only runs when asked for; on its own port
					QUEUE_HEALTH_CHECK_ACTIVE: 'true',
					QUEUE_HEALTH_CHECK_PORT: String(healthPort),
					N8N_WORKER_SERVER_ADDRESS: '127.0.0.1',
				},
			}),
		);
	}
	const mainPort = Number(mainInst.env.N8N_PORT);
	const tInstall = Date.now();
	await Promise.all(
		[mainInst, ...workerInsts].map((inst) => n8n.installCommunityPackage(inst, tarball)),
	);
	const installMs = Date.now() - tInstall;
	const tImport = Date.now();

	// ---- credential + workflow into the shared database (the first command runs the migrations)
	const cred = demoCredentials(emu).find((c) => c.id === CREDENTIAL_ID);
	await n8n.importCredentials(mainInst, [cred]);
	await n8n.importWorkflows(mainInst, [workflowDefinition(cred.name)]);
	const pub = await n8n.runN8n(mainInst, ['publish:workflow', `--id=${WORKFLOW_ID}`]);
	const wfRow = (
		await pgClient.query(
			'select active, "activeVersionId", "versionId" from workflow_entity where id = $1',
			[WORKFLOW_ID],
		)
	).rows[0];
	const published = Boolean(wfRow && wfRow.active && wfRow.activeVersionId);
	report(
		published,
		'credential + workflow imported into PostgreSQL and published (n8n publish:workflow)',
		published
			? `active version ${wfRow.activeVersionId}; package installed x${1 + WORKERS} in ${secs(installMs)}, import:credentials + import:workflow + publish:workflow ${secs(Date.now() - tImport)}`
			: `workflow row ${JSON.stringify(wfRow)}; publish exit ${pub.code}\n${(pub.stdout + pub.stderr).slice(-2000)}`,
	);
	if (!published) return;

	// ---- main and the workers, started together (the migrations ran during the imports)
	const tStart = Date.now();
	const mainSvc = startN8n(mainInst, 'main', ['start'], logDir);
	const workerSvcs = workerInsts.map((inst, i) =>
		startN8n(inst, `worker${i + 1}`, ['worker', `--concurrency=${WORKER_CONCURRENCY}`], logDir),
	);
	const [mainMs, ...workerMs] = await Promise.all([
		(async () => {
			await waitFor(
				'n8n main /healthz/readiness',
				async () =>
					(await httpGet(`http://127.0.0.1:${mainPort}/healthz/readiness`)).status === 200,
				{ timeoutMs: 180_000, svc: mainSvc },
			);
			await waitFor(
				'the production webhook to be registered',
				async () =>
					(
						await pgClient.query(
							'select count(*)::int as n from webhook_entity where "workflowId" = $1',
							[WORKFLOW_ID],
						)
					).rows[0].n > 0,
				{ timeoutMs: 60_000, svc: mainSvc },
			);
			return Date.now() - tStart;
		})(),
		...workerSvcs.map(async (svc, i) => {
			const url = `http://127.0.0.1:${workerInsts[i].env.QUEUE_HEALTH_CHECK_PORT}/healthz/readiness`;
			await waitFor(
				`${svc.name} /healthz/readiness`,
				async () => (await httpGet(url)).status === 200,
				{ timeoutMs: 180_000, svc },
			);
			// /healthz/readiness says DB + Redis are up; the worker takes jobs after "n8n worker is now ready".
			await waitFor(
				`${svc.name} to take jobs`,
				() => /n8n worker is now ready/.test(tail(svc.logFile, 400)),
				{ timeoutMs: 60_000, svc },
			);
			return Date.now() - tStart;
		}),
	]);
	const loadWarnings = [mainSvc, ...workerSvcs].flatMap((s) =>
		tail(s.logFile, 2000)
			.split('\n')
			.filter((l) => /Skipping package|Failed to load|Unrecognized node type/i.test(l))
			.map((l) => `${s.name}: ${l}`),
	);
	report(
		loadWarnings.length === 0,
		`n8n queue mode up: main + ${WORKERS} workers on PostgreSQL + Redis`,
		`${secs(Date.now() - t0)} from the first service start (main ready + webhook registered ${secs(mainMs)}, workers ready ${workerMs.map(secs).join(' / ')} after their start); n8n ports main ${mainPort}, workers' health ${workerInsts.map((w) => w.env.QUEUE_HEALTH_CHECK_PORT).join('/')}${loadWarnings.length ? `; ${loadWarnings.slice(0, 3).join(' | ')}` : ''}`,
	);

	// ---- scenarios
	const ctx = { emu, workerSvcs, mainSvc, mainPort, runtime };
	for (const key of opts.scenarios) {
		await runScenario(key, ctx);
		const dead = [mainSvc, ...workerSvcs, redis.svc, pg.svc].filter((s) => s.exited);
		if (dead.length) {
			report(
				false,
				'all services still running',
				dead
					.map((s) => `${s.name} exited ${JSON.stringify(s.exited)}\n${tail(s.logFile, 30)}`)
					.join('\n'),
			);
			break;
		}
	}
}

main()
	.catch((err) => {
		report(false, 'run aborted', String(err && err.stack ? err.stack : err));
	})
	.finally(async () => {
		if (interrupted) return; // the signal handler stops everything and exits
		const stopT = Date.now();
		await stopAll();
		const passed = results.filter((r) => r.ok).length;
		const failed = results.length - passed;
		console.log(
			`\nstopped everything in ${secs(Date.now() - stopT)}; total ${secs(Date.now() - startedAt)}`,
		);
		console.log(`queue: ${passed} passed, ${failed} failed`);
		process.exit(failed || !results.length ? 1 : 0);
	});
