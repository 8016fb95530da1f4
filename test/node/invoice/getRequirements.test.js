'use strict';
/**
 * invoice.getRequirements through n8n-core against the emulator: GET /invoices/{subscriberId}/
 * InvoiceRequirements (part C's InvoiceSettingsGeneral); without a Subscriber ID the subscriber of
 * the invoices the credential sees; another subscriber: refused in the service's words; validation.
 */
const { useEnvironment, expectGet, expectValidationError } = require('../helpers');
const { params } = require('./invoices');

const env = useEnvironment();

describe('invoice.getRequirements', () => {
	test('with a Subscriber ID: one GET; the settings with the subscriber', async () => {
		const r = await env.run({ parameters: params('getRequirements', { subscriberId: '1001' }) });
		expect(r.error).toBeUndefined();
		expect(r.api).toHaveLength(1);
		expectGet(r.api[0], { path: '/api/v3/invoices/1001/InvoiceRequirements' });
		expect(r.output[0].json).toMatchObject({
			subscriberId: 1001,
			MaxDaysAfterPostingDate: 365,
			RequireApprovalText: false,
		});
	});

	test("without one: the subscriber of the credential's invoices", async () => {
		const r = await env.run({ parameters: params('getRequirements', {}) });
		expect(r.api.map((q) => q.path)).toEqual([
			'/api/v3/odata/invoices',
			'/api/v3/invoices/1001/InvoiceRequirements',
		]);
		expect(r.api[0].query).toEqual({ $top: '1', $select: 'Id,Subscriber' });
		expect(r.output[0].json.subscriberId).toBe(1001);
	});

	test('another subscriber: the service refuses; a bad ID: refused before any request', async () => {
		const r = await env.run({ parameters: params('getRequirements', { subscriberId: '2001' }) });
		expect(r.error.httpCode).toBe('400');
		expect(r.error.message).toMatch(/Subscriber 2001 is not the subscriber of this user/);
		const bad = await env.run({ parameters: params('getRequirements', { subscriberId: '10.5' }) });
		expectValidationError(bad, { parameter: 'subscriberId', item: 0 });
		expect(bad.api).toHaveLength(0);
	});
});
