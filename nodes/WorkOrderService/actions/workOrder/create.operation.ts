import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import {
	collectionOf,
	fieldOf,
	invalid,
	positiveInteger,
	readFields,
	requiredText,
} from '../../helpers/validation';
import { locationLocator } from '../../helpers/places';
import { writeAnswer } from '../../helpers/writeAnswer';
import type { WorkOrderServiceClient } from '../../transport/client';

import { additionalFields, dispatchFields, requiredFields } from './createFields';
import { nest } from './writeFields';
import type { OperationMeta } from '../operation';

export const meta: OperationMeta = { verb: 'created', safeToRepeat: false };

/** Where the work is: ContractInfo.LocationId, or the store number (StoreId) in its place. */
const locationField: INodeProperties = locationLocator({
	name: 'location',
	description:
		"Where the work is: chosen from the list, the location's ID, or the client's store number",
	required: true,
	byStoreNumber: true,
});

export const description = updateDisplayOptions(
	{ show: { resource: ['workOrder'], operation: ['create'] } },
	[
		locationField,
		...requiredFields.map(({ property }) => property),
		...dispatchFields.map(({ property }) => property),
		collectionOf('additionalFields', additionalFields),
	],
);

/** ContractInfo.LocationId or ContractInfo.StoreId of item i (From List and By ID give the ID; a plain value of an older workflow is an ID). */
function readLocation(ctx: IExecuteFunctions, i: number): IDataObject {
	const raw = ctx.getNodeParameter(locationField.name, i, undefined) as unknown;
	const isLocator = raw !== null && typeof raw === 'object' && 'value' in raw;
	const mode = isLocator ? (raw as { mode?: unknown }).mode : 'id';
	const value = isLocator ? (raw as { value: unknown }).value : raw;
	const field = fieldOf(locationField);
	if (mode === 'storeId')
		return {
			'ContractInfo.StoreId': requiredText(
				ctx.getNode(),
				i,
				{ ...field, label: 'Location (store number)' },
				value,
				100,
			).trim(),
		};
	return {
		'ContractInfo.LocationId': positiveInteger(
			ctx.getNode(),
			i,
			{ ...field, label: 'Location ID' },
			value,
		),
	};
}

/** NewWoStatus needs both Primary and Extended. */
function checkStatusPair(ctx: IExecuteFunctions, i: number, body: IDataObject): void {
	const primary = body['Status.Primary'];
	const extended = body['Status.Extended'];
	if ((primary === undefined) === (extended === undefined)) return;
	const key = primary === undefined ? 'Status.Primary' : 'Status.Extended';
	const missing = additionalFields.find((f) => f.key === key) as (typeof additionalFields)[number];
	throw invalid(
		ctx.getNode(),
		i,
		fieldOf(missing.property, 'additionalFields'),
		'must be given with the other status field (the service needs both)',
		undefined,
	);
}

/** POST /workorders (CreateWoRequest); answered 201 with the new ID in the body or a Location header, or with nothing. */
export async function execute(
	this: IExecuteFunctions,
	i: number,
	client: WorkOrderServiceClient,
): Promise<IDataObject[]> {
	const location = readLocation(this, i);
	const flat: IDataObject = {
		...location,
		...readFields(this, i, requiredFields).body,
		...readFields(this, i, dispatchFields).body,
		...readFields(this, i, additionalFields, 'additionalFields').body,
	};
	checkStatusPair(this, i, flat);
	const response = await client.send({
		method: 'POST',
		path: '/workorders',
		body: nest(flat),
		itemIndex: i,
	});
	return [writeAnswer('create', {}, response)];
}
