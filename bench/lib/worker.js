'use strict';
/**
 * Child process for the memory cases (5 and 6): the n8n-core harness with this package's node,
 * talking to the emulator that runs in the parent (bench/run.js), so the emulator's own memory
 * (request bodies, state) never counts here. One job per process:
 *
 *   node --expose-gc bench/lib/worker.js '<job JSON>'      (forked by bench/run.js with IPC)
 *
 * Jobs:
 *   { kind: 'bigList', credential }                    Work Order -> Get Many, Return All
 *   { kind: 'upload', target: 'checklist'|'note', sizeMB, credential, ids }
 * Sends one message { ok, ... } to the parent.
 */
const { createHarness } = require('../../test/harness');
const { ROOT, procStatus, resetPeakRss, startSampler, gc } = require('./util');
const { registerBenchNodes } = require('./bench-nodes');

const NODE_TYPE = 'n8n-nodes-work-order-service.workOrderService';

function node(id, name, type, parameters, x, extra = {}) {
	return { id, name, type, typeVersion: 1, position: [x, 0], parameters, ...extra };
}

function chain(nodes) {
	const connections = {};
	for (let i = 0; i < nodes.length - 1; i++) {
		connections[nodes[i].name] = { main: [[{ node: nodes[i + 1].name, type: 'main', index: 0 }]] };
	}
	return { name: 'bench', nodes, connections, settings: { executionOrder: 'v1' } };
}

const wosNode = (parameters) =>
	node(
		'bench-wos',
		'Work Order Service',
		NODE_TYPE,
		{ authentication: 'password', ...parameters },
		660,
		{
			credentials: { workOrderServiceApi: { id: 'bench-cred', name: 'Bench' } },
		},
	);

async function bigList(job, harness) {
	const wf = chain([
		node('bench-start', 'Start', 'n8n-nodes-base.manualTrigger', {}, 0),
		wosNode({ resource: 'workOrder', operation: 'getAll', returnAll: true, options: {} }),
	]);
	gc();
	const before = procStatus();
	const memBefore = process.memoryUsage();
	const hwmReset = resetPeakRss();
	const sampler = startSampler(2);
	const t0 = performance.now();
	const result = await harness.run(wf, { timeoutMs: 240_000 });
	const wallMs = performance.now() - t0;
	const sampled = sampler.stop();
	const after = procStatus();
	const output = result.outputs['Work Order Service'] ?? [];
	const ids = new Set(output.map((i) => i.json.Id));
	gc();
	const retained = process.memoryUsage();
	return {
		status: result.status,
		error: result.error ? String(result.error.message) : undefined,
		items: output.length,
		distinctIds: ids.size,
		wallMs,
		rssBefore: before.rss,
		peakRss: after.hwm,
		peakRssGrowth: hwmReset && after.hwm ? after.hwm - before.rss : sampled.rss - before.rss,
		peakRssSource: hwmReset ? 'VmHWM' : 'sampler',
		heapUsedBefore: memBefore.heapUsed,
		peakHeapUsed: sampled.heapUsed,
		peakHeapGrowth: sampled.heapUsed - memBefore.heapUsed,
		retainedHeapGrowthAfterGc: retained.heapUsed - memBefore.heapUsed,
		samples: sampled.samples,
	};
}

async function upload(job, harness) {
	const sizeMB = job.sizeMB;
	const params =
		job.target === 'checklist'
			? {
					resource: 'checklistResponse',
					operation: 'submit',
					workOrderId: job.ids.workOrderId,
					questionId: job.ids.questionId,
					questionType: 'acknowledgement',
					answer: 'yes',
					providerId: job.ids.providerId,
					technicianId: job.ids.technicianId,
					attempt: 1,
					binaryPropertyName: 'data',
				}
			: {
					resource: 'workOrderNote',
					operation: 'addAttachment',
					workOrderId: job.ids.noteWorkOrderId,
					noteId: job.ids.noteId,
					binaryPropertyName: 'data',
				};
	const wf = chain([
		node('bench-start', 'Start', 'n8n-nodes-base.manualTrigger', {}, 0),
		node(
			'bench-file',
			'Big File',
			'bench.bigFile',
			{ sizeMB, fileName: 'site-photo.jpg', mimeType: 'image/jpeg' },
			220,
		),
		node('bench-mark', 'Mark', 'bench.mark', {}, 440),
		wosNode(params),
	]);
	// The token is fetched before (warm-up run by the parent is not possible across processes),
	// so log in once here with a tiny request, outside the measurement.
	const warm = await harness.run(
		chain([
			node('bench-start', 'Start', 'n8n-nodes-base.manualTrigger', {}, 0),
			wosNode({ resource: 'rejectionReason', operation: 'getAll' }),
		]),
		{ timeoutMs: 60_000 },
	);
	if (warm.status !== 'success') throw new Error(`warm-up failed: ${warm.error?.message}`);

	const peakAtStart = procStatus().hwm;
	const result = await harness.run(wf, { timeoutMs: 240_000 });
	const mark = globalThis.__benchMark;
	if (!mark) throw new Error(`the Mark node did not run: ${result.error?.message}`);
	const wallMs = performance.now() - mark.t0;
	const sampled = mark.sampler.stop();
	const after = procStatus();
	const fileItem = result.outputs['Big File']?.[0]?.json ?? {};
	const out = result.outputs['Work Order Service']?.[0]?.json ?? {};
	const fileSize = fileItem.size;
	const peakRss = mark.hwmReset && after.hwm ? after.hwm : sampled.rss;
	return {
		status: result.status,
		error: result.error ? String(result.error.message) : undefined,
		fileSize,
		fileSha256: fileItem.sha256,
		response: job.target === 'checklist' ? (out.CheckListResponsePicture ?? out) : out,
		uploadMs: wallMs,
		rssBefore: mark.rssBefore,
		peakRss,
		peakRssGrowth: peakRss - mark.rssBefore,
		growthOverFile: (peakRss - mark.rssBefore) / fileSize,
		peakRssSource: mark.hwmReset && after.hwm ? 'VmHWM' : 'sampler',
		peakRssWholeProcess: Math.max(peakAtStart ?? 0, mark.peakRssBeforeMark ?? 0, peakRss),
		peakRssBeforeNode: mark.peakRssBeforeMark,
		heapUsedBefore: mark.heapUsedBefore,
		peakHeapUsed: sampled.heapUsed,
		arrayBuffersBefore: mark.arrayBuffersBefore,
		peakArrayBuffers: sampled.arrayBuffers,
		peakArrayBuffersGrowth: sampled.arrayBuffers - mark.arrayBuffersBefore,
		samples: sampled.samples,
	};
}

async function main() {
	const job = JSON.parse(process.argv[2]);
	const harness = await createHarness({ packageDir: ROOT });
	registerBenchNodes(harness);
	harness.credentials.set('bench-cred', {
		name: 'Bench',
		type: 'workOrderServiceApi',
		data: job.credential,
	});
	const result = job.kind === 'bigList' ? await bigList(job, harness) : await upload(job, harness);
	harness.close();
	process.send({ ok: true, ...result });
}

main().catch((error) => {
	process.send?.({ ok: false, error: error && error.stack ? error.stack : String(error) });
	process.exitCode = 1;
});
