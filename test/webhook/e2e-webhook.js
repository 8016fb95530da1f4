#!/usr/bin/env node
'use strict';
/**
 * The Work Order Service Trigger (webhook) in a real n8n: `n8n start` with an active workflow whose
 * trigger registered itself with the emulator, events the emulator delivers (signed) to n8n's
 * production webhook URL, and the executions n8n recorded (its SQLite database).
 *
 *   node test/webhook/e2e-webhook.js                       # npm pack, then n8n 2.41.1 and 1.123.81
 *   node test/webhook/e2e-webhook.js --version 2.41.1      # one version (also --version=a,b)
 *   node test/webhook/e2e-webhook.js --tarball f.tgz       # a given tarball
 *
 * From run-e2e.js (per version, with its own check() and tarball):
 *   await runWebhookE2E({ version, tarball, check });
 *
 * Per version: a fresh n8n user folder with the package installed as a community package, the
 * emulator's Super Admin (demo.manager) as a password credential, one workflow (the webhook trigger
 * for status changes, notes, work orders created and proposal approvals -> a No Op), activated
 * (2.x `publish:workflow`, 1.x `update:workflow --active=true`), `n8n start` with WEBHOOK_URL on
 * 127.0.0.1. Then:
 *   1. activation: the emulator holds one webhook at n8n's production URL, Enabled, 2 subscriptions;
 *   2. the emulator changes a work order's status, a proposal is approved through the API, a note
 *      with an ID above 2^53 is added: n8n records one execution each, with the right item;
 *   3. a tampered delivery (a delivered body changed, its signature kept) is answered 401 and
 *      starts nothing; the same delivery sent again is answered 200 and starts nothing;
 *   4. 20 work orders created at once: 20 answers, each 2xx well within 5 s, 20 executions;
 *   5. n8n restarted: still one webhook at the service; the key is read again and the next event runs;
 *   6. deactivation through n8n's REST API deletes the webhook at the service;
 *   7. the signing key appears nowhere in n8n's database or log.
 */

const assert = require('node:assert/strict');
const fs = require('node:fs');
const path = require('node:path');

const n8n = require('../e2e/n8n');
const { startEmulator } = require('../emulator');
const { startN8n, waitFor } = require('../trigger/e2e-trigger');

const TYPE = 'n8n-nodes-work-order-service.workOrderServiceTrigger';
const NAME = 'Work Order Service Trigger';
const CREDENTIAL = { id: 'wosHookE2eCred01', name: 'Work Order Service (emulator, webhook e2e)' };
const WF = 'wosHookE2e000001'; // n8n 1.x saves static data only for ids of at most 16 characters
const WEBHOOK_ID = '6c1e9a52-5f6b-4c51-9d1e-2f4b7c0e8a31';
const EVENTS = [
	'WorkOrderStatusChanged',
	'WorkOrderNoteAdded',
	'WorkOrderCreated',
	'ProposalApproved',
];
const OWNER = {
	email: 'owner@e2e.example',
	firstName: 'E2e',
	lastName: 'Owner',
	password: 'E2e-Owner-Passw0rd',
};

function workflow() {
	return {
		id: WF,
		name: 'WOS webhook e2e',
		nodes: [
			{
				id: `${WF}-trigger`,
				name: NAME,
				type: TYPE,
				typeVersion: 1,
				position: [0, 0],
				webhookId: WEBHOOK_ID,
				parameters: { authentication: 'password', events: EVENTS, rules: {} },
				credentials: { workOrderServiceApi: CREDENTIAL },
			},
			{
				id: `${WF}-noop`,
				name: 'Received',
				type: 'n8n-nodes-base.noOp',
				typeVersion: 1,
				position: [220, 0],
				parameters: {},
			},
		],
		connections: { [NAME]: { main: [[{ node: 'Received', type: 'main', index: 0 }]] } },
		settings: {
			executionOrder: 'v1',
			saveDataSuccessExecution: 'all',
			saveDataErrorExecution: 'all',
		},
	};
}

/** Executions of the workflow as n8n recorded them: { id, status, mode, items, received, error }. */
async function recordedExecutions(instance) {
	return (await n8n.recordedExecutions(instance, WF)).map((e) => ({
		id: e.id,
		status: e.status,
		mode: e.mode,
		items: n8n.runOutput(e, NAME).map((i) => i.json),
		received: n8n.runOutput(e, 'Received').length,
		error: e.error,
	}));
}

async function apiToken(emu, who = 'manager') {
	const client = emu.fixtures.clients.main;
	const user = emu.fixtures.users[who];
	const r = await fetch(`${emu.authUrl}/oauth/token`, {
		method: 'POST',
		headers: {
			authorization: `Basic ${Buffer.from(`${client.clientId}:${client.clientSecret}`).toString('base64')}`,
			'content-type': 'application/x-www-form-urlencoded',
		},
		body: new URLSearchParams({
			grant_type: 'password',
			username: user.username,
			password: user.password,
		}),
	});
	return (await r.json()).access_token;
}

/** The owner's session cookie (n8n's REST API), setting the owner up on first use. */
async function ownerCookie(instance) {
	const base = `http://127.0.0.1:${instance.env.N8N_PORT}`;
	const headers = { 'content-type': 'application/json', 'browser-id': 'wos-e2e' };
	let r = await fetch(`${base}/rest/owner/setup`, {
		method: 'POST',
		headers,
		body: JSON.stringify(OWNER),
	});
	if (r.status !== 200) {
		r = await fetch(`${base}/rest/login`, {
			method: 'POST',
			headers,
			body: JSON.stringify({
				emailOrLdapLoginId: OWNER.email,
				email: OWNER.email,
				password: OWNER.password,
			}),
		});
	}
	assert.equal(r.status, 200, `owner setup/login: ${r.status} ${await r.text()}`);
	const cookie = (r.headers.getSetCookie?.() ?? [r.headers.get('set-cookie')])
		.map((c) => String(c).split(';')[0])
		.find((c) => c.startsWith('n8n-auth='));
	assert.ok(cookie, 'n8n-auth cookie');
	return { base, headers: { ...headers, cookie } };
}

/**
 * One n8n version. `check(name, fn)` runs one check (run-e2e.js passes its own).
 * @param {{ version: string, tarball: string, check: (name: string, fn: () => Promise<void>) => Promise<boolean>, log?: (line: string) => void }} o
 */
async function runWebhookE2E({ version, tarball, check, log = (line) => console.log(line) }) {
	const runtime = await n8n.ensureRuntime({ version });
	const instance = await n8n.createInstance({
		runtime,
		encryptionKey: 'wos-webhook-e2e-key-0123456789abcdef',
	});
	instance.env.WEBHOOK_URL = `http://127.0.0.1:${instance.env.N8N_PORT}/`;
	const emu = await startEmulator({ port: 0, accessTokenTtl: 86_400 });
	// the service's re-send delay (5 min) shortened, so that a delivery refused while n8n starts comes again soon
	emu.setWebhookOptions({ retryDelayMs: 3000 });
	const logFile = path.join(instance.dir, 'n8n-start.log');
	const prefix = `webhook trigger (n8n ${version}):`;
	const productionUrl = `${instance.env.WEBHOOK_URL}webhook/${WEBHOOK_ID}/webhook`;
	let server;
	const executions = () => recordedExecutions(instance);
	const keyReads = () =>
		emu.requests.filter(
			(r) => r.method === 'GET' && r.path === '/api/v3/NotificationSubscriptions/SigningKey',
		).length;
	/**
	 * Waits until n8n has recorded `count` executions with their data (a running one has none yet, and
	 * n8n 1.x can show an execution as finished a moment before its data is written).
	 */
	const executionsReach = (count, timeoutMs = 60_000) =>
		waitFor(
			`${count} finished executions in n8n's database`,
			async () => {
				const list = await executions();
				const complete = (e) =>
					e.status !== 'running' &&
					e.status !== 'new' &&
					(e.status !== 'success' || e.items.length > 0);
				return list.length >= count && list.every(complete) ? list : false;
			},
			timeoutMs,
		);
	try {
		const ready = await check(
			`${prefix} install, Super Admin credential, workflow, activate, n8n start: one webhook registered at n8n's production URL`,
			async () => {
				await n8n.installCommunityPackage(instance, tarball);
				const client = emu.fixtures.clients.main;
				const user = emu.fixtures.users.manager;
				await n8n.importCredentials(instance, [
					{
						...CREDENTIAL,
						type: 'workOrderServiceApi',
						data: {
							authServerUrl: emu.authUrl,
							baseUrl: emu.baseUrl,
							clientId: client.clientId,
							clientSecret: client.clientSecret,
							username: user.username,
							password: user.password,
							subsidiaryId: '',
						},
					},
				]);
				await n8n.importWorkflows(instance, [workflow()]);
				const major = Number(version.split('.')[0]);
				const args =
					major >= 2
						? ['publish:workflow', `--id=${WF}`]
						: ['update:workflow', `--id=${WF}`, '--active=true'];
				const res = await n8n.runN8n(instance, args);
				assert.equal(res.code, 0, `n8n ${args.join(' ')} failed:\n${res.stdout}\n${res.stderr}`);
				server = await startN8n(instance, logFile);
				await waitFor('the webhook at the service', () => emu.webhooks.hooks.size >= 1, 120_000);
				await waitFor('the activation to finish (key read)', () => keyReads() >= 1, 60_000);
				const hooks = [...emu.webhooks.hooks.values()];
				assert.equal(hooks.length, 1);
				assert.equal(hooks[0].Url, productionUrl);
				assert.equal(hooks[0].Enabled, true);
				assert.deepEqual(
					hooks[0].Subscriptions.map((s) => s.EventTypes),
					[EVENTS.filter((e) => e.startsWith('WorkOrder')), ['ProposalApproved']],
				);
			},
		);
		if (!ready) return;

		await check(
			`${prefix} a work order status change, a proposal approval (API) and a note with an ID above 2^53: one execution each, with the event's item`,
			async () => {
				emu.setWorkOrderStatus(90000004, 'COMPLETED', 'PENDING CONFIRMATION');
				let list = await executionsReach(1);
				const token = await apiToken(emu);
				const approve = await fetch(`${emu.baseUrl}/v3/proposals/61001/approve`, {
					method: 'PUT',
					headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
					body: '{}',
				});
				assert.equal(approve.status, 204);
				list = await executionsReach(2);
				const note = emu.addNote(90000005, 'Roof leak above aisle 4 (e2e)', 'manager');
				assert.ok(note.Id > 2n ** 53n);
				list = await executionsReach(3);
				await new Promise((resolve) => setTimeout(resolve, 1500));
				list = await executions();
				assert.equal(
					list.length,
					3,
					JSON.stringify(list.map((e) => e.items.map((i) => i.EventType))),
				);
				for (const e of list) {
					assert.equal(e.status, 'success');
					assert.equal(e.mode, 'webhook');
					assert.equal(e.items.length, 1);
					assert.equal(e.received, 1, 'the item reached the next node');
				}
				const [status, approved, noted] = list.map((e) => e.items[0]);
				assert.equal(status.EventType, 'WorkOrderStatusChanged');
				assert.equal(status.Action, 'UPDATE');
				assert.deepEqual(
					[status.Object.Id, status.Object.Status],
					[90000004, { Primary: 'COMPLETED', Extended: 'PENDING CONFIRMATION' }],
				);
				assert.equal(approved.EventType, 'ProposalApproved');
				assert.deepEqual(
					[approved.Object.Id, approved.Object.Status, approved.Object.UpdatedBy.UserName],
					[61001, 'Approved', 'demo.manager'],
				);
				assert.equal(noted.EventType, 'WorkOrderNoteAdded');
				assert.equal(
					noted.Object.Notes[0].Id,
					note.Id.toString(),
					'the note ID exact, as a decimal string',
				);
				assert.ok(
					emu.deliveries.every((d) => d.ok),
					JSON.stringify(emu.deliveries.map((d) => [d.eventType, d.status])),
				);
				log(
					`     executions: ${list.map((e) => `${e.items[0].EventType} ${e.items[0].Object.Id}`).join(', ')}; note Id ${noted.Object.Notes[0].Id}`,
				);
			},
		);

		await check(
			`${prefix} a tampered delivery is answered 401 and starts nothing; the same delivery again is answered 200 and starts nothing`,
			async () => {
				const before = (await executions()).length;
				const delivered = emu.deliveries.find((d) => d.eventType === 'ProposalApproved');
				const tampered = delivered.body.replace('"Amount":1200', '"Amount":1');
				assert.notEqual(tampered, delivered.body);
				const post = (body, headers) =>
					fetch(productionUrl, {
						method: 'POST',
						headers: { ...headers, 'content-type': 'application/json; charset=utf-8' },
						body,
					});
				const refused = await post(tampered, {
					'sign-type': 'HMACSHA256',
					'sign-data': delivered.headers['sign-data'],
				});
				assert.equal(refused.status, 401);
				const unsigned = await post(delivered.body, {});
				assert.equal(unsigned.status, 401);
				const again = await post(delivered.body, delivered.headers);
				assert.equal(again.status, 200);
				await new Promise((resolve) => setTimeout(resolve, 3000));
				const after = await executions();
				assert.equal(after.length, before, 'no execution was started');
				assert.ok(
					after.every((e) => e.status === 'success'),
					'no error execution',
				);
			},
		);

		await check(
			`${prefix} 20 work orders created at once: 20 answers, each 2xx well within 5 s; 20 executions`,
			async () => {
				const before = (await executions()).length;
				const from = emu.deliveries.length;
				const created = emu.createWorkOrders(Array.from({ length: 20 }, () => ({})));
				await waitFor('20 deliveries', () => emu.deliveries.length >= from + 20, 60_000);
				await emu.webhooksIdle();
				const answered = emu.deliveries.slice(from);
				assert.deepEqual(
					answered.map((d) => d.status),
					Array(20).fill(200),
				);
				const slowest = Math.max(...answered.map((d) => d.durationMs));
				assert.ok(slowest < 4000, `slowest answer ${slowest} ms`);
				const list = (await executionsReach(before + 20)).slice(before);
				assert.deepEqual(
					list.map((e) => e.items[0].Object.Id).sort(),
					created.map((w) => w.Id).sort(),
				);
				log(
					`     20 deliveries answered in ${Math.min(...answered.map((d) => d.durationMs))}-${slowest} ms`,
				);
			},
		);

		await check(
			`${prefix} n8n restarted: still one webhook at the service; the key is read again and the next event runs once`,
			async () => {
				await server.stop();
				server = undefined;
				const readsBefore = keyReads();
				const requestsBefore = emu.requests.length;
				const before = (await executions()).length;
				server = await startN8n(instance, logFile);
				// n8n answers /healthz before it has re-activated its workflows: an unsigned POST is refused by
				// the trigger (401) once its webhook is live again, and by n8n (404) before
				await waitFor(
					'the webhook to be live again',
					async () =>
						(
							await fetch(productionUrl, {
								method: 'POST',
								headers: { 'content-type': 'application/json' },
								body: '{}',
							})
						).status === 401,
					90_000,
				);
				const from = emu.deliveries.length;
				emu.setWorkOrderStatus(90000014, 'IN PROGRESS', 'ON SITE');
				const list = await executionsReach(before + 1, 60_000).catch((error) => {
					throw new Error(
						`${error.message}; deliveries: ${JSON.stringify(emu.deliveries.slice(from).map((d) => [d.attempt, d.status, d.error]))}`,
					);
				});
				assert.deepEqual(
					list.slice(before).map((e) => [e.items[0].EventType, e.items[0].Object.Id]),
					[['WorkOrderStatusChanged', 90000014]],
				);
				const hooks = [...emu.webhooks.hooks.values()];
				assert.deepEqual(
					hooks.map((h) => h.Url),
					[productionUrl],
				);
				const management = emu.requests
					.slice(requestsBefore)
					.filter((r) => r.path.startsWith('/api/v3/Notification'));
				assert.deepEqual(
					management.filter((r) => r.method !== 'GET').map((r) => `${r.method} ${r.path}`),
					[],
					'nothing registered or deleted',
				);
				// 2.41 keeps its webhook rows and runs nothing of the node (the key is read by the first
				// delivery); 1.123 runs checkExists at start-up (which reads the key): either way once
				log(
					`     after the restart: ${management.map((r) => `${r.method} ${r.path.replace('/api/v3', '')} ${r.time}`).join(', ')}; deliveries ${emu.deliveries
						.slice(-2)
						.map((d) => `${d.status} ${d.at}`)
						.join(', ')}`,
				);
				assert.equal(keyReads(), readsBefore + 1, 'the key was read again after the restart');
			},
		);

		await check(
			`${prefix} deactivation (n8n's REST API) deletes the webhook at the service`,
			async () => {
				const { base, headers } = await ownerCookie(instance);
				const r = await fetch(`${base}/rest/workflows/${WF}/deactivate`, {
					method: 'POST',
					headers,
					body: '{}',
				});
				assert.equal(r.status, 200, `deactivate: ${r.status} ${(await r.text()).slice(0, 300)}`);
				await waitFor('the webhook to be deleted', () => emu.webhooks.hooks.size === 0, 60_000);
				const deletes = emu.requests.filter(
					(x) => x.method === 'DELETE' && x.path.startsWith('/api/v3/NotificationWebHooks/'),
				);
				assert.deepEqual(
					deletes.map((x) => x.status),
					[204],
				);
			},
		);

		await server.stop();
		server = undefined;

		await check(`${prefix} the signing key is nowhere in n8n's database or log`, async () => {
			const key = emu.webhooks.keyOf('subscriber:1001');
			const db = fs.readFileSync(path.join(instance.userFolder, '.n8n', 'database.sqlite'));
			for (const form of [key, Buffer.from(key, 'base64').toString('hex')]) {
				assert.equal(db.includes(Buffer.from(form, 'utf8')), false, 'key in the database');
				assert.equal(fs.readFileSync(logFile, 'utf8').includes(form), false, 'key in the log');
			}
		});
	} finally {
		if (server) await server.stop();
		await emu.close();
		if (process.env.N8N_E2E_KEEP === '1') log(`     kept ${instance.dir}`);
		await n8n.destroyInstance(instance);
	}
}

// ------------------------------------------------------------------ standalone
async function main() {
	await n8n.runStandalone({
		label: 'webhook trigger',
		packPrefix: 'wos-hook-pack-',
		run: runWebhookE2E,
	});
}

if (require.main === module) {
	main().catch((err) => {
		console.error(err);
		process.exitCode = 1;
	});
}

module.exports = { runWebhookE2E };
