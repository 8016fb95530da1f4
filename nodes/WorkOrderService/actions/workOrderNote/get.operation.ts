import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { noteIdField, workOrderIdField } from '../../helpers/fields';
import { readWorkOrderId } from '../../helpers/params';
import { noteOut } from '../../helpers/noteIds';
import { int64Id } from '../../helpers/validation';
import { withoutODataAnnotations, type WorkOrderServiceClient } from '../../transport';

const properties: INodeProperties[] = [workOrderIdField, noteIdField];

export const description = updateDisplayOptions(
	{ show: { resource: ['workOrderNote'], operation: ['get'] } },
	properties,
);

export async function execute(this: IExecuteFunctions, i: number, client: WorkOrderServiceClient): Promise<IDataObject[]> {
	const node = this.getNode();
	const workOrderId = readWorkOrderId(this, i);
	const noteId = int64Id(node, i, { name: 'noteId', label: 'Note ID' }, this.getNodeParameter('noteId', i, undefined));
	const body = await client.request({
		method: 'GET',
		path: `/odata/workorders(${workOrderId})/notes(${noteId})`,
		itemIndex: i,
	});
	return [noteOut(withoutODataAnnotations(body))];
}
