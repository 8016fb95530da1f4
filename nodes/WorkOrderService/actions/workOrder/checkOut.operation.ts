import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { workOrderIdField } from '../../helpers/fields';
import { collectionOf, readFields, type FieldSpec } from '../../helpers/fieldList';
import { readWorkOrderId } from '../../helpers/params';
import { optionalBoolean } from '../../helpers/validation';
import { asRecord, type WorkOrderServiceClient } from '../../transport';

import { checkInOutFields } from './checkInOutFields';
import type { OperationMeta } from '../operation';

const fields: FieldSpec[] = [
	...checkInOutFields,
	{
		property: {
			displayName: 'Work Completed',
			name: 'workCompleted',
			type: 'boolean',
			default: false,
			description: 'Whether the work is completed with this check-out',
		},
		key: 'WorkCompleted', check: optionalBoolean,
	},
];

export const meta: OperationMeta = { verb: 'checked out', safeToRepeat: false };

export const description = updateDisplayOptions({ show: { resource: ['workOrder'], operation: ['checkOut'] } }, [
	workOrderIdField,
	collectionOf('additionalFields', fields),
]);

/** POST /workorders/{id}/universalCheckOut: a technician left, the work maybe completed. */
export async function execute(this: IExecuteFunctions, i: number, client: WorkOrderServiceClient): Promise<IDataObject[]> {
	const workOrderId = readWorkOrderId(this, i);
	const { body } = readFields(this, i, fields, 'additionalFields');
	const result = await client.request({ method: 'POST', path: `/workorders/${workOrderId}/universalCheckOut`, body, itemIndex: i });
	return [asRecord(result) ?? { workOrderId, operation: 'checkOut', success: true }];
}
