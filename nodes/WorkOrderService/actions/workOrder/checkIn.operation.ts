import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { readFields } from '../../helpers/validation';
import type { WorkOrderServiceClient } from '../../transport/client';
import type { OperationMeta } from '../operation';

import { REPAIR, readVisit, sendVisit, visitOptions, visitProperties } from './checkInOutFields';

/**
 * Check In: POST /workorders/{id}/universalCheckIn with the reference's CheckInRequest. A repair
 * (the default work type) needs the technician's position. The service answers `{ MechanicId }`,
 * the ID of the recorded check-in.
 */

export const meta: OperationMeta = { verb: 'checked in', safeToRepeat: false };

const options = visitOptions('checkIn');

export const description = updateDisplayOptions(
	{ show: { resource: ['workOrder'], operation: ['checkIn'] } },
	visitProperties([], [], options),
);

/** The item: `{ success, operation, workOrderId }` and the service's answer (`MechanicId`). */
export async function execute(
	this: IExecuteFunctions,
	i: number,
	client: WorkOrderServiceClient,
): Promise<IDataObject[]> {
	const { workOrderId, workTypeId, position } = readVisit(this, i, (type) =>
		type === REPAIR ? 'for a repair check-in (Work Type Repair)' : undefined,
	);
	const { body: chosen } = readFields(this, i, options, 'additionalFields');
	const body = { WorkTypeId: workTypeId, ...position, ...chosen };
	return await sendVisit(this, i, client, { operation: 'checkIn', workOrderId, body });
}
