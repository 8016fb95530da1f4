import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { idField, workOrderIdField } from '../../helpers/fields';
import {
	optionalPositiveInteger,
	positiveInteger,
	readFields,
	type FieldSpec,
} from '../../helpers/validation';
import { readWorkOrderId } from '../../helpers/params';
import { writeAnswer } from '../../helpers/writeAnswer';
import type { WorkOrderServiceClient } from '../../transport/client';
import type { MultipartPart } from '../../transport/multipart';

import { answerParts, answerProperties, readAnswerRequest } from './fields';
import type { OperationMeta } from '../operation';

export const meta: OperationMeta = {
	verb: 'updated',
	safeToRepeat: false,
	file: { parameter: 'binaryPropertyName', required: false },
};

const responseIdField: FieldSpec = {
	property: idField({
		displayName: 'Checklist Response ID',
		name: 'checkListResponseId',
		example: '700001',
		required: true,
		description:
			"ID of the stored answer to change (the Id of a Submit's CheckListResponse, or of a work order's checklist responses)",
	}),
	key: 'checkListResponseId',
	check: positiveInteger,
};

const pictureIdField: FieldSpec = {
	property: idField({
		displayName: 'Picture ID',
		name: 'pictureId',
		example: '990001',
		description:
			"The stored picture the photo replaces (Pictures[].Id of the work order's checklist responses). Leave empty to add the photo as a new picture.",
	}),
	key: 'CheckListResponsePictureId',
	check: optionalPositiveInteger,
};

export const description = updateDisplayOptions(
	{ show: { resource: ['checklistResponse'], operation: ['update'] } },
	[
		responseIdField.property,
		{ ...workOrderIdField, description: 'The work order the answer belongs to (EntityID)' },
		...answerProperties,
		pictureIdField.property,
	],
);

/**
 * PUT /checklists/{checkListResponseId}/CheckListResponse (multipart): the answer as a
 * CheckListResponseRequest JSON part, and the optional photo with the picture it replaces.
 */
export async function execute(
	this: IExecuteFunctions,
	i: number,
	client: WorkOrderServiceClient,
): Promise<IDataObject[]> {
	const { checkListResponseId } = readFields(this, i, [responseIdField]).body;
	const workOrderId = readWorkOrderId(this, i);
	const request = readAnswerRequest(this, i, workOrderId);
	const { CheckListResponsePictureId: pictureId } = readFields(this, i, [pictureIdField]).body;
	const leading: MultipartPart[] =
		pictureId === undefined
			? []
			: [{ name: 'CheckListResponsePictureId', value: String(pictureId) }];
	const response = await client.send({
		method: 'PUT',
		path: `/checklists/${checkListResponseId}/CheckListResponse`,
		multipart: await answerParts(this, i, request, leading),
		itemIndex: i,
	});
	return [writeAnswer('update', { checkListResponseId, workOrderId }, response)];
}
