'use strict';

/**
 * Work orders created and changed while a trigger polls: createWorkOrder, updateWorkOrder,
 * setWorkOrderStatus, the change log, stable paging over equal dates, live pages, control endpoints.
 * Every test starts a fresh emulator on a free port (./helpers.js) and talks to it over real HTTP.
 */

const { useEmulator, token, api, odata, idsOf, readAllPages } = require('./helpers');

/** @type {import('../index').Emulator} */
let emu;
/** @type {any} */
let fx;
useEmulator((e) => {
	emu = e;
	fx = e.fixtures;
});

describe('work orders created and changed while a trigger polls', () => {
	test('createWorkOrder(): ids continue after the fixtures, defaults filled, dates now(); visible through the API', async () => {
		const t = await token();
		const before = emu.now();
		const wo = emu.createWorkOrder({
			LocationId: 502,
			Trade: 'PLUMBING',
			Category: 'REPAIR',
			Description: 'Burst pipe',
		});
		const after = emu.now();
		expect(wo.Id).toBe(fx.workOrders.firstNewId);
		expect(fx.workOrders.firstNewId).toBe(fx.workOrders.mainLast + 1);
		expect(wo).toMatchObject({
			Number: String(wo.Id),
			Subscriber: { Id: 1001 },
			Provider: { Id: 3001 },
			LocationId: 502,
			Location: { Id: 502, Name: emu.state.locations[502].Name, StoreId: 'S502' },
			Status: { Primary: 'OPEN', Extended: 'DISPATCH CONFIRMED', CanCreateInvoice: false },
			Trade: 'PLUMBING',
			Category: 'REPAIR',
			Description: 'Burst pipe',
			IsInvoiced: false,
		});
		// the emulator's own shortcuts are not part of the object
		expect([wo.SubscriberId, wo.ProviderId]).toEqual([1001, 3001]);
		expect(Object.keys(wo)).not.toContain('SubscriberId');
		const stamp = Date.parse(wo.UpdatedDate_DTO);
		expect(stamp).toBeGreaterThanOrEqual(before);
		expect(stamp).toBeLessThanOrEqual(after);
		expect(wo.CallDate_DTO).toBe(wo.UpdatedDate_DTO);
		expect(wo.CreatedDate_DTO).toBe(wo.UpdatedDate_DTO);
		expect(Object.keys(wo)).toEqual(Object.keys(emu.state.workOrders[fx.workOrders.mainFirst]));
		expect(emu.createWorkOrder().Id).toBe(fx.workOrders.firstNewId + 1);
		const got = await api('GET', `/workorders/${wo.Id}`, { token: t });
		expect(got.body).toEqual(JSON.parse(JSON.stringify(wo)));
		// reference keys and the shortcuts: Location { Id }, Provider { Id }, ProviderId
		const other = emu.createWorkOrder({
			Location: { Id: 504 },
			Provider: { Id: 3002 },
			Currency: 'USD',
			RecallWorkOrder: wo.Id,
		});
		expect(other).toMatchObject({
			LocationId: 504,
			Location: { Name: 'Store #504 Austin' },
			Provider: { Id: 3002, Name: 'Bright HVAC Inc.' },
			RecallWorkOrder: wo.Id,
		});
		expect(() => emu.createWorkOrder({ Nte: 'a lot' })).toThrow(/Nte must be a number/);
		expect(() => emu.createWorkOrder({ LocationName: 'x' })).toThrow(
			/unknown work order field 'LocationName'/,
		);
		const all = await odata(t, { $count: 'true' });
		expect(all.body['@odata.count']).toBe(fx.workOrders.mainCount + 3);
		// a child subscriber's location: subscriber and provider follow it; explicit ids
		const child = emu.createWorkOrder({
			Id: 92001999,
			LocationId: 701,
			Status: { Primary: 'OPEN' },
		});
		expect(child).toMatchObject({
			Subscriber: { Id: 2001 },
			Provider: { Id: 3002 },
			Status: { Primary: 'OPEN', Extended: null },
		});
		expect((await api('GET', `/workorders/${child.Id}`, { token: t })).status).toBe(404);
	});

	test('updateWorkOrder() stamps UpdatedDate with now() (or the date given) and keeps the rest; errors throw', async () => {
		const id = fx.workOrders.checklist;
		const old = { ...emu.workOrder(id) };
		emu.advanceTime(3600);
		// now() of the service (1 h ahead): between the real clock just before and just after the call,
		// whatever time a busy machine takes between them
		const before = Date.now();
		const wo = emu.updateWorkOrder(id, { Description: 'Roof unit 1: belt squeal', Nte: 900 });
		expect(Date.parse(wo.UpdatedDate_DTO)).toBeGreaterThanOrEqual(before + 3600 * 1000);
		expect(Date.parse(wo.UpdatedDate_DTO)).toBeLessThanOrEqual(Date.now() + 3600 * 1000);
		expect(wo).toMatchObject({
			Description: 'Roof unit 1: belt squeal',
			Nte: 900,
			CallDate: old.CallDate,
			CreatedDate: old.CreatedDate,
			Status: old.Status,
		});
		emu.updateWorkOrder(id, { UpdatedDate: '2030-01-02T03:04:05.678Z' });
		expect(emu.workOrder(id)).toMatchObject({
			UpdatedDate: '2030-01-01T22:04:05.678',
			UpdatedDate_DTO: '2030-01-01T21:04:05.678-06:00',
		});
		emu.updateWorkOrder(id, { updateddate_dto: new Date(Date.UTC(2030, 0, 3, 5)) });
		expect(emu.workOrder(id).UpdatedDate).toBe('2030-01-03T00:00:00.000');
		emu.updateWorkOrder(String(id), { UpdatedDate: Date.UTC(2030, 0, 4, 5), LocationId: 701 });
		// a new location brings its object, its subscriber, and the twins in its zone (Boston: US Eastern)
		expect(emu.workOrder(id)).toMatchObject({
			UpdatedDate: '2030-01-04T00:00:00.000',
			UpdatedDate_DTO: '2030-01-04T00:00:00.000-05:00',
			LocationId: 701,
			Location: { StoreId: 'S701', Name: emu.state.locations[701].Name },
			Subscriber: { Id: 2001 },
		});
		expect(emu.workOrder(id).CallDate_DTO).toMatch(/-0[45]:00$/);
		expect(() => emu.updateWorkOrder(99999999, {})).toThrow(/does not exist/);
		expect(() => emu.updateWorkOrder(id, { Bogus: 1 })).toThrow(/unknown work order field/);
		expect(() => emu.updateWorkOrder(id, { Id: 5 })).toThrow(/cannot be changed/);
		expect(() => emu.updateWorkOrder(id, { UpdatedDate: 'soon' })).toThrow(/ISO 8601/);
		expect(() =>
			emu.updateWorkOrder(id, {
				UpdatedDate: '2030-01-01T00:00:00Z',
				UpdatedDate_DTO: '2030-01-01T00:00:00Z',
			}),
		).toThrow(/not both/);
		expect(() => emu.updateWorkOrder(id, { LocationId: 999 })).toThrow(/LocationId/);
		expect(() => emu.createWorkOrder({ Id: fx.workOrders.checklist })).toThrow(/already exists/);
	});

	test('setWorkOrderStatus(): Primary/Extended change, UpdatedDate moves; workOrderChanges records created/updated/status changes', async () => {
		const wo = emu.createWorkOrder({ CallDate: '2031-02-01T08:00:00Z' });
		emu.setWorkOrderStatus(wo.Id, 'IN PROGRESS', 'ON SITE', {
			UpdatedDate: '2031-02-01T09:00:00Z',
		});
		expect(wo).toMatchObject({
			Status: { Primary: 'IN PROGRESS', Extended: 'ON SITE' },
			UpdatedDate_DTO: '2031-02-01T03:00:00.000-06:00',
		});
		emu.setWorkOrderStatus(wo.Id, 'IN PROGRESS', 'INCOMPLETE', {
			UpdatedDate: '2031-02-01T10:00:00Z',
		});
		emu.setWorkOrderStatus(wo.Id, 'COMPLETED'); // Extended kept
		expect(wo.Status).toEqual({
			Primary: 'COMPLETED',
			Extended: 'INCOMPLETE',
			CanCreateInvoice: false,
		});
		emu.updateWorkOrder(wo.Id, { Nte: 1 });
		const changes = emu.state.workOrderChanges.filter((c) => c.workOrderId === wo.Id);
		expect(
			changes.map((c) => [c.kind, c.primaryStatusChanged, c.statusChanged, c.statusAfter.Primary]),
		).toEqual([
			['created', false, false, 'OPEN'],
			['updated', true, true, 'IN PROGRESS'],
			['updated', false, true, 'IN PROGRESS'],
			['updated', true, true, 'COMPLETED'],
			['updated', false, false, 'COMPLETED'],
		]);
		expect(changes[1]).toMatchObject({
			at: '2031-02-01T03:00:00.000-06:00',
			statusBefore: { Primary: 'OPEN', Extended: 'DISPATCH CONFIRMED' },
			source: 'emulator',
		});
		expect(changes[4].fields).toEqual(expect.arrayContaining(['Nte', 'UpdatedDate']));
		// a check-in through the API changes the status the same way
		emu.setWorkOrderStatus(wo.Id, 'OPEN', 'DISPATCH CONFIRMED');
		await api('POST', `/workorders/${wo.Id}/universalCheckIn`, {
			token: await token(),
			json: { Latitude: 32.7767, Longitude: -96.797 },
		});
		expect(emu.state.workOrderChanges.at(-1)).toMatchObject({
			workOrderId: wo.Id,
			source: 'api:CheckIn',
			primaryStatusChanged: true,
			statusAfter: { Primary: 'IN PROGRESS', Extended: 'ON SITE' },
		});
	});

	test('120 records with one identical UpdatedDate page 50/50/20 with a stable order: each exactly once; $count counts all matches', async () => {
		const t = await token();
		const same = '2031-03-01T12:00:00.000Z';
		const created = emu.createWorkOrders(
			Array.from({ length: 120 }, (_, k) => ({ LocationId: k % 2 ? 501 : 502, UpdatedDate: same })),
		);
		expect(new Set(created.map((w) => Date.parse(w.UpdatedDate_DTO)))).toEqual(
			new Set([Date.parse(same)]),
		);
		const pages = await readAllPages(t, {
			$filter: `UpdatedDate ge ${same}`,
			$orderby: 'UpdatedDate asc',
		});
		expect(pages.map((p) => p.value.length)).toEqual([50, 50, 20]);
		expect(pages.map((p) => p['@odata.count'])).toEqual([120, 120, 120]);
		const ids = pages.flatMap((p) => p.value.map((/** @type {any} */ w) => w.Id));
		expect(ids).toEqual(created.map((w) => w.Id)); // Id ascending within the tie, no gaps or repeats
		// with user filters ANDed, as the trigger composes them
		const filtered = await readAllPages(t, {
			$filter: `UpdatedDate ge ${same} and (LocationId eq 501) and (Status/Primary eq 'OPEN') and (Trade eq 'HVAC') and (Category eq 'REPAIR') and (Nte le 500 or Nte eq null)`,
			$orderby: 'UpdatedDate asc',
		});
		expect(filtered.map((p) => p.value.length)).toEqual([50, 10]);
		expect(filtered[0]['@odata.count']).toBe(60);
		// 75 of them changed again at one later instant keep paging stable
		const touched = emu.updateWorkOrders(
			created.slice(0, 75).map((w) => w.Id),
			{ UpdatedDate: '2031-03-01T12:00:00.001Z' },
		);
		expect(new Set(touched.map((w) => w.UpdatedDate))).toEqual(
			new Set(['2031-03-01T07:00:00.001']),
		);
		const again = await readAllPages(t, {
			$filter: `UpdatedDate gt ${same}`,
			$orderby: 'UpdatedDate asc',
		});
		expect(again.map((p) => p.value.length)).toEqual([50, 25]);
		expect(again.flatMap((p) => p.value.map((/** @type {any} */ w) => w.Id))).toEqual(
			created.slice(0, 75).map((w) => w.Id),
		);
		// CallDate ("created" mode) follows the creation instant
		const byCall = await readAllPages(t, {
			$filter: `CallDate ge ${same}`,
			$orderby: 'CallDate asc',
		});
		expect(byCall[0]['@odata.count']).toBe(120);
		// without a date in the changes, a batch shares one now() to the millisecond
		const now = emu.updateWorkOrders(
			created.slice(0, 110).map((w) => w.Id),
			{ Nte: 600 },
		);
		expect(new Set(now.map((w) => w.UpdatedDate)).size).toBe(1);
		expect(Math.abs(Date.parse(now[0].UpdatedDate_DTO) - Date.now())).toBeLessThan(5000);
	});

	test('every page is read from live data: a record changed between two page reads moves to the end and shifts $skip', async () => {
		const t = await token();
		const base = Date.parse('2032-01-01T00:00:00Z');
		const created = emu.createWorkOrders(
			Array.from({ length: 60 }, (_, k) => ({ UpdatedDate: base + k * 1000 })),
		);
		const opts = {
			$filter: 'UpdatedDate ge 2032-01-01T00:00:00Z',
			$orderby: 'UpdatedDate asc',
			$top: 50,
			$count: 'true',
		};
		const p1 = await odata(t, { ...opts, $skip: 0 });
		expect(idsOf(p1)).toEqual(created.slice(0, 50).map((w) => w.Id));
		emu.updateWorkOrder(created[0].Id, { UpdatedDate: base + 3600 * 1000 }); // changed while the trigger pages
		const p2 = await odata(t, { ...opts, $skip: 50 });
		// created[50] slid back onto page 1 and is not on page 2; created[0] shows up again at the end
		expect(idsOf(p2)).toEqual([...created.slice(51).map((w) => w.Id), created[0].Id]);
		expect(p2.body['@odata.count']).toBe(60);
	});

	test('control endpoints: POST/PATCH/GET /__emulator/workorders (single and batch), not logged, no faults', async () => {
		const ctl = async (
			/** @type {string} */ method,
			/** @type {string} */ p,
			/** @type {any} */ body,
		) => {
			const r = await fetch(`${emu.origin}/__emulator${p}`, {
				method,
				headers: { 'content-type': 'application/json' },
				body: body === undefined ? undefined : JSON.stringify(body),
			});
			return { status: r.status, body: await r.json() };
		};
		emu.failNext({ status: 500 });
		const one = await ctl('POST', '/workorders', {
			Trade: 'DOORS',
			UpdatedDate: '2031-04-01T00:00:00+02:00',
		});
		expect(one.status).toBe(201);
		expect(one.body).toMatchObject({
			Id: fx.workOrders.firstNewId,
			Trade: 'DOORS',
			UpdatedDate: '2031-03-31T18:00:00.000',
			UpdatedDate_DTO: '2031-03-31T17:00:00.000-05:00',
		});
		const batch = await ctl('POST', '/workorders', [{}, { Status: 'ON HOLD' }]);
		expect(batch.status).toBe(201);
		expect(batch.body.map((/** @type {any} */ w) => w.Id)).toEqual([
			fx.workOrders.firstNewId + 1,
			fx.workOrders.firstNewId + 2,
		]);
		expect(batch.body[0].UpdatedDate_DTO).toBe(batch.body[1].UpdatedDate_DTO);
		expect(batch.body[1].Status).toEqual({
			Primary: 'ON HOLD',
			Extended: null,
			CanCreateInvoice: false,
		});
		const patched = await ctl('PATCH', `/workorders/${one.body.Id}`, {
			Status: { Primary: 'COMPLETED', Extended: 'PENDING CONFIRMATION' },
		});
		expect(patched.status).toBe(200);
		expect(patched.body.Status.Primary).toBe('COMPLETED');
		expect(Math.abs(Date.parse(patched.body.UpdatedDate_DTO) - Date.now())).toBeLessThan(5000); // now(), not the date given at creation
		const bulk = await ctl('PATCH', '/workorders', {
			ids: batch.body.map((/** @type {any} */ w) => w.Id),
			changes: { UpdatedDate: '2031-05-01T00:00:00Z' },
		});
		expect(bulk.body.map((/** @type {any} */ w) => w.UpdatedDate)).toEqual([
			'2031-04-30T20:00:00.000',
			'2031-04-30T20:00:00.000',
		]);
		expect((await ctl('GET', `/workorders/${one.body.Id}`)).body.Status.Primary).toBe('COMPLETED');
		expect((await ctl('GET', '/workorder-changes')).body.length).toBe(6);
		expect((await ctl('PATCH', '/workorders/99999999', {})).status).toBe(404);
		expect((await ctl('GET', '/workorders/99999999')).status).toBe(404);
		const bad = await ctl('POST', '/workorders', { Bogus: 1 });
		expect([bad.status, bad.body.error]).toEqual([400, expect.stringContaining('Bogus')]);
		expect((await ctl('POST', '/workorders', { Id: one.body.Id })).status).toBe(409);
		expect((await ctl('PATCH', '/workorders', { changes: {} })).status).toBe(400);
		expect(emu.requests).toHaveLength(0);
		// the queued fault is still waiting for the first API request
		expect((await api('GET', '/workorders')).status).toBe(500);
	});
});
