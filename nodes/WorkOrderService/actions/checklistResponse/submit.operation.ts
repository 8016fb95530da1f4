import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { readBinaryFile } from '../../helpers/binary';
import { idField, workOrderIdField } from '../../helpers/fields';
import { readWorkOrderId } from '../../helpers/params';
import {
	TEXT_ANSWER_MAX_LENGTH,
	acknowledgementAnswer,
	numericAnswer,
	oneOf,
	optionalText,
	positiveInteger,
	requiredText,
} from '../../helpers/validation';
import { asRecord, type WorkOrderServiceClient } from '../../transport';
import type { MultipartPart } from '../../transport/multipart';

const QUESTION_TYPES = ['acknowledgement', 'selector', 'textEntry', 'numericInput'] as const;
type QuestionType = (typeof QUESTION_TYPES)[number];

const properties: INodeProperties[] = [
	{ ...workOrderIdField, description: 'The work order the answer belongs to (EntityID)' },
	idField({
		displayName: 'Question ID',
		name: 'questionId',
		example: '9103',
		required: true,
		description: 'ID of the checklist question being answered (CheckListQuestionID)',
	}),
	{
		displayName: 'Question Type',
		name: 'questionType',
		type: 'options',
		required: true,
		default: 'acknowledgement',
		options: [
			{ name: 'Acknowledgement', value: 'acknowledgement', description: 'Yes/no style answer' },
			{ name: 'Numeric Input', value: 'numericInput', description: 'A number' },
			{ name: 'Selector', value: 'selector', description: 'One of the question\'s answer options' },
			{ name: 'Text Entry', value: 'textEntry', description: 'Free text, at most 500 characters' },
		],
		description: 'Type of the question; it decides which answer fields are sent',
	},
	{
		displayName: 'Answer',
		name: 'answer',
		type: 'options',
		required: true,
		default: 'yes',
		options: [
			{ name: '0', value: '0' },
			{ name: '1', value: '1' },
			{ name: 'False', value: 'false' },
			{ name: 'No', value: 'no' },
			{ name: 'Off', value: 'off' },
			{ name: 'On', value: 'on' },
			{ name: 'True', value: 'true' },
			{ name: 'Yes', value: 'yes' },
		],
		displayOptions: { show: { questionType: ['acknowledgement'] } },
		description: 'Acknowledgement answer. An expression may also return a boolean.',
	},
	{
		displayName: 'Answer',
		name: 'answer',
		type: 'string',
		required: true,
		default: '',
		typeOptions: { rows: 3 },
		displayOptions: { show: { questionType: ['textEntry'] } },
		description: 'Text answer, at most 500 characters',
	},
	{
		displayName: 'Answer',
		name: 'answer',
		type: 'number',
		required: true,
		default: 0,
		displayOptions: { show: { questionType: ['numericInput'] } },
		description: 'Numeric answer',
	},
	{
		...idField({
			displayName: 'Option ID',
			name: 'optionId',
			example: '91021',
			required: true,
			description: 'ID of the chosen answer option (CheckListQuestionOptionID)',
		}),
		displayOptions: { show: { questionType: ['selector'] } },
	},
	{
		displayName: 'Free Text Answer',
		name: 'freeTextAnswer',
		type: 'string',
		default: '',
		displayOptions: { show: { questionType: ['selector'] } },
		description:
			'Comment on the chosen option. Required by the service when the option asks for a follow-up comment (IsConditionalFollowUp).',
	},
	idField({
		displayName: 'Provider ID',
		name: 'providerId',
		example: '3001',
		required: true,
		description: 'Provider on whose behalf the answer is submitted (the work order\'s provider)',
	}),
	idField({
		displayName: 'Technician ID',
		name: 'technicianId',
		example: '4001',
		required: true,
		description: 'Technician on whose behalf the answer is submitted (one of the provider\'s technicians)',
	}),
	{
		displayName: 'Attempt',
		name: 'attempt',
		type: 'number',
		required: true,
		default: 1,
		description: 'Ordinal of the technician\'s on-site visit the answer is for, starting at 1',
	},
	{
		displayName: 'Photo Binary Field',
		name: 'binaryPropertyName',
		type: 'string',
		default: '',
		placeholder: 'data',
		hint: 'Leave empty to send no file',
		description:
			'Name of the input binary field holding a photo (or PDF) to attach. Required when the question demands a picture.',
	},
];

export const description = updateDisplayOptions(
	{ show: { resource: ['checklistResponse'], operation: ['submit'] } },
	properties,
);

const PICTURE_TYPES = /^(image\/[a-z0-9.+-]+|application\/pdf)$/i;

export async function execute(this: IExecuteFunctions, i: number, client: WorkOrderServiceClient): Promise<IDataObject[]> {
	const node = this.getNode();
	const param = (name: string) => this.getNodeParameter(name, i, undefined) as unknown;

	const workOrderId = readWorkOrderId(this, i);
	const questionId = positiveInteger(node, i, { name: 'questionId', label: 'Question ID' }, param('questionId'));
	const questionType: QuestionType = oneOf(
		node,
		i,
		{ name: 'questionType', label: 'Question Type' },
		param('questionType'),
		QUESTION_TYPES,
	);
	const request: IDataObject = { CheckListQuestionID: questionId };
	const answerField = { name: 'answer', label: 'Answer' };
	if (questionType === 'selector') {
		request.CheckListQuestionOptionID = positiveInteger(node, i, { name: 'optionId', label: 'Option ID' }, param('optionId'));
		const freeText = optionalText(node, i, { name: 'freeTextAnswer', label: 'Free Text Answer' }, param('freeTextAnswer'), TEXT_ANSWER_MAX_LENGTH);
		if (freeText !== undefined) request.FreeTextAnswer = freeText;
	} else if (questionType === 'acknowledgement') {
		request.Answer = acknowledgementAnswer(node, i, answerField, param('answer'));
	} else if (questionType === 'textEntry') {
		request.Answer = requiredText(node, i, answerField, param('answer'), TEXT_ANSWER_MAX_LENGTH);
	} else {
		request.Answer = numericAnswer(node, i, answerField, param('answer'));
	}
	request.ProviderID = positiveInteger(node, i, { name: 'providerId', label: 'Provider ID' }, param('providerId'));
	request.TechnicianID = positiveInteger(node, i, { name: 'technicianId', label: 'Technician ID' }, param('technicianId'));
	request.EntityID = workOrderId;
	request.Attempt = positiveInteger(node, i, { name: 'attempt', label: 'Attempt' }, param('attempt'));

	const parts: MultipartPart[] = [
		{ name: 'CheckListResponseRequest', value: JSON.stringify(request), contentType: 'application/json' },
	];
	const binaryPropertyName = param('binaryPropertyName');
	if (typeof binaryPropertyName === 'string' ? binaryPropertyName.trim() !== '' : binaryPropertyName !== undefined && binaryPropertyName !== null) {
		const file = await readBinaryFile(this, i, { name: 'binaryPropertyName', label: 'Photo Binary Field' }, binaryPropertyName, {
			defaultFileName: 'photo',
			mimeRule: (mimeType) =>
				PICTURE_TYPES.test(mimeType.split(';')[0].trim()) ? undefined : 'a checklist picture must be an image or a PDF',
		});
		parts.push({ name: 'file', fileName: file.fileName, contentType: file.mimeType, data: file.data });
	}

	const result = await client.request({
		method: 'POST',
		path: '/checklists/CheckListResponse',
		multipart: parts,
		itemIndex: i,
	});
	return [asRecord(result) ?? {}];
}
