import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { readBinaryFile } from '../../helpers/binary';
import { binaryPropertyField, noteIdField, workOrderIdField } from '../../helpers/fields';
import {
	collectionOf,
	fieldOf,
	int64Id,
	invalid,
	optionalBoolean,
	readFields,
	readParameter,
	textUpTo,
	type Check,
	type FieldSpec,
} from '../../helpers/validation';
import { readWorkOrderId } from '../../helpers/params';
import { writeAnswer } from '../../helpers/writeAnswer';
import type { WorkOrderServiceClient } from '../../transport/client';
import type { OperationMeta } from '../operation';

/**
 * Add Attachment (to a note): POST /workorders/{id}/notes/{noteId}/attachments, multipart with the
 * reference's parts: `AddAttachmentsRequest`, a JSON array with one AddAttachmentRequest describing
 * the file (Name, Type File, MediaType, and the options given), and `file`. The service answers
 * 201 without a documented body ("maybe the new IDs, maybe nothing").
 */

export const meta: OperationMeta = {
	verb: 'attached',
	safeToRepeat: false,
	file: { parameter: 'binaryPropertyName', required: true },
};

/** Visibility of a file: null (the default: as the note), 1, 2 or 3. */
const VISIBILITY = { notExternalSubscriber: 1, notProvider: 2, subscriberOnly: 3 } as const;

const visibilityCheck: Check<number | undefined> = (node, itemIndex, field, value) => {
	if (value === undefined || value === null || value === '' || value === 'default')
		return undefined;
	if (typeof value === 'string' && Object.prototype.hasOwnProperty.call(VISIBILITY, value))
		return VISIBILITY[value as keyof typeof VISIBILITY];
	if (
		(typeof value === 'number' || typeof value === 'string') &&
		/^[1-3]$/.test(String(value).trim())
	)
		return Number(value);
	throw invalid(
		node,
		itemIndex,
		field,
		'must be default, notExternalSubscriber, notProvider or subscriberOnly (or 1 to 3)',
		value,
	);
};

/** The descriptor's optional fields (AddAttachmentRequest), in the order they are checked. */
const options: FieldSpec[] = [
	{
		property: {
			displayName: 'Description',
			name: 'description',
			type: 'string',
			default: '',
			description: 'Free text about the file (Description)',
		},
		key: 'Description',
		check: textUpTo(2000),
	},
	{
		property: {
			displayName: 'File Name',
			name: 'fileName',
			type: 'string',
			default: '',
			description: "Name to show for the file (Name). Leave empty for the input file's name.",
		},
		key: 'Name',
		check: textUpTo(255),
	},
	{
		property: {
			displayName: 'Visibility',
			name: 'visibility',
			type: 'options',
			default: 'default',
			options: [
				{ name: 'Default', value: 'default', description: 'Send none: the service decides' },
				{
					name: 'Not External Subscriber',
					value: 'notExternalSubscriber',
					description: 'Hidden from external subscriber users (1)',
				},
				{ name: 'Not Provider', value: 'notProvider', description: 'Hidden from the provider (2)' },
				{
					name: 'Subscriber Only',
					value: 'subscriberOnly',
					description: 'Only the subscriber sees it (3)',
				},
			],
			description: 'Who may see the file (Visibility)',
		},
		key: 'Visibility',
		check: visibilityCheck,
	},
	{
		property: {
			displayName: 'Invoice Digital Copy',
			name: 'isInvoiceDigitalCopy',
			type: 'boolean',
			default: false,
			description: 'Whether the file is a digital copy of an invoice (IsInvoiceDigitalCopy)',
		},
		key: 'IsInvoiceDigitalCopy',
		check: optionalBoolean,
	},
];

export const description = updateDisplayOptions(
	{ show: { resource: ['workOrderNote'], operation: ['addAttachment'] } },
	[workOrderIdField, noteIdField, binaryPropertyField, collectionOf('options', options)],
);

/** The item: success, operation, workOrderId, noteId (text) and the new attachment IDs (`ids`) when the service sent them. */
export async function execute(
	this: IExecuteFunctions,
	i: number,
	client: WorkOrderServiceClient,
): Promise<IDataObject[]> {
	const workOrderId = readWorkOrderId(this, i);
	const noteId = readParameter(this, i, noteIdField, int64Id);
	const { body: chosen } = readFields(this, i, options, 'options');
	const propertyName = this.getNodeParameter(binaryPropertyField.name, i, 'data');
	const file = await readBinaryFile(this, i, fieldOf(binaryPropertyField), propertyName, {
		defaultFileName: 'attachment',
	});
	const descriptor: IDataObject = {
		Name: file.fileName,
		Type: 'File',
		MediaType: file.mimeType,
		...chosen,
	};
	const answer = await client.send({
		method: 'POST',
		path: `/workorders/${workOrderId}/notes/${noteId}/attachments`,
		multipart: [
			{
				name: 'AddAttachmentsRequest',
				value: JSON.stringify([descriptor]),
				contentType: 'application/json',
			},
			{ name: 'file', fileName: file.fileName, contentType: file.mimeType, data: file.data },
		],
		itemIndex: i,
	});
	return [writeAnswer('addAttachment', { workOrderId, noteId }, answer)];
}
