'use strict';
/**
 * Case 5: Work Order -> Get Many with Return All over 10,000 work orders (emulator
 * workOrderCount: 10000; 200 pages of 50). Each run is a fresh child process (bench/lib/worker.js)
 * with a fresh credential; the emulator runs here, so its memory is not counted. Requests are
 * counted in the emulator log: 200 API requests + 1 token request expected.
 */
const path = require('node:path');
const S = require('../../test/support');
const { median, round, runWorker, log } = require('../lib/util');

const WORKER = path.join(__dirname, '..', 'lib', 'worker.js');

async function run({ emulator, runs = 3, expectedItems = 10000 }) {
	const results = [];
	for (let r = 0; r < runs; r++) {
		emulator.clearRequests();
		const res = await runWorker(WORKER, {
			kind: 'bigList',
			credential: S.passwordCredential(emulator, 'subscriber'),
		});
		const api = S.apiRequests(emulator);
		results.push({
			...res,
			apiRequests: api.length,
			tokenRequests: emulator.tokenRequests().length,
			pageSizes: [...new Set(api.map((q) => q.query.$top))],
		});
		if (res.status !== 'success')
			throw new Error(`big list run ${r + 1}: ${res.status} ${res.error}`);
		log(
			`case 5: run ${r + 1}/${runs}: ${res.items} items, ${Math.round(res.wallMs)} ms, ${api.length}+${emulator.tokenRequests().length} requests`,
		);
	}
	emulator.clearRequests();
	const m = (k) => median(results.map((x) => x[k]));
	const expectedPages = Math.ceil(expectedItems / 50);
	const summary = {
		runs,
		items: m('items'),
		distinctIds: m('distinctIds'),
		wallMs: round(m('wallMs'), 1),
		apiRequests: m('apiRequests'),
		tokenRequests: m('tokenRequests'),
		expectedApiRequests: expectedPages,
		peakRssGrowth: m('peakRssGrowth'),
		peakRss: m('peakRss'),
		peakHeapGrowth: m('peakHeapGrowth'),
		peakHeapUsed: m('peakHeapUsed'),
		retainedHeapGrowthAfterGc: m('retainedHeapGrowthAfterGc'),
		peakRssSource: results[0].peakRssSource,
		memoryMethod:
			'fresh child process per run (--expose-gc): GC, baseline RSS/heap, reset of the kernel peak-RSS counter (/proc/self/clear_refs 5), run, peak RSS = VmHWM; heap peak from process.memoryUsage() sampled every 2 ms; "retained" = heap after GC with the 10,000 output items still held',
		samples: results.map((x) => ({
			wallMs: round(x.wallMs, 1),
			apiRequests: x.apiRequests,
			tokenRequests: x.tokenRequests,
			peakRssGrowth: x.peakRssGrowth,
			peakHeapGrowth: x.peakHeapGrowth,
		})),
	};
	summary.met =
		summary.items === expectedItems &&
		summary.distinctIds === expectedItems &&
		summary.apiRequests === expectedPages &&
		summary.tokenRequests === 1;
	summary.deliveries = results.map((x, r) => ({
		label: `Return All, run ${r + 1} (distinct work orders out)`,
		delivered: x.distinctIds,
		sent: expectedItems,
	}));
	return summary;
}

module.exports = { run };
