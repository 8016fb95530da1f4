import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { binaryPropertyField, workOrderIdField } from '../../helpers/fields';
import { collectionOf, readFields, type FieldSpec } from '../../helpers/validation';
import { readWorkOrderId } from '../../helpers/params';
import type { WorkOrderServiceClient } from '../../transport/client';
import { attachmentDescriptorFields, sendAttachment } from '../attachment/descriptor';
import type { OperationMeta } from '../operation';

import { actorField } from './writeFields';

export const meta: OperationMeta = {
	verb: 'attached',
	safeToRepeat: false,
	file: { parameter: 'binaryPropertyName', required: true },
};

/** The file's descriptor (AddAttachmentRequest) and the query's actor. */
const additionalFields: FieldSpec[] = [
	...attachmentDescriptorFields,
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
	const { body, qs } = readFields(this, i, additionalFields, 'additionalFields');
	return [
		await sendAttachment(this, i, client, body, {
			path: `/workorders/${workOrderId}/attachments`,
			qs,
			wrap: (descriptor) => ({ Attachments: [descriptor] }),
			passed: { workOrderId },
		}),
	];
}
