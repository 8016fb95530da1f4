'use strict';
/**
 * What the invoice tests share (not a test file): parameters of the Invoice resource and a few
 * helpers over the emulator's invoices (test/emulator/invoices.js).
 */

/** The Invoice locator as the editor saves it (By ID). */
const byId = (id) => ({ __rl: true, mode: 'id', value: String(id) });

/** Parameters of an invoice operation. */
function params(operation, extra = {}) {
	return { resource: 'invoice', operation, ...extra };
}

/** A fresh invoice of the main subscriber in `status` (a work order of provider 3001). */
function freshInvoice(env, status = 'Open', extra = {}) {
	return env.emulator.createInvoice({ WorkOrderId: 90000001, Status: status, ...extra }).Id;
}

/** The last API request of a run whose path is `path` (method optional). */
function requestTo(r, method, path) {
	return r.api.filter((q) => q.method === method && q.path === path);
}

module.exports = { byId, params, freshInvoice, requestTo };
