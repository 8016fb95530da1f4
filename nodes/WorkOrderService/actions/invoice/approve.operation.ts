import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { readFields, textUpTo, type FieldSpec } from '../../helpers/validation';
import type { WorkOrderServiceClient } from '../../transport/client';
import type { OperationMeta } from '../operation';

import { invoiceIdProperty } from './fields';
import { INVOICE_MOVES, sendInvoiceMove } from './move';

/** The query values of approve (the reference requires all three: each is sent, empty when not given). */
const fields: FieldSpec[] = [
	{
		property: {
			displayName: 'Approval Code',
			name: 'approvalCode',
			type: 'string',
			default: '',
			placeholder: 'e.g. GL-5500',
			description: "The approval code (GL code) the subscriber's accounting needs on the invoice",
		},
		key: 'approvalCode',
		in: 'query',
		check: textUpTo(200),
	},
	{
		property: {
			displayName: 'Comments',
			name: 'comments',
			type: 'string',
			default: '',
			typeOptions: { rows: 2 },
			description: 'Comments stored with the approval',
		},
		key: 'comments',
		in: 'query',
		check: textUpTo(2000),
	},
	{
		property: {
			displayName: 'Category',
			name: 'category',
			type: 'string',
			default: '',
			placeholder: 'e.g. REPAIR',
			description: 'The category the invoice is approved under',
		},
		key: 'category',
		in: 'query',
		check: textUpTo(200),
	},
];

export const meta: OperationMeta = { verb: 'approved', safeToRepeat: true };

export const description = updateDisplayOptions(
	{ show: { resource: ['invoice'], operation: ['approve'] } },
	[invoiceIdProperty, ...fields.map((f) => f.property)],
);

/** The values of item i, every one present (empty when not given), as the reference requires. */
export function queryValues(ctx: IExecuteFunctions, i: number, specs: FieldSpec[]): IDataObject {
	const { qs } = readFields(ctx, i, specs);
	const all: IDataObject = {};
	for (const spec of specs) all[spec.key] = qs[spec.key] ?? '';
	return all;
}

/** PUT /invoices/{id}/approve?approvalCode=&comments=&category=, answered 204; refusals worded in ./move.ts. */
export async function execute(
	this: IExecuteFunctions,
	i: number,
	client: WorkOrderServiceClient,
): Promise<IDataObject[]> {
	const qs = queryValues(this, i, fields);
	return await sendInvoiceMove(this, client, i, INVOICE_MOVES.approve, qs);
}
