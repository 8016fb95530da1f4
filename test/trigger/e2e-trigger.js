#!/usr/bin/env node
'use strict';
/**
 * The Work Order Service Trigger in a real n8n: `n8n start` with two active workflows polling the
 * emulator every 10 seconds, work orders changed in the emulator, and the executions n8n recorded
 * (its SQLite database) checked against the emulator's change log.
 *
 *   node test/trigger/e2e-trigger.js                       # npm pack, then n8n 2.41.1 and 1.123.81
 *   node test/trigger/e2e-trigger.js --version 2.41.1      # one version (also --version=a,b)
 *   node test/trigger/e2e-trigger.js --tarball f.tgz       # a given tarball
 *
 * From run-e2e.js (per version, with its own check() and tarball):
 *   const { runTriggerE2E } = require('../trigger/e2e-trigger');
 *   await runTriggerE2E({ version, tarball, check });
 *
 * Per version: a fresh n8n user folder with the package installed as a community package, a
 * password credential and two workflows imported ("Updated" and "Status Changed" to COMPLETED,
 * with a location filter), both activated (2.x `publish:workflow`, 1.x `update:workflow
 * --active=true`), then `n8n start`. The poll time is six custom crons, one per 10 s (`0 * * * * *`,
 * `10 * * * * *`, ...): n8n refuses a cron that fires more than once a minute, but each of these
 * fires once a minute. The emulator's clock runs 2 minutes behind n8n's. Rounds of changes are made
 * in one synchronous step each (nothing is answered in between), so each round is seen by one poll:
 *   1. new and changed work orders, one set to COMPLETED;
 *   2. one work order changed twice, one set to COMPLETED, a new one;
 *   then n8n is stopped, work orders change, n8n starts again: its activation poll continues from
 *   the state n8n saved in its database (nothing in process memory survives);
 *   3. the next two list reads fail (500; Max Retries 0): two failed polls, recorded by n8n as
 *      failed executions; the changes made with them come with the next good poll.
 * n8n is then stopped and its database read: executions (mode trigger), their items, the errors,
 * and the static data it saved (the trigger's cursor).
 *
 * Then a large tenant (issue 17): a second emulator with 5,100 work orders and the sandbox's rate
 * limit (40 requests per minute), a third workflow (Status Changed, any status) published while n8n
 * is stopped, n8n started: its activation must stay within a few requests and seconds (the design
 * before issue 17 read every status inside the activation: about 100 requests, more than n8n's 84 s
 * publication deadline at that rate), the publication must not fail, the trigger state must be
 * saved; a status change is emitted once while the trigger settles under the rate limit; n8n is
 * restarted (a change while it is down), the workflow is active again within a few requests, and
 * the next change is emitted once.
 */

const assert = require('node:assert/strict');
const { spawn, spawnSync } = require('node:child_process');
const fs = require('node:fs');
const path = require('node:path');

const n8n = require('../e2e/n8n');
const { startEmulator } = require('../emulator');

const ROOT = path.resolve(__dirname, '..', '..');
const TRIGGER_TYPE = 'n8n-nodes-work-order-service.workOrderServicePollingTrigger';
const TRIGGER_NAME = 'Work Order Service Trigger';
const LIST = '/api/v3/odata/workorders';
const CREDENTIAL = { id: 'wosTriggerE2eCred', name: 'Work Order Service (emulator, trigger e2e)' };
const WF_UPDATED = 'wosTrigUpdE2e001'; // n8n 1.x saves static data only for ids of at most 16 characters
const WF_STATUS = 'wosTrigStsE2e001';
const WF_LARGE = 'wosTrigLrgE2e001';
const LARGE_CREDENTIAL = {
	id: 'wosTriggerE2eBig',
	name: 'Work Order Service (emulator, 5,100 work orders)',
};
const LARGE_TENANT = 5100;
const SANDBOX_RATE = { limit: 40, windowMs: 60_000 };
const LOCATIONS = '501, 502, 503, 504, 505';
const POLL_SECONDS = 10;
const SKEW_MS = -120_000;

/** Six crons, each firing once a minute: a poll every 10 s that n8n accepts. */
const POLL_TIMES = {
	item: Array.from({ length: 60 / POLL_SECONDS }, (_, i) => ({
		mode: 'custom',
		cronExpression: `${i * POLL_SECONDS} * * * * *`,
	})),
};

function triggerWorkflow(
	id,
	name,
	event,
	filters,
	{ credential = CREDENTIAL, requestOptions = { maxRetries: 0 } } = {},
) {
	return {
		id,
		name,
		nodes: [
			{
				id: `${id}-trigger`,
				name: TRIGGER_NAME,
				type: TRIGGER_TYPE,
				typeVersion: 1,
				position: [0, 0],
				parameters: {
					authentication: 'password',
					event,
					pollTimes: POLL_TIMES,
					filters,
					options: {},
					requestOptions,
				},
				credentials: { workOrderServiceApi: credential },
			},
			{
				id: `${id}-noop`,
				name: 'Received',
				type: 'n8n-nodes-base.noOp',
				typeVersion: 1,
				position: [220, 0],
				parameters: {},
			},
		],
		connections: { [TRIGGER_NAME]: { main: [[{ node: 'Received', type: 'main', index: 0 }]] } },
		settings: {
			executionOrder: 'v1',
			saveDataSuccessExecution: 'all',
			saveDataErrorExecution: 'all',
		},
	};
}

const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

async function waitFor(what, condition, timeoutMs) {
	const until = Date.now() + timeoutMs;
	for (;;) {
		const value = await condition();
		if (value) return value;
		if (Date.now() > until)
			throw new Error(`timed out after ${Math.round(timeoutMs / 1000)} s waiting for ${what}`);
		await sleep(250);
	}
}

/** The window reads of the emulator log, per workflow (the Status Changed one filters by location). */
function windowReads(emu, workflow, fromSeq = 0) {
	return emu.requests.filter(
		(r) =>
			r.seq > fromSeq &&
			r.path === LIST &&
			r.query.$skip !== undefined &&
			/^UpdatedDate ge /.test(r.query.$filter ?? '') &&
			/LocationId/.test(r.query.$filter) === (workflow === WF_STATUS),
	);
}

/** `n8n start` in the background; resolves once /healthz answers. */
async function startN8n(instance, logFile) {
	const out = fs.openSync(logFile, 'a');
	const child = spawn(instance.runtime.node, [instance.runtime.n8nBin, 'start'], {
		cwd: instance.dir,
		env: instance.env,
		stdio: ['ignore', out, out],
		detached: true,
	});
	fs.closeSync(out);
	const exited = new Promise((resolve) =>
		child.on('exit', (code, signal) => resolve({ code, signal })),
	);
	let gone = false;
	exited.then(() => (gone = true));
	const port = instance.env.N8N_PORT;
	await waitFor(
		'n8n to answer /healthz',
		async () => {
			if (gone) throw new Error(`n8n start exited early:\n${tail(logFile)}`);
			try {
				const response = await fetch(`http://127.0.0.1:${port}/healthz`);
				return response.ok;
			} catch {
				return false;
			}
		},
		180_000,
	);
	return {
		child,
		async stop() {
			if (gone) return;
			try {
				process.kill(-child.pid, 'SIGTERM');
			} catch {
				return;
			}
			const stopped = await Promise.race([exited, sleep(45_000).then(() => null)]);
			if (!stopped) {
				try {
					process.kill(-child.pid, 'SIGKILL');
				} catch {
					/* gone */
				}
				await exited;
			}
		},
	};
}

function tail(file, lines = 60) {
	try {
		return fs.readFileSync(file, 'utf8').split('\n').slice(-lines).join('\n');
	} catch {
		return '';
	}
}

/** Executions of a workflow as n8n recorded them: { id, status, mode, startedAt, ids, versions, received, error }. */
async function recordedExecutions(instance, workflowId) {
	return (await n8n.recordedExecutions(instance, workflowId)).map((e) => {
		const items = n8n.runOutput(e, TRIGGER_NAME);
		return {
			id: e.id,
			status: e.status,
			mode: e.mode,
			startedAt: e.startedAt,
			ids: items.map((i) => i.json.Id),
			versions: items.map((i) => `${i.json.Id}@${i.json.UpdatedDate_DTO}`),
			received: n8n.runOutput(e, 'Received').length,
			error: e.error,
		};
	});
}

/** The emulator's change log turned into the expected emits of one round (changes after `fromSeq`). */
function expectedRound(emu, fromSeq) {
	const last = new Map();
	const first = new Map();
	for (const c of emu.state.workOrderChanges) {
		if (c.seq <= fromSeq) continue;
		if (!first.has(c.workOrderId)) first.set(c.workOrderId, c);
		last.set(c.workOrderId, c);
	}
	const byTime = (a, b) => Date.parse(a.at) - Date.parse(b.at) || a.workOrderId - b.workOrderId;
	const updated = [...last.values()].sort(byTime).map((c) => c.workOrderId);
	const locations = LOCATIONS.split(',').map((s) => Number(s.trim()));
	const completed = [...last.values()]
		.filter((c) => first.get(c.workOrderId).kind !== 'created')
		.filter(
			(c) =>
				c.statusAfter.Primary === 'COMPLETED' &&
				first.get(c.workOrderId).statusBefore.Primary +
					first.get(c.workOrderId).statusBefore.Extended !==
					c.statusAfter.Primary + c.statusAfter.Extended,
		)
		.filter((c) => locations.includes(emu.workOrder(c.workOrderId).LocationId))
		.sort(byTime)
		.map((c) => c.workOrderId);
	return { updated, completed };
}

function lastSeq(emu) {
	return emu.requests.length ? emu.requests[emu.requests.length - 1].seq : 0;
}

function changeSeq(emu) {
	const changes = emu.state.workOrderChanges;
	return changes.length ? changes[changes.length - 1].seq : 0;
}

/** Waits until each workflow has made `count` window reads after request `fromSeq` (the first may have started before). */
async function waitForPolls(emu, fromSeq, count = 2) {
	await waitFor(
		`${count} polls of each workflow`,
		() =>
			windowReads(emu, WF_UPDATED, fromSeq).length >= count &&
			windowReads(emu, WF_STATUS, fromSeq).length >= count,
		(count + 2) * POLL_SECONDS * 1000 + 30_000,
	);
	await sleep(1500); // the executions those polls started
}

/**
 * One n8n version. `check(name, fn)` runs one check (run-e2e.js passes its own); returns nothing.
 * @param {{ version: string, tarball: string, check: (name: string, fn: () => Promise<void>) => Promise<boolean>, log?: (line: string) => void }} o
 */
async function runTriggerE2E({ version, tarball, check, log = (line) => console.log(line) }) {
	const runtime = await n8n.ensureRuntime({ version });
	const instance = await n8n.createInstance({
		runtime,
		encryptionKey: 'wos-trigger-e2e-key-0123456789abcdef',
	});
	const emu = await startEmulator({ port: 0, clockSkewMs: SKEW_MS });
	const logFile = path.join(instance.dir, 'n8n-start.log');
	let server;
	const rounds = [];
	const prefix = `trigger (n8n ${version}):`;
	try {
		const ready = await check(
			`${prefix} install, credential, two workflows (poll every ${POLL_SECONDS} s), activate, n8n start`,
			async () => {
				await n8n.installCommunityPackage(instance, tarball);
				const client = emu.fixtures.clients.main;
				const user = emu.fixtures.users.subscriber;
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
				await n8n.importWorkflows(instance, [
					triggerWorkflow(WF_UPDATED, 'WOS trigger e2e: updated', 'workOrderUpdated', {}),
					triggerWorkflow(WF_STATUS, 'WOS trigger e2e: completed', 'workOrderStatusChanged', {
						statuses: 'COMPLETED',
						locationIds: LOCATIONS,
					}),
				]);
				const major = Number(version.split('.')[0]);
				for (const id of [WF_UPDATED, WF_STATUS]) {
					const args =
						major >= 2
							? ['publish:workflow', `--id=${id}`]
							: ['update:workflow', `--id=${id}`, '--active=true'];
					const res = await n8n.runN8n(instance, args);
					assert.equal(res.code, 0, `n8n ${args.join(' ')} failed:\n${res.stdout}\n${res.stderr}`);
				}
				server = await startN8n(instance, logFile);
				// activation: each workflow reads the service clock and its window at once (and emits nothing)
				await waitFor(
					'both activation polls',
					() => windowReads(emu, WF_UPDATED).length >= 1 && windowReads(emu, WF_STATUS).length >= 1,
					120_000,
				);
				const probes = emu.requests.filter((r) => r.path === LIST && r.query.$top === '1');
				assert.equal(probes.length, 2, 'one service-clock read per workflow');
			},
		);
		if (!ready) return;

		await check(
			`${prefix} n8n polls every ${POLL_SECONDS} s and emits nothing that existed before activation`,
			async () => {
				const from = lastSeq(emu);
				await waitForPolls(emu, from, 2);
				const reads = windowReads(emu, WF_UPDATED, 0);
				const gaps = reads.slice(1).map((r, i) => Date.parse(r.time) - Date.parse(reads[i].time));
				assert.ok(
					gaps.some((g) => Math.abs(g - POLL_SECONDS * 1000) < 3000),
					`poll intervals ${gaps.join(', ')} ms`,
				);
				for (const r of reads) assert.equal(r.status, 200);
			},
		);

		// ---- the rounds of changes (each in one synchronous step)
		const round = async (name, change) => {
			const changes = changeSeq(emu);
			const from = lastSeq(emu);
			const startedAt = Date.now();
			change();
			rounds.push({ name, startedAt, expected: expectedRound(emu, changes) });
			await waitForPolls(emu, from, 2);
		};
		await check(
			`${prefix} rounds of changes in the emulator (one while n8n is stopped), each seen by the next polls`,
			async () => {
				await round('new and changed, one COMPLETED', () => {
					emu.createWorkOrders([{}, { LocationId: 502, Trade: 'PLUMBING' }]);
					emu.updateWorkOrder(90000030, { Description: 'round 1' });
					emu.setWorkOrderStatus(90000011, 'COMPLETED', 'PENDING CONFIRMATION');
					emu.setWorkOrderStatus(90000012, 'IN PROGRESS', 'ON SITE');
				});
				await round('changed twice, one COMPLETED, one new', () => {
					emu.updateWorkOrder(90000030, { Description: 'round 2, first' });
					emu.updateWorkOrder(90000030, { Description: 'round 2, second' });
					emu.setWorkOrderStatus(90000012, 'COMPLETED', 'PENDING CONFIRMATION');
					emu.updateWorkOrder(90000011, { Description: 'completed, now described' });
					emu.createWorkOrder({ LocationId: 503 });
				});
				// n8n stops; work orders change meanwhile; n8n starts again from what it saved (its database)
				await server.stop();
				server = undefined;
				{
					const changes = changeSeq(emu);
					const from = lastSeq(emu);
					const startedAt = Date.now();
					emu.updateWorkOrder(90000030, { Description: 'while n8n was down' });
					emu.setWorkOrderStatus(90000014, 'COMPLETED', 'PENDING CONFIRMATION');
					rounds.push({
						name: 'while n8n was stopped',
						startedAt,
						expected: expectedRound(emu, changes),
					});
					server = await startN8n(instance, logFile);
					await waitForPolls(emu, from, 2);
				}
				await round('two failed polls, then a good one', () => {
					emu.failNext({
						path: LIST,
						status: 500,
						count: 2,
						body: { ErrorCodes: [9000], ErrorCode: 9000, ErrorMessage: 'Database timeout (e2e)' },
					});
					emu.setWorkOrderStatus(90000013, 'COMPLETED', 'CONFIRMED');
					emu.updateWorkOrder(90000031, { Priority: 'P1 - Emergency' });
				});
				await waitForPolls(emu, lastSeq(emu), 1);
				const failed = emu.requests.filter((r) => r.path === LIST && r.status === 500);
				assert.equal(failed.length, 2, 'the two failures were served');
			},
		);

		await server.stop();
		server = undefined;

		const executions = {};
		await check(
			`${prefix} n8n recorded one execution per round and workflow with exactly the changed work orders (each once)`,
			async () => {
				for (const id of [WF_UPDATED, WF_STATUS])
					executions[id] = await recordedExecutions(instance, id);
				const ok = (id) => executions[id].filter((e) => e.status === 'success');
				for (const e of [...ok(WF_UPDATED), ...ok(WF_STATUS)]) {
					assert.equal(e.mode, 'trigger');
					assert.equal(e.received, e.ids.length, 'the items reached the next node');
				}
				assert.deepEqual(
					ok(WF_UPDATED).map((e) => e.ids),
					rounds.map((r) => r.expected.updated),
				);
				assert.deepEqual(
					ok(WF_STATUS).map((e) => e.ids),
					rounds.map((r) => r.expected.completed),
				);
				const versions = ok(WF_UPDATED).flatMap((e) => e.versions);
				assert.equal(new Set(versions).size, versions.length, 'no version emitted twice');
				log(
					`     updated: ${ok(WF_UPDATED)
						.map((e) => `[${e.ids.join(', ')}]`)
						.join(' ')}; completed: ${ok(WF_STATUS)
						.map((e) => `[${e.ids.join(', ')}]`)
						.join(' ')}`,
				);
			},
		);

		await check(
			`${prefix} the failed polls are failed executions with the service's message; nothing else failed`,
			async () => {
				const failed = [...executions[WF_UPDATED], ...executions[WF_STATUS]].filter(
					(e) => e.status !== 'success',
				);
				assert.equal(
					failed.length,
					2,
					JSON.stringify(failed.map(({ id, status, error }) => ({ id, status, error }))),
				);
				for (const e of failed) {
					assert.equal(e.status, 'error');
					assert.match(e.error ?? '', /Database timeout \(e2e\)/);
				}
			},
		);

		await check(
			`${prefix} n8n saved the trigger state with the workflow (cursor in the service's clock, 2 min behind n8n)`,
			async () => {
				for (const id of [WF_UPDATED, WF_STATUS]) {
					const [row] = await n8n.queryDatabase(
						instance,
						'select staticData from workflow_entity where id = ?',
						[id],
					);
					const staticData =
						typeof row.staticData === 'string' ? JSON.parse(row.staticData) : row.staticData;
					const state = staticData?.[`node:${TRIGGER_NAME}`]?.state;
					assert.ok(state, `no trigger state saved for ${id}: ${JSON.stringify(staticData)}`);
					assert.equal(state.version, 2);
					assert.ok(
						Date.parse(state.origin) <= Date.parse(state.cursor),
						'the cursor is never before T0',
					);
					const cursor = Date.parse(state.cursor);
					assert.ok(
						cursor <= emu.now() - 59_000 && cursor > emu.now() - 10 * 60_000,
						`cursor ${state.cursor} vs service now ${new Date(emu.now()).toISOString()}`,
					);
					assert.ok(
						cursor < Date.now() - 2 * 60_000,
						"the cursor is in the service clock, not n8n's",
					);
					if (id === WF_STATUS) {
						assert.ok(state.statuses.ids.split(',').length >= 120, 'statuses remembered');
						assert.equal(state.baseline, undefined, 'settled');
					}
				}
			},
		);

		await largeTenant({ version, instance, logFile, check, log, prefix });
	} finally {
		if (server) await server.stop();
		await emu.close();
		if (process.env.N8N_E2E_KEEP === '1') log(`     kept ${instance.dir}`);
		await n8n.destroyInstance(instance);
	}
}

/** Status reads (the Status Changed baseline) and window reads of the large tenant's emulator. */
const isWindowRead = (r) =>
	r.path === LIST && r.query.$skip !== undefined && /^UpdatedDate ge /.test(r.query.$filter ?? '');

/**
 * The requests of an activation: from `fromSeq` up to the window read of the first cron poll after
 * it. A first activation reads no window (`ownWindowReads` 0); n8n starting again with a saved
 * state reads one in its activation poll (1).
 */
function activationRequests(emu, fromSeq, ownWindowReads = 0) {
	const after = emu.requests.filter((r) => r.seq > fromSeq);
	let seen = 0;
	const end = after.findIndex((r) => isWindowRead(r) && ++seen > ownWindowReads);
	return end < 0 ? after : after.slice(0, end);
}

/** Executions of the large-tenant workflow that emitted work order `id`. */
async function emittedCount(instance, id) {
	const executions = await recordedExecutions(instance, WF_LARGE);
	return executions
		.filter((e) => e.status === 'success')
		.flatMap((e) => e.ids)
		.filter((x) => x === id).length;
}

/** Issue 17: Status Changed on 5,100 work orders at the sandbox's 40 requests per minute. */
async function largeTenant({ version, instance, logFile, check, log, prefix }) {
	const big = await startEmulator({ port: 0, workOrderCount: LARGE_TENANT });
	big.setFaults({ rateLimit: SANDBOX_RATE });
	let server;
	const major = Number(version.split('.')[0]);
	const other = (id) =>
		big.workOrder(id).Status.Primary === 'COMPLETED'
			? ['IN PROGRESS', 'ON SITE']
			: ['COMPLETED', 'PENDING CONFIRMATION'];
	const waitForEmit = async (id, what) =>
		waitFor(what, async () => (await emittedCount(instance, id)) >= 1, 300_000).then(async () => {
			await sleep(2 * POLL_SECONDS * 1000); // and no second one
			assert.equal(await emittedCount(instance, id), 1, `work order ${id} emitted once`);
		});
	try {
		const activated = await check(
			`${prefix} large tenant (${LARGE_TENANT} work orders, ${SANDBOX_RATE.limit} requests/min): Status Changed published and activated within a few requests and seconds; publication not failed; state saved`,
			async () => {
				const client = big.fixtures.clients.main;
				const user = big.fixtures.users.subscriber;
				await n8n.importCredentials(instance, [
					{
						...LARGE_CREDENTIAL,
						type: 'workOrderServiceApi',
						data: {
							authServerUrl: big.authUrl,
							baseUrl: big.baseUrl,
							clientId: client.clientId,
							clientSecret: client.clientSecret,
							username: user.username,
							password: user.password,
							subsidiaryId: '',
						},
					},
				]);
				await n8n.importWorkflows(instance, [
					triggerWorkflow(
						WF_LARGE,
						'WOS trigger e2e: large tenant',
						'workOrderStatusChanged',
						{},
						{ credential: LARGE_CREDENTIAL, requestOptions: {} },
					),
				]);
				const args =
					major >= 2
						? ['publish:workflow', `--id=${WF_LARGE}`]
						: ['update:workflow', `--id=${WF_LARGE}`, '--active=true'];
				const res = await n8n.runN8n(instance, args);
				assert.equal(res.code, 0, `n8n ${args.join(' ')} failed:\n${res.stdout}\n${res.stderr}`);
				const startedAt = Date.now();
				server = await startN8n(instance, logFile);
				await waitFor(
					'the first poll after the activation',
					() => big.requests.some(isWindowRead),
					180_000,
				);
				const requests = activationRequests(big, 0);
				const api = requests.filter((r) => r.path.startsWith('/api/'));
				const first = Date.parse(requests[0].time);
				const last = requests[requests.length - 1];
				const spanMs = Date.parse(last.time) + (last.durationMs ?? 0) - first;
				log(
					`     activation: ${requests.length} requests (${api.length} to the API, ${api.filter((r) => r.query.$orderby === 'Id desc').length} status pages) in ${(spanMs / 1000).toFixed(1)} s; n8n ready after ${Math.round((Date.now() - startedAt) / 1000)} s`,
				);
				assert.ok(requests.length <= 10, `activation made ${requests.length} requests`);
				assert.ok(spanMs <= 20_000, `activation took ${spanMs} ms`);
				assert.equal(
					requests.filter((r) => r.status === 429).length,
					0,
					'no throttled request at activation',
				);
				assert.doesNotMatch(
					fs.readFileSync(logFile, 'utf8'),
					/exceeded its deadline|There was a problem activating the workflow/,
				);
				const [row] = await n8n.queryDatabase(
					instance,
					'select active, staticData from workflow_entity where id = ?',
					[WF_LARGE],
				);
				assert.ok(
					row.active === 1 || row.active === true,
					`workflow active: ${JSON.stringify(row.active)}`,
				);
				if (major >= 2) {
					const outbox = await n8n.queryDatabase(
						instance,
						'select * from workflow_publication_outbox where workflowId = ?',
						[WF_LARGE],
					);
					log(`     publication outbox: ${outbox.map((o) => o.status).join(', ') || '(none)'}`);
					assert.ok(
						outbox.every((o) => o.status !== 'failed'),
						JSON.stringify(outbox),
					);
				}
				const staticData =
					typeof row.staticData === 'string' ? JSON.parse(row.staticData) : row.staticData;
				const state = staticData?.[`node:${TRIGGER_NAME}`]?.state;
				assert.ok(
					state && state.version === 2 && state.baseline && state.baseline.after,
					`saved state after activation: ${JSON.stringify(state)?.slice(0, 300)}`,
				);
			},
		);
		if (!activated) return;

		await check(
			`${prefix} large tenant: a status change is emitted once while the trigger settles under the rate limit`,
			async () => {
				const id = 90005077; // its status as of T0 was read at activation (highest Ids first)
				big.setWorkOrderStatus(id, ...other(id));
				await waitForEmit(id, `the status change of ${id}`);
				const throttled = big.requests.filter((r) => r.status === 429).length;
				log(
					`     ${big.requests.filter((r) => r.path === LIST).length} list reads so far, ${throttled} throttled (429) and waited out`,
				);
			},
		);

		await check(
			`${prefix} large tenant: after a restart the workflow is active (a few requests) and the next changes are emitted once`,
			async () => {
				await server.stop();
				server = undefined;
				big.resetFaults(); // the rate limit is lifted: the rest is about n8n, not about waiting
				const down = 90000500;
				big.setWorkOrderStatus(down, ...other(down)); // while n8n is down
				const from = big.requests.length ? big.requests[big.requests.length - 1].seq : 0;
				server = await startN8n(instance, logFile);
				await waitFor(
					'the first poll after the restart',
					() => big.requests.filter((r) => r.seq > from && isWindowRead(r)).length >= 2,
					180_000,
				);
				const restart = activationRequests(big, from, 1);
				log(
					`     restart: the activation poll made ${restart.length} requests (${restart.filter((r) => r.query.$orderby === 'Id desc').length} status pages)`,
				);
				assert.ok(
					restart.length <= 10,
					`the activation after the restart made ${restart.length} requests`,
				);
				assert.doesNotMatch(
					fs.readFileSync(logFile, 'utf8'),
					/exceeded its deadline|There was a problem activating the workflow/,
				);
				await waitForEmit(down, `the change made while n8n was down (${down})`);
				const next = 90003333;
				big.setWorkOrderStatus(next, ...other(next));
				await waitForEmit(next, `the next change after the restart (${next})`);
				const executions = (await recordedExecutions(instance, WF_LARGE)).filter(
					(e) => e.status === 'success',
				);
				const ids = executions.flatMap((e) => e.ids);
				assert.deepEqual(
					[...ids].sort(),
					[90000500, 90003333, 90005077],
					`emitted ${JSON.stringify(ids)}`,
				);
				const failed = (await recordedExecutions(instance, WF_LARGE)).filter(
					(e) => e.status !== 'success',
				);
				assert.equal(failed.length, 0, JSON.stringify(failed));
			},
		);
	} finally {
		if (server) await server.stop();
		await big.close();
	}
}

// ------------------------------------------------------------------ standalone
async function main() {
	await n8n.runStandalone({
		label: 'trigger',
		packPrefix: 'wos-trigger-pack-',
		run: runTriggerE2E,
	});
}

if (require.main === module) {
	main().catch((err) => {
		console.error(err);
		process.exitCode = 1;
	});
}

module.exports = { runTriggerE2E, startN8n, waitFor, tail };
