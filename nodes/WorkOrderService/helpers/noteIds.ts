import type { IDataObject } from 'n8n-workflow';

import { isRecord } from './values';

/**
 * Note IDs are int64. Parsed losslessly, an ID beyond 2^53 arrives as a decimal string and one
 * below as a number, so a field would change type from one item to the next. The note operations
 * emit every note ID as a decimal string instead: the note's `Id` and every `...NoteId` field (of
 * the note, of its attachments, of an attachment record). `null` stays `null`.
 */

const NOTE_ID_KEY = /NoteId$/;

function asText(value: unknown): unknown {
	if (typeof value === 'number' && Number.isInteger(value)) return String(value);
	if (typeof value === 'bigint') return value.toString();
	return value;
}

function withNoteIdsAsText(record: IDataObject, idIsNoteId: boolean): IDataObject {
	const out: IDataObject = {};
	for (const [key, value] of Object.entries(record)) {
		let mapped: unknown = value;
		if ((idIsNoteId && key === 'Id') || NOTE_ID_KEY.test(key)) mapped = asText(value);
		else if (key === 'Attachments' && Array.isArray(value)) {
			mapped = value.map((a) => (isRecord(a) ? withNoteIdsAsText(a, false) : a));
		}
		Object.defineProperty(out, key, {
			value: mapped,
			enumerable: true,
			writable: true,
			configurable: true,
		});
	}
	return out;
}

/** A note record (`Id` is the note ID) with its note IDs as decimal strings. */
export function noteOut(record: IDataObject): IDataObject {
	return withNoteIdsAsText(record, true);
}

/** An attachment record (`Id` is the attachment's own ID) with its `NoteId` as a decimal string. */
export function attachmentOut(record: IDataObject): IDataObject {
	return withNoteIdsAsText(record, false);
}
