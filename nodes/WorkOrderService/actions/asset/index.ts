import type { INodeProperties } from 'n8n-workflow';

import * as attachToWorkOrder from './attachToWorkOrder.operation';
import * as get from './get.operation';
import * as getAll from './getAll.operation';

export { attachToWorkOrder, get, getAll };

export const description: INodeProperties[] = [
	{
		displayName: 'Operation',
		name: 'operation',
		type: 'options',
		noDataExpression: true,
		displayOptions: { show: { resource: ['asset'] } },
		options: [
			{
				name: 'Attach To Work Order',
				value: 'attachToWorkOrder',
				description:
					"Attach a location's asset (equipment) to a work order. Refused (400) when the asset is not at the work order's location or not of its trade.",
				action: 'Attach an asset to work order',
			},
			{
				name: 'Get',
				value: 'get',
				description:
					'Get one asset by its ID; a location, store number, tag or work order given with it must match (else 404)',
				action: 'Get an asset',
			},
			{
				name: 'Get Many',
				value: 'getAll',
				description:
					'List the assets (equipment) at a location, optionally of one trade. Refused (404) for a location the user may not see.',
				action: 'Get many assets',
			},
		],
		default: 'getAll',
	},
	...get.description,
	...getAll.description,
	...attachToWorkOrder.description,
];
