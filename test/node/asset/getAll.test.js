'use strict';
/**
 * asset.getAll: GET /assets/locations/{locationId}[?trade=] (AssetsInfoResponse): one item per
 * asset of `Assets`, Limit, the trade dropdown's value, the service's 404.
 */
const {
	useEnvironment,
	items,
	expectGet,
	pairedIndexes,
	expectApiError,
	responseJson,
} = require('../helpers');

const env = useEnvironment();

const rl = (value, mode = 'list') => ({ __rl: true, mode, value });
const params = (extra = {}) => ({ resource: 'asset', operation: 'getAll', ...extra });

describe('asset.getAll', () => {
	test('every asset of the location, one item each, as sent', async () => {
		const r = await env.run({ parameters: params({ locationId: rl('502'), returnAll: true }) });
		expect(r.error).toBeUndefined();
		expectGet(r.api[0], { path: '/api/v3/assets/locations/502' });
		expect(r.output.map((o) => o.json)).toEqual(responseJson(r.api[0]).Assets);
		expect(r.output.map((o) => o.json.Id)).toEqual([50201, 50202, 50203, 50204, 50205]);
	});

	test("of one trade (the dropdown's name), Limit 1, per item", async () => {
		const r = await env.run({
			parameters: params({ locationId: '={{ $json.loc }}', trade: 'REFRIGERATION', limit: 1 }),
			items: items({ loc: 501 }, { loc: '504' }),
		});
		expect(r.error).toBeUndefined();
		expect(r.api.map((q) => [q.path, q.query])).toEqual([
			['/api/v3/assets/locations/501', { trade: 'REFRIGERATION' }],
			['/api/v3/assets/locations/504', { trade: 'REFRIGERATION' }],
		]);
		expect(r.output.map((o) => [o.json.Id, o.json.Type])).toEqual([
			[50101, 'Walk-in Freezer'],
			[50401, 'Walk-in Freezer'],
		]);
		expect(pairedIndexes(r.output)).toEqual([0, 1]);
	});

	test("another subscriber's location: the service's 404", async () => {
		const r = await env.run({ parameters: params({ locationId: rl('801', 'id') }) });
		expectApiError(r, { status: 404, serviceMessage: 'No access to location 801' });
	});
});
