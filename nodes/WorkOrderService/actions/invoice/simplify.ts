import type { IDataObject } from 'n8n-workflow';

/**
 * Simplify for invoices: part C's `Invoice` / `ApiGetInvoiceResponse` (about 90 properties, line
 * items, approval-code groups) cut to the fields a workflow usually needs, under the service's own
 * names and nesting, so that `$json.InvoiceTotal` or `$json.Location.Id` read the same with
 * Simplify on or off.
 */

const COMPACT: Record<string, true | string[]> = {
	Id: true,
	Number: true,
	InvoiceNumber: true,
	WoTrackingNumber: true,
	Status: true,
	InvoiceTotal: true,
	InvoiceBalance: true,
	Subtotal: true,
	InvoiceTax: true,
	Currency: ['AlphabeticalCode'],
	Trade: true,
	ApprovalCode: true,
	PostedDate: true,
	InvoiceDate: true,
	ApprovedDate: true,
	PaidDate: true,
	UpdatedDate: true,
	Provider: ['Id', 'Name'],
	ProviderId: true,
	ProviderName: true,
	Subscriber: ['Id', 'Name'],
	SubscriberId: true,
	Location: ['Id', 'StoreId', 'Name'],
	LocationId: true,
	WithMismatchedRates: true,
	Comments: true,
	RejectionReasonDescription: true,
	DisputeReason: true,
	Payments: true,
};

/** The compact fields a simplified invoice keeps (for the docs and tests). */
export const COMPACT_INVOICE_FIELDS = Object.keys(COMPACT);

function pick(value: unknown, keys: string[]): unknown {
	if (value === null || typeof value !== 'object' || Array.isArray(value)) return value;
	const out: IDataObject = {};
	for (const key of keys) if (key in (value as IDataObject)) out[key] = (value as IDataObject)[key];
	return out;
}

/** The compact form of an invoice: only the fields above that it has. */
export function simplifyInvoice(record: IDataObject): IDataObject {
	const out: IDataObject = {};
	for (const [key, keep] of Object.entries(COMPACT)) {
		if (!Object.prototype.hasOwnProperty.call(record, key)) continue;
		out[key] = (keep === true ? record[key] : pick(record[key], keep)) as IDataObject[string];
	}
	return out;
}
