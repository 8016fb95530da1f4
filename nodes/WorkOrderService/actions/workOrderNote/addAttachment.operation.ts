import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { readBinaryFile } from '../../helpers/binary';
import { binaryPropertyField, noteIdField, workOrderIdField } from '../../helpers/fields';
import { fieldOf, readParameter } from '../../helpers/fieldList';
import { attachmentOut } from '../../helpers/noteIds';
import { readWorkOrderId } from '../../helpers/params';
import { int64Id } from '../../helpers/validation';
import { asRecord, type WorkOrderServiceClient } from '../../transport';
import type { OperationMeta } from '../operation';

export const meta: OperationMeta = { verb: 'attached', safeToRepeat: false, file: { parameter: 'binaryPropertyName', required: true } };

export const description = updateDisplayOptions({ show: { resource: ['workOrderNote'], operation: ['addAttachment'] } }, [
	workOrderIdField,
	noteIdField,
	binaryPropertyField,
]);

/** POST /workorders/{id}/notes/{noteId}/attachments (multipart); the item is the attachment record. */
export async function execute(this: IExecuteFunctions, i: number, client: WorkOrderServiceClient): Promise<IDataObject[]> {
	const workOrderId = readWorkOrderId(this, i);
	const noteId = readParameter(this, i, noteIdField, int64Id);
	const propertyName = this.getNodeParameter(binaryPropertyField.name, i, 'data');
	const file = await readBinaryFile(this, i, fieldOf(binaryPropertyField), propertyName, { defaultFileName: 'attachment' });
	const result = await client.request({
		method: 'POST',
		path: `/workorders/${workOrderId}/notes/${noteId}/attachments`,
		multipart: [{ name: 'file', fileName: file.fileName, contentType: file.mimeType, data: file.data }],
		itemIndex: i,
	});
	return [attachmentOut(asRecord(result) ?? {})];
}
