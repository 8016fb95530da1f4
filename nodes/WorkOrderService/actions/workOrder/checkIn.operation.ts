import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { workOrderIdField } from '../../helpers/fields';
import { collectionOf, readFields } from '../../helpers/validation';
import { readWorkOrderId } from '../../helpers/params';
import { withOffsets } from '../../helpers/sendValues';
import { writeAnswer } from '../../helpers/writeAnswer';
import type { WorkOrderServiceClient } from '../../transport/client';

import {
	REPAIR,
	commonOptions,
	customWorkTypeProperty,
	positionFields,
	readPosition,
	readWorkTypeId,
	timeOption,
	workTypeProperty,
} from './checkInOutFields';
import type { OperationMeta } from '../operation';

/**
 * Check In: POST /workorders/{id}/universalCheckIn with the reference's CheckInRequest. A repair
 * (the default work type) needs the technician's position. The service answers `{ MechanicId }`,
 * the ID of the recorded check-in.
 */

export const meta: OperationMeta = { verb: 'checked in', safeToRepeat: false };

const options = [...commonOptions, timeOption('Check-In Time', 'checkInTime', 'CheckInTime')];

export const description = updateDisplayOptions(
	{ show: { resource: ['workOrder'], operation: ['checkIn'] } },
	[
		workOrderIdField,
		workTypeProperty,
		customWorkTypeProperty,
		...positionFields.map((f) => f.property),
		collectionOf('additionalFields', options),
	],
);

/** The item: `{ success, operation, workOrderId }` and the service's answer (`MechanicId`). */
export async function execute(
	this: IExecuteFunctions,
	i: number,
	client: WorkOrderServiceClient,
): Promise<IDataObject[]> {
	const workOrderId = readWorkOrderId(this, i);
	const workTypeId = readWorkTypeId(this, i);
	const position = readPosition(
		this,
		i,
		workTypeId === REPAIR ? 'for a repair check-in (Work Type Repair)' : undefined,
	);
	const { body: chosen } = readFields(this, i, options, 'additionalFields');
	const body = withOffsets(this, i, { WorkTypeId: workTypeId, ...position, ...chosen }, [
		'CheckInTime',
	]);
	const answer = await client.send({
		method: 'POST',
		path: `/workorders/${workOrderId}/universalCheckIn`,
		body,
		itemIndex: i,
	});
	return [writeAnswer('checkIn', { workOrderId }, answer)];
}
