import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { returnAllOrLimitFields, workOrderIdField } from '../../helpers/fields';
import { readLimit } from '../../helpers/limit';
import { noteOut } from '../../helpers/noteIds';
import { readWorkOrderId } from '../../helpers/params';
import { NOTES_LIST, readList } from '../../transport/paging';
import type { WorkOrderServiceClient } from '../../transport/client';
import { outputProperties, shapeOutput } from '../../helpers/simplify';
import type { OperationMeta } from '../operation';

import { NOTE_OUTPUT } from './simplify';

export const meta: OperationMeta = { safeToRepeat: true };

export const description = updateDisplayOptions(
	{ show: { resource: ['workOrderNote'], operation: ['getAll'] } },
	[workOrderIdField, ...returnAllOrLimitFields, ...outputProperties(NOTE_OUTPUT)],
);

/** GET /workorders/{id}/notes, page by page; one item per note, its IDs as text. */
export async function execute(
	this: IExecuteFunctions,
	i: number,
	client: WorkOrderServiceClient,
): Promise<IDataObject[]> {
	const workOrderId = readWorkOrderId(this, i);
	const limit = readLimit(this, i);
	const notes = await readList(this, client, NOTES_LIST, {
		path: `/workorders/${workOrderId}/notes`,
		limit,
		itemIndex: i,
	});
	return shapeOutput(this, i, notes.map(noteOut), NOTE_OUTPUT);
}
