'use strict';
/**
 * Case 8: a batch at the service's pace, in the real n8n 2.41.1 runtime of the e2e
 * set-up, with the emulator answering every request after 200 ms (a service 150-400 ms away).
 *
 * The workload is repeatable: every item updates the NTE of one work order (PUT
 * /workorders/{id}/nte, `{ Value: "<100 + n>", Actor: "<execution>-<n>" }`, an update the service
 * allows again and again), the Actor tagging the item, so that deliveries and duplicates are
 * counted from the emulator's log (200 answers per tag).
 *
 * Arms, each a workflow "Manual Trigger -> Edit Fields (a list) -> Split Out -> <last node>" run
 * with `n8n execute`:
 *   node      this node, default Request Options (Concurrency 30)
 *   node-c1   this node, Concurrency 1 (one request after another)
 *   http      n8n's HTTP Request node 4.2 with this package's credential, default (all items at once)
 *   http-b    the same, Batching set to the limit (items per batch / interval)
 * Scenarios (targets of issue 36):
 *   A  100 updates, no rate limit: node time <= 1.2x the HTTP Request node's (median of rounds,
 *      node and HTTP Request interleaved)
 *   B  100 updates, 60/min limit (sliding window per client, 429 + Retry-After in seconds):
 *      node <= 1.05x the window floor, 0 lost, 0 doubled; the HTTP Request node beside
 *   C  1,000 updates, 300/min limit: the same
 *   D  token requests for 1,000 concurrent items: a fresh credential, then all tokens revoked in the
 *      middle of the run (target 1 / 1; child subscriber 2 / 2)
 * `--quick`: A with one round, B with the node and the HTTP Request node (all at once) only, no C,
 * D with 300 items and the password credential only.
 * Times are the last node's execution time as n8n reports it (runData[node][0].executionTime).
 */
const fs = require('node:fs');
const path = require('node:path');
const { startEmulator } = require('../../test/emulator');
const S = require('../../test/support');
const { round, log } = require('../lib/util');
const { listWorkflow, uuidFor } = require('../lib/list-workflow');

const N8N_JS = path.join(__dirname, '..', '..', 'test', 'e2e', 'n8n.js');
const LATENCY_MS = 200;
const uuid = uuidFor('c0000000');

function notRun(reason, extra = {}) {
	return { status: 'not run', reason, met: null, ...extra };
}

/** One workflow per arm and size: the last node updates the NTE of `workOrderId`, tagged per item. */
function workflow(id, arm, { items, workOrderId, baseUrl, credentialId, batch }) {
	const tag = `={{ $execution.id + '-' + $json.list }}`;
	let last;
	if (arm === 'node' || arm === 'node-c1') {
		last = {
			id: uuid(4),
			name: 'Last',
			type: 'n8n-nodes-work-order-service.workOrderService',
			typeVersion: 1,
			position: [660, 0],
			parameters: {
				authentication: 'password',
				resource: 'workOrder',
				operation: 'updateNte',
				workOrderId,
				nte: '={{ 100 + $json.list }}',
				additionalFields: { actor: tag },
				...(arm === 'node-c1' ? { requestOptions: { concurrency: 1 } } : {}),
			},
			credentials: { workOrderServiceApi: { id: credentialId, name: credentialId } },
		};
	} else {
		last = {
			id: uuid(5),
			name: 'Last',
			type: 'n8n-nodes-base.httpRequest',
			typeVersion: 4.2,
			position: [660, 0],
			parameters: {
				method: 'PUT',
				url: `${baseUrl}/v3/workorders/${workOrderId}/nte`,
				authentication: 'predefinedCredentialType',
				nodeCredentialType: 'workOrderServiceApi',
				sendBody: true,
				specifyBody: 'json',
				jsonBody: `={{ JSON.stringify({ Value: String(100 + $json.list), Actor: $execution.id + '-' + $json.list }) }}`,
				options:
					arm === 'http-b'
						? { batching: { batch: { batchSize: batch.size, batchInterval: batch.intervalMs } } }
						: {},
			},
			credentials: { workOrderServiceApi: { id: credentialId, name: credentialId } },
		};
	}
	return listWorkflow({ id, name: `bench 8: ${arm} x ${items}`, items, uuid, last });
}

/**
 * Floor of a sliding window limit: `limit` requests per `windowMs`, the first at 0: the n-th
 * request (0-based) cannot start before floor(n / limit) windows. Plus one answer's latency.
 */
function windowFloorMs(items, limit, windowMs) {
	return Math.floor((items - 1) / limit) * windowMs + LATENCY_MS;
}

const median = (list) => {
	const v = list.filter((x) => typeof x === 'number').sort((a, b) => a - b);
	if (!v.length) return null;
	const m = v.length >> 1;
	return v.length % 2 ? v[m] : (v[m - 1] + v[m]) / 2;
};

/**
 * `baselineTarball`: the baseline package (e.g. the previous release, one request after another); when given,
 * scenarios A-C also run it (arm `before`, in its own n8n instance, same emulator and run).
 */
async function run({
	tarball,
	baselineTarball,
	quick = false,
	scenarios = quick ? ['A', 'B', 'D'] : ['A', 'B', 'C', 'D'],
	rounds = quick ? 1 : 3,
}) {
	let n8n;
	try {
		n8n = require(N8N_JS);
	} catch (e) {
		return notRun(`test/e2e/n8n.js cannot be loaded: ${e.message}`);
	}
	if (!tarball || !fs.existsSync(tarball)) return notRun('no packed tarball');

	const emulator = await startEmulator();
	const workOrderId = emulator.fixtures.workOrders.noChecklist;
	let inst;
	let baseInst;
	const results = {
		status: 'run',
		n8nVersion: n8n.N8N_VERSION,
		latencyMs: LATENCY_MS,
		quick,
		workload: `work order updateNte ${workOrderId} per item (PUT /v3/workorders/${workOrderId}/nte, { Value, Actor: <execution>-<n> })`,
		scenarios: {},
		deliveries: [],
	};
	try {
		// installs n8n (and its Node 24) when it is not there yet: minutes, once
		const runtime = await n8n.ensureRuntime({ log: null });
		inst = await n8n.createInstance({ runtime });
		await n8n.installCommunityPackage(inst, tarball);
		const data = S.passwordCredential(emulator, 'subscriber');
		const child = S.passwordCredential(emulator, 'universal', { subsidiaryId: '2001' });
		const credentials = [
			{ id: 'b8CredWarm000001', name: 'b8 warm', type: 'workOrderServiceApi', data },
			{ id: 'b8CredFresh00001', name: 'b8 fresh', type: 'workOrderServiceApi', data },
			{ id: 'b8CredChild00001', name: 'b8 child', type: 'workOrderServiceApi', data: child },
		];
		await n8n.importCredentials(inst, credentials);
		const sizes = { A: 100, B: 100, C: 1000 };
		const wf = [];
		const batches = {
			A: { size: 100, intervalMs: 0 },
			B: { size: 1, intervalMs: 1000 },
			C: { size: 5, intervalMs: 1000 },
		};
		for (const [key, items] of Object.entries(sizes)) {
			for (const arm of ['node', 'node-c1', 'http', 'http-b']) {
				wf.push(
					workflow(`b8${key}${arm.replace('-', '')}`.padEnd(16, '0'), arm, {
						items,
						workOrderId,
						baseUrl: emulator.baseUrl,
						credentialId: 'b8CredWarm000001',
						batch: batches[key],
					}),
				);
			}
		}
		const childItems = quick ? 300 : 1000;
		wf.push(
			workflow('b8Dfresh00000000', 'node', {
				items: childItems,
				workOrderId,
				baseUrl: emulator.baseUrl,
				credentialId: 'b8CredFresh00001',
			}),
		);
		wf.push(
			workflow('b8Dchild00000000', 'node', {
				items: childItems,
				workOrderId: emulator.fixtures.workOrders.child2001[0],
				baseUrl: emulator.baseUrl,
				credentialId: 'b8CredChild00001',
			}),
		);
		await n8n.importWorkflows(inst, wf);
		if (baselineTarball && fs.existsSync(baselineTarball)) {
			baseInst = await n8n.createInstance({ runtime });
			await n8n.installCommunityPackage(baseInst, baselineTarball);
			await n8n.importCredentials(baseInst, credentials);
			await n8n.importWorkflows(
				baseInst,
				Object.entries(sizes).map(([key, items]) =>
					workflow(`b8${key}before`.padEnd(16, '0'), 'node', {
						items,
						workOrderId,
						baseUrl: emulator.baseUrl,
						credentialId: 'b8CredWarm000001',
					}),
				),
			);
			results.baseline = path.basename(baselineTarball);
		}

		/** Runs one workflow; counts deliveries per tag of this execution from the emulator's log. */
		const once = async (id, items, instance = inst) => {
			emulator.clearRequests();
			const started = Date.now();
			const r = await n8n.execute(instance, id, { timeoutMs: 900_000 });
			const wallMs = Date.now() - started;
			const executionId = String(r.result?.id ?? r.result?.executionId ?? '');
			const task = r.result?.data?.resultData?.runData?.Last?.[0];
			const puts = emulator.requests.filter(
				(q) => q.method === 'PUT' && q.path.startsWith('/api/'),
			);
			const delivered = new Map();
			for (const q of puts) {
				if (q.status !== 200) continue;
				const tag = q.body?.Actor;
				delivered.set(tag, (delivered.get(tag) ?? 0) + 1);
			}
			const duplicates = [...delivered.values()].reduce((n, c) => n + Math.max(0, c - 1), 0);
			return {
				ok: r.ok,
				error: r.ok ? undefined : String(r.errorMessage ?? '').slice(0, 200),
				nodeMs: task?.executionTime ?? null,
				wallMs,
				delivered: delivered.size,
				duplicates,
				throttled: puts.filter((q) => q.status === 429 || q.status === 503).length,
				puts: puts.length,
				tokenRequests: emulator.tokenRequests().length,
				executionId,
				items,
			};
		};
		const setLimit = (limit) => {
			emulator.resetFaults();
			emulator.setFaults({
				latencyMs: LATENCY_MS,
				...(limit ? { rateLimit: { limit, windowMs: 60_000, retryAfter: 'seconds' } } : {}),
			});
		};
		/** delivered/sent of an arm; `contrast`: reported beside, not counted (run.js). */
		const deliveries = (scenario, arm, r, contrast = false) =>
			results.deliveries.push({
				label: `8${scenario} ${arm}`,
				delivered: r.delivered,
				sent: r.items,
				duplicates: r.duplicates,
				...(contrast ? { contrast: true } : {}),
				...(r.ok ? {} : { error: r.error }),
			});

		// warm-up: the shared credential logs in once (in each instance); n8n's first start
		setLimit(0);
		log('case 8: n8n instance ready; warm-up executions (node, HTTP Request)');
		const warm = [
			await once(`b8Anode`.padEnd(16, '0'), sizes.A),
			await once(`b8Ahttp`.padEnd(16, '0'), sizes.A),
		];
		warm.forEach((r, k) => deliveries('A', `warm-up ${k ? 'HTTP Request' : 'node'}`, r));
		if (baseInst) await once('b8Abefore'.padEnd(16, '0'), sizes.A, baseInst);
		const armList = (list) => (baseInst ? [...list, 'before'] : list);
		const runArm = (key, arm, items) =>
			arm === 'before'
				? once(`b8${key}before`.padEnd(16, '0'), items, baseInst)
				: once(`b8${key}${arm.replace('-', '')}`.padEnd(16, '0'), items);

		if (scenarios.includes('A')) {
			// node and HTTP Request interleaved, `rounds` times each (the order alternating)
			const samples = { node: [], http: [] };
			for (let r = 0; r < rounds; r++) {
				for (const arm of r % 2 ? ['http', 'node'] : ['node', 'http']) {
					setLimit(0);
					const one = await runArm('A', arm, sizes.A);
					samples[arm].push(one);
					log(
						`case 8 A round ${r + 1}/${rounds}: ${arm}: ${one.nodeMs} ms, ${one.delivered}/${sizes.A} delivered, ${one.duplicates} dup`,
					);
				}
			}
			const summarise = (list) => ({
				...list[0],
				nodeMs: median(list.map((x) => x.nodeMs)),
				samplesMs: list.map((x) => x.nodeMs),
				delivered: Math.min(...list.map((x) => x.delivered)),
				duplicates: Math.max(...list.map((x) => x.duplicates)),
				ok: list.every((x) => x.ok),
				error: list.find((x) => !x.ok)?.error,
			});
			const arms = { node: summarise(samples.node), http: summarise(samples.http) };
			for (const arm of quick ? [] : armList(['node-c1'])) {
				setLimit(0);
				arms[arm] = await runArm('A', arm, sizes.A);
				log(`case 8 A: ${arm}: ${arms[arm].nodeMs} ms, ${arms[arm].delivered}/${sizes.A}`);
			}
			for (const [arm, r] of Object.entries(arms)) deliveries('A', arm, r);
			const ratio = arms.node.nodeMs / arms.http.nodeMs;
			results.scenarios.A = {
				items: sizes.A,
				rounds,
				arms,
				ratio: round(ratio, 2),
				perRoundRatios: samples.node.map((n, i) => round(n.nodeMs / samples.http[i].nodeMs, 2)),
				target: "<= 1.2x the HTTP Request node's time, 100/100, 0 doubled",
				met:
					ratio <= 1.2 &&
					arms.node.delivered === sizes.A &&
					arms.node.duplicates === 0 &&
					arms.http.delivered === sizes.A,
			};
		}
		for (const [key, limit] of [
			['B', 60],
			['C', 300],
		]) {
			if (!scenarios.includes(key)) continue;
			const items = sizes[key];
			const floorMs = windowFloorMs(items, limit, 60_000);
			const arms = {};
			for (const arm of armList(quick ? ['node', 'http'] : ['node', 'http', 'http-b', 'node-c1'])) {
				setLimit(limit);
				// a fresh window for every arm
				await new Promise((resolve) => setTimeout(resolve, 100));
				arms[arm] = await runArm(key, arm, items);
				arms[arm].vsFloor = arms[arm].nodeMs ? round(arms[arm].nodeMs / floorMs, 3) : null;
				log(
					`case 8 ${key}: ${arm}: ${arms[arm].nodeMs} ms (${arms[arm].vsFloor}x floor ${floorMs} ms), ${arms[arm].delivered}/${items} delivered, ${arms[arm].duplicates} duplicates, ${arms[arm].throttled} throttled answers${arms[arm].ok ? '' : `; failed: ${arms[arm].error}`}`,
				);
				// under a limit the HTTP Request node (no retry on 429) is the contrast: reported, not counted
				deliveries(key, arm, arms[arm], arm.startsWith('http'));
			}
			const node = arms.node;
			results.scenarios[key] = {
				items,
				limitPerMinute: limit,
				floorMs,
				arms,
				target: `<= 1.05x the window floor, ${items}/${items}, 0 doubled`,
				met:
					node.delivered === items &&
					node.duplicates === 0 &&
					node.nodeMs !== null &&
					node.nodeMs <= floorMs * 1.05,
			};
		}
		if (scenarios.includes('D')) {
			const counts = {};
			const kinds = [
				['password', 'b8Dfresh00000000', 1],
				['child subscriber', 'b8Dchild00000000', 2],
			];
			// quick: the password credential only
			for (const [label, id, credentialIdx] of quick ? kinds.slice(0, 1) : kinds) {
				setLimit(0);
				emulator.setFaults({ latencyMs: 20 });
				// fresh credential: no token yet
				const cred = credentials[credentialIdx];
				await n8n.importCredentials(inst, [cred]);
				const first = await once(id, childItems);
				// all tokens revoked after a third of the updates
				let updates = 0;
				emulator.onResponse = (entry) => {
					if (
						entry.method === 'PUT' &&
						entry.status === 200 &&
						++updates === Math.floor(childItems / 3)
					)
						emulator.revokeAccessTokens();
				};
				const revoked = await once(id, childItems);
				emulator.onResponse = null;
				counts[label] = {
					fresh: first.tokenRequests,
					revokedMidRun: revoked.tokenRequests,
					delivered: [first.delivered, revoked.delivered],
					duplicates: first.duplicates + revoked.duplicates,
				};
				deliveries('D', `${label}, fresh credential`, first);
				deliveries('D', `${label}, tokens revoked mid-run`, revoked);
				log(
					`case 8 D: ${label}: ${first.tokenRequests} token requests fresh, ${revoked.tokenRequests} after revocation mid-run; delivered ${first.delivered}/${childItems}, ${revoked.delivered}/${childItems}`,
				);
			}
			results.scenarios.D = {
				items: childItems,
				counts,
				target: '1 / 1 (child subscriber: 2 / 2: a password grant + the scoping exchange)',
				met:
					counts.password.fresh === 1 &&
					counts.password.revokedMidRun === 1 &&
					(!counts['child subscriber'] ||
						(counts['child subscriber'].fresh === 2 &&
							counts['child subscriber'].revokedMidRun <= 2)),
			};
		}
		results.met = Object.values(results.scenarios).every((s) => s.met);
		return results;
	} catch (e) {
		return {
			status: 'error',
			error: `failed while running: ${String(e.message).split('\n').slice(0, 4).join(' | ')}`,
			stack: String(e.stack || e).slice(0, 4000),
			partial: results,
			met: false,
		};
	} finally {
		if (inst) await n8n.destroyInstance(inst).catch(() => {});
		if (baseInst) await n8n.destroyInstance(baseInst).catch(() => {});
		await emulator.close();
	}
}

module.exports = { run, windowFloorMs };

if (require.main === module) {
	const tarball = process.argv.find((a) => a.endsWith('.tgz') && !a.startsWith('--baseline='));
	const baselineTarball = process.argv.find((a) => a.startsWith('--baseline='))?.split('=')[1];
	const only = (process.argv.find((a) => a.startsWith('--scenarios=')) ?? '--scenarios=A,B,C,D')
		.split('=')[1]
		.split(',');
	run({ tarball, baselineTarball, scenarios: only, quick: process.argv.includes('--quick') }).then(
		(r) => {
			console.log(JSON.stringify(r, (k, v) => (k === 'samples' ? undefined : v), 2));
		},
	);
}
