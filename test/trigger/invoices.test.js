'use strict';
/**
 * The polling trigger on invoices (issue 33): Invoice Created, Invoice Updated and Invoice Status
 * Changed, with the exactness of the work-order events. Through n8n-core's real poll path
 * (harness.activate / trigger.poll() / trigger.restart() / manual mode) against the emulator's
 * invoices (part C: `UpdatedDate` and `PostedDate` are plain US Eastern local times without twin;
 * the list answers the last 90 days unless `$filter` names PostedDate, 365 days at most), every
 * request validated by the contract test against part C.
 */
const H = require('./helpers');

const env = H.useHarness();
const LIST = '/api/v3/odata/invoices';
const DAY = 86_400_000;

/** The invoice list reads the emulator received since `from` (a request seq, H.mark). */
function invoiceReads(emu, from = 0) {
	return emu.requests
		.filter((r) => r.seq > from && r.path === LIST)
		.map((r) => ({ status: r.status, ...r.query }));
}

/** A work order of the main subscriber to invoice. */
const WO = [90000001, 90000002, 90000003, 90000004, 90000005];

/** Another status than the invoice has (cycled). */
function nextStatus(emu, id, n = 0) {
	const choices = ['Approved', 'On Hold', 'Rejected', 'Voided'];
	const now = emu.invoice(id).Status;
	return choices.filter((s) => s !== now)[n % 3];
}

describe('Invoice Created, Updated, Status Changed: each change once', () => {
	test('Invoice Created: each new invoice once, in the order posted; a change to an existing invoice is no creation; every read names PostedDate (the 365-day reach)', async () => {
		const { emu, credentialId } = await H.freshService(env.harness, { datePrecisionMs: 1000 });
		const from = H.mark(emu);
		const trigger = await env.harness.activate(
			H.triggerWorkflow({ credentialId, event: 'invoiceCreated' }),
		);
		expect(trigger.activation.error).toBeUndefined();
		expect(trigger.activation.items).toEqual([]);
		emu.advanceTime(5);
		const a = emu.createInvoice({ WorkOrderId: WO[0] }).Id;
		emu.advanceTime(1);
		const b = emu.createInvoice({ WorkOrderId: WO[1] }).Id;
		emu.setInvoiceStatus(emu.fixtures.invoices.open, 'Approved');
		const first = await trigger.poll();
		expect(first.error).toBeUndefined();
		expect(H.ids(first)).toEqual([a, b]);
		expect(first.items[0].json).toEqual(
			expect.objectContaining({ Id: a, Status: 'Open', WoTrackingNumber: WO[0] }),
		);
		// the downstream node ran on them
		expect(first.executions).toHaveLength(1);

		emu.advanceTime(20);
		const c = emu.createInvoice({ WorkOrderId: WO[2] }).Id;
		emu.setInvoiceStatus(a, 'Approved'); // a change, not a creation
		const second = await trigger.poll();
		expect(H.ids(second)).toEqual([c]);
		for (const seconds of [10, 70, 3600]) {
			emu.advanceTime(seconds);
			expect((await trigger.poll()).items).toEqual([]);
		}
		const reads = invoiceReads(emu, from);
		expect(reads.filter((r) => r.status !== 200)).toEqual([]);
		// every read names PostedDate: the cursor's, and the reach 365 days back
		for (const r of reads) expect(r.$filter).toMatch(/^PostedDate ge \S+-0[45]:00\b/);
		const windows = reads.filter((r) => / and PostedDate ge /.test(r.$filter));
		expect(windows.length).toBeGreaterThanOrEqual(5);
		for (const w of windows) {
			expect(w.$filter).toMatch(/^PostedDate ge \S+ and PostedDate ge \S+$/);
			const [cursor, reach] = w.$filter.split(' and ').map((c) => Date.parse(c.split(' ge ')[1]));
			expect(emu.now() - reach).toBeGreaterThan(363 * DAY);
			expect(emu.now() - reach).toBeLessThan(365 * DAY);
			expect(cursor).toBeGreaterThan(reach);
			expect(w.$orderby).toBe('PostedDate asc,Id asc');
		}
	});

	test("Invoice Updated: each changed invoice once, in its newest state, also one posted 120 days ago (outside the list's default 90 days); several changes between polls are one item", async () => {
		const { emu, credentialId } = await H.freshService(env.harness, { datePrecisionMs: 1000 });
		const from = H.mark(emu);
		const trigger = await env.harness.activate(
			H.triggerWorkflow({ credentialId, event: 'invoiceUpdated' }),
		);
		expect(trigger.activation.error).toBeUndefined();
		const old = emu.fixtures.invoices.approvedOld;
		expect(emu.now() - Date.parse(`${emu.invoice(old).PostedDate}-05:00`)).toBeGreaterThan(
			100 * DAY,
		);
		emu.advanceTime(5);
		emu.setInvoiceApprovalCode(old, 'AC-120');
		emu.advanceTime(1);
		const created = emu.createInvoice({ WorkOrderId: WO[3] }).Id;
		emu.advanceTime(1);
		emu.setInvoiceStatus(emu.fixtures.invoices.onHold, 'Approved');
		emu.setInvoiceStatus(emu.fixtures.invoices.onHold, 'Rejected'); // twice: one item, its last state
		const first = await trigger.poll();
		expect(first.error).toBeUndefined();
		expect(H.ids(first)).toEqual([old, created, emu.fixtures.invoices.onHold]);
		expect(first.items[0].json.ApprovalCode).toBe('AC-120');
		expect(first.items[2].json.Status).toBe('Rejected');

		emu.advanceTime(30);
		emu.starInvoice(emu.fixtures.invoices.paid, true);
		const second = await trigger.poll();
		expect(H.ids(second)).toEqual([emu.fixtures.invoices.paid]);
		expect(second.items[0].json.IsStarred).toBe(true);
		for (const seconds of [10, 70, 3600]) {
			emu.advanceTime(seconds);
			expect((await trigger.poll()).items).toEqual([]);
		}
		// the window reads: the cursor, and the reach (naming PostedDate lifts the 90-day default)
		const windows = invoiceReads(emu, from).filter((r) => /^UpdatedDate ge /.test(r.$filter));
		expect(windows.length).toBeGreaterThanOrEqual(5);
		for (const w of windows) {
			expect(w.$filter).toMatch(
				/^UpdatedDate ge \d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}-0[45]:00 and PostedDate ge \d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}-0[45]:00$/,
			);
			expect(w.$orderby).toBe('UpdatedDate asc,Id asc');
		}
	});

	test('Invoice Status Changed: activation reads every status (Id, Status, UpdatedDate, PostedDate); each status change once with its PreviousStatus; an approval code, a star or a status changed and back: nothing', async () => {
		const { emu, credentialId } = await H.freshService(env.harness, { datePrecisionMs: 1000 });
		const from = H.mark(emu);
		const trigger = await env.harness.activate(
			H.triggerWorkflow({ credentialId, event: 'invoiceStatusChanged' }),
		);
		expect(trigger.activation.error).toBeUndefined();
		expect(trigger.activation.items).toEqual([]);
		const statusPages = invoiceReads(emu, from).filter((r) => r.$select !== undefined);
		expect(statusPages.length).toBeGreaterThanOrEqual(1);
		expect(new Set(statusPages.map((r) => r.$select))).toEqual(
			new Set(['Id,Status,UpdatedDate,PostedDate']),
		);
		expect(statusPages[0].$filter).toMatch(/^UpdatedDate lt \S+ and PostedDate ge \S+$/);
		const state = H.stateOf(trigger.activation);
		expect(state.baseline).toBeUndefined(); // settled: the tenant's invoices fit in the activation
		const visible = emu
			.invoiceList()
			.filter(
				(i) =>
					emu.invoices.meta.get(i.Id).subscriberId === 1001 &&
					emu.now() - emu.invoices.meta.get(i.Id).postedMs < 365 * DAY,
			);
		expect(state.statuses.ids.split(',')).toHaveLength(visible.length);

		emu.advanceTime(5);
		const { open, onHold, approvedOld, approved, rejected } = emu.fixtures.invoices;
		const before = [open, onHold, approvedOld].map((id) => emu.invoice(id).Status);
		emu.setInvoiceStatus(open, 'Approved');
		emu.advanceTime(1);
		emu.setInvoiceStatus(onHold, 'Rejected');
		emu.advanceTime(1);
		emu.setInvoiceStatus(approvedOld, 'Paid'); // posted 120 days ago
		emu.setInvoiceApprovalCode(approved, 'AC-9'); // no status change
		emu.starInvoice(rejected, true); // no status change
		const first = await trigger.poll();
		expect(first.error).toBeUndefined();
		expect(H.ids(first)).toEqual([open, onHold, approvedOld]);
		expect(first.items.map((i) => [i.json.Status, i.json.PreviousStatus])).toEqual([
			['Approved', before[0]],
			['Rejected', before[1]],
			['Paid', before[2]],
		]);

		emu.advanceTime(30);
		emu.setInvoiceStatus(approved, 'On Hold');
		emu.setInvoiceStatus(approved, 'Approved'); // and back within one poll: no change seen
		const second = await trigger.poll();
		expect(second.items).toEqual([]);
		emu.advanceTime(30);
		emu.setInvoiceStatus(open, 'Paid');
		const third = await trigger.poll();
		expect(third.items.map((i) => [i.json.Id, i.json.Status, i.json.PreviousStatus])).toEqual([
			[open, 'Paid', 'Approved'],
		]);
		emu.advanceTime(3600);
		expect((await trigger.poll()).items).toEqual([]);
	});

	test('filters: Location IDs (Location/Id), statuses (Status) and trades go into $filter; Status Changed to one of the statuses only', async () => {
		const { emu, credentialId } = await H.freshService(env.harness, { datePrecisionMs: 1000 });
		const from = H.mark(emu);
		const trigger = await env.harness.activate(
			H.triggerWorkflow({
				credentialId,
				event: 'invoiceStatusChanged',
				filters: { locationIds: '501, 502', statuses: 'paid, on hold', trades: 'HVAC' },
			}),
		);
		expect(trigger.activation.error).toBeUndefined();
		const reads = invoiceReads(emu, from);
		expect(reads.every((r) => r.status === 200)).toBe(true);
		for (const r of reads) {
			expect(r.$filter).toContain('(Location/Id eq 501 or Location/Id eq 502)');
			expect(r.$filter).toContain("Trade eq 'HVAC'");
			expect(r.$filter).not.toContain('Status eq'); // Status Changed compares statuses itself
		}
		const at501 = emu
			.invoiceList()
			.filter(
				(i) =>
					emu.invoices.meta.get(i.Id).subscriberId === 1001 &&
					[501, 502].includes(i.Location.Id) &&
					i.Trade === 'HVAC' &&
					['Open', 'Approved'].includes(i.Status),
			)
			.map((i) => i.Id);
		expect(at501.length).toBeGreaterThanOrEqual(2);
		emu.advanceTime(5);
		emu.setInvoiceStatus(at501[0], 'Voided'); // not a watched status
		emu.advanceTime(1);
		emu.setInvoiceStatus(at501[1], 'On Hold');
		const first = await trigger.poll();
		expect(H.ids(first)).toEqual([at501[1]]);

		// Updated with a status filter: the service applies it
		const { emu: emu2, credentialId: cred2 } = await H.freshService(env.harness, {
			datePrecisionMs: 1000,
		});
		const from2 = H.mark(emu2);
		const updated = await env.harness.activate(
			H.triggerWorkflow({
				credentialId: cred2,
				event: 'invoiceUpdated',
				filters: { statuses: 'On Hold', filter: 'InvoiceTotal gt 0' },
			}),
		);
		expect(updated.activation.error).toBeUndefined();
		for (const r of invoiceReads(emu2, from2))
			expect(r.$filter).toMatch(/ and \(InvoiceTotal gt 0\) and Status eq 'On Hold'$/);
	});

	test("Fetch Test Event (manual mode) returns the most recently changed invoice and stores nothing; the active trigger's cursor does not move", async () => {
		const { emu, credentialId } = await H.freshService(env.harness, { datePrecisionMs: 1000 });
		const wf = H.triggerWorkflow({ credentialId, event: 'invoiceUpdated' });
		const trigger = await env.harness.activate(wf);
		const saved = JSON.stringify(trigger.savedStaticData);
		emu.advanceTime(5);
		emu.setInvoiceStatus(emu.fixtures.invoices.open, 'Approved');
		const staticData = JSON.parse(JSON.stringify(trigger.activation.nodeStaticData));
		const manual = await env.harness.poll(wf, {
			mode: 'manual',
			staticData: { [`node:${H.TRIGGER_NAME}`]: staticData },
		});
		expect(manual.error).toBeUndefined();
		expect(H.ids(manual)).toEqual([emu.fixtures.invoices.open]);
		expect(manual.saved).toBeUndefined();
		expect(JSON.stringify(trigger.savedStaticData)).toBe(saved);
		// the active trigger still emits the change once
		expect(H.ids(await trigger.poll())).toEqual([emu.fixtures.invoices.open]);
	});
});

describe('Start Date', () => {
	test('Invoice Created with a Start Date more than 364 days back: the activation fails naming the parameter and the limit, and nothing is sent', async () => {
		const { emu, credentialId } = await H.freshService(env.harness, { datePrecisionMs: 1000 });
		const from = H.mark(emu);
		const startDate = new Date(emu.now() - 380 * DAY).toISOString();
		const trigger = await env.harness.activate(
			H.triggerWorkflow({ credentialId, event: 'invoiceCreated', options: { startDate } }),
		);
		expect(trigger.activation.error).toBeDefined();
		expect(trigger.activation.error.message).toBe(
			`Invalid Start Date (parameter "options.startDate"): "${startDate}" is more than 364 days ago`,
		);
		expect(trigger.activation.error.description).toMatch(/last 365 days at most/);
		expect(emu.requests.filter((r) => r.seq > from)).toEqual([]);
	});

	test("Invoice Updated with a Start Date 130 days back: the changes since then of invoices posted within the reach, each once, oldest first (also those posted before the list's default 90 days)", async () => {
		const { emu, credentialId } = await H.freshService(env.harness, { datePrecisionMs: 1000 });
		const startDate = new Date(emu.now() - 130 * DAY).toISOString();
		const trigger = await env.harness.activate(
			H.triggerWorkflow({ credentialId, event: 'invoiceUpdated', options: { startDate } }),
		);
		expect(trigger.activation.error).toBeUndefined();
		const backlog = emu
			.invoiceList()
			.filter(
				(i) =>
					emu.invoices.meta.get(i.Id).subscriberId === 1001 &&
					emu.invoices.meta.get(i.Id).updatedMs >= Date.parse(startDate) &&
					emu.now() - emu.invoices.meta.get(i.Id).postedMs < 364 * DAY,
			)
			.sort(
				(a, b) =>
					emu.invoices.meta.get(a.Id).updatedMs - emu.invoices.meta.get(b.Id).updatedMs ||
					a.Id - b.Id,
			)
			.map((i) => i.Id);
		expect(backlog).toContain(emu.fixtures.invoices.approvedOld); // posted 120 days ago, approved a day later
		expect(H.ids(trigger.activation)).toEqual(backlog);
		emu.advanceTime(30);
		expect((await trigger.poll()).items).toEqual([]);
	});
});

describe('restarts', () => {
	test.each(['invoiceUpdated', 'invoiceStatusChanged'])(
		'%s: n8n restarts, the workflow rebuilt from the saved static data only: nothing lost, nothing repeated',
		async (event) => {
			const { emu, credentialId } = await H.freshService(env.harness, { datePrecisionMs: 1000 });
			const trigger = await env.harness.activate(H.triggerWorkflow({ credentialId, event }));
			expect(trigger.activation.error).toBeUndefined();
			const { open, onHold, approved } = emu.fixtures.invoices;
			emu.advanceTime(5);
			emu.setInvoiceStatus(open, 'Approved');
			expect(H.ids(await trigger.poll())).toEqual([open]);
			emu.advanceTime(30);
			emu.setInvoiceStatus(onHold, 'Rejected');
			expect(H.ids(await trigger.poll())).toEqual([onHold]);
			emu.advanceTime(70);
			const quiet = await trigger.poll(); // moves the cursor in memory only: n8n saves on emit
			expect(quiet.items).toEqual([]);
			emu.setInvoiceStatus(approved, nextStatus(emu, approved));
			const restarted = await trigger.restart();
			expect(restarted.error).toBeUndefined();
			expect(H.ids(restarted)).toEqual([approved]);
			emu.advanceTime(10);
			expect(H.ids(await trigger.poll())).toEqual([]);
			emu.advanceTime(3600);
			expect(H.ids(await trigger.poll())).toEqual([]);
		},
	);
});

describe('the November fall-back hour: plain US Eastern dates without twin', () => {
	test.each(['invoiceUpdated', 'invoiceCreated'])(
		'%s: changes on both sides of the repeated hour (01:25 EDT, 01:55 EDT, then 01:15 EST) are each emitted once; the read reaches back to 01:00 EDT while the wall clock is about to repeat',
		async (event) => {
			const at = Date.parse('2026-11-01T05:20:00Z'); // 01:20 EDT
			const { emu, credentialId } = await H.freshService(env.harness, {
				datePrecisionMs: 1000,
				clockSkewMs: at - Date.now(),
			});
			const from = H.mark(emu);
			const trigger = await env.harness.activate(H.triggerWorkflow({ credentialId, event }));
			expect(trigger.activation.error).toBeUndefined();
			const change = (n) =>
				event === 'invoiceCreated'
					? emu.createInvoice({ WorkOrderId: WO[n % WO.length] }).Id
					: emu.setInvoiceStatus(
							[emu.fixtures.invoices.open, emu.fixtures.invoices.onHold, 71020][n],
							['Approved', 'Rejected', 'Voided'][n],
						).Id;
			const emitted = [];

			emu.advanceTime(300); // 01:25 EDT
			const a = change(0);
			const first = await trigger.poll();
			expect(H.ids(first)).toEqual([a]);
			emitted.push(...H.ids(first));

			emu.advanceTime(1800); // 01:55 EDT
			const b = change(1);
			const second = await trigger.poll();
			expect(H.ids(second)).toEqual([b]);
			emitted.push(...H.ids(second));

			emu.advanceTime(1200); // 01:15 EST: the wall clock read 01:15 an hour ago already
			const c = change(2);
			const wall = (id) =>
				emu.invoice(id)[event === 'invoiceCreated' ? 'PostedDate' : 'UpdatedDate'];
			expect(wall(c).slice(11, 16)).toBe('01:15');
			expect(wall(b).slice(11, 16)).toBe('01:55');
			let again;
			if (event === 'invoiceUpdated') {
				emu.advanceTime(2);
				again = emu.setInvoiceApprovalCode(a, 'AC-EST').Id; // a's second change, at 01:15 EST
			}
			const third = await trigger.poll();
			expect(third.error).toBeUndefined();
			expect(H.ids(third)).toEqual(event === 'invoiceUpdated' ? [c, again] : [c]);
			emitted.push(...H.ids(third));

			// nothing is emitted twice, however often the trigger reads the repeated hour again
			for (const seconds of [10, 70, 1800, 3600]) {
				emu.advanceTime(seconds);
				const quiet = await trigger.poll();
				expect(quiet.error).toBeUndefined();
				expect(quiet.items).toEqual([]);
			}
			expect(emitted).toEqual(event === 'invoiceUpdated' ? [a, b, c, a] : [a, b, c]);

			// the literals: Eastern time with the offset of their instant; in the hour before the
			// change the cursor's read starts at 01:00 EDT (the wall clock is about to repeat)
			const field = event === 'invoiceCreated' ? 'PostedDate' : 'UpdatedDate';
			const windows = invoiceReads(emu, from)
				.map((r) => r.$filter.split(' and ').find((c) => c.startsWith(`${field} ge`)))
				.filter((c) => c && !c.startsWith('PostedDate ge 2025'));
			expect(windows).toContain(`${field} ge 2026-11-01T01:00:00.000-04:00`);
			expect(new Set(windows.map((w) => w.slice(-6)))).toEqual(new Set(['-04:00', '-05:00']));
		},
	);
});
