'use strict';

/**
 * Work orders: check-in / check-out, the REST list and single work order, and the OData list
 * (paging of 50, $filter, $orderby, $select, locations, duplicates, recalls, nearby).
 * Every test starts a fresh emulator on a free port (./helpers.js) and talks to it over real HTTP.
 */

const { useEmulator, token, jwtLogin, api, expectError, expectODataError } = require('./helpers');

/** @type {import('../index').Emulator} */
let emu;
/** @type {any} */
let fx;
useEmulator((e) => {
	emu = e;
	fx = e.fixtures;
});

describe('check-in / check-out', () => {
	const AT = { Latitude: 32.7767, Longitude: -96.797 };

	test("universalCheckIn and universalCheckOut answer { MechanicId }; Service.CheckInActivity() lists the reference's CheckInActivity", async () => {
		const j = (await jwtLogin()).access_token;
		const wo = fx.workOrders.checklist;
		const a = await api('POST', `/workorders/${wo}/universalCheckIn`, {
			token: j,
			json: { WorkTypeId: 1, ...AT, TechsCount: 2 },
		});
		expect(a.status).toBe(200);
		expect(a.body).toEqual({ MechanicId: expect.any(Number) });
		expect(emu.state.workOrders[wo].Status).toEqual({
			Primary: 'IN PROGRESS',
			Extended: 'ON SITE',
			CanCreateInvoice: false,
		});
		const b = await api('POST', `/workorders/${wo}/universalCheckOut`, {
			token: j,
			json: { ...AT, PrimaryStatus: 'Completed', Resolution: 'Filters replaced' },
		});
		expect(b.status).toBe(200);
		expect(b.body).toEqual({ MechanicId: a.body.MechanicId + 1 });
		expect(emu.state.workOrders[wo]).toMatchObject({
			Status: { Primary: 'COMPLETED', Extended: 'PENDING CONFIRMATION' },
			Resolution: 'Filters replaced',
		});
		const list = await api('GET', `/odata/workorders(${wo})/Service.CheckInActivity()`, {
			token: j,
		});
		expect(list.status).toBe(200);
		expect(
			list.body.value.map((/** @type {any} */ x) => [x.Id, x.Action, x.WorkType, x.CheckInOutType]),
		).toEqual([
			[a.body.MechanicId, 'Check In', 'Repair', 'Gps'],
			[b.body.MechanicId, 'Check Out', 'Repair', 'Gps'],
		]);
		expect(list.body.value[1]).toMatchObject({
			User: { Id: fx.users.contractor.userId, UserName: fx.users.contractor.username },
			StatusChangedTo: { Primary: 'COMPLETED', Extended: 'PENDING CONFIRMATION' },
			Date: expect.stringMatching(/^\d{4}-\d\d-\d\dT[\d:.]+$/),
			Dto: expect.stringMatching(/-0[56]:00$/), // Dallas: US Central
		});
		expect(emu.state.checkIns).toHaveLength(2);
	});

	test("the reference's rules: position for repair (check-in) and repair or travel (check-out, not Cancel), never both signatures, Resolution not on Cancel", async () => {
		const t = await token();
		const wo = fx.workOrders.noChecklist;
		const why = 'a check-in/out the service refuses';
		const post = (/** @type {string} */ kind, /** @type {any} */ json) =>
			api('POST', `/workorders/${wo}/universal${kind}`, { token: t, json, deliberate: why });
		expectError(await post('CheckIn', {}), 400, 503);
		expectError(await post('CheckIn', { Latitude: 32.7 }), 400, 503);
		expectError(await post('CheckOut', AT), 400, 503); // no check-in yet
		expect(
			(
				await api('POST', `/workorders/${wo}/universalCheckIn`, {
					token: t,
					json: { WorkTypeId: 2 },
				})
			).status,
		).toBe(200); // travel: no position
		expectError(await post('CheckOut', { WorkTypeId: 2 }), 400, 503); // travel check-out needs the position
		expectError(
			await post('CheckOut', {
				...AT,
				SignatureAttachmentId: 1,
				UnableObtainSignatureNoteId: 15001,
			}),
			400,
			503,
		);
		expectError(await post('CheckOut', { ActionStatus: 'Cancel', Resolution: 'x' }), 400, 503);
		expectError(
			await post('CheckOut', { ...AT, WorkTypeId: 2, PrimaryStatus: 'Completed' }),
			400,
			503,
		);
		expectError(await post('CheckOut', { ...AT, ExtendedStatus: 'X' }), 400, 904);
		expectError(await post('CheckOut', { ...AT, CheckOutTime: '2026-01-01T10:00:00' }), 400, 503); // no offset
		expect(
			(
				await api('POST', `/workorders/${wo}/universalCheckOut`, {
					token: t,
					json: { WorkTypeId: 2, ActionStatus: 'Cancel' },
				})
			).status,
		).toBe(200);
		expect(emu.state.checkIns).toHaveLength(2);
	});

	test('bodies checked against the reference: missing body, invalid JSON, wrong types, unknown fields, a wrong content type', async () => {
		const t = await token();
		const wo = fx.workOrders.noChecklist;
		const why = 'a body the service refuses';
		expectError(
			await api('POST', `/workorders/${wo}/universalCheckIn`, { token: t, deliberate: why }),
			400,
			503,
		);
		expectError(
			await api('POST', `/workorders/${wo}/universalCheckIn`, {
				token: t,
				json: '{bad',
				deliberate: why,
			}),
			400,
			2001,
		);
		expectError(
			await api('POST', `/workorders/${wo}/universalCheckIn`, {
				token: t,
				json: { ...AT, Latitude: 123 },
				deliberate: why,
			}),
			400,
			503,
		);
		expectError(
			await api('POST', `/workorders/${wo}/universalCheckIn`, {
				token: t,
				json: { ...AT, TechsCount: 'two' },
				deliberate: why,
			}),
			400,
			503,
		);
		const unknown = await api('POST', `/workorders/${wo}/universalCheckIn`, {
			token: t,
			json: { ...AT, TechnicianId: 4001, NumberOfTechnicians: 2 },
			deliberate: why,
		});
		expectError(unknown, 400, 503);
		expect(unknown.body.ErrorMessage).toContain('TechnicianId is not a property of CheckInRequest');
		expectError(
			await api('POST', `/workorders/${wo}/universalCheckOut`, {
				token: t,
				body: 'x',
				headers: { 'content-type': 'text/plain' },
				deliberate: why,
			}),
			415,
			2002,
		);
		expectError(
			await api('POST', `/workorders/${fx.workOrders.otherProvider}/universalCheckIn`, {
				token: (await jwtLogin()).access_token,
				json: AT,
			}),
			404,
			5002,
		);
		expect(emu.state.checkIns).toHaveLength(0);
	});
});

describe('work orders: REST and OData', () => {
	test("GET /workorders: a bare WorkOrder[] paged with page/pageSize (at most 50), filtered by the reference's query", async () => {
		const t = await token();
		const big = await api('GET', '/workorders?pageSize=100', { token: t });
		expect(big.status).toBe(200);
		expect(big.body).toHaveLength(50);
		const p3 = await api('GET', '/workorders?page=3&pageSize=50', { token: t });
		expect(p3.body).toHaveLength(fx.workOrders.mainCount - 100);
		const small = await api('GET', '/workorders?page=2&pageSize=10', { token: t });
		expect(small.body[0].Id).toBe(fx.workOrders.mainFirst + 10);
		const plumbing = await api('GET', '/workorders?trade=PLUMB&status=OPEN&storeId=S502', {
			token: t,
		});
		expect(plumbing.body.length).toBeGreaterThan(0);
		expect(
			plumbing.body.every(
				(/** @type {any} */ w) =>
					w.Trade === 'PLUMBING' && w.Status.Primary === 'OPEN' && w.Location.StoreId === 'S502',
			),
		).toBe(true);
		const two = await api(
			'GET',
			`/workorders?id=${fx.workOrders.checklist}&id=${fx.workOrders.notes}`,
			{ token: t },
		);
		expect(two.body.map((/** @type {any} */ w) => w.Id)).toEqual([
			fx.workOrders.checklist,
			fx.workOrders.notes,
		]);
		expectError(await api('GET', '/workorders?locationId=999', { token: t }), 400, 601);
		expectError(await api('GET', '/workorders?storeId=S999', { token: t }), 400, 606);
		expectError(await api('GET', '/workorders?page=0', { token: t }), 400, 2008);
		expectError(
			await api('GET', '/workorders?pageSize=x', {
				token: t,
				deliberate: 'pageSize is an integer',
			}),
			400,
			2008,
		);
	});

	test('GET /workorders/{id} returns the work order with plausible fields; bad id 400, unknown 404', async () => {
		const t = await token();
		const r = await api('GET', `/workorders/${fx.workOrders.invoiced}`, { token: t });
		expect(r.status).toBe(200);
		expect(r.body).toMatchObject({
			Id: fx.workOrders.invoiced,
			Number: String(fx.workOrders.invoiced),
			Status: { Primary: 'COMPLETED', Extended: 'INVOICED', CanCreateInvoice: false },
			Trade: expect.any(String),
			Category: expect.any(String),
			LocationId: 505,
			Location: {
				Id: 505,
				StoreId: 'S505',
				Name: 'Store #505 Plano',
				TimeZoneIanaName: 'America/Chicago',
				TimeShiftToEST: -1,
			},
			Subscriber: { Id: 1001, Name: 'Demo Retail Co.' },
			Provider: { Id: fx.providerId },
			Caller: expect.any(String),
			Description: expect.any(String),
			Nte: expect.any(Number),
			IsInvoiced: true,
			Currency: { AlphabeticalCode: 'USD' },
			Notes: { Last: null, Count: { Total: 0, Own: 0 } },
			Attachments: { Count: { Total: 0, Own: 0 } },
			CreatedDate: expect.stringMatching(/^\d{4}-\d\d-\d\dT[\d:.]+$/),
			CreatedDate_DTO: expect.stringMatching(/-0[56]:00$/),
			EstimatedCompletionDate: null,
		});
		// every property of the reference's WorkOrder, in its order, nulls included
		expect(Object.keys(r.body)).toEqual(
			require('../../contract/reference').propertyNames('WorkOrder'),
		);
		// the plain date is US Eastern local time; its twin the same instant in the location's zone
		expect(emu.parseDate(r.body.CreatedDate)).toBe(Date.parse(r.body.CreatedDate_DTO));
		expectError(
			await api('GET', '/workorders/12ab', {
				token: t,
				deliberate: 'the work order ID is an integer',
			}),
			400,
			2004,
		);
		expectError(
			await api('GET', '/workorders/99999999999', {
				token: t,
				deliberate: 'the work order ID is a 32-bit integer',
			}),
			400,
			2004,
		);
		expectError(await api('GET', '/workorders/99999999', { token: t }), 404, 5002);
	});

	test('OData list: value array, at most 50 per page whatever $top says, $skip, $count, no @odata.nextLink', async () => {
		const t = await token();
		const ids = new Set();
		for (let skip = 0; ; skip += 50) {
			const r = await api('GET', `/odata/workorders?$top=500&$skip=${skip}&$count=true`, {
				token: t,
			});
			expect(r.status).toBe(200);
			expect(r.body['@odata.context']).toBe(`${emu.baseUrl}/v3/odata/$metadata#WorkOrders`);
			expect(r.body['@odata.count']).toBe(fx.workOrders.mainCount);
			expect(r.text).not.toContain('nextLink');
			expect(r.body.value.length).toBeLessThanOrEqual(50);
			for (const w of r.body.value) ids.add(w.Id);
			if (r.body.value.length < 50) break;
		}
		expect(ids.size).toBe(fx.workOrders.mainCount);
		const top5 = await api('GET', '/odata/workorders?$top=5&$skip=2', { token: t });
		expect(top5.body.value.map((/** @type {any} */ w) => w.Id)).toEqual(
			[3, 4, 5, 6, 7].map((k) => fx.workOrders.mainFirst + k - 1),
		);
		expect(top5.body['@odata.count']).toBeUndefined();
	});

	test('OData $filter on property paths and with contains/startswith/tolower, $orderby on a path, $select of paths', async () => {
		const t = await token();
		const q = (/** @type {Record<string, string>} */ o) =>
			api('GET', `/odata/workorders?${new URLSearchParams(o)}`, { token: t });
		const dallas = await q({ $filter: "contains(Location/Name,'dallas')", $count: 'true' });
		expect(dallas.status).toBe(200);
		expect(dallas.body['@odata.count']).toBe(
			Object.values(emu.state.workOrders).filter(
				(w) => w.SubscriberId === 1001 && w.LocationId === 501,
			).length,
		);
		const store = await q({
			$filter: "Location/StoreId eq 'S502' and startswith(tolower(Trade),'plu')",
		});
		expect(store.body.value.length).toBeGreaterThan(0);
		expect(
			store.body.value.every(
				(/** @type {any} */ w) => w.Location.StoreId === 'S502' && w.Trade === 'PLUMBING',
			),
		).toBe(true);
		const sel = await q({
			$select: 'Id,Location/Name,Status/Primary',
			$orderby: 'Location/Name desc',
			$top: '2',
		});
		expect(sel.body.value[0]).toEqual({
			Id: expect.any(Number),
			Location: { Name: 'Store #505 Plano' },
			Status: { Primary: expect.any(String) },
		});
		expect(sel.body['@odata.context']).toMatch(/WorkOrders\(Id,Location\/Name,Status\/Primary\)$/);
	});

	test('an unknown property anywhere ($filter, $orderby, $select, a path) is 400 with the OData error body', async () => {
		const t = await token();
		const why = 'an OData query the service refuses';
		const q = (/** @type {Record<string, string>} */ o) =>
			api('GET', `/odata/workorders?${new URLSearchParams(o)}`, { token: t, deliberate: why });
		expectODataError(
			await q({ $filter: "LocationName eq 'x'" }),
			/Could not find a property named 'LocationName' on type 'WorkOrder'/,
		);
		expectODataError(
			await q({ $filter: "Location/Nam eq 'x'" }),
			/Could not find a property named 'Nam' on type 'Location'/,
		);
		expectODataError(await q({ $filter: "StoreId eq 'S501'" }), /'StoreId' on type 'WorkOrder'/);
		expectODataError(
			await q({ $orderby: 'UpdatedDateDto desc' }),
			/'UpdatedDateDto' on type 'WorkOrder'/,
		);
		expectODataError(await q({ $select: 'Id,LocationName' }), /'LocationName'/);
		expectODataError(await q({ $filter: 'contains(Nte,5)' }), /no function signature for contains/);
		expectODataError(await q({ $filter: "substringof('x',Trade)" }), /unknown function/);
	});

	test('OData $filter (eq joined by and), $orderby, $select; unsupported syntax is 400 with a message', async () => {
		const t = await token();
		const f = await api(
			'GET',
			`/odata/workorders?$filter=${encodeURIComponent("Status/Primary eq 'OPEN' and LocationId eq 502 and IsInvoiced eq false")}&$count=true`,
			{ token: t },
		);
		expect(f.status).toBe(200);
		expect(f.body.value.length).toBeGreaterThan(0);
		expect(
			f.body.value.every(
				(/** @type {any} */ w) => w.Status.Primary === 'OPEN' && w.LocationId === 502,
			),
		).toBe(true);
		const inv = await api('GET', `/odata/workorders?$filter=IsInvoiced eq true`, { token: t });
		expect(inv.body.value.map((/** @type {any} */ w) => w.Id)).toEqual([fx.workOrders.invoiced]);
		const quote = await api(
			'GET',
			`/odata/workorders?$filter=${encodeURIComponent("Description eq 'It''s broken'")}`,
			{ token: t },
		);
		expect([quote.status, quote.body.value]).toEqual([200, []]);
		const o = await api('GET', '/odata/workorders?$orderby=Nte desc,Id asc&$top=3&$select=Id,Nte', {
			token: t,
		});
		expect(o.body['@odata.context']).toBe(`${emu.baseUrl}/v3/odata/$metadata#WorkOrders(Id,Nte)`);
		expect(Object.keys(o.body.value[0])).toEqual(['Id', 'Nte']);
		const ntes = o.body.value.map((/** @type {any} */ w) => w.Nte);
		expect([...ntes].sort((a, b) => b - a)).toEqual(ntes);
		const why = 'an OData query the service refuses';
		for (const bad of [
			'Nte gt',
			"Trade eq 'HVAC' xor Trade eq 'PLUMBING'",
			'Bogus eq 1',
			'Trade eq HVAC',
		]) {
			const r = await api('GET', `/odata/workorders?$filter=${encodeURIComponent(bad)}`, {
				token: t,
				deliberate: why,
			});
			expectODataError(r);
		}
		expectODataError(
			await api('GET', '/odata/workorders?$orderby=Bogus', { token: t, deliberate: why }),
		);
		expectODataError(
			await api('GET', '/odata/workorders?$select=Id,Bogus', { token: t, deliberate: why }),
		);
		expectODataError(
			await api('GET', '/odata/workorders?$expand=Notes', { token: t }),
			/\$expand is not supported/,
		);
		expectODataError(await api('GET', '/odata/workorders?$top=-1', { token: t, deliberate: why }));
	});

	test('OData single work order returns the object', async () => {
		const r = await api('GET', `/odata/workorders(${fx.workOrders.checklist})`, {
			token: await token(),
		});
		expect(r.status).toBe(200);
		expect(r.body).toMatchObject({
			Id: fx.workOrders.checklist,
			Trade: 'HVAC',
			Category: 'PREVENTIVE MAINTENANCE',
		});
		expect(r.body.value).toBeUndefined();
	});

	test('locations({id})/workorders, Service.GetDuplicates(), Service.GetRecalls(); unknown location 404', async () => {
		const t = await token();
		const loc = fx.locations.duplicatesAndRecalls;
		const all = await api('GET', `/odata/locations(${loc})/workorders?$count=true`, { token: t });
		expect(all.status).toBe(200);
		expect(all.body.value.every((/** @type {any} */ w) => w.LocationId === loc)).toBe(true);
		expect(all.body['@odata.count']).toBeGreaterThan(3);
		const d = await api('GET', `/odata/locations(${loc})/workorders/Service.GetDuplicates()`, {
			token: t,
		});
		expect(d.body.value.map((/** @type {any} */ w) => w.Id)).toEqual([
			fx.workOrders.duplicateA,
			fx.workOrders.duplicateB,
		]);
		const rc = await api('GET', `/odata/locations(${loc})/workorders/Service.GetRecalls()`, {
			token: t,
		});
		expect(rc.body.value.map((/** @type {any} */ w) => w.Id)).toEqual([fx.workOrders.recall]);
		expectError(await api('GET', '/odata/locations(999)/workorders', { token: t }), 404, 5005);
		expectError(await api('GET', '/odata/locations(701)/workorders', { token: t }), 404, 5005);
	});

	test('Service.NearBy(latitude=..,longitude=..) returns nearby work orders, nearest first', async () => {
		const t = await token();
		const c = fx.locations.coordinates[501];
		const r = await api(
			'GET',
			`/odata/workorders/Service.NearBy(latitude=${c.latitude},longitude=${c.longitude})?$count=true`,
			{ token: t },
		);
		expect(r.status).toBe(200);
		expect(r.body.value.length).toBeGreaterThan(0);
		expect(r.body.value[0].LocationId).toBe(501);
		expect(r.body.value.every((/** @type {any} */ w) => [501, 505].includes(w.LocationId))).toBe(
			true,
		);
		expectError(
			await api('GET', '/odata/workorders/Service.NearBy(latitude=32.7)', {
				token: t,
				deliberate: 'NearBy needs both coordinates',
			}),
			400,
			2004,
		);
		expectError(
			await api('GET', '/odata/workorders/Service.NearBy(latitude=north,longitude=1)', {
				token: t,
				deliberate: 'latitude is a number',
			}),
			400,
			2004,
		);
	});
});

// =================================================================================================
