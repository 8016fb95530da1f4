'use strict';
/**
 * provider.getAll: GET /providers/getbytrade?trade=NAME, one item per ProviderInfo (Id, Name,
 * DoNotDispatch); Limit; an empty trade refused before any request.
 */
const {
	useEnvironment,
	items,
	expectGet,
	expectBearer,
	pairedIndexes,
	expectValidationError,
} = require('../helpers');

const env = useEnvironment();

describe('provider.getAll', () => {
	test('the providers of a trade, Do Not Dispatch told, as sent', async () => {
		const r = await env.run({
			parameters: { resource: 'provider', operation: 'getAll', trade: 'DOORS', returnAll: true },
		});
		expect(r.error).toBeUndefined();
		expectGet(r.api[0], { path: '/api/v3/providers/getbytrade', query: { trade: 'DOORS' } });
		expectBearer(env, r.api[0]);
		expect(r.output.map((o) => o.json)).toEqual([
			{ Id: 3001, Name: 'Acme Facility Services', DoNotDispatch: false },
			{ Id: 3002, Name: 'Bright HVAC Inc.', DoNotDispatch: false },
			{ Id: 3004, Name: 'Swing Door Repair Co.', DoNotDispatch: true },
		]);
	});

	test('per item (trade from an expression), Limit 1; a trade the subscriber lacks gives no item', async () => {
		const r = await env.run({
			parameters: { resource: 'provider', operation: 'getAll', trade: '={{ $json.t }}', limit: 1 },
			items: items({ t: ' refrigeration ' }, { t: 'ROOFING' }, { t: 'GENERAL MAINTENANCE' }),
		});
		expect(r.error).toBeUndefined();
		expect(r.api.map((q) => q.query.trade)).toEqual([
			'refrigeration',
			'ROOFING',
			'GENERAL MAINTENANCE',
		]);
		expect(r.output.map((o) => o.json.Id)).toEqual([3001, 3001]);
		expect(pairedIndexes(r.output)).toEqual([0, 2]);
	});

	test('an empty trade is refused before any request', async () => {
		const r = await env.run({
			parameters: { resource: 'provider', operation: 'getAll', trade: '={{ $json.t }}' },
			items: items({ t: '' }),
		});
		expectValidationError(r, { parameter: 'trade', item: 0, problem: /must not be empty/ });
		expect(r.api).toHaveLength(0);
	});
});
