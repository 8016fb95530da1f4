import type {
	IDataObject,
	ILoadOptionsFunctions,
	INodeListSearchItems,
	INodeListSearchResult,
} from 'n8n-workflow';

import {
	PROPOSAL_LIST_SELECT,
	proposalListName,
	proposalSearchFilter,
} from '../helpers/proposalSearch';
import {
	ODATA_LIST,
	PAGE_SIZE,
	isLastPage,
	readPage,
	toRecords,
	type ListShape,
} from '../transport/paging';
import { WorkOrderServiceClient } from '../transport/client';

/** The OData proposal list, read leniently: an answer without a `value` list gives no error here. */
const PICKER_LIST: ListShape = { ...ODATA_LIST, records: toRecords };

/**
 * "From List" of the Proposal parameter: GET /odata/proposals, 50 at a time, most recently changed
 * first, filtered by what the user types (helpers/proposalSearch.ts). The value of each result is
 * the proposal's ID; the pagination token is the number of records read.
 */
export async function searchProposals(
	this: ILoadOptionsFunctions,
	filter?: string,
	paginationToken?: string,
): Promise<INodeListSearchResult> {
	const skip =
		typeof paginationToken === 'string' && /^\d+$/.test(paginationToken)
			? Number(paginationToken)
			: 0;
	const qs: IDataObject = { $orderby: 'UpdatedDateDto desc', $select: PROPOSAL_LIST_SELECT };
	const search = proposalSearchFilter(filter ?? '');
	if (search !== undefined) qs.$filter = search;

	const client = WorkOrderServiceClient.forNode(this);
	const position = { page: Math.floor(skip / PAGE_SIZE), offset: skip, size: PAGE_SIZE };
	const page = await readPage(
		this,
		client,
		PICKER_LIST,
		{ path: '/odata/proposals', qs },
		position,
	);
	const results: INodeListSearchItems[] = [];
	for (const record of page.records) {
		if (record.Id === undefined || record.Id === null || record.Id === '') continue;
		results.push({ name: proposalListName(record), value: String(record.Id) });
	}
	const last = isLastPage(PICKER_LIST, page, position);
	return { results, paginationToken: last ? undefined : String(skip + page.records.length) };
}
