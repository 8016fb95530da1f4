import { updateDisplayOptions } from 'n8n-workflow';

import { collectionOf } from '../../helpers/validation';

import { proposalIdProperty, statusChangeFields } from './fields';
import { MOVES, moveOperation } from './move';
import type { OperationMeta } from '../operation';

export const meta: OperationMeta = { verb: 'put on hold', safeToRepeat: true };

export const description = updateDisplayOptions(
	{ show: { resource: ['proposal'], operation: ['putOnHold'] } },
	[proposalIdProperty, collectionOf('additionalFields', statusChangeFields)],
);

/** PUT /proposals/{id}/onhold, answered 204: the proposal is on hold; refusals worded in ./move.ts. */
export const execute = moveOperation(MOVES.putOnHold, statusChangeFields);
