import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { limitField, returnAllField, workOrderIdField } from '../../helpers/fields';
import { readWorkOrderId } from '../../helpers/params';
import { noteOut } from '../../helpers/noteIds';
import { readLimit } from '../../helpers/limit';
import { getNotesList, type WorkOrderServiceClient } from '../../transport';

const properties: INodeProperties[] = [
	workOrderIdField,
	returnAllField,
	{ ...limitField, displayOptions: { show: { returnAll: [false] } } },
];

export const description = updateDisplayOptions(
	{ show: { resource: ['workOrderNote'], operation: ['getAll'] } },
	properties,
);

export async function execute(this: IExecuteFunctions, i: number, client: WorkOrderServiceClient): Promise<IDataObject[]> {
	const workOrderId = readWorkOrderId(this, i);
	const limit = readLimit(this, i);
	const notes = await getNotesList(this, client, { path: `/workorders/${workOrderId}/notes`, limit, itemIndex: i });
	return notes.map(noteOut);
}
