import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';

import { dateTimeField, idField, workOrderIdField } from '../../helpers/fields';
import { readWorkOrderId } from '../../helpers/params';
import {
	collectionOf,
	invalid,
	numberBetween,
	optionalPositiveInteger,
	optionalText,
	positiveInteger,
	readFields,
	readParameter,
	type FieldSpec,
} from '../../helpers/validation';
import { dateTimeToSend, withOffsets } from '../../helpers/sendValues';
import { writeAnswer } from '../../helpers/writeAnswer';
import type { WorkOrderServiceClient } from '../../transport/client';

/**
 * What Check In and Check Out share (the reference's CheckInRequest and CheckOutRequest):
 * the work type (WorkTypeId: 1 repair, the default; 2 travel; any other a custom type), the
 * technician's position (Latitude, Longitude), and the optional User ID, Techs Count, time and
 * actor. The position is needed for repairs (and on check-out for travel, unless cancelled): the
 * node checks that before it sends anything.
 */

export const REPAIR = 1;
export const TRAVEL = 2;

export const workTypeProperty: INodeProperties = {
	displayName: 'Work Type',
	name: 'workType',
	type: 'options',
	default: 'repair',
	options: [
		{
			name: 'Repair',
			value: 'repair',
			description: 'Work on site (WorkTypeId 1); needs the position',
		},
		{ name: 'Travel', value: 'travel', description: 'Travelling to the site (WorkTypeId 2)' },
		{
			name: 'Custom',
			value: 'custom',
			description: 'A custom work type of the account, by its ID',
		},
	],
	description: 'What the technician checks in or out for (WorkTypeId)',
};

export const customWorkTypeProperty: INodeProperties = {
	...idField({
		displayName: 'Custom Work Type ID',
		name: 'customWorkTypeId',
		example: '5',
		description: "ID of the account's custom work type (WorkTypeId, 3 or higher)",
	}),
	displayOptions: { show: { workType: ['custom'] } },
};

const latitudeField: FieldSpec = {
	property: {
		displayName: 'Latitude',
		name: 'latitude',
		type: 'string',
		default: '',
		placeholder: 'e.g. 32.7767',
		description:
			"The technician's latitude in decimal degrees, -90 to 90 (Latitude). Required for a repair.",
	},
	key: 'Latitude',
	check: numberBetween(-90, 90),
};

const longitudeField: FieldSpec = {
	property: {
		displayName: 'Longitude',
		name: 'longitude',
		type: 'string',
		default: '',
		placeholder: 'e.g. -96.797',
		description:
			"The technician's longitude in decimal degrees, -180 to 180 (Longitude). Required for a repair.",
	},
	key: 'Longitude',
	check: numberBetween(-180, 180),
};

export const positionFields: FieldSpec[] = [latitudeField, longitudeField];

/** The optional fields both take (besides the time, which differs in name). */
const commonOptions: FieldSpec[] = [
	{
		property: idField({
			displayName: 'User ID',
			name: 'userId',
			example: '31',
			description:
				"The technician's user (UserId); the same for check-in and check-out. Leave empty for the current user.",
		}),
		key: 'UserId',
		check: optionalPositiveInteger,
	},
	{
		property: {
			displayName: 'Techs Count',
			name: 'techsCount',
			type: 'number',
			default: 1,
			typeOptions: { minValue: 1 },
			description: 'How many technicians are on site (TechsCount)',
		},
		key: 'TechsCount',
		check: numberBetween(1, 2147483647, true),
	},
	{
		property: {
			displayName: 'Actor',
			name: 'actor',
			type: 'string',
			default: '',
			description: 'Name recorded as the actor (Actor)',
		},
		key: 'Actor',
		check: optionalText,
	},
];

/**
 * The Additional Fields both share, then the time: Check-In Time / Check-Out Time (CheckInTime /
 * CheckOutTime).
 */
export function visitOptions(visit: 'checkIn' | 'checkOut'): FieldSpec[] {
	const [label, name, key] =
		visit === 'checkIn'
			? ['Check-In Time', 'checkInTime', 'CheckInTime']
			: ['Check-Out Time', 'checkOutTime', 'CheckOutTime'];
	return [
		...commonOptions,
		{
			property: dateTimeField(
				label,
				name,
				`When it happened (${key}), if not now. Needs the account's permission to set it.`,
			),
			key,
			check: dateTimeToSend,
		},
	];
}

/** The WorkTypeId of item i: 1, 2 or the custom ID (3 or higher). */
export function readWorkTypeId(ctx: IExecuteFunctions, i: number): number {
	const workType = ctx.getNodeParameter(workTypeProperty.name, i, 'repair') as string;
	if (workType === 'repair') return REPAIR;
	if (workType === 'travel') return TRAVEL;
	if (workType !== 'custom')
		throw invalid(
			ctx.getNode(),
			i,
			{ name: 'workType', label: 'Work Type' },
			'must be repair, travel or custom',
			workType,
		);
	const id = readParameter(ctx, i, customWorkTypeProperty, positiveInteger);
	if (id < 3)
		throw invalid(
			ctx.getNode(),
			i,
			{ name: 'customWorkTypeId', label: 'Custom Work Type ID' },
			'must be 3 or higher (1 is Repair, 2 is Travel)',
			id,
		);
	return id;
}

/**
 * The position of item i: both or none; `required` (with the reason) refuses none before any request.
 */
export function readPosition(
	ctx: IExecuteFunctions,
	i: number,
	required: string | undefined,
): IDataObject {
	const { body } = readFields(ctx, i, positionFields);
	const has = (key: string) => body[key] !== undefined;
	if (has('Latitude') !== has('Longitude') || (required !== undefined && !has('Latitude'))) {
		const missing = has('Latitude') ? longitudeField : latitudeField;
		throw invalid(
			ctx.getNode(),
			i,
			{ name: missing.property.name, label: missing.property.displayName },
			`is required ${required ?? 'together with the other coordinate'}`,
			'',
		);
	}
	return body;
}

/**
 * The parameters of a visit (Check In, Check Out): the work order, `leading`, the work type and the
 * position, `trailing`, then the Additional Fields.
 */
export function visitProperties(
	leading: INodeProperties[],
	trailing: INodeProperties[],
	options: FieldSpec[],
): INodeProperties[] {
	return [
		workOrderIdField,
		...leading,
		workTypeProperty,
		customWorkTypeProperty,
		...positionFields.map((f) => f.property),
		...trailing,
		collectionOf('additionalFields', options),
	];
}

/**
 * The work order, the work type and the position of item i's visit; `needsPosition` says why the
 * position is required for this work type (undefined: it is not).
 */
export function readVisit(
	ctx: IExecuteFunctions,
	i: number,
	needsPosition: (workTypeId: number) => string | undefined,
): { workOrderId: number; workTypeId: number; position: IDataObject } {
	const workOrderId = readWorkOrderId(ctx, i);
	const workTypeId = readWorkTypeId(ctx, i);
	return { workOrderId, workTypeId, position: readPosition(ctx, i, needsPosition(workTypeId)) };
}

/** POSTs the visit (its time with its offset) to `universalCheckIn` / `universalCheckOut`; the write's item. */
export async function sendVisit(
	ctx: IExecuteFunctions,
	i: number,
	client: WorkOrderServiceClient,
	visit: { operation: 'checkIn' | 'checkOut'; workOrderId: number; body: IDataObject },
): Promise<IDataObject[]> {
	const isIn = visit.operation === 'checkIn';
	const body = withOffsets(ctx, i, visit.body, [isIn ? 'CheckInTime' : 'CheckOutTime']);
	const answer = await client.send({
		method: 'POST',
		path: `/workorders/${visit.workOrderId}/${isIn ? 'universalCheckIn' : 'universalCheckOut'}`,
		body,
		itemIndex: i,
	});
	return [writeAnswer(visit.operation, { workOrderId: visit.workOrderId }, answer)];
}
