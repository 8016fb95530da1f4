import type { IDataObject } from 'n8n-workflow';

import { checklistsOf } from '../helpers/checklists';
import { isRecord } from '../helpers/values';
import type { ClientContext, WorkOrderServiceClient } from '../transport/client';

/**
 * GET /checklists/detail with its filters. Provider users must name the subscriber whose
 * checklists they read (`subscriberId`); for a contractor credential that gave none, the
 * subscriber is read from the work order first (GET /workorders/{id}).
 */
export async function readChecklists(
	ctx: ClientContext,
	client: WorkOrderServiceClient,
	query: IDataObject,
	options: { workOrderId?: number; contractor: boolean; itemIndex?: number },
): Promise<IDataObject[]> {
	const qs: IDataObject = { ...query };
	if (options.workOrderId !== undefined) qs.workOrderId = options.workOrderId;
	if (options.contractor && qs.subscriberId === undefined && options.workOrderId !== undefined) {
		const workOrder = await client.request({
			method: 'GET',
			path: `/workorders/${options.workOrderId}`,
			itemIndex: options.itemIndex,
		});
		const subscriber = isRecord(workOrder)
			? ((isRecord(workOrder.Subscriber) ? workOrder.Subscriber.Id : undefined) ??
				workOrder.SubscriberId)
			: undefined;
		if (typeof subscriber === 'number') qs.subscriberId = subscriber;
	}
	return checklistsOf(
		await client.request({
			method: 'GET',
			path: '/checklists/detail',
			qs,
			itemIndex: options.itemIndex,
		}),
	);
}
