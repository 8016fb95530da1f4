import type { INodeProperties } from 'n8n-workflow';

import * as checkIn from './checkIn.operation';
import * as checkOut from './checkOut.operation';
import * as get from './get.operation';
import * as getAll from './getAll.operation';

export { checkIn, checkOut, get, getAll };

export const description: INodeProperties[] = [
	{
		displayName: 'Operation',
		name: 'operation',
		type: 'options',
		noDataExpression: true,
		displayOptions: { show: { resource: ['workOrder'] } },
		options: [
			{
				name: 'Check In',
				value: 'checkIn',
				description: 'Record that a technician arrived at the work order location (refused when the technician works for another provider)',
				action: 'Check in to a work order',
			},
			{
				name: 'Check Out',
				value: 'checkOut',
				description: 'Record that a technician left the work order location (refused when the technician works for another provider)',
				action: 'Check out of a work order',
			},
			{
				name: 'Get',
				value: 'get',
				description: 'Get one work order by ID (one this user can see)',
				action: 'Get a work order',
			},
			{
				name: 'Get Many',
				value: 'getAll',
				description: 'List work orders, with OData filter, order and field selection',
				action: 'Get many work orders',
			},
		],
		default: 'get',
	},
	...checkIn.description,
	...checkOut.description,
	...get.description,
	...getAll.description,
];
