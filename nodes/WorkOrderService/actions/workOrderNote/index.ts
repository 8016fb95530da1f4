import type { INodeProperties } from 'n8n-workflow';

import * as addAttachment from './addAttachment.operation';
import * as create from './create.operation';
import * as get from './get.operation';
import * as getAll from './getAll.operation';
import * as getAttachments from './getAttachments.operation';

export { addAttachment, create, get, getAll, getAttachments };

export const description: INodeProperties[] = [
	{
		displayName: 'Operation',
		name: 'operation',
		type: 'options',
		noDataExpression: true,
		displayOptions: { show: { resource: ['workOrderNote'] } },
		options: [
			{
				name: 'Add Attachment',
				value: 'addAttachment',
				description:
					'Upload a file from an input binary field to a work order note (an AI tool call carries no file)',
				action: 'Add an attachment to a note',
			},
			{
				name: 'Create',
				value: 'create',
				description: 'Add a note to a work order',
				action: 'Create a work order note',
			},
			{
				name: 'Get',
				value: 'get',
				description:
					'Get one note of a work order by its 64-bit note ID (pass it as a string of digits)',
				action: 'Get a work order note',
			},
			{
				name: 'Get Attachments',
				value: 'getAttachments',
				description: 'List the attachments of a note, or of the whole work order',
				action: 'Get attachments of a note',
			},
			{
				name: 'Get Many',
				value: 'getAll',
				description: 'List the notes of a work order',
				action: 'Get many work order notes',
			},
		],
		default: 'getAll',
	},
	...addAttachment.description,
	...create.description,
	...get.description,
	...getAll.description,
	...getAttachments.description,
];
