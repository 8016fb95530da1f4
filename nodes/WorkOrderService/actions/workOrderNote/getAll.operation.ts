import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { limitField, returnAllField, workOrderIdField } from '../../helpers/fields';
import { positiveInteger } from '../../helpers/validation';
import { readLimit } from '../../helpers/limit';
import { getNotesList, type WorkOrderServiceClient } from '../../transport';

const properties: INodeProperties[] = [
	workOrderIdField,
	returnAllField,
	{ ...limitField, displayOptions: { show: { returnAll: [false] } } },
];

export const description = updateDisplayOptions(
	{ show: { resource: ['workOrderNote'], operation: ['getAll'] } },
	properties,
);

export async function execute(this: IExecuteFunctions, i: number, client: WorkOrderServiceClient): Promise<IDataObject[]> {
	const node = this.getNode();
	const workOrderId = positiveInteger(node, i, { name: 'workOrderId', label: 'Work Order ID' }, this.getNodeParameter('workOrderId', i, undefined));
	const limit = readLimit(this, i);
	return await getNotesList(this, client, { path: `/workorders/${workOrderId}/notes`, limit, itemIndex: i });
}
