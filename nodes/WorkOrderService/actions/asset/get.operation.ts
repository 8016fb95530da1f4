import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { assetLocator, locationLocator, readPlaceId } from '../../helpers/places';
import {
	collectionOf,
	optionalPositiveInteger,
	readFields,
	textUpTo,
	type FieldSpec,
} from '../../helpers/validation';
import { asRecord } from '../../helpers/values';
import type { WorkOrderServiceClient } from '../../transport/client';
import type { OperationMeta } from '../operation';

export const meta: OperationMeta = { safeToRepeat: true };

/** The location: lists its assets in the Asset picker, and is sent along (the service answers only an asset there). */
export const assetLocationField = locationLocator({
	name: 'locationId',
	description:
		"The asset's location: the Asset list shows its assets. When set, the service answers the asset only if it is there.",
});

export const assetIdField = assetLocator(
	"The asset, chosen from the location's assets or given by its ID",
);

/** Query parameters of GET /assets/{assetId} that narrow the answer. */
const narrowing: FieldSpec[] = [
	{
		property: {
			displayName: 'Store ID',
			name: 'storeId',
			type: 'string',
			default: '',
			placeholder: 'e.g. S501',
			description: "The client's store number of the asset's location",
		},
		key: 'storeId',
		in: 'query',
		check: textUpTo(100),
	},
	{
		property: {
			displayName: 'Tag',
			name: 'tagId',
			type: 'string',
			default: '',
			placeholder: 'e.g. WIF-501-1',
			description: "The asset's tag: the service answers the asset only if it carries this tag",
		},
		key: 'tagId',
		in: 'query',
		check: textUpTo(100),
	},
	{
		property: {
			displayName: 'Work Order ID (Tracking Number)',
			name: 'trackingNumber',
			type: 'string',
			default: '',
			placeholder: 'e.g. 90000001',
			description: "A work order at the asset's location (the reference calls it trackingNumber)",
		},
		key: 'trackingNumber',
		in: 'query',
		check: optionalPositiveInteger,
	},
];

export const description = updateDisplayOptions(
	{ show: { resource: ['asset'], operation: ['get'] } },
	[assetLocationField, assetIdField, collectionOf('options', narrowing)],
);

/**
 * GET /assets/{assetId}: AssetResponse. The reference needs the asset's ID in the path; location,
 * store number, tag and tracking number only narrow it (the service answers 404 when they do not
 * match).
 */
export async function execute(
	this: IExecuteFunctions,
	i: number,
	client: WorkOrderServiceClient,
): Promise<IDataObject[]> {
	const locationId = readPlaceId(this, i, assetLocationField, {
		required: false,
		label: 'Location ID',
	});
	const assetId = readPlaceId(this, i, assetIdField, { required: true, label: 'Asset ID' });
	const { qs } = readFields(this, i, narrowing, 'options');
	if (typeof qs.storeId === 'string') qs.storeId = qs.storeId.trim();
	if (typeof qs.tagId === 'string') qs.tagId = qs.tagId.trim();
	if (locationId !== undefined) qs.locationId = locationId;
	const record =
		asRecord(
			await client.request({
				method: 'GET',
				path: `/assets/${assetId}`,
				qs: Object.keys(qs).length ? qs : undefined,
				itemIndex: i,
			}),
		) ?? {};
	return [record];
}
