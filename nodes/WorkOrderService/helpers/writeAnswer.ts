import type { IDataObject } from 'n8n-workflow';

import { fieldIgnoringCase, isRecord, ownRecord } from './values';

/** What a write got back: the parsed body (int64 as exact strings) and the headers. */
export interface WriteResponse {
	body?: unknown;
	headers?: Record<string, unknown>;
}

/**
 * The item of every write, one convention for the whole node (docs/parameters.md, "Output of a
 * write"):
 *
 *   { success: true, operation, <the IDs the user passed>, <what the service answered> }
 *
 * - `passed`: the IDs (and values) the user gave, camelCase (`workOrderId`, `noteId`, ...), in the
 *   order to show them. Nothing the answer holds ever overwrites them, nor `success`/`operation`.
 * - The answer: an object body keeps its fields as sent (a documented body such as the checklist
 *   responses' or check-in's), except that the ID it returns comes out as `id` (its `Id` or `id`)
 *   and a list of IDs as `ids` (`Ids`); a bare number or digit string is `id`, a JSON array `ids`,
 *   other text `response`. A `Location` header is kept as `location`, and when nothing else gave an
 *   ID, the ID at its end is `id`.
 * - IDs stay exact: the lossless parser gives digits beyond 2^53 as strings, and a Location's ID is
 *   a number only when it is safe. `idsAsText` (note IDs are int64): every returned ID as a
 *   decimal string.
 * Never fails on an empty or non-JSON body.
 */
export function writeAnswer(
	operation: string,
	passed: IDataObject,
	response: WriteResponse,
	options: { idsAsText?: boolean } = {},
): IDataObject {
	const asText = options.idsAsText === true;
	const fixed = new Map<string, unknown>([
		['success', true],
		['operation', operation],
		...Object.entries(passed),
	]);
	const returned = new Map<string, unknown>(answerEntries(response.body));
	const location = fieldIgnoringCase(response.headers, 'location');
	const where = Array.isArray(location) ? location[0] : location;
	if (where !== undefined && where !== null && String(where).trim() !== '') {
		returned.set('location', String(where).trim());
		const id = idAtEnd(String(where));
		if (id !== undefined && !returned.has('id') && !returned.has('ids')) returned.set('id', id);
	}
	for (const key of ['id', 'ids']) {
		const value = returned.get(key);
		if (asText && value !== undefined) returned.set(key, idText(value));
	}
	for (const [key, value] of returned) if (!fixed.has(key)) fixed.set(key, value);
	return ownRecord(fixed);
}

function isId(value: unknown): value is number | string {
	return (
		(typeof value === 'number' && Number.isInteger(value)) ||
		(typeof value === 'string' && /^\s*\d{1,19}\s*$/.test(value))
	);
}

function idText(value: unknown): unknown {
	if (isId(value)) return String(value).trim();
	return Array.isArray(value) ? value.map(idText) : value;
}

/** What a body says, as entries of the item (the returned ID as `id`, a list of them as `ids`). */
function answerEntries(body: unknown): Array<[string, unknown]> {
	if (body === undefined || body === null || body === '') return [];
	if (isId(body)) return [['id', typeof body === 'string' ? body.trim() : body]];
	if (Array.isArray(body)) return [['ids', body]];
	if (!isRecord(body)) return [['response', body]];
	return Object.entries(body).map(([key, value]): [string, unknown] => {
		if ((key === 'Id' || key === 'id') && isId(value)) return ['id', value];
		if ((key === 'Ids' || key === 'ids') && Array.isArray(value)) return ['ids', value];
		return [key, value];
	});
}

/** The ID at the end of a Location (`.../workorders/123`, `.../notes(123)`), a number when it is safe. */
function idAtEnd(location: string): number | string | undefined {
	const match = /(?:\/|\()(\d{1,19})\)?\/?(?:[?#].*)?$/.exec(location.trim());
	if (!match) return undefined;
	const n = Number(match[1]);
	return Number.isSafeInteger(n) ? n : match[1];
}
