'use strict';
/**
 * The pickers of the places (methods/placeSearch.ts) through n8n-core's LoadOptionsContext:
 * Location "From List" (GET /odata/locations, searched by name and store number), the Trade
 * dropdown (the trades at the chosen location, or all), the Provider dropdown (the chosen trade's
 * providers), the Asset list and dropdown (the chosen location's assets of the chosen trade; for
 * Attach: the work order's). The requests as the emulator received them, the options as offered,
 * nothing requested for a choice given as an expression.
 */
const { useEnvironment, expectBearer, loadOptions, listSearch } = require('../helpers');

const env = useEnvironment();

const api = () => env.emulator.requests.filter((q) => q.path.startsWith('/api/'));
const rl = (value, mode = 'list') => ({ __rl: true, mode, value });
const create = (extra = {}) => ({ resource: 'workOrder', operation: 'create', ...extra });

beforeEach(() => env.emulator.clearRequests());

describe('Location: From List', () => {
	test('no search: every location by name, the value its ID, the name with store number and city', async () => {
		const r = await listSearch(env, 'searchLocations', create(), 'location');
		expect(api().map((q) => [q.path, q.query])).toEqual([
			[
				'/api/v3/odata/locations',
				{
					$orderby: 'Name',
					$select: 'Id,StoreId,Name,City,State',
					$top: '50',
					$skip: '0',
					$count: 'true',
				},
			],
		]);
		expectBearer(env, api()[0]);
		expect(r.results).toEqual([
			{ name: 'S501 · Store #501 Dallas Downtown (Dallas, TX)', value: '501' },
			{ name: 'S502 · Store #502 Fort Worth (Fort Worth, TX)', value: '502' },
			{ name: 'S503 · Store #503 Houston (Houston, TX)', value: '503' },
			{ name: 'S504 · Store #504 Austin (Austin, TX)', value: '504' },
			{ name: 'S505 · Store #505 Plano (Plano, TX)', value: '505' },
		]);
		expect(r.paginationToken).toBeUndefined();
	});

	test('a search: contains on name or store number (digits also the ID); a later page from the token', async () => {
		const r = await listSearch(env, 'searchLocations', create(), 'location', 'worth');
		expect(api()[0].query.$filter).toBe("contains(Name,'worth') or contains(StoreId,'worth')");
		expect(r.results.map((x) => x.value)).toEqual(['502']);
		env.emulator.clearRequests();
		const s = await listSearch(env, 'searchLocations', create(), 'location', 'S50');
		expect(s.results).toHaveLength(5);
		env.emulator.clearRequests();
		const d = await listSearch(env, 'searchLocations', create(), 'location', '504');
		expect(api()[0].query.$filter).toBe(
			"contains(Name,'504') or contains(StoreId,'504') or Id eq 504",
		);
		expect(d.results.map((x) => x.value)).toEqual(['504']);
		env.emulator.clearRequests();
		await listSearch(env, 'searchLocations', create(), 'location', undefined, '50');
		expect(api()[0].query.$skip).toBe('50');
	});
});

describe('Trade dropdown', () => {
	test("no location chosen: all the subscriber's trades by name (value = the name)", async () => {
		const options = await loadOptions(env, 'getTrades', create(), 'tradeName');
		expect(api().map((q) => q.path)).toEqual(['/api/v3/odata/trades']);
		expect(api()[0].query).toMatchObject({ $orderby: 'Name' });
		expect(options.map((o) => o.value)).toEqual([
			'DOORS',
			'ELECTRICAL',
			'GENERAL MAINTENANCE',
			'HVAC',
			'PLUMBING',
			'REFRIGERATION',
		]);
		expect(options.find((o) => o.value === 'HVAC')).toEqual({
			name: 'HVAC',
			value: 'HVAC',
			description: 'Trade ID 1',
		});
	});

	test("a location chosen (create From List, By ID, the places' Location, Work Order Get Many's Options): the trades there", async () => {
		for (const parameters of [
			create({ location: rl('503') }),
			create({ location: rl('503', 'id') }),
			{ resource: 'asset', operation: 'getAll', locationId: rl('503') },
			{ resource: 'workOrder', operation: 'getAll', options: { locationId: rl('503') } },
		]) {
			env.emulator.clearRequests();
			const options = await loadOptions(env, 'getTrades', parameters, 'trade');
			expect(api().map((q) => q.path)).toEqual(['/api/v3/odata/locations(503)/trades']);
			expect(options.map((o) => o.value)).not.toContain('GENERAL MAINTENANCE');
			expect(options).toHaveLength(5);
		}
	});

	test('a location given as an expression or a store number: all the trades', async () => {
		await loadOptions(
			env,
			'getTrades',
			create({ location: rl('={{ $json.loc }}', 'id') }),
			'tradeName',
		);
		await loadOptions(env, 'getTrades', create({ location: rl('S501', 'storeId') }), 'tradeName');
		expect(api().map((q) => q.path)).toEqual(['/api/v3/odata/trades', '/api/v3/odata/trades']);
	});
});

describe('Provider dropdown', () => {
	test('the providers of the chosen trade; the value is the ID; Do Not Dispatch said in the name', async () => {
		const options = await loadOptions(
			env,
			'getProviders',
			create({ tradeName: 'DOORS' }),
			'providerId',
		);
		expect(api().map((q) => [q.path, q.query])).toEqual([
			['/api/v3/providers/getbytrade', { trade: 'DOORS' }],
		]);
		expect(options).toEqual([
			{ name: 'Acme Facility Services', value: '3001', description: 'Provider ID 3001' },
			{ name: 'Bright HVAC Inc.', value: '3002', description: 'Provider ID 3002' },
			{
				name: 'Swing Door Repair Co. (Do Not Dispatch)',
				value: '3004',
				description:
					'Provider ID 3004. Marked Do Not Dispatch: the service refuses to send it work.',
			},
		]);
	});

	test('no trade chosen, or one from an expression: nothing to offer, no request', async () => {
		expect(await loadOptions(env, 'getProviders', create(), 'providerId')).toEqual([]);
		expect(
			await loadOptions(
				env,
				'getProviders',
				create({ tradeName: '={{ $json.trade }}' }),
				'providerId',
			),
		).toEqual([]);
		expect(api()).toEqual([]);
	});
});

describe('Asset list and dropdown', () => {
	test("Asset Get: the chosen location's assets, searched by tag, type, maker", async () => {
		const all = await listSearch(
			env,
			'searchAssets',
			{ resource: 'asset', operation: 'get', locationId: rl('501') },
			'assetId',
		);
		expect(api().map((q) => [q.path, q.query])).toEqual([['/api/v3/assets/locations/501', {}]]);
		expect(all.results).toHaveLength(5);
		expect(all.results[0]).toEqual({
			name: 'WIF-501-1 · Walk-in Freezer (REFRIGERATION, Kolpak KF7-0810-CR)',
			value: '50101',
		});
		const found = await listSearch(
			env,
			'searchAssets',
			{ resource: 'asset', operation: 'get', locationId: rl('501') },
			'assetId',
			'cooler',
		);
		expect(found.results.map((x) => x.value)).toEqual(['50102']);
	});

	test("Attach To Work Order: the assets at the work order's location, of its trade", async () => {
		const wo = env.emulator.createWorkOrder({ LocationId: 504, Trade: 'REFRIGERATION' });
		env.emulator.clearRequests();
		const r = await listSearch(
			env,
			'searchAssets',
			{ resource: 'asset', operation: 'attachToWorkOrder', workOrderId: rl(String(wo.Id)) },
			'assetId',
		);
		expect(api().map((q) => [q.path, q.query])).toEqual([
			[`/api/v3/workorders/${wo.Id}`, {}],
			['/api/v3/assets/locations/504', { trade: 'REFRIGERATION' }],
		]);
		expect(r.results.map((x) => x.value)).toEqual(['50401', '50402']);
	});

	test("Work Order Create's Asset dropdown: the chosen location's assets of the chosen trade; no location, none", async () => {
		const options = await loadOptions(
			env,
			'getAssets',
			create({ location: rl('505'), tradeName: 'HVAC' }),
			'additionalFields.assetId',
		);
		expect(api().map((q) => [q.path, q.query])).toEqual([
			['/api/v3/assets/locations/505', { trade: 'HVAC' }],
		]);
		expect(options).toEqual([
			{
				name: 'RU-505-3 · Rooftop Unit (HVAC, Carrier 48TCED08)',
				value: '50503',
				description: 'Asset ID 50503',
			},
		]);
		env.emulator.clearRequests();
		expect(await loadOptions(env, 'getAssets', create(), 'additionalFields.assetId')).toEqual([]);
		expect(api()).toEqual([]);
	});
});
