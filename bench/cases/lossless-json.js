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

async function run({ runs = 15, targetMB = 5 } = {}) {
	const { parseJsonLossless } = require(path.join(ROOT, 'dist/nodes/WorkOrderService/transport/losslessJson'));
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
	const safeStillNumbers = l.Notes.every((n) => typeof n.Visibility === 'number' && typeof n.Rating === 'number');
	const j = JSON.parse(json);
	let nativeExact = 0;
	for (let i = 0; i < ids.length; i++) {
		const n = j.Notes[i];
		if (Number.isInteger(n.Id) && BigInt(n.Id).toString() === ids[i]) nativeExact++;
		if (Number.isInteger(n.WorkOrderId) && BigInt(n.WorkOrderId).toString() === workOrderIdOf(i)) nativeExact++;
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
		samplesMs: { jsonParse: native.map((x) => round(x, 2)), lossless: lossless.map((x) => round(x, 2)) },
		met: ratio >= 0.5 && losslessExact === int64Total,
	};
}

module.exports = { run };
