import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { workOrderIdField } from '../../helpers/fields';
import { invalid, optionalDateTime, optionalPositiveInteger, positiveInteger } from '../../helpers/validation';
import { apiRequest } from '../../transport';

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
					displayName: 'Date',
					name: 'date',
					type: 'dateTime',
					default: '',
					description: `When the technician checked ${operation === 'checkIn' ? 'in' : 'out'}. Default: now, as the service sees it.`,
				},
				{
					displayName: 'Latitude',
					name: 'latitude',
					type: 'number',
					default: 0,
					typeOptions: { numberPrecision: 6 },
					description: 'Latitude of the technician, -90 to 90',
				},
				{
					displayName: 'Longitude',
					name: 'longitude',
					type: 'number',
					default: 0,
					typeOptions: { numberPrecision: 6 },
					description: 'Longitude of the technician, -180 to 180',
				},
				{
					displayName: 'User ID',
					name: 'userId',
					type: 'number',
					default: 0,
					typeOptions: { minValue: 1, numberPrecision: 0 },
					description: 'ID of the technician user checking in or out. Default: the current user.',
				},
			],
		},
	];
	return updateDisplayOptions({ show: { resource: ['workOrder'], operation: [operation] } }, properties);
}

function coordinate(node: ReturnType<IExecuteFunctions['getNode']>, i: number, name: string, label: string, value: unknown, bound: number) {
	if (value === undefined || value === null || value === '') return undefined;
	const n = typeof value === 'string' ? Number(value) : value;
	if (typeof n !== 'number' || !Number.isFinite(n) || Math.abs(n) > bound) {
		throw invalid(node, i, { name: `additionalFields.${name}`, label }, `must be a number from -${bound} to ${bound}`, value);
	}
	return n;
}

export async function checkInOut(this: IExecuteFunctions, i: number, operation: Direction): Promise<IDataObject[]> {
	const node = this.getNode();
	const workOrderId = positiveInteger(node, i, { name: 'workOrderId', label: 'Work Order ID' }, this.getNodeParameter('workOrderId', i, undefined));
	const fields = (this.getNodeParameter('additionalFields', i, {}) ?? {}) as IDataObject;
	const body: IDataObject = {};
	const latitude = coordinate(node, i, 'latitude', 'Latitude', fields.latitude, 90);
	const longitude = coordinate(node, i, 'longitude', 'Longitude', fields.longitude, 180);
	if (latitude !== undefined) body.Latitude = latitude;
	if (longitude !== undefined) body.Longitude = longitude;
	const userId = optionalPositiveInteger(node, i, { name: 'additionalFields.userId', label: 'User ID' }, fields.userId);
	if (userId !== undefined) body.UserId = userId;
	const date = optionalDateTime(node, i, { name: 'additionalFields.date', label: 'Date' }, fields.date);
	if (date !== undefined) body[operation === 'checkIn' ? 'CheckInDate' : 'CheckOutDate'] = date;

	const response = await apiRequest.call(this, {
		method: 'POST',
		path: `/workorders/${workOrderId}/${PATHS[operation]}`,
		body,
		itemIndex: i,
	});
	const result = response.body;
	if (result && typeof result === 'object' && !Array.isArray(result)) return [result as IDataObject];
	return [{ workOrderId, operation, success: true }];
}
