import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { readBinaryFile } from '../../helpers/binary';
import { idField, workOrderIdField } from '../../helpers/fields';
import {
	fieldOf,
	oneOfValues,
	readFields,
	readParameter,
	requiredTextUpTo,
	textUpTo,
	type FieldSpec,
} from '../../helpers/fieldList';
import { readWorkOrderId } from '../../helpers/params';
import { TEXT_ANSWER_MAX_LENGTH, acknowledgementAnswer, numericAnswer, positiveInteger } from '../../helpers/validation';
import { asRecord, type WorkOrderServiceClient } from '../../transport';
import type { MultipartPart } from '../../transport/multipart';
import type { OperationMeta } from '../operation';

const QUESTION_TYPES = ['acknowledgement', 'selector', 'textEntry', 'numericInput'] as const;
type QuestionType = (typeof QUESTION_TYPES)[number];

const questionField: FieldSpec = {
	property: idField({
		displayName: 'Question ID',
		name: 'questionId',
		example: '9103',
		required: true,
		description: 'ID of the checklist question being answered (CheckListQuestionID)',
	}),
	key: 'CheckListQuestionID', check: positiveInteger,
};

const questionTypeProperty: INodeProperties = {
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
};

/** The answer fields of each question type (the editor shows only those of the chosen type). */
const answerFields: Record<QuestionType, FieldSpec[]> = {
	acknowledgement: [
		{
			property: {
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
				description: 'Acknowledgement answer. An expression may also return a boolean.',
			},
			key: 'Answer', check: acknowledgementAnswer,
		},
	],
	textEntry: [
		{
			property: {
				displayName: 'Answer',
				name: 'answer',
				type: 'string',
				required: true,
				default: '',
				typeOptions: { rows: 3 },
				description: 'Text answer, at most 500 characters',
			},
			key: 'Answer', check: requiredTextUpTo(TEXT_ANSWER_MAX_LENGTH),
		},
	],
	numericInput: [
		{
			property: {
				displayName: 'Answer',
				name: 'answer',
				type: 'number',
				required: true,
				default: 0,
				description: 'Numeric answer',
			},
			key: 'Answer', check: numericAnswer,
		},
	],
	selector: [
		{
			property: idField({
				displayName: 'Option ID',
				name: 'optionId',
				example: '91021',
				required: true,
				description: 'ID of the chosen answer option (CheckListQuestionOptionID)',
			}),
			key: 'CheckListQuestionOptionID', check: positiveInteger,
		},
		{
			property: {
				displayName: 'Free Text Answer',
				name: 'freeTextAnswer',
				type: 'string',
				default: '',
				description:
					'Comment on the chosen option. Required by the service when the option asks for a follow-up comment (IsConditionalFollowUp).',
			},
			key: 'FreeTextAnswer', check: textUpTo(TEXT_ANSWER_MAX_LENGTH),
		},
	],
};

/** Who answers, and on which visit. */
const answeredByFields: FieldSpec[] = [
	{
		property: idField({
			displayName: 'Provider ID',
			name: 'providerId',
			example: '3001',
			required: true,
			description: 'Provider on whose behalf the answer is submitted (the work order\'s provider)',
		}),
		key: 'ProviderID', check: positiveInteger,
	},
	{
		property: idField({
			displayName: 'Technician ID',
			name: 'technicianId',
			example: '4001',
			required: true,
			description: 'Technician on whose behalf the answer is submitted (one of the provider\'s technicians)',
		}),
		key: 'TechnicianID', check: positiveInteger,
	},
	{
		property: {
			displayName: 'Attempt',
			name: 'attempt',
			type: 'number',
			required: true,
			default: 1,
			description: 'Ordinal of the technician\'s on-site visit the answer is for, starting at 1',
		},
		key: 'Attempt', check: positiveInteger,
	},
];

export const photoProperty: INodeProperties = {
	displayName: 'Photo Binary Field',
	name: 'binaryPropertyName',
	type: 'string',
	default: '',
	placeholder: 'data',
	hint: 'Leave empty to send no file',
	description:
		'Name of the input binary field holding a photo (or PDF) to attach. Required when the question demands a picture.',
};

const shownFor = (questionType: QuestionType, fields: FieldSpec[]): INodeProperties[] =>
	fields.map(({ property }) => ({ ...property, displayOptions: { show: { questionType: [questionType] } } }));

export const meta: OperationMeta = { verb: 'submitted', safeToRepeat: false, file: { parameter: 'binaryPropertyName', required: false } };

export const description = updateDisplayOptions({ show: { resource: ['checklistResponse'], operation: ['submit'] } }, [
	{ ...workOrderIdField, description: 'The work order the answer belongs to (EntityID)' },
	questionField.property,
	questionTypeProperty,
	...(Object.keys(answerFields) as QuestionType[]).flatMap((type) => shownFor(type, answerFields[type])),
	...answeredByFields.map(({ property }) => property),
	photoProperty,
]);

const PICTURE_TYPES = /^(image\/[a-z0-9.+-]+|application\/pdf)$/i;

/** The photo (or PDF) to send, if Photo Binary Field names one. */
async function readPhoto(ctx: IExecuteFunctions, i: number): Promise<MultipartPart | undefined> {
	const propertyName = ctx.getNodeParameter(photoProperty.name, i, undefined) as unknown;
	const given = typeof propertyName === 'string' ? propertyName.trim() !== '' : propertyName !== undefined && propertyName !== null;
	if (!given) return undefined;
	const file = await readBinaryFile(ctx, i, fieldOf(photoProperty), propertyName, {
		defaultFileName: 'photo',
		mimeRule: (mimeType) =>
			PICTURE_TYPES.test(mimeType.split(';')[0].trim()) ? undefined : 'a checklist picture must be an image or a PDF',
	});
	return { name: 'file', fileName: file.fileName, contentType: file.mimeType, data: file.data };
}

/** POST /checklists/CheckListResponse: a CheckListResponseRequest JSON part and the optional photo. */
export async function execute(this: IExecuteFunctions, i: number, client: WorkOrderServiceClient): Promise<IDataObject[]> {
	const workOrderId = readWorkOrderId(this, i);
	const question = readFields(this, i, [questionField]).body;
	const questionType = readParameter(this, i, questionTypeProperty, oneOfValues(QUESTION_TYPES));
	const request: IDataObject = {
		...question,
		...readFields(this, i, answerFields[questionType]).body,
		...readFields(this, i, answeredByFields).body,
		EntityID: workOrderId,
	};
	const parts: MultipartPart[] = [
		{ name: 'CheckListResponseRequest', value: JSON.stringify(request), contentType: 'application/json' },
	];
	const photo = await readPhoto(this, i);
	if (photo) parts.push(photo);
	const result = await client.request({ method: 'POST', path: '/checklists/CheckListResponse', multipart: parts, itemIndex: i });
	return [asRecord(result) ?? {}];
}
