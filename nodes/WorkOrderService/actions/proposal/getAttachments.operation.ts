import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { returnAllOrLimitFields } from '../../helpers/fields';
import { readLimit } from '../../helpers/limit';
import { attachmentOut } from '../../helpers/noteIds';
import { ODATA_LIST, readList, type WorkOrderServiceClient } from '../../transport';

import { proposalIdProperty, readProposalId } from './fields';
import type { OperationMeta } from '../operation';

export const meta: OperationMeta = { safeToRepeat: true };

export const description = updateDisplayOptions({ show: { resource: ['proposal'], operation: ['getAttachments'] } }, [
	proposalIdProperty,
	...returnAllOrLimitFields,
]);

/** GET /odata/proposals({id})/attachments, page by page; one item per attachment (its `Uri` downloads it). */
export async function execute(this: IExecuteFunctions, i: number, client: WorkOrderServiceClient): Promise<IDataObject[]> {
	const proposalId = readProposalId(this, i);
	const limit = readLimit(this, i);
	const attachments = await readList(this, client, ODATA_LIST, { path: `/odata/proposals(${proposalId})/attachments`, limit, itemIndex: i });
	return attachments.map(attachmentOut);
}
