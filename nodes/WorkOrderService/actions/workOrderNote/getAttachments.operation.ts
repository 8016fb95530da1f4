import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { returnAllOrLimitFields, workOrderIdField } from '../../helpers/fields';
import { optionalInt64Id, readParameter } from '../../helpers/validation';
import { readLimit } from '../../helpers/limit';
import { attachmentOut } from '../../helpers/noteIds';
import { readWorkOrderId } from '../../helpers/params';
import { ODATA_LIST, readList } from '../../transport/paging';
import type { WorkOrderServiceClient } from '../../transport/client';
import type { OperationMeta } from '../operation';

const noteIdProperty: INodeProperties = {
	displayName: 'Note ID',
	name: 'noteId',
	type: 'string',
	default: '',
	placeholder: 'Leave empty for the whole work order',
	description:
		'ID of the note whose attachments to list (a 64-bit number, e.g. 9007199254740993). Leave empty to list every attachment of the work order.',
};

export const meta: OperationMeta = { safeToRepeat: true };

export const description = updateDisplayOptions(
	{ show: { resource: ['workOrderNote'], operation: ['getAttachments'] } },
	[workOrderIdField, noteIdProperty, ...returnAllOrLimitFields],
);

/** The attachments of one note, or of the whole work order (OData list, page by page). */
export async function execute(
	this: IExecuteFunctions,
	i: number,
	client: WorkOrderServiceClient,
): Promise<IDataObject[]> {
	const workOrderId = readWorkOrderId(this, i);
	const noteId = readParameter(this, i, noteIdProperty, optionalInt64Id);
	const limit = readLimit(this, i);
	const path =
		noteId === undefined
			? `/odata/workorders(${workOrderId})/attachments`
			: `/odata/workorders(${workOrderId})/notes(${noteId})/attachments`;
	const attachments = await readList(this, client, ODATA_LIST, { path, limit, itemIndex: i });
	return attachments.map(attachmentOut);
}
