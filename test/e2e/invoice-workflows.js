#!/usr/bin/env node
'use strict';
/**
 * Issue 33's workflows in a real n8n, as the examples hold them:
 *   (a) examples/10-approve-invoices-within-nte.json: Work Order Service Trigger "invoice created" ->
 *       Invoice Get -> Work Order Get -> If total <= NTE -> Approve, else Put On Hold with the reason;
 *   (b) examples/11-pay-approved-invoices.json: Schedule Trigger -> Invoice Get Many (approved, with a
 *       balance) -> Record Payment, Many Invoices at Once (here every 10 seconds instead of every
 *       morning).
 * Both activated (2.x `publish:workflow`, 1.x `update:workflow --active=true`), `n8n start` with
 * WEBHOOK_URL on 127.0.0.1, the emulator in this process; what n8n recorded is read from its SQLite
 * database.
 *
 *   node test/e2e/invoice-workflows.js                    # npm pack, then n8n 2.41.1 and 1.123.81
 *   node test/e2e/invoice-workflows.js --version 2.41.1   # one version
 *   node test/e2e/invoice-workflows.js --tarball f.tgz    # a given tarball
 *
 * From run-e2e.js (per version): await require('./invoice-workflows').runInvoiceWorkflowsE2E({ version, tarball, check });
 */

const assert = require('node:assert/strict');
const path = require('node:path');

const n8n = require('./n8n');
const { startEmulator } = require('../emulator');
const { demoCredentials } = require('../../examples/demo-credentials');
const { startN8n, waitFor } = require('../trigger/e2e-trigger');
const { savedExample, finished, output } = require('./recorded');

const WF_NTE = 'wosDemoInvoiceNte';
const WF_PAY = 'wosDemoPayInvoices';

/** The examples as this run activates them: every execution saved; the schedule every 10 s. */
function workflows() {
	const nte = savedExample('10-approve-invoices-within-nte.json');
	const pay = savedExample('11-pay-approved-invoices.json');
	pay.nodes[0].parameters = { rule: { interval: [{ field: 'seconds', secondsInterval: 10 }] } };
	return [nte, pay];
}

/** Install, credentials, both examples activated, `n8n start`: the trigger's webhook registered. */
async function activate(ctx) {
	const { instance, emu, version } = ctx;
	await n8n.installCommunityPackage(instance, ctx.tarball);
	await n8n.importCredentials(
		instance,
		demoCredentials(emu).filter((c) => c.id === 'wosAdminDemo'),
	);
	const [nte, pay] = workflows();
	await n8n.importWorkflows(instance, [nte, pay]);
	const major = Number(version.split('.')[0]);
	for (const id of [WF_NTE, WF_PAY]) {
		const args =
			major >= 2
				? ['publish:workflow', `--id=${id}`]
				: ['update:workflow', `--id=${id}`, '--active=true'];
		const res = await n8n.runN8n(instance, args);
		assert.equal(res.code, 0, `n8n ${args.join(' ')} failed:\n${res.stdout}\n${res.stderr}`);
	}
	ctx.server = await startN8n(instance, ctx.logFile);
	await waitFor('the webhook at the service', () => emu.webhooks.hooks.size >= 1, 120_000);
	const hooks = [...emu.webhooks.hooks.values()];
	assert.deepEqual(
		hooks.map((h) => h.Url),
		[`${instance.env.WEBHOOK_URL}webhook/${nte.nodes[0].webhookId}/webhook`],
	);
	assert.deepEqual(
		hooks[0].Subscriptions.map((s) => s.EventTypes),
		[['InvoiceCreated']],
	);
}

/** (a) two invoices posted: the one within its work order's NTE approved, the other put on hold with the reason. */
async function approvesWithinNte({ instance, emu, log }) {
	const mark = emu.requests.length;
	await waitFor(
		'the signing key read',
		() => emu.requests.some((r) => r.path === '/api/v3/NotificationSubscriptions/SigningKey'),
		60_000,
	);
	const within = emu.createInvoice({ WorkOrderId: 90000003 });
	const above = emu.createInvoice({ WorkOrderId: 90000001, OverNte: true });
	const list = await finished(instance, WF_NTE, 2);
	assert.ok(
		list.every((e) => e.status === 'success' && e.mode === 'webhook'),
		JSON.stringify(list.map((e) => [e.status, e.error])),
	);
	assert.equal(emu.invoice(within.Id).Status, 'Approved');
	assert.equal(emu.invoice(above.Id).Status, 'On Hold');
	const puts = emu.requests.slice(mark).filter((r) => r.method === 'PUT');
	assert.deepEqual(
		puts.map((r) => `${r.path} ${r.status}`).sort(),
		[`/api/v3/invoices/${within.Id}/approve 204`, `/api/v3/invoices/${above.Id}/onhold 204`].sort(),
	);
	const hold = puts.find((r) => r.path.endsWith('/onhold'));
	assert.match(hold.query.comments, /is above the NTE 750 of work order 90000001/);
	const approve = puts.find((r) => r.path.endsWith('/approve'));
	assert.deepEqual(Object.keys(approve.query).sort(), ['approvalCode', 'category', 'comments']);
	assert.match(approve.headers.authorization, /^Bearer \S+$/);
	const approved = list.flatMap((e) => output(e, 'Approve').map((i) => i.json));
	assert.deepEqual(approved, [{ success: true, operation: 'approve', invoiceId: within.Id }]);
	log(
		`     approved ${within.Id} (${within.InvoiceTotal}), put ${above.Id} (${above.InvoiceTotal}) on hold`,
	);
	return within.Id;
}

/** (b) a schedule execution after (a): the approved invoices with a balance paid in one bulk request, each once. */
async function paysApproved({ instance, emu, log }, approvedId) {
	const before = (await n8n.recordedExecutions(instance, WF_PAY)).length;
	const runs = await finished(instance, WF_PAY, before + 2, 120_000);
	const execution = runs.at(-1);
	assert.ok(
		runs.every((e) => e.status === 'success'),
		JSON.stringify(runs.map((e) => e.error)),
	);
	const all = runs.flatMap((e) =>
		output(e, 'Record their payments in one batch').map((i) => i.json),
	);
	assert.ok(all.length > 0, 'payments recorded');
	assert.ok(
		all.every((p) => p.success === true && ['recorded', 'alreadyRecorded'].includes(p.result)),
	);
	assert.ok(
		all.some((p) => p.invoiceId === approvedId && p.result === 'recorded'),
		`the invoice (a) approved is paid: ${JSON.stringify(all.filter((p) => p.invoiceId === approvedId))}`,
	);
	assert.equal(emu.invoice(approvedId).Status, 'Paid');
	// each invoice's payment once, however many executions ran
	for (const p of all)
		assert.equal(
			emu.invoice(p.invoiceId).Payments.filter((x) => x.PaymentNumber === p.paymentNumber).length,
			1,
			`payment ${p.paymentNumber} once`,
		);
	const bulk = emu.requests.filter(
		(r) => r.method === 'POST' && r.path === '/api/v3/invoices/Payments',
	);
	assert.ok(bulk.length >= 1);
	assert.ok(bulk.every((r) => r.status === 201 && r.body.Payments.length <= 100));
	assert.deepEqual(
		emu.requests.filter((r) => r.method === 'POST' && /\/Payment$/.test(r.path)),
		[],
		'no payment sent one by one',
	);
	log(
		`     ${all.filter((p) => p.result === 'recorded').length} payments recorded in ${bulk.length} bulk request(s); last execution ${execution.id}`,
	);
}

/** One n8n version; `check(name, fn)` runs one check (run-e2e.js passes its own). */
async function runInvoiceWorkflowsE2E({
	version,
	tarball,
	check,
	log = (line) => console.log(line),
}) {
	const runtime = await n8n.ensureRuntime({ version });
	const instance = await n8n.createInstance({
		runtime,
		encryptionKey: 'wos-invoice-e2e-key-0123456789abcdef',
	});
	instance.env.WEBHOOK_URL = `http://127.0.0.1:${instance.env.N8N_PORT}/`;
	const emu = await startEmulator({ port: 0, accessTokenTtl: 86_400 });
	emu.setWebhookOptions({ retryDelayMs: 3000 });
	const prefix = `invoice workflows (n8n ${version}):`;
	const logFile = path.join(instance.dir, 'n8n-start.log');
	const ctx = { version, tarball, instance, emu, logFile, log, server: undefined };
	try {
		const ready = await check(
			`${prefix} install, credentials, examples 10 and 11 activated, n8n start: one webhook (InvoiceCreated) at n8n's production URL`,
			() => activate(ctx),
		);
		if (!ready) return;
		let approvedId;
		await check(
			`${prefix} (a) two invoices posted: the one within its work order's NTE approved, the other put on hold with the reason`,
			async () => {
				approvedId = await approvesWithinNte(ctx);
			},
		);
		await check(
			`${prefix} (b) the schedule: approved invoices with a balance paid in bulk requests, each payment once`,
			() => paysApproved(ctx, approvedId),
		);
	} finally {
		if (ctx.server) await ctx.server.stop();
		await emu.close();
		if (process.env.N8N_E2E_KEEP === '1') log(`     kept ${instance.dir}`);
		await n8n.destroyInstance(instance);
	}
}

async function main() {
	await n8n.runStandalone({
		label: 'invoice workflows',
		packPrefix: 'wos-invoice-pack-',
		run: runInvoiceWorkflowsE2E,
	});
}

if (require.main === module) {
	main().catch((err) => {
		console.error(err);
		process.exitCode = 1;
	});
}

module.exports = { runInvoiceWorkflowsE2E };
