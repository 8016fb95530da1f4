import type { IDataObject, IExecuteFunctions, ILoadOptionsFunctions } from 'n8n-workflow';
import { NodeApiError } from 'n8n-workflow';

import { apiRequest } from './index';

/**
 * Paging for the service's lists. Deployed instances return at most 50 records a page whatever
 * is asked, and work-order lists carry no @odata.nextLink: page with $skip and stop on
 * @odata.count, on an empty page, or on a short page.
 */

export const PAGE_SIZE = 50;
/** A guard against a server that ignores $skip: 1,000,000 records at 50 a page. */
const MAX_PAGES = 20_000;

type Context = IExecuteFunctions | ILoadOptionsFunctions;

export interface ListOptions {
	path: string;
	qs?: IDataObject;
	/** undefined = all records */
	limit?: number;
	itemIndex: number;
}

function asRecords(value: unknown): IDataObject[] | undefined {
	return Array.isArray(value) ? (value as IDataObject[]) : undefined;
}

function unexpected(ctx: Context, itemIndex: number, path: string, what: string): NodeApiError {
	const message = `The Work Order Service answered GET ${path} with ${what}`;
	return new NodeApiError(ctx.getNode(), { message }, {
		message,
		description: 'The response did not have the expected list shape. Check the API Base URL.',
		itemIndex: itemIndex >= 0 ? itemIndex : undefined,
	});
}

/** OData list: `{ value: [...], "@odata.count"?: n }`, paged with $top/$skip. */
export async function getODataList(this: Context, options: ListOptions): Promise<IDataObject[]> {
	const results: IDataObject[] = [];
	const limit = options.limit;
	let skip = 0;
	let total: number | undefined;
	for (let page = 0; page < MAX_PAGES; page++) {
		const want = limit === undefined ? PAGE_SIZE : Math.min(PAGE_SIZE, limit - results.length);
		if (want <= 0) break;
		const response = await apiRequest.call(this, {
			method: 'GET',
			path: options.path,
			qs: { ...options.qs, $top: want, $skip: skip, $count: true },
			itemIndex: options.itemIndex,
		});
		const body = response.body as IDataObject | undefined;
		const records = asRecords(body?.value) ?? asRecords(body);
		if (!records) throw unexpected(this, options.itemIndex, options.path, 'no "value" list');
		const count = Number(body?.['@odata.count']);
		if (Number.isFinite(count)) total = count;
		results.push(...records);
		skip += records.length;
		if (records.length === 0) break;
		if (total !== undefined ? skip >= total : records.length < want) break;
	}
	return limit === undefined ? results : results.slice(0, limit);
}

/** The notes list: `{ Notes: [...], AllNotesCount: n }`, paged with `paging=page:size` (pages from 1). */
export async function getNotesList(this: Context, options: ListOptions): Promise<IDataObject[]> {
	const results: IDataObject[] = [];
	const limit = options.limit;
	for (let page = 1; page <= MAX_PAGES; page++) {
		const response = await apiRequest.call(this, {
			method: 'GET',
			path: options.path,
			qs: { ...options.qs, paging: `${page}:${PAGE_SIZE}` },
			itemIndex: options.itemIndex,
		});
		const body = response.body as IDataObject | undefined;
		const records = asRecords(body?.Notes) ?? asRecords(body?.value) ?? asRecords(body);
		if (!records) throw unexpected(this, options.itemIndex, options.path, 'no "Notes" list');
		results.push(...records);
		if (limit !== undefined && results.length >= limit) break;
		const total = Number(body?.AllNotesCount);
		if (records.length === 0) break;
		if (Number.isFinite(total) ? results.length >= total : records.length < PAGE_SIZE) break;
	}
	return limit === undefined ? results : results.slice(0, limit);
}

/** A plain list (array, or an object wrapping one array). */
export function toRecords(body: unknown): IDataObject[] {
	if (Array.isArray(body)) return body as IDataObject[];
	if (body && typeof body === 'object') {
		const obj = body as IDataObject;
		for (const key of ['value', 'Items', 'items', 'Data', 'data', 'Results', 'results']) {
			if (Array.isArray(obj[key])) return obj[key] as IDataObject[];
		}
		return [obj];
	}
	return body === undefined ? [] : [{ value: body as string }];
}

/** A single OData entity without its `@odata.*` annotations. */
export function withoutODataAnnotations(body: unknown): IDataObject {
	if (!body || typeof body !== 'object' || Array.isArray(body)) return { value: body as string };
	const record: IDataObject = {};
	for (const [key, value] of Object.entries(body as IDataObject)) {
		if (!key.startsWith('@odata.')) record[key] = value;
	}
	return record;
}
