import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { idField } from '../../helpers/fields';
import {
	oneOf,
	optionalBoolean,
	optionalEmail,
	optionalPositiveInteger,
	optionalText,
	positiveInteger,
} from '../../helpers/validation';
import type { WorkOrderServiceClient } from '../../transport';

/**
 * The four proposal status changes (spec 3 and 4.6) share one shape: PUT
 * /proposals/{proposalId}/{action} with an UpdateProposalStatusRequest body, answered 204.
 */

export type ProposalOperation = 'reopen' | 'putOnHold' | 'approve' | 'reject';

const ACTIONS: Record<ProposalOperation, { path: string; status: string; verb: string }> = {
	reopen: { path: 'open', status: 'open', verb: 'reopened' },
	putOnHold: { path: 'onhold', status: 'onHold', verb: 'put on hold' },
	approve: { path: 'approve', status: 'approved', verb: 'approved' },
	reject: { path: 'reject', status: 'rejected', verb: 'rejected' },
};

const ACTION_SOURCES = ['Standard', 'DecisionEngine'] as const;

const commonFields: INodeProperties[] = [
	{
		displayName: 'Action Source',
		name: 'actionSource',
		type: 'options',
		default: 'Standard',
		options: [
			{ name: 'Decision Engine', value: 'DecisionEngine', description: 'The change follows an automated decision tool' },
			{ name: 'Standard', value: 'Standard', description: 'A person decided' },
		],
		description: 'Whether the change follows the recommendation of an automated decision tool',
	},
	{
		displayName: 'Comments',
		name: 'comments',
		type: 'string',
		default: '',
		typeOptions: { rows: 2 },
		description: 'Reason for the status change; added to the work order notes',
	},
	{
		displayName: 'Provider Email',
		name: 'providerEmail',
		type: 'string',
		placeholder: 'name@email.com',
		default: '',
		description:
			'Who gets the status-change notification on the provider side. Default: the e-mail of the provider the proposal is assigned to.',
	},
	{
		displayName: 'User Email',
		name: 'userEmail',
		type: 'string',
		placeholder: 'name@email.com',
		default: '',
		description: 'Who gets the notification on the subscriber side. Default: the e-mail of the current user.',
	},
];

const approveFields: INodeProperties[] = [
	{
		displayName: 'Reason',
		name: 'reasonString',
		type: 'string',
		default: '',
		description: 'Reason for the approval; added to the work order notes',
	},
];

const rejectFields: INodeProperties[] = [
	{
		displayName: 'Rejection Reason Name or ID',
		name: 'rejectReasonCodeId',
		type: 'options',
		typeOptions: { loadOptionsMethod: 'getRejectionReasons' },
		default: '',
		description:
			'Reason code for the rejection. Choose from the list, or specify an ID using an <a href="https://docs.n8n.io/code/expressions/">expression</a>.',
	},
	{
		displayName: 'Use Proposal Alert Emails',
		name: 'useProposalAlertEmails',
		type: 'boolean',
		default: false,
		description:
			'Whether every user on the proposal-alerts list of the dispatch preferences gets the rejection notification. Applies only when neither Provider Email nor User Email is set.',
	},
];

function sortByName(fields: INodeProperties[]): INodeProperties[] {
	return [...fields].sort((a, b) => a.displayName.localeCompare(b.displayName));
}

export function proposalDescription(operation: ProposalOperation): INodeProperties[] {
	const extra = operation === 'approve' ? approveFields : operation === 'reject' ? rejectFields : [];
	const properties: INodeProperties[] = [
		idField({
			displayName: 'Proposal ID',
			name: 'proposalId',
			example: '61001',
			required: true,
			description: 'ID of the proposal whose status changes',
		}),
		{
			displayName: 'Additional Fields',
			name: 'additionalFields',
			type: 'collection',
			placeholder: 'Add Field',
			default: {},
			options: sortByName([...commonFields, ...extra]),
		},
	];
	return updateDisplayOptions({ show: { resource: ['proposal'], operation: [operation] } }, properties);
}

export async function changeProposalStatus(
	this: IExecuteFunctions,
	i: number,
	client: WorkOrderServiceClient,
	operation: ProposalOperation,
): Promise<IDataObject[]> {
	const node = this.getNode();
	const action = ACTIONS[operation];
	const proposalId = positiveInteger(
		node,
		i,
		{ name: 'proposalId', label: 'Proposal ID' },
		this.getNodeParameter('proposalId', i, undefined),
	);
	const fields = (this.getNodeParameter('additionalFields', i, {}) ?? {}) as IDataObject;
	const field = (name: string, label: string) => ({ name: `additionalFields.${name}`, label });

	const body: IDataObject = {};
	const comments = optionalText(node, i, field('comments', 'Comments'), fields.comments);
	if (comments !== undefined) body.Comments = comments;
	const providerEmail = optionalEmail(node, i, field('providerEmail', 'Provider Email'), fields.providerEmail);
	if (providerEmail !== undefined) body.ProviderEmail = providerEmail;
	const userEmail = optionalEmail(node, i, field('userEmail', 'User Email'), fields.userEmail);
	if (userEmail !== undefined) body.UserEmail = userEmail;
	if (fields.actionSource !== undefined && fields.actionSource !== '') {
		body.ActionSource = oneOf(node, i, field('actionSource', 'Action Source'), fields.actionSource, ACTION_SOURCES);
	}
	const qs: IDataObject = {};
	if (operation === 'approve') {
		const reason = optionalText(node, i, field('reasonString', 'Reason'), fields.reasonString);
		if (reason !== undefined) body.ReasonString = reason;
	}
	if (operation === 'reject') {
		const code = optionalPositiveInteger(
			node,
			i,
			field('rejectReasonCodeId', 'Rejection Reason'),
			fields.rejectReasonCodeId,
		);
		if (code !== undefined) body.RejectReasonCodeId = code;
		const useAlerts = optionalBoolean(
			node,
			i,
			field('useProposalAlertEmails', 'Use Proposal Alert Emails'),
			fields.useProposalAlertEmails,
		);
		if (useAlerts !== undefined) qs.useProposalAlertEmails = useAlerts;
	}

	await client.request({
		method: 'PUT',
		path: `/proposals/${proposalId}/${action.path}`,
		qs,
		body,
		itemIndex: i,
	});
	return [{ proposalId, status: action.status, success: true }];
}
