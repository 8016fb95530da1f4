import { updateDisplayOptions } from 'n8n-workflow';

import { collectionOf } from '../../helpers/validation';

import { proposalIdProperty, statusChangeFields } from './fields';
import { MOVES, moveOperation } from './move';
import type { OperationMeta } from '../operation';

export const meta: OperationMeta = { verb: 'reopened', safeToRepeat: true };

export const description = updateDisplayOptions(
	{ show: { resource: ['proposal'], operation: ['reopen'] } },
	[proposalIdProperty, collectionOf('additionalFields', statusChangeFields)],
);

/** PUT /proposals/{id}/open, answered 204: the proposal is Open; refusals worded in ./move.ts. */
export const execute = moveOperation(MOVES.reopen, statusChangeFields);
