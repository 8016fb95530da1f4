import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';
import { NodeOperationError, updateDisplayOptions } from 'n8n-workflow';

import { noteIdField, workOrderIdField } from '../../helpers/fields';
import { int64Id, readParameter } from '../../helpers/validation';
import { noteOut } from '../../helpers/noteIds';
import { readWorkOrderId } from '../../helpers/params';
import { toRecords } from '../../transport/paging';
import { withoutODataAnnotations } from '../../helpers/values';
import type { WorkOrderServiceClient } from '../../transport/client';
import { outputProperties, shapeOutput } from '../../helpers/simplify';
import type { OperationMeta } from '../operation';

import { NOTE_OUTPUT } from './simplify';

export const meta: OperationMeta = { safeToRepeat: true };

export const description = updateDisplayOptions(
	{ show: { resource: ['workOrderNote'], operation: ['get'] } },
	[workOrderIdField, noteIdField, ...outputProperties(NOTE_OUTPUT)],
);

/**
 * GET /odata/workorders({id})/notes({noteId}); the reference answers `Note[]`, an array even for
 * one note (OData: `{ value: [note] }`); a plain note object is read as well. The item is the
 * note, its IDs as text.
 */
export async function execute(
	this: IExecuteFunctions,
	i: number,
	client: WorkOrderServiceClient,
): Promise<IDataObject[]> {
	const workOrderId = readWorkOrderId(this, i);
	const noteId = readParameter(this, i, noteIdField, int64Id);
	const path = `/odata/workorders(${workOrderId})/notes(${noteId})`;
	const body = await client.request({ method: 'GET', path, itemIndex: i });
	const [note] = toRecords(body);
	if (note === undefined) {
		throw new NodeOperationError(
			this.getNode(),
			`The Work Order Service returned no note ${noteId} of work order ${workOrderId}`,
			{
				itemIndex: i,
				description:
					'Check the Note ID: the note does not exist on this work order, or this account cannot see it.',
			},
		);
	}
	return shapeOutput(this, i, [noteOut(withoutODataAnnotations(note))], NOTE_OUTPUT);
}
