import type { INodeProperties } from 'n8n-workflow';

import * as download from './download.operation';

export { download };

export const description: INodeProperties[] = [
	{
		displayName: 'Operation',
		name: 'operation',
		type: 'options',
		noDataExpression: true,
		displayOptions: { show: { resource: ['attachment'] } },
		options: [
			{
				name: 'Download',
				value: 'download',
				description:
					'Download the file of a work order, note or proposal attachment into a binary field',
				action: 'Download an attachment',
			},
		],
		default: 'download',
	},
	...download.description,
];
