import type {
	IExecuteFunctions,
	INodeExecutionData,
	INodeType,
	INodeTypeDescription,
} from 'n8n-workflow';
import { NodeConnectionTypes } from 'n8n-workflow';

import * as asset from './actions/asset';
import * as attachment from './actions/attachment';
import * as checklist from './actions/checklist';
import * as checklistResponse from './actions/checklistResponse';
import * as invoice from './actions/invoice';
import * as location from './actions/location';
import * as proposal from './actions/proposal';
import * as provider from './actions/provider';
import * as rejectionReason from './actions/rejectionReason';
import { router } from './actions/router';
import * as subsidiary from './actions/subsidiary';
import * as trade from './actions/trade';
import * as workOrder from './actions/workOrder';
import * as workOrderNote from './actions/workOrderNote';
import { authenticationProperty, credentials } from './descriptions/authentication';
import { requestOptionsProperty } from './descriptions/requestOptions';
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
					{ name: 'Asset', value: 'asset' },
					{ name: 'Attachment', value: 'attachment' },
					{ name: 'Checklist', value: 'checklist' },
					{ name: 'Checklist Response', value: 'checklistResponse' },
					{ name: 'Invoice', value: 'invoice' },
					{ name: 'Location', value: 'location' },
					{ name: 'Proposal', value: 'proposal' },
					{ name: 'Provider', value: 'provider' },
					{ name: 'Rejection Reason', value: 'rejectionReason' },
					{ name: 'Subsidiary', value: 'subsidiary' },
					{ name: 'Trade', value: 'trade' },
					{ name: 'Work Order', value: 'workOrder' },
					{ name: 'Work Order Note', value: 'workOrderNote' },
				],
				default: 'workOrder',
			},
			...asset.description,
			...attachment.description,
			...checklist.description,
			...checklistResponse.description,
			...invoice.description,
			...location.description,
			...proposal.description,
			...provider.description,
			...rejectionReason.description,
			...subsidiary.description,
			...trade.description,
			...workOrder.description,
			...workOrderNote.description,
			requestOptionsProperty('action'),
		],
	};

	methods = { listSearch, loadOptions };

	async execute(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
		return await router.call(this);
	}
}
