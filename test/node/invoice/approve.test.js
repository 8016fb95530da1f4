'use strict';
/**
 * invoice.approve through n8n-core against the emulator: PUT /invoices/{id}/approve with
 * approvalCode, comments and category in the query string (each sent, empty when not given, as the
 * reference requires them); the shared move behaviour in ./moves.js; validation before any request.
 */
const { useEnvironment, expectValidationError } = require('../helpers');
const { moveTests } = require('./moves');
const { byId, params, freshInvoice } = require('./invoices');

const env = useEnvironment();

describe('invoice.approve', () => {
	moveTests(env, 'approve', () => ({
		parameters: { approvalCode: 'GL-5500', comments: 'Within NTE', category: 'REPAIR' },
		query: { approvalCode: 'GL-5500', comments: 'Within NTE', category: 'REPAIR' },
	}));

	test('values not given are sent empty; the approval code and comments reach the invoice; the events', async () => {
		const id = freshInvoice(env, 'On Hold');
		const before = env.emulator.webhooks.events.length;
		const r = await env.run({ parameters: params('approve', { invoiceId: byId(id) }) });
		expect(r.error).toBeUndefined();
		expect(r.api[0].query).toEqual({ approvalCode: '', comments: '', category: '' });
		expect(env.emulator.invoice(id)).toMatchObject({ Status: 'Approved', Comments: null });
		expect(env.emulator.webhooks.events.slice(before).map((e) => e.eventType)).toEqual([
			'InvoiceApproved',
		]);
		const id2 = freshInvoice(env, 'Open');
		await env.run({
			parameters: params('approve', {
				invoiceId: byId(id2),
				approvalCode: 'GL-77',
				comments: 'ok',
			}),
		});
		expect(env.emulator.invoice(id2)).toMatchObject({ ApprovalCode: 'GL-77', Comments: 'ok' });
	});

	test("already approved: refused in the service's words", async () => {
		const id = env.fixtures.invoices.approvedThird;
		const r = await env.run({ parameters: params('approve', { invoiceId: byId(id) }) });
		expect(r.error.message).toMatch(
			/refused to approve invoice \d+ \(400 Bad Request\): Invoice INV-\d+ is already approved/,
		);
	});

	test('validation before any request: an approval code too long', async () => {
		const r = await env.run({
			parameters: params('approve', { invoiceId: byId(71001), approvalCode: 'x'.repeat(201) }),
		});
		expectValidationError(r, { parameter: 'approvalCode', item: 0, problem: /at most 200/ });
		expect(r.api).toHaveLength(0);
	});
});
