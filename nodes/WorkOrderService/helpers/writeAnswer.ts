import type { IDataObject } from 'n8n-workflow';

import { ownRecord, isRecord } from './values';
import type { ApiResponse } from '../transport/client';

/**
 * The item of a write whose answer the reference leaves open (201 with maybe an ID, maybe
 * nothing; the change calls' `{ id, result }`): `{ success: true, operation, <what the user
 * passed>, <what the service returned> }`. A body object is kept as it came (its `id` or `Id`
 * exact, as the lossless parser gives it), a bare number or digit string becomes `id`, a list
 * `ids`, other text `response`; a `Location` header is kept as `location`, and when no body gave an
 * ID, the ID at its end becomes `id`. Nothing the user passed or `success`/`operation` is ever
 * overwritten by the answer. Never fails on an empty or non-JSON body.
 */
export function writeAnswer(
	operation: string,
	passed: IDataObject,
	response: Pick<ApiResponse, 'body' | 'headers'>,
): IDataObject {
	const fixed = new Map<string, unknown>([
		['success', true],
		['operation', operation],
		...Object.entries(passed),
	]);
	const returned = new Map<string, unknown>(answerEntries(response.body));
	const location = locationHeader(response.headers);
	if (location !== undefined && location !== '') {
		returned.set('location', location);
		const id = idAtEnd(location);
		if (id !== undefined && returnedId(returned) === undefined) returned.set('id', id);
	}
	for (const [key, value] of returned) if (!fixed.has(key)) fixed.set(key, value);
	return ownRecord(fixed);
}

/** What a body says, as entries of the item. */
function answerEntries(body: unknown): Array<[string, unknown]> {
	if (body === undefined || body === null) return [];
	if (isRecord(body)) return Object.entries(body);
	if (Array.isArray(body)) return [['ids', body]];
	if (typeof body === 'number' || (typeof body === 'string' && /^\s*\d+\s*$/.test(body)))
		return [['id', typeof body === 'string' ? body.trim() : body]];
	return [['response', body]];
}

/** The ID an answer returned (`id` or `Id`), if any. */
export function returnedId(answer: Map<string, unknown> | IDataObject): unknown {
	const get = (key: string) => (answer instanceof Map ? answer.get(key) : answer[key]);
	const id = get('id') ?? get('Id');
	return typeof id === 'number' || (typeof id === 'string' && /^\d+$/.test(id)) ? id : undefined;
}

/** The ID at the end of a Location (`.../workorders/123`, `.../workorders(123)`), a number when it is safe. */
function idAtEnd(location: string): number | string | undefined {
	const match = /(?:\/|\()(\d+)\)?\/?(?:[?#].*)?$/.exec(location.trim());
	if (!match) return undefined;
	const n = Number(match[1]);
	return Number.isSafeInteger(n) ? n : match[1];
}

/** The Location header, whatever its case. */
function locationHeader(headers: Record<string, unknown> | undefined): string | undefined {
	for (const [key, value] of Object.entries(headers ?? {})) {
		if (key.toLowerCase() !== 'location' || value === undefined || value === null) continue;
		return String(Array.isArray(value) ? value[0] : value).trim();
	}
	return undefined;
}
