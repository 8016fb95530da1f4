'use strict';
/**
 * location.get: GET /locations/{locationId} (part C's LocationWithTimezoneName); the Location
 * picker (From List / By ID) and a plain ID of an older workflow; Simplify; the service's refusal.
 */
const {
	useEnvironment,
	items,
	expectBearer,
	expectGet,
	pairedIndexes,
	expectValidationError,
	expectApiError,
	responseJson,
} = require('../helpers');

const env = useEnvironment();

const params = (extra = {}) => ({ resource: 'location', operation: 'get', ...extra });
const rl = (value, mode = 'list') => ({ __rl: true, mode, value });

describe('location.get', () => {
	test('From List: one GET, the compact location with Simplify (on by default)', async () => {
		const r = await env.run({ parameters: params({ locationId: rl('501') }) });
		expect(r.error).toBeUndefined();
		expect(r.api).toHaveLength(1);
		expectGet(r.api[0], { path: '/api/v3/locations/501' });
		expectBearer(env, r.api[0]);
		expect(r.output.map((o) => o.json)).toEqual([
			{
				Id: 501,
				StoreId: 'S501',
				Name: 'Store #501 Dallas Downtown',
				ShortName: 'S501',
				Status: 'Open',
				Address1: '1500 Main St',
				Address2: null,
				City: 'Dallas',
				State: 'TX',
				Zip: '75201',
				Country: 'USA',
				Region: 'Southwest',
				District: 'North Texas',
				Phone: '214-555-0101',
				Latitude: 32.7767,
				Longitude: -96.797,
				TimeZoneIanaName: 'America/Chicago',
			},
		]);
	});

	test('Simplify off: the record exactly as the service sent it; By ID and a plain number (older workflows) work too', async () => {
		const r = await env.run({
			parameters: params({ simplify: false, locationId: '={{ $json.id }}' }),
			items: items({ id: 504 }, { id: '505' }),
		});
		expect(r.error).toBeUndefined();
		expect(r.api.map((q) => q.path)).toEqual(['/api/v3/locations/504', '/api/v3/locations/505']);
		expect(r.output.map((o) => o.json)).toEqual(r.api.map(responseJson));
		expect(r.output[0].json.TimezoneName).toBe('America/Chicago');
		expect(pairedIndexes(r.output)).toEqual([0, 1]);
		const byId = await env.run({ parameters: params({ locationId: rl(' 502 ', 'id') }) });
		expect(byId.api[0].path).toBe('/api/v3/locations/502');
	});

	test('an empty or non-numeric Location is refused before any request, naming the parameter and the item', async () => {
		const r = await env.run({
			parameters: params({ locationId: '={{ $json.id }}' }),
			items: items({ id: '' }),
		});
		expectValidationError(r, { parameter: 'locationId', item: 0, problem: /chosen from the list/ });
		expect(r.api).toHaveLength(0);
		const bad = await env.run({
			parameters: params({ locationId: '={{ $json.id }}' }),
			items: items({ id: 'S501' }),
		});
		expectValidationError(bad, {
			parameter: 'locationId',
			item: 0,
			problem: /positive whole number/,
		});
		expect(bad.api).toHaveLength(0);
	});

	test("another subscriber's location: the service's 400 (NoAccessToLocation) as the error; Continue On Fail keeps the others", async () => {
		const r = await env.run({ parameters: params({ locationId: rl('701', 'id') }) });
		expectApiError(r, { status: 400, serviceMessage: 'No access to location 701' });
		const c = await env.run({
			parameters: params({ locationId: '={{ $json.id }}' }),
			items: items({ id: 701 }, { id: 502 }),
			continueOnFail: true,
		});
		expect(c.result.status).toBe('success');
		expect(c.output[0].json.error).toMatch(/No access to location 701/);
		expect(c.output[1].json.Id).toBe(502);
		expect(pairedIndexes(c.output)).toEqual([0, 1]);
	});
});
