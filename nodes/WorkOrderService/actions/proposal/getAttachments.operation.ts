import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { returnAllOrLimitFields } from '../../helpers/fields';
import { readLimit } from '../../helpers/limit';
import { attachmentOut } from '../../helpers/noteIds';
import { ODATA_LIST, readList } from '../../transport/paging';
import type { WorkOrderServiceClient } from '../../transport/client';

import { proposalIdProperty, PROPOSAL_ID } from './fields';
import type { OperationMeta } from '../operation';
import { readLocatorId } from '../../helpers/validation';

export const meta: OperationMeta = { safeToRepeat: true };

export const description = updateDisplayOptions(
	{ show: { resource: ['proposal'], operation: ['getAttachments'] } },
	[proposalIdProperty, ...returnAllOrLimitFields],
);

/** GET /odata/proposals({id})/attachments, page by page; one item per attachment (its `Uri` downloads it). */
export async function execute(
	this: IExecuteFunctions,
	i: number,
	client: WorkOrderServiceClient,
): Promise<IDataObject[]> {
	const proposalId = readLocatorId(this, i, PROPOSAL_ID);
	const limit = readLimit(this, i);
	const attachments = await readList(this, client, ODATA_LIST, {
		path: `/odata/proposals(${proposalId})/attachments`,
		limit,
		itemIndex: i,
	});
	return attachments.map(attachmentOut);
}
