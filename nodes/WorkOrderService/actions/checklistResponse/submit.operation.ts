import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { workOrderIdField } from '../../helpers/fields';
import { readWorkOrderId } from '../../helpers/params';
import { writeAnswer } from '../../helpers/writeAnswer';
import type { WorkOrderServiceClient } from '../../transport/client';
import type { OperationMeta } from '../operation';

import { answerParts, answerProperties, photoProperty, readAnswerRequest } from './fields';

export { photoProperty };

export const meta: OperationMeta = {
	verb: 'submitted',
	safeToRepeat: false,
	file: { parameter: 'binaryPropertyName', required: false },
};

export const description = updateDisplayOptions(
	{ show: { resource: ['checklistResponse'], operation: ['submit'] } },
	[
		{ ...workOrderIdField, description: 'The work order the answer belongs to (EntityID)' },
		...answerProperties,
	],
);

/**
 * POST /checklists/CheckListResponse: a CheckListResponseRequest JSON part and the optional photo;
 * the item is `{ success, operation, workOrderId }` and the 201 body as documented
 * (`CheckListResponse`, `CheckListResponsePicture`).
 */
export async function execute(
	this: IExecuteFunctions,
	i: number,
	client: WorkOrderServiceClient,
): Promise<IDataObject[]> {
	const workOrderId = readWorkOrderId(this, i);
	const request = readAnswerRequest(this, i, workOrderId);
	const response = await client.send({
		method: 'POST',
		path: '/checklists/CheckListResponse',
		multipart: await answerParts(this, i, request),
		itemIndex: i,
	});
	return [writeAnswer('submit', { workOrderId }, response)];
}
