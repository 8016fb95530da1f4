'use strict';
/**
 * What the three invoice moves share (not a test file): approve, reject and putOnHold send
 * PUT /invoices/{id}/{approve|reject|onhold} with their values in the query string (no body), 204
 * becomes { success, operation, invoiceId }; the service's refusals (multi-level approval, a status
 * that does not allow the move, no such invoice, a provider user) come back as an error in the
 * words of the proposal moves: which invoice, the service's words and code, what it means, what to
 * do, "Nothing changed."; a refused PUT is sent once.
 */
const { NodeApiError } = require('n8n-workflow');
const { items, expectBearer, expectApiError } = require('../helpers');
const { byId, params, freshInvoice } = require('./invoices');

const OPS = {
	approve: {
		path: 'approve',
		to: 'Approved',
		doing: (id) => `approve invoice ${id}`,
		event: 'InvoiceApproved',
	},
	reject: {
		path: 'reject',
		to: 'Rejected',
		doing: (id) => `reject invoice ${id}`,
		event: 'InvoiceRejected',
	},
	putOnHold: {
		path: 'onhold',
		to: 'On Hold',
		doing: (id) => `put invoice ${id} on hold`,
		event: 'InvoiceOnHold',
	},
};

function expectRefused(env, r, { operation, id, words, code, means }) {
	expectApiError(r, { status: 400, serviceMessage: words, code });
	expect(r.error.message).toMatch(
		new RegExp(
			`^The Work Order Service refused to ${OPS[operation].doing(id)} \\(400 Bad Request\\): `,
		),
	);
	expect(r.error.description).toContain(`Error code ${code}: `);
	expect(r.error.description).toMatch(means);
	expect(r.error.description).toContain('Nothing changed.');
	expect(r.output).toEqual([]);
	expect(r.api).toHaveLength(1);
}

function moveTests(env, operation, extra = () => ({})) {
	const op = OPS[operation];

	test('PUT with the values in the query string and no body; 204 becomes { success, operation, invoiceId }; the invoice moved', async () => {
		const id = freshInvoice(env, 'Open');
		const r = await env.run({
			parameters: params(operation, { invoiceId: byId(id), ...extra().parameters }),
		});
		expect(r.error).toBeUndefined();
		expect(r.api).toHaveLength(1);
		const q = r.api[0];
		expect(q.method).toBe('PUT');
		expect(q.path).toBe(`/api/v3/invoices/${id}/${op.path}`);
		expect(q.query).toEqual(extra().query);
		expect(q.bodySize).toBe(0);
		expect(q.status).toBe(204);
		expectBearer(env, q);
		expect(r.output).toEqual([
			{ json: { success: true, operation, invoiceId: id }, pairedItem: { item: 0 } },
		]);
		expect(env.emulator.invoice(id).Status).toBe(op.to);
	});

	test("multi-level approval: refused with the service's words and code, nothing changed, sent once", async () => {
		const id = env.fixtures.invoices.mliOpen;
		const r = await env.run({
			parameters: params(operation, { invoiceId: byId(id), ...extra().parameters }),
		});
		expectRefused(env, r, {
			operation,
			id,
			words: 'is under multi-level approval (MLI)',
			code: 'NotAllowed',
			means: /multi-level approval/,
		});
		expect(env.emulator.invoice(id).Status).toBe('Open');
	});

	test('a status that does not allow the move: refused; Continue On Fail: an error item, the others still run', async () => {
		const paid = env.fixtures.invoices.paid;
		const ok = freshInvoice(env, 'Open');
		const r = await env.run({
			parameters: params(operation, { invoiceId: '={{ $json.id }}', ...extra().parameters }),
			items: items({ id: paid }, { id: ok }, { id: 'nope' }),
			continueOnFail: true,
		});
		expect(r.result.status).toBe('success');
		expect(r.output).toHaveLength(3);
		expect(r.output[0].json.error).toMatch(
			new RegExp(
				`refused to ${op.doing(paid)} \\(400 Bad Request\\): .*its status is Paid.*\\(error code InvoiceBatchUpdateInvalidInvoiceStatusError\\)`,
			),
		);
		expect(r.output[0].json.errorDescription).toContain('Nothing changed.');
		expect(r.output[1].json).toEqual({ success: true, operation, invoiceId: ok });
		expect(r.output[2].json.error).toMatch(
			/Invalid Invoice ID \(parameter "invoiceId"\) in item 2/,
		);
		expect(r.api).toHaveLength(2);
		expect(env.emulator.invoice(paid).Status).toBe('Paid');
	});

	test('a provider user (contractor credential): refused, naming the invoice', async () => {
		const id = freshInvoice(env, 'Open');
		const { serviceWithCredential } = require('../../support');
		const s = await serviceWithCredential(env.harness, {
			authentication: 'contractor',
			idPrefix: 'contractor',
		});
		const inv = s.emu.createInvoice({ WorkOrderId: 90000001 }).Id;
		const r = await require('../../support').runNode(env.harness, {
			credentialId: s.credentialId,
			authentication: 'contractor',
			parameters: params(operation, { invoiceId: byId(inv), ...extra().parameters }),
		});
		expect(r.error).toBeInstanceOf(NodeApiError);
		expect(r.error.message).toMatch(
			new RegExp(`refused to ${op.doing(inv)}.*provider user.*\\(error code NotAllowed\\)`),
		);
		await s.emu.close();
		expect(env.emulator.invoice(id).Status).toBe('Open');
	});

	test('a server error after the move was processed: the PUT is not sent again; the error says the invoice may have been moved', async () => {
		const id = freshInvoice(env, 'Open');
		env.emulator.failNext({ method: 'PUT', status: 500, afterProcessing: true });
		const r = await env.run({
			parameters: params(operation, { invoiceId: byId(id), ...extra().parameters }),
		});
		expect(r.api).toHaveLength(1);
		expect(r.api[0].processedStatus).toBe(204);
		expect(env.emulator.invoice(id).Status).toBe(op.to);
		expect(r.error).toBeInstanceOf(NodeApiError);
		expect(r.error.message).toMatch(
			new RegExp(
				`^The request to ${op.doing(id)} got no answer or a server error after it was sent: the invoice may have been moved`,
			),
		);
		expect(r.error.description).toMatch(/not sent again automatically.*Check the invoice/);
	});
}

module.exports = { moveTests, OPS, expectRefused };
