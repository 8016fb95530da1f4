'use strict';
/**
 * Case 2: per-item overhead. 1,000 work-order NTE updates (Work Order > Update NTE of one work order,
 * a new amount per item: PUT /workorders/{id}/nte, an update the service allows again and again)
 * through the node in n8n-core's WorkflowExecute (the harness), against the same 1,000 PUTs from a
 * plain fetch loop with a pre-fetched token (Node's global fetch, keep-alive by default).
 * Every arm counts the updates the service accepted (2xx answers); fewer than sent fails the bench.
 * WOS_BENCH_BROKEN_WORKLOAD=1 (for test/release/bench-fails.test.js only) sends instead what the
 * bench once sent: Put On Hold of one proposal for every item, which the service refuses from the
 * second move on (400, code 503 "already on hold"). Rounds are interleaved in one process and the arm order
 * rotates every round. A third arm, for diagnosis only, sends the same PUTs with node:http and a
 * new TCP connection per request (agent: false), which is what n8n-core's HTTP helper does.
 *
 * Per-item latency: the emulator runs in this process and records performance.now() when it has
 * answered each API request (its onResponse hook); the gaps between consecutive answers are the
 * per-item cycle times (client work + request + server work) of either arm, measured the same way.
 *
 * A CPU profile of one extra node run (node:inspector) splits where the time goes: the package's own
 * code vs n8n-core/n8n-workflow, axios, Node's HTTP stack, the in-process emulator, GC.
 */
const http = require('node:http');
const inspector = require('node:inspector');
const S = require('../../test/support');
const { median, percentile, round, log } = require('../lib/util');

const ITEMS_DEFAULT = 1000;

async function passwordToken(emulator) {
	const client = emulator.fixtures.clients.main;
	const user = emulator.fixtures.users.subscriber;
	const res = await fetch(`${emulator.authUrl}/oauth/token`, {
		method: 'POST',
		headers: {
			authorization: `Basic ${Buffer.from(`${client.clientId}:${client.clientSecret}`).toString('base64')}`,
			'content-type': 'application/x-www-form-urlencoded',
		},
		body: new URLSearchParams({
			grant_type: 'password',
			username: user.username,
			password: user.password,
		}).toString(),
	});
	const body = await res.json();
	if (!body.access_token) throw new Error(`token: HTTP ${res.status}`);
	return body.access_token;
}

function httpPut(url, headers, body) {
	return new Promise((resolve, reject) => {
		const req = http.request(
			url,
			{
				method: 'PUT',
				headers: { ...headers, 'content-length': Buffer.byteLength(body) },
				agent: false,
			},
			(res) => {
				res.resume();
				res.on('end', () => resolve(res.statusCode));
			},
		);
		req.on('error', reject);
		req.end(body);
	});
}

function profileSummary(profile, items) {
	const byId = new Map(profile.nodes.map((n) => [n.id, n]));
	const buckets = {};
	let total = 0;
	const bucketOf = (frame) => {
		const url = frame.url || '';
		if (url.includes('/dist/nodes/') || url.includes('/dist/credentials/'))
			return 'package (dist/)';
		if (url.includes('/test/emulator/')) return 'emulator (in-process server)';
		if (url.includes('/test/harness/')) return 'harness (stands in for n8n CLI credentials helper)';
		if (/node_modules\/(n8n-core|n8n-workflow|@n8n)\//.test(url)) return 'n8n-core / n8n-workflow';
		if (/node_modules\/(axios|follow-redirects|proxy-from-env|form-data)/.test(url))
			return 'axios (used by n8n-core)';
		if (url.includes('node_modules/')) return 'other dependencies of n8n-core';
		if (url.startsWith('node:')) return 'Node.js http/net/streams';
		if (frame.functionName === '(idle)') return 'idle (waiting on I/O)';
		if (frame.functionName === '(garbage collector)') return 'GC';
		return 'native / V8 / other';
	};
	for (let i = 0; i < profile.samples.length; i++) {
		const node = byId.get(profile.samples[i]);
		const dt = profile.timeDeltas[i] || 0;
		total += dt;
		const b = bucketOf(node.callFrame);
		buckets[b] = (buckets[b] || 0) + dt;
	}
	const out = {};
	for (const [k, v] of Object.entries(buckets).sort((a, b) => b[1] - a[1])) {
		out[k] = { ms: round(v / 1000, 1), share: round(v / total, 3), usPerItem: round(v / items, 1) };
	}
	return { totalMs: round(total / 1000, 1), buckets: out };
}

async function cpuProfile(fn) {
	const session = new inspector.Session();
	session.connect();
	const post = (method, params) =>
		new Promise((resolve, reject) =>
			session.post(method, params, (e, r) => (e ? reject(e) : resolve(r))),
		);
	await post('Profiler.enable');
	await post('Profiler.setSamplingInterval', { interval: 200 });
	await post('Profiler.start');
	let profile;
	try {
		await fn();
	} finally {
		({ profile } = await post('Profiler.stop'));
		session.disconnect();
	}
	return profile;
}

/** The workload: what each item sends (see the file's head). */
function workload(emulator) {
	const f = emulator.fixtures;
	if (process.env.WOS_BENCH_BROKEN_WORKLOAD === '1') {
		const proposalId = f.proposals.open;
		return {
			operation: `proposal putOnHold ${proposalId} for every item (PUT /v3/proposals/${proposalId}/onhold, body {}): refused from the second move on (WOS_BENCH_BROKEN_WORKLOAD)`,
			parameters: { resource: 'proposal', operation: 'putOnHold', proposalId },
			url: `${emulator.baseUrl}/v3/proposals/${proposalId}/onhold`,
			body: () => '{}',
		};
	}
	const workOrderId = f.workOrders.noChecklist;
	return {
		operation: `work order updateNte ${workOrderId}, a new amount per item (PUT /v3/workorders/${workOrderId}/nte, body {"Value":"<amount>"})`,
		parameters: {
			resource: 'workOrder',
			operation: 'updateNte',
			workOrderId,
			nte: '={{ $json.nte }}',
		},
		url: `${emulator.baseUrl}/v3/workorders/${workOrderId}/nte`,
		body: (k) => JSON.stringify({ Value: String(100 + k) }),
	};
}

async function run({ emulator, harness, rounds = 5, warmup = 1, items = ITEMS_DEFAULT }) {
	const credId = 'bench-overhead';
	harness.credentials.set(credId, {
		name: 'Bench overhead',
		type: 'workOrderServiceApi',
		data: S.passwordCredential(emulator, 'subscriber'),
	});
	const work = workload(emulator);
	const wf = S.workflow({
		credentialId: credId,
		parameters: work.parameters,
		items: Array.from({ length: items }, (_, k) => ({ json: { nte: 100 + k } })),
	});
	const token = await passwordToken(emulator);
	const url = work.url;
	const headers = {
		accept: 'application/json',
		'content-type': 'application/json',
		authorization: `Bearer ${token}`,
	};

	let answers = [];
	let accepted = 0;
	let connections = 0;
	const onConnection = () => connections++;
	emulator.server.on('connection', onConnection);
	emulator.onResponse = (entry) => {
		if (!entry.path.startsWith('/api/')) return;
		answers.push(performance.now());
		if (entry.status >= 200 && entry.status < 300) accepted++;
	};

	// no arm stops at a refusal: each one's accepted updates are counted (and checked by run.js)
	const arms = {
		node: async () => {
			const result = await harness.run(wf, { timeoutMs: 300_000 });
			const out = result.outputs[S.NODE_NAME] ?? [];
			return {
				error:
					result.status === 'success' && out.length === items
						? undefined
						: `node run: ${result.status}, ${out.length} items out: ${result.error?.message}`,
			};
		},
		fetchLoop: async () => {
			const lat = [];
			for (let i = 0; i < items; i++) {
				const t0 = performance.now();
				const res = await fetch(url, { method: 'PUT', headers, body: work.body(i) });
				await res.arrayBuffer();
				lat.push(performance.now() - t0);
			}
			return { latencies: lat };
		},
		httpNoKeepAlive: async () => {
			for (let i = 0; i < items; i++) await httpPut(url, headers, work.body(i));
			return {};
		},
	};
	const names = Object.keys(arms);
	const samples = Object.fromEntries(
		names.map((n) => [
			n,
			{
				ms: [],
				p50: [],
				p99: [],
				connections: [],
				tokenRequests: [],
				requestLatencyP50: [],
				requestLatencyP99: [],
				delivered: [],
				errors: [],
			},
		]),
	);

	// warm-up (JIT, the node's first login), not recorded
	for (let w = 0; w < warmup; w++) for (const n of names) await arms[n]();

	for (let r = 0; r < rounds; r++) {
		const order = names.map((_, i) => names[(i + r) % names.length]);
		for (const n of order) {
			emulator.clearRequests();
			answers = [];
			accepted = 0;
			connections = 0;
			const t0 = performance.now();
			const extra = await arms[n]();
			const ms = performance.now() - t0;
			const gaps = [];
			for (let i = 1; i < answers.length; i++) gaps.push(answers[i] - answers[i - 1]);
			const s = samples[n];
			s.ms.push(ms);
			s.p50.push(percentile(gaps, 50));
			s.p99.push(percentile(gaps, 99));
			s.connections.push(connections);
			s.tokenRequests.push(emulator.tokenRequests().length);
			s.delivered.push(accepted);
			if (extra.error) s.errors.push(extra.error);
			if (extra.latencies) {
				s.requestLatencyP50.push(percentile(extra.latencies, 50));
				s.requestLatencyP99.push(percentile(extra.latencies, 99));
			}
		}
		log(
			`case 2: round ${r + 1}/${rounds}: ${names.map((n) => `${n} ${Math.round(samples[n].ms.at(-1))} ms`).join(', ')}`,
		);
	}

	// one more node run under the CPU profiler (not part of the timings above)
	emulator.clearRequests();
	const profile = await cpuProfile(() => arms.node());
	emulator.server.off('connection', onConnection);
	emulator.onResponse = null;
	emulator.clearRequests();

	const summary = {};
	for (const n of names) {
		const s = samples[n];
		const ms = median(s.ms);
		summary[n] = {
			ms: round(ms, 1),
			itemsPerSecond: round(items / (ms / 1000), 1),
			cycleP50Ms: round(median(s.p50), 3),
			cycleP99Ms: round(median(s.p99), 3),
			connections: median(s.connections),
			tokenRequests: median(s.tokenRequests),
			samplesMs: s.ms.map((x) => round(x, 1)),
			// the worst round: every round must have delivered every item
			delivered: Math.min(...s.delivered),
			sent: items,
			errors: [...new Set(s.errors)].slice(0, 3),
		};
		if (s.requestLatencyP50.length) {
			summary[n].requestLatencyP50Ms = round(median(s.requestLatencyP50), 3);
			summary[n].requestLatencyP99Ms = round(median(s.requestLatencyP99), 3);
		}
	}
	const ratio = summary.fetchLoop.ms / summary.node.ms;
	const perRoundRatios = samples.node.ms.map((m, i) => samples.fetchLoop.ms[i] / m);
	const nodeProfile = profileSummary(profile, items);
	return {
		items,
		rounds,
		warmupRounds: warmup,
		operation: work.operation,
		arms: summary,
		throughputRatio: round(ratio, 3),
		perRoundRatios: perRoundRatios.map((x) => round(x, 3)),
		extraMsPerItem: round((summary.node.ms - summary.fetchLoop.ms) / items, 3),
		latencyMethod:
			'cycle time per item = gap between consecutive API answers, timed with performance.now() in the in-process emulator (onResponse); p50/p99 over the 999 gaps of a run, median over rounds. The fetch loop also reports request latency timed around each fetch.',
		nodeCpuProfile: nodeProfile,
		deliveries: names.map((n) => ({
			label: n,
			delivered: summary[n].delivered,
			sent: items,
			...(summary[n].errors.length ? { error: summary[n].errors[0] } : {}),
		})),
		met: ratio >= 0.9,
	};
}

module.exports = { run };
