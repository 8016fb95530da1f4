import type { IDataObject } from 'n8n-workflow';

import { odataString } from '../helpers/values';
import { odataSearchMethod } from './picker';

/**
 * Searching proposals for the Proposal parameter's "From List" (below), in the
 * manner of the work order picker: the service's OData has comparisons only, so a search is an
 * exact match (strings compare without regard to case): digits find the proposal with that ID or
 * number; other text finds proposals whose number or primary status is that text, or whose
 * location's store ID or name is that text.
 */

/** What a list entry shows (reference `Proposal` properties; nested ones whole). */
export const PROPOSAL_LIST_SELECT = 'Id,Number,Description,Amount,Status';
/** Longer digit strings are no proposal ID (IDs are int32). */
const MAX_ID_DIGITS = 10;
const TEXT_FIELDS = ['Number', 'Status/Primary', 'Location/StoreId', 'Location/Name'];

/** The $filter for what the user typed in the list's search box. */
export function proposalSearchFilter(search: string): string | undefined {
	const text = search.trim();
	if (text === '') return undefined;
	if (/^\d+$/.test(text)) {
		const digits = text.replace(/^0+(?=\d)/, '');
		return digits.length <= MAX_ID_DIGITS && digits !== '0' && Number(digits) <= 2147483647
			? `Id eq ${digits} or Number eq ${odataString(text)}`
			: `Number eq ${odataString(text)}`;
	}
	return TEXT_FIELDS.map((field) => `${field} eq ${odataString(text)}`).join(' or ');
}

function textOf(value: unknown): string | undefined {
	if (typeof value === 'string' && value.trim() !== '') return value.trim();
	if (typeof value === 'number' || typeof value === 'bigint') return String(value);
	return undefined;
}

/** "P-61001 (ID 61001) · Replace walk-in cooler compressor · 1200 · Open" */
export function proposalListName(record: IDataObject): string {
	const id = textOf(record.Id) ?? '';
	const number = textOf(record.Number);
	const head = number === undefined || number === id ? id : `${number} (ID ${id})`;
	const status = record.Status as IDataObject | string | undefined;
	const statusText =
		typeof status === 'object' && status !== null ? textOf(status.Primary) : textOf(status);
	const description = textOf(record.Description);
	const short =
		description && description.length > 60 ? `${description.slice(0, 57)}...` : description;
	return [head, short, textOf(record.Amount), statusText]
		.filter((part) => part !== undefined && part !== '')
		.join(' · ');
}

/**
 * "From List" of the Proposal parameter: GET /odata/proposals, 50 at a time, most recently changed
 * first, filtered by what the user types (above). The value of each result is
 * the proposal's ID; the pagination token is the number of records read.
 */
export const searchProposals = odataSearchMethod({
	path: '/odata/proposals',
	qs: { $orderby: 'UpdatedDateDto desc', $select: PROPOSAL_LIST_SELECT },
	search: proposalSearchFilter,
	result: (record) =>
		record.Id === undefined || record.Id === null || record.Id === ''
			? undefined
			: { name: proposalListName(record), value: String(record.Id) },
});
