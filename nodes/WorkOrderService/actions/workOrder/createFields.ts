import type { IDataObject, INodeProperties } from 'n8n-workflow';

import { idField } from '../../helpers/fields';
import { tradeDropdown } from '../../helpers/places';
import {
	invalid,
	numberBetween,
	optionalBoolean,
	optionalDateTime,
	optionalOneOf,
	optionalPositiveInteger,
	optionalText,
	requiredTextUpTo,
	textUpTo,
	type Check,
	type FieldSpec,
} from '../../helpers/validation';

import { MONEY_MAX, dynamicField, nteProperty, requiredDateTime } from './writeFields';

/**
 * The fields of POST /workorders (CreateWoRequest, service-reference.md section 8), in the order
 * they are checked, each with the body key it is sent under (a dot nests: `ContractInfo.TradeName`).
 * The location (ContractInfo.LocationId or StoreId) is read apart (create.operation.ts).
 */

/** What a dispatcher fills in: the reference's required fields (the location apart). */
export const requiredFields: FieldSpec[] = [
	{
		property: tradeDropdown({
			name: 'tradeName',
			description:
				'Trade of the job: the trades at the chosen location (a trade the location does not have is refused)',
			required: true,
			dependsOn: ['location.value'],
		}),
		key: 'ContractInfo.TradeName',
		check: requiredTextUpTo(100),
		label: 'Trade',
	},
	{
		property: dynamicField({
			displayName: 'Category Name or ID',
			name: 'category',
			method: 'getCategories',
			what: 'Category of the job',
			required: true,
		}),
		key: 'Category',
		check: requiredTextUpTo(100),
		label: 'Category',
	},
	{
		property: dynamicField({
			displayName: 'Priority Name or ID',
			name: 'priority',
			method: 'getPriorities',
			what: 'Priority of the job',
			required: true,
		}),
		key: 'Priority',
		check: requiredTextUpTo(100),
		label: 'Priority',
	},
	{
		property: {
			displayName: 'Description',
			name: 'description',
			type: 'string',
			required: true,
			default: '',
			typeOptions: { rows: 4 },
			description: 'What the problem is',
		},
		key: 'Description',
		check: requiredTextUpTo(8000),
	},
	{
		property: {
			displayName: 'Problem Code',
			name: 'problemCode',
			type: 'string',
			required: true,
			default: '',
			placeholder: 'e.g. NO COOLING',
			description: "Issue code from the subscriber's issue list",
		},
		key: 'ProblemCode',
		check: requiredTextUpTo(100),
	},
	{
		property: {
			displayName: 'Call Date',
			name: 'callDate',
			type: 'dateTime',
			required: true,
			default: '',
			description:
				'When the request was made, e.g. <code>{{ $now }}</code>. Without an offset the service reads it as its own local time (US Eastern).',
		},
		key: 'CallDate',
		check: requiredDateTime,
	},
];

/** What a dispatcher often sets; empty fields are not sent. */
export const dispatchFields: FieldSpec[] = [
	{
		property: {
			displayName: 'Caller',
			name: 'callerName',
			type: 'string',
			default: '',
			description: 'Who asked for the work',
		},
		key: 'CallerName',
		check: textUpTo(100),
	},
	{
		property: nteProperty(
			'Not-to-exceed amount: the spending limit of the job. Needed unless the user may not set the NTE.',
		),
		key: 'Nte',
		check: numberBetween(0, MONEY_MAX),
	},
	{
		property: {
			displayName: 'Scheduled Date',
			name: 'scheduledDate',
			type: 'dateTime',
			default: '',
			description: 'When the provider should come: after the call date, before the expiry',
		},
		key: 'ScheduledDate',
		check: optionalDateTime,
	},
	{
		property: {
			displayName: 'Provider Name or ID',
			name: 'providerId',
			type: 'options',
			typeOptions: { loadOptionsMethod: 'getProviders', loadOptionsDependsOn: ['tradeName'] },
			default: '',
			allowArbitraryValues: true,
			description:
				'The service company: the providers of the chosen trade (one without a contract for the trade, or marked Do Not Dispatch, is refused). Leave empty to let the service choose it from the location and trade. Choose from the list, or specify an ID using an <a href="https://docs.n8n.io/code/expressions/">expression</a>.',
		},
		key: 'ContractInfo.ProviderId',
		check: optionalPositiveInteger,
		label: 'Provider',
	},
	{
		property: {
			displayName: 'PO Number',
			name: 'purchaseNumber',
			type: 'string',
			default: '',
			description: 'Purchase order number',
		},
		key: 'PurchaseNumber',
		check: textUpTo(100),
	},
];

const PRIMARY_STATUSES = ['Open', 'InProgress', 'Completed', 'Incomplete'] as const;

const id = (displayName: string, name: string, example: string, description: string) =>
	idField({ displayName, name, example, description });

/** Name/Value pairs of the subscriber's own fields (AdditionalFields). */
const nameValuePairs: Check<IDataObject[] | undefined> = (node, itemIndex, field, value) => {
	const rows = (value as IDataObject | undefined)?.values;
	if (rows === undefined || rows === null) return undefined;
	if (!Array.isArray(rows))
		throw invalid(node, itemIndex, field, 'must be a list of name and value pairs', value);
	const pairs = rows.map((row, k) => {
		const name = optionalText(
			node,
			itemIndex,
			{ name: `${field.name}[${k}].name`, label: `${field.label} name` },
			(row as IDataObject)?.name,
		);
		if (name === undefined)
			throw invalid(
				node,
				itemIndex,
				{ name: `${field.name}[${k}].name`, label: `${field.label} name` },
				'must not be empty',
				(row as IDataObject)?.name,
			);
		return { Name: name.trim(), Value: String((row as IDataObject)?.value ?? '') };
	});
	return pairs.length ? pairs : undefined;
};

const additionalFieldValues: INodeProperties = {
	displayName: 'Custom Fields',
	name: 'additionalFieldValues',
	type: 'fixedCollection',
	typeOptions: { multipleValues: true },
	default: {},
	placeholder: 'Add Custom Field',
	description: "The subscriber's own work order fields (AdditionalFields), by name",
	options: [
		{
			displayName: 'Field',
			name: 'values',
			values: [
				{ displayName: 'Name', name: 'name', type: 'string', default: '' },
				{ displayName: 'Value', name: 'value', type: 'string', default: '' },
			],
		},
	],
};

/** The rest of the reference's useful optional fields ("Additional Fields"). */
export const additionalFields: FieldSpec[] = [
	{
		property: id(
			'Subscriber ID',
			'subscriberId',
			'1001',
			'The client. Provider users must give it; subscriber users may leave it empty.',
		),
		key: 'ContractInfo.SubscriberId',
		check: optionalPositiveInteger,
	},
	{
		property: {
			displayName: 'Work Order Number',
			name: 'number',
			type: 'string',
			default: '',
			description: 'Your own number for the work order',
		},
		key: 'Number',
		check: textUpTo(100),
	},
	{
		property: {
			displayName: 'Comment',
			name: 'comment',
			type: 'string',
			default: '',
			typeOptions: { rows: 2 },
			description: 'Remarks on the work order',
		},
		key: 'Comment',
		check: optionalText,
	},
	{
		property: {
			displayName: 'Status',
			name: 'statusPrimary',
			type: 'options',
			default: 'Open',
			options: [
				{ name: 'Completed', value: 'Completed' },
				{ name: 'In Progress', value: 'InProgress' },
				{ name: 'Incomplete', value: 'Incomplete' },
				{ name: 'Open', value: 'Open' },
			],
			description: 'Primary status to create the work order in. Give the Extended Status with it.',
		},
		key: 'Status.Primary',
		check: optionalOneOf(PRIMARY_STATUSES),
	},
	{
		property: {
			displayName: 'Extended Status',
			name: 'statusExtended',
			type: 'string',
			default: '',
			placeholder: 'e.g. DISPATCH CONFIRMED',
			description: 'Extended status to create the work order in. Give the Status with it.',
		},
		key: 'Status.Extended',
		check: textUpTo(100),
	},
	{
		property: id('Currency ID', 'currencyId', '1', 'Currency of the amounts; 1 (USD) when empty'),
		key: 'CurrencyId',
		check: optionalPositiveInteger,
	},
	{
		property: id(
			'Category ID',
			'categoryId',
			'11',
			'ID of the category, for subscribers whose categories are told apart by ID',
		),
		key: 'CategoryId',
		check: optionalPositiveInteger,
	},
	{
		property: {
			displayName: 'Asset Name or ID',
			name: 'assetId',
			type: 'options',
			typeOptions: {
				loadOptionsMethod: 'getAssets',
				loadOptionsDependsOn: ['location.value', 'tradeName'],
			},
			default: '',
			allowArbitraryValues: true,
			description:
				'Equipment to repair (some issues demand it): the assets at the chosen location, of the chosen trade. Choose from the list, or specify an ID using an <a href="https://docs.n8n.io/code/expressions/">expression</a>.',
		},
		key: 'AssetId',
		check: optionalPositiveInteger,
		label: 'Asset',
	},
	{
		property: id(
			'Issue Area ID',
			'issueAreaId',
			'12',
			'Area of the issue list the problem was chosen from (IssueRequestInfo)',
		),
		key: 'IssueRequestInfo.AreaId',
		check: optionalPositiveInteger,
	},
	{
		property: {
			displayName: 'Expiration Date',
			name: 'expirationDate',
			type: 'dateTime',
			default: '',
			description: 'When the work order expires',
		},
		key: 'ExtendedInfo.ExpirationDate',
		check: optionalDateTime,
	},
	{
		property: {
			displayName: 'Completed Date',
			name: 'completedDate',
			type: 'dateTime',
			default: '',
			description: 'When the work was completed, for work orders recorded after the fact',
		},
		key: 'CompletedDate',
		check: optionalDateTime,
	},
	{
		property: {
			displayName: 'Approval Code',
			name: 'approvalCode',
			type: 'string',
			default: '',
			description: 'Approval code of the job',
		},
		key: 'ApprovalCode',
		check: textUpTo(100),
	},
	{
		property: {
			displayName: 'Proposed NTE',
			name: 'proposedNte',
			type: 'string',
			default: '',
			placeholder: 'e.g. 1200',
			description: 'NTE the requester proposes',
		},
		key: 'ProposedNte',
		check: numberBetween(0, MONEY_MAX),
	},
	{
		property: {
			displayName: 'Problem Source',
			name: 'problemSource',
			type: 'string',
			default: '',
			description: 'Where the problem was reported from',
		},
		key: 'ProblemSource',
		check: textUpTo(100),
	},
	{
		property: id(
			'Recall of Work Order ID',
			'recallWorkOrder',
			'90000004',
			'The work order this one recalls (the same problem came back)',
		),
		key: 'RecallWorkOrder',
		check: optionalPositiveInteger,
	},
	{
		property: id(
			'Follow-Up of Work Order ID',
			'followupWorkOrder',
			'90000004',
			'The work order this one follows up',
		),
		key: 'FollowupWorkOrder',
		check: optionalPositiveInteger,
	},
	{
		property: id('Label ID', 'labelId', '5', 'Label to put on the work order'),
		key: 'LabelId',
		check: optionalPositiveInteger,
	},
	{
		property: id('Project ID', 'projectId', '300', 'Project the work order belongs to'),
		key: 'ProjectId',
		check: optionalPositiveInteger,
	},
	{
		property: id(
			'Weather Type ID',
			'weatherTypeId',
			'2',
			'Weather event the work order is caused by',
		),
		key: 'WeatherTypeId',
		check: optionalPositiveInteger,
	},
	{
		property: {
			displayName: 'Notify Provider',
			name: 'notifyProvider',
			type: 'boolean',
			default: true,
			description: 'Whether the provider is notified of the new work order',
		},
		key: 'NotifyProvider',
		check: optionalBoolean,
	},
	{
		property: {
			displayName: 'Ignore Attachments Required',
			name: 'ignoreAttachmentsRequiredFlag',
			type: 'boolean',
			default: false,
			description:
				'Whether to create the work order although its issue asks for an attachment (add the file with Add Attachment afterwards)',
		},
		key: 'IgnoreAttachmentsRequiredFlag',
		check: optionalBoolean,
	},
	{
		property: additionalFieldValues,
		key: 'AdditionalFields',
		check: nameValuePairs,
		label: 'Custom Fields',
	},
];
