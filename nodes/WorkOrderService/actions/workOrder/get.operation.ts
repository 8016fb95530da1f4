import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { workOrderIdField } from '../../helpers/fields';
import { readWorkOrderId } from '../../helpers/params';
import { outputProperties, shapeOutput } from '../../helpers/simplify';
import { asRecord } from '../../helpers/values';
import type { WorkOrderServiceClient } from '../../transport/client';
import type { OperationMeta } from '../operation';

import { WORK_ORDER_OUTPUT } from './simplify';

export const meta: OperationMeta = { safeToRepeat: true };

export const description = updateDisplayOptions(
	{ show: { resource: ['workOrder'], operation: ['get'] } },
	[workOrderIdField, ...outputProperties(WORK_ORDER_OUTPUT)],
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
	return shapeOutput(this, i, [record], WORK_ORDER_OUTPUT);
}
