import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { idField, workOrderIdField } from '../../helpers/fields';
import { readWorkOrderId } from '../../helpers/params';
import { optionalBoolean, optionalNumber, optionalPositiveInteger, optionalText } from '../../helpers/validation';
import { asRecord, type WorkOrderServiceClient } from '../../transport';

/** Check-in and check-out share their parameters: POST /workorders/{id}/universalCheckIn|Out. */

type Direction = 'checkIn' | 'checkOut';

const PATHS: Record<Direction, string> = { checkIn: 'universalCheckIn', checkOut: 'universalCheckOut' };

export function checkInOutDescription(operation: Direction): INodeProperties[] {
	const properties: INodeProperties[] = [
		workOrderIdField,
		{
			displayName: 'Additional Fields',
			name: 'additionalFields',
			type: 'collection',
			placeholder: 'Add Field',
			default: {},
			options: [
				{
					displayName: 'Comment',
					name: 'comment',
					type: 'string',
					default: '',
					description: 'Remark recorded with the activity',
				},
				{
					displayName: 'Latitude',
					name: 'latitude',
					type: 'string',
					default: '',
					placeholder: 'e.g. 32.7767',
					description: 'Latitude of the technician in decimal degrees, -90 to 90. Nothing is sent while it is empty.',
				},
				{
					displayName: 'Longitude',
					name: 'longitude',
					type: 'string',
					default: '',
					placeholder: 'e.g. -96.797',
					description: 'Longitude of the technician in decimal degrees, -180 to 180. Nothing is sent while it is empty.',
				},
				{
					displayName: 'Number of Technicians',
					name: 'numberOfTechnicians',
					type: 'number',
					default: 1,
					description: 'How many technicians are on site (1 or more)',
				},
				idField({
					displayName: 'Technician ID',
					name: 'technicianId',
					example: '4001',
					description: 'ID of the technician (of the work order\'s provider) checking in or out. Leave empty to send none.',
				}),
				idField({
					displayName: 'User ID',
					name: 'userId',
					example: '11',
					description: 'ID of the technician user checking in or out. Leave empty for the current user.',
				}),
			],
		},
	];
	if (operation === 'checkOut') {
		const collection = properties[1];
		collection.options = [
			...(collection.options ?? []),
			{
				displayName: 'Work Completed',
				name: 'workCompleted',
				type: 'boolean',
				default: false,
				description: 'Whether the work is completed with this check-out',
			},
		];
	}
	return updateDisplayOptions({ show: { resource: ['workOrder'], operation: [operation] } }, properties);
}

export async function checkInOut(
	this: IExecuteFunctions,
	i: number,
	client: WorkOrderServiceClient,
	operation: Direction,
): Promise<IDataObject[]> {
	const node = this.getNode();
	const workOrderId = readWorkOrderId(this, i);
	const fields = (this.getNodeParameter('additionalFields', i, {}) ?? {}) as IDataObject;
	const body: IDataObject = {};
	const latitude = optionalNumber(node, i, { name: 'additionalFields.latitude', label: 'Latitude' }, fields.latitude, { min: -90, max: 90 });
	const longitude = optionalNumber(node, i, { name: 'additionalFields.longitude', label: 'Longitude' }, fields.longitude, { min: -180, max: 180 });
	if (latitude !== undefined) body.Latitude = latitude;
	if (longitude !== undefined) body.Longitude = longitude;
	const userId = optionalPositiveInteger(node, i, { name: 'additionalFields.userId', label: 'User ID' }, fields.userId);
	if (userId !== undefined) body.UserId = userId;
	const technicianId = optionalPositiveInteger(node, i, { name: 'additionalFields.technicianId', label: 'Technician ID' }, fields.technicianId);
	if (technicianId !== undefined) body.TechnicianId = technicianId;
	const technicians = optionalPositiveInteger(
		node,
		i,
		{ name: 'additionalFields.numberOfTechnicians', label: 'Number of Technicians' },
		fields.numberOfTechnicians,
	);
	if (technicians !== undefined) body.NumberOfTechnicians = technicians;
	const comment = optionalText(node, i, { name: 'additionalFields.comment', label: 'Comment' }, fields.comment);
	if (comment !== undefined) body.Comment = comment;
	if (operation === 'checkOut') {
		const completed = optionalBoolean(node, i, { name: 'additionalFields.workCompleted', label: 'Work Completed' }, fields.workCompleted);
		if (completed !== undefined) body.WorkCompleted = completed;
	}

	const result = await client.request({
		method: 'POST',
		path: `/workorders/${workOrderId}/${PATHS[operation]}`,
		body,
		itemIndex: i,
	});
	return [asRecord(result) ?? { workOrderId, operation, success: true }];
}
