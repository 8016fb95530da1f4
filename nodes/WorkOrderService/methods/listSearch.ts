import {
	WORK_ORDER_LIST_SELECT,
	textOf,
	workOrderListName,
	workOrderSearchFilter,
} from '../helpers/workOrderSearch';
import { odataSearchMethod } from './picker';

/**
 * "From List" of the Work Order parameter: GET /odata/workorders, 50 at a time, most recently
 * changed first, filtered by what the user types (see helpers/workOrderSearch.ts). The value of
 * each result is the work order's ID; the pagination token is the number of records read.
 */
export const searchWorkOrders = odataSearchMethod({
	path: '/odata/workorders',
	qs: { $orderby: 'UpdatedDate desc', $select: WORK_ORDER_LIST_SELECT },
	search: workOrderSearchFilter,
	result: (record) => {
		const id = textOf(record.Id);
		return id === undefined ? undefined : { name: workOrderListName(record), value: id };
	},
});
export { searchProposals } from './proposalSearch';
