import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { workOrderIdField } from '../../helpers/fields';
import { readWorkOrderId } from '../../helpers/params';
import { asRecord } from '../../helpers/values';
import type { WorkOrderServiceClient } from '../../transport/client';
import type { MultipartPart } from '../../transport/multipart';
import type { OperationMeta } from '../operation';

import { answerProperties, photoProperty, readAnswerRequest, readPhoto } from './fields';

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

/** POST /checklists/CheckListResponse: a CheckListResponseRequest JSON part and the optional photo. */
export async function execute(
	this: IExecuteFunctions,
	i: number,
	client: WorkOrderServiceClient,
): Promise<IDataObject[]> {
	const workOrderId = readWorkOrderId(this, i);
	const request = readAnswerRequest(this, i, workOrderId);
	const parts: MultipartPart[] = [
		{
			name: 'CheckListResponseRequest',
			value: JSON.stringify(request),
			contentType: 'application/json',
		},
	];
	const photo = await readPhoto(this, i);
	if (photo) parts.push(photo);
	const result = await client.request({
		method: 'POST',
		path: '/checklists/CheckListResponse',
		multipart: parts,
		itemIndex: i,
	});
	return [asRecord(result) ?? {}];
}
