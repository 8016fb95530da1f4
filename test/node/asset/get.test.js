'use strict';
/**
 * asset.get: GET /assets/{assetId} (AssetResponse) with the narrowing query the reference allows
 * (locationId, storeId, tagId, trackingNumber); the asset picker and plain IDs; the service's 404.
 */
const {
	useEnvironment,
	items,
	expectBearer,
	expectGet,
	expectValidationError,
	expectApiError,
	responseJson,
} = require('../helpers');

const env = useEnvironment();

const rl = (value, mode = 'list') => ({ __rl: true, mode, value });
const params = (extra = {}) => ({ resource: 'asset', operation: 'get', ...extra });

describe('asset.get', () => {
	test('by ID alone: one GET without a query, the asset as the service sent it', async () => {
		const r = await env.run({ parameters: params({ assetId: rl('50101', 'id') }) });
		expect(r.error).toBeUndefined();
		expectGet(r.api[0], { path: '/api/v3/assets/50101' });
		expectBearer(env, r.api[0]);
		expect(r.output.map((o) => o.json)).toEqual([responseJson(r.api[0])]);
		expect(r.output[0].json).toMatchObject({
			Id: 50101,
			Tag: 'WIF-501-1',
			Type: 'Walk-in Freezer',
			Trade: 'REFRIGERATION',
			LocationId: 501,
		});
	});

	test("with the location, store number, tag and work order: all sent as the query; a mismatch is the service's 404", async () => {
		const wo = env.emulator.workOrderList().find((w) => w.LocationId === 501);
		const r = await env.run({
			parameters: params({
				locationId: rl('501'),
				assetId: rl('50102'),
				options: { storeId: ' S501 ', tagId: 'RIC-501-2', trackingNumber: String(wo.Id) },
			}),
		});
		expect(r.error).toBeUndefined();
		expectGet(r.api[0], {
			path: '/api/v3/assets/50102',
			query: {
				storeId: 'S501',
				tagId: 'RIC-501-2',
				trackingNumber: String(wo.Id),
				locationId: '501',
			},
		});
		expect(r.output[0].json.Id).toBe(50102);
		const miss = await env.run({
			parameters: params({ assetId: rl('50102'), options: { tagId: 'WIF-501-1' } }),
		});
		expectApiError(miss, { status: 404, serviceMessage: 'Asset 50102 was not found' });
	});

	test('a bad asset ID or work order ID is refused before any request', async () => {
		const r = await env.run({
			parameters: params({ assetId: '={{ $json.a }}' }),
			items: items({ a: 0 }),
		});
		expectValidationError(r, { parameter: 'assetId', item: 0, problem: /1 or greater/ });
		const t = await env.run({
			parameters: params({ assetId: rl('50101'), options: { trackingNumber: 'WO-1' } }),
		});
		expectValidationError(t, {
			parameter: 'options.trackingNumber',
			item: 0,
			problem: /positive whole number/,
		});
		expect(r.api.length + t.api.length).toBe(0);
	});
});
