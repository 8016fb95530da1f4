import type { INodeProperties } from 'n8n-workflow';

import * as addNote from './addNote.operation';
import * as get from './get.operation';
import * as getAll from './getAll.operation';
import * as getNotes from './getNotes.operation';

export { addNote, get, getAll, getNotes };

export const description: INodeProperties[] = [
	{
		displayName: 'Operation',
		name: 'operation',
		type: 'options',
		noDataExpression: true,
		displayOptions: { show: { resource: ['location'] } },
		options: [
			{
				name: 'Add Note',
				value: 'addNote',
				description:
					'Write a note under a header at a location (a known header gets the new text). Refused for provider users (403) and for an empty header.',
				action: 'Add a note to a location',
			},
			{
				name: 'Get',
				value: 'get',
				description:
					'Get one location by its ID: address, store number, region, district, time zone. Refused (400) for a location the user may not see.',
				action: 'Get a location',
			},
			{
				name: 'Get Many',
				value: 'getAll',
				description:
					'List the locations the user may see, filtered by name or store number, city, state, region or district',
				action: 'Get many locations',
			},
			{
				name: 'Get Notes',
				value: 'getNotes',
				description:
					"Get a location's notes (header and text); private notes only when asked. Refused (400) for a location the user may not see.",
				action: 'Get the notes of a location',
			},
		],
		default: 'get',
	},
	...get.description,
	...getAll.description,
	...getNotes.description,
	...addNote.description,
];
