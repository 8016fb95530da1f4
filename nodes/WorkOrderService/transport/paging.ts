import type { IDataObject } from 'n8n-workflow';
import { NodeApiError } from 'n8n-workflow';

import type { ClientContext, WorkOrderServiceClient } from './client';
import { ownRecord } from './client';

/**
 * Paging for the service's lists. Deployed instances return at most 50 records a page whatever
 * is asked, and work-order lists carry no @odata.nextLink: page with $skip and stop on
 * @odata.count, on an empty page, or on a short page. Pages are appended one record at a time
 * (never `push(...page)`): a hostile or huge page of any size that fits in memory works.
 */

export const PAGE_SIZE = 50;
/** A guard against a server that ignores $skip: 1,000,000 records at 50 a page. */
const MAX_PAGES = 20_000;

export interface ListOptions {
	path: string;
	qs?: IDataObject;
	/** undefined = all records */
	limit?: number;
	itemIndex?: number;
}

function asRecords(value: unknown): IDataObject[] | undefined {
	return Array.isArray(value) ? (value as IDataObject[]) : undefined;
}

function field(body: unknown, key: string): unknown {
	return body !== null && typeof body === 'object' && Object.prototype.hasOwnProperty.call(body, key)
		? (body as IDataObject)[key]
		: undefined;
}

function append(target: IDataObject[], records: IDataObject[], limit: number | undefined): void {
	for (const record of records) {
		if (limit !== undefined && target.length >= limit) return;
		target.push(record);
	}
}

function unexpected(ctx: ClientContext, itemIndex: number | undefined, path: string, what: string): NodeApiError {
	const message = `The Work Order Service answered GET ${path} with ${what}`;
	return new NodeApiError(ctx.getNode(), { message }, {
		message,
		description: 'The response did not have the expected list shape. Check the API Base URL.',
		itemIndex,
	});
}

/** OData list: `{ value: [...], "@odata.count"?: n }`, paged with $top/$skip. */
export async function getODataList(
	ctx: ClientContext,
	client: WorkOrderServiceClient,
	options: ListOptions,
): Promise<IDataObject[]> {
	const results: IDataObject[] = [];
	const limit = options.limit;
	let skip = 0;
	let total: number | undefined;
	for (let page = 0; page < MAX_PAGES; page++) {
		const want = limit === undefined ? PAGE_SIZE : Math.min(PAGE_SIZE, limit - results.length);
		if (want <= 0) break;
		const body = await client.request({
			method: 'GET',
			path: options.path,
			qs: { ...options.qs, $top: want, $skip: skip, $count: true },
			itemIndex: options.itemIndex,
		});
		const records = asRecords(field(body, 'value')) ?? asRecords(body);
		if (!records) throw unexpected(ctx, options.itemIndex, options.path, 'no "value" list');
		const count = Number(field(body, '@odata.count'));
		if (Number.isFinite(count)) total = count;
		append(results, records, limit);
		skip += records.length;
		if (records.length === 0) break;
		if (total !== undefined ? skip >= total : records.length < want) break;
	}
	return results;
}

/** The notes list: `{ Notes: [...], AllNotesCount: n }`, paged with `paging=page:size` (pages from 1). */
export async function getNotesList(
	ctx: ClientContext,
	client: WorkOrderServiceClient,
	options: ListOptions,
): Promise<IDataObject[]> {
	const results: IDataObject[] = [];
	const limit = options.limit;
	let seen = 0;
	for (let page = 1; page <= MAX_PAGES; page++) {
		const body = await client.request({
			method: 'GET',
			path: options.path,
			qs: { ...options.qs, paging: `${page}:${PAGE_SIZE}` },
			itemIndex: options.itemIndex,
		});
		const records = asRecords(field(body, 'Notes')) ?? asRecords(field(body, 'value')) ?? asRecords(body);
		if (!records) throw unexpected(ctx, options.itemIndex, options.path, 'no "Notes" list');
		append(results, records, limit);
		seen += records.length;
		if (limit !== undefined && results.length >= limit) break;
		const total = Number(field(body, 'AllNotesCount'));
		if (records.length === 0) break;
		if (Number.isFinite(total) ? seen >= total : records.length < PAGE_SIZE) break;
	}
	return results;
}

/** A plain list (array, or an object wrapping one array). */
export function toRecords(body: unknown): IDataObject[] {
	if (Array.isArray(body)) return body as IDataObject[];
	if (body && typeof body === 'object') {
		for (const key of ['value', 'Items', 'items', 'Data', 'data', 'Results', 'results']) {
			const list = field(body, key);
			if (Array.isArray(list)) return list as IDataObject[];
		}
		return [body as IDataObject];
	}
	return body === undefined ? [] : [{ value: body as string }];
}

/** A single OData entity without its `@odata.*` annotations (keys copied as own properties). */
export function withoutODataAnnotations(body: unknown): IDataObject {
	if (!body || typeof body !== 'object' || Array.isArray(body)) return { value: body as string };
	return ownRecord(Object.entries(body as IDataObject).filter(([key]) => !key.startsWith('@odata.')));
}
