import type { INodeProperties } from 'n8n-workflow';

import * as approve from './approve.operation';
import * as create from './create.operation';
import * as get from './get.operation';
import * as getAll from './getAll.operation';
import * as getRateDiscrepancy from './getRateDiscrepancy.operation';
import * as getRequirements from './getRequirements.operation';
import * as putOnHold from './putOnHold.operation';
import * as recordPayment from './recordPayment.operation';
import * as reject from './reject.operation';

export {
	approve,
	create,
	get,
	getAll,
	getRateDiscrepancy,
	getRequirements,
	putOnHold,
	recordPayment,
	reject,
};

export const description: INodeProperties[] = [
	{
		displayName: 'Operation',
		name: 'operation',
		type: 'options',
		noDataExpression: true,
		displayOptions: { show: { resource: ['invoice'] } },
		options: [
			{
				name: 'Approve',
				value: 'approve',
				description:
					'Approve an invoice (refused when it is under multi-level approval, already approved, or not Open or On Hold)',
				action: 'Approve an invoice',
			},
			{
				name: 'Create',
				value: 'create',
				description:
					'Post an invoice for a work order as its provider (Contractor (JWT) credential; refused for a work order of another provider or an invoice number already used)',
				action: 'Create an invoice',
			},
			{
				name: 'Get',
				value: 'get',
				description: 'Get one invoice by ID, with its payments and status history',
				action: 'Get an invoice',
			},
			{
				name: 'Get Many',
				value: 'getAll',
				description:
					'List invoices by status, location, provider, work order, trade, date or total (the service lists the last 90 days unless a Posted filter is given, 365 days at most)',
				action: 'Get many invoices',
			},
			{
				name: 'Get Rate Discrepancy',
				value: 'getRateDiscrepancy',
				description: "List an invoice's labor lines whose rates differ from the agreed rates",
				action: 'Get rate discrepancies of an invoice',
			},
			{
				name: 'Get Requirements',
				value: 'getRequirements',
				description:
					"Get what a subscriber requires on an invoice (approval text, invoice number rules); refused for another subscriber than the credential's",
				action: 'Get invoice requirements',
			},
			{
				name: 'Put On Hold',
				value: 'putOnHold',
				description:
					'Put an invoice on hold (refused when it is under multi-level approval or not Open)',
				action: 'Put an invoice on hold',
			},
			{
				name: 'Record Payment',
				value: 'recordPayment',
				description:
					'Record a payment of an approved invoice, one or many at once (refused for an invoice that is not Approved or an amount above its balance; a payment already recorded is not sent again)',
				action: 'Record an invoice payment',
			},
			{
				name: 'Reject',
				value: 'reject',
				description:
					"Reject an invoice with one of the subscriber's rejection reasons (refused when it is under multi-level approval or not Open or On Hold)",
				action: 'Reject an invoice',
			},
		],
		default: 'get',
	},
	...approve.description,
	...create.description,
	...get.description,
	...getAll.description,
	...getRateDiscrepancy.description,
	...getRequirements.description,
	...putOnHold.description,
	...recordPayment.description,
	...reject.description,
];
