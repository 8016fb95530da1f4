import type { INodeProperties } from 'n8n-workflow';

import * as submit from './submit.operation';
import * as update from './update.operation';

export { submit, update };

export const description: INodeProperties[] = [
	{
		displayName: 'Operation',
		name: 'operation',
		type: 'options',
		noDataExpression: true,
		displayOptions: { show: { resource: ['checklistResponse'] } },
		options: [
			{
				name: 'Submit',
				value: 'submit',
				description:
					'Answer one checklist question of a work order, optionally with a photo: acknowledgement yes/no (on/off, 1/0, true/false), selector an option ID, text up to 500 characters, numeric a number',
				action: 'Answer a checklist question',
			},
			{
				name: 'Update',
				value: 'update',
				description: 'Change a stored checklist answer, or replace or add its photo',
				action: 'Update a checklist response',
			},
		],
		default: 'submit',
	},
	...submit.description,
	...update.description,
];
