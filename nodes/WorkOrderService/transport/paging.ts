import type { IDataObject } from 'n8n-workflow';
import { NodeApiError } from 'n8n-workflow';

import type { ClientContext, WorkOrderServiceClient } from './client';

/**
 * Every list read of the package: how a page is asked for and read (`ListShape`). Deployed
 * instances return at most 50 records a page whatever is asked, and work-order lists carry no
 * @odata.nextLink: page with $skip and stop on @odata.count, an empty page or a short page.
 */

export const PAGE_SIZE = 50;
/** A guard against a server that ignores $skip: 1,000,000 records at 50 a page. */
const MAX_PAGES = 20_000;

const field = (body: unknown, key: string) =>
	body !== null && typeof body === 'object' && Object.prototype.hasOwnProperty.call(body, key)
		? (body as IDataObject)[key]
		: undefined;
const list = (value: unknown) => (Array.isArray(value) ? (value as IDataObject[]) : undefined);
const finite = (value: unknown) => (Number.isFinite(Number(value)) ? Number(value) : undefined);

/** A plain list (array, or an object wrapping one array). */
export function toRecords(body: unknown): IDataObject[] {
	if (Array.isArray(body)) return body as IDataObject[];
	if (!body || typeof body !== 'object')
		return body === undefined ? [] : [{ value: body as string }];
	const wrapped = ['value', 'Items', 'items', 'Data', 'data', 'Results', 'results']
		.map((key) => list(field(body, key)))
		.find(Boolean);
	return wrapped ?? [body as IDataObject];
}

export interface ListOptions {
	path: string;
	qs?: IDataObject;
	/** undefined = all records */
	limit?: number;
	itemIndex?: number;
}

/** Where a page starts: its number (from 0), the records read before it, how many it asks for. */
export type PagePosition = { page: number; offset: number; size: number };

/** How one kind of list is asked for and read. */
export interface ListShape {
	/** The key that holds the records (named in the error when an answer holds none). */
	listKey: string;
	/** The query asking for one page; none: one answer holds the whole list. */
	pageQuery?: (position: PagePosition) => IDataObject;
	/** Whether a page may ask for fewer than PAGE_SIZE records (the rest of a Limit). */
	sizeToLimit?: boolean;
	records: (body: unknown) => IDataObject[] | undefined;
	/** The list's length as this answer gives it; `known`: as earlier pages gave it. */
	total: (body: unknown, known: number | undefined) => number | undefined;
	/** What the error for an answer without the list tells the user to check (default: the API Base URL). */
	check?: string;
}

/** OData: `{ value: [...], "@odata.count"?: n }`, paged with $top/$skip; a count once given holds. */
export const ODATA_LIST: ListShape = {
	listKey: 'value',
	pageQuery: ({ offset, size }) => ({ $top: size, $skip: offset, $count: true }),
	sizeToLimit: true,
	records: (body) => list(field(body, 'value')) ?? list(body),
	total: (body, known) => finite(field(body, '@odata.count')) ?? known,
};

/** The OData list read strictly (the polling trigger): only `{ value: [...] }` is a page; anything else means the credential points elsewhere. */
export const ODATA_VALUE_LIST: ListShape = {
	...ODATA_LIST,
	records: (body) => list(field(body, 'value')),
	check: 'Check the API Base URL of the credential.',
};

/** A work order's notes: `{ Notes: [...], AllNotesCount: n }`, paged with `paging=page:size` (pages from 1). */
export const NOTES_LIST: ListShape = {
	listKey: 'Notes',
	pageQuery: ({ page, size }) => ({ paging: `${page + 1}:${size}` }),
	records: (body) => list(field(body, 'Notes')) ?? list(field(body, 'value')) ?? list(body),
	total: (body) => finite(field(body, 'AllNotesCount')),
};

/** An unpaged list: one answer, an array or an object wrapping one (see toRecords). */
export const WHOLE_LIST: ListShape = {
	listKey: 'value',
	records: toRecords,
	total: () => undefined,
};

export interface Page {
	records: IDataObject[];
	total: number | undefined;
	/** The answer's headers (the trigger reads the service's clock from `Date`). */
	headers?: Record<string, unknown>;
}

/** Sends one GET of a list (the list's query, and the shape's query for `position` if given) and reads the answer with the list's shape. */
export async function readPage(
	ctx: ClientContext,
	client: WorkOrderServiceClient,
	shape: ListShape,
	options: ListOptions,
	position?: PagePosition,
	known?: number,
): Promise<Page> {
	const qs =
		shape.pageQuery && position ? { ...options.qs, ...shape.pageQuery(position) } : options.qs;
	const answer = await client.send({
		method: 'GET',
		path: options.path,
		qs,
		itemIndex: options.itemIndex,
	});
	const records = shape.records(answer.body);
	if (!records) {
		const message = `The Work Order Service answered GET ${options.path} with no "${shape.listKey}" list`;
		const description = `The response did not have the expected list shape. ${shape.check ?? 'Check the API Base URL.'}`;
		throw new NodeApiError(
			ctx.getNode(),
			{ message },
			{ message, description, itemIndex: options.itemIndex },
		);
	}
	return { records, total: shape.total(answer.body, known), headers: answer.headers };
}

/** Without a position: one GET of a list with its query as given (the trigger). */
export const fetchPage = readPage;

/** Whether no page follows: an unpaged list, an empty page, the total reached, or a short page. */
export function isLastPage(shape: ListShape, page: Page, position: PagePosition): boolean {
	if (!shape.pageQuery || page.records.length === 0) return true;
	return page.total !== undefined
		? position.offset + page.records.length >= page.total
		: page.records.length < position.size;
}

/** Reads a list page by page, up to `limit` records (all without one). */
export async function readList(
	ctx: ClientContext,
	client: WorkOrderServiceClient,
	shape: ListShape,
	options: ListOptions,
): Promise<IDataObject[]> {
	const results: IDataObject[] = [];
	const limit = options.limit;
	let total: number | undefined;
	for (let page = 0, offset = 0; page < MAX_PAGES; page++) {
		const left = limit === undefined ? PAGE_SIZE : limit - results.length;
		if (left <= 0) break;
		const position = {
			page,
			offset,
			size: shape.sizeToLimit ? Math.min(PAGE_SIZE, left) : PAGE_SIZE,
		};
		const read = await readPage(ctx, client, shape, options, position, total);
		for (const record of read.records)
			if (limit === undefined || results.length < limit) results.push(record);
		offset += read.records.length;
		total = read.total;
		if (isLastPage(shape, read, position)) break;
	}
	return results;
}
