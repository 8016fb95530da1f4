import type {
	IHookFunctions,
	INodeType,
	INodeTypeDescription,
	IWebhookFunctions,
	IWebhookResponseData,
} from 'n8n-workflow';
import { NodeConnectionTypes } from 'n8n-workflow';

import { authenticationProperty, credentials } from './descriptions/authentication';
import { listFilterOption } from './descriptions/listFilters';
import { EVENT_OPTIONS } from './webhook/events';
import { receiveEvent } from './webhook/receive';
import { checkExists, create, deleteRegistration } from './webhook/registration';

export class WorkOrderServiceTrigger implements INodeType {
	description: INodeTypeDescription = {
		displayName: 'Work Order Service Trigger',
		name: 'workOrderServiceTrigger',
		icon: { light: 'file:workOrderService.svg', dark: 'file:workOrderService.dark.svg' },
		group: ['trigger'],
		version: 1,
		subtitle:
			'={{ ($parameter["events"] || []).length + " event" + (($parameter["events"] || []).length === 1 ? "" : "s") }}',
		// n8n's node panel lists this trigger together with the Work Order Service node (one entry, its
		// events beside the node's actions) and shows this description for the entry: it speaks for both.
		description:
			'Read and update work orders, proposals, invoices and checklists in the facility Work Order Service, or start a workflow the moment they or its locations change',
		defaults: { name: 'Work Order Service Trigger' },
		inputs: [],
		outputs: [NodeConnectionTypes.Main],
		credentials,
		webhooks: [
			{
				name: 'default',
				httpMethod: 'POST',
				responseMode: 'onReceived',
				path: 'webhook',
			},
		],
		properties: [
			authenticationProperty,
			{
				displayName:
					'On activation this trigger registers a webhook with the service, which needs an administrator: the "Super Admin" role (subscriber users) or the "Provider Automation Admin" access level (contractor users). Without one, use the Work Order Service Polling Trigger.',
				name: 'adminNotice',
				type: 'notice',
				default: '',
			},
			{
				displayName: 'Events',
				name: 'events',
				type: 'multiOptions',
				required: true,
				default: [],
				options: EVENT_OPTIONS,
				description:
					'The events that start the workflow, by family: Work Order, Proposal, Invoice, Checklist, Location, Asset. Events marked (Preview) are preview events of the service: their delivery is not assured. Each delivery becomes one item with EventType, Action and the Object as the service sent it.',
			},
			{
				displayName: 'Rules',
				name: 'rules',
				type: 'collection',
				placeholder: 'Add Rule',
				default: {},
				description:
					'Narrow which records notify; the service applies the rules. Lists are comma-separated; empty = no restriction.',
				options: [
					listFilterOption(
						'categories',
						'Only records of these work-order categories (comma-separated). Applies to work-order, proposal and checklist-response events; not to technician, invoice, asset, checklist or location events.',
					),
					listFilterOption(
						'trades',
						'Only records of these trades (comma-separated). Applies to work-order, proposal, invoice, checklist-response and asset events; not to technician, checklist or location events.',
					),
					{
						displayName: 'Work Order Statuses',
						name: 'statuses',
						type: 'string',
						default: '',
						placeholder: 'OPEN, IN PROGRESS',
						description:
							'Only work orders with one of these primary statuses (comma-separated). Applies to work-order events (technician events included); proposal and invoice events are one per status already.',
					},
				],
			},
		],
	};

	webhookMethods = {
		default: {
			async checkExists(this: IHookFunctions): Promise<boolean> {
				return await checkExists.call(this);
			},
			async create(this: IHookFunctions): Promise<boolean> {
				return await create.call(this);
			},
			async delete(this: IHookFunctions): Promise<boolean> {
				return await deleteRegistration.call(this);
			},
		},
	};

	async webhook(this: IWebhookFunctions): Promise<IWebhookResponseData> {
		return await receiveEvent.call(this);
	}
}
