import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { workOrderIdField } from '../../helpers/fields';
import { positiveInteger } from '../../helpers/validation';
import { apiRequest } from '../../transport';

const properties: INodeProperties[] = [workOrderIdField];

export const description = updateDisplayOptions(
	{ show: { resource: ['workOrder'], operation: ['get'] } },
	properties,
);

export async function execute(this: IExecuteFunctions, i: number): Promise<IDataObject[]> {
	const workOrderId = positiveInteger(this.getNode(), i, { name: 'workOrderId', label: 'Work Order ID' }, this.getNodeParameter('workOrderId', i, undefined));
	const response = await apiRequest.call(this, { method: 'GET', path: `/workorders/${workOrderId}`, itemIndex: i });
	return [(response.body ?? {}) as IDataObject];
}
