import { updateDisplayOptions } from 'n8n-workflow';

import {
	collectionOf,
	type FieldSpec,
	optionalBoolean,
	optionalPositiveInteger,
} from '../../helpers/validation';

import { proposalIdProperty, statusChangeFields } from './fields';
import { MOVES, moveOperation } from './move';
import type { OperationMeta } from '../operation';

const fields: FieldSpec[] = [
	...statusChangeFields,
	{
		property: {
			displayName: 'Rejection Reason Name or ID',
			name: 'rejectReasonCodeId',
			type: 'options',
			typeOptions: { loadOptionsMethod: 'getRejectionReasons' },
			default: '',
			// The editor would flag the empty value "not supported" before anything is picked (the
			// reasons come from the service); the ID is checked before the request instead.
			allowArbitraryValues: true,
			description:
				'Reason code for the rejection. Choose from the list, or specify an ID using an <a href="https://docs.n8n.io/code/expressions/">expression</a>.',
		},
		key: 'RejectReasonCodeId',
		check: optionalPositiveInteger,
		label: 'Rejection Reason',
	},
	{
		property: {
			displayName: 'Use Proposal Alert Emails',
			name: 'useProposalAlertEmails',
			type: 'boolean',
			default: false,
			description:
				'Whether every user on the proposal-alerts list of the dispatch preferences gets the rejection notification. Applies only when neither Provider Email nor User Email is set.',
		},
		key: 'useProposalAlertEmails',
		in: 'query',
		check: optionalBoolean,
	},
];

export const meta: OperationMeta = { verb: 'rejected', safeToRepeat: true };

export const description = updateDisplayOptions(
	{ show: { resource: ['proposal'], operation: ['reject'] } },
	[proposalIdProperty, collectionOf('additionalFields', fields)],
);

/** PUT /proposals/{id}/reject, answered 204; refusals worded in ./move.ts. */
export const execute = moveOperation(MOVES.reject, fields);
