import type { IDataObject } from 'n8n-workflow';

import type { ApiResponse } from '../transport/client';
import { headerValue } from '../transport/policy';
import { isRecord } from './values';

/**
 * The item of a write the service answers without a documented body (service-reference.md,
 * "Answers with no documented body": 201 with "maybe the ID, maybe nothing"): what was done, the
 * IDs the user passed, and any ID the service returned, read without loss:
 *
 *   { success: true, operation: 'create', workOrderId: 90000005, Id: '9007199254741000' }
 *
 * - a bare JSON number or string body is the ID (`Id`);
 * - an object with `Id` or `id` keeps that key and its exact value (any other fields the object
 *   has follow, as sent);
 * - a JSON array of IDs becomes `Ids`;
 * - no ID in the body: the last `(...)` or path segment of a `Location` header, if it is an ID;
 * - any other body is kept as `response`. An empty or non-JSON body is never an error.
 * `idsAsText`: IDs come out as decimal strings (note IDs are int64).
 */

type Id = string | number;

function isId(value: unknown): value is Id {
	return (
		(typeof value === 'number' && Number.isInteger(value)) ||
		(typeof value === 'string' && /^\d{1,19}$/.test(value.trim()))
	);
}

function text(value: Id, asText: boolean): Id {
	return asText ? String(value).trim() : value;
}

/** The ID at the end of a Location header: `.../notes(9007199254741000)` or `.../attachments/42`. */
export function idFromLocation(location: string | undefined): string | undefined {
	if (!location) return undefined;
	const path = location.split(/[?#]/)[0];
	const match = /\((\d{1,19})\)\/?$/.exec(path) ?? /\/(\d{1,19})\/?$/.exec(path);
	return match ? match[1] : undefined;
}

/** What the body says: the ID fields and anything else to keep. */
function fromBody(body: unknown, asText: boolean): IDataObject {
	if (body === undefined || body === null || body === '') return {};
	if (isId(body)) return { Id: text(body, asText) };
	if (Array.isArray(body) && body.length > 0 && body.every(isId))
		return { Ids: body.map((id) => text(id, asText)) };
	if (isRecord(body)) {
		const out: IDataObject = {};
		for (const [key, value] of Object.entries(body)) {
			out[key] = (key === 'Id' || key === 'id') && isId(value) ? text(value, asText) : value;
		}
		return out;
	}
	return { response: body as IDataObject[] };
}

/**
 * The item for a write answered `answer`: `{ success, operation, ...passed, <ID(s)> }`.
 * @param passed the IDs the user passed (e.g. `{ workOrderId }`), in the order to show them
 */
export function writeResult(
	operation: string,
	passed: IDataObject,
	answer: ApiResponse,
	options: { idsAsText?: boolean } = {},
): IDataObject {
	const asText = options.idsAsText === true;
	const item: IDataObject = {
		success: true,
		operation,
		...passed,
		...fromBody(answer.body, asText),
	};
	if (item.Id === undefined && item.id === undefined && item.Ids === undefined) {
		const id = idFromLocation(headerValue(answer.headers, 'location'));
		if (id !== undefined)
			item.Id = asText ? id : Number.isSafeInteger(Number(id)) ? Number(id) : id;
	}
	return item;
}
