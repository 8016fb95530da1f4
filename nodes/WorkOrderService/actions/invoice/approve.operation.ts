import { textUpTo, type FieldSpec } from '../../helpers/validation';
import { commentsField } from '../move';
import type { OperationMeta } from '../operation';

import { INVOICE_MOVES, moveDescription, queryMove } from './move';

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
	commentsField('Comments stored with the approval', {
		key: 'comments',
		in: 'query',
		check: textUpTo(2000),
	}),
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

export const description = moveDescription('approve', fields);

/** PUT /invoices/{id}/approve?approvalCode=&comments=&category=, answered 204; refusals worded in ./move.ts. */
export const execute = queryMove(INVOICE_MOVES.approve, fields);
