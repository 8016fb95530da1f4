import type {
	IDataObject,
	ILoadOptionsFunctions,
	INodeListSearchItems,
	INodeListSearchResult,
} from 'n8n-workflow';

import {
	WORK_ORDER_LIST_SELECT,
	textOf,
	workOrderListName,
	workOrderSearchFilter,
} from '../helpers/workOrderSearch';
import {
	ODATA_LIST,
	PAGE_SIZE,
	isLastPage,
	readPage,
	toRecords,
	type ListShape,
} from '../transport/paging';
import { WorkOrderServiceClient } from '../transport/client';

/** The OData work-order list, read leniently: an answer without a `value` list gives no error here. */
const PICKER_LIST: ListShape = { ...ODATA_LIST, records: toRecords };

/**
 * "From List" of the Work Order parameter: GET /odata/workorders, 50 at a time, most recently
 * changed first, filtered by what the user types (see helpers/workOrderSearch.ts). The value of
 * each result is the work order's ID; the pagination token is the number of records read.
 */
export async function searchWorkOrders(
	this: ILoadOptionsFunctions,
	filter?: string,
	paginationToken?: string,
): Promise<INodeListSearchResult> {
	const skip =
		typeof paginationToken === 'string' && /^\d+$/.test(paginationToken)
			? Number(paginationToken)
			: 0;
	const qs: IDataObject = { $orderby: 'UpdatedDate desc', $select: WORK_ORDER_LIST_SELECT };
	const search = workOrderSearchFilter(filter ?? '');
	if (search !== undefined) qs.$filter = search;

	const client = WorkOrderServiceClient.forNode(this);
	const position = { page: Math.floor(skip / PAGE_SIZE), offset: skip, size: PAGE_SIZE };
	const page = await readPage(
		this,
		client,
		PICKER_LIST,
		{ path: '/odata/workorders', qs },
		position,
	);
	const results: INodeListSearchItems[] = [];
	for (const record of page.records) {
		const id = textOf(record.Id);
		if (id === undefined) continue;
		results.push({ name: workOrderListName(record), value: id });
	}
	const last = isLastPage(PICKER_LIST, page, position);
	return { results, paginationToken: last ? undefined : String(skip + page.records.length) };
}
export { searchProposals } from './proposalSearch';
