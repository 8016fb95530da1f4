import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { noteTextField } from '../../helpers/fields';
import { readFields, requiredTextUpTo, type FieldSpec } from '../../helpers/validation';
import { writeAnswer } from '../../helpers/writeAnswer';
import type { WorkOrderServiceClient } from '../../transport/client';
import type { OperationMeta } from '../operation';
import { locationIdField, readLocationId } from './get.operation';

/** Writing a header again sets the same value: safe to repeat. */
export const meta: OperationMeta = { verb: 'written', safeToRepeat: true };

const fields: FieldSpec[] = [
	{
		property: {
			displayName: 'Header',
			name: 'header',
			type: 'string',
			required: true,
			default: '',
			placeholder: 'e.g. Freezer',
			description:
				'The heading the note is kept under. A heading the location already has gets the new text; a new one is added.',
		},
		key: 'Header',
		check: requiredTextUpTo(100),
	},
	noteTextField({
		rows: 3,
		description: 'The text of the note',
		key: 'Value',
		check: requiredTextUpTo(4000),
	}),
];

export const description = updateDisplayOptions(
	{ show: { resource: ['location'], operation: ['addNote'] } },
	[locationIdField, ...fields.map((f) => f.property)],
);

/** POST /locations/{locationId}/notes (`UpdateLocationNoteHeaderApiModelRequest { Header, Value }`); 200 without a documented body. */
export async function execute(
	this: IExecuteFunctions,
	i: number,
	client: WorkOrderServiceClient,
): Promise<IDataObject[]> {
	const locationId = readLocationId(this, i);
	const { body } = readFields(this, i, fields);
	body.Header = String(body.Header).trim();
	const response = await client.send({
		method: 'POST',
		path: `/locations/${locationId}/notes`,
		body,
		itemIndex: i,
	});
	return [writeAnswer('addNote', { locationId, header: body.Header }, response)];
}
