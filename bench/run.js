#!/usr/bin/env node
'use strict';
/**
 * `npm run bench`: shows, side by side in one run, that the node costs next to nothing on top of the
 * service's HTTP calls, never wastes a token request, and does not blow up memory.
 *
 *   npm run build && node --expose-gc bench/run.js            full run: bench/results.json + bench/RESULTS.md
 *   ... bench/run.js --baseline=<tgz>                           case 8 also runs that baseline package (e.g. the previous release) beside this one
 *   node --expose-gc bench/run.js --only=2,4 [--quick]        some cases / fewer runs: bench/results.partial.json
 *   node --expose-gc bench/run.js --only=9 --merge              those cases replace theirs in results.json; RESULTS.md again
 *   node bench/run.js --render                                  RESULTS.md and docs/benchmarks.md again from results.json (no run)
 *   ... bench/run.js --only=2 --items=30 --out=<file>          case 2 with 30 items, the report to <file> (test/release/bench-fails.test.js)
 *
 * The bench fails (exit code 1, each failed case named) when its work fails: a case that errs, a
 * case not run, fewer items delivered than sent in any arm that counts (a contrast arm, e.g. the
 * HTTP Request node without retry under a rate limit, is reported, not counted), or a request that
 * departs from the service's reference (the contract test of test/contract/ validates every request
 * the bench's emulators receive). A missed speed target does not fail it: it shows as NO.
 * The full run (`npm run bench`) writes bench/results.json, bench/RESULTS.md and docs/benchmarks.md.
 *
 * Everything runs against the local emulator of the service on 127.0.0.1 (no throttling, no added
 * latency). Every figure is a median of several runs; compared arms run interleaved in the same
 * process and run. Cases (see bench/cases/):
 *   1 token economy         tokens.js        4 lossless JSON      lossless-json.js
 *   2 per-item overhead     overhead.js      5 big lists          big-list.js
 *   3 vs HTTP Request node  real-n8n.js      6 attachments        attachments.js
 *   7 package               package.js       8 batch at the service's pace (real n8n, 200 ms latency) throughput.js
 *   9 shared request budget: 1 vs 3 executions in one process, 1 vs 3 worker processes   shared-budget.js
 *     (`--baseline-dir=<built package dir>`: the same arms with that package, e.g. the previous release)
 *  10 invoice payments: 1,000 in one execution at the sandbox's 40/min, a half-refused batch and its re-run   invoice-payments.js
 *  11 invoice polling trigger at 20,000 invoices: each change emitted once (--quick: 1 round per event)   invoice-trigger.js
 * Cases 8-11 each start and close their own emulator(s).
 */
const fs = require('node:fs');
const path = require('node:path');
const { startEmulator } = require('../test/emulator');
const { createHarness } = require('../test/harness');
const U = require('./lib/util');
const { installBenchContract } = require('./lib/contract');

const args = process.argv.slice(2);
const arg = (name) => {
	const hit = args.find((a) => a === `--${name}` || a.startsWith(`--${name}=`));
	if (!hit) return undefined;
	return hit.includes('=') ? hit.slice(hit.indexOf('=') + 1) : true;
};
const ONLY = arg('only')
	? String(arg('only')).split(',').map(Number)
	: [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11];
const QUICK = Boolean(arg('quick'));
const FULL = !arg('only') && !QUICK;
/** Case 8: the baseline package given with `--baseline=<tgz>` (e.g. the previous release), run beside the current one. */
const BASELINE = arg('baseline') ? path.resolve(String(arg('baseline'))) : undefined;
/** Case 9: a built package directory given with `--baseline-dir` (e.g. the previous release) run in the same arms. */
const BASELINE_DIR = arg('baseline-dir') ? path.resolve(String(arg('baseline-dir'))) : undefined;
const COMMAND =
	process.env.npm_lifecycle_event === 'bench'
		? 'npm run bench'
		: ['npm run build &&', 'node', ...process.execArgv, 'bench/run.js', ...args].join(' ');

const RUNS = QUICK
	? {
			tokens: 1,
			tokenItems: 200,
			overheadItems: Number(arg('items')) || 200,
			overheadRounds: 2,
			n8nRounds: 1,
			n8nItems: 200,
			lossless: 11,
			bigList: 1,
			attachments: 1,
			requireRuns: 3,
			sizeMB: 20,
			budget: 1,
			invoicePayments: 1000,
			invoiceTriggerRounds: 1,
		}
	: {
			tokens: 3,
			tokenItems: 1000,
			overheadItems: Number(arg('items')) || 1000,
			overheadRounds: 7,
			n8nRounds: 5,
			n8nItems: 1000,
			lossless: 31,
			bigList: 3,
			attachments: 3,
			requireRuns: 7,
			sizeMB: 100,
			budget: 2,
			invoicePayments: 1000,
			invoiceTriggerRounds: 5,
		};

/** The document the README links for figures; written by the full run (and --render, --merge). */
const DOC = path.join(U.ROOT, 'docs', 'benchmarks.md');

const percent = (x) => `${(x * 100).toFixed(1)}%`;
const x2 = (x) => (x === null || x === undefined ? 'n/a' : `${x.toFixed(2)}x`);
const MiB = (b) => `${(b / U.MB).toFixed(1)} MiB`;

/** The contract test of the bench's requests (bench/lib/contract.js). */
const contract = installBenchContract();

async function timed(results, key, fn) {
	const t0 = Date.now();
	const loadBefore = U.loadAverage();
	U.log(`--- ${key}`);
	contract.begin(key);
	try {
		results[key] = await fn();
	} catch (e) {
		U.log(`${key} FAILED: ${e.stack || e}`);
		results[key] = { status: 'error', error: String(e.message || e).slice(0, 2000), met: false };
	}
	results[key].elapsedMs = Date.now() - t0;
	results[key].loadAverage = { before: loadBefore, after: U.loadAverage() };
	const checked = contract.drain();
	results[key].contract = {
		requests: checked.requests,
		violations: checked.violations.reduce((n, v) => n + v.violations.length, 0),
		examples: checked.violations.slice(0, 5),
	};
	for (const v of checked.violations.slice(0, 20))
		U.log(
			`${key}: CONTRACT VIOLATION ${v.method} ${v.url} -> ${v.status}: ${v.violations.map((x) => x.message ?? JSON.stringify(x)).join('; ')}`,
		);
}

const CASE_NAMES = {
	1: '1-token-economy',
	2: '2-per-item-overhead',
	3: '3-real-n8n',
	4: '4-lossless-json',
	5: '5-big-list',
	6: '6-attachments',
	7: '7-package',
	8: '8-throughput',
	9: '9-shared-budget',
	10: '10-invoice-payments',
	11: '11-invoice-trigger',
};

/** Result keys in case order ('1-…', '2-…', …, '10-…', '11-…'), not string order. */
const byCase = (a, b) => Number(a.split('-')[0]) - Number(b.split('-')[0]) || a.localeCompare(b);

/**
 * Why each case of this run failed its work (not its speed targets): not run, an error, an arm
 * that counts with fewer items delivered than sent, a contract violation. `[]` when none did.
 */
function failures(cases, results) {
	const out = [];
	for (const n of cases) {
		const key = CASE_NAMES[n];
		const r = results[key];
		const fail = (why) => out.push({ case: key, why });
		if (!r) {
			fail('not run (no result)');
			continue;
		}
		if (r.status === 'error') fail(`error: ${String(r.error).split('\n')[0]}`);
		else if (r.status === 'not run') fail(`not run: ${r.reason}`);
		for (const d of r.deliveries ?? []) {
			if (d.contrast) continue;
			if (!(d.delivered >= d.sent) || d.failed)
				fail(
					`${d.label}: ${d.delivered}/${d.sent} delivered${d.error ? ` (${String(d.error).slice(0, 300)})` : ''}`,
				);
		}
		if (r.contract?.violations)
			fail(
				`${r.contract.violations} contract violation(s) in ${r.contract.requests} requests (first: ${r.contract.examples[0]?.method} ${r.contract.examples[0]?.url})`,
			);
	}
	return out;
}

/** "delivered/sent" of a case's arm (by label), or of all its counted arms; '-' when it has none. */
function deliveredOf(r, labels) {
	const list = (r?.deliveries ?? []).filter((d) => !labels || labels.includes(d.label));
	if (!list.length) return '-';
	return list.map((d) => `${d.delivered}/${d.sent}`).join(', ');
}

function rowsFor(results) {
	const rows = [];
	const add = (c, figure, target, met, delivered = '-') =>
		rows.push({ case: c, figure, target, met, delivered });
	const failed = (c, r) => add(c, `error: ${r.error}`, '', 'NO (error)', 'none');

	const t = results['1-token-economy'];
	if (t && t.status === 'error') failed('1 token economy', t);
	else if (t) {
		for (const k of t.byKind) {
			const kinds = Object.entries(k.tokenRequestKinds ?? {})
				.map(([g, c]) => `${c} ${g}`)
				.join(' + ');
			let met = k.met ? 'yes' : 'NO';
			if (!k.met && k.key === 'child' && k.oneExecution === 2 && k.consecutive === 2) {
				met =
					"NO as counted: 2 = one login, which the service defines as a password grant + a child-scope exchange (the contract's child-subscriber exchange); nothing per item or per execution";
			}
			add(
				`1 token requests: ${k.label}`,
				`${k.oneExecution} for 1 execution x ${t.items} items; ${k.consecutive} for ${t.executions} executions x ${t.itemsPerConsecutiveExecution} items (${kinds})`,
				'1 and 1',
				met,
				deliveredOf(t),
			);
		}
		add(
			'1 naive: a login per item',
			`${t.naive.tokenRequests} token requests for ${t.items} items (sent, ${U.fmtMs(t.naive.ms)})`,
			'contrast',
			'-',
		);
	}

	const o = results['2-per-item-overhead'];
	if (o && o.status === 'error') failed('2 per-item overhead', o);
	else if (o) {
		const n = o.arms.node;
		const l = o.arms.fetchLoop;
		const d = o.arms.httpNoKeepAlive;
		const prof = o.nodeCpuProfile.buckets;
		const pkg = prof['package (dist/)'] ?? { usPerItem: 0, share: 0 };
		const core = [
			'n8n-core / n8n-workflow',
			'axios (used by n8n-core)',
			'harness (stands in for n8n CLI credentials helper)',
			'other dependencies of n8n-core',
		].reduce((a, k) => a + (prof[k]?.usPerItem ?? 0), 0);
		const why = o.met
			? 'yes'
			: `NO: the extra ${o.extraMsPerItem.toFixed(2)} ms/item is spent in n8n-core's request path: per request n8n-core resolves the credential and runs axios (${Math.round(core)} us/item of JS in n8n-core/axios/credentials helper, plus Node http and GC) and opens a new connection (${n.connections} new connections; the loop reuses ${l.connections === 0 ? 'its one' : l.connections}). The package's own code: ${pkg.usPerItem} us/item (${percent(pkg.share)} of the CPU profile)`;
		add(
			`2 throughput: node (n8n-core) vs fetch loop, ${o.items} NTE updates`,
			`node ${n.itemsPerSecond}/s (${U.fmtMs(n.ms)}) vs loop ${l.itemsPerSecond}/s (${U.fmtMs(l.ms)}) = ${x2(o.throughputRatio)}`,
			'>= 0.90x',
			why,
			`node ${n.delivered}/${n.sent}, loop ${l.delivered}/${l.sent}`,
		);
		add(
			'2 per-item cycle time p50 / p99',
			`node ${n.cycleP50Ms.toFixed(2)} / ${n.cycleP99Ms.toFixed(2)} ms; loop ${l.cycleP50Ms.toFixed(2)} / ${l.cycleP99Ms.toFixed(2)} ms`,
			'report',
			'-',
			`node ${n.delivered}/${n.sent}, loop ${l.delivered}/${l.sent}`,
		);
		add(
			'2 diagnostic: loop without keep-alive',
			`node:http, new connection per PUT: ${d.itemsPerSecond}/s (${U.fmtMs(d.ms)}); node / this = ${x2(d.ms / n.ms)}`,
			'report',
			'-',
			`${d.delivered}/${d.sent}`,
		);
	}

	const r3 = results['3-real-n8n'];
	if (r3 && r3.status === 'error') failed('3 real n8n', r3);
	else if (r3 && r3.status === 'not run')
		add('3 real n8n: node vs HTTP Request node', `not run: ${r3.reason}`, '>= 1.0x', 'not run');
	else if (r3) {
		add(
			`3 real n8n ${r3.n8nVersion}: node vs HTTP Request node, ${r3.items} NTE updates`,
			`node ${U.fmtMs(r3.node.nodeExecutionMs)} vs HTTP Request ${U.fmtMs(r3.httpRequest.nodeExecutionMs)} = ${x2(r3.ratio)} (wall - start-up ${U.fmtMs(r3.startupBaselineWallMs)}: ${U.fmtMs(r3.node.wallMinusStartupMs)} vs ${U.fmtMs(r3.httpRequest.wallMinusStartupMs)} = ${x2(r3.wallRatio)})`,
			'>= 1.0x',
			r3.met ? 'yes' : 'NO',
			deliveredOf(r3),
		);
		add(
			'3 token requests at first use',
			`node ${r3.node.tokenRequestsWarmup}, HTTP Request ${r3.httpRequest.tokenRequestsWarmup} (same credential type; later executions: ${r3.node.tokenRequestsMeasured} / ${r3.httpRequest.tokenRequestsMeasured})`,
			'report',
			'-',
			deliveredOf(r3),
		);
	}

	const j = results['4-lossless-json'];
	if (j && j.status === 'error') failed('4 lossless JSON', j);
	else if (j) {
		const parserRows = (runtime, m) => {
			if (!m) return;
			if (m.error) return failed(`4 parser under ${runtime}`, m);
			for (const doc of m.documents) {
				add(
					`4 parseJsonLossless vs JSON.parse, Node ${m.nodeVersion}, ${doc.sizeMB} MB notes, ${doc.label}`,
					`${doc.losslessMs} ms vs ${doc.jsonParseMs} ms = ${x2(doc.speedRatio)} (median of ${doc.runs} interleaved pairs, GC before each)${doc.int64Values ? `; JSON.parse lost ${doc.jsonParseLost}` : ''}`,
					`>= ${doc.targetRatio}x, exact`,
					doc.met ? 'yes' : 'NO',
					`${doc.exact}/${doc.values} exact`,
				);
			}
		};
		parserRows('this Node', j);
		if (j.n8nNode) parserRows("n8n's Node", j.n8nNode);
		else
			add("4 the same under n8n's Node 24", 'not run: its runtime is not installed', '', 'not run');
	}

	const b = results['5-big-list'];
	if (b && b.status === 'error') failed('5 big list', b);
	else if (b) {
		add(
			`5 Return All, ${b.items} work orders`,
			`${U.fmtMs(b.wallMs)}; ${b.apiRequests} + ${b.tokenRequests} token requests; peak RSS +${MiB(b.peakRssGrowth)}, peak heap +${MiB(b.peakHeapGrowth)} (retained after GC +${MiB(b.retainedHeapGrowthAfterGc)})`,
			`${b.expectedApiRequests} + 1 token`,
			b.met ? 'yes' : 'NO',
			deliveredOf(b),
		);
	}

	const a = results['6-attachments'];
	if (a && a.status === 'error') failed('6 attachments', a);
	else if (a) {
		for (const [key, label] of [
			['checklist', 'checklist picture'],
			['note', 'note attachment'],
		]) {
			const r = a[key];
			const over = r.peakRssGrowth - 2 * r.fileSize;
			const why = r.met
				? 'yes'
				: `NO${over > 0 ? ` (by ${(over / 1024).toFixed(0)} KiB)` : ''}: two full copies live at once: the base64 decode of n8n's in-memory binary (getBinaryDataBuffer) and Buffer.concat in transport/multipart.ts`;
			add(
				`6 upload ${a.sizeMB} MiB as ${label}`,
				`peak RSS growth ${MiB(r.peakRssGrowth)} = ${r.growthOverFile.toFixed(3)}x file; whole-process peak ${MiB(r.peakRssWholeProcess)}; ${U.fmtMs(r.uploadMs)}; ${r.intact ? 'all bytes arrived' : 'BYTES MISSING'}`,
				'<= 2x',
				why,
				deliveredOf(a, [`${key} upload, every byte arrived (runs)`]),
			);
		}
	}

	const p = results['7-package'];
	if (p && p.status === 'error') failed('7 package', p);
	else if (p) {
		const rt = p.requireTimes;
		add(
			'7 cold require: node module',
			`${U.fmtMs(rt.node.coldMs)} (incl. first load of n8n-workflow); ${U.fmtMs(rt.node.netOfN8nWorkflowMs)} with n8n-workflow loaded`,
			'report',
			'-',
		);
		const creds = [
			'workOrderServiceApi',
			'workOrderServiceOAuth2Api',
			'workOrderServiceContractorApi',
		];
		add(
			'7 cold require: credential modules',
			creds
				.map((c) => `${c} ${U.fmtMs(rt[c].coldMs)} / ${U.fmtMs(rt[c].netOfN8nWorkflowMs)}`)
				.join('; '),
			'report',
			'-',
		);
		const k = p.tarball.bytesByKind;
		add(
			'7 packed tarball',
			`${(p.tarball.packedBytes / 1024).toFixed(1)} KiB packed, ${(p.tarball.unpackedBytes / 1024).toFixed(0)} KiB unpacked, ${p.tarball.fileCount} files (JS ${(k.js / 1024).toFixed(0)} KiB, source maps ${(k.sourceMaps / 1024).toFixed(0)} KiB, .d.ts ${(k.typeDeclarations / 1024).toFixed(0)} KiB, .tsbuildinfo ${(k.tsbuildinfo / 1024).toFixed(0)} KiB)`,
			'report',
			'-',
		);
		add(
			'7 runtime dependencies',
			`${p.runtimeDependencies}${p.runtimeDependencyNames.length ? ` (${p.runtimeDependencyNames.join(', ')})` : ''}`,
			'0',
			p.met ? 'yes' : 'NO',
		);
	}

	const t8 = results['8-throughput'];
	if (t8 && t8.status === 'error') failed('8 throughput', t8);
	else if (t8 && t8.status === 'not run')
		add("8 batch at the service's pace", `not run: ${t8.reason}`, '', 'not run');
	else if (t8) {
		const sc = t8.scenarios;
		const dl = (a) => (a ? `${a.delivered}/${a.items}, ${a.duplicates} dup` : 'n/a');
		const arm = (a) =>
			a
				? `${U.fmtMs(a.nodeMs)}, ${a.throttled} x 429${a.ok ? '' : ' (execution failed)'}${a.vsFloor ? `, ${x2(a.vsFloor)} floor` : ''}`
				: 'n/a';
		if (sc.A) {
			const { node, http } = sc.A.arms;
			add(
				`8A ${sc.A.items} updates, no limit, ${t8.latencyMs} ms latency: node / HTTP Request node`,
				`node ${U.fmtMs(node.nodeMs)} vs HTTP Request ${U.fmtMs(http.nodeMs)} = ${x2(sc.A.ratio)} (median of ${sc.A.rounds} interleaved round(s); per round ${sc.A.perRoundRatios.map(x2).join(', ')})`,
				'<= 1.2x',
				sc.A.met ? 'yes' : 'NO',
				`node ${dl(node)}; HTTP Request ${dl(http)}`,
			);
			const c1 = sc.A.arms['node-c1'];
			if (c1) {
				const before = sc.A.arms.before;
				add(
					'8A same, node Concurrency 1',
					`${U.fmtMs(c1.nodeMs)}${before ? `; the baseline package given with --baseline, in the same run: ${U.fmtMs(before.nodeMs)}` : ''}`,
					'report',
					'-',
					dl(c1),
				);
			}
		}
		for (const key of ['B', 'C']) {
			const r = sc[key];
			if (!r) continue;
			add(
				`8${key} ${r.items} updates, ${r.limitPerMinute}/min limit: node`,
				`${arm(r.arms.node)} (window floor ${U.fmtMs(r.floorMs)})`,
				r.target,
				r.met ? 'yes' : 'NO',
				dl(r.arms.node),
			);
			if (r.arms['node-c1'])
				add(
					`8${key} same: node Concurrency 1`,
					`${arm(r.arms['node-c1'])}${r.arms.before ? `; the baseline package given with --baseline (same run): ${arm(r.arms.before)}` : ''}`,
					'report',
					'-',
					dl(r.arms['node-c1']),
				);
			add(
				`8${key} same: HTTP Request node (all at once, no retry)`,
				arm(r.arms.http),
				'contrast',
				'-',
				dl(r.arms.http),
			);
			if (r.arms['http-b'])
				add(
					`8${key} same: HTTP Request node, batched to the limit`,
					arm(r.arms['http-b']),
					'contrast',
					'-',
					dl(r.arms['http-b']),
				);
		}
		if (sc.D) {
			const c = sc.D.counts;
			add(
				`8D token requests, ${sc.D.items} concurrent items: fresh credential / all tokens revoked mid-run`,
				Object.entries(c)
					.map(([k, v]) => `${k} ${v.fresh} / ${v.revokedMidRun}`)
					.join('; '),
				sc.D.target,
				sc.D.met ? 'yes' : 'NO',
				`${Object.values(c)
					.flatMap((v) => v.delivered)
					.map((n) => `${n}/${sc.D.items}`)
					.join(', ')}; ${Object.values(c).reduce((n, v) => n + v.duplicates, 0)} dup`,
			);
		}
	}
	const t9 = results['9-shared-budget'];
	if (t9 && t9.status === 'error') failed('9 shared budget', t9);
	else if (t9) {
		const fmt = (s) =>
			`${U.fmtMs(s.ms)} = ${x2(s.vsFloor)} the floor ${U.fmtMs(s.floorMs)}, ${s.throttled} x 429${s.failedExecutions ? `, ${s.failedExecutions} executions FAILED` : ''}`;
		const span = (samples) => samples.map(fmt).join('; ');
		const dl = (samples) =>
			samples.map((s) => `${s.delivered}/${s.items}, ${s.duplicates} dup`).join('; ');
		const targets = {
			'1x300': 'report',
			'3x100': 'all delivered, 0 doubled, <= 25 x 429, <= 1.2x floor',
			'3x200s': 'all succeed, <= 1.2x floor + stagger',
			w1: 'report',
			w3: 'report',
		};
		for (const [key, arm] of Object.entries(t9.arms)) {
			const met =
				key === '3x100'
					? t9.met.together && t9.met.delivered
						? 'yes'
						: 'NO'
					: key === '3x200s'
						? t9.met.staggered && t9.met.delivered
							? 'yes'
							: 'NO'
						: '-';
			add(
				`9 ${t9.limit} per ${t9.windowMs / 1000} s: ${arm.label}`,
				span(arm.samples),
				targets[key],
				met,
				dl(arm.samples),
			);
			if (arm.before)
				add(
					`9 same, the baseline package given with --baseline-dir (${t9.baseline})`,
					span(arm.before),
					'contrast',
					'-',
					dl(arm.before),
				);
		}
	}
	const p10 = results['10-invoice-payments'];
	if (p10 && p10.status === 'error') failed('10 invoice payments', p10);
	else if (p10) {
		const each = (list) =>
			list.length && list.every((n) => n === list[0])
				? `${list[0]} payments each`
				: `${list.join(', ')} payments`;
		const outcome = (x) =>
			Object.entries(x.results)
				.map(([k, v]) => `${v} ${k}`)
				.join(', ');
		const requests = (x) =>
			`${x.paymentRequests} payment requests (${each(x.paymentsPerRequest)}), ${x.readRequests} reads, ${x.requests} requests in all, ${x.throttled} x 429, ${x.seconds} s`;
		const output = (x) => `${x.outputItems} output items for ${x.items} (${outcome(x)})`;
		const everyItem = (x) => x.outputItems === x.items && x.reported === x.items;
		const paid = (x) => `${x.paidOnce}/${x.items} paid once`;
		for (const [x, label] of [
			[p10.one, 'Skip Payments Already Recorded on'],
			[p10.off, 'Skip Payments Already Recorded off'],
		])
			add(
				`10 ${x.items} invoice payments in one execution at ${p10.rate}/min (${label})`,
				`${requests(x)}; ${output(x)}`,
				'<= 10 payment requests; one output item per item',
				x.paymentRequests <= 10 && everyItem(x) ? 'yes' : 'NO',
				`${x.reported}/${x.items} reported, ${paid(x)}`,
			);
		add(
			`10 half-refused batch: ${p10.half.items} payments, every second invoice not approved`,
			`${output(p10.half)}; ${requests(p10.half)}`,
			'one output item per item',
			everyItem(p10.half) ? 'yes' : 'NO',
			`${p10.half.reported}/${p10.half.items} reported`,
		);
		add(
			'10 its re-run, the refused invoices approved since',
			`${output(p10.rerun)}; ${requests(p10.rerun)}; after it ${p10.recordedOnce} of ${p10.count} invoices have their payment once, ${p10.doubles} twice`,
			'0 invoices paid twice; one output item per item',
			p10.doubles === 0 && everyItem(p10.rerun) ? 'yes' : 'NO',
			`${p10.rerun.reported}/${p10.rerun.items} reported, ${p10.recordedOnce}/${p10.count} paid once`,
		);
	}

	const t11 = results['11-invoice-trigger'];
	if (t11 && t11.status === 'error') failed('11 invoice trigger', t11);
	else if (t11) {
		const limit = t11.targets.activationMs;
		for (const e of t11.events) {
			add(
				`11 trigger on ${e.invoices} invoices, ${e.event}: each change emitted once`,
				`${e.changesMade} changes made in ${t11.rounds} round(s), ${e.itemsEmitted} items emitted: ${e.emittedTwice} twice, ${e.missed} missed, ${e.unexpected} unexpected${e.event === 'invoiceStatusChanged' ? ` (changed and back before a poll, emitted: ${e.statusChangedAndBackEmitted})` : ''}`,
				'0 twice, 0 missed',
				e.emittedTwice || e.missed || e.unexpected ? 'NO' : 'yes',
				`${e.emittedOnce}/${e.changesMade} emitted once`,
			);
			add(
				`11 ${e.event}: activation on ${e.invoices} invoices`,
				`${e.activation.requests} requests (login included), ${U.fmtMs(e.activation.ms)} in n8n-core (${U.fmtMs(e.activation.serviceMs)} at the service)${e.settling.polls ? `; statuses as of activation: ${e.settling.statuses} read in ${e.settling.polls} poll(s), ${e.settling.requests} requests` : ''}`,
				`<= ${limit / 1000} s (n8n: ~84 s)`,
				e.activation.ms <= limit ? 'yes' : 'NO',
			);
			add(
				`11 ${e.event}: polls`,
				`after changes: ${e.pollRequests.join(', ')} requests, ${e.pollMs.map((ms) => U.fmtMs(ms)).join(', ')}; quiet polls: ${e.quietPollRequests.join(', ')} requests; ${e.requestsAfterActivation} requests after the activation; largest static data ${e.maxStaticDataKB} KB`,
				'report',
				'-',
			);
		}
	}
	return rows;
}

function textTable(rows) {
	const cols = ['case', 'figure', 'delivered', 'target', 'met'];
	const head = {
		case: 'case',
		figure: 'figure',
		delivered: 'delivered/sent',
		target: 'target',
		met: 'met?',
	};
	const width = Object.fromEntries(
		cols.map((c) => [
			c,
			Math.min(
				c === 'figure' ? 110 : 60,
				Math.max(head[c].length, ...rows.map((r) => String(r[c]).length)),
			),
		]),
	);
	const line = (r) => cols.map((c) => String(r[c]).padEnd(width[c])).join(' | ');
	return [line(head), cols.map((c) => '-'.repeat(width[c])).join('-|-'), ...rows.map(line)].join(
		'\n',
	);
}

function markdownTable(rows) {
	const esc = (s) => String(s).replace(/\|/g, '\\|');
	return [
		'| case | figure | delivered/sent | target | met? |',
		'|---|---|---|---|---|',
		...rows.map(
			(r) =>
				`| ${esc(r.case)} | ${esc(r.figure)} | ${esc(r.delivered ?? '-')} | ${esc(r.target)} | ${esc(r.met)} |`,
		),
	].join('\n');
}

function markdown(report, rows) {
	const m = report.machine;
	const lines = [
		'# Benchmark results',
		'',
		`Produced by \`${report.command}\` (\`npm run bench\` = \`npm run build && node --expose-gc bench/run.js\`) on ${report.startedAt} (${Math.round(report.elapsedMs / 1000)} s).`,
		'',
		...(report.reruns ?? []).map(
			(rr) =>
				`Case${rr.cases.length > 1 ? 's' : ''} ${rr.cases.join(', ')} re-run on ${rr.startedAt} (${Math.round(rr.elapsedMs / 1000)} s, package at ${rr.gitCommit}, load ${rr.loadAverage.start.join(' / ')} -> ${rr.loadAverage.end.join(' / ')}) by \`${rr.command}\` and merged into this report; the other cases are from the run above.\n`,
		),
		`Machine: ${m.cpuCount} CPUs (${m.cpuModel}), ${m.totalMemoryMB} MB RAM, ${m.platform}; Node ${m.node} (real-n8n case: n8n ${report.results['3-real-n8n']?.n8nVersion ?? 'n/a'} on Node ${report.results['3-real-n8n']?.nodeRuntime ?? 'n/a'}); n8n-core ${m.n8nCore}; package ${m.packageVersion} at ${m.gitCommit}. ` +
			`Load average (1/5/15 min) at start ${report.loadAverage.start.join(' / ')}, at end ${report.loadAverage.end.join(' / ')} (the machine is shared with other work, so absolute times vary; every comparison is interleaved in the same run).`,
		'',
		`Each figure is a median: case 1 of ${report.runs.tokens} runs, case 2 of ${report.runs.overheadRounds} interleaved rounds (after ${1} warm-up), case 3 of ${report.runs.n8nRounds} rounds (after 1 warm-up execution each), case 4 of ${report.runs.lossless} interleaved pairs, case 5 of ${report.runs.bigList} and case 6 of ${report.runs.attachments} fresh child processes each, case 7 of ${report.runs.requireRuns} fresh processes per module; cases 10 and 11 are single runs (case 11: ${report.runs.invoiceTriggerRounds ?? 5} round(s) of changes per event). The emulator adds no latency or throttling (cases 8, 9 and 10 add their own). Every request the emulators received was validated against the service reference (contract test): ${Object.entries(
			report.results,
		)
			.map(
				([k, v]) =>
					`${k} ${v.contract?.requests ?? 0} requests, ${v.contract?.violations ?? 0} violations`,
			)
			.join('; ')}.`,
		'',
		markdownTable(rows),
		'',
		'## How each figure is measured',
		'',
	];
	const r = report.results;
	if (r['1-token-economy']?.note)
		lines.push(
			`- **1** ${r['1-token-economy'].note} The naive figure is ${r['1-token-economy'].naive.method}.`,
		);
	if (r['2-per-item-overhead']?.latencyMethod) {
		const o = r['2-per-item-overhead'];
		lines.push(
			`- **2** ${o.operation}; node = n8n-core WorkflowExecute via test/harness (Manual Trigger -> Items -> node), loop = Node's global fetch (keep-alive) with a token fetched beforehand. Arm order rotates per round. Throughput ratio = loop time / node time. Latency: ${o.latencyMethod}`,
			`  CPU profile of one extra node run (${o.nodeCpuProfile.totalMs} ms sampled, emulator in the same process): ${Object.entries(
				o.nodeCpuProfile.buckets,
			)
				.map(([k, v]) => `${k} ${percent(v.share)} (${v.usPerItem} us/item)`)
				.join('; ')}.`,
		);
	}
	if (r['3-real-n8n']?.method)
		lines.push(
			`- **3** ${r['3-real-n8n'].method}. ${r['3-real-n8n'].note}. Start-up baseline = the same workflow without the last node: ${r['3-real-n8n'].startupBaselineSamples.join(', ')} ms wall.`,
		);
	else if (r['3-real-n8n'])
		lines.push(`- **3** not run: ${r['3-real-n8n'].reason ?? r['3-real-n8n'].error}`);
	if (r['4-lossless-json']?.documents) lines.push(`- **4** ${r['4-lossless-json'].method}`);
	if (r['5-big-list']?.memoryMethod) lines.push(`- **5** ${r['5-big-list'].memoryMethod}.`);
	if (r['6-attachments']?.memoryMethod) lines.push(`- **6** ${r['6-attachments'].memoryMethod}.`);
	if (r['8-throughput']?.scenarios) {
		lines.push(
			`- **8** real n8n ${r['8-throughput'].n8nVersion}, emulator answering every request after ${r['8-throughput'].latencyMs} ms; one \`n8n execute\` per arm and scenario (Manual Trigger -> Edit Fields -> Split Out -> the node under test: a work-order NTE update per item, tagged by its Actor); deliveries and duplicates counted per tag from the emulator's log (200 answers); scenario A: node and HTTP Request node interleaved over rounds, medians; time = the last node's execution time as n8n reports it; the window floor of a sliding limit of L per minute = floor((items - 1) / L) minutes + one answer's latency. Rate limits are the emulator's sliding window per client (429 + Retry-After in seconds); every arm starts with a fresh window.`,
		);
	}
	if (r['9-shared-budget']?.arms) {
		lines.push(
			`- **9** in-process emulator with its sliding rate limit of ${r['9-shared-budget'].limit} per ${r['9-shared-budget'].windowMs / 1000} s per client id (429 + Retry-After in seconds), no added latency; each arm in fresh worker processes (bench/lib/budget-worker.js: the n8n-core harness with the package, its executions at the same time, as an n8n worker runs them; one login per process), after the window emptied; work-order NTE updates tagged per item (Actor); time from the first execution's start to the last one's end, as the workers' clocks saw them (process start-up excluded; with several workers they start a few hundred ms apart); floor = floor((items - 1) / limit) windows (for the staggered arm the ratio is taken after subtracting the 4 s stagger); delivered and duplicates from the emulator's log (200 per tag). "Workers" are worker processes, not the full queue stack (Redis, PostgreSQL, main): the budget is per process either way, and test/queue/run-queue.js runs a fixed stack of 2 workers as one script. ${r['9-shared-budget'].runs} run(s) per arm.`,
		);
	}
	if (r['7-package']?.requireTimes)
		lines.push(
			'- **7** `require()` timed with hrtime in a fresh `node -e` process per sample, with and without n8n-workflow loaded first; tarball from `npm pack --json` into a temp dir (the one case 3 installs into n8n).',
		);
	if (r['10-invoice-payments']?.method) lines.push(`- **10** ${r['10-invoice-payments'].method}.`);
	if (r['11-invoice-trigger']?.method) lines.push(`- **11** ${r['11-invoice-trigger'].method}.`);
	lines.push(
		`- Load average (1 min) before -> after each case: ${Object.entries(r)
			.map(
				([k, v]) =>
					`${k} ${v.loadAverage?.before?.[0]} -> ${v.loadAverage?.after?.[0]} (${Math.round((v.elapsedMs ?? 0) / 1000)} s)`,
			)
			.join('; ')}.`,
	);
	lines.push('', 'Raw figures, samples and machine details: [`results.json`](results.json).', '');
	return lines.join('\n');
}

/** docs/benchmarks.md: the head (commit, date, machine, n8n), the targets and every figure of a run. */
function benchmarksDoc(report, rows) {
	const m = report.machine;
	const r = report.results;
	const runtimeNode = r['3-real-n8n']?.nodeRuntime ?? r['4-lossless-json']?.n8nNode?.nodeVersion;
	const failed = report.failures ?? [];
	const targetRows = rows.filter((x) => x.target !== 'report' && x.target !== 'contrast');
	const lines = [
		'# Benchmarks',
		'',
		'<!-- Written by `npm run bench` (bench/run.js) from bench/results.json: do not edit, run it again. -->',
		'',
		`- **Commit**: ${m.gitCommit ?? 'unknown'} (package ${m.packageVersion})`,
		`- **Date**: ${report.startedAt} (the run took ${Math.round(report.elapsedMs / 1000)} s)`,
		`- **Machine**: ${m.cpuCount} CPUs (${m.cpuModel}), ${m.totalMemoryMB} MB RAM, ${m.platform}; load average (1/5/15 min) ${report.loadAverage.start.join(' / ')} at the start, ${report.loadAverage.end.join(' / ')} at the end (the machine may be shared: absolute times vary; compared arms run interleaved in the same run)`,
		`- **Runtimes**: Node ${m.node} (cases 1, 2, 4-7, 9-11: n8n-core ${m.n8nCore}); **n8n ${report.n8nVersion ?? 'n/a'}**${runtimeNode ? ` on Node ${String(runtimeNode).replace(/^v/, '')}` : ''} (cases 3 and 8, and case 4 under n8n's Node)`,
		`- **Command**: \`${report.command}\`${report.reruns?.length ? `; re-run since: ${report.reruns.map((rr) => `case(s) ${rr.cases.join(', ')} on ${rr.startedAt} at ${rr.gitCommit}`).join('; ')}` : ''}`,
		`- **Work**: ${failed.length ? `FAILED: ${failed.map((f) => `case ${f.case}: ${f.why}`).join('; ')}` : 'every case ran, every counted arm delivered every item it sent (delivered/sent beside each figure), and every request the emulators received was valid against the service reference (the contract test)'}`,
		'',
		'Every case runs against the local emulator of the service (test/emulator/) on 127.0.0.1. The',
		'workloads are repeatable on the service as its reference describes it: updates of a work',
		"order's NTE (PUT /workorders/{id}/nte), never a proposal move repeated into its own status;",
		'cases 10 and 11 pay and change invoices they create, each on an emulator of its own.',
		'The bench exits non-zero when a case errs, does not run, delivers fewer items than it sent',
		'(contrast arms, the HTTP Request node without retry under a rate limit, are shown, not',
		'counted) or sends a request the reference does not allow. How each figure is measured:',
		'[bench/RESULTS.md](../bench/RESULTS.md); raw figures: [bench/results.json](../bench/results.json).',
		'',
		'## Targets',
		'',
		markdownTable(targetRows),
		'',
		'## Every figure',
		'',
		markdownTable(rows),
		'',
		'Back to the [README](../README.md).',
		'',
	];
	return lines.join('\n');
}

/**
 * `--only=N --merge`: the cases of this run replace theirs in bench/results.json (the last full run),
 * and bench/RESULTS.md is written again from it, saying which cases were re-run when.
 */
function mergeIntoResults(partial) {
	const file = path.join(__dirname, 'results.json');
	const full = JSON.parse(fs.readFileSync(file, 'utf8'));
	for (const [key, value] of Object.entries(partial.results)) full.results[key] = value;
	const ordered = {};
	for (const k of Object.keys(full.results).sort(byCase)) ordered[k] = full.results[k];
	full.results = ordered;
	const rerun = {
		cases: partial.cases,
		startedAt: partial.startedAt,
		elapsedMs: partial.elapsedMs,
		command: partial.command,
		gitCommit: partial.machine.gitCommit,
		loadAverage: partial.loadAverage,
	};
	full.reruns = [
		...(full.reruns ?? []).filter((rr) => !rr.cases.every((c) => partial.cases.includes(c))),
		rerun,
	];
	full.failures = failures(
		Object.keys(full.results).map((k) => Number(k.split('-')[0])),
		full.results,
	);
	writeResultsMd(full);
	fs.writeFileSync(file, JSON.stringify(full, null, 2) + '\n');
}

/** bench/RESULTS.md from a whole report (its table computed again from its results). */
function writeResultsMd(full) {
	full.table = rowsFor(full.results);
	fs.writeFileSync(path.join(__dirname, 'RESULTS.md'), markdown(full, full.table));
	fs.writeFileSync(DOC, benchmarksDoc(full, full.table));
}

async function main() {
	if (arg('render')) {
		// bench/RESULTS.md again from bench/results.json (no run): after a change of the report's words
		writeResultsMd(JSON.parse(fs.readFileSync(path.join(__dirname, 'results.json'), 'utf8')));
		console.log('written: bench/RESULTS.md, docs/benchmarks.md');
		return;
	}
	const startedAt = new Date().toISOString();
	const t0 = Date.now();
	const machine = U.machineInfo();
	const loadStart = U.loadAverage();
	U.log(
		`node ${machine.node}, ${machine.cpuCount} CPUs, load ${loadStart.join(' ')}; cases ${ONLY.join(',')}${QUICK ? ' (quick)' : ''}`,
	);
	if (!machine.exposeGc)
		U.log('warning: run with --expose-gc for clean memory baselines (npm run bench does)');
	if (!fs.existsSync(path.join(U.ROOT, 'dist/nodes/WorkOrderService/WorkOrderService.node.js'))) {
		throw new Error('dist/ is missing: run `npm run build` first (npm run bench does)');
	}
	const results = {};

	// 7 first: it packs the tarball that case 3 installs into n8n.
	if (ONLY.includes(7))
		await timed(results, '7-package', () =>
			require('./cases/package').run({ runs: RUNS.requireRuns }),
		);
	if (ONLY.includes(4))
		await timed(results, '4-lossless-json', () =>
			require('./cases/lossless-json').run({ runs: RUNS.lossless }),
		);

	if (ONLY.includes(1) || ONLY.includes(2)) {
		const emulator = await startEmulator({ logBodies: false });
		const harness = await createHarness({ packageDir: U.ROOT });
		try {
			if (ONLY.includes(1))
				await timed(results, '1-token-economy', () =>
					require('./cases/tokens').run({
						emulator,
						harness,
						runs: RUNS.tokens,
						items: RUNS.tokenItems,
					}),
				);
			if (ONLY.includes(2))
				await timed(results, '2-per-item-overhead', () =>
					require('./cases/overhead').run({
						emulator,
						harness,
						rounds: RUNS.overheadRounds,
						items: RUNS.overheadItems,
					}),
				);
		} finally {
			harness.close();
			await emulator.close();
		}
	}

	if (ONLY.includes(5) || ONLY.includes(6)) {
		const emulator = await startEmulator({ logBodies: false, workOrderCount: 10000 });
		try {
			if (ONLY.includes(5))
				await timed(results, '5-big-list', () =>
					require('./cases/big-list').run({ emulator, runs: RUNS.bigList }),
				);
			if (ONLY.includes(6))
				await timed(results, '6-attachments', () =>
					require('./cases/attachments').run({
						emulator,
						runs: RUNS.attachments,
						sizeMB: RUNS.sizeMB,
					}),
				);
		} finally {
			await emulator.close();
		}
	}

	let packDir = results['7-package']?.tarball?.tempDir;
	if (ONLY.includes(3)) {
		let tarball = results['7-package']?.tarball?.path;
		if (!tarball) {
			try {
				const { execFileSync } = require('node:child_process');
				const os = require('node:os');
				const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'wos-bench-pack-'));
				packDir = dir;
				const info = JSON.parse(
					execFileSync('npm', ['pack', '--json', '--pack-destination', dir, '--loglevel=error'], {
						cwd: U.ROOT,
						encoding: 'utf8',
					}),
				)[0];
				tarball = path.join(dir, info.filename);
			} catch (e) {
				U.log(`npm pack failed: ${e.message}`);
			}
		}
		await timed(results, '3-real-n8n', () =>
			require('./cases/real-n8n').run({
				rounds: RUNS.n8nRounds,
				items: RUNS.n8nItems,
				tarball,
			}),
		);
		if (ONLY.includes(8))
			await timed(results, '8-throughput', () =>
				require('./cases/throughput').run({ tarball, baselineTarball: BASELINE, quick: QUICK }),
			);
	} else if (ONLY.includes(8)) {
		const { execFileSync } = require('node:child_process');
		const os = require('node:os');
		const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'wos-bench-pack-'));
		packDir = dir;
		const tarball =
			results['7-package']?.tarball?.path ??
			path.join(
				dir,
				JSON.parse(
					execFileSync('npm', ['pack', '--json', '--pack-destination', dir, '--loglevel=error'], {
						cwd: U.ROOT,
						encoding: 'utf8',
					}),
				)[0].filename,
			);
		await timed(results, '8-throughput', () =>
			require('./cases/throughput').run({ tarball, baselineTarball: BASELINE, quick: QUICK }),
		);
	}

	if (ONLY.includes(9))
		await timed(results, '9-shared-budget', () =>
			require('./cases/shared-budget').run({
				baselineDir: BASELINE_DIR,
				runs: RUNS.budget,
				quick: QUICK,
			}),
		);

	// 10 and 11: each starts and closes its own emulator (and harness)
	if (ONLY.includes(10))
		await timed(results, '10-invoice-payments', () =>
			require('./cases/invoice-payments').run({
				quick: QUICK,
				count: RUNS.invoicePayments,
				log: U.log,
			}),
		);
	if (ONLY.includes(11))
		await timed(results, '11-invoice-trigger', () =>
			require('./cases/invoice-trigger').run({
				quick: QUICK,
				rounds: RUNS.invoiceTriggerRounds,
			}),
		);

	contract.drain();
	const failed = failures(ONLY, results);
	const report = {
		startedAt,
		elapsedMs: Date.now() - t0,
		command: COMMAND,
		full: FULL,
		quick: QUICK,
		cases: ONLY,
		runs: RUNS,
		machine,
		n8nVersion: n8nVersion(results),
		loadAverage: { start: loadStart, end: U.loadAverage() },
		failures: failed,
		results,
	};
	const ordered = {};
	for (const k of Object.keys(results).sort(byCase)) ordered[k] = results[k];
	report.results = ordered;
	const jsonFile = arg('out')
		? path.resolve(String(arg('out')))
		: path.join(__dirname, FULL ? 'results.json' : 'results.partial.json');
	// the figures first: a table that cannot be rendered must not lose a run (--render again later)
	fs.writeFileSync(jsonFile, JSON.stringify(report, null, 2) + '\n');
	let rows;
	try {
		rows = rowsFor(ordered);
	} catch (e) {
		U.log(`the table could not be rendered: ${e.stack || e}`);
		rows = [
			{
				case: 'report',
				figure: `the table could not be rendered: ${e.message}`,
				delivered: '-',
				target: '',
				met: 'NO (error)',
			},
		];
		failed.push({ case: 'report', why: `the table could not be rendered: ${e.message}` });
	}
	report.table = rows;

	console.log(
		`\nWork Order Service node benchmark — ${machine.cpuCount} CPUs, Node ${machine.node}, load ${report.loadAverage.start.join('/')} -> ${report.loadAverage.end.join('/')}, ${Math.round(report.elapsedMs / 1000)} s\n`,
	);
	console.log(textTable(rows));
	fs.writeFileSync(jsonFile, JSON.stringify(report, null, 2) + '\n');
	const written = [path.relative(U.ROOT, jsonFile)];
	if (FULL && !arg('out')) {
		fs.writeFileSync(path.join(__dirname, 'RESULTS.md'), markdown(report, rows));
		fs.writeFileSync(DOC, benchmarksDoc(report, rows));
		written.push('bench/RESULTS.md', path.relative(U.ROOT, DOC));
	} else if (arg('merge')) {
		mergeIntoResults(report);
		written.push('bench/results.json, bench/RESULTS.md, docs/benchmarks.md (merged)');
	}
	console.log(`\nwritten: ${written.join(', ')}`);
	// the packed tarball's temp dir
	if (packDir) fs.rmSync(packDir, { recursive: true, force: true });
	if (failed.length) {
		console.log(
			`\nBENCH FAILED: ${failed.length} failure(s) of the work itself (not of a speed target):`,
		);
		for (const f of failed) console.log(`  case ${f.case}: ${f.why}`);
		process.exitCode = 1;
	} else
		console.log(
			`\nbench OK: every case ran, delivered every item it sent, and sent only requests the reference allows (${Object.values(
				results,
			).reduce((n, r) => n + (r.contract?.requests ?? 0), 0)} validated)`,
		);
}

/** The n8n version of the real-n8n cases of a run (null when none ran). */
function n8nVersion(results) {
	return results['3-real-n8n']?.n8nVersion ?? results['8-throughput']?.n8nVersion ?? null;
}

main().catch((e) => {
	console.error(e);
	process.exit(1);
});
