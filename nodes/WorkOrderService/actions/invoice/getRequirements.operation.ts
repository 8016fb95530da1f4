import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';
import { NodeOperationError, updateDisplayOptions } from 'n8n-workflow';

import { idField } from '../../helpers/fields';
import { optionalPositiveInteger } from '../../helpers/validation';
import { asRecord, isRecord } from '../../helpers/values';
import { toRecords } from '../../transport/paging';
import type { WorkOrderServiceClient } from '../../transport/client';
import type { OperationMeta } from '../operation';

export const meta: OperationMeta = { safeToRepeat: true };

const subscriberField = idField({
	displayName: 'Subscriber ID',
	name: 'subscriberId',
	example: '1001',
	description:
		'The subscriber whose invoice requirements to read. Empty: the subscriber of the invoices this credential sees.',
});

export const description = updateDisplayOptions(
	{ show: { resource: ['invoice'], operation: ['getRequirements'] } },
	[subscriberField],
);

/**
 * GET /invoices/{subscriberId}/InvoiceRequirements (part C's InvoiceSettingsGeneral): what the
 * subscriber requires on an invoice (approval text, invoice number rules, the days around posting).
 * Without a Subscriber ID, the subscriber is read from the first invoice the credential sees.
 */
export async function execute(
	this: IExecuteFunctions,
	i: number,
	client: WorkOrderServiceClient,
): Promise<IDataObject[]> {
	let subscriberId = optionalPositiveInteger(
		this.getNode(),
		i,
		{ name: 'subscriberId', label: 'Subscriber ID' },
		this.getNodeParameter('subscriberId', i, ''),
	);
	if (subscriberId === undefined) {
		const first = toRecords(
			await client.request({
				method: 'GET',
				path: '/odata/invoices',
				qs: { $top: 1, $select: 'Id,Subscriber' },
				itemIndex: i,
			}),
		)[0];
		const id = first && isRecord(first.Subscriber) ? Number(first.Subscriber.Id) : NaN;
		if (!Number.isInteger(id) || id < 1)
			throw new NodeOperationError(
				this.getNode(),
				'No subscriber to read the invoice requirements of',
				{
					itemIndex: i,
					description:
						'The credential sees no invoice (of the last 90 days) to take the subscriber from: set Subscriber ID.',
				},
			);
		subscriberId = id;
	}
	const body = await client.request({
		method: 'GET',
		path: `/invoices/${subscriberId}/InvoiceRequirements`,
		itemIndex: i,
	});
	return [{ subscriberId, ...(asRecord(body) ?? {}) }];
}
