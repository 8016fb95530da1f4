import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { returnAllOrLimitFields } from '../../helpers/fields';
import { readLimit } from '../../helpers/limit';
import { locationLocator, readPlaceId } from '../../helpers/places';
import { ODATA_LIST, readList } from '../../transport/paging';
import type { WorkOrderServiceClient } from '../../transport/client';
import type { OperationMeta } from '../operation';

export const meta: OperationMeta = { safeToRepeat: true };

const locationField = locationLocator({
	name: 'locationId',
	description: "Only the trades at this location. Leave empty for all the subscriber's trades.",
});

export const description = updateDisplayOptions(
	{ show: { resource: ['trade'], operation: ['getAll'] } },
	[locationField, ...returnAllOrLimitFields],
);

/** GET /odata/trades, or /odata/locations({id})/trades, page by page: one item per `Trade` (Id, Name, SubscriberId). */
export async function execute(
	this: IExecuteFunctions,
	i: number,
	client: WorkOrderServiceClient,
): Promise<IDataObject[]> {
	const locationId = readPlaceId(this, i, locationField, { required: false, label: 'Location ID' });
	const limit = readLimit(this, i);
	const path =
		locationId === undefined ? '/odata/trades' : `/odata/locations(${locationId})/trades`;
	return await readList(this, client, ODATA_LIST, { path, limit, itemIndex: i });
}
