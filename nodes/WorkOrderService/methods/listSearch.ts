import type { IDataObject, ILoadOptionsFunctions, INodeListSearchItems, INodeListSearchResult } from 'n8n-workflow';

import { WORK_ORDER_LIST_SELECT, textOf, workOrderListName, workOrderSearchFilter } from '../helpers/workOrderSearch';
import { PAGE_SIZE, WorkOrderServiceClient, toRecords } from '../transport';

/**
 * "From List" of the Work Order parameter: GET /odata/workorders, 50 at a time, most recently
 * changed first, filtered by what the user types (see helpers/workOrderSearch.ts). The value of
 * each result is the work order's ID.
 */
export async function searchWorkOrders(
	this: ILoadOptionsFunctions,
	filter?: string,
	paginationToken?: string,
): Promise<INodeListSearchResult> {
	const skip = typeof paginationToken === 'string' && /^\d+$/.test(paginationToken) ? Number(paginationToken) : 0;
	const qs: IDataObject = {
		$top: PAGE_SIZE,
		$skip: skip,
		$orderby: 'UpdatedDate desc',
		$select: WORK_ORDER_LIST_SELECT,
		$count: true,
	};
	const search = workOrderSearchFilter(filter ?? '');
	if (search !== undefined) qs.$filter = search;

	const client = WorkOrderServiceClient.forNode(this);
	const body = await client.request({ method: 'GET', path: '/odata/workorders', qs });
	const records = toRecords(body);
	const results: INodeListSearchItems[] = [];
	for (const record of records) {
		const id = textOf(record.Id);
		if (id === undefined) continue;
		results.push({ name: workOrderListName(record), value: id });
	}
	const next = skip + records.length;
	const total =
		body !== null && typeof body === 'object' ? Number((body as IDataObject)['@odata.count']) : Number.NaN;
	const more = records.length > 0 && (Number.isFinite(total) ? next < total : records.length >= PAGE_SIZE);
	return { results, paginationToken: more ? String(next) : undefined };
}
