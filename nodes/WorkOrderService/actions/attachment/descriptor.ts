import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';

import { readBinaryFile } from '../../helpers/binary';
import { binaryPropertyField } from '../../helpers/fields';
import { fieldOf, optionalBoolean, textUpTo, type FieldSpec } from '../../helpers/validation';
import { writeAnswer } from '../../helpers/writeAnswer';
import type { WorkOrderServiceClient } from '../../transport/client';

import { visibilityField } from '../visibility';

/**
 * The file's descriptor (the reference's AddAttachmentRequest, no field required), the same
 * Additional Fields for Work Order → Add Attachment and Work Order Note → Add Attachment: what
 * differs is only how the descriptor is sent (an object `{ Attachments: [...] }` for a work order,
 * a bare array for a note) and the work order's `actor`.
 */
export const attachmentDescriptorFields: FieldSpec[] = [
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
			displayName: 'Description',
			name: 'description',
			type: 'string',
			default: '',
			description: 'Free text about the file (Description)',
		},
		key: 'Description',
		check: textUpTo(2000),
	},
	visibilityField('file'),
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

/** Where an Add Attachment sends the file, and how its descriptor part is shaped. */
export interface AttachmentTarget {
	path: string;
	qs?: IDataObject;
	/** The `AddAttachmentsRequest` part's JSON for the one descriptor. */
	wrap: (descriptor: IDataObject) => unknown;
	/** The IDs the user passed, first in the item. */
	passed: IDataObject;
}

/**
 * Sends the input file of item i with its descriptor (Name, Type File, MediaType, and the
 * Additional Fields given) as multipart; the item is the write's:
 * `{ success, operation: 'addAttachment', <IDs>, fileName, mimeType, fileSize, <the answer> }`.
 */
export async function sendAttachment(
	ctx: IExecuteFunctions,
	i: number,
	client: WorkOrderServiceClient,
	described: IDataObject,
	target: AttachmentTarget,
): Promise<IDataObject> {
	const propertyName = ctx.getNodeParameter(binaryPropertyField.name, i, 'data');
	const file = await readBinaryFile(ctx, i, fieldOf(binaryPropertyField), propertyName, {
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
		path: target.path,
		qs: target.qs,
		multipart: [
			{
				name: 'AddAttachmentsRequest',
				value: JSON.stringify(target.wrap(descriptor)),
				contentType: 'application/json',
			},
			{ name: 'file', fileName: file.fileName, contentType: file.mimeType, data: file.data },
		],
		itemIndex: i,
	});
	const fileFacts = {
		fileName: descriptor.Name,
		mimeType: file.mimeType,
		fileSize: file.data.size,
	};
	return writeAnswer('addAttachment', { ...target.passed, ...fileFacts }, response);
}
