import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { collectionOf } from '../../helpers/validation';
import type { WorkOrderServiceClient } from '../../transport/client';

import { proposalIdProperty, statusChangeFields } from './fields';
import { MOVES, moveProposal } from './move';
import type { OperationMeta } from '../operation';

export const meta: OperationMeta = { verb: 'reopened', safeToRepeat: true };

export const description = updateDisplayOptions({ show: { resource: ['proposal'], operation: ['reopen'] } }, [
	proposalIdProperty,
	collectionOf('additionalFields', statusChangeFields),
]);

/** PUT /proposals/{id}/open, answered 204: the proposal is Open; refusals worded in ./move.ts. */
export async function execute(this: IExecuteFunctions, i: number, client: WorkOrderServiceClient): Promise<IDataObject[]> {
	return await moveProposal(this, i, client, MOVES.reopen, statusChangeFields);
}
