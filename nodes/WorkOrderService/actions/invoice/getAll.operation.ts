import { updateDisplayOptions } from 'n8n-workflow';

import { returnAllOrLimitFields } from '../../helpers/fields';
import { simplifyProperty } from '../../helpers/simplify';
import { collectionOf, trimmedText, type FieldSpec } from '../../helpers/validation';
import type { OperationMeta } from '../operation';

import { DEFAULT_DAYS, MAX_DAYS } from './fields';
import { filterProperties, invoiceFilter, readInvoiceFilters } from './filters';
import { simplifyInvoice } from './simplify';
import { filteredQuery, odataGetMany } from '../wholeList';

export const meta: OperationMeta = { safeToRepeat: true };

/** OData options beside the Filters, in the order they are checked. */
const queryOptions: FieldSpec[] = [
	{
		property: {
			displayName: 'OData Filter',
			name: 'filter',
			type: 'string',
			default: '',
			placeholder: "Status eq 'Approved' and InvoiceBalance gt 0",
			description: `Your own OData $filter clause over the invoice's properties, added to the Filters with "and". Naming PostedDate in it lets the service search up to ${MAX_DAYS} days back (else ${DEFAULT_DAYS}).`,
		},
		key: '$filter',
		in: 'query',
		check: trimmedText,
	},
	{
		property: {
			displayName: 'Order By',
			name: 'orderBy',
			type: 'string',
			default: '',
			placeholder: 'UpdatedDate desc',
			description: 'OData $orderby expression',
		},
		key: '$orderby',
		in: 'query',
		check: trimmedText,
	},
	{
		property: {
			displayName: 'Select',
			name: 'select',
			type: 'string',
			default: '',
			placeholder: 'Number,Status,InvoiceTotal,WoTrackingNumber',
			description: 'Comma-separated fields to return (OData $select)',
		},
		key: '$select',
		in: 'query',
		check: trimmedText,
	},
];

export const description = updateDisplayOptions(
	{ show: { resource: ['invoice'], operation: ['getAll'] } },
	[
		...returnAllOrLimitFields,
		simplifyProperty,
		collectionOf('filters', filterProperties),
		collectionOf('options', queryOptions),
	],
);

/**
 * GET /odata/invoices, page by page ($top/$skip, 50 a page), the Filters as one $filter. The
 * service answers the last 90 days unless the filter names PostedDate (365 days at most).
 */
export const execute = odataGetMany(
	filteredQuery('/odata/invoices', queryOptions, readInvoiceFilters, invoiceFilter),
	(ctx, i, invoices, qs) =>
		(ctx.getNodeParameter('simplify', i, true) as boolean) && qs.$select === undefined
			? invoices.map(simplifyInvoice)
			: invoices,
);
