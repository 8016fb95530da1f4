#!/usr/bin/env node
'use strict';
/**
 * Workflow (2) of issue 27 in a real n8n: another system's webhook call -> Work Order Create ->
 * Add Attachment -> Work Order Note Create, i.e. examples/08-alarm-to-work-order.json as a user
 * imports it, activated in `n8n start`, called over HTTP the way a building management system
 * calls it (multipart: the alarm's fields and a trend chart, examples/alarm-sample.js).
 *
 *   node test/e2e/alarm-workflow.js                     # npm pack, then n8n 2.41.1 and 1.123.81
 *   node test/e2e/alarm-workflow.js --version 2.41.1    # one version
 *
 * From run-e2e.js (per version, with its own check() and tarball):
 *   await runAlarmE2E({ version, tarball, check });
 *
 * Checks per version: (1) install, the example's credential and workflow imported, activated,
 * `n8n start`, the webhook live at n8n's production URL (n8n ready, its database holding the
 * webhook and, in 2.x, the publication applied: only then is an alarm sent, once); (2) one alarm:
 * the request answered 200 by the workflow ("Workflow was started"; while it starts, n8n answers
 * every call 200 "n8n is starting up. Please wait" and runs nothing), one successful execution in
 * n8n's database, the emulator received exactly POST /workorders (the
 * CreateWoRequest built from the alarm), POST /workorders/{new id}/attachments (the descriptor part
 * and the chart byte for byte) and POST /workorders/{new id}/notes, each with the credential's
 * token; the work order, its file and its note are in the service; (3) a second alarm (not
 * critical) makes a second work order with the other priority.
 */

const assert = require('node:assert/strict');
const fs = require('node:fs');
const path = require('node:path');

const n8n = require('./n8n');
const { startEmulator } = require('../emulator');
const { startN8n, waitFor } = require('../trigger/e2e-trigger');
const { demoCredentials } = require('../../examples/demo-credentials');
const { ALARM_PATH, SNAPSHOT, alarmFields, alarmForm } = require('../../examples/alarm-sample');

const EXAMPLE = path.join(__dirname, '..', '..', 'examples', '08-alarm-to-work-order.json');

const readDatabase = n8n.readDatabase;

/** The finished executions of the workflow in n8n's database, with each node's output items. */
async function executions(instance, workflowId) {
	return (await n8n.recordedExecutions(instance, workflowId)).map((e) => ({
		id: e.id,
		status: e.status,
		out: Object.fromEntries(
			Object.keys(e.runData).map((name) => [name, n8n.runOutput(e, name).map((i) => i.json)]),
		),
		error: e.error,
	}));
}

/**
 * Where n8n is with the workflow's activation, from its database: the webhook's row (n8n writes it
 * when it registers the webhook and looks every call up there) and, in 2.x, the published version
 * and the publications (2.x applies a publication after start-up, asynchronously, through
 * workflow_publication_outbox: a reconciliation at start-up finds the version published while n8n
 * was stopped and queues it).
 */
async function activationState(instance, workflowId, major) {
	const [webhook] = await readDatabase(
		instance,
		"select count(*) as n from webhook_entity where workflowId = ? and method = 'POST' and webhookPath = ?",
		[workflowId, ALARM_PATH],
	);
	const state = { webhook: webhook.n > 0 };
	if (major >= 2) {
		const [workflow] = await readDatabase(
			instance,
			'select w.activeVersionId as active, p.publishedVersionId as published from workflow_entity w left join workflow_published_version p on p.workflowId = w.id where w.id = ?',
			[workflowId],
		);
		const outbox = await readDatabase(
			instance,
			'select status, errorMessage from workflow_publication_outbox where workflowId = ? order by id',
			[workflowId],
		);
		Object.assign(state, {
			published: Boolean(workflow?.active) && workflow.active === workflow.published,
			outbox: outbox.map((o) => `${o.status}${o.errorMessage ? ` (${o.errorMessage})` : ''}`),
		});
	}
	return state;
}

/**
 * Waits until the workflow's webhook is live: n8n answers /healthz/readiness, its database holds
 * the webhook and, in 2.x, the published version is the active one with no publication pending,
 * running or failed. Until then n8n answers a call 503 (its database not ready), 404 (the webhook
 * not registered yet) or, before its migrations ran, 200 "n8n is starting up" with nothing started;
 * an alarm is only sent once the webhook is live, so that an answer is the workflow's.
 */
async function webhookLive(instance, workflowId, url, version) {
	const major = Number(version.split('.')[0]);
	const started = Date.now();
	await waitFor(
		'n8n to be ready',
		async () =>
			(await fetch(new URL('/healthz/readiness', url)).catch(() => undefined))?.status === 200,
		180_000,
	);
	let state;
	try {
		// n8n 2.x gives one publication 84 s (70 % of its 120 s lease), then tries again
		await waitFor(
			'the webhook to be registered',
			async () => {
				state = await activationState(instance, workflowId, major);
				return (
					state.webhook &&
					(major < 2 || (state.published && state.outbox.every((o) => o.startsWith('completed'))))
				);
			},
			300_000,
		);
	} catch (error) {
		throw new Error(`${error.message}; n8n's activation: ${JSON.stringify(state)}`);
	}
	return { ms: Date.now() - started, state };
}

/**
 * POSTs one alarm to the live webhook. A 503 (n8n's database check failed for a moment; nothing
 * started) is sent again; any other answer is the test's.
 */
async function postAlarm(url, fields) {
	let response;
	await waitFor(
		'an answer other than 503 (database not ready)',
		async () => {
			response = await fetch(url, { method: 'POST', body: alarmForm(fields) });
			return response.status !== 503;
		},
		60_000,
	);
	return response;
}

/** What one alarm did: the execution, and the emulator's API requests since `mark`. */
async function oneAlarm(instance, emu, workflowId, url, fields, count) {
	const mark = emu.requests.length;
	const response = await postAlarm(url, fields);
	const answer = await response.text();
	assert.equal(response.status, 200, `webhook answered ${response.status}: ${answer}`);
	// the Webhook node's answer (Respond: Immediately), not another 200 of n8n's such as the
	// "n8n is starting up. Please wait" it gives every call before its migrations ran
	assert.deepEqual(
		JSON.parse(answer.startsWith('{') ? answer : 'null'),
		{ message: 'Workflow was started' },
		`webhook answered 200 but not as the workflow: ${answer.slice(0, 200)}`,
	);
	let found = [];
	let list;
	try {
		list = await waitFor(
			`${count} finished executions`,
			async () => {
				found = await executions(instance, workflowId);
				return found.length >= count &&
					found.every(
						(e) =>
							e.status !== 'running' &&
							e.status !== 'new' &&
							(e.status !== 'success' || e.out['Note the alarm']),
					)
					? found
					: false;
			},
			90_000,
		);
	} catch (error) {
		// what n8n and the service saw, so that a failure here says which side stopped
		const seen =
			found
				.map(
					(e) =>
						`${e.id} ${e.status} [${Object.keys(e.out).join(', ')}]${e.error ? ` ${e.error}` : ''}`,
				)
				.join('; ') || 'none';
		const sent =
			emu.requests
				.slice(mark)
				.map((r) => `${r.method} ${r.path} ${r.status}`)
				.join(', ') || 'none';
		throw new Error(
			`${error.message}; the webhook answered ${response.status}; executions: ${seen}; requests to the emulator: ${sent}`,
		);
	}
	const execution = list[count - 1];
	assert.equal(
		execution.status,
		'success',
		`execution: ${execution.status} ${execution.error ?? ''}`,
	);
	return { execution, api: emu.requests.slice(mark).filter((r) => r.path.startsWith('/api/')) };
}

/** The three requests of one alarm, as the reference has them. */
function expectAlarmRequests(api, fields, createdId, token) {
	assert.deepEqual(
		api.map((r) => `${r.method} ${r.path} ${r.status}`),
		[
			'POST /api/v3/workorders 201',
			`POST /api/v3/workorders/${createdId}/attachments 201`,
			`POST /api/v3/workorders/${createdId}/notes 201`,
		],
	);
	assert.ok(
		api.every((r) => r.headers.authorization === `Bearer ${token}`),
		'every call with the stored token',
	);
	const [create, attach, note] = api;
	assert.deepEqual(create.body, {
		ContractInfo: { StoreId: fields.storeId, TradeName: fields.trade },
		Category: 'REPAIR',
		Priority: fields.severity === 'critical' ? 'P1 - Emergency' : 'P2 - Urgent',
		Description: `Alarm ${fields.alarmId}: ${fields.message}`,
		ProblemCode: fields.problemCode,
		CallDate: fields.raisedAt,
		CallerName: 'Building Management System',
		Nte: 750,
		Number: `BMS-${fields.alarmId}`,
	});
	assert.deepEqual(attach.query, { actor: 'Building Management System' });
	assert.deepEqual(
		attach.parts.map((p) => p.name),
		['AddAttachmentsRequest', 'file'],
	);
	assert.deepEqual(attach.parts[0].json, {
		Attachments: [
			{
				Name: 'rtu1-trend.png',
				Type: 'File',
				MediaType: 'image/png',
				Description: `Trend chart of alarm ${fields.alarmId}`,
			},
		],
	});
	assert.equal(attach.parts[1].filename, 'rtu1-trend.png');
	assert.equal(
		Buffer.compare(attach.parts[1].data, SNAPSHOT),
		0,
		'the chart arrived byte for byte',
	);
	const text = JSON.stringify(note.body);
	assert.ok(
		text.includes(`alarm ${fields.alarmId} (${fields.severity})`) &&
			text.includes('rtu1-trend.png'),
		`note body: ${text}`,
	);
}

/** The package, the example's credential and workflow (activated), then `n8n start`. */
async function installAndStart(instance, tarball, emu, workflow, version) {
	await n8n.installCommunityPackage(instance, tarball);
	await n8n.importCredentials(
		instance,
		demoCredentials(emu).filter((c) => c.id === 'wosPasswordDemo'),
	);
	await n8n.importWorkflows(instance, [workflow]);
	const args =
		Number(version.split('.')[0]) >= 2
			? ['publish:workflow', `--id=${workflow.id}`]
			: ['update:workflow', `--id=${workflow.id}`, '--active=true'];
	const res = await n8n.runN8n(instance, args);
	assert.equal(res.code, 0, `n8n ${args.join(' ')} failed:\n${res.stdout}\n${res.stderr}`);
	return await startN8n(instance, path.join(instance.dir, 'n8n-start.log'));
}

/**
 * One n8n version. `check(name, fn)` runs one check (run-e2e.js passes its own).
 * @param {{ version: string, tarball: string, check: (name: string, fn: () => Promise<void>) => Promise<boolean>, log?: (line: string) => void }} o
 */
async function runAlarmE2E({ version, tarball, check, log = (line) => console.log(line) }) {
	const runtime = await n8n.ensureRuntime({ version });
	const instance = await n8n.createInstance({
		runtime,
		encryptionKey: 'wos-alarm-e2e-key-0123456789abcdef',
	});
	instance.env.WEBHOOK_URL = `http://127.0.0.1:${instance.env.N8N_PORT}/`;
	const emu = await startEmulator({ port: 0, accessTokenTtl: 86_400 });
	const workflow = JSON.parse(fs.readFileSync(EXAMPLE, 'utf8'));
	const url = `${instance.env.WEBHOOK_URL}webhook/${ALARM_PATH}`;
	const prefix = `alarm -> work order (n8n ${version}):`;
	let server;
	try {
		const ready = await check(
			`${prefix} install, the example's credential and workflow, activate, n8n start, the webhook live`,
			async () => {
				server = await installAndStart(instance, tarball, emu, workflow, version);
				const live = await webhookLive(instance, workflow.id, url, version);
				log(
					`     webhook live ${(live.ms / 1000).toFixed(1)} s after n8n answered /healthz${live.state.outbox ? ` (publications: ${live.state.outbox.join(', ')})` : ''}`,
				);
			},
		);
		if (!ready) return;

		await check(
			`${prefix} an alarm with a chart: one execution; POST /workorders, its attachments and a note, as the reference has them`,
			async () => {
				const fields = alarmFields();
				const { execution, api } = await oneAlarm(instance, emu, workflow.id, url, fields, 1);
				const created = execution.out['Create work order'][0];
				assert.equal(created.success, true);
				const token = emu.state.tokens.find(
					(t) => t.username === emu.fixtures.users.subscriber.username,
				)?.token;
				expectAlarmRequests(api, fields, created.id, token);
				const wo = emu.workOrder(created.id);
				assert.equal(wo.Priority, 'P1 - Emergency');
				assert.equal(emu.state.attachments.filter((a) => a.WorkOrderId === wo.Id).length, 1);
				assert.equal(emu.notesOf(wo.Id).length, 1);
				assert.deepEqual(execution.out['Attach the snapshot'][0], {
					success: true,
					operation: 'addAttachment',
					workOrderId: wo.Id,
					fileName: 'rtu1-trend.png',
					mimeType: 'image/png',
					fileSize: SNAPSHOT.length,
				});
				log(
					`     work order ${wo.Id} created, chart attached, note ${execution.out['Note the alarm'][0].Id}`,
				);
			},
		);

		await check(
			`${prefix} a second alarm (not critical): a second work order, priority P2`,
			async () => {
				const fields = {
					...alarmFields(),
					alarmId: 'A-20418',
					severity: 'warning',
					storeId: 'S502',
				};
				const { execution, api } = await oneAlarm(instance, emu, workflow.id, url, fields, 2);
				const created = execution.out['Create work order'][0];
				expectAlarmRequests(
					api,
					fields,
					created.id,
					api[0].headers.authorization.slice('Bearer '.length),
				);
				assert.equal(emu.workOrder(created.id).Priority, 'P2 - Urgent');
				assert.equal(
					emu.workOrder(created.id).LocationId ?? emu.workOrder(created.id).Location?.Id,
					502,
				);
			},
		);
	} finally {
		if (server) await server.stop();
		await emu.close();
		if (process.env.N8N_E2E_KEEP === '1') log(`     kept ${instance.dir}`);
		await n8n.destroyInstance(instance);
	}
}

async function main() {
	await n8n.runStandalone({
		label: 'alarm -> work order',
		packPrefix: 'wos-alarm-pack-',
		run: runAlarmE2E,
	});
}

if (require.main === module) {
	main().catch((err) => {
		console.error(err);
		process.exitCode = 1;
	});
}

module.exports = { runAlarmE2E };
