'use strict';
/*
 * Benchmark: parseJsonLossless vs JSON.parse on a ~5 MB work-order notes list
 * whose ids are above 2^53. Not a test; run after building (or after compiling
 * losslessJson.ts alone into dist/):
 *
 *   node bench/lossless-json.bench.js [targetMB] [runs]
 *
 * Prints the median ops/s and MB/s of both parsers, their ratio, and whether
 * every int64 id came back with exact digits.
 */
const path = require('path');
const { parseJsonLossless } = require(
	path.join(__dirname, '../dist/nodes/WorkOrderService/transport/losslessJson'),
);

const TARGET_MB = Number(process.argv[2]) || 5;
const RUNS = Number(process.argv[3]) || 15;

// The document generator is shared with bench/run.js (case 4).
const { buildNotesDocument } = require('./notes-document');

function median(values) {
	const sorted = [...values].sort((a, b) => a - b);
	const mid = sorted.length >> 1;
	return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
}

// Time both parsers on the same text, alternating run by run so that GC and
// machine noise hit both equally; returns median milliseconds of each.
function measurePair(text) {
	for (let i = 0; i < 3; i++) {
		JSON.parse(text);
		parseJsonLossless(text);
	}
	const native = [];
	const lossless = [];
	for (let i = 0; i < RUNS; i++) {
		let t0 = process.hrtime.bigint();
		JSON.parse(text);
		native.push(Number(process.hrtime.bigint() - t0) / 1e6);
		t0 = process.hrtime.bigint();
		parseJsonLossless(text);
		lossless.push(Number(process.hrtime.bigint() - t0) / 1e6);
	}
	return { native: median(native), lossless: median(lossless) };
}

const { json, ids } = buildNotesDocument(TARGET_MB * 1024 * 1024);
const mb = Buffer.byteLength(json, 'utf8') / (1024 * 1024);

// Exactness check.
const lossless = parseJsonLossless(json);
let exact = lossless.Notes.length === ids.length;
for (let i = 0; exact && i < ids.length; i++) {
	const note = lossless.Notes[i];
	exact =
		note.Id === ids[i] &&
		note.WorkOrderId === (9223372036854775807n - BigInt(i)).toString() &&
		typeof note.Visibility === 'number';
}
const native = JSON.parse(json);
let nativeExact = 0;
for (let i = 0; i < ids.length; i++)
	if (String(BigInt(native.Notes[i].Id)) === ids[i]) nativeExact++;

function row(name, ms, size) {
	return `${name.padEnd(20)} ${ms.toFixed(2).padStart(8)} ms  ${(1000 / ms).toFixed(1).padStart(7)} ops/s  ${(size / (ms / 1000)).toFixed(1).padStart(7)} MB/s`;
}

function report(title, text) {
	const size = Buffer.byteLength(text, 'utf8') / (1024 * 1024);
	const t = measurePair(text);
	console.log(`\n${title} (${size.toFixed(2)} MB)`);
	console.log(row('JSON.parse', t.native, size));
	console.log(row('parseJsonLossless', t.lossless, size));
	console.log(`speed ratio lossless/JSON.parse: ${(t.native / t.lossless).toFixed(2)}x`);
}

console.log(`node ${process.version}; median of ${RUNS} alternating runs`);
report(
	`notes list, ${ids.length} notes, ${ids.length * 2} int64 ids above 2^53 (target >= 0.7x)`,
	json,
);
console.log(
	`ids exact: parseJsonLossless ${exact ? 'yes' : 'NO'}; JSON.parse ${nativeExact}/${ids.length} Id values exact`,
);

// Same document without unsafe ids: fast path (one regex scan + JSON.parse).
report(
	'same list, all ids small',
	json.replace(/"(Id|WorkOrderId)":\d+/g, (_m, k) => '"' + k + '":12345'),
);

// Note texts mention long numbers in prose: rejected by the context check,
// so still a single pass.
report(
	'same list, long numbers in NoteData prose',
	json.replace(/"NoteData":"/g, '"NoteData":"ref 12345678901234567890 '),
);

// Note texts that look like JSON around a long number (", 1234...,"): the
// optimistic pass fails and the string-tracking pass runs (worst case).
report(
	'same list, JSON-like "[12345678901234567890]" in NoteData (fallback pass)',
	json.replace(/"NoteData":"/g, '"NoteData":"ids [12345678901234567890] '),
);
