#!/usr/bin/env node
'use strict';
/**
 * Invoice payments in bulk (issue 33), through n8n-core's real execution against the emulator with
 * its rate limit on (the sandbox's pace by default: 40 requests a minute per application):
 *
 *   1. 1,000 payments of approved invoices in one execution (Record Payment, Many Invoices at Once):
 *      the POST /invoices/Payments requests (100 payments each), the reads that find payments already
 *      recorded (50 invoices each), the time; and the same with Skip Payments Already Recorded off;
 *   2. a half-refused batch: 1,000 payments of which 500 are for invoices that are not approved:
 *      every item says recorded or refused; then those 500 are approved and the same items run again:
 *      500 recorded, 500 already recorded, no invoice with a payment twice.
 *
 *   npm run build && node bench/invoice-payments.js [--rate=40] [--count=1000]
 */
const { startEmulator } = require('../test/emulator');
const { createHarness } = require('../test/harness');
const S = require('../test/support');

const arg = (name, dflt) => {
	const hit = process.argv.find((a) => a.startsWith(`--${name}=`));
	return hit ? Number(hit.split('=')[1]) : dflt;
};
const RATE = arg('rate', 40);
const COUNT = arg('count', 1000);

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

async function run(harness, emulator, label, input, extra) {
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
	const posts = api.filter((q) => q.method === 'POST' && q.path === '/api/v3/invoices/Payments');
	const counts = {};
	for (const o of r.output) counts[o.json.result] = (counts[o.json.result] || 0) + 1;
	const figure = {
		label,
		items: input.length,
		outputItems: r.output.length,
		paymentRequests: posts.length,
		paymentsPerRequest: posts.map((q) => q.body.Payments.length),
		readRequests: api.filter((q) => q.method === 'GET').length,
		requests: api.length,
		throttled: api.filter((q) => q.throttled).length,
		seconds: Math.round(ms / 100) / 10,
		results: counts,
	};
	console.log(
		`${label}: ${figure.items} items -> ${figure.outputItems} output items ${JSON.stringify(counts)}; ` +
			`${figure.paymentRequests} payment requests (${figure.paymentsPerRequest.join(', ')} payments), ` +
			`${figure.readRequests} reads, ${figure.requests} requests in all, ${figure.throttled} throttled (429), ${figure.seconds} s`,
	);
	return figure;
}

async function main() {
	const emulator = await startEmulator({ accessTokenTtl: 86_400 });
	emulator.setFaults({ rateLimit: { limit: RATE, windowMs: 60_000, retryAfter: 'seconds' } });
	const harness = await createHarness({ packageDir: S.ROOT });
	harness.credentials.set('cred-1', {
		name: 'Emulator password',
		type: 'workOrderServiceApi',
		data: S.passwordCredential(emulator, 'subscriber'),
	});
	console.log(`emulator rate limit: ${RATE} requests a minute per application; ${COUNT} payments`);
	try {
		// 1. 1,000 payments
		const approved = emulator.createInvoices(COUNT, { status: 'Approved' }).map((i) => i.Id);
		const input = approved.map((invoiceId, k) => ({ invoiceId, number: `BENCH-${k}`, amount: 1 }));
		const one = await run(harness, emulator, '1,000 payments (check on)', input);
		const approved2 = emulator.createInvoices(COUNT, { status: 'Approved' }).map((i) => i.Id);
		const input2 = approved2.map((invoiceId, k) => ({
			invoiceId,
			number: `BENCH2-${k}`,
			amount: 1,
		}));
		const off = await run(harness, emulator, '1,000 payments (check off)', input2, {
			options: { skipRecorded: false },
		});

		// 2. half refused, then the re-run
		const mixed = emulator
			.createInvoices(COUNT, { status: 'Approved' })
			.map((inv, k) => (k % 2 === 1 ? emulator.setInvoiceStatus(inv.Id, 'Open') : inv).Id);
		const input3 = mixed.map((invoiceId, k) => ({ invoiceId, number: `HALF-${k}`, amount: 1 }));
		const half = await run(harness, emulator, 'half-refused batch', input3);
		for (let k = 1; k < mixed.length; k += 2) emulator.setInvoiceStatus(mixed[k], 'Approved');
		const rerun = await run(harness, emulator, 'its re-run', input3);
		const doubles = mixed.filter((id) => emulator.invoice(id).Payments.length > 1).length;
		const recordedOnce = mixed.filter((id) => emulator.invoice(id).Payments.length === 1).length;
		console.log(
			`after the re-run: ${recordedOnce} of ${mixed.length} invoices have their payment once, ${doubles} twice`,
		);
		const met =
			one.paymentRequests <= 10 &&
			off.requests <= 10 &&
			half.outputItems === COUNT &&
			doubles === 0 &&
			recordedOnce === COUNT;
		console.log(
			JSON.stringify({ rate: RATE, one, off, half, rerun, doubles, recordedOnce, met }, null, 1),
		);
		if (!met) process.exitCode = 1;
	} finally {
		await harness.close();
		await emulator.close();
	}
}

main().catch((e) => {
	console.error(e);
	process.exit(1);
});
