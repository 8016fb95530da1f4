'use strict';
/**
 * invoice.getRateDiscrepancy through n8n-core against the emulator: GET /invoices/{id}/discrepancy,
 * one item per labor line whose rate differs (part C's RateDiscrepancy, with the invoice's ID); none
 * when the rates match; validation before any request.
 */
const { useEnvironment, expectGet, expectValidationError, items } = require('../helpers');
const { params } = require('./invoices');

const env = useEnvironment();

describe('invoice.getRateDiscrepancy', () => {
	test('the lines whose rate differs; an invoice without: no item', async () => {
		const id = env.fixtures.invoices.mismatchedRates;
		const r = await env.run({
			parameters: params('getRateDiscrepancy', { invoiceId: '={{ $json.id }}' }),
			items: items({ id }, { id: env.fixtures.invoices.open }),
		});
		expect(r.error).toBeUndefined();
		expectGet(r.api[0], { path: `/api/v3/invoices/${id}/discrepancy` });
		expectGet(r.api[1], { path: `/api/v3/invoices/${env.fixtures.invoices.open}/discrepancy` });
		expect(r.output).toHaveLength(1);
		expect(r.output[0]).toEqual({
			json: expect.objectContaining({
				invoiceId: id,
				HourlyRate: 95,
				AgreedRate: 85,
				RateDiscrepancyReason: 'After-hours call',
			}),
			pairedItem: { item: 0 },
		});
	});

	test('validation before any request', async () => {
		const r = await env.run({
			parameters: params('getRateDiscrepancy', { invoiceId: '={{ "-3" }}' }),
		});
		expectValidationError(r, { parameter: 'invoiceId', item: 0 });
		expect(r.api).toHaveLength(0);
	});
});
