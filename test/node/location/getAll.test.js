'use strict';
/**
 * location.getAll: GET /odata/locations with the Filters as $filter (name or store contains,
 * city, state, region, district), Return All / Limit ($top/$skip paging), Simplify.
 */
const {
	useEnvironment,
	expectBearer,
	expectGet,
	expectValidationError,
	responseJson,
} = require('../helpers');

const env = useEnvironment();

const params = (extra = {}) => ({ resource: 'location', operation: 'getAll', ...extra });

describe('location.getAll', () => {
	test('Return All without filters: every location of the subscriber, compact', async () => {
		const r = await env.run({ parameters: params({ returnAll: true }) });
		expect(r.error).toBeUndefined();
		expect(r.api).toHaveLength(1);
		expectGet(r.api[0], {
			path: '/api/v3/odata/locations',
			query: { $top: '50', $skip: '0', $count: 'true' },
		});
		expectBearer(env, r.api[0]);
		expect(r.output.map((o) => o.json.Id)).toEqual([501, 502, 503, 504, 505]);
		expect(Object.keys(r.output[0].json)).not.toContain('Notes');
		expect(r.output[0].json).toMatchObject({ StoreId: 'S501', Region: 'Southwest' });
	});

	test('the Filters become one $filter: contains on name or store number, lists of cities, the region and district', async () => {
		const r = await env.run({
			parameters: params({
				returnAll: true,
				simplify: false,
				filters: {
					search: 'Store #50',
					city: 'Dallas, Fort Worth, Plano',
					state: 'TX',
					region: 'Southwest',
					district: 'North Texas',
				},
			}),
		});
		expect(r.error).toBeUndefined();
		expect(r.api[0].query.$filter).toBe(
			"(contains(Name,'Store #50') or contains(StoreId,'Store #50')) and (City eq 'Dallas' or City eq 'Fort Worth' or City eq 'Plano') and State eq 'TX' and Region eq 'Southwest' and District eq 'North Texas'",
		);
		expect(r.output.map((o) => o.json.Id)).toEqual([501, 502, 505]);
		expect(r.output.map((o) => o.json)).toEqual(responseJson(r.api[0]).value);
	});

	test("a store number or digits find it; a quote in the search is escaped (O'Hare)", async () => {
		const r = await env.run({ parameters: params({ filters: { search: '503' } }) });
		expect(r.api[0].query.$filter).toBe(
			"(contains(Name,'503') or contains(StoreId,'503') or Id eq 503)",
		);
		expect(r.output.map((o) => o.json.Id)).toEqual([503]);
		const q = await env.run({ parameters: params({ filters: { search: "O'Hare" } }) });
		expect(q.api[0].query.$filter).toBe(
			"(contains(Name,'O''Hare') or contains(StoreId,'O''Hare'))",
		);
		expect(q.output).toEqual([]);
	});

	test('Limit 2: $top=2, two items', async () => {
		const r = await env.run({ parameters: params({ limit: 2 }) });
		expect(r.api[0].query).toMatchObject({ $top: '2', $skip: '0' });
		expect(r.output.map((o) => o.json.Id)).toEqual([501, 502]);
	});

	test('a filter that is not text is refused before any request', async () => {
		const r = await env.run({ parameters: params({ filters: { city: '={{ { a: 1 } }}' } }) });
		expectValidationError(r, { parameter: 'filters.city', item: 0, problem: /must be text/ });
		expect(r.api).toHaveLength(0);
	});
});
