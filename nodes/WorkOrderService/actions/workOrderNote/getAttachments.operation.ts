import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { limitField, returnAllField, workOrderIdField } from '../../helpers/fields';
import { readWorkOrderId } from '../../helpers/params';
import { attachmentOut } from '../../helpers/noteIds';
import { optionalInt64Id } from '../../helpers/validation';
import { readLimit } from '../../helpers/limit';
import { getODataList, type WorkOrderServiceClient } from '../../transport';

const properties: INodeProperties[] = [
	workOrderIdField,
	{
		displayName: 'Note ID',
		name: 'noteId',
		type: 'string',
		default: '',
		placeholder: 'Leave empty for the whole work order',
		description:
			'ID of the note whose attachments to list (a 64-bit number, e.g. 9007199254740993). Leave empty to list every attachment of the work order.',
	},
	returnAllField,
	{ ...limitField, displayOptions: { show: { returnAll: [false] } } },
];

export const description = updateDisplayOptions(
	{ show: { resource: ['workOrderNote'], operation: ['getAttachments'] } },
	properties,
);

export async function execute(this: IExecuteFunctions, i: number, client: WorkOrderServiceClient): Promise<IDataObject[]> {
	const node = this.getNode();
	const workOrderId = readWorkOrderId(this, i);
	const noteId = optionalInt64Id(node, i, { name: 'noteId', label: 'Note ID' }, this.getNodeParameter('noteId', i, ''));
	const limit = readLimit(this, i);
	const path =
		noteId === undefined
			? `/odata/workorders(${workOrderId})/attachments`
			: `/odata/workorders(${workOrderId})/notes(${noteId})/attachments`;
	const attachments = await getODataList(this, client, { path, limit, itemIndex: i });
	return attachments.map(attachmentOut);
}
