import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';
import { NodeApiError, updateDisplayOptions } from 'n8n-workflow';

import { returnAllOrLimitFields } from '../../helpers/fields';
import { readLimit } from '../../helpers/limit';
import { locationLocator, readPlaceId, tradeDropdown } from '../../helpers/places';
import { readParameter, textUpTo } from '../../helpers/validation';
import { isRecord } from '../../helpers/values';
import type { WorkOrderServiceClient } from '../../transport/client';
import type { OperationMeta } from '../operation';

export const meta: OperationMeta = { safeToRepeat: true };

const locationField = locationLocator({
	name: 'locationId',
	description: 'The location whose assets to list',
	required: true,
});

const tradeField = tradeDropdown({
	name: 'trade',
	description: 'Only the assets of this trade (empty: every trade)',
	dependsOn: ['locationId.value'],
});

export const description = updateDisplayOptions(
	{ show: { resource: ['asset'], operation: ['getAll'] } },
	[locationField, tradeField, ...returnAllOrLimitFields],
);

/** GET /assets/locations/{locationId}[?trade=]: AssetsInfoResponse, one item per asset of its `Assets`. */
export async function execute(
	this: IExecuteFunctions,
	i: number,
	client: WorkOrderServiceClient,
): Promise<IDataObject[]> {
	const locationId = readPlaceId(this, i, locationField, { required: true, label: 'Location ID' });
	const trade = readParameter(this, i, tradeField, textUpTo(100), undefined);
	const limit = readLimit(this, i);
	const body = await client.request({
		method: 'GET',
		path: `/assets/locations/${locationId}`,
		qs: trade === undefined ? undefined : { trade: trade.trim() },
		itemIndex: i,
	});
	const assets = isRecord(body) ? body.Assets : Array.isArray(body) ? body : undefined;
	if (assets !== null && assets !== undefined && !Array.isArray(assets)) {
		const message = `The Work Order Service answered GET /assets/locations/${locationId} with no "Assets" list`;
		throw new NodeApiError(
			this.getNode(),
			{ message },
			{ message, description: 'Check the API Base URL.', itemIndex: i },
		);
	}
	const records = ((assets ?? []) as unknown[]).filter(isRecord);
	return limit === undefined ? records : records.slice(0, limit);
}
