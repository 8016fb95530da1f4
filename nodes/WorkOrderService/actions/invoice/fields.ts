import type { IExecuteFunctions, INodeProperties } from 'n8n-workflow';

import { userInstant } from '../../helpers/dateTime';

import { invalid, isBlank, type Field } from '../../helpers/validation';

/**
 * What the invoice operations share: the invoice, chosen from a list (methods/invoiceSearch.ts)
 * or given by ID (service-reference-c.md "Invoices": `GET /invoices/{invoiceId}`, int32).
 */

export const INVOICE_ID: Field = { name: 'invoiceId', label: 'Invoice ID' };

/** The service's invoice statuses (the invoice events name them; compared without case and spaces). */
export const INVOICE_STATUSES = [
	'Open',
	'Approved',
	'On Hold',
	'Reviewed',
	'Rejected',
	'Voided',
	'Paid',
	'Disputed',
] as const;

/** How far back the service lists invoices: 90 days by default, 365 at most with a PostedDate filter. */
export const DEFAULT_DAYS = 90;
export const MAX_DAYS = 365;

/**
 * The invoice, picked from a searchable list of the service's invoices or given by ID. A plain
 * number, digit string or expression here works too (readLocatorId accepts them).
 */
export const invoiceIdProperty: INodeProperties = {
	displayName: 'Invoice',
	name: 'invoiceId',
	type: 'resourceLocator',
	default: { mode: 'list', value: '' },
	required: true,
	description: 'The invoice, chosen from the list or given by its ID',
	modes: [
		{
			displayName: 'From List',
			name: 'list',
			type: 'list',
			placeholder: 'Select an invoice...',
			typeOptions: { searchListMethod: 'searchInvoices', searchable: true },
		},
		{
			displayName: 'By ID',
			name: 'id',
			type: 'string',
			placeholder: 'e.g. 71001',
			validation: [
				{
					type: 'regex',
					properties: {
						regex: '^\\s*([0-9]*[1-9][0-9]*)?\\s*$',
						errorMessage: 'Not an invoice ID: enter digits only, e.g. 71001',
					},
				},
			],
		},
	],
};

/** The instant a date-time parameter of item i names (in the workflow's time zone unless it carries an offset); now when empty. */
export function instantOrNow(ctx: IExecuteFunctions, i: number, field: Field): number {
	const rawDate = ctx.getNodeParameter(field.name, i, '');
	if (isBlank(rawDate)) return Date.now();
	const parsed = userInstant(rawDate, ctx.getTimezone());
	if (parsed === undefined)
		throw invalid(
			ctx.getNode(),
			i,
			field,
			'must be a date-time such as 2026-05-01T09:30:00',
			rawDate,
		);
	return parsed;
}
