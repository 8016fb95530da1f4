'use strict';
/**
 * The polling trigger on a tenant of 20,000 invoices (issue 33): the activation returns well within
 * n8n's publication deadline whatever the tenant size, and each change is emitted once (bursts of
 * changes in one second, changes made while the trigger pages, invoices posted long ago), with
 * requests per poll and static data bounded. The scenario is test/trigger/invoiceScale.js (the
 * benchmark bench/cases/invoice-trigger.js prints the same figures).
 */
const H = require('./helpers');
const { runInvoiceScale, seedInvoices, summary } = require('./invoiceScale');

const env = H.useHarness();
const SANDBOX_RATE = { limit: 40, windowMs: 60_000 };
const figures = [];
afterAll(() => {
	if (figures.length) console.log(`invoice trigger at scale:\n  ${figures.join('\n  ')}`);
});

async function tenant(options = {}) {
	const service = await H.freshService(env.harness, { datePrecisionMs: 1000, ...options });
	seedInvoices(service.emu);
	return service;
}

describe('activation on 20,000 invoices at the sandbox rate (40 requests per minute)', () => {
	test.each(['invoiceCreated', 'invoiceUpdated', 'invoiceStatusChanged'])(
		'%s: at most 10 requests, within 20 s (n8n gives a publication about 84 s); nothing emitted',
		async (event) => {
			const { emu, credentialId } = await tenant();
			emu.setFaults({ rateLimit: SANDBOX_RATE });
			const from = H.mark(emu);
			const started = Date.now();
			const trigger = await env.harness.activate(H.triggerWorkflow({ credentialId, event }));
			const tookMs = Date.now() - started;
			expect(trigger.activation.error).toBeUndefined();
			expect(trigger.activation.items).toEqual([]);
			const requests = emu.requests.filter((r) => r.seq > from);
			expect(requests.length).toBeLessThanOrEqual(10);
			expect(requests.filter((r) => r.status !== 200)).toEqual([]);
			expect(tookMs).toBeLessThan(20_000);
			const state = H.stateOf(trigger.activation);
			if (event === 'invoiceStatusChanged') {
				// the statuses as of T0: what the activation allowed, highest Ids first; the rest later
				expect(state.baseline).toBeDefined();
				expect(state.statuses.ids.split(',').length).toBeGreaterThanOrEqual(250);
			}
			figures.push(
				`activation, ${event}: ${requests.length} requests (login included), ${tookMs} ms in n8n-core`,
			);
		},
		60_000,
	);
});

describe('each change once on 20,000 invoices', () => {
	test.each(['invoiceUpdated', 'invoiceStatusChanged', 'invoiceCreated'])(
		'%s: 5 rounds of 165 changes (40 random, 120 in one second, 5 while the trigger pages): each emitted once; requests per poll and static data bounded',
		async (event) => {
			const { emu, credentialId } = await tenant();
			const r = await runInvoiceScale({ harness: env.harness, emu, credentialId, event });
			expect(r.activation.error).toBeUndefined();
			expect(r.activation.requests).toBeLessThanOrEqual(10);
			expect(r.changed).toHaveLength(5 * 165);
			expect(r.duplicates).toEqual([]);
			expect(r.missed).toEqual([]);
			expect(r.unexpected).toEqual([]);
			expect(r.emitted).toHaveLength(r.changed.length);
			if (event === 'invoiceStatusChanged') {
				// settled: every invoice's status as of T0 read (400 pages), in the polls after activation
				expect(r.settling.statuses).toBe(r.invoices);
				expect(r.settling.polls).toBeLessThanOrEqual(3);
				for (const id of r.changed) expect(r.previous.get(id)).toBe(r.expectedPrevious.get(id));
				expect(r.emitted.filter((id) => r.backAndForth.includes(id))).toEqual([]);
				// about 3 bytes per invoice remembered
				expect(r.maxBytes).toBeLessThan(256 * 1024);
			} else {
				// only the lookback window's keys are kept
				expect(r.maxBytes).toBeLessThan(64 * 1024);
			}
			// a poll reads the changes since the last one and those of the lookback window (this round's
			// 165 and the last round's, 30 s ago: about 7 pages of 50 with the one-record overlap), never
			// the tenant (400 pages)
			expect(r.maxPollRequests).toBeLessThanOrEqual(12);
			figures.push(summary(r));
		},
		240_000,
	);
});
