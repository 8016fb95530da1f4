import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { noteIdField, workOrderIdField } from '../../helpers/fields';
import { readParameter } from '../../helpers/fieldList';
import { noteOut } from '../../helpers/noteIds';
import { readWorkOrderId } from '../../helpers/params';
import { int64Id } from '../../helpers/validation';
import { withoutODataAnnotations, type WorkOrderServiceClient } from '../../transport';
import type { OperationMeta } from '../operation';

export const meta: OperationMeta = { safeToRepeat: true };

export const description = updateDisplayOptions({ show: { resource: ['workOrderNote'], operation: ['get'] } }, [
	workOrderIdField,
	noteIdField,
]);

/** GET /odata/workorders({id})/notes({noteId}); the item is the note, its IDs as text. */
export async function execute(this: IExecuteFunctions, i: number, client: WorkOrderServiceClient): Promise<IDataObject[]> {
	const workOrderId = readWorkOrderId(this, i);
	const noteId = readParameter(this, i, noteIdField, int64Id);
	const path = `/odata/workorders(${workOrderId})/notes(${noteId})`;
	return [noteOut(withoutODataAnnotations(await client.request({ method: 'GET', path, itemIndex: i })))];
}
