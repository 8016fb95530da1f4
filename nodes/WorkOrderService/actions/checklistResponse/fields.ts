import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';

import { readBinaryFile } from '../../helpers/binary';
import { idField } from '../../helpers/fields';
import {
	TEXT_ANSWER_MAX_LENGTH,
	acknowledgementAnswer,
	fieldOf,
	numericAnswer,
	oneOfValues,
	positiveInteger,
	readFields,
	readParameter,
	requiredTextUpTo,
	textUpTo,
	type Check,
	type FieldSpec,
} from '../../helpers/validation';
import type { MultipartPart } from '../../transport/multipart';

/**
 * The fields of one checklist answer (CheckListResponseRequest, contract 2.2), shared by Submit
 * (POST) and Update (PUT). The question and a selector's option are picked from the work order's
 * checklist (From List) or given By ID.
 */

export const QUESTION_TYPES = ['acknowledgement', 'selector', 'textEntry', 'numericInput'] as const;
export type QuestionType = (typeof QUESTION_TYPES)[number];

/** A value given From List or By ID, or plainly (saved before the parameter was a list, or mapped): the ID. */
const locatorId: Check<number> = (node, itemIndex, field, value) => {
	const raw =
		value !== null && typeof value === 'object' && 'value' in value
			? (value as { value: unknown }).value
			: value;
	return positiveInteger(node, itemIndex, field, raw);
};

/** From List (listSearch `method`, which reads the work order and question chosen) or By ID. */
function checklistLocator(options: {
	displayName: string;
	name: string;
	method: string;
	example: string;
	description: string;
}): INodeProperties {
	return {
		displayName: options.displayName,
		name: options.name,
		type: 'resourceLocator',
		default: { mode: 'list', value: '' },
		required: true,
		description: options.description,
		modes: [
			{
				displayName: 'From List',
				name: 'list',
				type: 'list',
				placeholder: 'Choose the work order first...',
				typeOptions: { searchListMethod: options.method, searchable: true },
			},
			{
				displayName: 'By ID',
				name: 'id',
				type: 'string',
				placeholder: `e.g. ${options.example}`,
				validation: [
					{
						type: 'regex',
						properties: {
							regex: '^\\s*([0-9]*[1-9][0-9]*)?\\s*$',
							errorMessage: 'Not an ID: enter digits only',
						},
					},
				],
			},
		],
	};
}

export const questionField: FieldSpec = {
	property: checklistLocator({
		displayName: 'Question',
		name: 'questionId',
		method: 'searchChecklistQuestions',
		example: '9103',
		description:
			"The checklist question being answered (CheckListQuestionID): from the work order's checklist, or by ID",
	}),
	key: 'CheckListQuestionID',
	check: locatorId,
	label: 'Question ID',
};

export const questionTypeProperty: INodeProperties = {
	displayName: 'Question Type',
	name: 'questionType',
	type: 'options',
	required: true,
	default: 'acknowledgement',
	options: [
		{ name: 'Acknowledgement', value: 'acknowledgement', description: 'Yes/no style answer' },
		{ name: 'Numeric Input', value: 'numericInput', description: 'A number' },
		{ name: 'Selector', value: 'selector', description: "One of the question's answer options" },
		{ name: 'Text Entry', value: 'textEntry', description: 'Free text, at most 500 characters' },
	],
	description:
		'Type of the question (the list shows it beside each question); it decides which answer fields are sent',
};

const ACKNOWLEDGEMENT_OPTIONS = ['0', '1', 'False', 'No', 'Off', 'On', 'True', 'Yes'].map(
	(name) => ({ name, value: name.toLowerCase() }),
);

/** The answer fields of each question type (the editor shows only those of the chosen type). */
export const answerFields: Record<QuestionType, FieldSpec[]> = {
	acknowledgement: [
		{
			property: {
				displayName: 'Answer',
				name: 'answer',
				type: 'options',
				required: true,
				default: 'yes',
				options: ACKNOWLEDGEMENT_OPTIONS,
				description: 'Acknowledgement answer. An expression may also return a boolean.',
			},
			key: 'Answer',
			check: acknowledgementAnswer,
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
			key: 'Answer',
			check: requiredTextUpTo(TEXT_ANSWER_MAX_LENGTH),
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
			key: 'Answer',
			check: numericAnswer,
		},
	],
	selector: [
		{
			property: checklistLocator({
				displayName: 'Option',
				name: 'optionId',
				method: 'searchChecklistOptions',
				example: '91021',
				description:
					"The chosen answer option (CheckListQuestionOptionID): from the question's options, or by ID",
			}),
			key: 'CheckListQuestionOptionID',
			check: locatorId,
			label: 'Option ID',
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
			key: 'FreeTextAnswer',
			check: textUpTo(TEXT_ANSWER_MAX_LENGTH),
		},
	],
};

/** Who answers, and on which visit. */
export const answeredByFields: FieldSpec[] = [
	{
		property: idField({
			displayName: 'Provider',
			name: 'providerId',
			example: '3001',
			required: true,
			description: "Provider on whose behalf the answer is given (the work order's provider)",
		}),
		key: 'ProviderID',
		check: positiveInteger,
	},
	{
		property: idField({
			displayName: 'Technician ID',
			name: 'technicianId',
			example: '4001',
			required: true,
			description:
				"Technician on whose behalf the answer is given (one of the provider's technicians)",
		}),
		key: 'TechnicianID',
		check: positiveInteger,
	},
	{
		property: {
			displayName: 'Attempt',
			name: 'attempt',
			type: 'number',
			required: true,
			default: 1,
			description: "Ordinal of the technician's on-site visit the answer is for, starting at 1",
		},
		key: 'Attempt',
		check: positiveInteger,
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
	fields.map(({ property }) => ({
		...property,
		displayOptions: { show: { questionType: [questionType] } },
	}));

/** The parameters of an answer after the work order: question, type, answer fields, who, photo. */
export const answerProperties: INodeProperties[] = [
	questionField.property,
	questionTypeProperty,
	...(Object.keys(answerFields) as QuestionType[]).flatMap((type) =>
		shownFor(type, answerFields[type]),
	),
	...answeredByFields.map(({ property }) => property),
	photoProperty,
];

/** CheckListResponseRequest of item i for the work order (EntityID). */
export function readAnswerRequest(
	ctx: IExecuteFunctions,
	i: number,
	workOrderId: number,
): IDataObject {
	const question = readFields(ctx, i, [questionField]).body;
	const questionType = readParameter(ctx, i, questionTypeProperty, oneOfValues(QUESTION_TYPES));
	return {
		...question,
		...readFields(ctx, i, answerFields[questionType]).body,
		...readFields(ctx, i, answeredByFields).body,
		EntityID: workOrderId,
	};
}

const PICTURE_TYPES = /^(image\/[a-z0-9.+-]+|application\/pdf)$/i;

/** The photo (or PDF) to send, if Photo Binary Field names one. */
export async function readPhoto(
	ctx: IExecuteFunctions,
	i: number,
): Promise<MultipartPart | undefined> {
	const propertyName = ctx.getNodeParameter(photoProperty.name, i, undefined) as unknown;
	const given =
		typeof propertyName === 'string'
			? propertyName.trim() !== ''
			: propertyName !== undefined && propertyName !== null;
	if (!given) return undefined;
	const file = await readBinaryFile(ctx, i, fieldOf(photoProperty), propertyName, {
		defaultFileName: 'photo',
		mimeRule: (mimeType) =>
			PICTURE_TYPES.test(mimeType.split(';')[0].trim())
				? undefined
				: 'a checklist picture must be an image or a PDF',
	});
	return { name: 'file', fileName: file.fileName, contentType: file.mimeType, data: file.data };
}

/**
 * The multipart parts of an answer after `leading`: the CheckListResponseRequest JSON part and the
 * optional photo (Submit and Update send the same two).
 */
export async function answerParts(
	ctx: IExecuteFunctions,
	i: number,
	request: IDataObject,
	leading: MultipartPart[] = [],
): Promise<MultipartPart[]> {
	const parts: MultipartPart[] = [
		...leading,
		{
			name: 'CheckListResponseRequest',
			value: JSON.stringify(request),
			contentType: 'application/json',
		},
	];
	const photo = await readPhoto(ctx, i);
	if (photo) parts.push(photo);
	return parts;
}
