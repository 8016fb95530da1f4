import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';

import { readFields, textUpTo, type FieldSpec } from '../../helpers/validation';
import type { WorkOrderServiceClient } from '../../transport/client';
import { commentsField } from '../move';
import type { OperationMeta } from '../operation';

import { INVOICE_MOVES, moveDescription, sendInvoiceMove } from './move';

/**
 * The reject call has no reason field: the chosen rejection reason's text goes into `comments`,
 * followed by the Comments ("Invoice requires correction: labor hours too high").
 */
const fields: FieldSpec[] = [
	{
		property: {
			displayName: 'Rejection Reason Name or ID',
			name: 'rejectionReason',
			type: 'options',
			typeOptions: {
				loadOptionsMethod: 'getInvoiceRejectionReasons',
				loadOptionsDependsOn: ['invoiceId.value'],
			},
			default: '',
			// the reasons come from the service: the empty value is no error before one is picked
			allowArbitraryValues: true,
			description:
				'One of the subscriber\'s invoice rejection reasons (of the chosen invoice\'s subscriber); its text is sent as the comments. Choose from the list, or specify an ID using an <a href="https://docs.n8n.io/code/expressions/">expression</a>.',
		},
		key: 'reason',
		in: 'query',
		check: textUpTo(500),
		label: 'Rejection Reason',
	},
	commentsField('What the provider must know or correct; sent after the rejection reason', {
		key: 'comments',
		in: 'query',
		check: textUpTo(2000),
	}),
];

export const meta: OperationMeta = { verb: 'rejected', safeToRepeat: true };

export const description = moveDescription('reject', fields);

/** PUT /invoices/{id}/reject?comments=<reason>: <comments>, answered 204; refusals worded in ./move.ts. */
export async function execute(
	this: IExecuteFunctions,
	i: number,
	client: WorkOrderServiceClient,
): Promise<IDataObject[]> {
	const { qs } = readFields(this, i, fields);
	const reason = (qs.reason as string | undefined)?.trim();
	const comments = (qs.comments as string | undefined)?.trim();
	const text = reason && comments ? `${reason}: ${comments}` : (reason ?? comments ?? '');
	return await sendInvoiceMove(this, client, i, INVOICE_MOVES.reject, { comments: text });
}
