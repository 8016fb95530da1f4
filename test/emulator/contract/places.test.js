'use strict';

/**
 * The emulator's locations, assets, trades and providers (service-reference-c.md; routes of
 * ../api-places.js, data of ../places.js): part C's objects with every property, who sees what,
 * the refusals with the reference's code names, consistency with the seeded work orders (a work
 * order's location is a location, its trade a trade there, its provider a provider of that trade),
 * the work-order create checks that follow from it, and the location and asset events delivered
 * to webhooks. Requests marked `deliberate` are invalid on purpose.
 */

const http = require('node:http');
const { useEmulator, token, api } = require('./helpers');
const { definitions } = require('../../contract/reference');

/** @type {import('../index').Emulator} */
let emu;
useEmulator((e) => {
	emu = e;
});

const props = (/** @type {string} */ name) => Object.keys(definitions[name].properties);

/** A refusal of part C: ErrorResponse with the reference's code name. @param {any} r @param {number} status @param {string} code */
function expectRefusal(r, status, code) {
	expect(r.status).toBe(status);
	expect(r.body).toEqual({
		ErrorCodes: [code],
		ErrorCode: code,
		ErrorMessage: expect.any(String),
		Data: null,
	});
}

const CREATE = {
	ContractInfo: { LocationId: 501, TradeName: 'REFRIGERATION' },
	Category: 'REPAIR',
	Priority: 'P1 - Emergency',
	CallDate: '2026-05-01T09:30:00',
	Description: 'Walk-in freezer at 20F',
	ProblemCode: 'NOT COOLING',
};

describe('locations', () => {
	test("GET /odata/locations: C.Location with every property, the subscriber's only, OData filter on name or store number", async () => {
		const t = await token();
		const all = await api('GET', '/odata/locations', { token: t });
		expect(all.status).toBe(200);
		expect(all.body.value.map((/** @type {any} */ l) => l.Id)).toEqual([501, 502, 503, 504, 505]);
		for (const l of all.body.value) expect(Object.keys(l)).toEqual(props('C.Location'));
		expect(all.body.value[0]).toMatchObject({
			StoreId: 'S501',
			Name: 'Store #501 Dallas Downtown',
			City: 'Dallas',
			State: 'TX',
			Region: 'Southwest',
			District: 'North Texas',
			TimeZoneIanaName: 'America/Chicago',
			ClosedDate: null,
		});
		// private notes are not part of the location
		expect(all.body.value[0].Notes.map((/** @type {any} */ n) => n.Header)).toEqual(['Access']);
		const found = await api(
			'GET',
			`/odata/locations?$filter=${encodeURIComponent("contains(Name,'worth') or contains(StoreId,'504')")}&$count=true`,
			{ token: t },
		);
		expect(found.body['@odata.count']).toBe(2);
		expect(found.body.value.map((/** @type {any} */ l) => l.Id)).toEqual([502, 504]);
		const district = await api(
			'GET',
			`/odata/locations?$filter=${encodeURIComponent("District eq 'north texas' and State eq 'TX'")}`,
			{ token: t },
		);
		expect(district.body.value.map((/** @type {any} */ l) => l.Id)).toEqual([501, 502, 505]);
		const bad = await api('GET', '/odata/locations?$filter=LocationName%20eq%20%27x%27', {
			token: t,
			deliberate: 'unknown OData property',
		});
		expect(bad.status).toBe(400);
		expect(bad.body.error.message).toMatch(/LocationName/);
	});

	test('a provider user sees the locations of its work orders; a child-scoped subscriber its own', async () => {
		const c = await token('contractor');
		const r = await api('GET', '/odata/locations', { token: c });
		const expected = [
			...new Set(
				emu
					.workOrderList()
					.filter((wo) => wo.ProviderId === 3001)
					.map((wo) => wo.LocationId),
			),
		].sort();
		expect(r.body.value.map((/** @type {any} */ l) => l.Id)).toEqual(expected);
	});

	test("GET /locations/{id}: C.LocationWithTimezoneName; another subscriber's 400 NoAccessToLocation, unknown 400 UnknownLocation", async () => {
		const t = await token();
		const r = await api('GET', '/locations/504', { token: t });
		expect(r.status).toBe(200);
		expect(Object.keys(r.body)).toEqual(props('C.LocationWithTimezoneName'));
		expect(r.body).toMatchObject({ Id: 504, TimezoneName: 'America/Chicago', City: 'Austin' });
		expectRefusal(await api('GET', '/locations/701', { token: t }), 400, 'NoAccessToLocation');
		expectRefusal(await api('GET', '/locations/999', { token: t }), 400, 'UnknownLocation');
	});

	test('notes: GET answers one LocationNote (the last written; private ones with privateNotes=true); POST writes a header, new or known', async () => {
		const t = await token();
		const pub = await api('GET', '/locations/502/notes', { token: t });
		expect(pub.status).toBe(200);
		expect(Object.keys(pub.body)).toEqual(props('C.LocationNote'));
		expect(pub.body.Header).toBe('Access');
		const priv = await api('GET', '/locations/502/notes?privateNotes=true', { token: t });
		expect(priv.body.Header).toBe('Alarm Code');

		const before = emu.webhooks.events.length;
		const w = await api('POST', '/locations/502/notes', {
			token: t,
			json: { Header: 'Freezer', Value: 'Walk-in freezer WIF-502-1 on work order 1' },
		});
		expect(w.status).toBe(200);
		expect(w.text).toBe('');
		const after = await api('GET', '/locations/502/notes', { token: t });
		expect(after.body).toMatchObject({
			Header: 'Freezer',
			Value: expect.stringMatching(/WIF-502-1/),
		});
		const again = await api('POST', '/locations/502/notes', {
			token: t,
			json: { Header: 'freezer', Value: 'replaced' },
		});
		expect(again.status).toBe(200);
		expect(
			emu.state.locationNotes[502].filter((/** @type {any} */ n) => n.Header === 'Freezer'),
		).toHaveLength(1);
		expect(emu.webhooks.events.slice(before).map((e) => e.eventType)).toEqual([
			'LocationNoteHeaderCreated',
			'LocationNotesChanged',
			'LocationNoteHeaderUpdated',
			'LocationNotesChanged',
		]);
		expect(emu.webhooks.events.at(-1)).toMatchObject({
			accounts: ['subscriber:1001'],
			object: { Id: 502, StoreId: 'S502', Notes: [{ Header: 'Freezer', Value: 'replaced' }] },
		});
	});

	test('POST notes refused: no Header 400 InvalidLocationNoteHeader, a provider user 403, an unknown location 404, an unknown field 400', async () => {
		const t = await token();
		expectRefusal(
			await api('POST', '/locations/501/notes', { token: t, json: { Value: 'x' } }),
			400,
			'InvalidLocationNoteHeader',
		);
		expectRefusal(
			await api('POST', '/locations/501/notes', {
				token: await token('contractor'),
				json: { Header: 'A', Value: 'x' },
			}),
			403,
			'NoAccessToLocation',
		);
		expectRefusal(
			await api('POST', '/locations/999/notes', { token: t, json: { Header: 'A', Value: 'x' } }),
			404,
			'UnknownLocation',
		);
		const unknown = await api('POST', '/locations/501/notes', {
			token: t,
			json: { Header: 'A', Note: 'x' },
			deliberate: 'a field UpdateLocationNoteHeaderApiModelRequest does not have',
		});
		expect(unknown.status).toBe(400);
		expect(unknown.body.ErrorMessage).toMatch(/Note/);
	});

	test('PUT and DELETE /locations/{id} are not served (not for this connector): 405', async () => {
		const t = await token();
		const r = await api('DELETE', '/locations/501', { token: t, deliberate: 'not served' });
		expect(r.status).toBe(405);
	});
});

describe('trades and providers', () => {
	test("GET /odata/trades: the subscriber's trades (C.Trade); the IDs are the checklists' trade IDs", async () => {
		const t = await token();
		const r = await api('GET', '/odata/trades?$orderby=Name', { token: t });
		expect(r.status).toBe(200);
		for (const x of r.body.value) expect(Object.keys(x)).toEqual(props('C.Trade'));
		expect(r.body.value.map((/** @type {any} */ x) => [x.Name, x.Id, x.SubscriberId])).toEqual([
			['DOORS', 5, 1001],
			['ELECTRICAL', 3, 1001],
			['GENERAL MAINTENANCE', 6, 1001],
			['HVAC', 1, 1001],
			['PLUMBING', 2, 1001],
			['REFRIGERATION', 4, 1001],
		]);
	});

	test('GET /odata/locations({id})/trades: the trades at the location (general maintenance only at 501 and 502); unknown 400', async () => {
		const t = await token();
		const at501 = await api('GET', '/odata/locations(501)/trades', { token: t });
		const at503 = await api('GET', '/odata/locations(503)/trades', { token: t });
		expect(at501.body.value.map((/** @type {any} */ x) => x.Name)).toContain('GENERAL MAINTENANCE');
		expect(at503.body.value.map((/** @type {any} */ x) => x.Name)).not.toContain(
			'GENERAL MAINTENANCE',
		);
		expect(at503.body.value).toHaveLength(5);
		const unknown = await api('GET', '/odata/locations(999)/trades', { token: t });
		expect(unknown.status).toBe(400);
		expect(unknown.body).toMatchObject({ Code: 'UnknownLocation', StatusCode: 'BadRequest' });
	});

	test('every seeded work order fits: its location is a location, its trade a trade there, its provider a provider of that trade', () => {
		for (const wo of emu.workOrderList()) {
			const loc = emu.state.locations[wo.LocationId];
			expect(loc).toBeDefined();
			expect(emu.state.locationTrades[loc.Id]).toContain(wo.Trade);
			expect(emu.state.providerTrades[wo.SubscriberId][wo.Trade.toLowerCase()]).toContain(
				wo.ProviderId,
			);
		}
	});

	test('GET /providers/getbytrade?trade=: ProviderInfo[] of the trade (any case), DoNotDispatch told; none for an unknown trade; no trade 400', async () => {
		const t = await token();
		const r = await api('GET', '/providers/getbytrade?trade=doors', { token: t });
		expect(r.status).toBe(200);
		for (const x of r.body) expect(Object.keys(x)).toEqual(props('C.ProviderInfo'));
		expect(r.body).toEqual([
			{ Id: 3001, Name: 'Acme Facility Services', DoNotDispatch: false },
			{ Id: 3002, Name: 'Bright HVAC Inc.', DoNotDispatch: false },
			{ Id: 3004, Name: 'Swing Door Repair Co.', DoNotDispatch: true },
		]);
		const none = await api('GET', '/providers/getbytrade?trade=ROOFING', { token: t });
		expect(none.body).toEqual([]);
		expectRefusal(
			await api('GET', '/providers/getbytrade', { token: t, deliberate: 'trade is required' }),
			400,
			'EmptyTrade',
		);
		const mine = await api('GET', '/providers/getbytrade?trade=REFRIGERATION', {
			token: await token('contractor'),
		});
		expect(mine.body.map((/** @type {any} */ x) => x.Id)).toEqual([3001]);
	});

	test('POST /workorders: a trade the location lacks 702, a provider without a contract for the trade 301, a Do Not Dispatch provider 301, a provider of the trade 201', async () => {
		const t = await token();
		const post = (/** @type {any} */ contract) =>
			api('POST', '/workorders', { token: t, json: { ...CREATE, ContractInfo: contract } });
		const lacks = await post({ LocationId: 503, TradeName: 'GENERAL MAINTENANCE' });
		expect(lacks.status).toBe(400);
		expect(lacks.body.ErrorCode).toBe(702);
		const noContract = await post({ LocationId: 501, TradeName: 'HVAC', ProviderId: 3003 });
		expect(noContract.body.ErrorCode).toBe(301);
		const dnd = await post({ LocationId: 501, TradeName: 'DOORS', ProviderId: 3004 });
		expect(dnd.body.ErrorCode).toBe(301);
		expect(dnd.body.ErrorMessage).toMatch(/Do Not Dispatch/);
		const ok = await post({ LocationId: 501, TradeName: 'REFRIGERATION', ProviderId: 3003 });
		expect(ok.status).toBe(201);
		expect(emu.workOrder(ok.body.id)).toMatchObject({
			ProviderId: 3003,
			Provider: { Id: 3003, Name: 'Polar Refrigeration LLC' },
			Trade: 'REFRIGERATION',
		});
	});
});

describe('assets', () => {
	test('GET /assets/locations/{id}[?trade]: AssetsInfoResponse with C.AssetResponse items, filtered by trade', async () => {
		const t = await token();
		const all = await api('GET', '/assets/locations/501', { token: t });
		expect(all.status).toBe(200);
		expect(Object.keys(all.body)).toEqual(props('C.AssetsInfoResponse'));
		expect(all.body.Assets).toHaveLength(5);
		for (const a of all.body.Assets) expect(Object.keys(a)).toEqual(props('C.AssetResponse'));
		const fridge = await api('GET', '/assets/locations/501?trade=refrigeration', { token: t });
		expect(
			fridge.body.Assets.map((/** @type {any} */ a) => [a.Id, a.Type, a.Trade, a.TradeId]),
		).toEqual([
			[50101, 'Walk-in Freezer', 'REFRIGERATION', 4],
			[50102, 'Reach-in Cooler', 'REFRIGERATION', 4],
		]);
		expectRefusal(
			await api('GET', '/assets/locations/701', { token: t }),
			404,
			'NoAccessToLocation',
		);
	});

	test('GET /assets/{id}: the asset; locationId, storeId, tagId, trackingNumber narrow it (a mismatch 404 AssetDoesntExist)', async () => {
		const t = await token();
		const r = await api('GET', '/assets/50101?locationId=501&storeId=S501&tagId=wif-501-1', {
			token: t,
		});
		expect(r.status).toBe(200);
		expect(r.body).toMatchObject({ Id: 50101, Tag: 'WIF-501-1', StoreId: 'S501', LocationId: 501 });
		const woAt501 = emu.workOrderList().find((wo) => wo.LocationId === 501);
		expect(
			(await api('GET', `/assets/50101?trackingNumber=${woAt501.Id}`, { token: t })).status,
		).toBe(200);
		for (const q of ['locationId=502', 'storeId=S502', 'tagId=RIC-501-2'])
			expectRefusal(await api('GET', `/assets/50101?${q}`, { token: t }), 404, 'AssetDoesntExist');
		expectRefusal(await api('GET', '/assets/70101', { token: t }), 404, 'AssetDoesntExist');
	});

	test('PUT /assets/workorders/{id}/attach: the asset goes on the work order (AssetUpdated); another location or trade 400', async () => {
		const t = await token();
		const created = await api('POST', '/workorders', { token: t, json: CREATE });
		const id = created.body.id;
		const before = emu.webhooks.events.length;
		const r = await api('PUT', `/assets/workorders/${id}/attach`, {
			token: t,
			json: { AssetId: 50101 },
		});
		expect(r.status).toBe(200);
		expect(r.body).toEqual({});
		expect(emu.workOrder(id)).toMatchObject({ AssetCount: 1, Asset: { Id: 50101 } });
		expect(emu.webhooks.events.slice(before).map((e) => [e.eventType, e.object.Id])).toEqual([
			['AssetUpdated', 50101],
		]);
		const read = await api('GET', `/workorders/${id}`, { token: t });
		expect(read.body.Assets.map((/** @type {any} */ a) => a.Id)).toEqual([50101]);
		expectRefusal(
			await api('PUT', `/assets/workorders/${id}/attach`, { token: t, json: { AssetId: 50103 } }),
			400,
			'AssetLocationTradeDoesntCorrespondToWO',
		);
		expectRefusal(
			await api('PUT', `/assets/workorders/${id}/attach`, { token: t, json: { AssetId: 50201 } }),
			400,
			'AssetLocationTradeDoesntCorrespondToWO',
		);
		expectRefusal(
			await api('PUT', `/assets/workorders/${id}/attach`, { token: t, json: { AssetId: 999 } }),
			400,
			'AssetDoesntExist',
		);
		expectRefusal(
			await api('PUT', '/assets/workorders/12345/attach', { token: t, json: { AssetId: 50101 } }),
			400,
			'WorkOrderNotFound',
		);
	});

	test('createAsset / updateAsset raise AssetCreated / AssetUpdated; the new asset is listed', async () => {
		const before = emu.webhooks.events.length;
		const a = emu.createAsset({ LocationId: 503, Trade: 'REFRIGERATION', Type: 'Ice Machine' });
		emu.updateAsset(a.Id, { Area: 'Front' });
		expect(emu.webhooks.events.slice(before).map((e) => e.eventType)).toEqual([
			'AssetCreated',
			'AssetUpdated',
		]);
		const r = await api('GET', '/assets/locations/503?trade=REFRIGERATION', {
			token: await token(),
		});
		expect(r.body.Assets.map((/** @type {any} */ x) => x.Id)).toContain(a.Id);
		expect(() => emu.updateAsset(a.Id, { Colour: 'red' })).toThrow(/not an asset field/);
	});
});

describe('events delivered', () => {
	test('a webhook subscribed to location and asset events receives a note written through the API and an attach', async () => {
		/** @type {any[]} */
		const got = [];
		const server = http.createServer((req, res) => {
			let body = '';
			req.on('data', (c) => (body += c));
			req.on('end', () => {
				got.push(JSON.parse(body));
				res.end();
			});
		});
		await new Promise((r) => server.listen(0, '127.0.0.1', () => r(undefined)));
		try {
			const url = `http://127.0.0.1:${/** @type {any} */ (server.address()).port}/hook`;
			const m = await token('manager');
			const hook = await api('POST', '/NotificationWebHooks', {
				token: m,
				json: {
					Name: 'places',
					Url: url,
					Enabled: true,
					Subscriptions: [
						{
							Name: 'locations and assets',
							EventTypes: ['LocationNoteHeaderCreated', 'LocationNotesChanged', 'AssetUpdated'],
						},
					],
				},
			});
			expect(hook.status).toBe(201);
			await api('POST', '/locations/505/notes', {
				token: m,
				json: { Header: 'Roof access', Value: 'Ladder in the stock room' },
			});
			emu.updateAsset(50501, { Area: 'Freezer aisle' });
			await emu.webhooksIdle();
			expect(got.map((e) => [e.EventType, e.Object.Id, e.Type])).toEqual([
				['LocationNoteHeaderCreated', 505, 'GenericRootNotification'],
				['LocationNotesChanged', 505, 'GenericRootNotification'],
				['AssetUpdated', 50501, 'GenericRootNotification'],
			]);
			expect(got[0].Object.Notes).toEqual([
				expect.objectContaining({ Header: 'Roof access', Value: 'Ladder in the stock room' }),
			]);
			expect(got[2].Object).toMatchObject({
				LocationId: 505,
				Trade: 'REFRIGERATION',
				Area: 'Freezer aisle',
			});
		} finally {
			await new Promise((r) => server.close(() => r(undefined)));
		}
	});
});
