import type { OutputShape } from '../../helpers/simplify';

/**
 * A work order's output (helpers/simplify.ts): the compact record keeps, most used first, what a
 * workflow routes on and shows (service-reference.md section 7): its ID and number, status,
 * priority, trade, category, the problem, where (location ID, store number and name), who
 * (provider ID and name), and when it last changed as an instant (the `_DTO` twin, with its
 * offset). An agent may select any of the reference's main fields.
 */
export const WORK_ORDER_OUTPUT: OutputShape = {
	compact: {
		Id: undefined,
		Number: undefined,
		Status: ['Primary', 'Extended'],
		Priority: undefined,
		Trade: undefined,
		Category: undefined,
		Description: undefined,
		Location: ['Id', 'StoreId', 'Name'],
		Provider: ['Id', 'Name'],
		UpdatedDate_DTO: undefined,
	},
	fields: [
		'Assignee',
		'CallDate_DTO',
		'Caller',
		'Category',
		'CompletedDate_DTO',
		'CreatedDate_DTO',
		'Currency',
		'Description',
		'ExpirationDate_DTO',
		'Id',
		'Invoice',
		'IsInvoiced',
		'Labels',
		'Location',
		'LocationId',
		'Nte',
		'Number',
		'Price',
		'Priority',
		'ProblemCode',
		'Provider',
		'PurchaseNumber',
		'Resolution',
		'ScheduledDate_DTO',
		'Status',
		'Subscriber',
		'Trade',
		'UpdatedDate_DTO',
	],
	id: 'Id',
};
