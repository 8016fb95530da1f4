'use strict';
/**
 * The Invoice picker's "From List" (listSearch.searchInvoices) through n8n-core's LoadOptionsContext:
 * GET /odata/invoices most recently changed first, a contains search on the number, location name
 * and store number (digits also the ID and the work order), 50 a page with a page token.
 */
const { useEnvironment, listSearch } = require('../helpers');

const env = useEnvironment();
const parameters = { resource: 'invoice', operation: 'get' };

describe('listSearch.searchInvoices', () => {
	test('no search: the latest invoices, named by number, work order, location, total, status; value = ID', async () => {
		env.emulator.clearRequests();
		const r = await listSearch(env, 'searchInvoices', parameters, 'invoiceId');
		const api = env.emulator.requests.filter((q) => q.path.startsWith('/api/'));
		expect(api).toHaveLength(1);
		expect(api[0].query).toEqual({
			$orderby: 'UpdatedDate desc',
			$select: 'Id,Number,WoTrackingNumber,Status,InvoiceTotal,Location',
			$top: '50',
			$skip: '0',
			$count: 'true',
		});
		expect(r.results.length).toBeGreaterThan(5);
		const open = env.emulator.invoice(env.fixtures.invoices.open);
		const entry = r.results.find((x) => x.value === String(open.Id));
		expect(entry.name).toBe(
			`${open.Number} (ID ${open.Id}) · WO ${open.WoTrackingNumber} · ${open.Location.Name} · ${open.InvoiceTotal} · Open`,
		);
	});

	test('a text search: contains() on number, location name and store number; digits: also Id and WoTrackingNumber', async () => {
		env.emulator.clearRequests();
		const r = await listSearch(env, 'searchInvoices', parameters, 'invoiceId', 'dallas');
		const q = env.emulator.requests.filter((x) => x.path.startsWith('/api/'))[0].query.$filter;
		expect(q).toBe(
			"contains(Number,'dallas') or contains(Location/Name,'dallas') or contains(Location/StoreId,'dallas')",
		);
		expect(r.results.length).toBeGreaterThan(0);
		for (const x of r.results) expect(x.name).toMatch(/Dallas/);
		env.emulator.clearRequests();
		const byId = await listSearch(
			env,
			'searchInvoices',
			parameters,
			'invoiceId',
			String(env.fixtures.invoices.open),
		);
		expect(
			env.emulator.requests.filter((x) => x.path.startsWith('/api/'))[0].query.$filter,
		).toMatch(/^Id eq \d+ or WoTrackingNumber eq \d+ or contains\(Number,/);
		expect(byId.results.map((x) => x.value)).toContain(String(env.fixtures.invoices.open));
	});

	test('pages of 50 with a token', async () => {
		env.emulator.createInvoices(60, { spreadDays: 10 });
		const first = await listSearch(env, 'searchInvoices', parameters, 'invoiceId');
		expect(first.results).toHaveLength(50);
		expect(first.paginationToken).toBe('50');
		const second = await listSearch(env, 'searchInvoices', parameters, 'invoiceId', '', '50');
		expect(second.results.length).toBeGreaterThan(0);
		expect(
			second.results.map((x) => x.value).some((v) => first.results.map((x) => x.value).includes(v)),
		).toBe(false);
	});
});
