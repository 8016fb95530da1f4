'use strict';
const { publicNote, publicAttachment } = require('../../emulator/notes');
/**
 * What the workOrderNote tests share (not a test file): the fixture's note IDs (2^31, 2^53 + 1,
 * 2^63 - 1) and the shapes in which the node emits what the emulator sent (IDs as exact decimal
 * strings).
 */

const WO = 90000005; // fixtures.notes.workOrderId
const PAGED_WO = 90000003; // gets 60 extra notes for the paging tests (getAll.test.js)
const CREATE_WO = 90000002;
const BIG31 = '2147483648';
const BIG53 = '9007199254740993';
const MAX64 = '9223372036854775807';

/**
 * A value the emulator sent as the node's lossless parser reads it: integers beyond 2^53 as exact
 * strings, safe integers as numbers (the emulator's lossless parser gives BigInt for the former).
 */
function parsedShape(value) {
	if (typeof value === 'bigint')
		return Number.isSafeInteger(Number(value)) ? Number(value) : value.toString();
	if (Array.isArray(value)) return value.map(parsedShape);
	if (value && typeof value === 'object') {
		const out = {};
		for (const [k, v] of Object.entries(value)) out[k] = parsedShape(v);
		return out;
	}
	return value;
}

/** A note ID as the node emits it: always a decimal string, whatever its size. */
const idText = (id) => (id === null || id === undefined ? id : String(id));

/**
 * What the node emits for a note record the emulator sent: the note's Id and every NoteId (its
 * attachments') as decimal strings, every other field as parsed.
 */
function nodeShape(note) {
	const out = parsedShape(note);
	out.Id = idText(note.Id);
	if (Array.isArray(out.Attachments))
		out.Attachments = out.Attachments.map((a) => ({ ...a, NoteId: idText(a.NoteId) }));
	return out;
}

/** The emulator's stored note, in its public (wire) shape: the reference's Note. */
function storedNote(env, woId, id) {
	const note = env.emulator.state.notes[woId].find((n) => n.Id === BigInt(id));
	expect(note).toBeDefined();
	return publicNote(env.emulator, note);
}

/** What the node emits for a stored attachment: the reference's Attachment, its NoteId as text. */
function attachmentOut(env, a) {
	const out = parsedShape(publicAttachment(env.emulator, a));
	return { ...out, NoteId: idText(out.NoteId) };
}

function fileItem(json, key, data, fileName, mimeType) {
	return { json, binary: { [key]: { base64: data.toString('base64'), fileName, mimeType } } };
}

module.exports = {
	WO,
	PAGED_WO,
	CREATE_WO,
	BIG31,
	BIG53,
	MAX64,
	parsedShape,
	idText,
	nodeShape,
	storedNote,
	attachmentOut,
	fileItem,
};
