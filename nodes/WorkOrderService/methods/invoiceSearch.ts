import type { IDataObject, ILoadOptionsFunctions, INodePropertyOptions } from 'n8n-workflow';

import { isRecord, odataString } from '../helpers/values';
import { WHOLE_LIST, readList, toRecords } from '../transport/paging';
import { WorkOrderServiceClient } from '../transport/client';
import { odataSearchMethod } from './picker';

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

/**
 * "From List" of the Invoice parameter: GET /odata/invoices, 50 at a time, most recently changed
 * first, filtered by what the user types (helpers/invoiceSearch.ts). The service lists the
 * invoices posted in the last 90 days. The value of each result is the invoice's ID.
 */
export const searchInvoices = odataSearchMethod({
	path: '/odata/invoices',
	qs: { $orderby: 'UpdatedDate desc', $select: INVOICE_LIST_SELECT },
	search: invoiceSearchFilter,
	result: (record) =>
		record.Id === undefined || record.Id === null || record.Id === ''
			? undefined
			: { name: invoiceListName(record), value: String(record.Id) },
});

/** The invoice the node names now (a plain ID or a locator holding one), if any. */
function currentInvoiceId(ctx: ILoadOptionsFunctions): number | undefined {
	let value: unknown;
	try {
		value = ctx.getCurrentNodeParameter('invoiceId', { extractValue: true });
	} catch {
		value = undefined;
	}
	if (isRecord(value) && 'value' in value) value = value.value;
	const text = typeof value === 'number' ? String(value) : typeof value === 'string' ? value : '';
	return /^\s*\d{1,10}\s*$/.test(text) && Number(text) > 0 && Number(text) <= 2147483647
		? Number(text)
		: undefined;
}

/**
 * The subscriber whose rejection reasons the Reject dropdown offers: the chosen invoice's
 * (`SubscriberId`), else the credential's child subscriber, else the subscriber of the invoices the
 * credential sees (the first one listed).
 */
async function subscriberOf(
	ctx: ILoadOptionsFunctions,
	client: WorkOrderServiceClient,
): Promise<number | undefined> {
	const invoiceId = currentInvoiceId(ctx);
	if (invoiceId !== undefined) {
		try {
			const invoice = await client.request({ method: 'GET', path: `/invoices/${invoiceId}` });
			if (isRecord(invoice) && Number.isInteger(Number(invoice.SubscriberId)))
				return Number(invoice.SubscriberId);
		} catch {
			// an invoice that cannot be read: fall back to the credential
		}
	}
	try {
		const credentials = (await ctx.getCredentials(client.credentialType)) as IDataObject;
		const child = credentials.subsidiaryId;
		if (
			(typeof child === 'string' || typeof child === 'number') &&
			/^\s*\d+\s*$/.test(String(child))
		)
			return Number(child);
	} catch {
		// no credential data to read
	}
	const first = toRecords(
		await client.request({
			method: 'GET',
			path: '/odata/invoices',
			qs: { $top: 1, $select: 'Id,Subscriber' },
		}),
	)[0];
	const subscriber = first && isRecord(first.Subscriber) ? first.Subscriber.Id : undefined;
	return Number.isInteger(Number(subscriber)) && subscriber !== null
		? Number(subscriber)
		: undefined;
}

/**
 * The subscriber's invoice rejection reasons (GET /invoices/{subscriberId}/InvoiceRejectionReasons)
 * for Invoice → Reject. The value is the reason's text: the reject call has no reason field, the
 * text goes into `comments`. Retired reasons are left out.
 */
export async function getInvoiceRejectionReasons(
	this: ILoadOptionsFunctions,
): Promise<INodePropertyOptions[]> {
	const client = WorkOrderServiceClient.forNode(this);
	const subscriberId = await subscriberOf(this, client);
	if (subscriberId === undefined) return [];
	const options: INodePropertyOptions[] = [];
	for (const record of await readList(this, client, WHOLE_LIST, {
		path: `/invoices/${subscriberId}/InvoiceRejectionReasons`,
	})) {
		if (record.Retired === true) continue;
		const text = typeof record.Description === 'string' ? record.Description.trim() : '';
		if (text === '') continue;
		const type = typeof record.ReasonType === 'string' ? record.ReasonType : undefined;
		options.push(
			type ? { name: text, value: text, description: type } : { name: text, value: text },
		);
	}
	return options.sort((a, b) => a.name.localeCompare(b.name));
}
