import type { IExecuteFunctions, INodeExecutionData, INodeType, INodeTypeDescription } from 'n8n-workflow';
import { NodeConnectionTypes } from 'n8n-workflow';

import * as checklistResponse from './actions/checklistResponse';
import * as proposal from './actions/proposal';
import * as rejectionReason from './actions/rejectionReason';
import { router } from './actions/router';
import * as subsidiary from './actions/subsidiary';
import * as workOrder from './actions/workOrder';
import * as workOrderNote from './actions/workOrderNote';
import { authenticationProperty, credentials } from './descriptions/authentication';
import { listSearch, loadOptions } from './methods';

export class WorkOrderService implements INodeType {
	description: INodeTypeDescription = {
		displayName: 'Work Order Service',
		name: 'workOrderService',
		icon: { light: 'file:workOrderService.svg', dark: 'file:workOrderService.dark.svg' },
		group: ['transform'],
		version: 1,
		subtitle: '={{$parameter["operation"] + ": " + $parameter["resource"]}}',
		description:
			'Submit checklist answers, approve or reject proposals, and read and write work orders and their notes in the facility Work Order Service',
		defaults: { name: 'Work Order Service' },
		usableAsTool: true,
		inputs: [NodeConnectionTypes.Main],
		outputs: [NodeConnectionTypes.Main],
		// Each credential is hidden for the other two logins (`hide`, not `show`): then n8n's editor
		// treats Authentication as an ordinary parameter, shows it in the node panel, lists and
		// auto-selects only credentials of the chosen login. With `show` it hides Authentication
		// and offers (and auto-assigns) the newest credential of any of the three types.
		credentials,
		properties: [
			authenticationProperty,
			{
				displayName: 'Resource',
				name: 'resource',
				type: 'options',
				noDataExpression: true,
				options: [
					{ name: 'Checklist Response', value: 'checklistResponse' },
					{ name: 'Proposal', value: 'proposal' },
					{ name: 'Rejection Reason', value: 'rejectionReason' },
					{ name: 'Subsidiary', value: 'subsidiary' },
					{ name: 'Work Order', value: 'workOrder' },
					{ name: 'Work Order Note', value: 'workOrderNote' },
				],
				default: 'workOrder',
			},
			...checklistResponse.description,
			...proposal.description,
			...rejectionReason.description,
			...subsidiary.description,
			...workOrder.description,
			...workOrderNote.description,
			{
				displayName: 'Request Options',
				name: 'requestOptions',
				type: 'collection',
				placeholder: 'Add Option',
				default: {},
				options: [
					{
						displayName: 'Concurrency',
						name: 'concurrency',
						type: 'number',
						default: 20,
						typeOptions: { minValue: 1, maxValue: 100, numberPrecision: 0 },
						description:
							'How many requests may be in flight at once (1 = one after another). When the service throttles, the node lowers this on its own and every request waits as long as the service asks.',
					},
					{
						displayName: 'Max Retries',
						name: 'maxRetries',
						type: 'number',
						default: 3,
						typeOptions: { minValue: 0, maxValue: 10, numberPrecision: 0 },
						description:
							'How many times a throttled request (429/503 with Retry-After) is sent again, and a failed read or status change (5xx, network). A POST that may have been processed is never sent again.',
					},
					{
						displayName: 'Max Wait (Seconds)',
						name: 'maxWaitSeconds',
						type: 'number',
						default: 120,
						typeOptions: { minValue: 0 },
						description: 'Longest total time one item may spend waiting between retries',
					},
					{
						displayName: 'Requests Per Minute',
						name: 'requestsPerMinute',
						type: 'number',
						default: 0,
						typeOptions: { minValue: 0 },
						description:
							'Spread requests so that at most this many start per minute (0 = no pacing). Production allows about 300 per minute per app, the sandbox about 40.',
					},
					{
						displayName: 'Timeout (Seconds)',
						name: 'timeoutSeconds',
						type: 'number',
						default: 60,
						typeOptions: { minValue: 1 },
						description:
							'How long to wait for the service to answer one request (token requests: at most 30 s). A request that got no answer in time is not sent again.',
					},
				],
			},
		],
	};

	methods = { listSearch, loadOptions };

	async execute(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
		return await router.call(this);
	}
}
