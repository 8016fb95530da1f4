'use strict';

/**
 * OData $filter as the polling trigger uses it: operators, precedence and literals, and dates
 * (every literal form of an instant, ge/gt, $orderby on dates with ties broken by Id).
 * Every test starts a fresh emulator on a free port (./helpers.js) and talks to it over real HTTP.
 */

const {
	useEmulator,
	token,
	api,
	expectODataError,
	odata,
	idsOf,
	expectedIds,
} = require('./helpers');

/** @type {import('../index').Emulator} */
let emu;
/** @type {any} */
let fx;
useEmulator((e) => {
	emu = e;
	fx = e.fixtures;
});

describe('OData $filter operators, precedence and literals', () => {
	test('eq ne gt ge lt le on numbers (any size, decimals) and on strings (case-insensitive), a literal on either side', async () => {
		const t = await token();
		/** @type {Array<[string, (w: any) => boolean]>} */
		const cases = [
			['Nte gt 500', (w) => w.Nte > 500],
			['Nte ge 500', (w) => w.Nte >= 500],
			['Nte lt 500', (w) => w.Nte < 500],
			['Nte le 500', (w) => w.Nte <= 500],
			['Nte ne 500', (w) => w.Nte !== 500],
			['Nte eq 500.0', (w) => w.Nte === 500],
			['Nte gt 499.5m', (w) => w.Nte > 499.5],
			['500 lt Nte', (w) => w.Nte > 500],
			['Id gt 9007199254740993', () => false],
			['Id lt 9223372036854775807', () => true],
			["Status/Primary eq 'open'", (w) => w.Status.Primary === 'OPEN'],
			["status/primary eq 'OPEN'", () => false], // property names are case-sensitive: unknown → 400 (checked below)
			["Status/Primary ne 'Completed'", (w) => w.Status.Primary !== 'COMPLETED'],
			["Trade gt 'hvac'", (w) => w.Trade.toLowerCase() > 'hvac'],
			["Trade le 'HVAC'", (w) => w.Trade.toLowerCase() <= 'hvac'],
			['RecallWorkOrder ne null', (w) => w.RecallWorkOrder !== null],
			['RecallWorkOrder eq null', (w) => w.RecallWorkOrder === null],
			['RecallWorkOrder gt 0', (w) => w.RecallWorkOrder !== null],
			['IsInvoiced ne true', (w) => !w.IsInvoiced],
			["Location/StoreId eq 's502'", (w) => w.Location.StoreId === 'S502'],
			[
				"Location/TimeZoneIanaName eq 'America/Chicago'",
				(w) => w.Location.TimeZoneIanaName === 'America/Chicago',
			],
			["contains(Description,'DRAIN')", (w) => w.Description.toLowerCase().includes('drain')],
			[
				"startswith(Location/Name,'store #50') and endswith(Location/Name,'plano')",
				(w) => w.Location.Name === 'Store #505 Plano',
			],
			[
				"tolower(Trade) eq 'hvac' and length(Category) gt 6",
				(w) => w.Trade === 'HVAC' && w.Category.length > 6,
			],
			[
				"indexof(Description,'request') ge 0",
				(w) => w.Description.toLowerCase().includes('request'),
			],
			["substring(Number,7) eq '1'", (w) => w.Number.slice(7) === '1'],
			["not contains(Location/Name,'Dallas')", (w) => !w.Location.Name.includes('Dallas')],
		];
		for (const [filter, pred] of cases) {
			const r = await odata(
				t,
				{ $filter: filter, $count: 'true', $top: 50 },
				undefined,
				filter.startsWith('status/') ? 'property names are case-sensitive' : undefined,
			);
			if (filter.startsWith('status/')) {
				expectODataError(r, /Could not find a property named 'status'/);
				continue;
			}
			expect([filter, r.status]).toEqual([filter, 200]);
			const all = expectedIds(pred);
			expect([filter, r.body['@odata.count']]).toEqual([filter, all.length]);
			expect([filter, idsOf(r)]).toEqual([filter, all.slice(0, 50)]);
		}
	});

	test('and binds tighter than or; parentheses regroup; not; a bare boolean property is a condition', async () => {
		const t = await token();
		/** @type {Array<[string, (w: any) => boolean]>} */
		const cases = [
			[
				"Trade eq 'PLUMBING' or Trade eq 'HVAC' and LocationId eq 501",
				(w) => w.Trade === 'PLUMBING' || (w.Trade === 'HVAC' && w.LocationId === 501),
			],
			[
				"(Trade eq 'PLUMBING' or Trade eq 'HVAC') and LocationId eq 501",
				(w) => (w.Trade === 'PLUMBING' || w.Trade === 'HVAC') && w.LocationId === 501,
			],
			[
				"LocationId eq 501 and Trade eq 'HVAC' or Trade eq 'PLUMBING'",
				(w) => (w.LocationId === 501 && w.Trade === 'HVAC') || w.Trade === 'PLUMBING',
			],
			[
				"LocationId eq 501 and (Trade eq 'HVAC' or Trade eq 'PLUMBING')",
				(w) => w.LocationId === 501 && (w.Trade === 'HVAC' || w.Trade === 'PLUMBING'),
			],
			[
				"not (Trade eq 'HVAC' or Trade eq 'PLUMBING')",
				(w) => w.Trade !== 'HVAC' && w.Trade !== 'PLUMBING',
			],
			[
				"not Trade eq 'HVAC' and LocationId eq 502",
				(w) => w.Trade !== 'HVAC' && w.LocationId === 502,
			],
			['((((LocationId eq 504))))', (w) => w.LocationId === 504],
			['IsInvoiced', (w) => w.IsInvoiced],
			['not IsInvoiced and IsCheckInDenied eq false', (w) => !w.IsInvoiced && !w.IsCheckInDenied],
			[
				"contains(Location/Name,'Dallas') or contains(Location/StoreId,'S502')",
				(w) => w.LocationId === 501 || w.LocationId === 502,
			],
			[
				"Status/Primary eq 'OPEN' OR Status/Primary EQ 'COMPLETED' AND Nte GE 900",
				(w) => w.Status.Primary === 'OPEN' || (w.Status.Primary === 'COMPLETED' && w.Nte >= 900),
			],
		];
		for (const [filter, pred] of cases) {
			const r = await odata(t, { $filter: filter, $count: 'true' });
			expect([filter, r.status]).toEqual([filter, 200]);
			const all = expectedIds(pred);
			expect(all.length).toBeGreaterThan(0);
			expect([filter, r.body['@odata.count']]).toEqual([filter, all.length]);
		}
	});

	test('syntax errors, unknown properties (anywhere in the tree), unknown functions and mismatched types are 400 with the OData error body', async () => {
		const t = await token();
		for (const bad of [
			"(Trade eq 'HVAC'",
			"Trade eq 'HVAC')",
			"Trade eq 'HVAC' and",
			"or Trade eq 'HVAC'",
			"Trade eq 'HVAC' LocationId eq 501",
			'Nte between 1',
			'Nte gt',
			'()',
			'500',
			"Trade eq 'HVAC' or (LocationId eq 501 and Bogus eq 1)",
			"Trade eq 'HVAC' or Location/Bogus eq 1",
			"Status/Primary/Name eq 'x'",
			'Notes/Count/Totals eq 1',
			"substringof('H',Trade)",
			'contains(Trade)',
			"contains(LocationId,'5')",
			'startswith(Trade,5)',
			"Trade eq 'unterminated",
			'UpdatedDate ge 5',
			'UpdatedDate ge true',
			"UpdatedDate ge 'yesterday'",
			'Trade ge 2026-03-29T00:00:00Z',
			'UpdatedDate ge 2026-02-30T00:00:00Z',
			'UpdatedDate ge 2026-03-29T24:00:00Z',
			'UpdatedDate ge 2026-03-29T01:30:00.123456789Z',
			'UpdatedDate ge 2026-03-29T01:30:00+15:00',
			"UpdatedDate ge guid'2026-03-29T01:30:00Z'",
			"UpdatedDate ge datetime'tomorrow'",
			'UpdatedDate',
		]) {
			const r = await odata(t, { $filter: bad }, undefined, 'a $filter the service refuses');
			expect([bad, r.status]).toEqual([bad, 400]);
			expectODataError(r);
		}
		expectODataError(await odata(t, { $filter: '' }));
	});

	test("an unencoded '+' of an offset arrives as a space: 400 naming the fix (%2B or Z)", async () => {
		const t = await token();
		const r = await api(
			'GET',
			'/odata/workorders?$filter=UpdatedDate ge 2026-03-29T01:30:00+01:00',
			{ token: t, deliberate: "a '+' sent unencoded" },
		);
		expectODataError(r, /%2B/);
		const ok = await api(
			'GET',
			'/odata/workorders?$filter=UpdatedDate%20ge%202026-03-29T01:30:00%2B01:00&$count=true',
			{ token: t },
		);
		expect(ok.status).toBe(200);
	});
});

describe('OData dates: literal forms, instants, order', () => {
	test('every accepted literal form of one instant selects the same records; ge includes, gt excludes the exact instant', async () => {
		const t = await token();
		const at = '2031-05-06T07:08:09.123Z'; // later than every fixture
		const wo = emu.createWorkOrder({ UpdatedDate: at });
		const later = emu.createWorkOrder({ UpdatedDate: '2031-05-06T07:08:10Z' });
		const forms = [
			'2031-05-06T07:08:09.123Z',
			'2031-05-06T07:08:09.1230000Z',
			'2031-05-06T09:08:09.123+02:00',
			'2031-05-06T02:08:09.123-05:00',
			'2031-05-06T03:08:09.123', // no offset: the service's zone (US Eastern, daylight saving time)
			"datetime'2031-05-06T03:08:09.123'",
			"datetimeoffset'2031-05-06T07:08:09.123Z'",
			"'2031-05-06T07:08:09.123Z'",
			"'2031-05-06T08:08:09.123+01:00'",
		];
		for (const lit of forms) {
			const ge = await odata(t, { $filter: `UpdatedDate ge ${lit}`, $orderby: 'UpdatedDate asc' });
			expect([lit, ge.status, idsOf(ge)]).toEqual([lit, 200, [wo.Id, later.Id]]);
			const eq = await odata(t, { $filter: `UpdatedDate eq ${lit}` });
			expect([lit, idsOf(eq)]).toEqual([lit, [wo.Id]]);
			const gt = await odata(t, { $filter: `UpdatedDate_DTO gt ${lit}` });
			expect([lit, idsOf(gt)]).toEqual([lit, [later.Id]]);
		}
		// sub-millisecond literals: .1231 is after the record's .123
		expect(idsOf(await odata(t, { $filter: 'UpdatedDate ge 2031-05-06T07:08:09.1231Z' }))).toEqual([
			later.Id,
		]);
		// without seconds, a date alone (midnight in the service's zone: US Eastern)
		expect(
			idsOf(await odata(t, { $filter: 'UpdatedDate ge 2031-05-06T07:08Z', $orderby: 'Id' })),
		).toEqual([wo.Id, later.Id]);
		expect(
			idsOf(await odata(t, { $filter: 'UpdatedDate ge 2031-05-06T03:08:10', $orderby: 'Id' })),
		).toEqual([later.Id]);
		expect(idsOf(await odata(t, { $filter: 'UpdatedDate ge 2031-05-06', $orderby: 'Id' }))).toEqual(
			[wo.Id, later.Id],
		);
		expect(
			idsOf(await odata(t, { $filter: 'UpdatedDate lt 2031-05-06 and UpdatedDate ge 2031-01-01' })),
		).toEqual([]);
		// a date property against another one
		const pp = await odata(t, { $filter: 'UpdatedDate gt CreatedDate', $count: 'true' });
		expect(pp.body['@odata.count']).toBe(
			expectedIds((w) => Date.parse(w.UpdatedDate_DTO) > Date.parse(w.CreatedDate_DTO)).length,
		);
	});

	test('$orderby on a date orders by instant, ties broken by Id ascending (also after desc)', async () => {
		const t = await token();
		const same = '2031-01-01T00:00:00Z';
		const [a, b, c] = emu.createWorkOrders([
			{ UpdatedDate: same },
			{ UpdatedDate: same },
			{ UpdatedDate: same },
		]);
		const before = emu.createWorkOrder({ UpdatedDate: '2030-12-31T23:59:59.999Z' });
		const asc = await odata(t, {
			$filter: 'UpdatedDate ge 2030-12-01T00:00:00Z',
			$orderby: 'UpdatedDate asc',
		});
		expect(idsOf(asc)).toEqual([before.Id, a.Id, b.Id, c.Id]);
		const desc = await odata(t, {
			$filter: 'UpdatedDate ge 2030-12-01T00:00:00Z',
			$orderby: 'UpdatedDate desc',
		});
		expect(idsOf(desc)).toEqual([a.Id, b.Id, c.Id, before.Id]);
		const byIdDesc = await odata(t, {
			$filter: 'UpdatedDate ge 2030-12-01T00:00:00Z',
			$orderby: 'UpdatedDate desc,Id desc',
		});
		expect(idsOf(byIdDesc)).toEqual([c.Id, b.Id, a.Id, before.Id]);
		// the whole list ordered by UpdatedDate is ordered by instant
		const all = await odata(t, { $orderby: 'UpdatedDate_DTO asc', $top: 50 });
		const instants = all.body.value.map((/** @type {any} */ w) => Date.parse(w.UpdatedDate_DTO));
		expect([...instants].sort((x, y) => x - y)).toEqual(instants);
		// the twins are in the locations' zones (Dallas: Central, Boston: Eastern): order by instant, not text
		expect(
			new Set(all.body.value.map((/** @type {any} */ w) => w.UpdatedDate_DTO.slice(-6))).size,
		).toBeGreaterThan(0);
	});
});
