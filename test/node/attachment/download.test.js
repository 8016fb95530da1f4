'use strict';
/**
 * attachment.download: a work order, note or proposal attachment's file, from the record's Uri, into
 * the output item's binary field, byte-exact, with its name and MIME type; the access token only to
 * the API's own origin; redirects only within one origin; the size limit; throttling and a renewed
 * token on the API origin; a 404, a refused or expired link and no answer as clear errors; bad input
 * refused before any request; Continue On Fail. Memory: memory.test.js.
 */
const crypto = require('node:crypto');
const http = require('node:http');
const { NodeApiError, NodeOperationError } = require('n8n-workflow');
const {
	useEnvironment,
	items,
	expectBearer,
	pairedIndexes,
	expectValidationError,
	CRED_ID,
	support,
} = require('../helpers');
const files = require('../../emulator/api-files');
const notes = require('../workOrderNote/notes');

const env = useEnvironment();
const rl = (mode, value) => ({ __rl: true, mode, value });
const sha = (data) => crypto.createHash('sha256').update(data).digest('hex');
const bytesOf = (binary) => Buffer.from(binary.data, 'base64');
const download = (parameters, spec = {}) =>
	env.run({
		parameters: { resource: 'attachment', operation: 'download', ...parameters },
		...spec,
	});

/** The attachment records of a proposal, as Get Attachments gives them. */
async function attachmentsOf(proposalId) {
	const r = await env.run({
		parameters: {
			resource: 'proposal',
			operation: 'getAttachments',
			proposalId: rl('id', String(proposalId)),
			returnAll: true,
		},
	});
	expect(r.error).toBeUndefined();
	return r.output.map((o) => o.json);
}

const storedFile = (id) =>
	[61001, 61004, 61005]
		.flatMap((p) => files.proposalFiles(env.emulator, p))
		.find((f) => f.Id === id);

describe('attachment.download: from the Uri of a previous step', () => {
	test('same origin as the API: GET the Uri with the Bearer token; the file byte-exact in "data", named and typed; the record stays the JSON', async () => {
		const [quote] = await attachmentsOf(61001);
		const input = {
			json: quote,
			binary: {
				photo: {
					base64: Buffer.from('earlier file').toString('base64'),
					fileName: 'earlier.txt',
					mimeType: 'text/plain',
				},
			},
		};
		const r = await download({ source: 'uri' }, { items: [input] });
		expect(r.error).toBeUndefined();
		expect(r.api.map((q) => `${q.method} ${q.path} ${q.status}`)).toEqual([
			`GET /api/v3/files/${quote.Id} 200`,
		]);
		expectBearer(env, r.api[0]);
		const [item] = r.output;
		expect(item.json).toEqual(quote);
		expect(item.pairedItem).toEqual({ item: 0 });
		expect(item.binary.data).toMatchObject({
			fileName: 'P-61001-quote.pdf',
			mimeType: 'application/pdf',
			fileExtension: 'pdf',
			bytes: storedFile(quote.Id).data.length,
		});
		expect(bytesOf(item.binary.data).equals(storedFile(quote.Id).data)).toBe(true);
		expect(Buffer.from(item.binary.photo.data, 'base64').toString()).toBe('earlier file');
	});

	test('a Uri on another origin (the storage server): fetched without Authorization; the file byte-exact', async () => {
		const [photo] = await attachmentsOf(61005);
		const storage = await files.storageOf(env.emulator);
		expect(new URL(photo.Uri).origin).toBe(storage.origin);
		const before = storage.requests.length;
		const r = await download(
			{ source: 'uri', uri: '={{ $json.Uri }}', binaryPropertyName: 'photo' },
			{ items: [{ json: photo }] },
		);
		expect(r.error).toBeUndefined();
		expect(r.api).toHaveLength(0);
		const sent = storage.requests.slice(before);
		expect(sent.map((q) => `${q.method} ${q.path} ${q.status}`)).toEqual([
			`GET ${new URL(photo.Uri).pathname} 200`,
		]);
		expect(sent[0].headers.authorization).toBeUndefined();
		expect(Object.keys(sent[0].headers).filter((h) => /auth|cookie|token/i.test(h))).toEqual([]);
		expect(r.output[0].binary.photo).toMatchObject({
			fileName: 'rooftop-unit.jpg',
			mimeType: 'image/jpeg',
		});
		expect(sha(bytesOf(r.output[0].binary.photo))).toBe(sha(storedFile(photo.Id).data));
	});

	test("an expired link: a clear error with the server's words and what to do; nothing kept", async () => {
		const [photo] = await attachmentsOf(61005);
		env.emulator.advanceTime(3600);
		try {
			const r = await download({ source: 'uri' }, { items: [{ json: photo }] });
			expect(r.error).toBeInstanceOf(NodeApiError);
			expect(r.error.httpCode).toBe('403');
			expect(r.error.message).toBe(
				`The file download from ${new URL(photo.Uri).origin}${new URL(photo.Uri).pathname} was answered 403: Request has expired`,
			);
			expect(r.error.message).not.toContain('signature=');
			expect(r.error.description).toMatch(/link has expired.*Get Attachments.*owner and ID/);
			expect(r.error.context.itemIndex).toBe(0);
		} finally {
			env.emulator.advanceTime(-3600);
		}
	});

	test('no file at the address (404), with Continue On Fail: an error item with the status; the next item still downloads', async () => {
		const [quote] = await attachmentsOf(61001);
		const r = await download(
			{ source: 'uri', uri: '={{ $json.Uri }}' },
			{
				items: items({ Uri: `${env.emulator.baseUrl}/v3/files/999999` }, quote),
				continueOnFail: true,
			},
		);
		expect(r.result.status).toBe('success');
		expect(r.api.map((q) => `${q.path} ${q.status}`)).toEqual([
			'/api/v3/files/999999 404',
			`/api/v3/files/${quote.Id} 200`,
		]);
		expect(pairedIndexes(r.output)).toEqual([0, 1]);
		expect(r.output[0].json).toEqual({
			error: `The file download from ${env.emulator.baseUrl}/v3/files/999999 was answered 404: No file was found for attachment 999999`,
			errorDescription: expect.stringMatching(/no file at this address.*Get Attachments/),
			httpCode: '404',
		});
		expect(r.output[0].binary).toBeUndefined();
		expect(r.output[1].binary.data.fileName).toBe('P-61001-quote.pdf');
	});

	test.each([
		['empty (an item without a Uri)', '={{ $json.Uri }}', /must be the address of the file/],
		['not http(s)', 'ftp://files.example/quote.pdf', /not an http\(s\) address/],
		['a file path', 'file:///etc/passwd', /not an http\(s\) address/],
	])('a Uri that is %s is refused before any request', async (_name, uri, problem) => {
		const storage = await files.storageOf(env.emulator);
		const before = storage.requests.length;
		const r = await download({ source: 'uri', uri });
		expect(r.result.status).toBe('error');
		expect(r.error).toBeInstanceOf(NodeOperationError);
		expect(r.error.message).toMatch(problem);
		expect(r.error.message).toContain('item 0');
		expect(r.api).toHaveLength(0);
		expect(storage.requests.length).toBe(before);
	});

	test('a relative Uri is read against {API Base URL}/v3/ (and gets the token there)', async () => {
		const r = await download({ source: 'uri', uri: 'files/660003' });
		expect(r.error).toBeUndefined();
		expect(r.api.map((q) => `${q.path} ${q.status}`)).toEqual(['/api/v3/files/660003 200']);
		expectBearer(env, r.api[0]);
		expect(r.output[0].binary.data).toMatchObject({
			fileName: 'led-retrofit-scope.txt',
			mimeType: 'text/plain',
		});
	});
});

describe('attachment.download: by owner and ID', () => {
	test('a proposal attachment: the record (GET its list with $filter=Id eq ...), then its Uri; the record is the JSON', async () => {
		const r = await download({
			source: 'proposal',
			proposalId: rl('list', '61001'),
			attachmentId: '660002',
		});
		expect(r.error).toBeUndefined();
		expect(
			r.api.map((q) => `${q.method} ${q.path} ${JSON.stringify(q.query)} ${q.status}`),
		).toEqual([
			'GET /api/v3/odata/proposals(61001)/attachments {"$filter":"Id eq 660002"} 200',
			'GET /api/v3/files/660002 {} 200',
		]);
		for (const q of r.api) expectBearer(env, q);
		expect(r.output[0].json).toEqual(notes.parsedShape(JSON.parse(r.api[0].responseBody).value[0]));
		expect(r.output[0].binary.data).toMatchObject({
			fileName: 'compressor-nameplate.jpg',
			mimeType: 'image/jpeg',
		});
		expect(bytesOf(r.output[0].binary.data).equals(storedFile(660002).data)).toBe(true);
	});

	test('a proposal attachment on the storage origin: a fresh link is read, so the download works after the old one expired', async () => {
		const [photo] = await attachmentsOf(61005);
		env.emulator.advanceTime(3600);
		try {
			const r = await download({
				source: 'proposal',
				proposalId: rl('id', '61005'),
				attachmentId: String(photo.Id),
			});
			expect(r.error).toBeUndefined();
			expect(r.output[0].json.Uri).not.toBe(photo.Uri);
			expect(sha(bytesOf(r.output[0].binary.data))).toBe(sha(storedFile(photo.Id).data));
		} finally {
			env.emulator.advanceTime(-3600);
		}
	});

	test('work order and note attachments: uploaded to a note above 2^53, downloaded by the work order and by the note', async () => {
		const content = Buffer.from('%PDF-1.4 invoice for work order 90000005\n');
		const upload = await env.run({
			parameters: {
				resource: 'workOrderNote',
				operation: 'addAttachment',
				workOrderId: notes.WO,
				noteId: notes.BIG53,
				binaryPropertyName: 'data',
			},
			items: [notes.fileItem({}, 'data', content, 'invoice 7.pdf', 'application/pdf')],
		});
		expect(upload.error).toBeUndefined();
		// the service may answer the upload without a body (the reference documents none): the new ID from its store
		const id = String(env.emulator.state.attachments.at(-1).Id);
		if (upload.output[0].json.Ids !== undefined)
			expect(upload.output[0].json.Ids.map(String)).toContain(id);
		const byWorkOrder = await download({
			source: 'workOrder',
			workOrderId: rl('id', String(notes.WO)),
			attachmentId: id,
		});
		expect(byWorkOrder.error).toBeUndefined();
		const uri = new URL(byWorkOrder.output[0].json.Uri);
		expect(uri.origin).toBe(new URL(env.emulator.baseUrl).origin);
		expect(byWorkOrder.api.map((q) => `${q.path} ${q.query.$filter ?? ''} ${q.status}`)).toEqual([
			`/api/v3/odata/workorders(${notes.WO})/attachments Id eq ${id} 200`,
			`${decodeURIComponent(uri.pathname)}  200`,
		]);
		for (const q of byWorkOrder.api) expectBearer(env, q);
		const byNote = await download({
			source: 'workOrderNote',
			workOrderId: rl('id', String(notes.WO)),
			noteId: notes.BIG53,
			attachmentId: id,
			binaryPropertyName: 'invoice',
		});
		expect(byNote.error).toBeUndefined();
		expect(byNote.api[0].path).toBe(
			`/api/v3/odata/workorders(${notes.WO})/notes(${notes.BIG53})/attachments`,
		);
		for (const [r, key] of [
			[byWorkOrder, 'data'],
			[byNote, 'invoice'],
		]) {
			expect(r.output[0].json.NoteId).toBe(notes.BIG53);
			expect(r.output[0].binary[key]).toMatchObject({
				fileName: 'invoice 7.pdf',
				mimeType: 'application/pdf',
			});
			expect(bytesOf(r.output[0].binary[key]).equals(content)).toBe(true);
		}
	});

	test('an attachment the owner does not have: a clear error after one read, nothing downloaded', async () => {
		const r = await download({
			source: 'proposal',
			proposalId: rl('id', '61001'),
			attachmentId: '660004',
		});
		expect(r.error).toBeInstanceOf(NodeOperationError);
		expect(r.error.message).toBe('Attachment 660004 of proposal 61001 was not found');
		expect(r.error.description).toMatch(/Get Attachments of proposal 61001/);
		expect(r.api.map((q) => q.path)).toEqual(['/api/v3/odata/proposals(61001)/attachments']);
	});

	test.each([
		[
			{ source: 'proposal', proposalId: rl('id', '61001'), attachmentId: '0' },
			'attachmentId',
			/1 or greater/,
		],
		[
			{ source: 'proposal', proposalId: rl('id', '={{ "x" }}'), attachmentId: '660001' },
			'proposalId',
			/positive whole number/,
		],
		[
			{
				source: 'workOrderNote',
				workOrderId: rl('id', '90000005'),
				noteId: '99999999999999999999',
				attachmentId: '1',
			},
			'noteId',
			/64-bit maximum/,
		],
		[
			{
				source: 'workOrder',
				workOrderId: rl('id', '90000005'),
				attachmentId: '880001',
				binaryPropertyName: ' ',
			},
			'binaryPropertyName',
			/output binary field/,
		],
		[
			{ source: 'uri', uri: 'files/660001', options: { maxFileSizeMb: 0 } },
			'options.maxFileSizeMb',
			/from 1 to 10240/,
		],
	])(
		'bad input %j is refused before any request, naming %s',
		async (parameters, parameter, problem) => {
			const r = await download(parameters);
			expectValidationError(r, { parameter, item: 0, problem });
			expect(r.api).toHaveLength(0);
		},
	);
});

describe('attachment.download: the rules of the transport', () => {
	test('a 20 MB attachment arrives byte-exact, with its name and MIME type', async () => {
		const data = crypto.randomBytes(20 * 1024 * 1024);
		const rec = await files.addProposalFile(env.emulator, {
			proposalId: 61004,
			name: 'walkthrough.mp4',
			mimeType: 'video/mp4',
			data,
		});
		const r = await download(
			{ source: 'proposal', proposalId: rl('id', '61004'), attachmentId: String(rec.Id) },
			{ timeoutMs: 120_000 },
		);
		expect(r.error).toBeUndefined();
		const binary = r.output[0].binary.data;
		expect(binary).toMatchObject({
			fileName: 'walkthrough.mp4',
			mimeType: 'video/mp4',
			fileExtension: 'mp4',
			fileType: 'video',
			bytes: data.length,
			fileSize: '21 MB',
		});
		expect(sha(bytesOf(binary))).toBe(sha(data));
	});

	test('a redirect within the API origin is followed with the token; one to another origin (a pre-signed storage link) is followed without it', async () => {
		const moved = await files.addProposalFile(env.emulator, {
			proposalId: 61004,
			name: 'moved.txt',
			mimeType: 'text/plain',
			data: Buffer.from('moved once'),
			redirect: 'self',
		});
		const followed = await download({
			source: 'uri',
			uri: `${env.emulator.baseUrl}/v3/files/${moved.Id}`,
		});
		expect(followed.error).toBeUndefined();
		expect(followed.api.map((q) => `${q.path} ${JSON.stringify(q.query)} ${q.status}`)).toEqual([
			`/api/v3/files/${moved.Id} {} 302`,
			`/api/v3/files/${moved.Id} {"direct":"true"} 200`,
		]);
		for (const q of followed.api) expectBearer(env, q);
		expect(bytesOf(followed.output[0].binary.data).toString()).toBe('moved once');

		const away = await files.addProposalFile(env.emulator, {
			proposalId: 61004,
			name: 'away.txt',
			mimeType: 'text/plain',
			data: Buffer.from('elsewhere'),
			redirect: 'storage',
		});
		const storage = await files.storageOf(env.emulator);
		const before = storage.requests.length;
		const hopped = await download({
			source: 'uri',
			uri: `${env.emulator.baseUrl}/v3/files/${away.Id}`,
		});
		expect(hopped.error).toBeUndefined();
		expect(hopped.api.map((q) => `${q.method} ${q.path} ${q.status}`)).toEqual([
			`GET /api/v3/files/${away.Id} 302`,
		]);
		expectBearer(env, hopped.api[0]);
		const sent = storage.requests.slice(before);
		expect(sent.map((q) => `${q.method} ${q.status}`)).toEqual(['GET 200']);
		expect(sent[0].headers.authorization).toBeUndefined();
		expect(Object.keys(sent[0].headers).filter((h) => /auth|cookie|token/i.test(h))).toEqual([]);
		expect(bytesOf(hopped.output[0].binary.data).toString()).toBe('elsewhere');
		expect(hopped.output[0].binary.data).toMatchObject({
			fileName: 'away.txt',
			mimeType: 'text/plain',
		});
	});

	test('a redirect to an address that is not http(s) is refused, naming the download; nothing is downloaded', async () => {
		const moved = await files.addProposalFile(env.emulator, {
			proposalId: 61004,
			name: 'odd.txt',
			mimeType: 'text/plain',
			data: Buffer.from('odd'),
		});
		env.emulator.failNext({
			method: 'GET',
			path: `/api/v3/files/${moved.Id}`,
			status: 302,
			headers: { location: 'ftp://files.example.com/odd.txt' },
		});
		const r = await download({ source: 'uri', uri: `files/${moved.Id}` });
		expect(r.error).toBeInstanceOf(NodeApiError);
		expect(r.error.message).toBe(
			`The file download from ${env.emulator.baseUrl}/v3/files/${moved.Id} was answered 302 with a redirect to an address that is not http(s)`,
		);
		expect(r.output).toEqual([]);
	});

	test('Max File Size: a Content-Length beyond it is refused before the body is read', async () => {
		const big = await files.addProposalFile(env.emulator, {
			proposalId: 61004,
			name: 'big.bin',
			mimeType: 'application/octet-stream',
			data: Buffer.alloc(3 * 1024 * 1024, 7),
		});
		const r = await download({
			source: 'uri',
			uri: `files/${big.Id}`,
			options: { maxFileSizeMb: 2 },
		});
		expect(r.error).toBeInstanceOf(NodeApiError);
		expect(r.error.message).toBe(
			`The file at ${env.emulator.baseUrl}/v3/files/${big.Id} is larger than the size limit of 2.0 MB (3.0 MB)`,
		);
		expect(r.error.description).toMatch(/Max File Size/);
		const ok = await download({
			source: 'uri',
			uri: `files/${big.Id}`,
			options: { maxFileSizeMb: 3 },
		});
		expect(ok.error).toBeUndefined();
		expect(ok.output[0].binary.data.bytes).toBe(3 * 1024 * 1024);
	});

	test('Max File Size without a Content-Length: the download stops once more bytes arrive than allowed', async () => {
		let sent = 0;
		let closedEarly = false;
		const server = http.createServer((req, res) => {
			res.writeHead(200, { 'content-type': 'application/octet-stream' });
			const chunk = Buffer.alloc(64 * 1024, 1);
			const pump = () => {
				while (sent < 8 * 1024 * 1024) {
					sent += chunk.length;
					if (!res.write(chunk)) return res.once('drain', pump);
				}
				res.end();
			};
			res.on('close', () => (closedEarly = !res.writableFinished));
			pump();
		});
		await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
		try {
			const r = await download({
				source: 'uri',
				uri: `http://127.0.0.1:${server.address().port}/stream.bin`,
				options: { maxFileSizeMb: 1 },
			});
			expect(r.error).toBeInstanceOf(NodeApiError);
			expect(r.error.message).toMatch(
				/stream\.bin is larger than the size limit of 1\.0 MB \(more than 1\.0 MB\)$/,
			);
			await new Promise((resolve) => setTimeout(resolve, 200));
			expect(closedEarly).toBe(true);
			expect(sent).toBeLessThan(8 * 1024 * 1024);
		} finally {
			server.closeAllConnections();
			await new Promise((resolve) => server.close(resolve));
		}
	});

	test('a token the service no longer accepts (401): renewed once, the file downloaded with the new token', async () => {
		const [quote] = await attachmentsOf(61001);
		env.emulator.revokeAccessTokens();
		const tokensBefore = env.emulator.tokenRequests().length;
		const r = await download({ source: 'uri' }, { items: [{ json: quote }] });
		expect(r.error).toBeUndefined();
		const files401 = r.api.map((q) => `${q.path} ${q.status}`);
		expect(files401[0]).toBe(`/api/v3/files/${quote.Id} 401`);
		expect(files401.at(-1)).toBe(`/api/v3/files/${quote.Id} 200`);
		expect(env.emulator.tokenRequests().length).toBeGreaterThan(tokensBefore);
		expect(r.api.at(-1).headers.authorization).not.toBe(r.api[0].headers.authorization);
		expect(bytesOf(r.output[0].binary.data).equals(storedFile(quote.Id).data)).toBe(true);
	});

	test('throttled on the API origin (429 with Retry-After): waited out, then downloaded', async () => {
		env.emulator.failNext({
			path: '/api/v3/files/660003',
			status: 429,
			headers: { 'retry-after': '1' },
			body: { ErrorMessage: 'Too many requests' },
		});
		const r = await download({ source: 'uri', uri: 'files/660003' });
		expect(r.error).toBeUndefined();
		expect(r.api.map((q) => q.status)).toEqual([429, 200]);
		expect(Date.parse(r.api[1].time) - Date.parse(r.api[0].time)).toBeGreaterThanOrEqual(900);
	});

	test('a server that echoes the token in its error: the token is not in the error', async () => {
		const [quote] = await attachmentsOf(61001);
		const token = env.harness.credentials.get(CRED_ID).accessToken;
		env.emulator.failNext({
			path: `/api/v3/files/${quote.Id}`,
			status: 403,
			body: { ErrorMessage: `token ${token} may not read this file` },
		});
		const r = await download({ source: 'uri' }, { items: [{ json: quote }] });
		expect(r.error).toBeInstanceOf(NodeApiError);
		expect(r.error.message).toContain('answered 403: token [redacted] may not read this file');
		expect(JSON.stringify([r.error.message, r.error.description])).not.toContain(token);
	});

	test('no answer (connection refused): a clear error naming the server; nothing kept', async () => {
		const server = http.createServer();
		await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
		const port = server.address().port;
		await new Promise((resolve) => server.close(resolve));
		const r = await download({ source: 'uri', uri: `http://127.0.0.1:${port}/gone.pdf` });
		expect(r.error).toBeInstanceOf(NodeApiError);
		expect(r.error.message).toBe(
			`No answer from http://127.0.0.1:${port} for the file download (ECONNREFUSED)`,
		);
	});
});

describe('attachment.download: every login sends the token to the API origin only', () => {
	test.each(['oAuth2', 'contractor'])(
		'%s: the API-origin file with its token, the storage file without any',
		async (authentication) => {
			const { emu, credentialId } = await support.serviceWithCredential(env.harness, {
				authentication,
			});
			try {
				const storage = await files.storageOf(emu);
				const run = (parameters) =>
					support.runNode(env.harness, {
						authentication,
						credentialId,
						parameters: { resource: 'attachment', operation: 'download', ...parameters },
					});
				const own = await run({
					source: 'proposal',
					proposalId: rl('id', '61001'),
					attachmentId: '660001',
				});
				expect(own.error).toBeUndefined();
				const api = support.apiRequests(emu);
				expect(api.map((q) => `${q.path} ${q.status}`)).toEqual([
					'/api/v3/odata/proposals(61001)/attachments 200',
					'/api/v3/files/660001 200',
				]);
				expect(api[1].headers.authorization).toBe(api[0].headers.authorization);
				expect(api[1].headers.authorization).toMatch(/^Bearer \S+$/);
				expect(
					emu.state.tokens.find((t) => `Bearer ${t.token}` === api[1].headers.authorization)?.kind,
				).toBe(authentication === 'contractor' ? 'jwt' : 'oauth');
				const away = await run({
					source: 'proposal',
					proposalId: rl('id', '61005'),
					attachmentId: '660004',
				});
				expect(away.error).toBeUndefined();
				expect(storage.requests.map((q) => [q.status, q.headers.authorization])).toEqual([
					[200, undefined],
				]);
				expect(sha(bytesOf(away.output[0].binary.data))).toBe(
					sha(files.proposalFiles(emu, 61005)[0].data),
				);
			} finally {
				await emu.close();
			}
		},
	);
});
