import type {
	IDataObject,
	ILoadOptionsFunctions,
	INodeListSearchItems,
	INodeListSearchResult,
	INodePropertyOptions,
} from 'n8n-workflow';

import {
	assetListName,
	locationListName,
	locationSearchFilter,
	locatorValue,
} from '../helpers/places';
import { textOf } from '../helpers/workOrderSearch';
import { isRecord } from '../helpers/values';
import { ODATA_LIST, WHOLE_LIST, readList } from '../transport/paging';
import { WorkOrderServiceClient } from '../transport/client';
import { odataSearchMethod } from './picker';

/**
 * The pickers of the places around a work order (service-reference-c.md): the Location list
 * (GET /odata/locations, searched by name and store number), the Trade dropdown (the trades at the
 * chosen location, GET /odata/locations({id})/trades, or all the subscriber's, GET /odata/trades),
 * the Provider dropdown (GET /providers/getbytrade for the chosen trade) and the Asset list and
 * dropdown (GET /assets/locations/{id} at the chosen location, of the chosen trade; for Attach To
 * Work Order: at the work order's location, of its trade). A choice given as an expression is not
 * read: nothing is requested for it.
 */

/** A parameter's value as the editor holds it: `{ mode, value }` of a picker, or plain. */
function current(ctx: ILoadOptionsFunctions, path: string): unknown {
	try {
		return ctx.getCurrentNodeParameter(path);
	} catch {
		return undefined;
	}
}

/** A whole-number ID the editor holds (not an expression, not empty). */
function idIn(raw: unknown): number | undefined {
	const { value } = locatorValue(raw);
	const text = textOf(value);
	if (text === undefined || !/^\d{1,10}$/.test(text)) return undefined;
	const n = Number(text);
	return n >= 1 && n <= 2147483647 ? n : undefined;
}

/** The location chosen on the node: Location (create), Location (the places' operations), Options > Location (Work Order Get Many). */
function chosenLocation(ctx: ILoadOptionsFunctions): number | undefined {
	for (const path of ['location', 'locationId']) {
		const id = idIn(current(ctx, path));
		if (id !== undefined) return id;
	}
	const options = current(ctx, 'options');
	return isRecord(options) ? idIn(options.locationId) : undefined;
}

/** The trade chosen on the node (create: Trade; the places' operations: Trade), not an expression. */
function chosenTrade(ctx: ILoadOptionsFunctions): string | undefined {
	for (const path of ['tradeName', 'trade']) {
		const text = textOf(current(ctx, path));
		if (text !== undefined && !text.startsWith('=')) return text;
	}
	return undefined;
}

/**
 * "From List" of every Location parameter: GET /odata/locations, 50 at a time, by name, filtered
 * by what the user types (any part of the name or store number; digits also the ID). The value is
 * the location's ID; the pagination token the number of records read.
 */
export const searchLocations = odataSearchMethod({
	path: '/odata/locations',
	qs: { $orderby: 'Name', $select: 'Id,StoreId,Name,City,State' },
	search: locationSearchFilter,
	result: (record) => {
		const id = textOf(record.Id);
		return id === undefined ? undefined : { name: locationListName(record), value: id };
	},
});

/** The trades to offer: at the chosen location, else all the subscriber's; by name, each once. */
export async function getTrades(this: ILoadOptionsFunctions): Promise<INodePropertyOptions[]> {
	const locationId = chosenLocation(this);
	const path =
		locationId === undefined ? '/odata/trades' : `/odata/locations(${locationId})/trades`;
	const records = await readList(this, WorkOrderServiceClient.forNode(this), ODATA_LIST, {
		path,
		qs: { $orderby: 'Name' },
	});
	const seen = new Set<string>();
	const options: INodePropertyOptions[] = [];
	for (const r of records) {
		const name = textOf(r.Name);
		if (name === undefined || seen.has(name.toLowerCase())) continue;
		seen.add(name.toLowerCase());
		const id = textOf(r.Id);
		options.push(id ? { name, value: name, description: `Trade ID ${id}` } : { name, value: name });
	}
	return options;
}

/** The providers of the chosen trade (none chosen, or an expression: none to offer); the value is the provider's ID. */
export async function getProviders(this: ILoadOptionsFunctions): Promise<INodePropertyOptions[]> {
	const trade = chosenTrade(this);
	if (trade === undefined) return [];
	const records = await readList(this, WorkOrderServiceClient.forNode(this), WHOLE_LIST, {
		path: '/providers/getbytrade',
		qs: { trade },
	});
	const options: INodePropertyOptions[] = [];
	for (const r of records) {
		const id = textOf(r.Id);
		if (id === undefined) continue;
		const name = textOf(r.Name) ?? `Provider ${id}`;
		options.push({
			name: r.DoNotDispatch === true ? `${name} (Do Not Dispatch)` : name,
			value: id,
			description:
				r.DoNotDispatch === true
					? `Provider ID ${id}. Marked Do Not Dispatch: the service refuses to send it work.`
					: `Provider ID ${id}`,
		});
	}
	return options;
}

/** The work order chosen on the node (Attach To Work Order), not an expression. */
function chosenWorkOrder(ctx: ILoadOptionsFunctions): number | undefined {
	return idIn(current(ctx, 'workOrderId'));
}

/** The assets to offer: at the work order's location of its trade (Attach), else at the chosen location (of the chosen trade). */
async function assetsToOffer(ctx: ILoadOptionsFunctions): Promise<IDataObject[]> {
	const client = WorkOrderServiceClient.forNode(ctx);
	let locationId = chosenLocation(ctx);
	let trade = chosenTrade(ctx);
	const workOrderId = chosenWorkOrder(ctx);
	if (workOrderId !== undefined && current(ctx, 'operation') === 'attachToWorkOrder') {
		const wo = await client.request({ method: 'GET', path: `/workorders/${workOrderId}` });
		if (isRecord(wo)) {
			locationId =
				idIn(wo.LocationId) ?? (isRecord(wo.Location) ? idIn(wo.Location.Id) : undefined);
			trade = textOf(wo.Trade);
		}
	}
	if (locationId === undefined) return [];
	const body = await client.request({
		method: 'GET',
		path: `/assets/locations/${locationId}`,
		qs: trade === undefined ? undefined : { trade },
	});
	const assets = isRecord(body) ? body.Assets : body;
	return Array.isArray(assets) ? assets.filter(isRecord) : [];
}

/**
 * "From List" of the Asset parameter: the assets at the chosen location (Attach To Work Order: at
 * the work order's location, of its trade), filtered by what the user types (tag, type, maker,
 * model, serial number). The value is the asset's ID.
 */
export async function searchAssets(
	this: ILoadOptionsFunctions,
	filter?: string,
): Promise<INodeListSearchResult> {
	const text = (filter ?? '').trim().toLowerCase();
	const results: INodeListSearchItems[] = [];
	for (const a of await assetsToOffer(this)) {
		const id = textOf(a.Id);
		if (id === undefined) continue;
		const name = assetListName(a);
		const hay = [name, a.SerialNo, a.AssetTag, id].map((v) => String(v ?? '').toLowerCase());
		if (text === '' || hay.some((h) => h.includes(text))) results.push({ name, value: id });
	}
	return { results };
}

/** The Asset dropdown of Work Order Create (Additional Fields): the assets at the chosen location, of the chosen trade. */
export async function getAssets(this: ILoadOptionsFunctions): Promise<INodePropertyOptions[]> {
	return (await assetsToOffer(this))
		.map((a) => ({ a, id: textOf(a.Id) }))
		.filter((x): x is { a: IDataObject; id: string } => x.id !== undefined)
		.map(({ a, id }) => ({ name: assetListName(a), value: id, description: `Asset ID ${id}` }));
}
