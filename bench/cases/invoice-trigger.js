#!/usr/bin/env node
'use strict';
/**
 * The polling trigger on a tenant of 20,000 invoices (issue 33): each invoice change emitted once.
 * Standalone (not one of bench/run.js's cases):
 *
 *   npm run build && node bench/cases/invoice-trigger.js [--rounds=5] [--events=invoiceUpdated,invoiceStatusChanged,invoiceCreated] [--json]
 *
 * For each event, a fresh emulator with 20,000 invoices of the main subscriber (posted over the
 * last 300 days, dated to the second) and the trigger activated through n8n-core's poll path
 * (test/harness); then `--rounds` rounds of 165 changes (40 random invoices, 120 in one second, 5
 * made while the trigger pages its read), each followed by a poll, and 3 quiet polls. Prints the
 * changes made against the items emitted (twice, missed, unexpected), the requests and times of
 * the activation and of each poll, and the largest static data. The scenario is
 * test/trigger/invoiceScale.js, which test/trigger/invoiceScale.test.js asserts on.
 */
const path = require('node:path');
const { startEmulator } = require('../../test/emulator');
const { createHarness } = require('../../test/harness');
const { passwordCredential, CREDENTIAL_TYPES } = require('../../test/support');
const { runInvoiceScale, seedInvoices } = require('../../test/trigger/invoiceScale');

const ROOT = path.resolve(__dirname, '..', '..');

function arg(name, fallback) {
	const hit = process.argv.slice(2).find((a) => a.startsWith(`--${name}`));
	if (!hit) return fallback;
	return hit.includes('=') ? hit.slice(hit.indexOf('=') + 1) : true;
}

async function one(harness, event, rounds) {
	const emu = await startEmulator({
		accessTokenTtl: 86_400,
		jwtTtl: 86_400,
		datePrecisionMs: 1000,
		logBodies: false,
	});
	try {
		const seeded = Date.now();
		seedInvoices(emu);
		const seedMs = Date.now() - seeded;
		const credentialId = `bench-invoices-${event}`;
		harness.credentials.set(credentialId, {
			name: 'Emulator password',
			type: CREDENTIAL_TYPES.password,
			data: passwordCredential(emu),
		});
		const started = Date.now();
		const heapBefore = process.memoryUsage().heapUsed;
		const r = await runInvoiceScale({ harness, emu, credentialId, event, rounds });
		const changePolls = r.polls.filter((p) => p.round !== 'quiet');
		return {
			event,
			invoices: r.invoices,
			seedMs,
			activation: {
				requests: r.activation.requests,
				ms: r.activation.ms,
				serviceMs: r.activation.serviceMs,
			},
			settling: r.settling,
			changesMade: r.changed.length,
			itemsEmitted: r.emitted.length,
			emittedTwice: r.duplicates.length,
			missed: r.missed.length,
			unexpected: r.unexpected.length,
			statusChangedAndBackEmitted: r.emitted.filter((id) => r.backAndForth.includes(id)).length,
			pollRequests: changePolls.map((p) => p.requests),
			pollMs: changePolls.map((p) => p.ms),
			quietPollRequests: r.polls.filter((p) => p.round === 'quiet').map((p) => p.requests),
			requestsAfterActivation:
				r.settling.requests + r.polls.reduce((sum, p) => sum + p.requests, 0),
			maxStaticDataKB: Math.round(r.maxBytes / 102.4) / 10,
			heapGrowthMB: Math.round((process.memoryUsage().heapUsed - heapBefore) / 104857.6) / 10,
			totalMs: Date.now() - started,
		};
	} finally {
		await emu.close();
	}
}

async function main() {
	const rounds = Number(arg('rounds', 5));
	const events = String(arg('events', 'invoiceUpdated,invoiceStatusChanged,invoiceCreated')).split(
		',',
	);
	const harness = await createHarness({ packageDir: ROOT });
	const results = [];
	try {
		for (const event of events) results.push(await one(harness, event, rounds));
	} finally {
		await harness.close();
	}
	if (arg('json', false)) {
		console.log(JSON.stringify(results, null, 2));
		return;
	}
	console.log('Polling trigger on 20,000 invoices: each change emitted once');
	for (const r of results) {
		console.log(
			[
				`\n${r.event} (${r.invoices} invoices)`,
				`  activation: ${r.activation.requests} requests (login included), ${r.activation.ms} ms in n8n-core, ${r.activation.serviceMs} ms at the service`,
				r.settling.polls
					? `  statuses as of activation: ${r.settling.statuses} read in ${r.settling.polls} poll(s), ${r.settling.requests} requests`
					: undefined,
				`  changes made: ${r.changesMade}; items emitted: ${r.itemsEmitted} (twice: ${r.emittedTwice}, missed: ${r.missed}, unexpected: ${r.unexpected}${r.event === 'invoiceStatusChanged' ? `, changed and back: ${r.statusChangedAndBackEmitted}` : ''})`,
				`  polls after changes: requests ${r.pollRequests.join(', ')}; ms ${r.pollMs.join(', ')}; quiet polls: requests ${r.quietPollRequests.join(', ')}`,
				`  requests after activation: ${r.requestsAfterActivation}; static data at most ${r.maxStaticDataKB} KB; heap growth of the process (emulator included) ${r.heapGrowthMB} MB; ${r.totalMs} ms in all`,
			]
				.filter(Boolean)
				.join('\n'),
		);
	}
	const failed = results.some((r) => r.emittedTwice || r.missed || r.unexpected);
	process.exitCode = failed ? 1 : 0;
}

main().catch((error) => {
	console.error(error);
	process.exitCode = 1;
});
