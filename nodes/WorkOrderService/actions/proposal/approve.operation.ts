import { updateDisplayOptions } from 'n8n-workflow';

import { collectionOf, type FieldSpec, optionalText } from '../../helpers/validation';

import { proposalIdProperty, statusChangeFields } from './fields';
import { MOVES, moveOperation } from './move';
import type { OperationMeta } from '../operation';

const fields: FieldSpec[] = [
	...statusChangeFields,
	{
		property: {
			displayName: 'Reason',
			name: 'reasonString',
			type: 'string',
			default: '',
			description: 'Reason for the approval; added to the work order notes',
		},
		key: 'ReasonString',
		check: optionalText,
	},
];

export const meta: OperationMeta = { verb: 'approved', safeToRepeat: true };

export const description = updateDisplayOptions(
	{ show: { resource: ['proposal'], operation: ['approve'] } },
	[proposalIdProperty, collectionOf('additionalFields', fields)],
);

/** PUT /proposals/{id}/approve, answered 204; refusals worded in ./move.ts. */
export const execute = moveOperation(MOVES.approve, fields);
