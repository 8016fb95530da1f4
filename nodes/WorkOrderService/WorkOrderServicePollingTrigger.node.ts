import type {
	INodeExecutionData,
	INodeType,
	INodeTypeDescription,
	IPollFunctions,
} from 'n8n-workflow';
import { NodeConnectionTypes } from 'n8n-workflow';

import {
	authenticationFirst,
	authenticationProperty,
	credentials,
} from './descriptions/authentication';
import { listFilterOption } from './descriptions/listFilters';
import { requestOptionsProperty } from './descriptions/requestOptions';
import { DEFAULT_LOOKBACK_SECONDS, pollWorkOrders } from './trigger/poll';
import { DEFAULT_MEMORY_LIMIT } from './trigger/state';

export class WorkOrderServicePollingTrigger implements INodeType {
	description: INodeTypeDescription = {
		displayName: 'Work Order Service Polling Trigger',
		name: 'workOrderServicePollingTrigger',
		icon: { light: 'file:workOrderService.svg', dark: 'file:workOrderService.dark.svg' },
		group: ['trigger'],
		version: 1,
		subtitle:
			'={{ {"workOrderCreated": "Work Order Created", "workOrderUpdated": "Work Order Updated", "workOrderStatusChanged": "Work Order Status Changed", "invoiceCreated": "Invoice Created", "invoiceUpdated": "Invoice Updated", "invoiceStatusChanged": "Invoice Status Changed"}[$parameter["event"]] }}',
		description:
			'Starts the workflow when work orders or invoices are created or change, by asking the service on a schedule: works for any user, no administrator needed',
		defaults: { name: 'Work Order Service Polling Trigger' },
		polling: true,
		inputs: [],
		outputs: [NodeConnectionTypes.Main],
		credentials,
		hints: [
			{
				type: 'info',
				message:
					'Each poll emits one item per work order (or invoice) that was created or changed since the last poll. Make sure the workflow handles several items.',
				whenToDisplay: 'beforeExecution',
				location: 'outputPane',
			},
		],
		// Authentication first, Poll Times (added by n8n) right after it, as in n8n's own triggers.
		properties: authenticationFirst([
			authenticationProperty,
			{
				// Not "Event": n8n's node panel would list each option as an event of this trigger, and a
				// trigger entry with events but no actions says "We don't have ... actions yet". Without
				// them the panel shows one entry, "Work Order Service Polling Trigger", that adds the node.
				displayName: 'Watch For',
				name: 'event',
				type: 'options',
				noDataExpression: true,
				required: true,
				default: 'workOrderUpdated',
				options: [
					{
						name: 'Invoice Created',
						value: 'invoiceCreated',
						description: 'A new invoice (by its Posted Date)',
					},
					{
						name: 'Invoice Status Changed',
						value: 'invoiceStatusChanged',
						description: 'The status of an invoice differs from the one the trigger last saw',
					},
					{
						name: 'Invoice Updated',
						value: 'invoiceUpdated',
						description:
							'Any change to an invoice, its creation included (also of an invoice posted long ago: up to the 365 days the service reaches back)',
					},
					{
						name: 'Work Order Created',
						value: 'workOrderCreated',
						description: 'A new work order (by its Call Date)',
					},
					{
						name: 'Work Order Status Changed',
						value: 'workOrderStatusChanged',
						description: 'The primary or extended status differs from the one the trigger last saw',
					},
					{
						name: 'Work Order Updated',
						value: 'workOrderUpdated',
						description: 'Any change to a work order, its creation included',
					},
				],
			},
			{
				displayName: 'Filters',
				name: 'filters',
				type: 'collection',
				placeholder: 'Add Filter',
				default: {},
				options: [
					{
						...listFilterOption(
							'categories',
							'Only work orders of these categories (comma-separated)',
						),
						displayOptions: {
							hide: { '/event': ['invoiceCreated', 'invoiceUpdated', 'invoiceStatusChanged'] },
						},
					},
					{
						displayName: 'Location IDs',
						name: 'locationIds',
						type: 'string',
						default: '',
						placeholder: '501, 502',
						description: 'Only work orders (or invoices) at these locations (comma-separated IDs)',
					},
					{
						displayName: 'OData Filter',
						name: 'filter',
						type: 'string',
						default: '',
						placeholder: "Priority eq 'P1 - Emergency'",
						description:
							'An OData $filter clause of your own, combined with the other filters by AND, e.g. <code>Nte gt 1000</code>',
					},
					{
						displayName: 'Primary Statuses',
						name: 'statuses',
						type: 'string',
						default: '',
						placeholder: 'OPEN, COMPLETED',
						description:
							'Only work orders whose primary status is one of these (comma-separated; invoices: their status, e.g. Approved, On Hold). With Status Changed: records whose status changed to one of these.',
					},
					listFilterOption(
						'trades',
						'Only work orders (or invoices) of these trades (comma-separated)',
					),
				],
			},
			{
				displayName: 'Options',
				name: 'options',
				type: 'collection',
				placeholder: 'Add Option',
				default: {},
				options: [
					{
						displayName: 'Lookback Window (Seconds)',
						name: 'lookbackSeconds',
						type: 'number',
						default: DEFAULT_LOOKBACK_SECONDS,
						typeOptions: { minValue: 0, maxValue: 3600 },
						description:
							'How far back each poll reads before the end of the last one, to catch changes the service shows late (its read replicas lag up to about 30 s). Changes read twice are recognised and emitted once.',
					},
					{
						displayName: 'Max Work Orders Remembered',
						name: 'maxRemembered',
						type: 'number',
						default: DEFAULT_MEMORY_LIMIT,
						typeOptions: { minValue: 1000, numberPrecision: 0 },
						displayOptions: {
							show: { '/event': ['workOrderStatusChanged', 'invoiceStatusChanged'] },
						},
						description:
							"The trigger remembers the status of every matching work order or invoice (about 3 to 6 bytes each in the workflow's static data). Beyond this many, the oldest (lowest IDs) are forgotten: their next change is handled as Unknown Previous Status says.",
					},
					{
						displayName: 'Start Date',
						name: 'startDate',
						type: 'dateTime',
						default: '',
						displayOptions: {
							hide: { '/event': ['workOrderStatusChanged', 'invoiceStatusChanged'] },
						},
						description:
							'Also emit the work orders (or invoices) changed (created, for the Created events) since this date when the workflow is activated. Empty: only what happens after activation. A date without offset is in the workflow time zone. Invoices: at most 365 days back.',
					},
					{
						displayName: 'Unknown Previous Status',
						name: 'unknownPreviousStatus',
						type: 'options',
						default: 'emit',
						displayOptions: {
							show: { '/event': ['workOrderStatusChanged', 'invoiceStatusChanged'] },
						},
						options: [
							{
								name: 'Emit',
								value: 'emit',
								description:
									'Emit the work order: no status change is missed, but its change may not have been one',
							},
							{
								name: 'Ignore',
								value: 'ignore',
								description:
									'Only remember its status: no false event, but a status change can be missed',
							},
						],
						description:
							'After activation the trigger reads the status of every work order or invoice (50 per request) while it already reports changes. One that existed at activation but whose status it does not know (it changed before its status was read, was not in the lists or filters then, or was forgotten beyond Max Work Orders Remembered) has no known previous status.',
					},
				],
			},
			requestOptionsProperty('trigger'),
		]),
	};

	async poll(this: IPollFunctions): Promise<INodeExecutionData[][] | null> {
		return await pollWorkOrders.call(this);
	}
}
