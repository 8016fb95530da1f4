#!/usr/bin/env node
'use strict';
/**
 * Peak memory of one attachment download through n8n-core: Manual Trigger -> Work Order Service
 * (Attachment → Download, by proposal and attachment ID) against the emulator in another process
 * (emulator-process.js), the file stored by n8n's binary data service in the mode given.
 *
 *   node --expose-gc test/node/attachment/memory/measure.js [--mode filesystem|default] [--mb 20] [--storage]
 *
 * Prints one JSON line: the file's size and whether it arrived byte-exact (sha256), its name and
 * MIME type, and the peak growth of the process's memory over its state before the download, also
 * as a multiple of the file size: `heapPlusExternal` (heapUsed + external, sampled every
 * millisecond while the download runs: garbage not yet collected included), `live` (the same a
 * tick after a full garbage collection, every 10 ms: what the download holds) and `rss`. A small download runs
 * first, so that code loading and the login are not counted. Needs --expose-gc.
 */
const crypto = require('node:crypto');
const path = require('node:path');
const { fork } = require('node:child_process');

const args = process.argv.slice(2);
const option = (name, fallback) => (args.includes(name) ? args[args.indexOf(name) + 1] : fallback);
const mode = option('--mode', 'filesystem');
const megabytes = Number(option('--mb', '20'));
process.env.HARNESS_BINARY_DATA_MODE = mode;

const { Container } = require('@n8n/di');
const { BinaryDataService } = require('n8n-core');
const { createHarness } = require('../../../harness');
const { workflow } = require('../../../support');

function startEmulatorProcess() {
	const child = fork(
		path.join(__dirname, 'emulator-process.js'),
		[String(megabytes), args.includes('--storage') ? 'storage' : ''],
		{ stdio: 'inherit' },
	);
	return new Promise((resolve, reject) => {
		child.once('message', (m) => resolve({ child, ...m.ready }));
		child.once('exit', (code) => reject(new Error(`emulator process exited (${code})`)));
	});
}

const used = () => {
	const m = process.memoryUsage();
	return { heapPlusExternal: m.heapUsed + m.external, rss: m.rss };
};

async function fileHash(binary) {
	const hash = crypto.createHash('sha256');
	if (binary.id) {
		for await (const chunk of await Container.get(BinaryDataService).getAsStream(binary.id))
			hash.update(chunk);
	} else hash.update(Buffer.from(binary.data, 'base64'));
	return hash.digest('hex');
}

/** Samples memory while `run` runs: peaks of heapUsed + external (as sampled and after GC) and rss. */
async function sampled(run) {
	global.gc();
	global.gc();
	await new Promise((resolve) => setTimeout(resolve, 50));
	const before = used();
	const peak = { ...before, live: before.heapPlusExternal };
	let ticks = 0;
	const sampler = setInterval(() => {
		const now = used();
		peak.heapPlusExternal = Math.max(peak.heapPlusExternal, now.heapPlusExternal);
		peak.rss = Math.max(peak.rss, now.rss);
		// every 10 ms a full collection, read a tick later (freed buffers are released in the
		// background): what is still referenced, garbage left out
		ticks++;
		if (ticks % 10 === 0) global.gc();
		else if (ticks % 10 === 1) peak.live = Math.max(peak.live, now.heapPlusExternal);
	}, 1);
	const started = Date.now();
	const result = await run();
	const ms = Date.now() - started;
	clearInterval(sampler);
	const after = used();
	peak.heapPlusExternal = Math.max(peak.heapPlusExternal, after.heapPlusExternal);
	peak.rss = Math.max(peak.rss, after.rss);
	global.gc();
	await new Promise((resolve) => setTimeout(resolve, 50));
	const held = used().heapPlusExternal - before.heapPlusExternal;
	peak.live = Math.max(peak.live, before.heapPlusExternal + held);
	const growth = {
		heapPlusExternal: peak.heapPlusExternal - before.heapPlusExternal,
		live: peak.live - before.heapPlusExternal,
		rss: peak.rss - before.rss,
	};
	return { result, ms, growth, held };
}

async function main() {
	const emu = await startEmulatorProcess();
	const harness = await createHarness();
	harness.credentials.set('cred-1', {
		name: 'Emulator password',
		type: 'workOrderServiceApi',
		data: emu.credential,
	});
	const run = (attachmentId) =>
		harness.run(
			workflow({
				parameters: {
					resource: 'attachment',
					operation: 'download',
					source: 'proposal',
					proposalId: String(emu.proposalId),
					attachmentId: String(attachmentId),
					options: { maxFileSizeMb: 1024 },
				},
			}),
			{ timeoutMs: 120_000 },
		);
	const warm = await run(660001);
	if (warm.status !== 'success') throw new Error(`warm-up failed: ${warm.error?.message}`);
	const { result, ms, growth, held } = await sampled(() => run(emu.attachmentId));
	if (result.status !== 'success') throw new Error(`download failed: ${result.error?.message}`);
	const binary = result.outputs['Work Order Service'][0].binary.data;
	const ratio = (bytes) => Number((bytes / emu.size).toFixed(2));
	console.log(
		JSON.stringify({
			mode,
			fileBytes: emu.size,
			byteExact: (await fileHash(binary)) === emu.sha256 && binary.bytes === emu.size,
			fileName: binary.fileName,
			mimeType: binary.mimeType,
			storedIn: binary.id ? 'binary data store (id)' : 'item (base64)',
			peakGrowthBytes: growth,
			peakGrowthPerFileSize: {
				heapPlusExternal: ratio(growth.heapPlusExternal),
				live: ratio(growth.live),
				rss: ratio(growth.rss),
			},
			heldAfterBytes: held,
			downloadMs: ms,
		}),
	);
	harness.close();
	emu.child.disconnect();
}

main().catch((error) => {
	console.error(error);
	process.exit(1);
});
