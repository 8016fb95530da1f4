#!/usr/bin/env node
'use strict';
/**
 * Case 10 of bench/run.js: invoice payments in bulk (issue 33), through n8n-core's real execution
 * against the emulator with its rate limit on (the sandbox's pace by default: 40 requests a minute
 * per application):
 *
 *   1. 1,000 payments of approved invoices in one execution (Record Payment, Many Invoices at Once):
 *      the POST /invoices/Payments requests (100 payments each), the reads that find payments already
 *      recorded (50 invoices each), the time; and the same with Skip Payments Already Recorded off;
 *   2. a half-refused batch: 1,000 payments of which 500 are for invoices that are not approved:
 *      every item says recorded or refused; then those 500 are approved and the same items run again:
 *      500 recorded, 500 already recorded, no invoice with a payment twice.
 *
 * The four runs share one emulator and its sliding window, one after the other: a run waits (429 +
 * Retry-After) for the requests of the runs before it to leave the window. `--quick` runs the same
 * workload (the figures are defined for 1,000 payments at 40 a minute; about 2 minutes).
 *
 * In the bench: `node --expose-gc bench/run.js --only=10`. Standalone (prints the figures):
 *
 *   npm run build && node bench/cases/invoice-payments.js [--rate=40] [--count=1000]
 *
 * (bench/invoice-payments.js runs this file.)
 */
const { startEmulator } = require('../../test/emulator');
const { createHarness } = require('../../test/harness');
const S = require('../../test/support');

const PAYMENTS_PATH = '/api/v3/invoices/Payments';
/** Targets: payment requests for 1,000 payments (100 each). */
const MAX_PAYMENT_REQUESTS = 10;

function parameters(extra = {}) {
	return {
		resource: 'invoice',
		operation: 'recordPayment',
		paymentFor: 'batch',
		invoiceId: '={{ $json.invoiceId }}',
		paymentNumber: '={{ $json.number }}',
		paymentAmount: '={{ $json.amount }}',
		paymentDate: '2026-03-02T10:00:00-05:00',
		...extra,
	};
}

/** One execution of Record Payment (Many Invoices at Once) over `input`; its figures. */
async function execute(harness, emulator, label, input, extra, log) {
	emulator.clearRequests();
	const started = Date.now();
	const r = await S.runNode(harness, {
		credentialId: 'cred-1',
		parameters: parameters(extra),
		items: input.map((json) => ({ json })),
		timeoutMs: 600_000,
	});
	const ms = Date.now() - started;
	if (r.result.status !== 'success')
		throw new Error(`${label}: ${r.result.status} ${r.error?.message}`);
	const api = S.apiRequests(emulator);
	const posts = api.filter((q) => q.method === 'POST' && q.path === PAYMENTS_PATH);
	const counts = {};
	for (const o of r.output) counts[o.json.result] = (counts[o.json.result] || 0) + 1;
	const figure = {
		label,
		items: input.length,
		outputItems: r.output.length,
		/** output items that say what became of their payment (recorded, refused, already recorded...) */
		reported: r.output.filter((o) => typeof o.json.result === 'string' && o.json.result).length,
		paymentRequests: posts.length,
		paymentsPerRequest: posts.map((q) => q.body?.Payments?.length ?? null),
		readRequests: api.filter((q) => q.method === 'GET').length,
		requests: api.length,
		throttled: api.filter((q) => q.throttled).length,
		seconds: Math.round(ms / 100) / 10,
		results: counts,
	};
	log(
		`${label}: ${figure.items} items -> ${figure.outputItems} output items ${JSON.stringify(counts)}; ` +
			`${figure.paymentRequests} payment requests (${figure.paymentsPerRequest.join(', ')} payments), ` +
			`${figure.readRequests} reads, ${figure.requests} requests in all, ${figure.throttled} throttled (429), ${figure.seconds} s`,
	);
	return figure;
}

/**
 * Runs the scenario on its own emulator (rate limit `rate` a minute) and harness.
 * @param {{ quick?: boolean, rate?: number, count?: number, log?: (line: string) => void }} [options]
 */
async function run({ quick = false, rate = 40, count = 1000, log = console.log } = {}) {
	const emulator = await startEmulator({ accessTokenTtl: 86_400 });
	emulator.setFaults({ rateLimit: { limit: rate, windowMs: 60_000, retryAfter: 'seconds' } });
	const harness = await createHarness({ packageDir: S.ROOT });
	harness.credentials.set('cred-1', {
		name: 'Emulator password',
		type: 'workOrderServiceApi',
		data: S.passwordCredential(emulator, 'subscriber'),
	});
	log(`emulator rate limit: ${rate} requests a minute per application; ${count} payments`);
	/** invoices of `ids` with exactly one payment / more than one */
	const paidOnce = (ids) => ids.filter((id) => emulator.invoice(id).Payments.length === 1).length;
	const paidTwice = (ids) => ids.filter((id) => emulator.invoice(id).Payments.length > 1).length;
	try {
		// 1. 1,000 payments, with the check for payments already recorded and without
		const approved = emulator.createInvoices(count, { status: 'Approved' }).map((i) => i.Id);
		const input = approved.map((invoiceId, k) => ({ invoiceId, number: `BENCH-${k}`, amount: 1 }));
		const one = await execute(harness, emulator, `${count} payments (check on)`, input, {}, log);
		one.paidOnce = paidOnce(approved);
		const approved2 = emulator.createInvoices(count, { status: 'Approved' }).map((i) => i.Id);
		const input2 = approved2.map((invoiceId, k) => ({
			invoiceId,
			number: `BENCH2-${k}`,
			amount: 1,
		}));
		const off = await execute(
			harness,
			emulator,
			`${count} payments (check off)`,
			input2,
			{ options: { skipRecorded: false } },
			log,
		);
		off.paidOnce = paidOnce(approved2);

		// 2. half refused, then the re-run
		const mixed = emulator
			.createInvoices(count, { status: 'Approved' })
			.map((inv, k) => (k % 2 === 1 ? emulator.setInvoiceStatus(inv.Id, 'Open') : inv).Id);
		const input3 = mixed.map((invoiceId, k) => ({ invoiceId, number: `HALF-${k}`, amount: 1 }));
		const half = await execute(harness, emulator, 'half-refused batch', input3, {}, log);
		for (let k = 1; k < mixed.length; k += 2) emulator.setInvoiceStatus(mixed[k], 'Approved');
		const rerun = await execute(harness, emulator, 'its re-run', input3, {}, log);
		const doubles = paidTwice(mixed);
		const recordedOnce = paidOnce(mixed);
		log(
			`after the re-run: ${recordedOnce} of ${mixed.length} invoices have their payment once, ${doubles} twice`,
		);

		const runs = [one, off, half, rerun];
		const met = {
			paymentRequests:
				one.paymentRequests <= MAX_PAYMENT_REQUESTS && off.paymentRequests <= MAX_PAYMENT_REQUESTS,
			everyItemOutput: runs.every((x) => x.outputItems === x.items && x.reported === x.items),
			noDoubles: doubles === 0 && paidTwice(approved) === 0 && paidTwice(approved2) === 0,
		};
		return {
			quick,
			rate,
			count,
			one,
			off,
			half,
			rerun,
			doubles,
			recordedOnce,
			targets: {
				paymentRequests: `<= ${MAX_PAYMENT_REQUESTS} for ${count} payments`,
				everyItemOutput: 'one output item per input item',
				noDoubles: '0 invoices with a payment twice after the re-run',
			},
			met: {
				...met,
				all: met.paymentRequests && met.everyItemOutput && met.noDoubles && recordedOnce === count,
			},
			// items not reported, or payments not recorded once, fail the bench (bench/run.js failures)
			deliveries: [
				...runs.map((x) => ({
					label: `${x.label}: items reported`,
					delivered: x.reported,
					sent: x.items,
				})),
				{ label: `${one.label}: invoices paid once`, delivered: one.paidOnce, sent: count },
				{ label: `${off.label}: invoices paid once`, delivered: off.paidOnce, sent: count },
				{
					label: 'half-refused batch and its re-run: invoices paid once',
					delivered: recordedOnce,
					sent: count,
				},
			],
			method: `the emulator's sliding rate limit of ${rate} requests a minute per application (429 + Retry-After in seconds), no added latency; n8n-core WorkflowExecute via test/harness (Manual Trigger -> Items -> node: Invoice > Record Payment, Many Invoices at Once, password credential of the subscriber); ${count} approved invoices per run, one payment each; requests counted from the emulator's log (token requests excluded), seconds = the execution's wall time. The four runs share one emulator and its window one after the other, so a later run waits for the requests of the runs before it to leave the window (its seconds include that wait). Half-refused: every second invoice set back to Open before the run, approved before the re-run of the same items; "paid once" = invoices with exactly one payment at the emulator`,
		};
	} finally {
		await harness.close();
		await emulator.close();
	}
}

async function main() {
	const arg = (name, dflt) => {
		const hit = process.argv.find((a) => a.startsWith(`--${name}=`));
		return hit ? Number(hit.split('=')[1]) : dflt;
	};
	const r = await run({ rate: arg('rate', 40), count: arg('count', 1000) });
	const { method, ...figures } = r;
	console.log(JSON.stringify(figures, null, 1));
	if (!r.met.all) process.exitCode = 1;
}

if (require.main === module)
	main().catch((e) => {
		console.error(e);
		process.exit(1);
	});

module.exports = { run, main };
