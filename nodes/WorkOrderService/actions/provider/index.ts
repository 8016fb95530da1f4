import type { INodeProperties } from 'n8n-workflow';

import * as getAll from './getAll.operation';

export { getAll };

export const description: INodeProperties[] = [
	{
		displayName: 'Operation',
		name: 'operation',
		type: 'options',
		noDataExpression: true,
		displayOptions: { show: { resource: ['provider'] } },
		options: [
			{
				name: 'Get Many',
				value: 'getAll',
				description:
					'List the providers (service companies) of a trade, with their Do Not Dispatch flag; a trade the subscriber does not have gives none',
				action: 'Get many providers',
			},
		],
		default: 'getAll',
	},
	...getAll.description,
];
