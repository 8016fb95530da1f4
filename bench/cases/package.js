'use strict';
/**
 * Case 7: package. Cold require time of the node and each credential module (fresh child process
 * per measurement, median), both including the first load of n8n-workflow (what a lone require
 * costs) and net of it (n8n-workflow already loaded, as inside n8n); packed tarball size
 * (`npm pack --json` into a temp dir, the same tarball case 3 installs into n8n); runtime
 * dependency count (package.json "dependencies").
 */
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const { execFileSync } = require('node:child_process');
const { ROOT, median, round, log } = require('../lib/util');

const MODULES = [
	['node', 'dist/nodes/WorkOrderService/WorkOrderService.node.js'],
	['workOrderServiceApi', 'dist/credentials/WorkOrderServiceApi.credentials.js'],
	['workOrderServiceOAuth2Api', 'dist/credentials/WorkOrderServiceOAuth2Api.credentials.js'],
	[
		'workOrderServiceContractorApi',
		'dist/credentials/WorkOrderServiceContractorApi.credentials.js',
	],
];

const PROBE = `
const path = require('path');
const [file, preload] = process.argv.slice(1);
if (preload === '1') require('n8n-workflow');
const t0 = process.hrtime.bigint();
const mod = require(path.resolve(file));
const ms = Number(process.hrtime.bigint() - t0) / 1e6;
const cls = Object.values(mod).find((v) => typeof v === 'function');
new cls();
process.stdout.write(JSON.stringify({ ms }));
`;

function requireMs(file, preload) {
	const out = execFileSync(process.execPath, ['-e', PROBE, file, preload ? '1' : '0'], {
		cwd: ROOT,
		encoding: 'utf8',
		env: { ...process.env, NODE_OPTIONS: '' },
	});
	return JSON.parse(out).ms;
}

function pack() {
	const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'wos-bench-pack-'));
	const out = execFileSync(
		'npm',
		['pack', '--json', '--pack-destination', dir, '--loglevel=error'],
		{
			cwd: ROOT,
			encoding: 'utf8',
			env: {
				...process.env,
				npm_config_ignore_scripts: 'true',
				npm_config_update_notifier: 'false',
			},
		},
	);
	const info = JSON.parse(out)[0];
	const tarball = path.join(dir, info.filename);
	return { dir, tarball, info };
}

async function run({ runs = 7 } = {}) {
	const requireTimes = {};
	for (const [name, file] of MODULES) {
		const cold = [];
		const net = [];
		for (let r = 0; r < runs; r++) {
			// interleaved: with and without n8n-workflow preloaded
			cold.push(requireMs(file, false));
			net.push(requireMs(file, true));
		}
		requireTimes[name] = {
			file,
			coldMs: round(median(cold), 2),
			netOfN8nWorkflowMs: round(median(net), 2),
			samplesCold: cold.map((x) => round(x, 1)),
			samplesNet: net.map((x) => round(x, 1)),
		};
	}
	log('case 7: require times done; packing');
	const { dir, tarball, info } = pack();
	const pj = JSON.parse(fs.readFileSync(path.join(ROOT, 'package.json'), 'utf8'));
	const deps = Object.keys(pj.dependencies ?? {});
	const files = info.files ?? [];
	const sum = (re) => files.filter((f) => re.test(f.path)).reduce((a, f) => a + f.size, 0);
	return {
		runs,
		requireTimes,
		tarball: {
			path: tarball,
			tempDir: dir,
			packedBytes: fs.statSync(tarball).size,
			unpackedBytes: info.unpackedSize,
			fileCount: files.length,
			bytesByKind: {
				js: sum(/\.js$/),
				sourceMaps: sum(/\.js\.map$/),
				typeDeclarations: sum(/\.d\.ts$/),
				tsbuildinfo: sum(/\.tsbuildinfo$/),
				jsonAndIcons: sum(/\.(json|svg)$/),
				docs: sum(/(README|LICENSE)/),
			},
		},
		runtimeDependencies: deps.length,
		runtimeDependencyNames: deps,
		peerDependencies: Object.keys(pj.peerDependencies ?? {}),
		met: deps.length === 0,
	};
}

module.exports = { run };
