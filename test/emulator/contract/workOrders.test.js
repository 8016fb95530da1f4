'use strict';

/**
 * Work orders: check-in / check-out, the REST list and single work order, and the OData list
 * (paging of 50, $filter, $orderby, $select, locations, duplicates, recalls, nearby).
 * Every test starts a fresh emulator on a free port (./helpers.js) and talks to it over real HTTP.
 */

const {
  useEmulator,
  token,
  jwtLogin,
  api,
  expectError,
} = require('./helpers');

/** @type {import('../index').Emulator} */
let emu;
/** @type {any} */
let fx;
useEmulator((e) => {
  emu = e;
  fx = e.fixtures;
});

describe('check-in / check-out', () => {
  test('universalCheckIn and universalCheckOut record activity; Service.CheckInActivity() lists it', async () => {
    const j = (await jwtLogin()).access_token;
    const wo = fx.workOrders.checklist;
    const a = await api('POST', `/workorders/${wo}/universalCheckIn`, { token: j, json: { Latitude: 32.7767, Longitude: -96.797 } });
    expect(a.status).toBe(201);
    expect(a.body).toMatchObject({ WorkOrderId: wo, ActivityType: 'CheckIn', Latitude: 32.7767, Longitude: -96.797, TechnicianId: fx.technicianId, UserId: fx.users.contractor.userId });
    expect(emu.state.workOrders[wo].Status).toEqual({ Primary: 'IN PROGRESS', Extended: 'ON SITE' });
    const b = await api('POST', `/workorders/${wo}/universalCheckOut`, { token: j, json: { UserId: 77, WorkCompleted: true } });
    expect(b.status).toBe(201);
    expect(b.body).toMatchObject({ ActivityType: 'CheckOut', CheckInId: a.body.Id, UserId: 77 });
    expect(emu.state.workOrders[wo].Status.Primary).toBe('COMPLETED');
    const list = await api('GET', `/odata/workorders(${wo})/Service.CheckInActivity()`, { token: j });
    expect(list.status).toBe(200);
    expect(list.body.value.map((/** @type {any} */ x) => x.ActivityType)).toEqual(['CheckIn', 'CheckOut']);
    expect(emu.state.checkIns).toHaveLength(2);
  });

  test('no body is fine; invalid JSON, out-of-range latitude and a wrong content type are refused', async () => {
    const t = await token();
    const wo = fx.workOrders.noChecklist;
    expect((await api('POST', `/workorders/${wo}/universalCheckIn`, { token: t })).status).toBe(201);
    expectError(await api('POST', `/workorders/${wo}/universalCheckIn`, { token: t, json: '{bad' }), 400, 2001);
    expectError(await api('POST', `/workorders/${wo}/universalCheckIn`, { token: t, json: { Latitude: 123 } }), 400, 2006);
    expectError(await api('POST', `/workorders/${wo}/universalCheckOut`, { token: t, body: 'x', headers: { 'content-type': 'text/plain' } }), 415, 2002);
    expectError(await api('POST', `/workorders/${fx.workOrders.otherProvider}/universalCheckIn`, { token: (await jwtLogin()).access_token }), 404, 5002);
    expect(emu.state.checkIns).toHaveLength(1);
  });
});


describe('work orders: REST and OData', () => {
  test('GET /workorders pages with page/pageSize, at most 50 per page', async () => {
    const t = await token();
    const big = await api('GET', '/workorders?pageSize=100', { token: t });
    expect(big.status).toBe(200);
    expect(big.body.WorkOrders).toHaveLength(50);
    expect(big.body).toMatchObject({ Page: 1, PageSize: 50, TotalCount: fx.workOrders.mainCount, TotalPages: 3 });
    const p3 = await api('GET', '/workorders?page=3&pageSize=50', { token: t });
    expect(p3.body.WorkOrders).toHaveLength(fx.workOrders.mainCount - 100);
    const small = await api('GET', '/workorders?page=2&pageSize=10', { token: t });
    expect(small.body.WorkOrders[0].Id).toBe(fx.workOrders.mainFirst + 10);
    expectError(await api('GET', '/workorders?page=0', { token: t }), 400, 2008);
    expectError(await api('GET', '/workorders?pageSize=x', { token: t }), 400, 2008);
  });

  test('GET /workorders/{id} returns the work order with plausible fields; bad id 400, unknown 404', async () => {
    const t = await token();
    const r = await api('GET', `/workorders/${fx.workOrders.invoiced}`, { token: t });
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({
      Id: fx.workOrders.invoiced,
      Number: String(fx.workOrders.invoiced),
      Status: { Primary: 'COMPLETED', Extended: 'INVOICED' },
      Trade: expect.any(String),
      Category: expect.any(String),
      LocationId: expect.any(Number),
      SubscriberId: 1001,
      ProviderId: fx.providerId,
      Caller: expect.any(String),
      Description: expect.any(String),
      Nte: expect.any(Number),
      IsInvoiced: true,
      CreatedDate: expect.stringMatching(/^\d{4}-\d\d-\d\dT[\d:.]+$/),
      CreatedDateDto: expect.stringMatching(/\+00:00$/),
    });
    expectError(await api('GET', '/workorders/12ab', { token: t }), 400, 2004);
    expectError(await api('GET', '/workorders/99999999999', { token: t }), 400, 2004);
    expectError(await api('GET', '/workorders/99999999', { token: t }), 404, 5002);
  });

  test('OData list: value array, at most 50 per page whatever $top says, $skip, $count, no @odata.nextLink', async () => {
    const t = await token();
    const ids = new Set();
    for (let skip = 0; ; skip += 50) {
      const r = await api('GET', `/odata/workorders?$top=500&$skip=${skip}&$count=true`, { token: t });
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
    expect(top5.body.value.map((/** @type {any} */ w) => w.Id)).toEqual([3, 4, 5, 6, 7].map((k) => fx.workOrders.mainFirst + k - 1));
    expect(top5.body['@odata.count']).toBeUndefined();
  });

  test('OData $filter (eq joined by and), $orderby, $select; unsupported syntax is 400 with a message', async () => {
    const t = await token();
    const f = await api('GET', `/odata/workorders?$filter=${encodeURIComponent("Status/Primary eq 'OPEN' and LocationId eq 502 and IsInvoiced eq false")}&$count=true`, { token: t });
    expect(f.status).toBe(200);
    expect(f.body.value.length).toBeGreaterThan(0);
    expect(f.body.value.every((/** @type {any} */ w) => w.Status.Primary === 'OPEN' && w.LocationId === 502)).toBe(true);
    const inv = await api('GET', `/odata/workorders?$filter=IsInvoiced eq true`, { token: t });
    expect(inv.body.value.map((/** @type {any} */ w) => w.Id)).toEqual([fx.workOrders.invoiced]);
    const quote = await api('GET', `/odata/workorders?$filter=${encodeURIComponent("Description eq 'It''s broken'")}`, { token: t });
    expect([quote.status, quote.body.value]).toEqual([200, []]);
    const o = await api('GET', '/odata/workorders?$orderby=Nte desc,Id asc&$top=3&$select=Id,Nte', { token: t });
    expect(o.body['@odata.context']).toBe(`${emu.baseUrl}/v3/odata/$metadata#WorkOrders(Id,Nte)`);
    expect(Object.keys(o.body.value[0])).toEqual(['Id', 'Nte']);
    const ntes = o.body.value.map((/** @type {any} */ w) => w.Nte);
    expect([...ntes].sort((a, b) => b - a)).toEqual(ntes);
    for (const bad of ['Nte gt', "Trade eq 'HVAC' xor Trade eq 'PLUMBING'", 'contains(Trade,\'H\')', 'Bogus eq 1', "Trade eq HVAC"]) {
      const r = await api('GET', `/odata/workorders?$filter=${encodeURIComponent(bad)}`, { token: t });
      expectError(r, 400, 2008);
    }
    expectError(await api('GET', '/odata/workorders?$orderby=Bogus', { token: t }), 400, 2008);
    expectError(await api('GET', '/odata/workorders?$select=Id,Bogus', { token: t }), 400, 2008);
    expectError(await api('GET', '/odata/workorders?$expand=Notes', { token: t }), 400, 2008);
    expectError(await api('GET', '/odata/workorders?$top=-1', { token: t }), 400, 2008);
  });

  test('OData single work order returns the object', async () => {
    const r = await api('GET', `/odata/workorders(${fx.workOrders.checklist})`, { token: await token() });
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({ Id: fx.workOrders.checklist, Trade: 'HVAC', Category: 'PREVENTIVE MAINTENANCE' });
    expect(r.body.value).toBeUndefined();
  });

  test('locations({id})/workorders, Service.GetDuplicates(), Service.GetRecalls(); unknown location 404', async () => {
    const t = await token();
    const loc = fx.locations.duplicatesAndRecalls;
    const all = await api('GET', `/odata/locations(${loc})/workorders?$count=true`, { token: t });
    expect(all.status).toBe(200);
    expect(all.body.value.every((/** @type {any} */ w) => w.LocationId === loc)).toBe(true);
    expect(all.body['@odata.count']).toBeGreaterThan(3);
    const d = await api('GET', `/odata/locations(${loc})/workorders/Service.GetDuplicates()`, { token: t });
    expect(d.body.value.map((/** @type {any} */ w) => w.Id)).toEqual([fx.workOrders.duplicateA, fx.workOrders.duplicateB]);
    const rc = await api('GET', `/odata/locations(${loc})/workorders/Service.GetRecalls()`, { token: t });
    expect(rc.body.value.map((/** @type {any} */ w) => w.Id)).toEqual([fx.workOrders.recall]);
    expectError(await api('GET', '/odata/locations(999)/workorders', { token: t }), 404, 5005);
    expectError(await api('GET', '/odata/locations(701)/workorders', { token: t }), 404, 5005);
  });

  test('Service.NearBy(latitude=..,longitude=..) returns nearby work orders, nearest first', async () => {
    const t = await token();
    const c = fx.locations.coordinates[501];
    const r = await api('GET', `/odata/workorders/Service.NearBy(latitude=${c.latitude},longitude=${c.longitude})?$count=true`, { token: t });
    expect(r.status).toBe(200);
    expect(r.body.value.length).toBeGreaterThan(0);
    expect(r.body.value[0].LocationId).toBe(501);
    expect(r.body.value.every((/** @type {any} */ w) => [501, 505].includes(w.LocationId))).toBe(true);
    expectError(await api('GET', '/odata/workorders/Service.NearBy(latitude=32.7)', { token: t }), 400, 2004);
    expectError(await api('GET', '/odata/workorders/Service.NearBy(latitude=north,longitude=1)', { token: t }), 400, 2004);
  });
});

// =================================================================================================
