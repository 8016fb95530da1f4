import type {
	IDataObject,
	ILoadOptionsFunctions,
	INodeListSearchItems,
	INodeListSearchResult,
} from 'n8n-workflow';

import {
	ODATA_LIST,
	PAGE_SIZE,
	isLastPage,
	readPage,
	toRecords,
	type ListShape,
} from '../transport/paging';
import { WorkOrderServiceClient } from '../transport/client';

/** An OData list read leniently: an answer without a `value` list gives no error here. */
const PICKER_LIST: ListShape = { ...ODATA_LIST, records: toRecords };

/** What one "From List" picker reads and shows. */
export interface ODataPicker {
	path: string;
	/** $orderby and $select of the list. */
	qs: IDataObject;
	/** The $filter for what the user typed, if anything. */
	search: (typed: string) => string | undefined;
	/** A record's result, or undefined to leave it out (no ID). */
	result: (record: IDataObject) => INodeListSearchItems | undefined;
}

/**
 * A "From List" search over an OData list: 50 at a time, filtered by what the user types; the
 * pagination token is the number of records read.
 */
export async function searchODataList(
	ctx: ILoadOptionsFunctions,
	picker: ODataPicker,
	filter?: string,
	paginationToken?: string,
): Promise<INodeListSearchResult> {
	const skip =
		typeof paginationToken === 'string' && /^\d+$/.test(paginationToken)
			? Number(paginationToken)
			: 0;
	const qs: IDataObject = { ...picker.qs };
	const search = picker.search(filter ?? '');
	if (search !== undefined) qs.$filter = search;

	const client = WorkOrderServiceClient.forNode(ctx);
	const position = { page: Math.floor(skip / PAGE_SIZE), offset: skip, size: PAGE_SIZE };
	const page = await readPage(ctx, client, PICKER_LIST, { path: picker.path, qs }, position);
	const results: INodeListSearchItems[] = [];
	for (const record of page.records) {
		const result = picker.result(record);
		if (result !== undefined) results.push(result);
	}
	const last = isLastPage(PICKER_LIST, page, position);
	return { results, paginationToken: last ? undefined : String(skip + page.records.length) };
}

/** The listSearch method of one picker (n8n calls it with the load-options context as `this`). */
export function odataSearchMethod(picker: ODataPicker) {
	return async function (
		this: ILoadOptionsFunctions,
		filter?: string,
		paginationToken?: string,
	): Promise<INodeListSearchResult> {
		return await searchODataList(this, picker, filter, paginationToken);
	};
}
