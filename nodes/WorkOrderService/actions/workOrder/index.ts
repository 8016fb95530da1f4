import type { INodeProperties } from 'n8n-workflow';

import * as addAttachment from './addAttachment.operation';
import * as checkIn from './checkIn.operation';
import * as checkOut from './checkOut.operation';
import * as create from './create.operation';
import * as get from './get.operation';
import * as getAll from './getAll.operation';
import * as getChecklistResponses from './getChecklistResponses.operation';
import * as updateNte from './updateNte.operation';
import * as updatePriority from './updatePriority.operation';
import * as updateScheduledDate from './updateScheduledDate.operation';
import * as updateStatus from './updateStatus.operation';

export {
	addAttachment,
	checkIn,
	checkOut,
	create,
	get,
	getAll,
	getChecklistResponses,
	updateNte,
	updatePriority,
	updateScheduledDate,
	updateStatus,
};

export const description: INodeProperties[] = [
	{
		displayName: 'Operation',
		name: 'operation',
		type: 'options',
		noDataExpression: true,
		displayOptions: { show: { resource: ['workOrder'] } },
		options: [
			{
				name: 'Add Attachment',
				value: 'addAttachment',
				description:
					'Upload a file from an input binary field to a work order (an AI tool call carries no file)',
				action: 'Add a work order attachment',
			},
			{
				name: 'Check In',
				value: 'checkIn',
				description:
					'Record that a technician arrived at the work order location (refused when the technician works for another provider)',
				action: 'Check in to a work order',
			},
			{
				name: 'Check Out',
				value: 'checkOut',
				description:
					'Record that a technician left the work order location (refused when the technician works for another provider)',
				action: 'Check out of a work order',
			},
			{
				name: 'Create',
				value: 'create',
				description: 'Create a work order at a location for a trade, category and priority',
				action: 'Create a work order',
			},
			{
				name: 'Get',
				value: 'get',
				description: 'Get one work order by ID (one this user can see)',
				action: 'Get a work order',
			},
			{
				name: 'Get Checklist Responses',
				value: 'getChecklistResponses',
				description:
					'List the checklist answers stored for a work order, with their questions and pictures',
				action: 'Get work order checklist responses',
			},
			{
				name: 'Get Many',
				value: 'getAll',
				description: 'List work orders, with OData filter, order and field selection',
				action: 'Get many work orders',
			},
			{
				name: 'Update NTE',
				value: 'updateNte',
				description: 'Set the not-to-exceed amount of a work order',
				action: 'Update a work order NTE',
			},
			{
				name: 'Update Priority',
				value: 'updatePriority',
				description: 'Set the priority of a work order',
				action: 'Update a work order priority',
			},
			{
				name: 'Update Scheduled Date',
				value: 'updateScheduledDate',
				description: 'Move the visit of a work order to another date',
				action: 'Update a work order scheduled date',
			},
			{
				name: 'Update Status',
				value: 'updateStatus',
				description: 'Set the primary and extended status of a work order, with a note',
				action: 'Update a work order status',
			},
		],
		default: 'get',
	},
	...addAttachment.description,
	...checkIn.description,
	...checkOut.description,
	...create.description,
	...get.description,
	...getAll.description,
	...getChecklistResponses.description,
	...updateNte.description,
	...updatePriority.description,
	...updateScheduledDate.description,
	...updateStatus.description,
];
