import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { workOrderIdField } from '../../helpers/fields';
import {
	collectionOf,
	readFields,
	requiredTextUpTo,
	type FieldSpec,
} from '../../helpers/validation';
import { readWorkOrderId } from '../../helpers/params';
import { writeAnswer } from '../../helpers/writeAnswer';
import type { WorkOrderServiceClient } from '../../transport/client';

import { actorField, dynamicField } from './writeFields';
import type { OperationMeta } from '../operation';

export const meta: OperationMeta = { verb: 'updated', safeToRepeat: true };

const priorityField: FieldSpec = {
	property: dynamicField({
		displayName: 'Priority Name or ID',
		name: 'priority',
		method: 'getPriorities',
		what: 'The new priority',
		required: true,
	}),
	key: 'Value',
	check: requiredTextUpTo(100),
	label: 'Priority',
};

const additionalFields: FieldSpec[] = [actorField];

export const description = updateDisplayOptions(
	{ show: { resource: ['workOrder'], operation: ['updatePriority'] } },
	[workOrderIdField, priorityField.property, collectionOf('additionalFields', additionalFields)],
);

/** PUT /workorders/{id}/priority (ChangeWoValueRequest: the priority's name), answered `{ id }`. */
export async function execute(
	this: IExecuteFunctions,
	i: number,
	client: WorkOrderServiceClient,
): Promise<IDataObject[]> {
	const workOrderId = readWorkOrderId(this, i);
	const { Value } = readFields(this, i, [priorityField]).body;
	const { body } = readFields(this, i, additionalFields, 'additionalFields');
	const response = await client.send({
		method: 'PUT',
		path: `/workorders/${workOrderId}/priority`,
		body: { Value, ...body },
		itemIndex: i,
	});
	return [writeAnswer('updatePriority', { workOrderId, priority: Value }, response)];
}
