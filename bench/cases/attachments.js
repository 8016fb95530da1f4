'use strict';
/**
 * Case 6: a 100 MiB file uploaded as a checklist picture and as a note attachment. Each upload
 * runs in a fresh child process (bench/lib/worker.js): Manual Trigger -> Big File (the file as a
 * binary item, n8n's in-memory default mode) -> Mark (GC, baseline RSS, reset of the kernel's
 * peak-RSS counter) -> Work Order Service. Peak RSS growth = VmHWM after the node - RSS at Mark.
 * The emulator (logBodies: false) runs in this process and checks that every byte arrived.
 */
const path = require('node:path');
const S = require('../../test/support');
const { median, round, runWorker, log, MB } = require('../lib/util');

const WORKER = path.join(__dirname, '..', 'lib', 'worker.js');

async function run({ emulator, runs = 3, sizeMB = 100 }) {
	const f = emulator.fixtures;
	const ids = {
		workOrderId: f.workOrders.checklist,
		questionId: f.questions.acknowledgement,
		providerId: 3001,
		technicianId: 4001,
		noteWorkOrderId: f.notes.workOrderId,
		noteId: String(f.notes.small),
	};
	const out = {};
	for (const target of ['checklist', 'note']) {
		const results = [];
		for (let r = 0; r < runs; r++) {
			emulator.clearRequests();
			const res = await runWorker(WORKER, {
				kind: 'upload',
				target,
				sizeMB,
				credential: S.passwordCredential(emulator, 'subscriber'),
				ids,
			});
			if (res.status !== 'success') throw new Error(`${target} upload: ${res.status} ${res.error}`);
			// what the emulator received
			const upload = S.apiRequests(emulator).find((q) => q.method === 'POST');
			const filePart = upload?.parts?.find((p) => p.filename);
			const stored =
				target === 'checklist'
					? emulator.state.checklistResponses.at(-1)?.file
					: emulator.state.attachments.at(-1);
			results.push({
				...res,
				receivedBytes: filePart?.size ?? null,
				bodyBytes: upload?.bodySize ?? null,
				intact: Boolean(
					stored &&
						(stored.size ?? stored.Size) === res.fileSize &&
						(!stored.sha256 || stored.sha256 === res.fileSha256),
				),
			});
			log(
				`case 6: ${target} ${r + 1}/${runs}: growth ${(res.peakRssGrowth / MB).toFixed(1)} MB = ${res.growthOverFile.toFixed(3)}x, ${Math.round(res.uploadMs)} ms`,
			);
		}
		emulator.clearRequests();
		const m = (k) => median(results.map((x) => x[k]));
		out[target] = {
			runs,
			fileSize: results[0].fileSize,
			peakRssGrowth: m('peakRssGrowth'),
			growthOverFile: round(m('growthOverFile'), 4),
			peakRssWholeProcess: m('peakRssWholeProcess'),
			rssBefore: m('rssBefore'),
			peakArrayBuffersGrowth: m('peakArrayBuffersGrowth'),
			uploadMs: round(m('uploadMs'), 1),
			receivedBytes: results[0].receivedBytes,
			intact: results.every((x) => x.intact),
			samples: results.map((x) => ({
				growthOverFile: round(x.growthOverFile, 4),
				peakRssGrowth: x.peakRssGrowth,
				uploadMs: round(x.uploadMs, 1),
			})),
			met: m('growthOverFile') <= 2 && results.every((x) => x.intact),
		};
	}
	return {
		sizeMB,
		memoryMethod:
			'fresh child process per upload (--expose-gc); baseline = RSS after GC in a pass-through node right before the Work Order Service node, when the input item already holds the file (base64, n8n default binary mode); peak = kernel VmHWM after the node (counter reset at the baseline), so no sampling gap can miss it',
		...out,
		deliveries: ['checklist', 'note'].map((k) => ({
			label: `${k} upload, every byte arrived (runs)`,
			delivered: out[k].samples.length && out[k].intact ? out[k].runs : 0,
			sent: out[k].runs,
		})),
		met: out.checklist.met && out.note.met,
	};
}

module.exports = { run };
