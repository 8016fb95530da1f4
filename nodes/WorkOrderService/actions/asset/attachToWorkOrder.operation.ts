import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { workOrderIdField } from '../../helpers/fields';
import { readWorkOrderId } from '../../helpers/params';
import { assetLocator, readPlaceId } from '../../helpers/places';
import { writeAnswer } from '../../helpers/writeAnswer';
import type { WorkOrderServiceClient } from '../../transport/client';
import type { OperationMeta } from '../operation';

/** Attaching an asset that is already attached changes nothing: safe to repeat. */
export const meta: OperationMeta = { verb: 'attached', safeToRepeat: true };

const assetField = assetLocator(
	"The asset to attach: one at the work order's location, of its trade (the list shows those)",
);

export const description = updateDisplayOptions(
	{ show: { resource: ['asset'], operation: ['attachToWorkOrder'] } },
	[workOrderIdField, assetField],
);

/** PUT /assets/workorders/{workorderId}/attach (`AttachAssetRequest { AssetId }`). */
export async function execute(
	this: IExecuteFunctions,
	i: number,
	client: WorkOrderServiceClient,
): Promise<IDataObject[]> {
	const workOrderId = readWorkOrderId(this, i);
	const assetId = readPlaceId(this, i, assetField, { required: true, label: 'Asset ID' });
	const response = await client.send({
		method: 'PUT',
		path: `/assets/workorders/${workOrderId}/attach`,
		body: { AssetId: assetId },
		itemIndex: i,
	});
	return [writeAnswer('attachToWorkOrder', { workOrderId, assetId }, response)];
}
