import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { idField, workOrderIdField } from '../../helpers/fields';
import {
	collectionOf,
	optionalPositiveInteger,
	readFields,
	type FieldSpec,
} from '../../helpers/validation';
import { readWorkOrderId } from '../../helpers/params';
import { writeAnswer } from '../../helpers/writeAnswer';
import type { WorkOrderServiceClient } from '../../transport/client';

import { actorField, requiredDateTime } from './writeFields';
import type { OperationMeta } from '../operation';

export const meta: OperationMeta = { verb: 'updated', safeToRepeat: true };

const dateField: FieldSpec = {
	property: {
		displayName: 'Scheduled Date',
		name: 'scheduledDate',
		type: 'dateTime',
		required: true,
		default: '',
		description:
			'When the provider should come. Without an offset the service reads it as its own local time (US Eastern).',
	},
	key: 'Value',
	check: requiredDateTime,
};

const additionalFields: FieldSpec[] = [
	actorField,
	{
		property: idField({
			displayName: 'Reschedule Reason Code',
			name: 'rescheduleReasonCode',
			example: '2',
			description: "The subscriber's code for why the visit moves",
		}),
		key: 'rescheduleReasonCode',
		in: 'query',
		check: optionalPositiveInteger,
	},
];

export const description = updateDisplayOptions(
	{ show: { resource: ['workOrder'], operation: ['updateScheduledDate'] } },
	[workOrderIdField, dateField.property, collectionOf('additionalFields', additionalFields)],
);

/** PUT /workorders/{id}/scheduledate (ChangeWoValueRequest, `rescheduleReasonCode` in the query), answered `{ id }`. */
export async function execute(
	this: IExecuteFunctions,
	i: number,
	client: WorkOrderServiceClient,
): Promise<IDataObject[]> {
	const workOrderId = readWorkOrderId(this, i);
	const { Value } = readFields(this, i, [dateField]).body;
	const { body, qs } = readFields(this, i, additionalFields, 'additionalFields');
	const response = await client.send({
		method: 'PUT',
		path: `/workorders/${workOrderId}/scheduledate`,
		qs,
		body: { Value, ...body },
		itemIndex: i,
	});
	return [writeAnswer('updateScheduledDate', { workOrderId, scheduledDate: Value }, response)];
}
