'use strict';
/**
 * workOrder.create with the places' pickers: Location From List (and the older By ID / store
 * number / plain value), Trade and Provider from their dropdowns, Asset from the location's; the
 * service's refusals of a trade the location lacks and of a provider without a contract for the
 * trade. Work Order Get Many's Location picker (and a plain ID saved before it was one).
 */
const { useEnvironment, items, expectJsonRequest, expectApiError } = require('../helpers');

const env = useEnvironment();

const rl = (value, mode = 'list') => ({ __rl: true, mode, value });

const REQUIRED = {
	resource: 'workOrder',
	operation: 'create',
	location: rl('501'),
	tradeName: 'REFRIGERATION',
	category: 'REPAIR',
	priority: 'P1 - Emergency',
	description: 'Walk-in freezer at 20F',
	problemCode: 'NOT COOLING',
	callDate: '2026-05-01T09:30:00',
};

describe('workOrder.create with the pickers', () => {
	test('Location From List, Trade and Provider from the dropdowns, Asset from the location: the CreateWoRequest and the work order', async () => {
		const r = await env.run({
			parameters: { ...REQUIRED, providerId: '3003', additionalFields: { assetId: '50101' } },
		});
		expect(r.error).toBeUndefined();
		expectJsonRequest(r.api[0], {
			method: 'POST',
			path: '/api/v3/workorders',
			body: {
				ContractInfo: { LocationId: 501, TradeName: 'REFRIGERATION', ProviderId: 3003 },
				Category: 'REPAIR',
				Priority: 'P1 - Emergency',
				Description: 'Walk-in freezer at 20F',
				ProblemCode: 'NOT COOLING',
				CallDate: '2026-05-01T09:30:00',
				AssetId: 50101,
			},
		});
		const wo = env.emulator.workOrder(r.output[0].json.id);
		expect(wo).toMatchObject({
			LocationId: 501,
			Trade: 'REFRIGERATION',
			Provider: { Id: 3003 },
			Asset: { Id: 50101 },
		});
	});

	test('saved before the pickers: a plain location number, a provider ID typed as text; By ID and By Store Number still work', async () => {
		const r = await env.run({
			parameters: { ...REQUIRED, location: '={{ $json.loc }}', providerId: '={{ $json.p }}' },
			items: items({ loc: 502, p: '3001' }),
		});
		expect(r.error).toBeUndefined();
		expect(r.api[0].body.ContractInfo).toEqual({
			LocationId: 502,
			TradeName: 'REFRIGERATION',
			ProviderId: 3001,
		});
		const s = await env.run({ parameters: { ...REQUIRED, location: rl('S503', 'storeId') } });
		expect(s.api[0].body.ContractInfo).toEqual({ StoreId: 'S503', TradeName: 'REFRIGERATION' });
	});

	test("the service's refusals: a trade the location lacks (702), a provider without a contract for the trade (301), an asset of another trade", async () => {
		const lacks = await env.run({
			parameters: { ...REQUIRED, location: rl('503'), tradeName: 'GENERAL MAINTENANCE' },
		});
		expectApiError(lacks, {
			status: 400,
			serviceMessage: "Trade 'GENERAL MAINTENANCE' is not a trade of location 503",
		});
		const contract = await env.run({
			parameters: { ...REQUIRED, tradeName: 'HVAC', providerId: '3003' },
		});
		expectApiError(contract, { status: 400, serviceMessage: 'has no contract for trade' });
		const asset = await env.run({
			parameters: { ...REQUIRED, additionalFields: { assetId: '50103' } },
		});
		expectApiError(asset, { status: 400, serviceMessage: 'does not match the work order' });
	});
});

describe('workOrder.getAll: Options > Location', () => {
	test('From List, By ID, or a plain number of an older workflow: /odata/locations({id})/workorders', async () => {
		for (const locationId of [rl('504'), rl('504', 'id'), '504', 504]) {
			const r = await env.run({
				parameters: {
					resource: 'workOrder',
					operation: 'getAll',
					limit: 1,
					simplify: false,
					options: { locationId },
				},
			});
			expect(r.error).toBeUndefined();
			expect(r.api[0].path).toBe('/api/v3/odata/locations(504)/workorders');
			expect(r.output[0].json.LocationId).toBe(504);
		}
	});

	test('the Trade filter from the dropdown (one name) or a comma list saved before: the same $filter shape', async () => {
		const r = await env.run({
			parameters: {
				resource: 'workOrder',
				operation: 'getAll',
				limit: 5,
				simplify: false,
				filters: { trades: 'REFRIGERATION, DOORS' },
			},
		});
		expect(r.api[0].query.$filter).toBe("(Trade eq 'REFRIGERATION' or Trade eq 'DOORS')");
		expect(new Set(r.output.map((o) => o.json.Trade))).toEqual(new Set(['REFRIGERATION', 'DOORS']));
	});
});
