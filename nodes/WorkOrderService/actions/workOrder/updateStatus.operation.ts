import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { idField, workOrderIdField } from '../../helpers/fields';
import {
	collectionOf,
	optionalPositiveInteger,
	optionalText,
	readFields,
	requiredTextUpTo,
	textUpTo,
	type FieldSpec,
} from '../../helpers/validation';
import { readWorkOrderId } from '../../helpers/params';
import { writeAnswer } from '../../helpers/writeAnswer';
import type { WorkOrderServiceClient } from '../../transport/client';

import { actorField, dynamicField } from './writeFields';
import type { OperationMeta } from '../operation';

export const meta: OperationMeta = { verb: 'updated', safeToRepeat: false };

const primaryField: FieldSpec = {
	property: dynamicField({
		displayName: 'Primary Status Name or ID',
		name: 'primaryStatus',
		method: 'getPrimaryStatuses',
		what: 'Primary status to set, e.g. IN PROGRESS',
		required: true,
	}),
	key: 'Primary',
	check: requiredTextUpTo(100),
	label: 'Status',
};

const extendedField: FieldSpec = {
	property: dynamicField({
		displayName: 'Extended Status Name or ID',
		name: 'extendedStatus',
		method: 'getExtendedStatuses',
		what: 'Extended status under the primary one, e.g. ON SITE; leave empty for none',
		dependsOn: ['primaryStatus'],
	}),
	key: 'Extended',
	check: textUpTo(100),
	label: 'Extended Status',
};

const noteField: FieldSpec = {
	property: {
		displayName: 'Note',
		name: 'note',
		type: 'string',
		default: '',
		typeOptions: { rows: 3 },
		description: 'Note added to the work order with the change',
	},
	key: 'Note',
	check: optionalText,
};

const additionalFields: FieldSpec[] = [
	actorField,
	{
		property: idField({
			displayName: 'Decline Reason ID',
			name: 'declineReasonId',
			example: '1',
			description:
				'Why the work order is declined; needed when the extended status is DECLINED (status OPEN)',
		}),
		key: 'DeclineReasonId',
		check: optionalPositiveInteger,
	},
	{
		property: {
			displayName: 'Custom Decline Reason',
			name: 'customDeclineReason',
			type: 'string',
			default: '',
			description: 'Own text for a decline reason that allows one',
		},
		key: 'CustomDeclineReason',
		check: optionalText,
	},
];

export const description = updateDisplayOptions(
	{ show: { resource: ['workOrder'], operation: ['updateStatus'] } },
	[
		workOrderIdField,
		primaryField.property,
		extendedField.property,
		noteField.property,
		collectionOf('additionalFields', additionalFields),
	],
);

/** PUT /workorders/{id}/status (ChangeWoStatusRequest), answered `{ id, result }` (result: the text of the note the change added). */
export async function execute(
	this: IExecuteFunctions,
	i: number,
	client: WorkOrderServiceClient,
): Promise<IDataObject[]> {
	const workOrderId = readWorkOrderId(this, i);
	const { Primary } = readFields(this, i, [primaryField]).body;
	// The reference requires Extended; an empty one means none.
	const Extended = (readFields(this, i, [extendedField]).body.Extended as string | undefined) ?? '';
	const body: IDataObject = {
		Status: { Primary, Extended },
		...readFields(this, i, [noteField]).body,
		...readFields(this, i, additionalFields, 'additionalFields').body,
	};
	const response = await client.send({
		method: 'PUT',
		path: `/workorders/${workOrderId}/status`,
		body,
		itemIndex: i,
	});
	return [
		writeAnswer(
			'updateStatus',
			{ workOrderId, primaryStatus: Primary, extendedStatus: Extended },
			response,
		),
	];
}
