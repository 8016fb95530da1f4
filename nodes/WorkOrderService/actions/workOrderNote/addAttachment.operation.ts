import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { binaryPropertyField, noteIdField, workOrderIdField } from '../../helpers/fields';
import { collectionOf, int64Id, readFields, readParameter } from '../../helpers/validation';
import { readWorkOrderId } from '../../helpers/params';
import type { WorkOrderServiceClient } from '../../transport/client';
import { attachmentDescriptorFields, sendAttachment } from '../attachment/descriptor';
import type { OperationMeta } from '../operation';

/**
 * Add Attachment (to a note): POST /workorders/{id}/notes/{noteId}/attachments, multipart with the
 * reference's parts: `AddAttachmentsRequest`, a JSON array with one AddAttachmentRequest describing
 * the file (Name, Type File, MediaType, and the Additional Fields given), and `file`. The service
 * answers 201 without a documented body ("maybe the new IDs, maybe nothing").
 */

export const meta: OperationMeta = {
	verb: 'attached',
	safeToRepeat: false,
	file: { parameter: 'binaryPropertyName', required: true },
};

export const description = updateDisplayOptions(
	{ show: { resource: ['workOrderNote'], operation: ['addAttachment'] } },
	[
		workOrderIdField,
		noteIdField,
		binaryPropertyField,
		collectionOf('additionalFields', attachmentDescriptorFields),
	],
);

/** The item: success, operation, workOrderId, noteId (text), the file, and the new attachment IDs (`ids`) when the service sent them. */
export async function execute(
	this: IExecuteFunctions,
	i: number,
	client: WorkOrderServiceClient,
): Promise<IDataObject[]> {
	const workOrderId = readWorkOrderId(this, i);
	const noteId = readParameter(this, i, noteIdField, int64Id);
	const { body } = readFields(this, i, attachmentDescriptorFields, 'additionalFields');
	return [
		await sendAttachment(this, i, client, body, {
			path: `/workorders/${workOrderId}/notes/${noteId}/attachments`,
			wrap: (descriptor) => [descriptor],
			passed: { workOrderId, noteId },
		}),
	];
}
