import type { IDataObject } from 'n8n-workflow';

import { odataString } from './workOrderSearch';

/**
 * Searching invoices for the Invoice parameter's "From List" (methods/invoiceSearch.ts), in the
 * manner of the work order picker: OData `contains` on the invoice number, the location's name and
 * its store number (the service compares text without regard to case); digits also find the
 * invoice with that ID and the invoices of the work order with that tracking number.
 */

export const INVOICE_LIST_SELECT = 'Id,Number,WoTrackingNumber,Status,InvoiceTotal,Location';
export const SEARCHED_INVOICE_PATHS = ['Number', 'Location/Name', 'Location/StoreId'];

/** The $filter for what the user typed (undefined: no search). */
export function invoiceSearchFilter(search: string): string | undefined {
	const text = search.trim();
	if (text === '') return undefined;
	const parts = SEARCHED_INVOICE_PATHS.map((path) => `contains(${path},${odataString(text)})`);
	if (/^\d+$/.test(text)) {
		const digits = text.replace(/^0+(?=\d)/, '');
		if (digits.length <= 10 && digits !== '0' && Number(digits) <= 2147483647)
			parts.unshift(`Id eq ${digits}`, `WoTrackingNumber eq ${digits}`);
	}
	return parts.join(' or ');
}

function textOf(value: unknown): string | undefined {
	if (typeof value === 'string' && value.trim() !== '') return value.trim();
	if (typeof value === 'number' || typeof value === 'bigint') return String(value);
	return undefined;
}

/** "INV-71001 (ID 71001) · WO 90000001 · Store #501 Dallas Downtown · 812.5 · Open" */
export function invoiceListName(record: IDataObject): string {
	const id = textOf(record.Id) ?? '';
	const number = textOf(record.Number);
	const head = number === undefined || number === id ? id : `${number} (ID ${id})`;
	const wo = textOf(record.WoTrackingNumber);
	const location = record.Location as IDataObject | null | undefined;
	const where = location && typeof location === 'object' ? textOf(location.Name) : undefined;
	return [head, wo && `WO ${wo}`, where, textOf(record.InvoiceTotal), textOf(record.Status)]
		.filter((part) => part !== undefined && part !== '')
		.join(' · ');
}
