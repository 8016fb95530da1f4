'use strict';
/**
 * Case 8: a batch at the service's pace, in the real n8n 2.41.1 runtime of the e2e
 * set-up, with the emulator answering every request after 200 ms (a service 150-400 ms away).
 *
 * Arms, each a workflow "Manual Trigger -> Edit Fields (a list) -> Split Out -> <last node>" run
 * with `n8n execute`, every item tagged (proposal Comments = "<run>-<n>") so that deliveries and
 * duplicates are counted from the emulator's log (204 answers per tag):
 *   node      this node, default Request Options (Concurrency 20)
 *   node-c1   this node, Concurrency 1 (one request after another, as before)
 *   http      n8n's HTTP Request node 4.2 with this package's credential, default (all items at once)
 *   http-b    the same, Batching set to the limit (items per batch / interval)
 * Scenarios:
 *   A  100 updates, no rate limit: node time vs HTTP Request time (target <= 1.5x)
 *   B  100 updates, 60/min limit (sliding window per client, 429 + Retry-After in seconds):
 *      delivered, duplicates, time vs the window floor (~60 s; target 100/100, <= 66 s, 0 duplicates)
 *   C  1,000 updates, 300/min limit: delivered, duplicates, time vs floor (target 1,000, 0, <= 1.1x)
 *   D  token requests for 1,000 concurrent items: a fresh credential, then all tokens revoked in the
 *      middle of the run (target 1 / 1; child subscriber 2 / 2)
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

/** One workflow per arm and size: the last node puts proposal `proposalId` on hold with the item's tag. */
function workflow(id, arm, { items, proposalId, baseUrl, credentialId, batch }) {
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
				resource: 'proposal',
				operation: 'putOnHold',
				proposalId,
				additionalFields: { comments: tag },
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
				url: `${baseUrl}/v3/proposals/${proposalId}/onhold`,
				authentication: 'predefinedCredentialType',
				nodeCredentialType: 'workOrderServiceApi',
				sendBody: true,
				specifyBody: 'json',
				jsonBody: `={{ JSON.stringify({ Comments: $execution.id + '-' + $json.list }) }}`,
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

/**
 * `baselineTarball`: the baseline package (e.g. the previous release, one request after another); when given,
 * scenarios A-C also run it (arm `before`, in its own n8n instance, same emulator and run).
 */
async function run({ tarball, baselineTarball, quick = false, scenarios = ['A', 'B', 'C', 'D'] }) {
	let n8n;
	try {
		n8n = require(N8N_JS);
	} catch (e) {
		return notRun(`test/e2e/n8n.js cannot be loaded: ${e.message}`);
	}
	const marker = path.join(n8n.runtimeDir(), '.complete');
	if (!fs.existsSync(marker))
		return notRun(`the n8n ${n8n.N8N_VERSION} runtime is not installed (${marker} missing)`);
	if (!tarball || !fs.existsSync(tarball)) return notRun('no packed tarball');

	const emulator = await startEmulator();
	const proposalId = emulator.fixtures.proposals.open;
	let inst;
	let baseInst;
	const results = {
		status: 'run',
		n8nVersion: n8n.N8N_VERSION,
		latencyMs: LATENCY_MS,
		scenarios: {},
	};
	try {
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
		const sizes = { A: 100, B: 100, C: quick ? 300 : 1000 };
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
						proposalId,
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
				proposalId,
				baseUrl: emulator.baseUrl,
				credentialId: 'b8CredFresh00001',
			}),
		);
		wf.push(
			workflow('b8Dchild00000000', 'node', {
				items: childItems,
				proposalId: emulator.fixtures.proposals.child2001,
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
						proposalId,
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
				if (q.status !== 204) continue;
				const tag = q.body?.Comments ?? q.body?.comments;
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

		// warm-up: the shared credential logs in once (in each instance)
		setLimit(0);
		await once(`b8Anode`.padEnd(16, '0'), sizes.A);
		if (baseInst) await once('b8Abefore'.padEnd(16, '0'), sizes.A, baseInst);
		const armList = (list) => (baseInst ? [...list, 'before'] : list);
		const runArm = (key, arm, items) =>
			arm === 'before'
				? once(`b8${key}before`.padEnd(16, '0'), items, baseInst)
				: once(`b8${key}${arm.replace('-', '')}`.padEnd(16, '0'), items);

		if (scenarios.includes('A')) {
			const arms = {};
			for (const arm of armList(['node', 'http', 'node-c1'])) {
				setLimit(0);
				arms[arm] = await runArm('A', arm, sizes.A);
				log(
					`case 8 A: ${arm}: ${arms[arm].nodeMs} ms, ${arms[arm].delivered}/${sizes.A} delivered`,
				);
			}
			const ratio = arms.node.nodeMs / arms.http.nodeMs;
			results.scenarios.A = {
				items: sizes.A,
				arms,
				ratio: round(ratio, 2),
				target: '<= 1.5x the HTTP Request node',
				met: ratio <= 1.5 && arms.node.delivered === sizes.A && arms.node.duplicates === 0,
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
			for (const arm of armList(['node', 'http', 'http-b', 'node-c1'])) {
				setLimit(limit);
				// a fresh window for every arm
				await new Promise((resolve) => setTimeout(resolve, 100));
				arms[arm] = await runArm(key, arm, items);
				arms[arm].vsFloor = arms[arm].nodeMs ? round(arms[arm].nodeMs / floorMs, 3) : null;
				log(
					`case 8 ${key}: ${arm}: ${arms[arm].nodeMs} ms (${arms[arm].vsFloor}x floor ${floorMs} ms), ${arms[arm].delivered}/${items} delivered, ${arms[arm].duplicates} duplicates, ${arms[arm].throttled} throttled answers${arms[arm].ok ? '' : `; failed: ${arms[arm].error}`}`,
				);
			}
			const node = arms.node;
			const limitMs = key === 'B' ? 66_000 : floorMs * 1.1;
			results.scenarios[key] = {
				items,
				limitPerMinute: limit,
				floorMs,
				arms,
				target:
					key === 'B'
						? `${items}/${items}, <= 66 s, 0 duplicates`
						: `${items}, 0 duplicates, <= 1.1x floor`,
				met:
					node.delivered === items &&
					node.duplicates === 0 &&
					node.nodeMs !== null &&
					node.nodeMs <= limitMs,
			};
		}
		if (scenarios.includes('D')) {
			const counts = {};
			for (const [label, id, credentialIdx] of [
				['password', 'b8Dfresh00000000', 1],
				['child subscriber', 'b8Dchild00000000', 2],
			]) {
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
						entry.status === 204 &&
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
					counts['child subscriber'].fresh === 2 &&
					counts['child subscriber'].revokedMidRun <= 2,
			};
		}
		results.met = Object.values(results.scenarios).every((s) => s.met);
		return results;
	} catch (e) {
		return notRun(
			`failed while running: ${String(e.message).split('\n').slice(0, 4).join(' | ')}`,
			{ error: String(e.stack || e).slice(0, 4000), partial: results },
		);
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
