'use strict';

/**
 * Tenants at scale and deployed date precision: datePrecisionMs, 50,000 work orders read by
 * keyset, and lists that follow every change.
 * Every test starts a fresh emulator on a free port (./helpers.js) and talks to it over real HTTP.
 */

const { startEmulator, createEmulator } = require('../index');
const { useEmulator, basic, token, api, odata, idsOf } = require('./helpers');

/** @type {import('../index').Emulator} */
let emu;
/** @type {any} */
let fx;
useEmulator((e) => {
	emu = e;
	fx = e.fixtures;
});

describe('tenants at scale and deployed date precision (trigger issue 17)', () => {
	/** Ids of every page of a keyset read: `$filter=<filter> and Id lt <last>&$orderby=Id desc`, until an empty page. */
	async function keysetRead(/** @type {string} */ t, /** @type {string} */ filter) {
		/** @type {number[]} */
		const ids = [];
		let last;
		for (let n = 0; n < 1000; n++) {
			const r = await odata(t, {
				$filter: last === undefined ? filter : `${filter} and Id lt ${last}`,
				$orderby: 'Id desc',
				$top: 50,
				$select: 'Id,Status',
			});
			expect(r.status).toBe(200);
			const page = idsOf(r);
			if (page.length === 0) return ids;
			ids.push(...page);
			last = page[page.length - 1];
		}
		throw new Error('keyset read did not end');
	}

	test('datePrecisionMs 1000: the dates the service writes are whole seconds, so two changes within a second share UpdatedDate; setDatePrecision / POST /__emulator/time', async () => {
		const e = await startEmulator({
			datePrecisionMs: 1000,
			serviceTimeZone: 'UTC',
			twinsInLocationZone: false,
		});
		try {
			expect(
				Object.values(e.state.workOrders).every(
					(w) => /\.000$/.test(w.UpdatedDate) && /\.000$/.test(w.CallDate),
				),
			).toBe(true);
			e.setClockSkew(Date.parse('2031-06-01T10:00:00.100Z') - Date.now());
			const a = e.setWorkOrderStatus(90000001, 'IN PROGRESS', 'ON SITE');
			const first = a.UpdatedDate_DTO;
			const b = e.setWorkOrderStatus(90000001, 'COMPLETED', 'PENDING CONFIRMATION');
			expect(first).toBe('2031-06-01T10:00:00.000+00:00');
			expect(b.UpdatedDate_DTO).toBe(first);
			expect(e.createWorkOrder({ UpdatedDate: '2031-06-01T10:00:05.999Z' }).UpdatedDate_DTO).toBe(
				'2031-06-01T10:00:05.000+00:00',
			);
			const r = await fetch(`${e.origin}/__emulator/time`, {
				method: 'POST',
				headers: { 'content-type': 'application/json' },
				body: JSON.stringify({ datePrecisionMs: 1 }),
			});
			expect((await r.json()).datePrecisionMs).toBe(1);
			expect(
				e.updateWorkOrder(90000002, { UpdatedDate: '2031-06-01T10:00:05.999Z' }).UpdatedDate_DTO,
			).toBe('2031-06-01T10:00:05.999+00:00');
			expect(() => e.setDatePrecision(0)).toThrow(/datePrecisionMs/);
		} finally {
			await e.close();
		}
		expect(() => createEmulator({ datePrecisionMs: 1.5 })).toThrow(/datePrecisionMs/);
	});

	test('50,000 work orders (workOrderCount, or createWorkOrders in one call): a keyset read by Id returns each once, and matches the full list', async () => {
		const e = await startEmulator({ workOrderCount: 50000 });
		try {
			const { fixtures } = e;
			expect(fixtures.workOrders.mainLast).toBe(90050000);
			const more = e.createWorkOrders(
				Array.from({ length: 2000 }, (_, i) => ({
					LocationId: 501 + (i % 2),
					Status: i % 3 ? 'OPEN' : 'COMPLETED',
				})),
			);
			expect(more.map((w) => w.Id)).toEqual(
				Array.from({ length: 2000 }, (_, i) => fixtures.workOrders.firstNewId + i),
			);
			const c = await (
				await fetch(`${e.authUrl}/oauth/token`, {
					method: 'POST',
					headers: {
						authorization: basic(fixtures.clients.main),
						'content-type': 'application/x-www-form-urlencoded',
					},
					body: new URLSearchParams({
						grant_type: 'password',
						username: fixtures.users.subscriber.username,
						password: fixtures.users.subscriber.password,
					}),
				})
			).json();
			const get = (/** @type {Record<string, any>} */ q) => {
				const qs = Object.entries(q)
					.map(([k, v]) => `${k}=${encodeURIComponent(String(v))}`)
					.join('&');
				return fetch(`${e.baseUrl}/v3/odata/workorders?${qs}`, {
					headers: { authorization: `Bearer ${c.access_token}` },
				}).then((r) => r.json());
			};
			// a status read as the trigger makes it: T0, keyset, newest Ids first (the emulator's fast path)
			const t0 = new Date(e.now() + 1000).toISOString();
			const ids = [];
			let last;
			for (;;) {
				const page = await get({
					$filter: `UpdatedDate lt ${t0}${last ? ` and Id lt ${last}` : ''} and LocationId eq 502`,
					$orderby: 'Id desc',
					$top: 50,
					$select: 'Id,Status,UpdatedDate_DTO',
				});
				expect(Object.keys(page.value[0] ?? { Id: 0, Status: 0, UpdatedDate_DTO: 0 })).toEqual([
					'Id',
					'Status',
					'UpdatedDate_DTO',
				]);
				if (page.value.length === 0) break;
				ids.push(...page.value.map((/** @type {any} */ w) => w.Id));
				last = ids[ids.length - 1];
			}
			const expected = Object.values(e.state.workOrders)
				.filter((w) => w.SubscriberId === 1001 && w.LocationId === 502)
				.map((w) => w.Id)
				.sort((a, b) => b - a);
			expect(expected.length).toBeGreaterThan(10000);
			expect(ids).toEqual(expected);
			// the same page through the general path ($count asks for every match) is identical
			const lazy = await get({
				$filter: `Id lt 90030000`,
				$orderby: 'Id desc',
				$top: 50,
				$skip: 100,
			});
			const counted = await get({
				$filter: `Id lt 90030000`,
				$orderby: 'Id desc',
				$top: 50,
				$skip: 100,
				$count: true,
			});
			expect(counted['@odata.count']).toBe(30000 - 1);
			expect(counted.value).toEqual(lazy.value);
			const range = {
				$filter: '90010000 lt Id and Id le 90010120 and not (Id eq 90010005)',
				$orderby: 'Id asc',
				$top: 50,
				$skip: 50,
			};
			const rangeLazy = await get(range);
			expect(rangeLazy.value.map((/** @type {any} */ w) => w.Id)).toEqual(
				Array.from({ length: 50 }, (_, i) => 90010052 + i),
			);
			expect((await get({ ...range, $count: true })).value).toEqual(rangeLazy.value);
			// ordering by another key selects the first records without sorting all: same as a full sort
			const byTrade = await get({ $orderby: 'Trade desc,UpdatedDate asc', $top: 50, $skip: 20 });
			const all = Object.values(e.state.workOrders).filter((w) => w.SubscriberId === 1001);
			const sorted = [...all].sort((a, b) =>
				a.Trade < b.Trade
					? 1
					: a.Trade > b.Trade
						? -1
						: Date.parse(a.UpdatedDate_DTO) - Date.parse(b.UpdatedDate_DTO) || a.Id - b.Id,
			);
			expect(byTrade.value.map((/** @type {any} */ w) => w.Id)).toEqual(
				sorted.slice(20, 70).map((w) => w.Id),
			);
		} finally {
			await e.close();
		}
	});

	test('the lists follow every change: a new work order, a move to another subscriber, a status change (cached lists rebuilt)', async () => {
		const t = await token();
		const first = await keysetRead(t, "Status/Primary eq 'COMPLETED'");
		const wo = emu.createWorkOrder({ Status: { Primary: 'COMPLETED', Extended: null } });
		emu.setWorkOrderStatus(90000001, 'COMPLETED', 'PENDING CONFIRMATION');
		emu.updateWorkOrder(first[0], { LocationId: 701 }); // to child subscriber 2001: no longer visible
		const second = await keysetRead(t, "Status/Primary eq 'COMPLETED'");
		expect(second).toEqual([wo.Id, ...first.slice(1), 90000001].sort((a, b) => b - a));
		expect((await api('GET', `/workorders/${first[0]}`, { token: t })).status).toBe(404);
	});
});
