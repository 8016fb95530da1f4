#!/usr/bin/env node
'use strict';
/**
 * Issue 27's workflows (1) and (3) in a real n8n, as the examples hold them:
 *   (1) examples/07-approve-small-proposals.json: Work Order Service Trigger "proposal created" ->
 *       Proposal Get -> If amount < 500 -> Approve;
 *   (3) examples/09-download-proposal-files.json: Schedule Trigger -> Proposal Get Many (open,
 *       Return All) -> Get Attachments -> Download (here every 10 seconds instead of every morning).
 * Both activated (2.x `publish:workflow`, 1.x `update:workflow --active=true`), `n8n start` with
 * WEBHOOK_URL on 127.0.0.1, the emulator in this process; what n8n recorded is read from its
 * SQLite database, binary data from where n8n stored it.
 *
 *   node test/e2e/proposal-workflows.js                    # npm pack, then n8n 2.41.1 and 1.123.81
 *   node test/e2e/proposal-workflows.js --version 2.41.1   # one version
 *   node test/e2e/proposal-workflows.js --tarball f.tgz    # a given tarball
 *
 * From run-e2e.js (per version): await require('./proposal-workflows').runProposalWorkflowsE2E({ version, tarball, check });
 *
 * Checks: install, credentials and both workflows, activation, one webhook at n8n's production URL;
 * two proposals created (350 and 1800): one execution each, the small one approved (PUT approve with
 * the reason, Bearer), the large one untouched; the schedule's execution downloaded every file of
 * every open proposal, byte-exact, named and typed (a 3 MB one among them), the API-origin files with
 * the token, the storage-origin file without any Authorization header.
 */

const assert = require('node:assert/strict');
const crypto = require('node:crypto');
const fs = require('node:fs');
const path = require('node:path');

const n8n = require('./n8n');
const { startEmulator } = require('../emulator');
const files = require('../emulator/api-files');
const { demoCredentials } = require('../../examples/demo-credentials');
const { startN8n, waitFor } = require('../trigger/e2e-trigger');
const { savedExample, finished, output } = require('./recorded');

const WF_APPROVE = 'wosDemoSmallProposals';
const WF_FILES = 'wosDemoProposalFiles';
const sha = (data) => crypto.createHash('sha256').update(data).digest('hex');

/** The examples as this run activates them: every execution saved; the schedule every 10 s. */
function workflows() {
	const approve = savedExample('07-approve-small-proposals.json');
	const download = savedExample('09-download-proposal-files.json');
	download.nodes[0].parameters = {
		rule: { interval: [{ field: 'seconds', secondsInterval: 10 }] },
	};
	return [approve, download];
}

/** The bytes of a binary value as n8n stored it: in the item (base64) or in its binary data folder. */
function storedBytes(instance, binary) {
	if (!binary.id) return Buffer.from(binary.data, 'base64');
	const name = binary.id.split('/').pop();
	const found = [];
	const walk = (dir) => {
		for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
			const full = path.join(dir, entry.name);
			if (entry.isDirectory()) walk(full);
			else if (entry.name === name) found.push(full);
		}
	};
	walk(path.join(instance.userFolder, '.n8n'));
	assert.equal(found.length, 1, `binary data file ${binary.id}: found ${found.length}`);
	return fs.readFileSync(found[0]);
}

/** Install, credentials, both examples activated, `n8n start`: the trigger's webhook registered. */
async function activate(ctx) {
	const { instance, emu, version } = ctx;
	await n8n.installCommunityPackage(instance, ctx.tarball);
	await n8n.importCredentials(
		instance,
		demoCredentials(emu).filter((c) => ['wosAdminDemo', 'wosPasswordDemo'].includes(c.id)),
	);
	const [approve, download] = workflows();
	await n8n.importWorkflows(instance, [approve, download]);
	const major = Number(version.split('.')[0]);
	for (const id of [WF_APPROVE, WF_FILES]) {
		const args =
			major >= 2
				? ['publish:workflow', `--id=${id}`]
				: ['update:workflow', `--id=${id}`, '--active=true'];
		const res = await n8n.runN8n(instance, args);
		assert.equal(res.code, 0, `n8n ${args.join(' ')} failed:\n${res.stdout}\n${res.stderr}`);
	}
	ctx.server = await startN8n(instance, ctx.logFile);
	await waitFor('the webhook at the service', () => emu.webhooks.hooks.size >= 1, 120_000);
	const webhookId = approve.nodes[0].webhookId;
	assert.deepEqual(
		[...emu.webhooks.hooks.values()].map((h) => h.Url),
		[`${instance.env.WEBHOOK_URL}webhook/${webhookId}/webhook`],
	);
	assert.deepEqual(
		[...emu.webhooks.hooks.values()][0].Subscriptions.map((s) => s.EventTypes),
		[['ProposalCreated']],
	);
}

/** Workflow (1): two proposals created; the small one approved, the large one left open. */
async function approvesSmallProposals({ instance, emu, log }) {
	const mark = emu.requests.length;
	await waitFor(
		'the signing key read',
		() => emu.requests.some((r) => r.path === '/api/v3/NotificationSubscriptions/SigningKey'),
		60_000,
	);
	const small = emu.createProposal({
		WorkOrderId: 90000003,
		Amount: 350,
		Description: 'Replace the faucet cartridge',
	});
	const large = emu.createProposal({
		WorkOrderId: 90000001,
		Amount: 1800,
		Description: 'Replace the rooftop unit fan motor',
	});
	const list = await finished(instance, WF_APPROVE, 2);
	assert.equal(list.length, 2);
	assert.ok(
		list.every((e) => e.status === 'success' && e.mode === 'webhook'),
		JSON.stringify(list.map((e) => [e.status, e.error])),
	);
	const read = list.map((e) => output(e, 'Get the proposal')[0].json);
	assert.deepEqual(read.map((p) => p.Id).sort(), [small.Id, large.Id].sort());
	assert.deepEqual(
		read.map((p) => Object.keys(p).includes('Attachments')),
		[false, false],
		'Simplify is on',
	);
	const approved = list.flatMap((e) => output(e, 'Approve').map((i) => i.json));
	assert.deepEqual(approved, [
		{ success: true, operation: 'approve', proposalId: small.Id, status: 'approved' },
	]);
	assert.equal(emu.state.proposals[small.Id].Status, 'Approved');
	assert.equal(emu.state.proposals[large.Id].Status, 'Open');
	const puts = emu.requests.slice(mark).filter((r) => r.method === 'PUT');
	assert.deepEqual(
		puts.map((r) => `${r.path} ${r.status}`),
		[`/api/v3/proposals/${small.Id}/approve 204`],
	);
	assert.equal(puts[0].body.ReasonString, 'Under 500: approved automatically');
	assert.equal(puts[0].body.ActionSource, 'DecisionEngine');
	assert.match(puts[0].headers.authorization, /^Bearer \S+$/);
	// (the schedule's Get Many reads the same list meanwhile)
	const gets = emu.requests
		.slice(mark)
		.filter((r) => r.path === '/api/v3/odata/proposals' && /^Id eq /.test(r.query.$filter ?? ''));
	assert.deepEqual(
		gets.map((r) => r.query.$filter).sort(),
		[`Id eq ${small.Id}`, `Id eq ${large.Id}`].sort(),
	);
	log(`     approved ${small.Id} (350), left ${large.Id} (1800) open`);
}

/** Workflow (3): an execution of the schedule that starts after (1) downloaded every file of every open proposal. */
async function downloadsFiles({ instance, emu, storage, log }) {
	const before = (await n8n.recordedExecutions(instance, WF_FILES)).length;
	const execution = (await finished(instance, WF_FILES, before + 2, 120_000)).at(-1);
	assert.equal(execution.status, 'success', execution.error);
	const open = output(execution, 'Open proposals').map((i) => i.json.Id);
	const expectedOpen = Object.values(emu.state.proposals)
		.filter((p) => p.SubscriberId === 1001 && p.Status === 'Open')
		.map((p) => p.Id);
	assert.deepEqual([...open].sort(), [...expectedOpen].sort());
	const downloaded = output(execution, 'Download each file');
	const expectedFiles = open.flatMap((id) => files.proposalFiles(emu, id));
	assert.deepEqual(downloaded.map((i) => i.json.Id).sort(), expectedFiles.map((f) => f.Id).sort());
	for (const item of downloaded) {
		const rec = expectedFiles.find((f) => f.Id === item.json.Id);
		assert.equal(item.binary.file.fileName, rec.Name);
		assert.equal(item.binary.file.mimeType, rec.MediaType);
		assert.equal(
			sha(storedBytes(instance, item.binary.file)),
			sha(rec.data),
			`${rec.Name} byte-exact`,
		);
	}
	assert.ok(
		downloaded.some((i) => i.binary.file.fileName === 'fan blade survey.mp4'),
		'the 3 MB file',
	);
	const fileRequests = emu.requests.filter((r) => r.path.startsWith('/api/v3/files/'));
	assert.ok(fileRequests.length >= expectedFiles.filter((f) => !f.storage).length);
	assert.ok(
		fileRequests.every((r) => /^Bearer \S+$/.test(r.headers.authorization || '')),
		'API-origin files with the token',
	);
	const blobs = storage.requests.filter((r) => r.path.startsWith('/blobs/'));
	assert.ok(blobs.length >= 1, 'the storage-origin file was fetched');
	assert.ok(
		blobs.every((r) => r.headers.authorization === undefined && r.status === 200),
		JSON.stringify(blobs.map((r) => [r.status, r.headers.authorization])),
	);
	log(
		`     ${downloaded.length} files: ${downloaded.map((i) => `${i.binary.file.fileName} (${i.binary.file.bytes ?? '?'} B${i.binary.file.id ? ', stored' : ', in the item'})`).join(', ')}`,
	);
}

/** One n8n version; `check(name, fn)` runs one check (run-e2e.js passes its own). */
async function runProposalWorkflowsE2E({
	version,
	tarball,
	check,
	log = (line) => console.log(line),
}) {
	const runtime = await n8n.ensureRuntime({ version });
	const instance = await n8n.createInstance({
		runtime,
		encryptionKey: 'wos-proposal-e2e-key-0123456789abcdef',
	});
	instance.env.WEBHOOK_URL = `http://127.0.0.1:${instance.env.N8N_PORT}/`;
	const emu = await startEmulator({ port: 0, accessTokenTtl: 86_400 });
	emu.setWebhookOptions({ retryDelayMs: 3000 });
	const survey = crypto.randomBytes(3 * 1024 * 1024);
	await files.addProposalFile(emu, {
		proposalId: 61003,
		name: 'fan blade survey.mp4',
		mimeType: 'video/mp4',
		data: survey,
	});
	const storage = await files.storageOf(emu);
	const prefix = `proposal workflows (n8n ${version}):`;
	const logFile = path.join(instance.dir, 'n8n-start.log');
	const ctx = { version, tarball, instance, emu, storage, logFile, log, server: undefined };
	try {
		const ready = await check(
			`${prefix} install, credentials, examples 07 and 09 activated, n8n start: one webhook at n8n's production URL`,
			() => activate(ctx),
		);
		if (!ready) return;
		await check(
			`${prefix} (1) two proposals created: one execution each; the one under 500 approved (reason, Bearer), the other left open`,
			() => approvesSmallProposals(ctx),
		);
		await check(
			`${prefix} (3) the schedule's execution: every file of every open proposal downloaded byte-exact, named and typed; no token to the storage origin`,
			() => downloadsFiles(ctx),
		);
	} finally {
		if (ctx.server) await ctx.server.stop();
		await emu.close();
		if (process.env.N8N_E2E_KEEP === '1') log(`     kept ${instance.dir}`);
		await n8n.destroyInstance(instance);
	}
}

// ------------------------------------------------------------------ standalone
async function main() {
	await n8n.runStandalone({
		label: 'proposal workflows',
		packPrefix: 'wos-proposal-pack-',
		run: runProposalWorkflowsE2E,
	});
}

if (require.main === module) {
	main().catch((err) => {
		console.error(err);
		process.exitCode = 1;
	});
}

module.exports = { runProposalWorkflowsE2E };
