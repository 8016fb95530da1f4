'use strict';
/**
 * A running n8n (`n8n start`, the e2e runtime of ../e2e/n8n.js) for the editor test:
 * its own user folder with this package installed as a community package, listening on
 * 127.0.0.1:<free port>, editor and webhook base URL on 127.0.0.1 so that n8n's OAuth2
 * callback URL is http://127.0.0.1:<port>/rest/oauth2-credential/callback.
 *
 *   const server = await startN8nServer({ runtime, tarball });   // { url, port, instance, stop(), log() }
 *   ...
 *   await server.stop();
 */

const { spawn } = require('node:child_process');
const fs = require('node:fs');
const path = require('node:path');

const n8n = require('../e2e/n8n');

const OWNER = Object.freeze({
	email: 'owner@wos-editor.example',
	firstName: 'Editor',
	lastName: 'Test',
	password: 'Editor-Test-Pass1',
});

function sleep(ms) {
	return new Promise((resolve) => setTimeout(resolve, ms));
}

/** GET/POST on 127.0.0.1 with fetch; resolves { status, json, text, headers }. */
async function http(url, { method = 'GET', body, headers = {}, timeoutMs = 10_000 } = {}) {
	const res = await fetch(url, {
		method,
		headers: { ...(body ? { 'content-type': 'application/json' } : {}), ...headers },
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

/**
 * Start n8n with the package installed. opts: runtime (ensureRuntime()), tarball,
 * encryptionKey, env (extra), startTimeoutMs (default 180 s).
 */
async function startN8nServer(opts) {
	const instance = await n8n.createInstance({
		encryptionKey: opts.encryptionKey || 'wos-editor-test-key-0123456789',
		runtime: opts.runtime,
	});
	await n8n.installCommunityPackage(instance, opts.tarball);
	const port = Number(instance.env.N8N_PORT);
	const url = `http://127.0.0.1:${port}`;
	const env = {
		...instance.env,
		N8N_LISTEN_ADDRESS: '127.0.0.1',
		N8N_HOST: '127.0.0.1',
		N8N_PROTOCOL: 'http',
		N8N_EDITOR_BASE_URL: `${url}/`,
		WEBHOOK_URL: `${url}/`,
		N8N_SECURE_COOKIE: 'false',
		N8N_RUNNERS_MODE: 'internal',
		// No "What's new" / banners / templates / AI panels popping over the canvas.
		N8N_AI_ENABLED: 'false',
		N8N_PUBLIC_API_DISABLED: 'true',
		...(opts.env || {}),
	};
	const logFile = path.join(instance.dir, 'n8n-start.log');
	const out = fs.openSync(logFile, 'a');
	const started = Date.now();
	const child = spawn(instance.runtime.node, [instance.runtime.n8nBin, 'start'], {
		cwd: instance.dir,
		env,
		stdio: ['ignore', out, out],
		detached: true, // own process group: stop() kills n8n and its task runner together
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
	// Never outlive the test process.
	const onExit = () => killGroup('SIGKILL');
	process.on('exit', onExit);

	const log = () => {
		try {
			return fs.readFileSync(logFile, 'utf8');
		} catch {
			return '';
		}
	};

	const stop = async () => {
		process.removeListener('exit', onExit);
		if (exited) return;
		killGroup('SIGTERM');
		const deadline = Date.now() + 15_000;
		while (!exited && Date.now() < deadline) await sleep(100);
		killGroup('SIGKILL');
	};

	// Ready = the REST settings answer (the editor's first call) after "Editor is now accessible".
	const deadline = Date.now() + (opts.startTimeoutMs || 180_000);
	for (;;) {
		if (exited)
			throw new Error(`n8n start exited (${JSON.stringify(exited)}):\n${log().slice(-4000)}`);
		if (Date.now() > deadline) {
			await stop();
			throw new Error(`n8n did not become ready in time:\n${log().slice(-4000)}`);
		}
		if (/Editor is now accessible/.test(log())) {
			try {
				const res = await http(`${url}/rest/settings`, { timeoutMs: 5_000 });
				if (res.status === 200) break;
			} catch {
				/* not yet */
			}
		}
		await sleep(250);
	}
	return { url, port, instance, child, env, log, logFile, stop, startMs: Date.now() - started };
}

/** Create the owner account through n8n's REST API (what the /setup form posts). */
async function setupOwner(url, owner = OWNER) {
	const res = await http(`${url}/rest/owner/setup`, { method: 'POST', body: owner });
	if (res.status !== 200)
		throw new Error(`owner setup: HTTP ${res.status} ${res.text.slice(0, 500)}`);
	return owner;
}

module.exports = { startN8nServer, setupOwner, http, OWNER, sleep };
