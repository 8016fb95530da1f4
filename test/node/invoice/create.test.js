'use strict';
/**
 * invoice.create through n8n-core against the emulator, with the contractor credential (JWT):
 * POST /invoices with CreateInvoiceRequest (InvoiceNumber, WoIdentifier, InvoiceDate in US Eastern
 * local time and InvoiceDateDTO with its offset, line items with their amounts, the sums per kind,
 * the tax, the total); 201 becomes { success, operation, workOrderId, invoiceNumber, id }; the
 * service's refusals (a work order of another provider, a number used before, a subscriber user)
 * in its words; validation before any request; a POST is never sent twice.
 */
const { NodeApiError } = require('n8n-workflow');
const { useEnvironment, expectValidationError, support } = require('../helpers');
const { params } = require('./invoices');

const env = useEnvironment();
let contractor;

beforeAll(async () => {
	contractor = 'contractor-cred';
	env.harness.credentials.set(contractor, {
		name: 'Emulator contractor',
		type: 'workOrderServiceContractorApi',
		data: support.contractorCredential(env.emulator),
	});
});

const woLocator = (id) => ({ __rl: true, mode: 'id', value: String(id) });

function createParams(extra = {}) {
	return params('create', {
		invoiceNumber: 'ACME-1001',
		workOrderId: woLocator(90000001),
		invoiceDate: '2026-03-01T09:00:00-05:00',
		lineItems: {
			labor: [{ hourlyRate: 95, hours: 2.5 }],
			material: [
				{ description: 'Compressor relay', partNumber: 'CR-22', quantity: 2, unitPrice: 40 },
			],
			travel: [{ description: 'Trip charge', quantity: 1, unitPrice: 35 }],
			other: [{ description: 'Disposal', amount: 15 }],
		},
		tax: 12.5,
		additionalFields: { invoiceText: 'Replaced relay', terms: 'Net 30' },
		...extra,
	});
}

const run = (parameters, more = {}) =>
	env.run({ parameters, authentication: 'contractor', credentialId: contractor, ...more });

describe('invoice.create', () => {
	test("POST /invoices with the CreateInvoiceRequest; 201 becomes the new invoice's ID; the invoice is Open with the amounts", async () => {
		const r = await run(createParams());
		expect(r.error).toBeUndefined();
		expect(r.api).toHaveLength(1);
		const q = r.api[0];
		expect(q.method).toBe('POST');
		expect(q.path).toBe('/api/v3/invoices');
		expect(q.tokenKind).toBe('jwt');
		expect(q.body).toEqual({
			InvoiceNumber: 'ACME-1001',
			WoIdentifier: '90000001',
			InvoiceDate: '2026-03-01T09:00:00.000',
			InvoiceDateDTO: '2026-03-01T09:00:00.000-05:00',
			InvoiceTax: 12.5,
			InvoiceTotal: 380,
			InvoiceAmountsDetails: {
				LaborAmount: 237.5,
				MaterialAmount: 80,
				TravelAmount: 35,
				FreightAmount: 0,
				OtherAmount: 15,
			},
			Labors: [{ HourlyRate: 95, Hours: 2.5, Amount: 237.5 }],
			Materials: [
				{
					Quantity: 2,
					UnitPrice: 40,
					Amount: 80,
					Description: 'Compressor relay',
					PartNum: 'CR-22',
				},
			],
			Travels: [{ Quantity: 1, UnitPrice: 35, Amount: 35, Description: 'Trip charge' }],
			Others: [{ Amount: 15, Description: 'Disposal' }],
			InvoiceText: 'Replaced relay',
			Terms: 'Net 30',
		});
		expect(q.status).toBe(201);
		const id = JSON.parse(q.responseBody).Id;
		expect(r.output[0].json).toEqual({
			success: true,
			operation: 'create',
			workOrderId: 90000001,
			invoiceNumber: 'ACME-1001',
			id,
			invoiceTotal: 380,
		});
		expect(env.emulator.invoice(id)).toMatchObject({
			Status: 'Open',
			InvoiceTotal: 380,
			Number: 'ACME-1001',
			WoTrackingNumber: 90000001,
		});
	});

	test("refusals in the service's words: the number used before, a work order of another provider; a subscriber user", async () => {
		await run(createParams({ invoiceNumber: 'ACME-DUP' }));
		const dup = await run(createParams({ invoiceNumber: 'ACME-DUP' }));
		expect(dup.error).toBeInstanceOf(NodeApiError);
		expect(dup.error.message).toMatch(
			/^The Work Order Service refused to create invoice ACME-DUP for work order 90000001 \(400 Bad Request\): Invoice number ACME-DUP already exists .*\(error code InvoiceExists\)$/,
		);
		expect(dup.api).toHaveLength(1);
		const other = await run(
			createParams({
				invoiceNumber: 'ACME-X',
				workOrderId: woLocator(env.fixtures.workOrders.otherProvider),
			}),
		);
		expect(other.error.message).toMatch(/\(error code InvalidWoIdentifier\)/);
		const subscriber = await env.run({ parameters: createParams({ invoiceNumber: 'ACME-S' }) });
		expect(subscriber.error.message).toMatch(/\(error code NotAllowed\)/);
		expect(subscriber.error.description).toMatch(/Contractor \(JWT\)/);
	});

	test('a POST whose answer is lost is not sent again', async () => {
		env.emulator.failNext({ method: 'POST', status: 502, afterProcessing: true });
		const r = await run(createParams({ invoiceNumber: 'ACME-LOST' }));
		expect(r.result.status).toBe('error');
		expect(r.api).toHaveLength(1);
	});

	test('validation before any request', async () => {
		for (const [extra, parameter, problem] of [
			[{ invoiceNumber: '={{ $json.none }}' }, 'invoiceNumber', /not be empty/],
			[{ lineItems: {} }, 'lineItems', /at least one/],
			[
				{ lineItems: { labor: [{ hourlyRate: -5, hours: 1 }] } },
				'lineItems.labor[0].hourlyRate',
				/from 0/,
			],
			[{ invoiceDate: 'tomorrow' }, 'invoiceDate', /date-time/],
		]) {
			const r = await run(createParams(extra));
			expectValidationError(r, { parameter, item: 0, problem });
			expect(r.api).toHaveLength(0);
		}
	});
});
