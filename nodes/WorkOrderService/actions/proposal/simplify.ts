import type { OutputShape } from '../../helpers/simplify';

/**
 * A proposal's output (helpers/simplify.ts): the reference's `Proposal` has about 40 properties,
 * the whole work order among them; the compact one keeps, most used first, its ID and number,
 * status, amount and currency, the scope, the work order, where, who and when it last changed,
 * under the reference's own names and nesting, so that `$json.Amount`, `$json.Status.Primary` or
 * `$json.WorkOrder.Id` read the same with Simplify on or off.
 */
export const PROPOSAL_OUTPUT: OutputShape = {
	compact: {
		Id: undefined,
		Number: undefined,
		Status: ['Primary', 'Extended', 'ModifiedDate_dto', 'ModifiedBy'],
		Amount: undefined,
		Currency: ['AlphabeticalCode'],
		Description: undefined,
		WorkOrder: ['Id', 'Number', 'PurchaseNumber'],
		Location: ['Id', 'StoreId', 'Name'],
		Provider: ['Id', 'Name'],
		UpdatedDateDto: undefined,
	},
	fields: [
		'Amount',
		'AssignedTo',
		'Attachments',
		'Comments',
		'CreatedBy',
		'CreatedDate_dto',
		'Currency',
		'Description',
		'Id',
		'Location',
		'Number',
		'PoNumber',
		'Provider',
		'Status',
		'Subscriber',
		'Trade',
		'UpdatedDateDto',
		'WorkOrder',
	],
	id: 'Id',
};
