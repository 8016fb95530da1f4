import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { locationLocator, readPlaceId, simplifyLocations } from '../../helpers/places';
import { simplifyProperty } from '../../helpers/simplify';
import { asRecord } from '../../helpers/values';
import type { WorkOrderServiceClient } from '../../transport/client';
import type { OperationMeta } from '../operation';

export const meta: OperationMeta = { safeToRepeat: true };

export const locationIdField = locationLocator({
	name: 'locationId',
	description: 'The location, chosen from the list or given by its ID',
	required: true,
});

/** The Location ID of item i (Get, Get Notes, Add Note). */
export const readLocationId = (ctx: IExecuteFunctions, i: number): number | undefined =>
	readPlaceId(ctx, i, locationIdField, { required: true, label: 'Location ID' });

export const description = updateDisplayOptions(
	{ show: { resource: ['location'], operation: ['get'] } },
	[locationIdField, simplifyProperty],
);

/** GET /locations/{locationId}: LocationWithTimezoneName. */
export async function execute(
	this: IExecuteFunctions,
	i: number,
	client: WorkOrderServiceClient,
): Promise<IDataObject[]> {
	const locationId = readLocationId(this, i);
	const record =
		asRecord(
			await client.request({ method: 'GET', path: `/locations/${locationId}`, itemIndex: i }),
		) ?? {};
	return simplifyLocations(this, i, [record]);
}
