'use strict';
/*
 * The ~N MB work-order notes list used by the lossless-JSON benchmarks (bench/lossless-json.bench.js
 * and case 4 of bench/run.js): deterministic text, every note with two int64 ids above 2^53
 * (`Id` counting up from 2^53 + 1, `WorkOrderId` counting down from 2^63 - 1); or, with
 * `{ unsafeIds: false }`, the same notes with ids well inside the safe integers (`Id` counting up
 * from 10^11, `WorkOrderId` from 90,000,000: no run of 16 digits anywhere).
 */

// Deterministic PRNG so every run measures the same document.
const { mulberry32 } = require('../test/support/prng');

const WORDS = (
	'technician arrived on site replaced the filter checked pressure valve ' +
	'leak found under sink customer approved proposal "urgent" follow-up \\ ' +
	'ticket #4821 parts ordered ETA Monday unit 12B, floor 3 – café señor 部品 ✓'
).split(' ');

/** Expected `WorkOrderId` of note i. */
function workOrderIdOf(i, unsafeIds = true) {
	return unsafeIds ? (9223372036854775807n - BigInt(i)).toString() : String(90000000 + i);
}

/** @returns {{ json: string, ids: string[] }} the document and the exact `Id` of every note */
function buildNotesDocument(targetBytes, { unsafeIds = true } = {}) {
	const rand = mulberry32(20240615);
	const base = unsafeIds ? 9007199254740993n : 100000000000n; // 2^53 + 1, or 10^11
	const ids = [];
	const notes = [];
	let bytes = 0;
	for (let i = 0; bytes < targetBytes; i++) {
		const id = (base + BigInt(i) * 7919n).toString();
		ids.push(id);
		let text = '';
		const words = 20 + Math.floor(rand() * 40);
		for (let w = 0; w < words; w++) text += WORDS[Math.floor(rand() * WORDS.length)] + ' ';
		const day = String(1 + (i % 28)).padStart(2, '0');
		const note =
			'{"Id":' +
			id +
			',"WorkOrderId":' +
			workOrderIdOf(i, unsafeIds) +
			',"NoteData":' +
			JSON.stringify(text.trim()) +
			',"DateCreated":"2024-05-' +
			day +
			'T10:' +
			String(i % 60).padStart(2, '0') +
			':00Z"' +
			',"CreatedBy":"user' +
			(i % 97) +
			'@contractor.example"' +
			',"IsPinned":' +
			(i % 13 === 0) +
			',"IsPrivate":' +
			(i % 7 === 0) +
			',"Visibility":' +
			(i % 3) +
			',"AttachmentCount":' +
			Math.floor(rand() * 5) +
			',"Rating":' +
			Math.round(rand() * 500) / 100 +
			'}';
		notes.push(note);
		bytes += note.length + 1;
	}
	const json = '{"Notes":[' + notes.join(',') + '],"AllNotesCount":' + notes.length + '}';
	return { json, ids };
}

module.exports = { mulberry32, buildNotesDocument, workOrderIdOf };
