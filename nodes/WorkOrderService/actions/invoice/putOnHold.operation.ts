import { textUpTo, type FieldSpec } from '../../helpers/validation';
import { commentsField } from '../move';
import type { OperationMeta } from '../operation';

import { INVOICE_MOVES, moveDescription, queryMove } from './move';

const fields: FieldSpec[] = [
	commentsField('Why the invoice is put on hold (the provider sees it)', {
		key: 'comments',
		in: 'query',
		check: textUpTo(2000),
	}),
];

export const meta: OperationMeta = { verb: 'put on hold', safeToRepeat: true };

export const description = moveDescription('putOnHold', fields);

/** PUT /invoices/{id}/onhold?comments=, answered 204; refusals worded in ./move.ts. */
export const execute = queryMove(INVOICE_MOVES.putOnHold, fields);
