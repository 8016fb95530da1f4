import type { INodeProperties } from 'n8n-workflow';

import * as getAll from './getAll.operation';

export { getAll };

export const description: INodeProperties[] = [
	{
		displayName: 'Operation',
		name: 'operation',
		type: 'options',
		noDataExpression: true,
		displayOptions: { show: { resource: ['trade'] } },
		options: [
			{
				name: 'Get Many',
				value: 'getAll',
				description:
					"List the subscriber's trades, or the trades at one location (their names go into a work order's Trade). Refused (400) for a location the user may not see.",
				action: 'Get many trades',
			},
		],
		default: 'getAll',
	},
	...getAll.description,
];
