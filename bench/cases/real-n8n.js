'use strict';
/**
 * Case 3: in the real n8n 2.41.1 runtime of the e2e set-up (test/e2e/n8n.js), the same 1,000
 * work-order NTE updates (PUT /workorders/{id}/nte, a new amount per item: an update the service
 * allows again and again) through this node vs through n8n's HTTP Request node (4.2) with this
 * package's credential as "predefined credential type" (workOrderServiceApi), each with `n8n execute`.
 *
 * All three workflows start the same way: Manual Trigger -> Edit Fields (JSON: a list of 1,000)
 * -> Split Out (1,000 items). "empty" stops there (the start-up baseline); "node" and "http" add
 * the node under test. Each of the two has its own (identical) credential; one warm-up execution
 * each logs in (its token requests are recorded), then rounds of empty/node/http in rotating order.
 *
 * Figures: the node's own execution time as n8n reports it (runData[node][0].executionTime), and,
 * as a cross-check, wall time of `n8n execute` minus the median wall time of the empty workflow.
 */
const fs = require('node:fs');
const path = require('node:path');
const { startEmulator } = require('../../test/emulator');
const S = require('../../test/support');
const { median, round, log } = require('../lib/util');
const { listWorkflow, uuidFor } = require('../lib/list-workflow');

const N8N_JS = path.join(__dirname, '..', '..', 'test', 'e2e', 'n8n.js');

function notRun(reason, extra = {}) {
	return { status: 'not run', reason, met: null, ...extra };
}

function workflows(emulator, workOrderId, items) {
	const uuid = uuidFor('b0000000');
	const withLast = (id, name, node) => listWorkflow({ id, name, items, uuid, last: node });
	return [
		listWorkflow({ id: 'benchEmpty', name: 'bench: start-up baseline', items, uuid }),
		withLast('benchNode', 'bench: Work Order Service node', {
			id: uuid(4),
			name: 'Work Order Service',
			type: 'n8n-nodes-work-order-service.workOrderService',
			typeVersion: 1,
			position: [660, 0],
			parameters: {
				authentication: 'password',
				resource: 'workOrder',
				operation: 'updateNte',
				workOrderId,
				nte: '={{ 100 + $json.list }}',
			},
			credentials: { workOrderServiceApi: { id: 'benchCredNode001', name: 'Bench (node)' } },
		}),
		withLast('benchHttp', 'bench: HTTP Request node', {
			id: uuid(5),
			name: 'HTTP Request',
			type: 'n8n-nodes-base.httpRequest',
			typeVersion: 4.2,
			position: [660, 0],
			parameters: {
				method: 'PUT',
				url: `${emulator.baseUrl}/v3/workorders/${workOrderId}/nte`,
				authentication: 'predefinedCredentialType',
				nodeCredentialType: 'workOrderServiceApi',
				sendBody: true,
				specifyBody: 'json',
				jsonBody: '={{ JSON.stringify({ Value: String(100 + $json.list) }) }}',
				options: {},
			},
			credentials: {
				workOrderServiceApi: { id: 'benchCredHttp001', name: 'Bench (HTTP Request)' },
			},
		}),
	];
}

const NODE_OF = {
	benchNode: 'Work Order Service',
	benchHttp: 'HTTP Request',
	benchEmpty: 'Split Out',
};

async function run({ rounds = 3, items = 1000, tarball, emulatorPort = 0 }) {
	let n8n;
	try {
		n8n = require(N8N_JS);
	} catch (e) {
		return notRun(`test/e2e/n8n.js cannot be loaded: ${e.message}`);
	}
	if (!tarball || !fs.existsSync(tarball)) return notRun('no packed tarball (case 7 packs it)');

	const emulator = await startEmulator({ logBodies: false, port: emulatorPort });
	let inst;
	const setupStarted = Date.now();
	try {
		// installs n8n (and its Node 24) when it is not there yet: minutes, once
		const runtime = await n8n.ensureRuntime({ log: null });
		inst = await n8n.createInstance({ runtime });
		await n8n.installCommunityPackage(inst, tarball);
		const data = S.passwordCredential(emulator, 'subscriber');
		await n8n.importCredentials(inst, [
			{ id: 'benchCredNode001', name: 'Bench (node)', type: 'workOrderServiceApi', data },
			{ id: 'benchCredHttp001', name: 'Bench (HTTP Request)', type: 'workOrderServiceApi', data },
		]);
		await n8n.importWorkflows(
			inst,
			workflows(emulator, emulator.fixtures.workOrders.noChecklist, items),
		);
		const setupMs = Date.now() - setupStarted;
		log(`case 3: n8n instance ready in ${setupMs} ms (emulator ${emulator.origin})`);

		const once = async (id) => {
			emulator.clearRequests();
			const r = await n8n.execute(inst, id, { timeoutMs: 300_000 });
			const api = S.apiRequests(emulator);
			const tokens = emulator.tokenRequests().length;
			const resultData = r.result?.data?.resultData;
			const task = resultData?.runData?.[NODE_OF[id]]?.[0];
			const outItems = task?.data?.main?.[0]?.length ?? 0;
			const failed = api.filter((q) => !(q.status >= 200 && q.status < 300)).length;
			if (
				!r.ok ||
				outItems !== items ||
				(id !== 'benchEmpty' && (api.length !== items || failed))
			) {
				const why = r.crashed
					? `crashed (code ${r.code}, signal ${r.signal})`
					: r.timedOut
						? 'timed out'
						: (r.errorMessage ?? `exit ${r.code}`);
				throw new Error(
					`n8n execute ${id}: ${why}; ${outItems}/${items} items, ${api.length} API requests (${failed} failed)\n${r.stdout.split('\n').slice(-15).join('\n')}`,
				);
			}
			return {
				wallMs: r.ms,
				nodeMs: task.executionTime,
				executionMs: new Date(r.result.stoppedAt) - new Date(r.result.startedAt),
				apiRequests: api.length,
				apiOk: api.length - failed,
				tokenRequests: tokens,
			};
		};

		const warmup = { benchNode: await once('benchNode'), benchHttp: await once('benchHttp') };
		log(
			`case 3: warm-up: node ${warmup.benchNode.nodeMs} ms (${warmup.benchNode.tokenRequests} token requests), HTTP Request ${warmup.benchHttp.nodeMs} ms (${warmup.benchHttp.tokenRequests} token requests)`,
		);
		const ids = ['benchEmpty', 'benchNode', 'benchHttp'];
		const samples = Object.fromEntries(ids.map((id) => [id, []]));
		for (let r = 0; r < rounds; r++) {
			for (let k = 0; k < ids.length; k++) {
				const id = ids[(k + r) % ids.length];
				samples[id].push(await once(id));
			}
			log(
				`case 3: round ${r + 1}/${rounds}: ${ids.map((id) => `${id} ${samples[id].at(-1).wallMs} ms wall / ${samples[id].at(-1).nodeMs} ms node`).join(', ')}`,
			);
		}
		const m = (id, k) => median(samples[id].map((s) => s[k]));
		const emptyWall = m('benchEmpty', 'wallMs');
		const arm = (id) => ({
			nodeExecutionMs: m(id, 'nodeMs'),
			executionMs: m(id, 'executionMs'),
			wallMs: m(id, 'wallMs'),
			wallMinusStartupMs: m(id, 'wallMs') - emptyWall,
			itemsPerSecond: round(items / (m(id, 'nodeMs') / 1000), 1),
			tokenRequestsWarmup: warmup[id].tokenRequests,
			tokenRequestsMeasured: samples[id].reduce((a, s) => a + s.tokenRequests, 0),
			samples: samples[id].map((s) => ({ nodeMs: s.nodeMs, wallMs: s.wallMs })),
		});
		const node = arm('benchNode');
		const httpNode = arm('benchHttp');
		const ratio = httpNode.nodeExecutionMs / node.nodeExecutionMs;
		const wallRatio = httpNode.wallMinusStartupMs / node.wallMinusStartupMs;
		const counted = (id) => ({
			label: id === 'benchNode' ? 'node' : 'HTTP Request',
			delivered: Math.min(...[warmup[id], ...samples[id]].map((x) => x.apiOk)),
			sent: items,
		});
		return {
			status: 'run',
			deliveries: [counted('benchNode'), counted('benchHttp')],
			n8nVersion: n8n.N8N_VERSION,
			nodeRuntime: n8n.NODE_VERSION,
			items,
			rounds,
			setupMs,
			emulator: emulator.origin,
			startupBaselineWallMs: emptyWall,
			startupBaselineSamples: samples.benchEmpty.map((s) => s.wallMs),
			node,
			httpRequest: httpNode,
			ratio: round(ratio, 3),
			wallRatio: round(wallRatio, 3),
			method:
				'ratio = HTTP Request node execution time / Work Order Service node execution time, both as n8n reports them (runData[node][0].executionTime), medians over rounds; cross-check: (wall of `n8n execute` - median wall of the same workflow without the last node) for each, same ratio',
			note: "n8n's HTTP Request node (4.2) sends all items' requests at once unless Batching is set; this node sends up to its Concurrency (default 30) at a time",
			met: ratio >= 1.0,
		};
	} catch (e) {
		return {
			status: 'error',
			error: `failed while running: ${String(e.message).split('\n').slice(0, 4).join(' | ')}`,
			stack: String(e.stack || e).slice(0, 4000),
			met: false,
		};
	} finally {
		if (inst) await n8n.destroyInstance(inst).catch(() => {});
		await emulator.close();
	}
}

module.exports = { run };
