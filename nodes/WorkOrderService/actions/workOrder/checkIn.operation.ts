import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { workOrderIdField } from '../../helpers/fields';
import { collectionOf, readFields } from '../../helpers/fieldList';
import { readWorkOrderId } from '../../helpers/params';
import { asRecord, type WorkOrderServiceClient } from '../../transport';

import { checkInOutFields } from './checkInOutFields';
import type { OperationMeta } from '../operation';

export const meta: OperationMeta = { verb: 'checked in', safeToRepeat: false };

export const description = updateDisplayOptions({ show: { resource: ['workOrder'], operation: ['checkIn'] } }, [
	workOrderIdField,
	collectionOf('additionalFields', checkInOutFields),
]);

/** POST /workorders/{id}/universalCheckIn: a technician arrived. */
export async function execute(this: IExecuteFunctions, i: number, client: WorkOrderServiceClient): Promise<IDataObject[]> {
	const workOrderId = readWorkOrderId(this, i);
	const { body } = readFields(this, i, checkInOutFields, 'additionalFields');
	const result = await client.request({ method: 'POST', path: `/workorders/${workOrderId}/universalCheckIn`, body, itemIndex: i });
	return [asRecord(result) ?? { workOrderId, operation: 'checkIn', success: true }];
}
