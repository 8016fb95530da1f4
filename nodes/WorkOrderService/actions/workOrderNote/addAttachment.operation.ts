import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { readBinaryFile } from '../../helpers/binary';
import { binaryPropertyField, noteIdField, workOrderIdField } from '../../helpers/fields';
import { readWorkOrderId } from '../../helpers/params';
import { attachmentOut } from '../../helpers/noteIds';
import { int64Id } from '../../helpers/validation';
import { asRecord, type WorkOrderServiceClient } from '../../transport';

const properties: INodeProperties[] = [workOrderIdField, noteIdField, binaryPropertyField];

export const description = updateDisplayOptions(
	{ show: { resource: ['workOrderNote'], operation: ['addAttachment'] } },
	properties,
);

export async function execute(this: IExecuteFunctions, i: number, client: WorkOrderServiceClient): Promise<IDataObject[]> {
	const node = this.getNode();
	const workOrderId = readWorkOrderId(this, i);
	const noteId = int64Id(node, i, { name: 'noteId', label: 'Note ID' }, this.getNodeParameter('noteId', i, undefined));
	const file = await readBinaryFile(
		this,
		i,
		{ name: 'binaryPropertyName', label: 'Input Binary Field' },
		this.getNodeParameter('binaryPropertyName', i, 'data'),
		{ defaultFileName: 'attachment' },
	);
	const result = await client.request({
		method: 'POST',
		path: `/workorders/${workOrderId}/notes/${noteId}/attachments`,
		multipart: [{ name: 'file', fileName: file.fileName, contentType: file.mimeType, data: file.data }],
		itemIndex: i,
	});
	return [attachmentOut(asRecord(result) ?? {})];
}
