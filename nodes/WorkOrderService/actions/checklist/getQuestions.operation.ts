import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { questionItem, questionsOf } from '../../helpers/checklists';
import { idField, textField, workOrderIdField } from '../../helpers/fields';
import {
	collectionOf,
	fieldOf,
	invalid,
	optionalPositiveInteger,
	readFields,
	textUpTo,
	type FieldSpec,
} from '../../helpers/validation';
import { WORK_ORDER_ID } from '../../helpers/params';
import { simplifyProperty } from '../../helpers/simplify';
import type { WorkOrderServiceClient } from '../../transport/client';

import { readChecklists } from '../../methods/checklists';
import type { OperationMeta } from '../operation';

export const meta: OperationMeta = { safeToRepeat: true };

const workOrderProperty: INodeProperties = {
	...workOrderIdField,
	required: false,
	description:
		'The work order whose checklist to read. Leave empty to find checklists by the filters only.',
};

const id = (displayName: string, name: string, example: string, description: string) =>
	idField({ displayName, name, example, description });
const text = (displayName: string, name: string, example: string, description: string) =>
	textField({ displayName, name, example, description });

/** Filters of GET /checklists/detail; of each pair (ID or name) one may be given. */
const filters: FieldSpec[] = [
	{
		property: id('Trade ID', 'tradeId', '1', 'Checklists of this trade (give the ID or the name)'),
		key: 'tradeid',
		in: 'query',
		check: optionalPositiveInteger,
	},
	{
		property: text(
			'Trade',
			'tradeName',
			'HVAC',
			'Checklists of this trade (give the ID or the name)',
		),
		key: 'tradeName',
		in: 'query',
		check: textUpTo(100),
	},
	{
		property: id(
			'Category ID',
			'categoryId',
			'12',
			'Checklists of this category (give the ID or the name)',
		),
		key: 'categoryid',
		in: 'query',
		check: optionalPositiveInteger,
	},
	{
		property: text(
			'Category Name',
			'categoryName',
			'PREVENTIVE MAINTENANCE',
			'Checklists of this category (give the ID or the name)',
		),
		key: 'categoryName',
		in: 'query',
		check: textUpTo(100),
	},
	{
		property: id(
			'Checklist ID',
			'checklistId',
			'801',
			'One checklist; the other filters are then ignored',
		),
		key: 'checklistid',
		in: 'query',
		check: optionalPositiveInteger,
	},
	{
		property: text(
			'Checklist Name',
			'checklistName',
			'HVAC PREVENTIVE MAINTENANCE',
			'One checklist by its name; the other filters are then ignored',
		),
		key: 'checkListName',
		in: 'query',
		check: textUpTo(200),
	},
	{
		property: id(
			'Location',
			'locationId',
			'501',
			'Checklists of a location, where checklists are set per location (give the ID or the store number)',
		),
		key: 'locationId',
		in: 'query',
		check: optionalPositiveInteger,
	},
	{
		property: text('Store ID', 'storeId', 'S501', 'Checklists of a location by its store number'),
		key: 'storeId',
		in: 'query',
		check: textUpTo(100),
	},
	{
		property: id(
			'Subscriber ID',
			'subscriberId',
			'1001',
			'Whose checklists: provider users must give it (read from the work order when empty)',
		),
		key: 'subscriberId',
		in: 'query',
		check: optionalPositiveInteger,
	},
];

const PAIRS: Array<[string, string]> = [
	['tradeid', 'tradeName'],
	['categoryid', 'categoryName'],
	['checklistid', 'checkListName'],
	['locationId', 'storeId'],
];

export const description = updateDisplayOptions(
	{ show: { resource: ['checklist'], operation: ['getQuestions'] } },
	[
		workOrderProperty,
		{
			...simplifyProperty,
			displayOptions: undefined,
			hint: 'On: one item per question with its type, picture rule and options. Off: the checklists as the service sends them.',
		},
		collectionOf('options', filters),
	],
);

/** The work order of item i, if one is given (a number or a string of digits, or a From List / By ID value). */
function optionalWorkOrderId(ctx: IExecuteFunctions, i: number): number | undefined {
	let value: unknown = ctx.getNodeParameter(WORK_ORDER_ID.name, i, undefined, {
		extractValue: true,
	});
	if (value !== null && typeof value === 'object' && 'value' in value)
		value = (value as { value: unknown }).value;
	return optionalPositiveInteger(ctx.getNode(), i, WORK_ORDER_ID, value);
}

/** GET /checklists/detail: the questions (types, picture rule, options) of the work order's checklist or of the filtered checklists. */
export async function execute(
	this: IExecuteFunctions,
	i: number,
	client: WorkOrderServiceClient,
): Promise<IDataObject[]> {
	const workOrderId = optionalWorkOrderId(this, i);
	const { qs } = readFields(this, i, filters, 'options');
	for (const [a, b] of PAIRS) {
		if (qs[a] === undefined || qs[b] === undefined) continue;
		const spec = filters.find((f) => f.key === b) as FieldSpec;
		throw invalid(
			this.getNode(),
			i,
			fieldOf(spec.property, 'options'),
			`give either it or the ${filters.find((f) => f.key === a)?.property.displayName}, not both`,
			qs[b],
		);
	}
	const contractor = this.getNodeParameter('authentication', i, 'password') === 'contractor';
	const checklists = await readChecklists(this, client, qs, {
		workOrderId,
		contractor,
		itemIndex: i,
	});
	if (this.getNodeParameter(simplifyProperty.name, i, true) === false) return checklists;
	return questionsOf(checklists).map((q) =>
		questionItem(q, workOrderId === undefined ? {} : { workOrderId }),
	);
}
