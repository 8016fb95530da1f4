import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';
import { NodeApiError, NodeOperationError, updateDisplayOptions } from 'n8n-workflow';

import { serviceDateTime } from '../../helpers/dateTime';
import { workOrderIdField } from '../../helpers/fields';
import { readWorkOrderId } from '../../helpers/params';
import { meaningOf, withHint } from '../../helpers/errorMeaning';
import {
	fieldOf,
	invalid,
	optionalBoolean,
	optionalNumber,
	readLocatorId,
	requiredText,
} from '../../helpers/validation';
import { isRecord } from '../../helpers/values';
import { writeAnswer } from '../../helpers/writeAnswer';
import type { WorkOrderServiceClient } from '../../transport/client';
import { ODATA_LIST, readList } from '../../transport/paging';
import type { OperationMeta } from '../operation';

import { INVOICE_ID, MAX_DAYS, instantOrNow, invoiceIdProperty } from './fields';

/**
 * Record Payment (service-reference-c.md "Payments"): payments are recorded only for Approved
 * invoices, with `InvoicePaymentRequest` (`PaymentDate`, `PaymentNumber`, `PaymentAmount`):
 *
 * - One Invoice: POST /invoices/{invoiceId}/Payment (204);
 * - A Work Order's Invoice: POST /invoices/Workorders/{trackingNumber}/Payment (204);
 * - Many Invoices at Once: every item of the execution in this mode is collected and sent through
 *   POST /invoices/Payments, BATCH_SIZE payments a request (201 with one `AddInvoicePaymentResponse`
 *   per payment: `PaymentId`, or `Error` when the service refused that one). Each input item gets
 *   one output item: recorded (the payment's ID), already recorded, or refused (the service's
 *   reason). Bulk needs an administrator role and the account's feature switch (403 otherwise).
 *
 * Nothing is recorded twice: before sending, the invoices' recorded payments are read and a payment
 * whose number the invoice already has is reported as already recorded instead of being sent
 * (Skip Payments Already Recorded, on by default). So a batch cut short (a failed request, a
 * stopped execution) is re-run as it is: what was recorded is skipped, the rest is sent. A POST is
 * never sent twice by the transport once it may have reached the service.
 */

/** Payments per bulk request: at least 100, within what the service takes in one request. */
export const BATCH_SIZE = 100;
/** Invoices read per request when checking what is already recorded (one page of 50 at most). */
const CHECK_CHUNK = 50;
const DAY_MS = 86_400_000;

type PaymentFor = 'invoice' | 'workOrder' | 'batch';

const paymentFields: INodeProperties[] = [
	{
		displayName: 'Payment Number',
		name: 'paymentNumber',
		type: 'string',
		default: '',
		required: true,
		placeholder: 'e.g. CHK-10442',
		description:
			'Your reference of the payment (check or transfer number). A payment whose number the invoice already has is not sent again.',
	},
	{
		displayName: 'Payment Amount',
		name: 'paymentAmount',
		type: 'number',
		default: 0,
		required: true,
		typeOptions: { minValue: 0, numberPrecision: 2 },
		description: "The amount paid: above 0 and not more than the invoice's balance",
	},
	{
		displayName: 'Payment Date',
		name: 'paymentDate',
		type: 'dateTime',
		default: '',
		description:
			"When it was paid. Empty: the time of the run. Without an offset the date is read in the workflow's time zone.",
	},
];

export const meta: OperationMeta = { verb: 'recorded', safeToRepeat: false };

export const description = updateDisplayOptions(
	{ show: { resource: ['invoice'], operation: ['recordPayment'] } },
	[
		{
			displayName: 'Payment For',
			name: 'paymentFor',
			type: 'options',
			default: 'invoice',
			options: [
				{
					name: 'One Invoice',
					value: 'invoice',
					description: 'POST /invoices/{invoiceId}/Payment, one request per item',
				},
				{
					name: "A Work Order's Invoice",
					value: 'workOrder',
					description:
						'POST /invoices/Workorders/{trackingNumber}/Payment: the approved invoice of the work order',
				},
				{
					name: 'Many Invoices at Once (Bulk)',
					value: 'batch',
					description: `Every item of the run in one POST /invoices/Payments per ${BATCH_SIZE} payments; each item says recorded or refused. Needs an administrator role and the account's bulk-payment feature.`,
				},
			],
			description: 'Which invoice the payment is for, and how it is sent',
		},
		{ ...invoiceIdProperty, displayOptions: { show: { paymentFor: ['invoice', 'batch'] } } },
		{
			...workOrderIdField,
			description: 'The work order whose approved invoice is paid (its tracking number)',
			displayOptions: { show: { paymentFor: ['workOrder'] } },
		},
		...paymentFields,
		{
			displayName: 'Options',
			name: 'options',
			type: 'collection',
			placeholder: 'Add Option',
			default: {},
			options: [
				{
					displayName: 'Skip Payments Already Recorded',
					name: 'skipRecorded',
					type: 'boolean',
					default: true,
					description:
						"Whether to read the invoices' recorded payments first and not send a payment whose number the invoice already has (a re-run then records nothing twice). Off: one request less per item, or per 50 invoices in bulk.",
				},
			],
		},
	],
);

interface Payment {
	paymentFor: PaymentFor;
	invoiceId?: number;
	workOrderId?: number;
	number: string;
	amount: number;
	date: string;
	skipRecorded: boolean;
}

/** Reads and checks item i's payment, before any request. */
function readPayment(ctx: IExecuteFunctions, i: number): Payment {
	const node = ctx.getNode();
	const paymentFor = ctx.getNodeParameter('paymentFor', i, 'invoice') as PaymentFor;
	if (!['invoice', 'workOrder', 'batch'].includes(paymentFor))
		throw invalid(
			node,
			i,
			{ name: 'paymentFor', label: 'Payment For' },
			'must be invoice, workOrder or batch',
			paymentFor,
		);
	const field = (name: string) =>
		fieldOf(paymentFields.find((f) => f.name === name) as INodeProperties);
	const number = requiredText(
		node,
		i,
		field('paymentNumber'),
		ctx.getNodeParameter('paymentNumber', i, ''),
		100,
	).trim();
	const rawAmount = ctx.getNodeParameter('paymentAmount', i, undefined);
	const amount = optionalNumber(node, i, field('paymentAmount'), rawAmount, {
		min: -1e12,
		max: 1e12,
	});
	if (amount === undefined || amount <= 0)
		throw invalid(node, i, field('paymentAmount'), 'must be a number above 0', rawAmount);
	if (Math.abs(Math.round(amount * 100) - amount * 100) > 1e-6)
		throw invalid(
			node,
			i,
			field('paymentAmount'),
			'must have at most 2 decimals (cents)',
			rawAmount,
		);
	const ms = instantOrNow(ctx, i, field('paymentDate'));
	const options = (ctx.getNodeParameter('options', i, {}) ?? {}) as IDataObject;
	const skipRecorded =
		optionalBoolean(
			node,
			i,
			{ name: 'options.skipRecorded', label: 'Skip Payments Already Recorded' },
			options.skipRecorded,
		) ?? true;
	const payment: Payment = { paymentFor, number, amount, date: serviceDateTime(ms), skipRecorded };
	if (paymentFor === 'workOrder') payment.workOrderId = readWorkOrderId(ctx, i);
	else payment.invoiceId = readLocatorId(ctx, i, INVOICE_ID);
	return payment;
}

/** The output item of a payment: what was passed, and what became of it. */
function paymentItem(p: Payment, result: string, extra: IDataObject): IDataObject {
	const passed: IDataObject = {
		...(p.invoiceId !== undefined ? { invoiceId: p.invoiceId } : {}),
		...(p.workOrderId !== undefined ? { workOrderId: p.workOrderId } : {}),
		paymentNumber: p.number,
		paymentAmount: p.amount,
		paymentDate: p.date,
		result,
	};
	return { success: result !== 'refused', operation: 'recordPayment', ...passed, ...extra };
}

/** The recorded payment of `number` on an invoice record, if any. */
function recordedPayment(
	invoice: IDataObject | undefined,
	number: string,
): IDataObject | undefined {
	const payments = invoice && Array.isArray(invoice.Payments) ? invoice.Payments : [];
	return (payments as unknown[]).find(
		(p): p is IDataObject =>
			isRecord(p) && typeof p.PaymentNumber === 'string' && p.PaymentNumber.trim() === number,
	);
}

/** A PostedDate bound the service accepts (a little inside its 365 days): without it only 90 days are searched. */
function postedBound(): string {
	return serviceDateTime(Date.now() - MAX_DAYS * DAY_MS + 3_600_000);
}

/** The invoices (Id, Status, balance, payments) of the given IDs, read CHECK_CHUNK at a time. */
async function readInvoices(
	ctx: IExecuteFunctions,
	client: WorkOrderServiceClient,
	ids: number[],
	itemIndex: number,
): Promise<Map<number, IDataObject>> {
	const found = new Map<number, IDataObject>();
	for (let k = 0; k < ids.length; k += CHECK_CHUNK) {
		const chunk = ids.slice(k, k + CHECK_CHUNK);
		const records = await readList(ctx, client, ODATA_LIST, {
			path: '/odata/invoices',
			qs: {
				$filter: `(${chunk.map((id) => `Id eq ${id}`).join(' or ')}) and PostedDate ge ${postedBound()}`,
				$select: 'Id,Number,Status,InvoiceBalance,Payments',
			},
			itemIndex,
		});
		for (const r of records) if (Number.isInteger(Number(r.Id))) found.set(Number(r.Id), r);
	}
	return found;
}

/** A refusal of one payment (single requests), worded like the moves'. */
function refusedPayment(error: unknown, p: Payment): unknown {
	const said = meaningOf(error);
	if (!(error instanceof NodeApiError) || said === undefined) return error;
	const status = error.httpCode;
	if (status !== '400' && status !== '403') return error;
	const { words, code } = said;
	const target =
		p.invoiceId !== undefined
			? `invoice ${p.invoiceId}`
			: `the invoice of work order ${p.workOrderId}`;
	error.message = `The Work Order Service refused to record payment ${p.number} for ${target} (${status === '403' ? '403 Forbidden' : '400 Bad Request'})${words ? `: ${words}` : ''}${code !== undefined ? ` (error code ${code})` : ''}`;
	error.description =
		status === '403'
			? "Nothing was recorded. Payments are recorded by subscriber users with the right to do so: use such a user's credential."
			: "Nothing was recorded. Payments are recorded only for Approved invoices, with a payment number and an amount above 0 and within the invoice's balance: correct the payment, or approve the invoice first.";
	withHint(
		error,
		"Nothing was recorded. Calling again with the same values will be refused again: tell the user the service's reason (payments only for approved invoices, within the balance).",
	);
	return error;
}

/** One payment for one invoice, or for a work order's invoice (one request, after the check). */
async function recordOne(
	ctx: IExecuteFunctions,
	client: WorkOrderServiceClient,
	i: number,
	p: Payment,
): Promise<IDataObject[]> {
	if (p.skipRecorded) {
		const invoices =
			p.invoiceId !== undefined
				? await readInvoices(ctx, client, [p.invoiceId], i)
				: new Map(
						(
							await readList(ctx, client, ODATA_LIST, {
								path: '/odata/invoices',
								qs: {
									$filter: `WoTrackingNumber eq ${p.workOrderId} and PostedDate ge ${postedBound()}`,
									$select: 'Id,Number,Status,InvoiceBalance,Payments',
								},
								itemIndex: i,
							})
						).map((r) => [Number(r.Id), r]),
					);
		for (const invoice of invoices.values()) {
			const done = recordedPayment(invoice, p.number);
			if (done)
				return [
					paymentItem(p, 'alreadyRecorded', {
						...(p.invoiceId === undefined ? { invoiceId: invoice.Id } : {}),
						paymentId: done.Id ?? null,
					}),
				];
		}
	}
	const path =
		p.invoiceId !== undefined
			? `/invoices/${p.invoiceId}/Payment`
			: `/invoices/Workorders/${p.workOrderId}/Payment`;
	let response;
	try {
		response = await client.send({
			method: 'POST',
			path,
			body: { PaymentDate: p.date, PaymentNumber: p.number, PaymentAmount: p.amount },
			itemIndex: i,
		});
	} catch (error) {
		throw refusedPayment(error, p);
	}
	const answer = writeAnswer('recordPayment', {}, response);
	const item = paymentItem(p, 'recorded', {});
	for (const [k, v] of Object.entries(answer)) if (!(k in item)) item[k] = v;
	return [item];
}

/* ---------------------------------------------------------------- many at once */

type Outcome = IDataObject | Error;

function isBatchItem(ctx: IExecuteFunctions, k: number): boolean {
	try {
		return (
			ctx.getNodeParameter('resource', k) === 'invoice' &&
			ctx.getNodeParameter('operation', k) === 'recordPayment' &&
			ctx.getNodeParameter('paymentFor', k, 'invoice') === 'batch'
		);
	} catch {
		return false;
	}
}

/** The same failure for one item of a batch: its own error, naming the item. */
function batchFailure(
	ctx: IExecuteFunctions,
	k: number,
	p: Payment,
	cause: unknown,
	maybe: boolean,
): Error {
	const said = meaningOf(cause);
	const status = cause instanceof NodeApiError ? cause.httpCode : undefined;
	const what = `payment ${p.number} for invoice ${p.invoiceId}`;
	let message: string;
	let description: string;
	if (status === '403') {
		message = `The Work Order Service refused the bulk payment request with ${what} (403 Forbidden)${said?.words ? `: ${said.words}` : ''}${said?.code !== undefined ? ` (error code ${said.code})` : ''}`;
		description =
			"Nothing was recorded. Bulk payments need an administrator role and the account's bulk-payment feature: ask the service's administrator, or set Payment For to One Invoice (one request per payment).";
	} else if (maybe) {
		message = `The bulk payment request with ${what} got no answer or a server error after it was sent: the payment may have been recorded (${(cause as Error).message})`;
		description =
			'Run the workflow again as it is: payments already recorded are found and skipped (Skip Payments Already Recorded), the others are sent. It was not sent again automatically, so nothing is recorded twice.';
	} else if (cause === undefined) {
		message = `Payment ${p.number} for invoice ${p.invoiceId} was not sent: an earlier bulk request of this run failed`;
		description =
			'Run the workflow again as it is: payments already recorded are found and skipped, the others are sent.';
	} else {
		message = `The bulk payment request with ${what} failed: ${(cause as Error).message}`;
		description =
			'Nothing of this request was recorded. Run the workflow again as it is: payments already recorded are skipped.';
	}
	const error = new NodeOperationError(ctx.getNode(), message, { itemIndex: k, description });
	withHint(error, description);
	return error;
}

async function runBatch(
	ctx: IExecuteFunctions,
	client: WorkOrderServiceClient,
): Promise<Map<number, Outcome>> {
	const outcomes = new Map<number, Outcome>();
	const payments = new Map<number, Payment>();
	const count = ctx.getInputData().length;
	let firstInvalid: Error | undefined;
	for (let k = 0; k < count; k++) {
		if (!isBatchItem(ctx, k)) continue;
		try {
			payments.set(k, readPayment(ctx, k));
		} catch (error) {
			outcomes.set(k, error as Error);
			firstInvalid ??= error as Error;
		}
	}
	// bad input: without Continue On Fail nothing is sent (the error names the item)
	if (firstInvalid && !ctx.continueOnFail()) throw firstInvalid;
	const first = payments.keys().next().value as number | undefined;
	if (first === undefined) return outcomes;

	// what is recorded already (the invoices' payments by number)
	const toSend: number[] = [];
	const seen = new Map<string, number>();
	const check = [...payments.values()].some((p) => p.skipRecorded);
	const invoices = check
		? await readInvoices(
				ctx,
				client,
				[...new Set([...payments.values()].map((p) => p.invoiceId as number))],
				first,
			)
		: new Map<number, IDataObject>();
	for (const [k, p] of payments) {
		const key = `${p.invoiceId}\n${p.number}`;
		const done = p.skipRecorded
			? recordedPayment(invoices.get(p.invoiceId as number), p.number)
			: undefined;
		if (done) {
			outcomes.set(k, paymentItem(p, 'alreadyRecorded', { paymentId: done.Id ?? null }));
		} else if (seen.has(key)) {
			outcomes.set(
				k,
				paymentItem(p, 'refused', {
					error: `Item ${seen.get(key)} of this run has the same payment number for the same invoice: sent once, not twice`,
				}),
			);
		} else {
			seen.set(key, k);
			toSend.push(k);
		}
	}

	// send, BATCH_SIZE at a time; after a failed request the rest is not sent
	let failed = false;
	for (let b = 0; b < toSend.length; b += BATCH_SIZE) {
		const batch = toSend.slice(b, b + BATCH_SIZE);
		if (failed) {
			for (const k of batch)
				outcomes.set(k, batchFailure(ctx, k, payments.get(k) as Payment, undefined, false));
			continue;
		}
		const sent = batch.map((k) => {
			const p = payments.get(k) as Payment;
			return {
				InvoiceId: p.invoiceId,
				PaymentDate: p.date,
				PaymentNumber: p.number,
				PaymentAmount: p.amount,
			};
		});
		let body: unknown;
		try {
			body = await client.request({
				method: 'POST',
				path: '/invoices/Payments',
				body: { Payments: sent },
				itemIndex: batch[0],
			});
		} catch (error) {
			failed = true;
			const maybe = meaningOf(error)?.outcome === 'maybe';
			for (const k of batch)
				outcomes.set(k, batchFailure(ctx, k, payments.get(k) as Payment, error, maybe));
			continue;
		}
		const answers =
			isRecord(body) && Array.isArray(body.Payments) ? (body.Payments as unknown[]) : [];
		batch.forEach((k, j) => {
			const p = payments.get(k) as Payment;
			const matches = (a: unknown): a is IDataObject =>
				isRecord(a) &&
				Number(a.InvoiceId) === p.invoiceId &&
				String(a.PaymentNumber ?? '').trim() === p.number;
			const answer = matches(answers[j]) ? answers[j] : answers.find(matches);
			if (!isRecord(answer)) {
				outcomes.set(
					k,
					paymentItem(p, 'refused', {
						error:
							"The service's answer did not mention this payment: check the invoice's payments; a re-run sends it only if it is not recorded",
					}),
				);
				return;
			}
			const refusal = isRecord(answer.Error) ? answer.Error : undefined;
			if (refusal || answer.PaymentId === undefined || answer.PaymentId === null) {
				outcomes.set(
					k,
					paymentItem(p, 'refused', {
						error:
							typeof refusal?.Message === 'string'
								? refusal.Message
								: 'The service recorded no payment',
						...(refusal?.Code !== undefined ? { errorCode: refusal.Code } : {}),
					}),
				);
				return;
			}
			outcomes.set(
				k,
				paymentItem(p, 'recorded', { paymentId: answer.PaymentId, id: answer.PaymentId }),
			);
		});
	}
	return outcomes;
}

/** Record Payment for item i (Many Invoices: the first such item of the run sends them all). */
export async function execute(
	this: IExecuteFunctions,
	i: number,
	client: WorkOrderServiceClient,
): Promise<IDataObject[]> {
	const paymentFor = this.getNodeParameter('paymentFor', i, 'invoice');
	if (paymentFor !== 'batch') return await recordOne(this, client, i, readPayment(this, i));
	// the bulk run of this execution: every item in Many Invoices mode, started by the first such item
	const run = client.perExecution('invoice.recordPayment.batch', () => runBatch(this, client));
	const outcome = (await run).get(i);
	if (outcome === undefined)
		throw new NodeOperationError(this.getNode(), `Item ${i} was not part of the payment batch`, {
			itemIndex: i,
		});
	if (outcome instanceof Error) throw outcome;
	return [outcome];
}
