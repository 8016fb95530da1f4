'use strict';
/**
 * workOrder.updateNte: PUT /workorders/{id}/nte with a ChangeWoNteRequest (Value as text, or
 * Details with price and taxes; currency, provider e-mail, actor); the `{ id }` answer in the item;
 * the service's refusals (over the limit 905, invoiced 921); validation.
 */
const {
	useEnvironment,
	expectBearer,
	expectJsonRequest,
	expectValidationError,
	expectApiError,
} = require('../helpers');

const env = useEnvironment();

const WO = 90000013;
const base = (parameters) => ({
	resource: 'workOrder',
	operation: 'updateNte',
	workOrderId: WO,
	...parameters,
});

describe('workOrder.updateNte', () => {
	test('the amount as text in Value, with currency, provider e-mail and actor', async () => {
		const r = await env.run({
			parameters: base({
				nte: '1250.75',
				additionalFields: {
					currencyId: '1',
					providerEmail: 'dispatch@acme-fs.example',
					actor: 'Approver',
				},
			}),
		});
		expect(r.error).toBeUndefined();
		expectJsonRequest(r.api[0], {
			method: 'PUT',
			path: `/api/v3/workorders/${WO}/nte`,
			body: {
				Value: '1250.75',
				CurrencyId: 1,
				ProviderEmail: 'dispatch@acme-fs.example',
				Actor: 'Approver',
			},
		});
		expectBearer(env, r.api[0]);
		expect(r.output).toEqual([
			{
				json: { success: true, operation: 'updateNte', workOrderId: WO, nte: 1250.75, id: WO },
				pairedItem: { item: 0 },
			},
		]);
		expect(env.emulator.workOrder(WO).Nte).toBe(1250.75);
	});

	test('price and taxes only: Details, and the service derives the NTE from them', async () => {
		const r = await env.run({
			parameters: base({
				additionalFields: { price: '800', tax: 64, tax2: '16.5', tax2Type: 'GST' },
			}),
		});
		expect(r.error).toBeUndefined();
		expect(r.api[0].body).toEqual({
			Details: { Price: 800, Tax: 64, Tax2: 16.5, Tax2Type: 'GST' },
		});
		expect(r.output[0].json).toEqual({
			success: true,
			operation: 'updateNte',
			workOrderId: WO,
			id: WO,
		});
		expect(env.emulator.workOrder(WO).Nte).toBe(880.5);
	});

	test.each([
		['over the limit', WO, '250000', 'The NTE 250000 is over the limit of 100000', 905],
		[
			'an invoiced work order',
			90000007,
			'100',
			'Work order 90000007 is invoiced and cannot be changed',
			921,
		],
	])('%s: the service refuses with its code', async (_name, workOrderId, nte, message, code) => {
		const r = await env.run({ parameters: base({ workOrderId, nte }) });
		expectApiError(r, { status: 400, serviceMessage: message, code });
	});

	test.each([
		['neither NTE nor price', {}, 'nte', /must be given \(or Price/],
		['a negative NTE', { nte: '-1' }, 'nte', /from 0 to/],
		['an NTE that is not a number', { nte: '12,50' }, 'nte', /number from 0/],
		[
			'a bad provider e-mail',
			{ nte: '10', additionalFields: { providerEmail: 'dispatch at acme' } },
			'additionalFields.providerEmail',
			/e-mail/,
		],
	])('%s is refused before any request', async (_name, parameters, parameter, problem) => {
		const r = await env.run({ parameters: base(parameters) });
		expectValidationError(r, { parameter, item: 0, problem });
		expect(r.api).toHaveLength(0);
	});
});
