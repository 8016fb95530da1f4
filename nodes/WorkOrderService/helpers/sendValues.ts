import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';

import { serviceDateTime, userInstant } from './dateTime';
import { invalid, optionalDateTime, positiveInteger, type Check } from './validation';
import { commaList } from './values';

/**
 * Checks and conversions of values the package sends in request bodies, beyond validation.ts:
 * lists of IDs, and date-times sent with an explicit offset.
 */

/** IDs as a comma-separated list (or an array from an expression), each a positive whole number; empty: not given. */
export const idList: Check<number[] | undefined> = (node, itemIndex, field, value) => {
	const entries = commaList(value);
	if (!entries.length) return undefined;
	return entries.map((entry) => positiveInteger(node, itemIndex, field, entry));
};

/** A date-time to send: checked as ISO 8601 here, given its offset by `withOffsets` (the workflow's zone is needed). */
export const dateTimeToSend: Check<string | undefined> = optionalDateTime;

/**
 * The body's date-times (the given keys) as the service's local time with an explicit offset:
 * one without an offset is a wall time in the workflow's time zone, one with an offset that
 * instant; both go out as US Eastern with its offset (`2026-06-01T04:00:00.000-04:00`).
 */
export function withOffsets(
	ctx: IExecuteFunctions,
	itemIndex: number,
	body: IDataObject,
	keys: string[],
): IDataObject {
	for (const key of keys) {
		const value = body[key];
		if (value === undefined) continue;
		const ms = userInstant(value, ctx.getTimezone());
		if (ms === undefined) {
			throw invalid(
				ctx.getNode(),
				itemIndex,
				{ name: key, label: key },
				'must be an ISO 8601 date-time',
				value,
			);
		}
		body[key] = serviceDateTime(ms);
	}
	return body;
}
