import type { IDataObject } from 'n8n-workflow';

import { odataString } from './values';

/**
 * Searching work orders for the Work Order parameter's "From List" (methods/listSearch.ts). The
 * service's OData (ASP.NET) has `contains`: a search matches any part of the work order number,
 * of its location's name (`Location/Name`) or of its store number (`Location/StoreId`), and digits
 * also find the work order with that ID. (The service compares text without regard to case.)
 */

/** What the list reads of each work order: the work order's own properties (Location is the nested object). */

export const WORK_ORDER_LIST_SELECT = 'Id,Number,Trade,Category,Status,Location';
/** What the search box matches, as the list's hint says. */
export const WORK_ORDER_SEARCH_HINT =
	'Searches any part of the work order number, location name or store number; digits also find the work order ID';
/** Longer digit strings are no work order ID (the node holds IDs as exact JavaScript numbers). */
const MAX_ID_DIGITS = 15;
/** The property paths a text search looks into. */
export const SEARCHED_PATHS = ['Number', 'Location/Name', 'Location/StoreId'];

/** The $filter for what the user typed in the list's search box (undefined: no search). */
export function workOrderSearchFilter(search: string): string | undefined {
	const text = search.trim();
	if (text === '') return undefined;
	const parts = SEARCHED_PATHS.map((path) => `contains(${path},${odataString(text)})`);
	if (/^\d+$/.test(text)) {
		const digits = text.replace(/^0+(?=\d)/, '');
		if (digits.length <= MAX_ID_DIGITS && digits !== '0') parts.unshift(`Id eq ${digits}`);
	}
	return parts.join(' or ');
}

/** A non-empty text form of a string or number field. */
export function textOf(value: unknown): string | undefined {
	if (typeof value === 'string' && value.trim() !== '') return value.trim();
	if (typeof value === 'number' || typeof value === 'bigint') return String(value);
	return undefined;
}

/** The location's name of a work order: `Location.Name` (a flat `LocationName` of an older answer is read too). */
function locationName(record: IDataObject): string | undefined {
	const location = record.Location as IDataObject | undefined | null;
	return (
		(location && typeof location === 'object' ? textOf(location.Name) : undefined) ??
		textOf(record.LocationName)
	);
}

/** "90000001 · HVAC / PREVENTIVE MAINTENANCE · Store #501 Dallas Downtown · OPEN" */
export function workOrderListName(record: IDataObject): string {
	const id = textOf(record.Id) ?? '';
	const number = textOf(record.Number);
	const head = number === undefined || number === id ? id : `${number} (ID ${id})`;
	const trade = [textOf(record.Trade), textOf(record.Category)].filter(Boolean).join(' / ');
	const status = record.Status as IDataObject | string | undefined;
	const statusText =
		typeof status === 'object' && status !== null ? textOf(status.Primary) : textOf(status);
	return [head, trade, locationName(record), statusText]
		.filter((part) => part !== undefined && part !== '')
		.join(' · ');
}
