'use strict';
/**
 * Which files of this package one Proposal → Approve crosses, measured, not argued: V8's precise
 * coverage (node:inspector, Profiler) counts every function call; the counters are reset once the
 * package, n8n-core and the emulator are loaded, then one approve runs through n8n-core's real
 * execution against the emulator, and the package's dist files with a function that ran are listed.
 *
 * Three cases: `login` (a credential without a token: n8n calls preAuthentication, which logs in),
 * `stored` (the token n8n saved for it) and `refused` (the service refuses with 400: the error path). Run after `npm run build`:
 *   node scripts/approve-route.js          (a table)
 *   node scripts/approve-route.js --json   ({ login: { files, functions }, stored: ... })
 */
const inspector = require('node:inspector');
const path = require('node:path');

const ROOT = path.resolve(__dirname, '..');
const DIST = path.join(ROOT, 'dist');

const session = new inspector.Session();
session.connect();
const post = (method, params = {}) =>
	new Promise((resolve, reject) =>
		session.post(method, params, (error, result) => (error ? reject(error) : resolve(result))),
	);

/** Package functions called since the last take (the take resets the counters). */
async function take() {
	const { result } = await post('Profiler.takePreciseCoverage');
	const calls = new Map();
	for (const script of result) {
		if (!script.url.startsWith('file://')) continue;
		const file = new URL(script.url).pathname;
		if (!file.startsWith(DIST + path.sep)) continue;
		for (const fn of script.functions) {
			// the first range of a function is its whole body; the module's own top level ran at load
			const count = fn.ranges[0].count;
			if (count === 0 || fn.ranges[0].startOffset === 0) continue;
			const name = path.relative(DIST, file);
			const list = calls.get(name) ?? [];
			list.push(fn.functionName || '(anonymous)');
			calls.set(name, list);
		}
	}
	return calls;
}

async function main() {
	await post('Profiler.enable');
	await post('Profiler.startPreciseCoverage', { callCount: true, detailed: false });
	const support = require('../test/support');
	const env = await support.setup();
	// an Open proposal per successful approve: the service refuses to approve one twice
	const [forLogin, forStored] = support.openProposals(env.emulator, 2);
	const approve = {
		resource: 'proposal',
		operation: 'approve',
		additionalFields: { comments: 'route' },
	};
	env.harness.credentials.set('cred-1', {
		name: 'Emulator password',
		type: 'workOrderServiceApi',
		data: support.passwordCredential(env.emulator),
	});
	const cases = {};
	try {
		await take();
		for (const name of ['login', 'stored', 'refused']) {
			env.emulator.clearRequests();
			// refused: an approve the service refuses with 400 (an invoiced work order's proposal): the error path
			const proposalId = {
				login: forLogin,
				stored: forStored,
				refused: env.emulator.fixtures.proposals.invoiced,
			}[name];
			const parameters = { ...approve, proposalId };
			const run = await support.runNode(env.harness, { parameters });
			const calls = await take();
			if ((run.error !== undefined) !== (name === 'refused'))
				throw run.error ?? new Error('the refused approve succeeded');
			const sent = support
				.apiRequests(env.emulator)
				.map((q) => `${q.method} ${q.path} ${q.status}`);
			const logins = support.tokenRequests(env.emulator).length;
			cases[name] = {
				files: [...calls.keys()].sort(),
				functions: Object.fromEntries([...calls].sort()),
				sent,
				logins,
			};
		}
	} finally {
		await env.close();
		session.disconnect();
	}
	if (process.argv.includes('--json')) {
		process.stdout.write(`${JSON.stringify(cases, null, 2)}\n`);
		return;
	}
	for (const [name, c] of Object.entries(cases)) {
		const title = {
			login: 'Approve with a credential without a token (login)',
			stored: 'Approve with the stored token',
			refused: 'Approve refused by the service (400)',
		}[name];
		console.log(`\n${title}: ${c.sent.join(', ')}; token requests: ${c.logins}`);
		console.log(`${c.files.length} files of the package ran:`);
		for (const file of c.files)
			console.log(`  ${file.padEnd(58)} ${c.functions[file].length} functions`);
	}
}

main().catch((error) => {
	console.error(error);
	process.exit(1);
});
