'use strict';
/**
 * invoice.recordPayment through n8n-core against the emulator:
 * - One Invoice: POST /invoices/{id}/Payment (InvoicePaymentRequest), after reading the invoice's
 *   payments (a payment whose number it has is reported already recorded, not sent);
 * - A Work Order's Invoice: POST /invoices/Workorders/{trackingNumber}/Payment;
 * - Many Invoices at Once: every item of the run in POST /invoices/Payments, 100 a request, one output
 *   item per input item (recorded with the PaymentId, already recorded, or refused with the
 *   service's reason); a half-refused batch and its re-run (nothing recorded twice); 403 without the
 *   admin role or the feature; a batch whose answer is lost (not sent again; the re-run completes it);
 * - validation before any request, Continue On Fail.
 */
const { useEnvironment, items, expectBearer, expectValidationError } = require('../helpers');
const { byId, params, freshInvoice } = require('./invoices');

const env = useEnvironment();

const payment = (extra = {}) => ({
	paymentNumber: 'CHK-1',
	paymentAmount: 10,
	paymentDate: '2026-03-02T10:00:00-05:00',
	...extra,
});

/** Parameters of Many Invoices mode, the values from each item's json. */
const batchParams = (extra = {}) =>
	params('recordPayment', {
		paymentFor: 'batch',
		invoiceId: '={{ $json.invoiceId }}',
		paymentNumber: '={{ $json.number }}',
		paymentAmount: '={{ $json.amount }}',
		paymentDate: '2026-03-02T10:00:00-05:00',
		...extra,
	});

const paymentsOf = (id) => env.emulator.invoice(id).Payments;

describe('invoice.recordPayment: one invoice', () => {
	test("reads the invoice's payments, then POST /invoices/{id}/Payment; 204 becomes a recorded item", async () => {
		const id = freshInvoice(env, 'Approved');
		const r = await env.run({
			parameters: params('recordPayment', { invoiceId: byId(id), ...payment() }),
		});
		expect(r.error).toBeUndefined();
		expect(r.api.map((q) => `${q.method} ${q.path}`)).toEqual([
			'GET /api/v3/odata/invoices',
			`POST /api/v3/invoices/${id}/Payment`,
		]);
		expect(r.api[0].query.$filter).toMatch(
			new RegExp(`^\\(Id eq ${id}\\) and PostedDate ge .*-0[45]:00$`),
		);
		const post = r.api[1];
		expect(post.body).toEqual({
			PaymentDate: '2026-03-02T10:00:00.000-05:00',
			PaymentNumber: 'CHK-1',
			PaymentAmount: 10,
		});
		expect(post.headers['content-type']).toBe('application/json');
		expect(post.status).toBe(204);
		expectBearer(env, post);
		expect(r.output[0].json).toEqual({
			success: true,
			operation: 'recordPayment',
			invoiceId: id,
			paymentNumber: 'CHK-1',
			paymentAmount: 10,
			paymentDate: '2026-03-02T10:00:00.000-05:00',
			result: 'recorded',
		});
		expect(paymentsOf(id).map((p) => p.PaymentNumber)).toEqual(['CHK-1']);
		// the same again: found, not sent
		const again = await env.run({
			parameters: params('recordPayment', { invoiceId: byId(id), ...payment() }),
		});
		expect(again.api.map((q) => q.method)).toEqual(['GET']);
		expect(again.output[0].json).toMatchObject({
			success: true,
			result: 'alreadyRecorded',
			paymentId: paymentsOf(id)[0].Id,
		});
		expect(paymentsOf(id)).toHaveLength(1);
	});

	test("an invoice that is not approved: refused in the service's words, nothing recorded", async () => {
		const id = freshInvoice(env, 'Open');
		const r = await env.run({
			parameters: params('recordPayment', { invoiceId: byId(id), ...payment() }),
		});
		expect(r.result.status).toBe('error');
		expect(r.error.httpCode).toBe('400');
		expect(r.error.message).toMatch(
			new RegExp(
				`^The Work Order Service refused to record payment CHK-1 for invoice ${id} \\(400 Bad Request\\): .*only for approved invoices.*\\(error code InvoiceBatchUpdateInvalidInvoiceStatusError\\)$`,
			),
		);
		expect(r.error.description).toMatch(/Nothing was recorded/);
		expect(paymentsOf(id)).toHaveLength(0);
	});

	test('a POST whose answer is lost is not sent again (it may have been recorded)', async () => {
		const id = freshInvoice(env, 'Approved');
		env.emulator.failNext({ method: 'POST', status: 500, afterProcessing: true });
		const r = await env.run({
			parameters: params('recordPayment', { invoiceId: byId(id), ...payment() }),
		});
		expect(r.result.status).toBe('error');
		expect(r.api.filter((q) => q.method === 'POST')).toHaveLength(1);
		expect(paymentsOf(id)).toHaveLength(1);
		// the re-run finds it
		const again = await env.run({
			parameters: params('recordPayment', { invoiceId: byId(id), ...payment() }),
		});
		expect(again.output[0].json.result).toBe('alreadyRecorded');
		expect(paymentsOf(id)).toHaveLength(1);
	});

	test('validation before any request: amount 0, too many decimals, no number, a bad date, a bad ID', async () => {
		for (const [extra, parameter, problem] of [
			[{ paymentAmount: 0 }, 'paymentAmount', /above 0/],
			[{ paymentAmount: 10.005 }, 'paymentAmount', /at most 2 decimals/],
			[{ paymentNumber: '  ' }, 'paymentNumber', /not be empty/],
			[{ paymentDate: 'soon' }, 'paymentDate', /date-time/],
		]) {
			const r = await env.run({
				parameters: params('recordPayment', { invoiceId: byId(71004), ...payment(extra) }),
			});
			expectValidationError(r, { parameter, item: 0, problem });
			expect(r.api).toHaveLength(0);
		}
	});
});

describe("invoice.recordPayment: a work order's invoice", () => {
	test("POST /invoices/Workorders/{trackingNumber}/Payment: the work order's approved invoice is paid", async () => {
		const wo = env.emulator.createWorkOrder({ SubscriberId: 1001 });
		const id = env.emulator.createInvoice({ WorkOrderId: wo.Id, Status: 'Approved' }).Id;
		const r = await env.run({
			parameters: params('recordPayment', {
				paymentFor: 'workOrder',
				workOrderId: { __rl: true, mode: 'id', value: String(wo.Id) },
				...payment({ paymentNumber: 'WO-1' }),
			}),
		});
		expect(r.error).toBeUndefined();
		expect(r.api.map((q) => `${q.method} ${q.path}`)).toEqual([
			'GET /api/v3/odata/invoices',
			`POST /api/v3/invoices/Workorders/${wo.Id}/Payment`,
		]);
		expect(r.api[0].query.$filter).toMatch(
			new RegExp(`^WoTrackingNumber eq ${wo.Id} and PostedDate ge `),
		);
		expect(r.output[0].json).toMatchObject({
			success: true,
			workOrderId: wo.Id,
			paymentNumber: 'WO-1',
			result: 'recorded',
		});
		expect(paymentsOf(id).map((p) => p.PaymentNumber)).toEqual(['WO-1']);
		const again = await env.run({
			parameters: params('recordPayment', {
				paymentFor: 'workOrder',
				workOrderId: { __rl: true, mode: 'id', value: String(wo.Id) },
				...payment({ paymentNumber: 'WO-1' }),
			}),
		});
		expect(again.output[0].json).toMatchObject({ result: 'alreadyRecorded', invoiceId: id });
		expect(paymentsOf(id)).toHaveLength(1);
	});
});

describe('invoice.recordPayment: many invoices at once', () => {
	test("a half-refused batch: one request, each item recorded or refused with the service's reason; the re-run records nothing twice", async () => {
		const approved = Array.from({ length: 4 }, () => freshInvoice(env, 'Approved'));
		const open = freshInvoice(env, 'Open');
		const input = [
			{ invoiceId: approved[0], number: 'B-1', amount: 10 },
			{ invoiceId: open, number: 'B-2', amount: 10 },
			{ invoiceId: approved[1], number: 'B-3', amount: 10 },
			{ invoiceId: approved[2], number: 'B-4', amount: 1e7 },
			{ invoiceId: approved[3], number: 'B-5', amount: 10 },
		];
		const r = await env.run({ parameters: batchParams(), items: items(...input) });
		expect(r.error).toBeUndefined();
		const posts = r.api.filter((q) => q.method === 'POST');
		expect(posts).toHaveLength(1);
		expect(posts[0].path).toBe('/api/v3/invoices/Payments');
		expect(posts[0].body.Payments).toEqual(
			input.map((p) => ({
				InvoiceId: p.invoiceId,
				PaymentDate: '2026-03-02T10:00:00.000-05:00',
				PaymentNumber: p.number,
				PaymentAmount: p.amount,
			})),
		);
		expect(r.api.filter((q) => q.method === 'GET')).toHaveLength(1);
		expect(r.output.map((o) => o.pairedItem.item)).toEqual([0, 1, 2, 3, 4]);
		expect(r.output.map((o) => o.json.result)).toEqual([
			'recorded',
			'refused',
			'recorded',
			'refused',
			'recorded',
		]);
		expect(r.output[0].json).toMatchObject({
			success: true,
			invoiceId: approved[0],
			paymentId: paymentsOf(approved[0])[0].Id,
		});
		expect(r.output[1].json).toMatchObject({
			success: false,
			invoiceId: open,
			error: expect.stringMatching(/only for approved invoices/),
			errorCode: 504,
		});
		expect(r.output[3].json.error).toMatch(/exceeds the balance/);

		// the open one is approved meanwhile; the re-run sends only what is not recorded
		env.emulator.setInvoiceStatus(open, 'Approved');
		const again = await env.run({ parameters: batchParams(), items: items(...input) });
		expect(again.output.map((o) => o.json.result)).toEqual([
			'alreadyRecorded',
			'recorded',
			'alreadyRecorded',
			'refused',
			'alreadyRecorded',
		]);
		const resent = again.api.filter((q) => q.method === 'POST');
		expect(resent).toHaveLength(1);
		expect(resent[0].body.Payments.map((p) => p.PaymentNumber)).toEqual(['B-2', 'B-4']);
		for (const id of [...approved, open]) expect(paymentsOf(id).length).toBeLessThanOrEqual(1);
		expect(paymentsOf(approved[0])).toHaveLength(1);
	});

	test('250 items: 3 requests of at most 100 payments; one read per 50 invoices', async () => {
		const ids = env.emulator.createInvoices(250, { status: 'Approved' }).map((i) => i.Id);
		const r = await env.run({
			parameters: batchParams(),
			items: items(...ids.map((invoiceId, k) => ({ invoiceId, number: `M-${k}`, amount: 1 }))),
		});
		expect(r.error).toBeUndefined();
		const posts = r.api.filter((q) => q.method === 'POST');
		expect(posts.map((q) => q.body.Payments.length)).toEqual([100, 100, 50]);
		expect(r.api.filter((q) => q.method === 'GET')).toHaveLength(5);
		expect(r.output).toHaveLength(250);
		expect(r.output.every((o) => o.json.result === 'recorded')).toBe(true);
		expect(ids.every((id) => paymentsOf(id).length === 1)).toBe(true);
	});

	test('the same payment twice in one run is sent once', async () => {
		const id = freshInvoice(env, 'Approved');
		const r = await env.run({
			parameters: batchParams(),
			items: items(
				{ invoiceId: id, number: 'D-1', amount: 5 },
				{ invoiceId: id, number: 'D-1', amount: 5 },
			),
		});
		expect(r.output.map((o) => o.json.result)).toEqual(['recorded', 'refused']);
		expect(r.output[1].json.error).toMatch(/Item 0 of this run has the same payment number/);
		expect(paymentsOf(id)).toHaveLength(1);
	});

	test('403 without the admin role or the feature: every item says so; nothing recorded', async () => {
		const id = freshInvoice(env, 'Approved');
		env.emulator.setInvoiceOptions({ bulkPayments: false });
		try {
			const r = await env.run({
				parameters: batchParams(),
				items: items(
					{ invoiceId: id, number: 'F-1', amount: 5 },
					{ invoiceId: id, number: 'F-2', amount: 5 },
				),
				continueOnFail: true,
			});
			expect(r.output).toHaveLength(2);
			for (const o of r.output) {
				expect(o.json.error).toMatch(
					/refused the bulk payment request .*\(403 Forbidden\).*\(error code FeatureIsOff\)/,
				);
				expect(o.json.errorDescription).toMatch(/administrator role .* One Invoice/);
			}
			expect(paymentsOf(id)).toHaveLength(0);
		} finally {
			env.emulator.setInvoiceOptions({ bulkPayments: true });
		}
	});

	test('a bulk request whose answer is lost: not sent again; its items say "may have been recorded"; the re-run completes without doubles', async () => {
		const ids = [freshInvoice(env, 'Approved'), freshInvoice(env, 'Approved')];
		const input = ids.map((invoiceId, k) => ({ invoiceId, number: `L-${k}`, amount: 3 }));
		env.emulator.failNext({ method: 'POST', status: 500, afterProcessing: true });
		const r = await env.run({
			parameters: batchParams(),
			items: items(...input),
			continueOnFail: true,
		});
		expect(r.api.filter((q) => q.method === 'POST')).toHaveLength(1);
		expect(r.output.map((o) => o.json.error)).toEqual([
			expect.stringMatching(/may have been recorded/),
			expect.stringMatching(/may have been recorded/),
		]);
		const again = await env.run({ parameters: batchParams(), items: items(...input) });
		expect(again.output.map((o) => o.json.result)).toEqual(['alreadyRecorded', 'alreadyRecorded']);
		expect(again.api.filter((q) => q.method === 'POST')).toHaveLength(0);
		for (const id of ids) expect(paymentsOf(id)).toHaveLength(1);
	});

	test('bad input: without Continue On Fail nothing is sent (the error names the item); with it the others are sent', async () => {
		const id = freshInvoice(env, 'Approved');
		const input = [
			{ invoiceId: id, number: 'V-1', amount: 2 },
			{ invoiceId: id, number: 'V-2', amount: -1 },
		];
		const r = await env.run({ parameters: batchParams(), items: items(...input) });
		expectValidationError(r, { parameter: 'paymentAmount', item: 1, problem: /above 0/ });
		expect(r.api).toHaveLength(0);
		const c = await env.run({
			parameters: batchParams(),
			items: items(...input),
			continueOnFail: true,
		});
		expect(c.output[0].json.result).toBe('recorded');
		expect(c.output[1].json.error).toMatch(
			/Invalid Payment Amount \(parameter "paymentAmount"\) in item 1/,
		);
		expect(paymentsOf(id).map((p) => p.PaymentNumber)).toEqual(['V-1']);
	});
});
