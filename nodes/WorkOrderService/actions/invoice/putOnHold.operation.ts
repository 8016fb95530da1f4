import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { textUpTo, type FieldSpec } from '../../helpers/validation';
import type { WorkOrderServiceClient } from '../../transport/client';
import type { OperationMeta } from '../operation';

import { queryValues } from './approve.operation';
import { invoiceIdProperty } from './fields';
import { INVOICE_MOVES, sendInvoiceMove } from './move';

const fields: FieldSpec[] = [
	{
		property: {
			displayName: 'Comments',
			name: 'comments',
			type: 'string',
			default: '',
			typeOptions: { rows: 2 },
			description: 'Why the invoice is put on hold (the provider sees it)',
		},
		key: 'comments',
		in: 'query',
		check: textUpTo(2000),
	},
];

export const meta: OperationMeta = { verb: 'put on hold', safeToRepeat: true };

export const description = updateDisplayOptions(
	{ show: { resource: ['invoice'], operation: ['putOnHold'] } },
	[invoiceIdProperty, ...fields.map((f) => f.property)],
);

/** PUT /invoices/{id}/onhold?comments=, answered 204; refusals worded in ./move.ts. */
export async function execute(
	this: IExecuteFunctions,
	i: number,
	client: WorkOrderServiceClient,
): Promise<IDataObject[]> {
	return await sendInvoiceMove(
		this,
		client,
		i,
		INVOICE_MOVES.putOnHold,
		queryValues(this, i, fields),
	);
}
