'use strict';
/**
 * Issue 35: file downloads go through the client (transport/client.ts `sendFile`), so they count
 * against the service's rate limit like every other request: the application's one budget, the
 * node's Requests Per Minute, one retry policy. One execution downloads attachment files and then
 * writes a note for each (Download -> Create Note) under a low rate limit of the emulator (its
 * sliding window per client id, 429 + Retry-After).
 *
 * Set under the limit, Requests Per Minute keeps every window of the emulator at or below the limit,
 * downloads included (a download outside the budget burst past it); without it, the budget learns
 * the limit from the service's 429s, downloads waiting with the writes. Either way every item is
 * delivered once: each file byte-exact, each note recorded once.
 */
const crypto = require('node:crypto');
const support = require('../support');
const files = require('../emulator/api-files');

const LIMIT = 10;
const WINDOW_MS = 2000;
const FILES = 12;
const NOTE_WO = 90000005;

const sha = (data) => crypto.createHash('sha256').update(data).digest('hex');

let env;
beforeEach(async () => {
	env = await support.setup();
	env.harness.credentials.set('cred-1', {
		name: 'Emulator password',
		type: 'workOrderServiceApi',
		data: support.passwordCredential(env.emulator),
	});
	// log in once, so that the execution below starts with a stored token
	await support.runNode(env.harness, {
		parameters: { resource: 'workOrder', operation: 'get', workOrderId: 90000001 },
	});
});
afterEach(async () => {
	await env.close();
});

/** FILES attachment files on the API's origin, each with other bytes: the items that name them. */
async function attachmentItems() {
	const made = [];
	for (let k = 0; k < FILES; k++) {
		const data = crypto.randomBytes(2048 + k);
		const rec = await files.addProposalFile(env.emulator, {
			proposalId: 61004,
			name: `photo-${k}.bin`,
			mimeType: 'application/octet-stream',
			data,
		});
		made.push({
			json: { Uri: `${env.emulator.baseUrl}/v3/files/${rec.Id}`, Name: rec.Name, tag: `dl-${k}` },
			sha: sha(data),
		});
	}
	return made;
}

/** Start -> Items -> Download (attachment.download) -> Note (workOrderNote.create), one execution. */
function downloadThenNote(itemList, requestOptions) {
	const credentials = { workOrderServiceApi: { id: 'cred-1', name: 'Emulator password' } };
	const node = (name, x, parameters) => ({
		id: `node-${name}`,
		name,
		type: 'n8n-nodes-work-order-service.workOrderService',
		typeVersion: 1,
		position: [x, 0],
		parameters: { authentication: 'password', ...parameters, requestOptions },
		credentials,
	});
	return {
		name: 'downloads and writes',
		nodes: [
			...support.startNodes(itemList.map((i) => ({ json: i.json }))),
			node('Download', 440, {
				resource: 'attachment',
				operation: 'download',
				source: 'uri',
				uri: '={{ $json.Uri }}',
			}),
			node('Note', 660, {
				resource: 'workOrderNote',
				operation: 'create',
				workOrderId: NOTE_WO,
				note: '=Downloaded {{ $json.tag }}',
			}),
		],
		connections: {
			Start: { main: [[{ node: 'Items', type: 'main', index: 0 }]] },
			Items: { main: [[{ node: 'Download', type: 'main', index: 0 }]] },
			Download: { main: [[{ node: 'Note', type: 'main', index: 0 }]] },
		},
		settings: { executionOrder: 'v1' },
	};
}

/** The most requests the emulator received in any window of WINDOW_MS (each request starts one). */
function busiestWindow(requests) {
	const times = requests.map((q) => Date.parse(q.time)).sort((a, b) => a - b);
	let most = 0;
	for (let i = 0, j = 0; i < times.length; i++) {
		while (times[i] - times[j] >= WINDOW_MS) j++;
		most = Math.max(most, i - j + 1);
	}
	return most;
}

function expectEveryItemDelivered(run, made) {
	expect(run.error).toBeUndefined();
	const downloaded = run.outputs.Download;
	expect(downloaded).toHaveLength(FILES);
	downloaded.forEach((item, k) => {
		expect(item.json.tag).toBe(`dl-${k}`);
		expect(sha(Buffer.from(item.binary.data.data, 'base64'))).toBe(made[k].sha);
	});
	expect(run.outputs.Note).toHaveLength(FILES);
	// each note recorded once: one accepted POST per tag
	const posts = support
		.apiRequests(env.emulator)
		.filter((q) => q.method === 'POST' && q.status === 201);
	const tags = posts.map((q) => q.body.Note).sort();
	expect(tags).toEqual(made.map((m) => `Downloaded ${m.json.tag}`).sort());
}

test('Requests Per Minute below the limit: downloads and writes together never exceed the limit in any window; no 429; every item delivered', async () => {
	const made = await attachmentItems();
	env.emulator.clearRequests();
	env.emulator.setFaults({ rateLimit: { limit: LIMIT, windowMs: WINDOW_MS } });
	// 240 per minute: one start every 250 ms, at most 8-9 in a window of 2 s (the limit is 10)
	const run = await env.harness.run(
		downloadThenNote(made, { requestsPerMinute: (LIMIT * 60_000) / WINDOW_MS - 60 }),
		{ timeoutMs: 60_000 },
	);
	expectEveryItemDelivered(run, made);
	const api = support.apiRequests(env.emulator);
	const fileGets = api.filter((q) => q.method === 'GET' && q.path.startsWith('/api/v3/files/'));
	expect(fileGets).toHaveLength(FILES);
	expect(api.filter((q) => q.status === 429)).toEqual([]);
	expect(busiestWindow(api)).toBeLessThanOrEqual(LIMIT);
	// the downloads carried the token (the API's origin) and were paced with the writes
	expect(fileGets.every((q) => /^Bearer \S+$/.test(q.headers.authorization))).toBe(true);
}, 90_000);

test('no Requests Per Minute: the budget learns the limit from the 429s; downloads wait with the writes; every item delivered once', async () => {
	const made = await attachmentItems();
	env.emulator.clearRequests();
	env.emulator.setFaults({ rateLimit: { limit: LIMIT, windowMs: WINDOW_MS } });
	const run = await env.harness.run(downloadThenNote(made, {}), { timeoutMs: 90_000 });
	expectEveryItemDelivered(run, made);
	const api = support.apiRequests(env.emulator);
	// what the service accepted stayed within its limit, and it throttled only a few requests
	expect(busiestWindow(api.filter((q) => q.status !== 429))).toBeLessThanOrEqual(LIMIT);
	const throttled = api.filter((q) => q.status === 429);
	expect(throttled.length).toBeLessThanOrEqual(FILES);
	// a throttled download was sent again after the budget's wait, not given up
	const fileGets = api.filter((q) => q.method === 'GET' && q.path.startsWith('/api/v3/files/'));
	expect(fileGets.filter((q) => q.status === 200)).toHaveLength(FILES);
}, 120_000);
