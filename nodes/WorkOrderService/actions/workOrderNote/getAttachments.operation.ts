import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { limitField, returnAllField, workOrderIdField } from '../../helpers/fields';
import { int64Id, positiveInteger } from '../../helpers/validation';
import { readLimit } from '../../helpers/limit';
import { getODataList, type WorkOrderServiceClient } from '../../transport';

const properties: INodeProperties[] = [
	workOrderIdField,
	{
		displayName: 'Note ID',
		name: 'noteId',
		type: 'string',
		default: '',
		placeholder: '9007199254740993',
		description:
			'ID of the note whose attachments to list. Leave empty to list every attachment of the work order. Pass 64-bit IDs as text.',
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
	const workOrderId = positiveInteger(node, i, { name: 'workOrderId', label: 'Work Order ID' }, this.getNodeParameter('workOrderId', i, undefined));
	const rawNoteId = this.getNodeParameter('noteId', i, '');
	const noteId =
		rawNoteId === '' || rawNoteId === undefined || rawNoteId === null
			? undefined
			: int64Id(node, i, { name: 'noteId', label: 'Note ID' }, rawNoteId);
	const limit = readLimit(this, i);
	const path =
		noteId === undefined
			? `/odata/workorders(${workOrderId})/attachments`
			: `/odata/workorders(${workOrderId})/notes(${noteId})/attachments`;
	return await getODataList(this, client, { path, limit, itemIndex: i });
}
