'use strict';
/**
 * invoice.reject through n8n-core against the emulator: PUT /invoices/{id}/reject?comments= with the
 * chosen rejection reason's text (the subscriber's reasons, GET /invoices/{subscriberId}/
 * InvoiceRejectionReasons, offered in the dropdown) followed by the comments; the shared move
 * behaviour in ./moves.js; the dropdown's subscriber from the invoice or from the invoices the
 * credential sees.
 */
const { useEnvironment, loadOptions, expectValidationError } = require('../helpers');
const { moveTests } = require('./moves');
const { byId, params, freshInvoice } = require('./invoices');

const env = useEnvironment();

describe('invoice.reject', () => {
	moveTests(env, 'reject', () => ({
		parameters: {
			rejectionReason: 'Invoice requires correction',
			comments: 'Labor hours too high',
		},
		query: { comments: 'Invoice requires correction: Labor hours too high' },
	}));

	test('the reason alone, or the comments alone, is the comments; the invoice keeps it', async () => {
		const id = freshInvoice(env, 'Open');
		const r = await env.run({
			parameters: params('reject', { invoiceId: byId(id), rejectionReason: 'Duplicate invoice' }),
		});
		expect(r.api[0].query).toEqual({ comments: 'Duplicate invoice' });
		expect(env.emulator.invoice(id).Comments).toBe('Duplicate invoice');
		const id2 = freshInvoice(env, 'Open');
		const r2 = await env.run({
			parameters: params('reject', { invoiceId: byId(id2), comments: 'Wrong store' }),
		});
		expect(r2.api[0].query).toEqual({ comments: 'Wrong store' });
	});

	test("the dropdown: the invoice's subscriber's reasons (retired left out), the text as the value", async () => {
		env.emulator.clearRequests();
		const options = await loadOptions(env, 'getInvoiceRejectionReasons', {
			resource: 'invoice',
			operation: 'reject',
			invoiceId: byId(env.fixtures.invoices.open),
		});
		const api = env.emulator.requests.filter((q) => q.path.startsWith('/api/'));
		expect(api.map((q) => `${q.method} ${q.path}`)).toEqual([
			`GET /api/v3/invoices/${env.fixtures.invoices.open}`,
			'GET /api/v3/invoices/1001/InvoiceRejectionReasons',
		]);
		expect(options).toEqual([
			{
				name: 'Invoice requires correction',
				value: 'Invoice requires correction',
				description: 'InvoiceRequiresCorrection',
			},
			{ name: 'Other', value: 'Other', description: 'Other' },
			{
				name: 'Rates do not match the agreement',
				value: 'Rates do not match the agreement',
				description: 'Custom',
			},
			{
				name: 'Work order is not invoiceable',
				value: 'Work order is not invoiceable',
				description: 'WorkOrderNotInvoiceable',
			},
		]);
	});

	test('the dropdown without an invoice chosen: the subscriber of the invoices the credential sees', async () => {
		env.emulator.clearRequests();
		const options = await loadOptions(env, 'getInvoiceRejectionReasons', {
			resource: 'invoice',
			operation: 'reject',
			invoiceId: { __rl: true, mode: 'list', value: '' },
		});
		const api = env.emulator.requests.filter((q) => q.path.startsWith('/api/'));
		expect(api.map((q) => q.path)).toEqual([
			'/api/v3/odata/invoices',
			'/api/v3/invoices/1001/InvoiceRejectionReasons',
		]);
		expect(options.map((o) => o.value)).toContain('Other');
	});

	test('validation before any request: a reason too long', async () => {
		const r = await env.run({
			parameters: params('reject', { invoiceId: byId(71001), rejectionReason: 'x'.repeat(501) }),
		});
		expectValidationError(r, { parameter: 'rejectionReason', item: 0, problem: /at most 500/ });
		expect(r.api).toHaveLength(0);
	});
});
