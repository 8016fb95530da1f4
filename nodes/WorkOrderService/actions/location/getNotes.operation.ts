import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { collectionOf, optionalBoolean, readParameter } from '../../helpers/validation';
import { isRecord } from '../../helpers/values';
import { toRecords } from '../../transport/paging';
import type { WorkOrderServiceClient } from '../../transport/client';
import type { OperationMeta } from '../operation';
import { locationIdField, readLocationId } from './get.operation';

export const meta: OperationMeta = { safeToRepeat: true };

const privateNotesProperty: INodeProperties = {
	displayName: 'Include Private Notes',
	name: 'privateNotes',
	type: 'boolean',
	default: false,
	description: 'Whether to include the notes only the subscriber may see (privateNotes=true)',
};

export const description = updateDisplayOptions(
	{ show: { resource: ['location'], operation: ['getNotes'] } },
	[locationIdField, collectionOf('options', [privateNotesProperty])],
);

/** Whether a note has anything in it (the service answers a note of nulls for a location without notes). */
const hasContent = (note: IDataObject) =>
	Object.values(note).some((v) => v !== null && v !== undefined && v !== '');

/**
 * GET /locations/{locationId}/notes: one item per note (`LocationNote`: Id, HeaderId, Header,
 * Value). The reference answers one note; a list is read as well.
 */
export async function execute(
	this: IExecuteFunctions,
	i: number,
	client: WorkOrderServiceClient,
): Promise<IDataObject[]> {
	const locationId = readLocationId(this, i);
	const privateNotes = readParameter(this, i, privateNotesProperty, optionalBoolean, 'options');
	const body = await client.request({
		method: 'GET',
		path: `/locations/${locationId}/notes`,
		qs: privateNotes ? { privateNotes: true } : undefined,
		itemIndex: i,
	});
	return toRecords(body).filter((n) => isRecord(n) && hasContent(n));
}
