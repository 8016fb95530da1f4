'use strict';
/**
 * invoice.getAll through n8n-core against the emulator: GET /odata/invoices with the Filters as one
 * $filter (status, location, store, provider, work order, trade, posted and updated dates as US
 * Eastern time with its offset, total), your own $filter/$orderby/$select, Return All / Limit paged
 * 50 at a time, Simplify; the 90-day default and the 365-day reach (a Posted After older than 365
 * days refused before any request, naming the limit).
 */
const { useEnvironment, expectGet, expectValidationError } = require('../helpers');
const { params } = require('./invoices');

const env = useEnvironment();
const DAY = 86400000;

/** A date n days ago as the workflow would give it (ISO with Z). */
const daysAgo = (n) => new Date(Date.now() - n * DAY).toISOString();

describe('invoice.getAll', () => {
	test('no filter: one page of the last 90 days, compact records; the query the service gets', async () => {
		const r = await env.run({ parameters: params('getAll', { returnAll: false, limit: 5 }) });
		expect(r.error).toBeUndefined();
		expect(r.api).toHaveLength(1);
		expectGet(r.api[0], {
			path: '/api/v3/odata/invoices',
			query: { $top: '5', $skip: '0', $count: 'true' },
		});
		expect(r.output).toHaveLength(5);
		for (const o of r.output) expect(o.json.Labors).toBeUndefined();
		expect(r.output.map((o) => o.json.Id)).not.toContain(env.fixtures.invoices.approvedOld);
	});

	test('the Filters become one $filter; the records match them', async () => {
		const filters = {
			statuses: ['Approved', 'On Hold'],
			locationIds: '501, 502',
			providerIds: '3001',
			trades: 'HVAC, PLUMBING',
			minTotal: 1,
			maxTotal: 100000,
		};
		const r = await env.run({ parameters: params('getAll', { returnAll: true, filters }) });
		expect(r.error).toBeUndefined();
		const q = r.api[0].query;
		expect(q.$filter).toBe(
			"(Status eq 'Approved' or Status eq 'On Hold') and (Location/Id eq 501 or Location/Id eq 502) and Provider/Id eq 3001 and (Trade eq 'HVAC' or Trade eq 'PLUMBING') and InvoiceTotal ge 1 and InvoiceTotal le 100000",
		);
		expect(r.output.length).toBeGreaterThan(0);
		for (const { json } of r.output) {
			expect(['Approved', 'On Hold']).toContain(json.Status);
			expect([501, 502]).toContain(json.Location.Id);
			expect(['HVAC', 'PLUMBING']).toContain(json.Trade);
		}
	});

	test('Posted After: sent as PostedDate with the US Eastern offset; the service then reaches back beyond 90 days', async () => {
		const r = await env.run({
			parameters: params('getAll', {
				returnAll: true,
				filters: {
					postedAfter: daysAgo(200),
					workOrderIds: String(
						env.emulator.invoice(env.fixtures.invoices.approvedOld).WoTrackingNumber,
					),
				},
			}),
		});
		expect(r.error).toBeUndefined();
		expect(r.api[0].query.$filter).toMatch(
			/^WoTrackingNumber eq \d+ and PostedDate ge \d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}-0[45]:00$/,
		);
		expect(r.output.map((o) => o.json.Id)).toContain(env.fixtures.invoices.approvedOld);
	});

	test('a Posted After older than 365 days is refused before any request, naming the limit', async () => {
		const r = await env.run({
			parameters: params('getAll', { returnAll: true, filters: { postedAfter: daysAgo(400) } }),
		});
		expectValidationError(r, {
			parameter: 'filters.postedAfter',
			item: 0,
			problem: /365 days at most/,
		});
		expect(r.error.description).toMatch(/within the last 365 days/);
		expect(r.api).toHaveLength(0);
	});

	test('Updated After / Before: UpdatedDate with the Eastern offset; the invoice changed now is found', async () => {
		const id = env.fixtures.invoices.voided;
		env.emulator.setInvoiceStatus(id, 'Voided');
		const r = await env.run({
			parameters: params('getAll', {
				returnAll: true,
				filters: {
					updatedAfter: new Date(Date.now() - 60000).toISOString(),
					updatedBefore: new Date(Date.now() + 60000).toISOString(),
				},
			}),
		});
		expect(r.error).toBeUndefined();
		expect(r.api[0].query.$filter).toMatch(
			/^UpdatedDate ge .*-0[45]:00 and UpdatedDate lt .*-0[45]:00$/,
		);
		expect(r.output.map((o) => o.json.Id)).toEqual([id]);
	});

	test('own $filter, $orderby, $select: sent as given (ANDed with the Filters); Select returns the chosen fields', async () => {
		const r = await env.run({
			parameters: params('getAll', {
				returnAll: true,
				filters: { statuses: ['Approved'] },
				options: {
					filter: 'InvoiceBalance gt 0',
					orderBy: 'InvoiceTotal desc',
					select: 'Id,InvoiceTotal,Status',
				},
			}),
		});
		expect(r.error).toBeUndefined();
		expect(r.api[0].query).toMatchObject({
			$filter: "Status eq 'Approved' and (InvoiceBalance gt 0)",
			$orderby: 'InvoiceTotal desc',
			$select: 'Id,InvoiceTotal,Status',
		});
		const totals = r.output.map((o) => o.json.InvoiceTotal);
		expect(totals).toEqual([...totals].sort((a, b) => b - a));
		for (const o of r.output)
			expect(Object.keys(o.json).sort()).toEqual(['Id', 'InvoiceTotal', 'Status']);
	});

	test('Return All pages 50 at a time until a short page', async () => {
		env.emulator.createInvoices(120, { status: 'Open', spreadDays: 30 });
		const r = await env.run({
			parameters: params('getAll', { returnAll: true, filters: { statuses: ['Open'] } }),
		});
		expect(r.error).toBeUndefined();
		const total = env.emulator
			.invoiceList()
			.filter(
				(i) =>
					i.Status === 'Open' &&
					env.emulator.invoices.meta.get(i.Id).subscriberId === 1001 &&
					env.emulator.invoices.meta.get(i.Id).postedMs >= Date.now() - 90 * DAY,
			).length;
		expect(r.output).toHaveLength(total);
		expect(r.api.map((q) => q.query.$skip)).toEqual(
			Array.from({ length: r.api.length }, (_, k) => String(k * 50)),
		);
		expect(new Set(r.output.map((o) => o.json.Id)).size).toBe(total);
	});

	test('bad filter values are refused before any request', async () => {
		for (const [filters, parameter, problem] of [
			[{ statuses: ['Pending'] }, 'filters.statuses', /must be statuses among/],
			[{ locationIds: '501, x' }, 'filters.locationIds', /positive whole number/],
			[{ minTotal: 50, maxTotal: 10 }, 'filters.maxTotal', /not be below/],
			[{ postedAfter: 'yesterday' }, 'filters.postedAfter', /date-time/],
		]) {
			const r = await env.run({ parameters: params('getAll', { returnAll: true, filters }) });
			expectValidationError(r, { parameter, item: 0, problem });
			expect(r.api).toHaveLength(0);
		}
	});
});
