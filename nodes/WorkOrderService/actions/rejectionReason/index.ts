import type { INodeProperties } from 'n8n-workflow';

import * as getAll from './getAll.operation';

export { getAll };

export const description: INodeProperties[] = [
	{
		displayName: 'Operation',
		name: 'operation',
		type: 'options',
		noDataExpression: true,
		displayOptions: { show: { resource: ['rejectionReason'] } },
		options: [
			{
				name: 'Get Many',
				value: 'getAll',
				description: 'List the rejection reason codes valid for rejecting a proposal',
				action: 'Get many rejection reasons',
			},
		],
		default: 'getAll',
	},
	...getAll.description,
];
