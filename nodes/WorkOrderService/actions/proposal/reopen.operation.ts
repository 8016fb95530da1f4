import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { collectionOf, readFields, readLocatorId } from '../../helpers/validation';
import type { WorkOrderServiceClient } from '../../transport/client';

import { proposalIdProperty, PROPOSAL_ID, statusChangeFields } from './fields';
import type { OperationMeta } from '../operation';

export const meta: OperationMeta = { verb: 'reopened', safeToRepeat: true };

export const description = updateDisplayOptions({ show: { resource: ['proposal'], operation: ['reopen'] } }, [
	proposalIdProperty,
	collectionOf('additionalFields', statusChangeFields),
]);

/** PUT /proposals/{id}/open, answered 204: the proposal is Open. */
export async function execute(this: IExecuteFunctions, i: number, client: WorkOrderServiceClient): Promise<IDataObject[]> {
	const proposalId = readLocatorId(this, i, PROPOSAL_ID);
	const { body, qs } = readFields(this, i, statusChangeFields, 'additionalFields');
	await client.request({ method: 'PUT', path: `/proposals/${proposalId}/open`, qs, body, itemIndex: i });
	return [{ proposalId, status: 'open', success: true }];
}
