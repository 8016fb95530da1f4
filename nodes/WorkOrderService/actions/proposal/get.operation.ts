import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';
import { NodeOperationError, updateDisplayOptions } from 'n8n-workflow';

import { toRecords } from '../../transport/paging';
import type { WorkOrderServiceClient } from '../../transport/client';

import { proposalIdProperty, PROPOSAL_ID } from './fields';
import { PROPOSAL_OUTPUT } from './simplify';
import type { OperationMeta } from '../operation';
import { readLocatorId } from '../../helpers/validation';
import { outputProperties, shapeOutput } from '../../helpers/simplify';

export const meta: OperationMeta = { safeToRepeat: true };

export const description = updateDisplayOptions(
	{ show: { resource: ['proposal'], operation: ['get'] } },
	[proposalIdProperty, ...outputProperties(PROPOSAL_OUTPUT)],
);

/**
 * GET /odata/proposals?$filter=Id eq {id}: the reference has no single-proposal read, so the list
 * is asked for that one proposal. An empty list is "no such proposal" (for this user).
 */
export async function execute(
	this: IExecuteFunctions,
	i: number,
	client: WorkOrderServiceClient,
): Promise<IDataObject[]> {
	const proposalId = readLocatorId(this, i, PROPOSAL_ID);
	const body = await client.request({
		method: 'GET',
		path: '/odata/proposals',
		qs: { $filter: `Id eq ${proposalId}` },
		itemIndex: i,
	});
	const record = toRecords(body).find((r) => String(r.Id) === String(proposalId));
	if (!record) {
		throw new NodeOperationError(this.getNode(), `Proposal ${proposalId} was not found`, {
			itemIndex: i,
			description:
				'The service lists no proposal with this ID for this user: it may not exist, belong to another subscriber or provider, or be older than the last 90 days, which the service lists by default (Get Many with Created After reaches back up to 365 days).',
		});
	}
	return shapeOutput(this, i, [record], PROPOSAL_OUTPUT);
}
