'use strict';
/**
 * invoice.get through n8n-core against the emulator: GET /invoices/{invoiceId} (part C's
 * ApiGetInvoiceResponse), Simplify on and off, the picker's value forms, validation before any
 * request, an unknown invoice, Continue On Fail.
 */
const {
	useEnvironment,
	items,
	expectGet,
	expectBearer,
	expectValidationError,
} = require('../helpers');
const { byId, params } = require('./invoices');
const {
	COMPACT_INVOICE_FIELDS,
} = require('../../../dist/nodes/WorkOrderService/actions/invoice/simplify');

const env = useEnvironment();

describe('invoice.get', () => {
	test('GET /invoices/{id}; Simplify on: the compact fields; off: the record as the service sent it', async () => {
		const id = env.fixtures.invoices.paid;
		const r = await env.run({ parameters: params('get', { invoiceId: byId(id) }) });
		expect(r.error).toBeUndefined();
		expect(r.api).toHaveLength(1);
		expectGet(r.api[0], { path: `/api/v3/invoices/${id}` });
		expectBearer(env, r.api[0]);
		const out = r.output[0].json;
		expect(Object.keys(out).every((k) => COMPACT_INVOICE_FIELDS.includes(k))).toBe(true);
		expect(out).toMatchObject({
			Id: id,
			Status: 'Paid',
			InvoiceBalance: 0,
			SubscriberId: 1001,
			ProviderId: 3001,
		});
		expect(out.Payments).toHaveLength(1);
		expect(out.Labors).toBeUndefined();

		const raw = await env.run({
			parameters: params('get', { invoiceId: byId(id), simplify: false }),
		});
		const stored = env.emulator.invoice(id);
		expect(raw.output[0].json.Labors).toEqual(JSON.parse(JSON.stringify(stored.Labors)));
		expect(raw.output[0].json.PostedDateStr).toMatch(/^\d{2}\/\d{2}\/\d{4}/);
		expect(raw.output[0].json.InvoiceTotal).toBe(stored.InvoiceTotal);
	});

	test('a plain number, a digit string and a From List value are accepted; one request per item in order', async () => {
		const { open, approved, onHold } = env.fixtures.invoices;
		const r = await env.run({
			parameters: params('get', { invoiceId: '={{ $json.id }}' }),
			items: items({ id: open }, { id: String(approved) }, { id: onHold }),
		});
		expect(r.error).toBeUndefined();
		expect(r.output.map((o) => o.json.Id)).toEqual([open, approved, onHold]);
		expect(r.output.map((o) => o.pairedItem.item)).toEqual([0, 1, 2]);
		const list = await env.run({
			parameters: params('get', { invoiceId: { __rl: true, mode: 'list', value: String(open) } }),
		});
		expect(list.output[0].json.Id).toBe(open);
	});

	test('validation before any request: empty, 0, a fraction, text', async () => {
		for (const [value, problem] of [
			['', /not empty/],
			['0', /1 or greater/],
			[71001.5, /positive whole number/],
			['abc', /positive whole number/],
		]) {
			const r = await env.run({
				parameters: params('get', { invoiceId: '={{ $json.id }}' }),
				items: items({ id: value }),
			});
			expectValidationError(r, { parameter: 'invoiceId', item: 0, problem });
			expect(r.api).toHaveLength(0);
		}
	});

	test("an unknown invoice or another subscriber's: an error naming it; Continue On Fail keeps every item", async () => {
		const r = await env.run({ parameters: params('get', { invoiceId: byId(79999999) }) });
		expect(r.result.status).toBe('error');
		expect(r.error.message).toMatch(/Invoice 79999999 was not found/);
		expect(r.api).toHaveLength(1);
		const c = await env.run({
			parameters: params('get', { invoiceId: '={{ $json.id }}' }),
			items: items(
				{ id: env.fixtures.invoices.child2001 },
				{ id: env.fixtures.invoices.open },
				{ id: 'x' },
			),
			continueOnFail: true,
		});
		expect(c.result.status).toBe('success');
		expect(c.output).toHaveLength(3);
		expect(c.output[0].json.error).toMatch(/Invoice \d+ was not found/);
		expect(c.output[1].json.Id).toBe(env.fixtures.invoices.open);
		expect(c.output[2].json.error).toMatch(/Invalid Invoice ID/);
	});
});
