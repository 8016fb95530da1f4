import type { IDataObject } from 'n8n-workflow';

/**
 * Searching work orders for the Work Order parameter's "From List" (methods/listSearch.ts).
 * The service's OData has comparisons only (eq, ne, gt, ge, lt, le with and, or, not), no
 * contains() or startswith(), so a search is an exact match (strings compare without regard to
 * case): digits find the work order with that ID or number; other text finds work orders whose
 * number, purchase number, trade, category, status, location name or store ID is that text.
 */

export const WORK_ORDER_LIST_SELECT = 'Id,Number,Trade,Category,LocationName,Status';
/** Longer digit strings are no work order ID (the node holds IDs as exact JavaScript numbers). */
const MAX_ID_DIGITS = 15;
const TEXT_FIELDS = ['Number', 'PurchaseNumber', 'Trade', 'Category', 'Status/Primary', 'LocationName', 'StoreId'];

/** An OData string literal: quotes doubled. */
function literal(value: string): string {
	return `'${value.replace(/'/g, "''")}'`;
}

/** The $filter for what the user typed in the list's search box. */
export function workOrderSearchFilter(search: string): string | undefined {
	const text = search.trim();
	if (text === '') return undefined;
	if (/^\d+$/.test(text)) {
		const digits = text.replace(/^0+(?=\d)/, '');
		return digits.length <= MAX_ID_DIGITS && digits !== '0'
			? `Id eq ${digits} or Number eq ${literal(text)}`
			: `Number eq ${literal(text)}`;
	}
	return TEXT_FIELDS.map((field) => `${field} eq ${literal(text)}`).join(' or ');
}

/** A non-empty text form of a string or number field. */
export function textOf(value: unknown): string | undefined {
	if (typeof value === 'string' && value.trim() !== '') return value.trim();
	if (typeof value === 'number' || typeof value === 'bigint') return String(value);
	return undefined;
}

/** "90000001 · HVAC / PREVENTIVE MAINTENANCE · Store #501 Dallas Downtown · OPEN" */
export function workOrderListName(record: IDataObject): string {
	const id = textOf(record.Id) ?? '';
	const number = textOf(record.Number);
	const head = number === undefined || number === id ? id : `${number} (ID ${id})`;
	const trade = [textOf(record.Trade), textOf(record.Category)].filter(Boolean).join(' / ');
	const status = record.Status as IDataObject | string | undefined;
	const statusText = typeof status === 'object' && status !== null ? textOf(status.Primary) : textOf(status);
	return [head, trade, textOf(record.LocationName), statusText].filter((part) => part !== undefined && part !== '').join(' · ');
}
