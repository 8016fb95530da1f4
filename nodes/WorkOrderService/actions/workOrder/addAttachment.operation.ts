import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { readBinaryFile } from '../../helpers/binary';
import { binaryPropertyField, workOrderIdField } from '../../helpers/fields';
import {
	collectionOf,
	fieldOf,
	invalid,
	optionalBoolean,
	optionalText,
	readFields,
	textUpTo,
	type Check,
	type FieldSpec,
} from '../../helpers/validation';
import { readWorkOrderId } from '../../helpers/params';
import { writeAnswer } from '../../helpers/writeAnswer';
import type { WorkOrderServiceClient } from '../../transport/client';

import { actorField } from './writeFields';
import type { OperationMeta } from '../operation';

export const meta: OperationMeta = {
	verb: 'attached',
	safeToRepeat: false,
	file: { parameter: 'binaryPropertyName', required: true },
};

const VISIBILITY = {
	everyone: undefined,
	notExternalSubscriber: 1,
	notProvider: 2,
	subscriberOnly: 3,
} as const;

const visibility: Check<number | undefined> = (node, itemIndex, field, value) => {
	if (value === undefined || value === null || value === '') return undefined;
	if (typeof value === 'string' && Object.prototype.hasOwnProperty.call(VISIBILITY, value))
		return VISIBILITY[value as keyof typeof VISIBILITY];
	throw invalid(
		node,
		itemIndex,
		field,
		`must be one of ${Object.keys(VISIBILITY).join(', ')}`,
		value,
	);
};

/** The descriptor of the file (AddAttachmentRequest) and the query's actor. */
const additionalFields: FieldSpec[] = [
	{
		property: {
			displayName: 'File Name',
			name: 'fileName',
			type: 'string',
			default: '',
			description: "Name to show for the file; the input file's own name when empty",
		},
		key: 'Name',
		check: textUpTo(255),
	},
	{
		property: {
			displayName: 'Description',
			name: 'description',
			type: 'string',
			default: '',
			description: 'What the file shows',
		},
		key: 'Description',
		check: optionalText,
	},
	{
		property: {
			displayName: 'Visibility',
			name: 'visibility',
			type: 'options',
			default: 'everyone',
			options: [
				{ name: 'Everyone', value: 'everyone' },
				{ name: 'Not External Subscriber Users', value: 'notExternalSubscriber' },
				{ name: 'Not the Provider', value: 'notProvider' },
				{ name: 'Subscriber Only', value: 'subscriberOnly' },
			],
			description: 'Who may see the file',
		},
		key: 'Visibility',
		check: visibility,
	},
	{
		property: {
			displayName: 'Invoice Copy',
			name: 'isInvoiceDigitalCopy',
			type: 'boolean',
			default: false,
			description: 'Whether the file is the digital copy of an invoice',
		},
		key: 'IsInvoiceDigitalCopy',
		check: optionalBoolean,
	},
	{ ...actorField, key: 'actor', in: 'query' },
];

export const description = updateDisplayOptions(
	{ show: { resource: ['workOrder'], operation: ['addAttachment'] } },
	[workOrderIdField, binaryPropertyField, collectionOf('additionalFields', additionalFields)],
);

/**
 * POST /workorders/{id}/attachments (multipart: the `AddAttachmentsRequest` part
 * `{ Attachments: [descriptor] }` and the `file`; `actor` in the query), answered 201 with no
 * documented body.
 */
export async function execute(
	this: IExecuteFunctions,
	i: number,
	client: WorkOrderServiceClient,
): Promise<IDataObject[]> {
	const workOrderId = readWorkOrderId(this, i);
	const { body: described, qs } = readFields(this, i, additionalFields, 'additionalFields');
	const propertyName = this.getNodeParameter(binaryPropertyField.name, i, 'data');
	const file = await readBinaryFile(this, i, fieldOf(binaryPropertyField), propertyName, {
		defaultFileName: 'attachment',
	});
	const descriptor: IDataObject = {
		Name: file.fileName,
		Type: 'File',
		MediaType: file.mimeType,
		...described,
	};
	const response = await client.send({
		method: 'POST',
		path: `/workorders/${workOrderId}/attachments`,
		qs,
		multipart: [
			{
				name: 'AddAttachmentsRequest',
				value: JSON.stringify({ Attachments: [descriptor] }),
				contentType: 'application/json',
			},
			{ name: 'file', fileName: file.fileName, contentType: file.mimeType, data: file.data },
		],
		itemIndex: i,
	});
	return [
		writeAnswer(
			'addAttachment',
			{ workOrderId, fileName: descriptor.Name, mimeType: file.mimeType, fileSize: file.data.size },
			response,
		),
	];
}
