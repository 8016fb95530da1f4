import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';
import { NodeApiError, updateDisplayOptions } from 'n8n-workflow';

import { simplifyProperty } from '../../helpers/simplify';
import { readLocatorId } from '../../helpers/validation';
import { asRecord } from '../../helpers/values';
import type { WorkOrderServiceClient } from '../../transport/client';
import type { OperationMeta } from '../operation';

import { INVOICE_ID, invoiceIdProperty } from './fields';
import { simplifyInvoice } from './simplify';

export const meta: OperationMeta = { safeToRepeat: true };

export const description = updateDisplayOptions(
	{ show: { resource: ['invoice'], operation: ['get'] } },
	[invoiceIdProperty, simplifyProperty],
);

/** Reads one invoice (GET /invoices/{invoiceId}, part C's ApiGetInvoiceResponse); a 404 names the invoice. */
export async function readInvoice(
	ctx: IExecuteFunctions,
	client: WorkOrderServiceClient,
	invoiceId: number,
	i: number,
): Promise<IDataObject> {
	try {
		return (
			asRecord(
				await client.request({ method: 'GET', path: `/invoices/${invoiceId}`, itemIndex: i }),
			) ?? {}
		);
	} catch (error) {
		throw notFound(error, invoiceId);
	}
}

/** A 404 (or 400) of the read, naming the invoice; other errors pass unchanged. */
function notFound(error: unknown, invoiceId: number): unknown {
	if (error instanceof NodeApiError && (error.httpCode === '404' || error.httpCode === '400')) {
		error.message = `Invoice ${invoiceId} was not found: ${error.message}`;
		error.description =
			'The service has no invoice with this ID for this user: it may not exist or belong to another subscriber or provider. Check the Invoice ID.';
	}
	return error;
}

/** GET /invoices/{invoiceId}: the invoice (compact with Simplify). */
export async function execute(
	this: IExecuteFunctions,
	i: number,
	client: WorkOrderServiceClient,
): Promise<IDataObject[]> {
	const invoiceId = readLocatorId(this, i, INVOICE_ID);
	const simplify = this.getNodeParameter('simplify', i, true) as boolean;
	const record = await readInvoice(this, client, invoiceId, i);
	return [simplify ? simplifyInvoice(record) : record];
}
