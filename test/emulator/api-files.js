// @ts-check
'use strict';

/**
 * The files behind attachments' `Uri` (service reference, section 5: "Every attachment record
 * carries `Uri`: the address to download the file from"; the reference does not say what that
 * address is, nor whether it needs the bearer token). The emulator has two kinds, so that a client's
 * download rules can be seen at work:
 *
 * - **Same origin** as the API: `{base_url}/v3/files/{attachmentId}` (proposal files) and
 *   `{base_url}/v3/files/attachments/{attachmentId}/{file name}` (work order and note files; emulator
 *   addresses, not in the reference). They need `Authorization: Bearer <token>` like every API call and serves the file of a
 *   work order, note or proposal attachment the caller may see: 200 with the bytes, `Content-Type`,
 *   `Content-Length`, `Content-Disposition: attachment; filename="..."`. An unknown or invisible
 *   attachment, or one whose bytes the emulator did not keep (`logBodies: false`): 404, ErrorCode 5006.
 * - **Storage**: a second HTTP server on another port of 127.0.0.1 (another origin), started on first
 *   use, like a blob store with pre-signed links: `http://127.0.0.1:PORT/blobs/{key}?expires=<epoch s>&signature=<hex>`.
 *   The link is made when the attachment is listed and expires `ttlSeconds` later (default 900, on the
 *   emulator's clock: `advanceTime` ends it). A request with an `Authorization` header is refused
 *   (400 InvalidArgument, "Only one auth mechanism allowed", as pre-signed blob stores answer); an
 *   expired link 403 AccessDenied "Request has expired"; a bad signature 403 SignatureDoesNotMatch;
 *   an unknown key 404 NoSuchKey (XML error bodies). `storage.requests` logs every request with its
 *   headers.
 *
 * Switches per file, for the redirect rules: `redirect: 'self'` (the API address answers 302 to itself
 * with `?direct=true`, which then serves the file) and `redirect: 'storage'` (the API address answers
 * 302 to the file's storage link).
 *
 * Proposal attachments are kept here (the stored proposals have none): a few seeded on first use
 * (61001: a quote PDF and a photo; 61004: a text file; 61005: a photo on the storage origin) and any
 * that `addProposalFile` adds. Work order and note attachments are the emulator's
 * `state.attachments`; `attachmentUri` gives their address.
 *
 * Rows for api.js's route table: [method, pattern, handler, permission].
 */

const crypto = require('node:crypto');
const http = require('node:http');
const { apiError, empty } = require('./http-util');

/**
 * @typedef {import('./index').Emulator} Emulator
 * @typedef {import('./index').RequestContext} RequestContext
 * @typedef {{ user: any, subscriberId: number | null, providerId: number | null }} Principal
 * @typedef {{ Id: number, ProposalId: number, Name: string, Description: string | null, MediaType: string, data: Buffer,
 *   at: number, Visibility: number | null, storage: boolean, redirect: 'self' | 'storage' | null, ttlSeconds: number, key: string }} ProposalFile
 * @typedef {{ origin: string, requests: Array<{ method: string, path: string, query: Record<string, string>, headers: Record<string, any>, status: number }>,
 *   close: () => Promise<void> }} Storage
 */

/** ErrorCode of "no file at this address" (an emulator code, beside 5002-5005). */
const FILE_NOT_FOUND = 5006;
const LINK_TTL_SECONDS = 900;
const FIRST_PROPOSAL_FILE_ID = 660001;

/** @type {WeakMap<Emulator, { files: Map<number, ProposalFile>, nextId: number, secret: Buffer, storage?: Promise<Storage> }>} */
const stores = new WeakMap();

/**
 * The address of a work order or note attachment (same origin as the API):
 * `{base_url}/v3/files/attachments/{Id}/{file name}`; the name is not read back.
 * @param {Emulator} emu @param {{ Id: number, FileName?: string, Name?: string }} a the stored attachment
 */
function attachmentUri(emu, a) {
	return `${emu.baseUrl}/v3/files/attachments/${a.Id}/${encodeURIComponent(a.FileName || a.Name || 'file')}`;
}

/** The address of a proposal file kept here (same origin as the API). @param {Emulator} emu @param {number} id */
function fileUri(emu, id) {
	return `${emu.baseUrl}/v3/files/${id}`;
}

/** @param {Emulator} emu */
function storeOf(emu) {
	let store = stores.get(emu);
	if (!store) {
		store = { files: new Map(), nextId: FIRST_PROPOSAL_FILE_ID, secret: crypto.randomBytes(32) };
		stores.set(emu, store);
		seed(emu, store);
	}
	return store;
}

/** Deterministic bytes of a given length (the seed files' filler). @param {string} label @param {number} length */
function filler(label, length) {
	const out = Buffer.alloc(length);
	let block = Buffer.alloc(0);
	for (let i = 0; i < length; i++) {
		if (i % 32 === 0) block = crypto.createHash('sha256').update(`${label}:${i}`).digest();
		out[i] = block[i % 32];
	}
	return out;
}

/** @param {string} label */
function jpeg(label) {
	return Buffer.concat([
		Buffer.from([0xff, 0xd8, 0xff, 0xe0]),
		filler(label, 2044),
		Buffer.from([0xff, 0xd9]),
	]);
}

/** @param {string} text */
function pdf(text) {
	return Buffer.from(
		`%PDF-1.4\n1 0 obj << /Type /Catalog >> endobj\n% ${text}\ntrailer << /Root 1 0 R >>\n%%EOF\n`,
		'latin1',
	);
}

/** @param {Emulator} emu @param {ReturnType<typeof storeOf>} store */
function seed(emu, store) {
	const add = (/** @type {Omit<Parameters<typeof addRecord>[2], 'at'>} */ o) => {
		if (emu.state.proposals[o.proposalId])
			addRecord(emu, store, { ...o, at: emu.now() - 20 * 3600_000 });
	};
	add({
		proposalId: 61001,
		name: 'P-61001-quote.pdf',
		mimeType: 'application/pdf',
		data: pdf('Quote P-61001: walk-in cooler compressor, 1200 USD'),
		description: 'Signed quote',
	});
	add({
		proposalId: 61001,
		name: 'compressor-nameplate.jpg',
		mimeType: 'image/jpeg',
		data: jpeg('61001-nameplate'),
		description: 'Nameplate of the failed compressor',
	});
	add({
		proposalId: 61004,
		name: 'led-retrofit-scope.txt',
		mimeType: 'text/plain',
		data: Buffer.from('Scope: replace 48 T8 fixtures with LED panels.\n'),
		description: null,
	});
	add({
		proposalId: 61005,
		name: 'rooftop-unit.jpg',
		mimeType: 'image/jpeg',
		data: jpeg('61005-rooftop'),
		description: 'Rooftop unit 2, as found',
		storage: true,
	});
}

/**
 * @param {Emulator} emu @param {ReturnType<typeof storeOf>} store
 * @param {{ proposalId: number, name: string, mimeType: string, data: Buffer, description?: string | null, at: number,
 *   storage?: boolean, redirect?: 'self' | 'storage' | null, ttlSeconds?: number }} o
 * @returns {ProposalFile}
 */
function addRecord(emu, store, o) {
	const rec = {
		Id: store.nextId++,
		ProposalId: o.proposalId,
		Name: o.name,
		Description: o.description ?? null,
		MediaType: o.mimeType,
		data: o.data,
		at: o.at,
		Visibility: null,
		storage: !!o.storage || o.redirect === 'storage',
		redirect: o.redirect ?? null,
		ttlSeconds: o.ttlSeconds ?? LINK_TTL_SECONDS,
		key: crypto.randomBytes(12).toString('hex'),
	};
	store.files.set(rec.Id, rec);
	return rec;
}

/**
 * Adds a file to a proposal (tests, demo); starts the storage server when the file lives there.
 * @param {Emulator} emu
 * @param {{ proposalId: number, name: string, mimeType: string, data: Buffer, description?: string | null,
 *   storage?: boolean, redirect?: 'self' | 'storage' | null, ttlSeconds?: number }} o
 */
async function addProposalFile(emu, o) {
	if (!emu.state.proposals[o.proposalId])
		throw new Error(`proposal ${o.proposalId} does not exist`);
	const rec = addRecord(emu, storeOf(emu), { ...o, at: emu.now() });
	if (rec.storage) await storageOf(emu);
	return rec;
}

/** The files of a proposal, in Id order. @param {Emulator} emu @param {number} proposalId */
function proposalFiles(emu, proposalId) {
	return [...storeOf(emu).files.values()].filter((f) => f.ProposalId === proposalId);
}

/** @param {ReturnType<typeof storeOf>} store @param {string} key @param {number} expires */
function signature(store, key, expires) {
	return crypto.createHmac('sha256', store.secret).update(`${key}:${expires}`).digest('hex');
}

/** A fresh link to the file (storage files: pre-signed, expiring). @param {Emulator} emu @param {ProposalFile} rec */
async function fileLink(emu, rec) {
	if (!rec.storage || rec.redirect === 'storage') return fileUri(emu, rec.Id);
	return await storageLink(emu, rec);
}

/** @param {Emulator} emu @param {ProposalFile} rec */
async function storageLink(emu, rec) {
	const storage = await storageOf(emu);
	const store = storeOf(emu);
	const expires = Math.floor(emu.now() / 1000) + rec.ttlSeconds;
	return `${storage.origin}/blobs/${rec.key}?expires=${expires}&signature=${signature(store, rec.key, expires)}`;
}

/** The reference's `Attachment` for a proposal file. @param {Emulator} emu @param {ProposalFile} rec */
async function proposalAttachment(emu, rec) {
	return {
		Id: rec.Id,
		Description: rec.Description,
		Name: rec.Name,
		TimeStamp: emu.formatDate(rec.at).local,
		Uri: await fileLink(emu, rec),
		NoteId: null,
		Visibility: rec.Visibility,
	};
}

// ---- the API-origin address ------------------------------------------------------------------

/** @param {Principal} p @param {{ SubscriberId: number, ProviderId: number } | undefined} owner */
function mayRead(p, owner) {
	return (
		!!owner &&
		(p.providerId !== null
			? owner.ProviderId === p.providerId
			: owner.SubscriberId === p.subscriberId)
	);
}

/**
 * The file an API-origin address names, if the caller may read it.
 * @param {Emulator} emu @param {Principal} p @param {number} id
 * @returns {{ name: string, mimeType: string, data: Buffer | undefined, rec?: ProposalFile } | null}
 */
function findFile(emu, p, id) {
	const rec = storeOf(emu).files.get(id);
	if (rec)
		return mayRead(p, emu.state.proposals[rec.ProposalId])
			? { name: rec.Name, mimeType: rec.MediaType, data: rec.data, rec }
			: null;
	const a = emu.state.attachments.find((x) => x.Id === id);
	if (!a || !mayRead(p, emu.state.workOrders[a.WorkOrderId])) return null;
	const name = a.Name ?? a.FileName ?? `attachment-${id}`;
	return {
		name,
		mimeType: a.MediaType ?? a.ContentType ?? 'application/octet-stream',
		data: a.data,
	};
}

/** `attachment; filename="..."` with the name's quotes and non-ASCII made safe (RFC 6266 filename*). @param {string} name */
function contentDisposition(name) {
	const ascii = name.replace(/[^\x20-\x7e]/g, '_').replace(/["\\]/g, '_');
	return `attachment; filename="${ascii}"; filename*=UTF-8''${encodeURIComponent(name)}`;
}

/**
 * GET /files/{fileId}: the bytes of an attachment, for a caller with a token.
 * @param {Emulator} emu @param {RequestContext} ctx @param {Principal} p @param {{ fileId: number }} params
 */
async function serveFile(emu, ctx, p, params) {
	const file = findFile(emu, p, params.fileId);
	if (!file || !file.data)
		return apiError(404, FILE_NOT_FOUND, `No file was found for attachment ${params.fileId}`);
	const direct = String(ctx.query.direct ?? '').toLowerCase() === 'true';
	if (file.rec?.redirect === 'self' && !direct)
		return empty(302, { location: `${fileUri(emu, file.rec.Id)}?direct=true` });
	if (file.rec?.redirect === 'storage')
		return empty(302, { location: await storageLink(emu, file.rec) });
	return {
		status: 200,
		headers: {
			'content-type': file.mimeType,
			'content-disposition': contentDisposition(file.name),
		},
		body: file.data,
	};
}

// ---- the storage origin ----------------------------------------------------------------------

/** @param {string} code @param {string} message */
function xmlError(code, message) {
	return `<?xml version="1.0" encoding="UTF-8"?>\n<Error><Code>${code}</Code><Message>${message}</Message></Error>`;
}

/**
 * What the storage server answers to one request.
 * @param {Emulator} emu @param {import('node:http').IncomingMessage} req @param {URL} url
 * @returns {{ status: number, headers: Record<string, string>, body: Buffer }}
 */
function storageAnswer(emu, req, url) {
	const error = (
		/** @type {number} */ status,
		/** @type {string} */ code,
		/** @type {string} */ message,
	) => ({
		status,
		headers: { 'content-type': 'application/xml' },
		body: Buffer.from(xmlError(code, message)),
	});
	if (req.method !== 'GET' && req.method !== 'HEAD')
		return error(
			405,
			'MethodNotAllowed',
			'The specified method is not allowed against this resource.',
		);
	if (req.headers.authorization)
		return error(
			400,
			'InvalidArgument',
			'Only one auth mechanism allowed; only the X-Amz-Algorithm query parameter, Signature query string parameter or the Authorization header should be specified',
		);
	const m = /^\/blobs\/([0-9a-f]+)$/.exec(url.pathname);
	const store = storeOf(emu);
	const rec = m ? [...store.files.values()].find((f) => f.storage && f.key === m[1]) : undefined;
	if (!rec) return error(404, 'NoSuchKey', 'The specified key does not exist.');
	const expires = Number(url.searchParams.get('expires'));
	const given = url.searchParams.get('signature') ?? '';
	const expected = signature(store, rec.key, expires);
	if (
		!Number.isInteger(expires) ||
		given.length !== expected.length ||
		!crypto.timingSafeEqual(Buffer.from(given), Buffer.from(expected))
	) {
		return error(
			403,
			'SignatureDoesNotMatch',
			'The request signature we calculated does not match the signature you provided.',
		);
	}
	if (expires * 1000 < emu.now()) return error(403, 'AccessDenied', 'Request has expired');
	return {
		status: 200,
		headers: { 'content-type': rec.MediaType, 'content-disposition': contentDisposition(rec.Name) },
		body: rec.data,
	};
}

/** The storage server of this emulator, started on first use and closed with the emulator. @param {Emulator} emu @returns {Promise<Storage>} */
function storageOf(emu) {
	const store = storeOf(emu);
	if (!store.storage) store.storage = startStorage(emu);
	return store.storage;
}

/** @param {Emulator} emu @returns {Promise<Storage>} */
async function startStorage(emu) {
	/** @type {Storage['requests']} */
	const requests = [];
	const server = http.createServer((req, res) => {
		const url = new URL(req.url || '/', 'http://storage');
		const answer = storageAnswer(emu, req, url);
		requests.push({
			method: req.method || '',
			path: url.pathname,
			query: Object.fromEntries(url.searchParams),
			headers: { ...req.headers },
			status: answer.status,
		});
		res.writeHead(answer.status, {
			...answer.headers,
			'content-length': String(answer.body.length),
		});
		res.end(req.method === 'HEAD' ? undefined : answer.body);
	});
	await new Promise((resolve, reject) => {
		server.once('error', reject);
		server.listen(0, '127.0.0.1', () => resolve(undefined));
	});
	server.unref();
	const address = /** @type {import('node:net').AddressInfo} */ (server.address());
	const close = () =>
		new Promise((resolve) => {
			server.close(() => resolve(undefined));
			server.closeAllConnections();
		});
	const closeEmulator = emu.close.bind(emu);
	emu.close = async () => {
		await close();
		return await closeEmulator();
	};
	return {
		origin: `http://127.0.0.1:${address.port}`,
		requests,
		close: /** @type {() => Promise<void>} */ (close),
	};
}

/** @type {Array<[string, string, (emu: Emulator, ctx: RequestContext, p: any, params: any) => any, string | null]>} */
const FILE_ROUTES = [
	['GET', 'files/{fileId}', serveFile, null],
	// the work order and note attachments' form; `args` (the file name) is taken as it is and not read
	['GET', 'files/attachments/{fileId}/{args}', serveFile, null],
];

module.exports = {
	FILE_ROUTES,
	FILE_NOT_FOUND,
	LINK_TTL_SECONDS,
	attachmentUri,
	fileUri,
	addProposalFile,
	proposalFiles,
	proposalAttachment,
	storageOf,
};
