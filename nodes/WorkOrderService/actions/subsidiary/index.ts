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
					'List the child subscribers of the current subscriber (their IDs go into the credential\'s Child Subscriber ID)',
				action: 'Get many subsidiaries if the user may list child subscribers',
			},
		],
		default: 'getAll',
	},
	...getAll.description,
];
