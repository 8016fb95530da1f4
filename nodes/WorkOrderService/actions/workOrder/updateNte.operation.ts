import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { emailField, idField, workOrderIdField } from '../../helpers/fields';
import {
	collectionOf,
	fieldOf,
	invalid,
	numberBetween,
	optionalPositiveInteger,
	readFields,
	textUpTo,
	type Check,
	type FieldSpec,
} from '../../helpers/validation';
import { readWorkOrderId } from '../../helpers/params';
import { writeAnswer } from '../../helpers/writeAnswer';
import type { WorkOrderServiceClient } from '../../transport/client';

import { MONEY_MAX, actorField, nest, nteProperty } from './writeFields';
import type { OperationMeta } from '../operation';

export const meta: OperationMeta = { verb: 'updated', safeToRepeat: true };

const amount = numberBetween(0, MONEY_MAX);

/** The NTE as the reference sends it: text (ChangeWoNteRequest.Value is a string). */
const amountText: Check<string | undefined> = (node, itemIndex, field, value) => {
	const n = amount(node, itemIndex, field, value);
	return n === undefined ? undefined : String(n);
};

const nteField: FieldSpec = {
	property: nteProperty(
		'The new not-to-exceed amount. Leave empty to have the service derive it from Price and taxes (Additional Fields).',
	),
	key: 'Value',
	check: amountText,
};

/** ChangeWoNteRequest.Details.<name> (a dot nests). */
const details = (name: string) => `Details.${name}`;

const money = (displayName: string, name: string, key: string, description: string): FieldSpec => ({
	property: {
		displayName,
		name,
		type: 'string',
		default: '',
		placeholder: 'e.g. 100',
		description,
	},
	key,
	check: amount,
});

const additionalFields: FieldSpec[] = [
	money(
		'Price',
		'price',
		details('Price'),
		'Price before taxes, when the NTE is made of price and taxes',
	),
	money('Tax', 'tax', details('Tax'), 'Tax amount'),
	money('Tax 2', 'tax2', details('Tax2'), 'Second tax amount'),
	{
		property: {
			displayName: 'Tax 2 Type',
			name: 'tax2Type',
			type: 'string',
			default: '',
			description: 'Kind of the second tax',
		},
		key: details('Tax2Type'),
		check: textUpTo(50),
	},
	{
		property: idField({
			displayName: 'Currency ID',
			name: 'currencyId',
			example: '1',
			description: "Currency of the amount; the work order's when empty",
		}),
		key: 'CurrencyId',
		check: optionalPositiveInteger,
	},
	emailField(
		'Provider Email',
		'providerEmail',
		'ProviderEmail',
		'Provider e-mail address to notify of the change',
	),
	actorField,
];

export const description = updateDisplayOptions(
	{ show: { resource: ['workOrder'], operation: ['updateNte'] } },
	[workOrderIdField, nteField.property, collectionOf('additionalFields', additionalFields)],
);

/** PUT /workorders/{id}/nte (ChangeWoNteRequest: Value and/or Details), answered `{ id }`. */
export async function execute(
	this: IExecuteFunctions,
	i: number,
	client: WorkOrderServiceClient,
): Promise<IDataObject[]> {
	const workOrderId = readWorkOrderId(this, i);
	const { Value } = readFields(this, i, [nteField]).body;
	const more = readFields(this, i, additionalFields, 'additionalFields').body;
	if (Value === undefined && more[details('Price')] === undefined) {
		throw invalid(
			this.getNode(),
			i,
			fieldOf(nteField.property),
			'must be given (or Price in Additional Fields)',
			Value,
		);
	}
	const body = nest({ ...(Value === undefined ? {} : { Value }), ...more });
	const response = await client.send({
		method: 'PUT',
		path: `/workorders/${workOrderId}/nte`,
		body,
		itemIndex: i,
	});
	return [
		writeAnswer(
			'updateNte',
			{ workOrderId, ...(Value === undefined ? {} : { nte: Number(Value) }) },
			response,
		),
	];
}
