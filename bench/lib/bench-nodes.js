'use strict';
/**
 * Bench-only node types, registered into a harness instance next to the package's node (the
 * harness's `nodeTypes.add`); nothing here changes how the package's node runs.
 *
 * - `bench.bigFile`: emits one item holding a generated file of `sizeMB` MiB as binary property
 *   `data`, through `prepareBinaryData` (n8n's in-memory "default" binary mode keeps it in the item,
 *   base64), so the file exists before the node under test runs, as it would after a Read File node.
 * - `bench.mark`: pass-through that, right before the next node runs, collects garbage, records
 *   the memory baseline, resets the kernel's peak-RSS counter and starts a memory sampler
 *   (state in `globalThis.__benchMark`).
 */
const crypto = require('node:crypto');
const { NodeConnectionTypes } = require('n8n-workflow');
const { procStatus, resetPeakRss, startSampler, gc, MB } = require('./util');

class BigFile {
	constructor() {
		this.description = {
			displayName: 'Bench Big File',
			name: 'bigFile',
			group: ['input'],
			version: 1,
			description: 'Bench-only: one item with a generated file',
			defaults: { name: 'Big File' },
			inputs: [NodeConnectionTypes.Main],
			outputs: [NodeConnectionTypes.Main],
			properties: [
				{ displayName: 'Size (MiB)', name: 'sizeMB', type: 'number', default: 1 },
				{ displayName: 'File Name', name: 'fileName', type: 'string', default: 'photo.jpg' },
				{ displayName: 'MIME Type', name: 'mimeType', type: 'string', default: 'image/jpeg' },
			],
		};
	}

	async execute() {
		const size = Math.round(Number(this.getNodeParameter('sizeMB', 0)) * MB);
		let buffer = Buffer.allocUnsafe(size);
		// 1 MiB of random bytes repeated: incompressible enough, cheap to make
		const block = crypto.randomBytes(Math.min(MB, size));
		for (let off = 0; off < size; off += block.length)
			block.copy(buffer, off, 0, Math.min(block.length, size - off));
		const sha256 = crypto.createHash('sha256').update(buffer).digest('hex');
		const binary = await this.helpers.prepareBinaryData(
			buffer,
			this.getNodeParameter('fileName', 0),
			this.getNodeParameter('mimeType', 0),
		);
		buffer = null;
		return [[{ json: { size, sha256 }, binary: { data: binary }, pairedItem: { item: 0 } }]];
	}
}

class Mark {
	constructor() {
		this.description = {
			displayName: 'Bench Mark',
			name: 'mark',
			group: ['transform'],
			version: 1,
			description: 'Bench-only: memory baseline right before the next node',
			defaults: { name: 'Mark' },
			inputs: [NodeConnectionTypes.Main],
			outputs: [NodeConnectionTypes.Main],
			properties: [],
		};
	}

	async execute() {
		const items = this.getInputData();
		gc();
		const before = procStatus();
		const mem = process.memoryUsage();
		const hwmReset = resetPeakRss();
		globalThis.__benchMark = {
			rssBefore: before.rss,
			peakRssBeforeMark: before.hwm,
			heapUsedBefore: mem.heapUsed,
			externalBefore: mem.external,
			arrayBuffersBefore: mem.arrayBuffers,
			hwmReset,
			sampler: startSampler(2),
			t0: performance.now(),
		};
		return [items];
	}
}

/** Registers the bench node types into a harness. */
function registerBenchNodes(harness) {
	harness.nodeTypes.add('bench.bigFile', new BigFile());
	harness.nodeTypes.add('bench.mark', new Mark());
}

module.exports = { registerBenchNodes };
