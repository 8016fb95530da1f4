import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';
import { NodeApiError, updateDisplayOptions } from 'n8n-workflow';

import { SERVICE_TIME_ZONE, serviceDateTime, withOffsetIn } from '../../helpers/dateTime';
import { workOrderIdField } from '../../helpers/fields';
import { readWorkOrderId } from '../../helpers/params';
import { meaningOf, withHint } from '../../helpers/errorMeaning';
import {
	fieldOf,
	invalid,
	optionalNumber,
	optionalText,
	requiredText,
	type Field,
} from '../../helpers/validation';
import { writeAnswer } from '../../helpers/writeAnswer';
import type { WorkOrderServiceClient } from '../../transport/client';
import type { OperationMeta } from '../operation';

import { instantOrNow } from './fields';

/**
 * Create (the contractor side): POST /invoices with part C's `CreateInvoiceRequest`:
 * `InvoiceNumber` and `WoIdentifier` (the work order's ID) required; `InvoiceDate` (US Eastern
 * local time, the service's plain dates) and `InvoiceDateDTO` (the same instant with its offset);
 * the line items `Labors` (`HourlyRate`, `Hours`, `Amount`), `Materials` (`Description`, `PartNum`,
 * `Quantity`, `UnitPrice`, `Amount`), `Travels` (`Description`, `Quantity`, `UnitPrice`, `Amount`),
 * `Others` (`Description`, `Amount`); `InvoiceAmountsDetails` (the sums per kind), `InvoiceTax`,
 * `InvoiceTotal` (the amounts plus the tax), `InvoiceText`, `Terms`. A provider user's credential
 * (Contractor (JWT)) posts invoices; the service refuses a subscriber user. Answered 201, maybe with
 * the new ID.
 */

export const meta: OperationMeta = { verb: 'created', safeToRepeat: false };

/** The values several kinds of line item have. */
const descriptionValue: INodeProperties = {
	displayName: 'Description',
	name: 'description',
	type: 'string',
	default: '',
};
const quantityValue: INodeProperties = {
	displayName: 'Quantity',
	name: 'quantity',
	type: 'number',
	default: 1,
	typeOptions: { minValue: 0 },
};
const unitPriceValue: INodeProperties = {
	displayName: 'Unit Price',
	name: 'unitPrice',
	type: 'number',
	default: 0,
	typeOptions: { minValue: 0, numberPrecision: 2 },
};

const lineItems: INodeProperties = {
	displayName: 'Line Items',
	name: 'lineItems',
	type: 'fixedCollection',
	typeOptions: { multipleValues: true },
	placeholder: 'Add Line Item',
	default: {},
	description: 'What the invoice charges: labor, materials, travel and other charges',
	options: [
		{
			displayName: 'Labor',
			name: 'labor',
			values: [
				{
					displayName: 'Hourly Rate',
					name: 'hourlyRate',
					type: 'number',
					default: 0,
					typeOptions: { minValue: 0, numberPrecision: 2 },
				},
				{
					displayName: 'Hours',
					name: 'hours',
					type: 'number',
					default: 0,
					typeOptions: { minValue: 0, numberPrecision: 2 },
				},
			],
		},
		{
			displayName: 'Material',
			name: 'material',
			values: [
				descriptionValue,
				{ displayName: 'Part Number', name: 'partNumber', type: 'string', default: '' },
				quantityValue,
				unitPriceValue,
			],
		},
		{
			displayName: 'Travel',
			name: 'travel',
			values: [descriptionValue, quantityValue, unitPriceValue],
		},
		{
			displayName: 'Other',
			name: 'other',
			values: [
				descriptionValue,
				{
					displayName: 'Amount',
					name: 'amount',
					type: 'number',
					default: 0,
					typeOptions: { numberPrecision: 2 },
				},
			],
		},
	],
};

const properties: INodeProperties[] = [
	{
		displayName: 'Invoice Number',
		name: 'invoiceNumber',
		type: 'string',
		default: '',
		required: true,
		placeholder: 'e.g. ACME-10442',
		description: "Your invoice's number (unique among your invoices)",
	},
	{ ...workOrderIdField, description: 'The work order the invoice bills' },
	{
		displayName: 'Invoice Date',
		name: 'invoiceDate',
		type: 'dateTime',
		default: '',
		description:
			"The invoice's date. Empty: the time of the run. Without an offset it is read in the workflow's time zone.",
	},
	lineItems,
	{
		displayName: 'Tax',
		name: 'tax',
		type: 'number',
		default: 0,
		typeOptions: { minValue: 0, numberPrecision: 2 },
		description: 'The sales tax amount (InvoiceTax), added to the line items for the total',
	},
	{
		displayName: 'Additional Fields',
		name: 'additionalFields',
		type: 'collection',
		placeholder: 'Add Field',
		default: {},
		options: [
			{
				displayName: 'Description',
				name: 'invoiceText',
				type: 'string',
				default: '',
				typeOptions: { rows: 2 },
				description: 'What was done (InvoiceText)',
			},
			{
				displayName: 'Tax Rate (%)',
				name: 'taxRate',
				type: 'number',
				default: 0,
				typeOptions: { minValue: 0, maxValue: 100, numberPrecision: 3 },
				description: 'The tax rate applied, in percent (PostedTaxRate)',
			},
			{
				displayName: 'Terms',
				name: 'terms',
				type: 'string',
				default: '',
				placeholder: 'e.g. Net 30',
				description: 'Payment terms',
			},
		],
	},
];

export const description = updateDisplayOptions(
	{ show: { resource: ['invoice'], operation: ['create'] } },
	properties,
);

const round2 = (n: number) => Math.round(n * 100) / 100;

function field(name: string, label?: string): Field {
	return { name, label: label ?? properties.find((p) => p.name === name)?.displayName ?? name };
}

/** A parameter of Additional Fields, as errors name it. */
const extraField = (name: string, displayName: string) =>
	fieldOf({ name, displayName } as INodeProperties, 'additionalFields');

/** The request of item i, checked before any request. */
function readRequest(ctx: IExecuteFunctions, i: number): IDataObject {
	const node = ctx.getNode();
	const number = requiredText(
		node,
		i,
		field('invoiceNumber'),
		ctx.getNodeParameter('invoiceNumber', i, ''),
		50,
	).trim();
	const workOrderId = readWorkOrderId(ctx, i);
	const ms = instantOrNow(ctx, i, field('invoiceDate'));
	const amount = (name: string, label: string, value: unknown, min = 0) =>
		optionalNumber(node, i, field(name, label), value, { min, max: 1e9 }) ?? 0;
	const lines = (ctx.getNodeParameter('lineItems', i, {}) ?? {}) as IDataObject;
	const list = (key: string) => (Array.isArray(lines[key]) ? (lines[key] as IDataObject[]) : []);
	const Labors = list('labor').map((l, k) => {
		const rate = amount(
			`lineItems.labor[${k}].hourlyRate`,
			`Labor ${k + 1} Hourly Rate`,
			l.hourlyRate,
		);
		const hours = amount(`lineItems.labor[${k}].hours`, `Labor ${k + 1} Hours`, l.hours);
		return { HourlyRate: rate, Hours: hours, Amount: round2(rate * hours) };
	});
	/** Line k of a kind with its Description, when one is given. */
	const described = (
		key: string,
		kind: string,
		line: IDataObject,
		k: number,
		item: IDataObject,
	) => {
		const text = optionalText(
			node,
			i,
			field(`lineItems.${key}[${k}].description`, `${kind} ${k + 1} Description`),
			line.description,
			500,
		);
		if (text !== undefined) item.Description = text;
		return item;
	};
	/** Line k of a kind priced by Quantity × Unit Price (materials, travel), with its Description. */
	const priced = (key: string, kind: string, line: IDataObject, k: number) => {
		const quantity = amount(
			`lineItems.${key}[${k}].quantity`,
			`${kind} ${k + 1} Quantity`,
			line.quantity,
		);
		const price = amount(
			`lineItems.${key}[${k}].unitPrice`,
			`${kind} ${k + 1} Unit Price`,
			line.unitPrice,
		);
		const item: IDataObject = {
			Quantity: quantity,
			UnitPrice: price,
			Amount: round2(quantity * price),
		};
		return described(key, kind, line, k, item);
	};
	const Materials = list('material').map((m, k) => {
		const item = priced('material', 'Material', m, k);
		const part = optionalText(
			node,
			i,
			field(`lineItems.material[${k}].partNumber`, `Material ${k + 1} Part Number`),
			m.partNumber,
			100,
		);
		if (part !== undefined) item.PartNum = part;
		return item;
	});
	const Travels = list('travel').map((t, k) => priced('travel', 'Travel', t, k));
	const Others = list('other').map((o, k) =>
		described('other', 'Other', o, k, {
			Amount: round2(
				amount(`lineItems.other[${k}].amount`, `Other ${k + 1} Amount`, o.amount, -1e9),
			),
		}),
	);
	if (Labors.length + Materials.length + Travels.length + Others.length === 0)
		throw invalid(
			node,
			i,
			field('lineItems'),
			'must hold at least one labor, material, travel or other line',
			lines,
		);
	const sum = (items: IDataObject[]) => round2(items.reduce((s, x) => s + Number(x.Amount), 0));
	const details = {
		LaborAmount: sum(Labors),
		MaterialAmount: sum(Materials),
		TravelAmount: sum(Travels),
		FreightAmount: 0,
		OtherAmount: sum(Others),
	};
	const tax = round2(amount('tax', 'Tax', ctx.getNodeParameter('tax', i, 0)));
	const total = round2(
		details.LaborAmount + details.MaterialAmount + details.TravelAmount + details.OtherAmount + tax,
	);
	const extra = (ctx.getNodeParameter('additionalFields', i, {}) ?? {}) as IDataObject;
	const request: IDataObject = {
		InvoiceNumber: number,
		WoIdentifier: String(workOrderId),
		InvoiceDate: withOffsetIn(ms, SERVICE_TIME_ZONE).slice(0, 23),
		InvoiceDateDTO: serviceDateTime(ms),
		InvoiceTax: tax,
		InvoiceTotal: total,
		InvoiceAmountsDetails: details,
	};
	if (Labors.length) request.Labors = Labors;
	if (Materials.length) request.Materials = Materials;
	if (Travels.length) request.Travels = Travels;
	if (Others.length) request.Others = Others;
	const text = optionalText(
		node,
		i,
		extraField('invoiceText', 'Description'),
		extra.invoiceText,
		4000,
	);
	if (text !== undefined) request.InvoiceText = text;
	const terms = optionalText(node, i, extraField('terms', 'Terms'), extra.terms, 100);
	if (terms !== undefined) request.Terms = terms;
	const rate = optionalNumber(node, i, extraField('taxRate', 'Tax Rate (%)'), extra.taxRate, {
		min: 0,
		max: 100,
	});
	if (rate !== undefined && rate > 0) request.PostedTaxRate = rate;
	return request;
}

/** A 400 the service answered to a create, worded to stand on its own; other errors pass unchanged. */
function refusedCreate(error: unknown, request: IDataObject, workOrderId: number): unknown {
	const said = meaningOf(error);
	if (!(error instanceof NodeApiError) || error.httpCode !== '400' || said === undefined)
		return error;
	error.message = `The Work Order Service refused to create invoice ${String(request.InvoiceNumber)} for work order ${workOrderId} (400 Bad Request)${said.words ? `: ${said.words}` : ''}${said.code !== undefined ? ` (error code ${said.code})` : ''}`;
	const what =
		said.code === 'NotAllowed'
			? 'Invoices are posted by the provider: use a Contractor (JWT) credential (Authentication: Contractor (JWT)).'
			: "Correct what the service's reason names (the work order must be one of your provider's, the invoice number new, the total the sum of the lines and the tax).";
	error.description = `Nothing was created. ${what}`;
	withHint(error, `Nothing was created. ${what} Do not call again with the same values.`);
	return error;
}

/** POST /invoices: 201 becomes `{ success, operation: 'create', workOrderId, invoiceNumber, invoiceTotal, id? }`. */
export async function execute(
	this: IExecuteFunctions,
	i: number,
	client: WorkOrderServiceClient,
): Promise<IDataObject[]> {
	const request = readRequest(this, i);
	const workOrderId = Number(request.WoIdentifier);
	let response;
	try {
		response = await client.send({
			method: 'POST',
			path: '/invoices',
			body: request,
			itemIndex: i,
		});
	} catch (error) {
		throw refusedCreate(error, request, workOrderId);
	}
	// what the user passed (and the total the node computed from it), then the answer: the new ID as `id`
	const passed = {
		workOrderId,
		invoiceNumber: request.InvoiceNumber as string,
		invoiceTotal: request.InvoiceTotal as number,
	};
	return [writeAnswer('create', passed, response)];
}
