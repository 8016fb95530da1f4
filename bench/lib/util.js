'use strict';
/**
 * Small helpers shared by the benchmark cases: statistics, memory readings, machine info,
 * child processes, formatting.
 */
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const { fork, execFileSync } = require('node:child_process');

const ROOT = path.resolve(__dirname, '..', '..');

function median(values) {
	const v = values.filter((x) => typeof x === 'number' && Number.isFinite(x)).sort((a, b) => a - b);
	if (!v.length) return null;
	const mid = v.length >> 1;
	return v.length % 2 ? v[mid] : (v[mid - 1] + v[mid]) / 2;
}

/** Nearest-rank percentile (p in 0..100). */
function percentile(values, p) {
	const v = values.filter((x) => Number.isFinite(x)).sort((a, b) => a - b);
	if (!v.length) return null;
	const rank = Math.min(v.length - 1, Math.max(0, Math.ceil((p / 100) * v.length) - 1));
	return v[rank];
}

function round(x, digits = 2) {
	if (x === null || x === undefined || !Number.isFinite(x)) return x;
	const f = 10 ** digits;
	return Math.round(x * f) / f;
}

const MB = 1024 * 1024;

/** Linux: current and peak resident set size of this process, in bytes (VmRSS / VmHWM). */
function procStatus() {
	try {
		const text = fs.readFileSync('/proc/self/status', 'utf8');
		const kb = (name) => {
			const m = new RegExp(`^${name}:\\s+(\\d+) kB`, 'm').exec(text);
			return m ? Number(m[1]) * 1024 : null;
		};
		return { rss: kb('VmRSS'), hwm: kb('VmHWM') };
	} catch {
		return { rss: process.memoryUsage().rss, hwm: null };
	}
}

/**
 * Resets the kernel's peak-RSS counter (VmHWM) to the current RSS (Linux >= 4.0:
 * `echo 5 > /proc/self/clear_refs`). Returns false where that is not possible.
 */
function resetPeakRss() {
	try {
		fs.writeFileSync('/proc/self/clear_refs', '5');
		return true;
	} catch {
		return false;
	}
}

/**
 * Samples process.memoryUsage() every `intervalMs` (a timer: it cannot see inside one long
 * synchronous step, which is why RSS peaks come from VmHWM, not from this sampler).
 */
function startSampler(intervalMs = 5) {
	const peak = { rss: 0, heapUsed: 0, heapTotal: 0, external: 0, arrayBuffers: 0 };
	let samples = 0;
	const take = () => {
		const m = process.memoryUsage();
		samples++;
		for (const k of Object.keys(peak)) if (m[k] > peak[k]) peak[k] = m[k];
	};
	take();
	const timer = setInterval(take, intervalMs);
	return {
		stop() {
			clearInterval(timer);
			take();
			return { ...peak, samples };
		},
	};
}

function gc() {
	if (typeof global.gc === 'function') {
		global.gc();
		global.gc();
	}
}

function loadAverage() {
	return os.loadavg().map((x) => round(x, 2));
}

function gitCommit() {
	try {
		const head = execFileSync('git', ['rev-parse', '--short', 'HEAD'], {
			cwd: ROOT,
			encoding: 'utf8',
			stdio: ['ignore', 'pipe', 'ignore'],
		}).trim();
		const dirty = execFileSync(
			'git',
			['status', '--porcelain', '--', 'nodes', 'credentials', 'package.json'],
			{ cwd: ROOT, encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] },
		).trim();
		return dirty ? `${head} (+ uncommitted changes in nodes/credentials/package.json)` : head;
	} catch {
		return null;
	}
}

function machineInfo() {
	const cpus = os.cpus();
	let n8nCore = null;
	try {
		n8nCore = require(path.join(ROOT, 'node_modules', 'n8n-core', 'package.json')).version;
	} catch {
		/* not installed */
	}
	return {
		cpuCount: cpus.length,
		cpuModel: cpus[0]?.model ?? null,
		availableParallelism:
			typeof os.availableParallelism === 'function' ? os.availableParallelism() : null,
		totalMemoryMB: Math.round(os.totalmem() / MB),
		freeMemoryMBAtStart: Math.round(os.freemem() / MB),
		platform: `${os.platform()} ${os.release()} ${os.arch()}`,
		node: process.version,
		v8: process.versions.v8,
		n8nCore,
		packageVersion: require(path.join(ROOT, 'package.json')).version,
		gitCommit: gitCommit(),
		exposeGc: typeof global.gc === 'function',
	};
}

/**
 * Runs bench/lib/worker.js (or another script) in a fresh Node process with IPC and resolves
 * the first message it sends ({ ok, ... }), rejecting if it exits without one.
 */
function runWorker(script, job, { execArgv = ['--expose-gc'], timeoutMs = 300_000 } = {}) {
	return new Promise((resolve, reject) => {
		const child = fork(script, [JSON.stringify(job)], {
			cwd: ROOT,
			execArgv,
			stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
			env: { ...process.env, NODE_OPTIONS: '' },
		});
		let answer;
		const timer = setTimeout(() => {
			child.kill('SIGKILL');
			reject(
				new Error(`worker ${path.basename(script)} ${job.kind} timed out after ${timeoutMs} ms`),
			);
		}, timeoutMs);
		child.on('message', (msg) => {
			answer = msg;
		});
		child.on('error', (err) => {
			clearTimeout(timer);
			reject(err);
		});
		child.on('exit', (code, signal) => {
			clearTimeout(timer);
			if (answer && answer.ok) resolve(answer);
			else if (answer) reject(new Error(`worker ${job.kind} failed: ${answer.error}`));
			else
				reject(
					new Error(`worker ${job.kind} exited (code ${code}, signal ${signal}) without a result`),
				);
		});
	});
}

function fmtMs(ms) {
	if (ms === null || ms === undefined) return 'n/a';
	return ms >= 10_000
		? `${(ms / 1000).toFixed(1)} s`
		: ms >= 100
			? `${Math.round(ms)} ms`
			: `${ms.toFixed(1)} ms`;
}

function fmtMB(bytes) {
	if (bytes === null || bytes === undefined) return 'n/a';
	return `${(bytes / MB).toFixed(1)} MB`;
}

function log(...args) {
	process.stderr.write(`[bench ${new Date().toISOString().slice(11, 19)}] ${args.join(' ')}\n`);
}

module.exports = {
	ROOT,
	MB,
	median,
	percentile,
	round,
	procStatus,
	resetPeakRss,
	startSampler,
	gc,
	loadAverage,
	machineInfo,
	runWorker,
	fmtMs,
	fmtMB,
	log,
};
