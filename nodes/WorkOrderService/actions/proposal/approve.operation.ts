import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { collectionOf, optionalText, readFields, type FieldSpec, readLocatorId } from '../../helpers/validation';
import type { WorkOrderServiceClient } from '../../transport/client';

import { proposalIdProperty, PROPOSAL_ID, statusChangeFields } from './fields';
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
		key: 'ReasonString', check: optionalText,
	},
];

export const meta: OperationMeta = { verb: 'approved', safeToRepeat: true };

export const description = updateDisplayOptions({ show: { resource: ['proposal'], operation: ['approve'] } }, [
	proposalIdProperty,
	collectionOf('additionalFields', fields),
]);

/** PUT /proposals/{id}/approve, answered 204. */
export async function execute(this: IExecuteFunctions, i: number, client: WorkOrderServiceClient): Promise<IDataObject[]> {
	const proposalId = readLocatorId(this, i, PROPOSAL_ID);
	const { body, qs } = readFields(this, i, fields, 'additionalFields');
	await client.request({ method: 'PUT', path: `/proposals/${proposalId}/approve`, qs, body, itemIndex: i });
	return [{ proposalId, status: 'approved', success: true }];
}
