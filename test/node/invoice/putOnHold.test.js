'use strict';
/**
 * invoice.putOnHold through n8n-core against the emulator: PUT /invoices/{id}/onhold?comments=; the
 * shared move behaviour in ./moves.js; an On Hold invoice is refused ("already on hold").
 */
const { useEnvironment } = require('../helpers');
const { moveTests } = require('./moves');
const { byId, params } = require('./invoices');

const env = useEnvironment();

describe('invoice.putOnHold', () => {
	moveTests(env, 'putOnHold', () => ({
		parameters: { comments: 'Total above the NTE' },
		query: { comments: 'Total above the NTE' },
	}));

	test("already on hold: refused in the service's words; comments stored on success", async () => {
		const r = await env.run({
			parameters: params('putOnHold', { invoiceId: byId(env.fixtures.invoices.onHold) }),
		});
		expect(r.error.message).toMatch(
			/refused to put invoice \d+ on hold \(400 Bad Request\): Invoice INV-\d+ is already on hold/,
		);
		expect(r.api[0].query).toEqual({ comments: '' });
	});
});
