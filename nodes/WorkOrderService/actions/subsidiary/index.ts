import type { INodeProperties } from 'n8n-workflow';

import * as getAll from './getAll.operation';

export { getAll };

export const description: INodeProperties[] = [
	{
		displayName: 'Operation',
		name: 'operation',
		type: 'options',
		noDataExpression: true,
		displayOptions: { show: { resource: ['subsidiary'] } },
		options: [
			{
				name: 'Get Many',
				value: 'getAll',
				description:
					"List the child subscribers of the current subscriber (their IDs go into the credential's Child Subscriber ID; needs the right to list them)",
				action: 'Get many subsidiaries',
			},
		],
		default: 'getAll',
	},
	...getAll.description,
];
