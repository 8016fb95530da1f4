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
							'How many requests of this execution may be in flight at once (1 = one after another). Executions that use the same app at the same time in one n8n process share the service\'s limit: when it throttles, all of them wait and then keep to the pace it allows.',
					},
					{
						displayName: 'Max Retries',
						name: 'maxRetries',
						type: 'number',
						default: 3,
						typeOptions: { minValue: 0, maxValue: 10, numberPrecision: 0 },
						description:
							'How many times a request is sent again after a failure: one that never reached the service (refused, TLS, connect timeout), a read or status change that failed (5xx, dropped), or a request the service throttled on its own. A POST that may have been processed is never sent again.',
					},
					{
						displayName: 'Max Wait (Seconds)',
						name: 'maxWaitSeconds',
						type: 'number',
						default: 120,
						typeOptions: { minValue: 0 },
						description:
							'Longest total time one request may wait for the service to accept again (throttling pauses, backoff between retries); waiting for its turn at the learned pace does not count',
					},
					{
						displayName: 'Requests Per Minute',
						name: 'requestsPerMinute',
						type: 'number',
						default: 0,
						typeOptions: { minValue: 0 },
						description:
							'Spread requests so that at most this many start per minute (0 = no pacing), shared by the executions of this n8n process that use the same app. Production allows about 300 per minute per app, the sandbox about 40: with several workers, give each its part.',
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
