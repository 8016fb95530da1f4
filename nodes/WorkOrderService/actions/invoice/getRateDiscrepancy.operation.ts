import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { readLocatorId } from '../../helpers/validation';
import { toRecords } from '../../transport/paging';
import type { WorkOrderServiceClient } from '../../transport/client';
import type { OperationMeta } from '../operation';

import { INVOICE_ID, invoiceIdProperty } from './fields';

export const meta: OperationMeta = { safeToRepeat: true };

export const description = updateDisplayOptions(
	{ show: { resource: ['invoice'], operation: ['getRateDiscrepancy'] } },
	[invoiceIdProperty],
);

/**
 * GET /invoices/{invoiceId}/discrepancy (part C's RateDiscrepancy[]): one item per labor line whose
 * rate differs from the agreed rate, each with the invoice's ID; none when the rates match.
 */
export async function execute(
	this: IExecuteFunctions,
	i: number,
	client: WorkOrderServiceClient,
): Promise<IDataObject[]> {
	const invoiceId = readLocatorId(this, i, INVOICE_ID);
	const body = await client.request({
		method: 'GET',
		path: `/invoices/${invoiceId}/discrepancy`,
		itemIndex: i,
	});
	return toRecords(body).map((line) => ({ invoiceId, ...line }));
}
