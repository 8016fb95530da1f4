import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { collectionOf, type FieldSpec, optionalText } from '../../helpers/validation';
import type { WorkOrderServiceClient } from '../../transport/client';

import { proposalIdProperty, statusChangeFields } from './fields';
import { MOVES, moveProposal } from './move';
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

/** PUT /proposals/{id}/approve, answered 204; refusals worded in ./move.ts. */
export async function execute(this: IExecuteFunctions, i: number, client: WorkOrderServiceClient): Promise<IDataObject[]> {
	return await moveProposal(this, i, client, MOVES.approve, fields);
}
