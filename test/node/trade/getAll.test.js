'use strict';
/**
 * trade.getAll: GET /odata/trades (all the subscriber's) or /odata/locations({id})/trades (the
 * trades at one location), paged, one item per Trade; Limit; the service's refusal.
 */
const { useEnvironment, expectGet, expectBearer, responseJson } = require('../helpers');

const env = useEnvironment();

const rl = (value, mode = 'list') => ({ __rl: true, mode, value });

describe('trade.getAll', () => {
	test("all the subscriber's trades", async () => {
		const r = await env.run({
			parameters: { resource: 'trade', operation: 'getAll', returnAll: true },
		});
		expect(r.error).toBeUndefined();
		expectGet(r.api[0], {
			path: '/api/v3/odata/trades',
			query: { $top: '50', $skip: '0', $count: 'true' },
		});
		expectBearer(env, r.api[0]);
		expect(r.output.map((o) => o.json)).toEqual(responseJson(r.api[0]).value);
		expect(r.output.map((o) => o.json.Name)).toEqual([
			'HVAC',
			'PLUMBING',
			'ELECTRICAL',
			'REFRIGERATION',
			'DOORS',
			'GENERAL MAINTENANCE',
		]);
	});

	test('the trades at one location (store 503 has no general maintenance); Limit 2', async () => {
		const r = await env.run({
			parameters: {
				resource: 'trade',
				operation: 'getAll',
				locationId: rl('503'),
				returnAll: true,
			},
		});
		expect(r.api[0].path).toBe('/api/v3/odata/locations(503)/trades');
		expect(r.output.map((o) => o.json.Name)).not.toContain('GENERAL MAINTENANCE');
		expect(r.output).toHaveLength(5);
		const l = await env.run({
			parameters: { resource: 'trade', operation: 'getAll', locationId: rl('501'), limit: 2 },
		});
		expect(l.api[0].query).toMatchObject({ $top: '2' });
		expect(l.output.map((o) => o.json.Id)).toEqual([1, 2]);
	});

	test("an unknown location: the service's 400 reaches the error", async () => {
		const r = await env.run({
			parameters: { resource: 'trade', operation: 'getAll', locationId: rl('999', 'id') },
		});
		expect(r.result.status).toBe('error');
		expect(r.error.httpCode).toBe('400');
		expect(r.error.message).toMatch(/Location 999 was not found|400/);
	});
});
