import type { INodeProperties } from 'n8n-workflow';

import * as approve from './approve.operation';
import * as get from './get.operation';
import * as getAll from './getAll.operation';
import * as getAttachments from './getAttachments.operation';
import * as putOnHold from './putOnHold.operation';
import * as reject from './reject.operation';
import * as reopen from './reopen.operation';

export { approve, get, getAll, getAttachments, putOnHold, reject, reopen };

export const description: INodeProperties[] = [
	{
		displayName: 'Operation',
		name: 'operation',
		type: 'options',
		noDataExpression: true,
		displayOptions: { show: { resource: ['proposal'] } },
		options: [
			{
				name: 'Approve',
				value: 'approve',
				description:
					'Approve a proposal (refused when already approved, when its work order is invoiced or missing, or over the approval limit)',
				action: 'Approve a proposal',
			},
			{
				name: 'Get',
				value: 'get',
				description: 'Get one proposal by ID',
				action: 'Get a proposal',
			},
			{
				name: 'Get Attachments',
				value: 'getAttachments',
				description: 'List the files of a proposal, each with the Uri to download it',
				action: 'Get attachments of a proposal',
			},
			{
				name: 'Get Many',
				value: 'getAll',
				description:
					'List proposals, filtered by status, location, work order, provider, date or amount',
				action: 'Get many proposals',
			},
			{
				name: 'Put On Hold',
				value: 'putOnHold',
				description: 'Put a proposal on hold (refused when it is already on hold)',
				action: 'Put a proposal on hold',
			},
			{
				name: 'Reject',
				value: 'reject',
				description:
					'Reject a proposal, optionally with a rejection reason code (refused when already rejected)',
				action: 'Reject a proposal',
			},
			{
				name: 'Reopen',
				value: 'reopen',
				description: 'Set a proposal back to Open (refused when it is already open)',
				action: 'Reopen a proposal',
			},
		],
		default: 'approve',
	},
	...approve.description,
	...get.description,
	...getAll.description,
	...getAttachments.description,
	...putOnHold.description,
	...reject.description,
	...reopen.description,
];
