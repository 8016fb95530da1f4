import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { workOrderIdField } from '../../helpers/fields';
import { readWorkOrderId } from '../../helpers/params';
import { simplifyProperty, simplifyWorkOrders } from '../../helpers/simplify';
import { asRecord } from '../../helpers/values';
import type { WorkOrderServiceClient } from '../../transport/client';
import type { OperationMeta } from '../operation';

export const meta: OperationMeta = { safeToRepeat: true };

export const description = updateDisplayOptions(
	{ show: { resource: ['workOrder'], operation: ['get'] } },
	[workOrderIdField, simplifyProperty],
);

/** GET /workorders/{id}. */
export async function execute(
	this: IExecuteFunctions,
	i: number,
	client: WorkOrderServiceClient,
): Promise<IDataObject[]> {
	const workOrderId = readWorkOrderId(this, i);
	const record =
		asRecord(
			await client.request({ method: 'GET', path: `/workorders/${workOrderId}`, itemIndex: i }),
		) ?? {};
	return simplifyWorkOrders(this, i, [record]);
}
