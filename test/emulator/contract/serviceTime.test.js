'use strict';

/**
 * The service's clock: its time zone (US Eastern by default: X local without offset; the offset
 * twin X_DTO in the location's zone; fixed offsets, daylight saving, setServiceTimeZone) and its
 * skew against real time (clockSkewMs, advanceTime).
 * Every test starts a fresh emulator on a free port (./helpers.js) and talks to it over real HTTP.
 */

const { startEmulator, createEmulator } = require('../index');
const { useEmulator, token, api, restart, odata, idsOf } = require('./helpers');

/** @type {import('../index').Emulator} */
let emu;
/** @type {any} */
let fx;
useEmulator((e) => {
	emu = e;
	fx = e.fixtures;
});

describe('the service time zone: X is US Eastern local time without offset, X_DTO the same instant with its offset', () => {
	test("default US Eastern (daylight saving included); the twins in the location's zone (Dallas: US Central)", async () => {
		expect(emu.serviceTimeZone).toBe('America/New_York');
		const dallas = emu.createWorkOrder({ CallDate: '2026-03-29T01:30:00Z' }); // location 501, Dallas
		expect(dallas).toMatchObject({
			CallDate: '2026-03-28T21:30:00.000', // EDT (-04:00)
			CallDate_DTO: '2026-03-28T20:30:00.000-05:00', // CDT
			CreatedDate_DTO: '2026-03-28T20:30:00.000-05:00',
			UpdatedDate_DTO: '2026-03-28T20:30:00.000-05:00',
			ScheduledDate_DTO: '2026-03-30T20:30:00.000-05:00',
		});
		const boston = emu.createWorkOrder({ LocationId: 701, CallDate: '2026-01-15T12:00:00Z' });
		expect([boston.CallDate, boston.CallDate_DTO]).toEqual([
			'2026-01-15T07:00:00.000',
			'2026-01-15T07:00:00.000-05:00',
		]);
		// the November fall-back: 01:30 Eastern exists twice; the twin tells them apart
		const first = emu.createWorkOrder({
			LocationId: 701,
			UpdatedDate_DTO: '2026-11-01T01:30:00-04:00',
		});
		const second = emu.createWorkOrder({
			LocationId: 701,
			UpdatedDate_DTO: '2026-11-01T01:30:00-05:00',
		});
		expect(first.UpdatedDate).toBe(second.UpdatedDate);
		expect(Date.parse(second.UpdatedDate_DTO) - Date.parse(first.UpdatedDate_DTO)).toBe(3600e3);
		// the OData reads compare instants: the Dallas record's twin (-05:00) against an Eastern literal
		const t = await token();
		expect(
			idsOf(
				await odata(t, { $filter: `Id eq ${dallas.Id} and CallDate eq 2026-03-28T21:30:00-04:00` }),
			),
		).toEqual([dallas.Id]);
		expect(
			idsOf(await odata(t, { $filter: `Id eq ${dallas.Id} and CallDate eq 2026-03-28T21:30:00` })),
		).toEqual([dallas.Id]);
	});

	test("twinsInLocationZone: false writes the twins in the service's zone", async () => {
		await restart({ twinsInLocationZone: false });
		const wo = emu.createWorkOrder({ CallDate: '2026-03-29T01:30:00Z' });
		expect([wo.CallDate, wo.CallDate_DTO]).toEqual([
			'2026-03-28T21:30:00.000',
			'2026-03-28T21:30:00.000-04:00',
		]);
		for (const w of Object.values(emu.state.workOrders))
			expect(w.UpdatedDate_DTO.startsWith(w.UpdatedDate)).toBe(true);
	});

	test('Europe/Berlin: offsets follow daylight saving; fixtures, new records, notes and check-ins use it', async () => {
		await restart({ serviceTimeZone: 'Europe/Berlin', twinsInLocationZone: false });
		const t = await token();
		const mine = `Id ge ${fx.workOrders.firstNewId}`; // only the records of this test
		const w1 = emu.createWorkOrder({ UpdatedDate: '2026-03-29T00:30:00Z' }); // before the spring change
		const w2 = emu.createWorkOrder({ UpdatedDate: '2026-03-29T01:30:00Z' }); // after it
		expect([w1.UpdatedDate, w1.UpdatedDate_DTO]).toEqual([
			'2026-03-29T01:30:00.000',
			'2026-03-29T01:30:00.000+01:00',
		]);
		expect([w2.UpdatedDate, w2.UpdatedDate_DTO]).toEqual([
			'2026-03-29T03:30:00.000',
			'2026-03-29T03:30:00.000+02:00',
		]);
		// autumn: one wall time twice, different offsets; created in reverse instant order
		const late = emu.createWorkOrder({ UpdatedDate_DTO: '2026-10-25T02:30:00+01:00' });
		const early = emu.createWorkOrder({ UpdatedDateDto: '2026-10-25T02:30:00+02:00' }); // the older spelling is read too
		expect(late.UpdatedDate).toBe(early.UpdatedDate);
		const autumn = await odata(t, {
			$filter: `${mine} and UpdatedDate ge 2026-10-01T00:00:00Z and UpdatedDate lt 2026-11-01T00:00:00Z`,
			$orderby: 'UpdatedDate asc',
		});
		expect(idsOf(autumn)).toEqual([early.Id, late.Id]);
		// a literal without offset is Berlin time; in the overlap the earlier instant (+02:00)
		expect(
			idsOf(
				await odata(t, {
					$filter: `${mine} and UpdatedDate gt 2026-10-25T02:30:00 and UpdatedDate lt 2026-11-01T00:00:00Z`,
				}),
			),
		).toEqual([late.Id]);
		expect(
			idsOf(
				await odata(t, { $filter: `${mine} and UpdatedDate eq 2026-10-25T02:30:00.000+01:00` }),
			),
		).toEqual([late.Id]);
		// spring gap: 02:30 does not exist, it is read as 03:30+02:00 (= 01:30Z)
		expect(
			idsOf(
				await odata(t, {
					$filter: `${mine} and UpdatedDate ge 2026-03-29T02:30:00 and UpdatedDate lt 2026-04-01T00:00:00Z`,
				}),
			),
		).toEqual([w2.Id]);
		expect(
			idsOf(
				await odata(t, {
					$filter: `${mine} and UpdatedDate ge 2026-03-29T01:30:00+01:00 and UpdatedDate lt 2026-04-01T00:00:00Z`,
					$orderby: 'UpdatedDate',
				}),
			),
		).toEqual([w1.Id, w2.Id]);
		expect(
			idsOf(
				await odata(t, { $filter: `${mine} and UpdatedDate eq datetime'2026-03-29T01:30:00'` }),
			),
		).toEqual([w1.Id]);
		// the fixtures: every date pair is the same instant written in Berlin time
		for (const w of Object.values(emu.state.workOrders)) {
			for (const f of ['CallDate', 'ScheduledDate', 'CreatedDate', 'UpdatedDate']) {
				expect(w[`${f}_DTO`]).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}\+0[12]:00$/);
				expect(w[`${f}_DTO`].startsWith(w[f])).toBe(true);
			}
		}
		// a note date without offset is Berlin time; check-in writes Berlin time
		const n = await api('POST', `/workorders/${w1.Id}/notes`, {
			token: t,
			json: { Note: 'x', ScheduledDate: '2026-07-01T09:00:00' },
		});
		expect(n.status).toBe(201);
		expect(emu.notesOf(w1.Id).at(-1).ScheduledDate).toBe('2026-07-01T09:00:00.000');
		const ci = await api('POST', `/workorders/${w1.Id}/universalCheckIn`, {
			token: t,
			json: { Latitude: 32.7, Longitude: -96.8 },
		});
		expect(ci.status).toBe(200);
		expect(emu.workOrder(w1.Id).UpdatedDate_DTO).toMatch(/\+0[12]:00$/);
	});

	test('fixed offsets: utcOffsetMinutes or serviceTimeZone "+05:30"; bad zones and both options are refused', async () => {
		await restart({ utcOffsetMinutes: -300, twinsInLocationZone: false });
		expect(emu.createWorkOrder({ CallDate: '2026-01-15T12:00:00Z' }).CallDate_DTO).toBe(
			'2026-01-15T07:00:00.000-05:00',
		);
		expect(emu.createWorkOrder({ CallDate: '2026-01-15T12:00:00' }).CallDate_DTO).toBe(
			'2026-01-15T12:00:00.000-05:00',
		);
		expect(emu.serviceTimeZone).toBe('-05:00');
		await restart({ serviceTimeZone: '+05:30' });
		expect(emu.createWorkOrder({ CallDate: '2026-01-15T12:00:00Z' }).CallDate).toBe(
			'2026-01-15T17:30:00.000',
		);
		expect(() => createEmulator({ serviceTimeZone: 'Mars/Olympus' })).toThrow(/time zone/);
		expect(() => createEmulator({ serviceTimeZone: 'UTC', utcOffsetMinutes: 0 })).toThrow(
			/not both/,
		);
		await expect(startEmulator({ utcOffsetMinutes: 15 * 60 })).rejects.toThrow(/utcOffsetMinutes/);
	});

	test('setServiceTimeZone() rewrites every stored date for the new zone; instants do not change', async () => {
		const wo = emu.createWorkOrder({ LocationId: 504, UpdatedDate: '2026-07-01T10:00:00Z' });
		const note = emu.notesOf(fx.notes.workOrderId)[0];
		const noteInstant = note._at;
		emu.setServiceTimeZone('UTC');
		expect([wo.UpdatedDate, wo.UpdatedDate_DTO]).toEqual([
			'2026-07-01T10:00:00.000',
			'2026-07-01T05:00:00.000-05:00',
		]);
		expect(note.DateCreated).toBe(new Date(noteInstant).toISOString().replace('Z', ''));
		expect(emu.formatDate('2026-12-01T12:00:00Z')).toEqual({
			local: '2026-12-01T12:00:00.000',
			dto: '2026-12-01T12:00:00.000+00:00',
			offset: '+00:00',
		});
		const r = await fetch(`${emu.origin}/__emulator/time`, {
			method: 'POST',
			headers: { 'content-type': 'application/json' },
			body: JSON.stringify({ serviceTimeZone: 'America/New_York' }),
		});
		expect((await r.json()).serviceTimeZone).toBe('America/New_York');
		expect(wo.UpdatedDate).toBe('2026-07-01T06:00:00.000');
		expect(emu.formatDate('2026-12-01T12:00:00Z')).toEqual({
			local: '2026-12-01T07:00:00.000',
			dto: '2026-12-01T07:00:00.000-05:00',
			offset: '-05:00',
		});
	});
});

describe('service clock skew', () => {
	test('clockSkewMs: the service writes dates, the Date header and judges tokens 2 minutes ahead of real time', async () => {
		await restart({ clockSkewMs: 120000 });
		expect(emu.clockSkewMs).toBe(120000);
		const before = Date.now();
		const wo = emu.createWorkOrder();
		const stamped = Date.parse(wo.UpdatedDate_DTO);
		expect(stamped).toBeGreaterThanOrEqual(before + 120000);
		expect(stamped).toBeLessThan(Date.now() + 120000 + 1000);
		const r = await fetch(`${emu.baseUrl}/v3/workorders`);
		const date = Date.parse(/** @type {string} */ (r.headers.get('date')));
		expect(date).toBeGreaterThan(Date.now() + 115000);
		// real "now" is in the service's past: a trigger cursor taken from n8n's clock misses nothing but re-reads
		const t = await token();
		const seen = await odata(t, {
			$filter: `UpdatedDate ge ${new Date(Date.now()).toISOString()}`,
		});
		expect(idsOf(seen)).toEqual([wo.Id]);
	});

	test('setClockSkew() sets it absolutely (behind: negative), advanceTime() adds; the control endpoint does both', async () => {
		emu.setClockSkew(-120000);
		const wo = emu.createWorkOrder();
		expect(Date.parse(wo.UpdatedDate_DTO)).toBeLessThanOrEqual(Date.now() - 119000);
		emu.advanceTime(60);
		expect(emu.clockSkewMs).toBe(-60000);
		const r = await fetch(`${emu.origin}/__emulator/time`, {
			method: 'POST',
			headers: { 'content-type': 'application/json' },
			body: JSON.stringify({ skewMs: 120000, advanceSeconds: 30 }),
		});
		const info = await r.json();
		expect(info).toMatchObject({
			skewMs: 150000,
			serviceTimeZone: 'America/New_York',
			utcOffset: expect.stringMatching(/^-0[45]:00$/),
		});
		expect(Date.parse(info.nowDto)).toBeGreaterThan(Date.now() + 140000);
		const g = await (await fetch(`${emu.origin}/__emulator/time`)).json();
		expect(g.skewMs).toBe(150000);
		expect(emu.requests).toHaveLength(0);
	});
});
