import type { IBinaryData, IExecuteFunctions, IHttpRequestOptions } from 'n8n-workflow';
import { NodeApiError, NodeOperationError, fileTypeFromMimeType, sleep } from 'n8n-workflow';

import { credentialSecrets } from './secrets';
import { apiBaseOf, type WorkOrderServiceClient } from './client';
import {
	apiError as makeApiError,
	readHttpFailure,
	serviceMessage,
	type ErrorText,
} from './errors';
import {
	MAX_REDIRECTS,
	headerValue as header,
	isThrottle,
	parseRetryAfter,
	webUrl,
} from './policy';

/**
 * An attachment's file from its `Uri` (service reference, section 5) into n8n's binary data,
 * streamed (in n8n's in-memory mode the base64 is built chunk by chunk: 1.4 times the file, not the
 * 3.4 of `prepareBinaryData`). The access token goes only to the API Base URL's origin (through the
 * credential; a 401 there renews the token once along n8n's path); any other origin gets a plain
 * request. Redirects (at most 5) are followed hop by hop, each deciding the token by its own origin.
 * A size limit is enforced before and while reading. 429/503 from the API origin are waited out
 * within Max Wait and Max Retries. Error texts show an address without its query (signatures).
 */

type Stream = Parameters<IExecuteFunctions['helpers']['prepareBinaryData']>[0] & {
	push: (chunk: unknown, encoding?: string) => boolean;
	destroy: (error?: Error) => void;
};

type Answer = { statusCode: number; headers: Record<string, unknown>; body: Stream };

export interface DownloadRequest {
	/** The attachment's `Uri`: absolute, or relative to {API Base URL}/v3/. */
	uri: string;
	itemIndex: number;
	maxBytes: number;
	/** The name to give the file (else the answer's Content-Disposition, else the address's last segment). */
	fileName?: string;
	/** Only the answer's headers (name, type, size) are read, not the file (AI tool calls). */
	metadataOnly?: boolean;
}

export interface Downloaded {
	fileName: string;
	mimeType: string;
	/** Bytes, when known (always after a download). */
	size?: number;
	binary?: IBinaryData;
}

type Session = {
	ctx: IExecuteFunctions;
	client: WorkOrderServiceClient;
	apiOrigin: string;
	itemIndex: number;
};

const ERROR_TEXT_BYTES = 4096;

export async function downloadFile(
	ctx: IExecuteFunctions,
	client: WorkOrderServiceClient,
	request: DownloadRequest,
): Promise<Downloaded> {
	const credentials = await ctx.getCredentials(client.credentialType);
	// the credential's secrets join those every error text is cleaned of
	credentialSecrets(credentials, client.secrets);
	const apiBase = apiBaseOf(ctx, credentials);
	const session: Session = {
		ctx,
		client,
		apiOrigin: new URL(apiBase).origin,
		itemIndex: request.itemIndex,
	};
	let url = resolveUri(session, request.uri, apiBase);
	for (let redirects = 0; ; redirects++) {
		const answer = await fetchOnce(session, url);
		const location = header(answer.headers, 'location');
		if (answer.statusCode >= 300 && answer.statusCode < 400 && location !== undefined) {
			discard(answer.body);
			url = redirectTarget(session, url, answer.statusCode, location, redirects);
			continue;
		}
		if (answer.statusCode < 200 || answer.statusCode >= 300)
			throw await refusal(session, url, answer);
		return await receive(session, url, answer, request);
	}
}

/** The address to fetch: an absolute http(s) URL, or one relative to {API Base URL}/v3/. */
function resolveUri(session: Session, uri: string, apiBase: string): URL {
	const url = uri.trim() === '' ? undefined : webUrl(uri.trim(), `${apiBase}/v3/`);
	if (url) return url;
	const text = uri.length > 80 ? `${uri.slice(0, 77)}...` : uri;
	throw new NodeOperationError(
		session.ctx.getNode(),
		`The attachment's Uri is not an http(s) address in item ${session.itemIndex}: "${text}"`,
		{
			itemIndex: session.itemIndex,
			description:
				'Map the Uri of an attachment record (from Get Attachments), e.g. {{ $json.Uri }}. Nothing was downloaded.',
		},
	);
}

/** Never the query (signatures live there). */
const place = (url: URL) => `${url.origin}${url.pathname}`;

/** One GET and its answer whatever the status (the body a stream); see the rules above. */
async function fetchOnce(session: Session, url: URL): Promise<Answer> {
	const own = url.origin === session.apiOrigin;
	const { maxRetries, maxWaitMs } = session.client.settings;
	let waitedMs = 0;
	for (let attempt = 0; ; attempt++) {
		const answer = await send(session, url, own, true);
		if (own && answer.statusCode === 401) {
			discard(answer.body);
			// Without ignoreHttpStatusErrors n8n renews the token on the 401 and sends it again.
			return await send(session, url, true, false);
		}
		const waitMs =
			own && isThrottle(answer.statusCode, answer.headers, '')
				? (parseRetryAfter(header(answer.headers, 'retry-after')) ?? 1000)
				: undefined;
		if (waitMs === undefined || attempt >= maxRetries || waitedMs + waitMs > maxWaitMs)
			return answer;
		discard(answer.body);
		await sleep(waitMs);
		waitedMs += waitMs;
	}
}

async function send(
	session: Session,
	url: URL,
	own: boolean,
	keepStatus: boolean,
): Promise<Answer> {
	const { ctx, client } = session;
	const options: IHttpRequestOptions = {
		method: 'GET',
		url: url.href,
		headers: { Accept: '*/*' },
		encoding: 'stream',
		json: false,
		returnFullResponse: true,
		disableFollowRedirect: true,
		ignoreHttpStatusErrors: keepStatus,
		timeout: client.settings.timeoutMs,
	};
	const answer = own
		? ctx.helpers.httpRequestWithAuthentication.call(ctx, client.credentialType, options)
		: ctx.helpers.httpRequest(options);
	return (await answer.catch((error: unknown) => {
		throw failure(session, url, error);
	})) as Answer;
}

function discard(body: Stream | undefined): void {
	if (body && typeof body.destroy === 'function') body.destroy();
}

/** The redirect's target (the next hop decides the token by its origin); an error past 5 or for a non-http(s) target. */
function redirectTarget(
	session: Session,
	from: URL,
	status: number,
	location: string,
	redirects: number,
): URL {
	const target = webUrl(location, from);
	if (target && redirects < MAX_REDIRECTS) return target;
	throw apiError(session, {
		message: `The file download from ${place(from)} was answered ${status} with ${target ? `more than ${MAX_REDIRECTS} redirects` : 'a redirect to an address that is not http(s)'}`,
		description:
			'Nothing was downloaded. Ask the service provider about the attachment, or fetch its Uri with an HTTP Request node.',
		httpCode: String(status),
	});
}

/** The file: streamed into n8n's binary data, within the size limit. */
async function receive(
	session: Session,
	url: URL,
	answer: Answer,
	request: DownloadRequest,
): Promise<Downloaded> {
	const length = header(answer.headers, 'content-length');
	const size = length !== undefined && /^\d+$/.test(length.trim()) ? Number(length) : undefined;
	const mimeType =
		header(answer.headers, 'content-type')?.split(';')[0].trim().toLowerCase() || undefined;
	const fileName = fileNameOf(request.fileName, header(answer.headers, 'content-disposition'), url);
	if (size !== undefined && size > request.maxBytes) {
		discard(answer.body);
		throw tooLarge(session, url, request.maxBytes, size);
	}
	if (request.metadataOnly) {
		discard(answer.body);
		return { fileName, mimeType: mimeType ?? 'application/octet-stream', size };
	}
	const count = { received: 0, tooLarge: false };
	// an answer without Content-Type: the type of the name's extension
	const type = mimeType ?? TYPES[extensionOf(fileName) ?? ''] ?? 'application/octet-stream';
	try {
		const body = limited(answer.body, request.maxBytes, count);
		const binary = (await keepsFilesInItems(session.ctx))
			? await intoItem(body, fileName, type)
			: await session.ctx.helpers.prepareBinaryData(body, fileName, type);
		return {
			fileName: binary.fileName ?? fileName,
			mimeType: binary.mimeType,
			size: binary.bytes ?? count.received,
			binary,
		};
	} catch (error) {
		if (count.tooLarge) throw tooLarge(session, url, request.maxBytes);
		throw failure(session, url, error);
	}
}

/**
 * The same stream, stopped with an error as soon as more than `maxBytes` arrive. Every byte enters
 * a readable stream through its `push`, whoever reads it and however (n8n reads it with a pipe or
 * with 'data' events, depending on its binary data mode), so the count is taken there.
 */
function limited(
	body: Stream,
	maxBytes: number,
	count: { received: number; tooLarge: boolean },
): Stream {
	const push = body.push.bind(body);
	body.push = (chunk: unknown, encoding?: string) => {
		count.received += (chunk as { length?: number } | null | undefined)?.length ?? 0;
		if (count.received > maxBytes) {
			count.tooLarge = true;
			body.destroy(new Error(`more than ${maxBytes} bytes`));
			return false;
		}
		return push(chunk, encoding);
	};
	return body;
}

const inMemoryMode = new WeakMap<IExecuteFunctions, Promise<boolean>>();

/** Whether n8n keeps binary data in the items (in-memory mode: an empty probe gets no store `id`); once per node run. */
async function keepsFilesInItems(ctx: IExecuteFunctions): Promise<boolean> {
	let known = inMemoryMode.get(ctx);
	if (!known) {
		known = ctx.helpers
			.prepareBinaryData(Buffer.alloc(0), 'probe', 'application/octet-stream')
			.then((probe) => !probe.id);
		inMemoryMode.set(ctx, known);
	}
	return await known;
}

/** The file as n8n's in-memory mode holds it (base64 `data`), encoded chunk by chunk in whole 3-byte groups. */
async function intoItem(body: Stream, fileName: string, mimeType: string): Promise<IBinaryData> {
	let data = '';
	let carry: Buffer | undefined;
	let bytes = 0;
	for await (const chunk of body as AsyncIterable<Buffer | string>) {
		const received = Buffer.isBuffer(chunk) ? chunk : Buffer.from(chunk);
		const piece = carry ? Buffer.concat([carry, received]) : received;
		const whole = piece.length - (piece.length % 3);
		data += piece.toString('base64', 0, whole);
		carry = whole < piece.length ? Buffer.from(piece.subarray(whole)) : undefined;
		bytes += received.length;
	}
	if (carry) data += carry.toString('base64');
	return {
		data,
		mimeType,
		fileType: fileTypeFromMimeType(mimeType),
		fileExtension: extensionOf(fileName),
		fileName,
		fileSize: sizeText(bytes),
		bytes,
	};
}

/** A size as n8n writes it in `fileSize` ("130 B", "2.05 kB", "21 MB"). */
function sizeText(bytes: number): string {
	const units = ['B', 'kB', 'MB', 'GB', 'TB'];
	const exponent = bytes < 1 ? 0 : Math.min(Math.floor(Math.log10(bytes) / 3), units.length - 1);
	return `${Number((bytes / 1000 ** exponent).toPrecision(3))} ${units[exponent]}`;
}

const TYPES: Record<string, string> = {
	pdf: 'application/pdf',
	jpg: 'image/jpeg',
	jpeg: 'image/jpeg',
	png: 'image/png',
	gif: 'image/gif',
	webp: 'image/webp',
	heic: 'image/heic',
	tif: 'image/tiff',
	tiff: 'image/tiff',
	txt: 'text/plain',
	csv: 'text/csv',
	json: 'application/json',
	xml: 'application/xml',
	zip: 'application/zip',
	mp4: 'video/mp4',
	mov: 'video/quicktime',
	doc: 'application/msword',
	docx: 'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
	xls: 'application/vnd.ms-excel',
	xlsx: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
};

const extensionOf = (fileName: string) =>
	/\.([A-Za-z0-9]{1,10})$/.exec(fileName)?.[1].toLowerCase();

/** The file name: the one asked for, else Content-Disposition's, else the address's last segment. */
function fileNameOf(asked: string | undefined, disposition: string | undefined, url: URL): string {
	const fromHeader = disposition ? dispositionName(disposition) : undefined;
	const segment = decodeSafely(url.pathname.split('/').filter(Boolean).pop() ?? '');
	for (const candidate of [asked, fromHeader, segment]) {
		const name = [...((candidate ?? '').split(/[\\/]/).pop() ?? '')]
			.filter((c) => c.charCodeAt(0) >= 32 && c.charCodeAt(0) !== 127)
			.join('')
			.trim();
		if (name !== '' && name !== '.' && name !== '..') return name.slice(0, 255);
	}
	return 'attachment';
}

function dispositionName(value: string): string | undefined {
	const extended = /filename\*\s*=\s*(?:UTF-8|utf-8)''([^;]+)/.exec(value);
	if (extended) return decodeSafely(extended[1].trim());
	const plain = /filename\s*=\s*(?:"([^"]*)"|([^;]+))/i.exec(value);
	return plain ? (plain[1] ?? plain[2]).trim() : undefined;
}

function decodeSafely(text: string): string {
	try {
		return decodeURIComponent(text);
	} catch {
		return text;
	}
}

const megabytes = (bytes: number) => `${(bytes / 1048576).toFixed(bytes < 10485760 ? 1 : 0)} MB`;

function tooLarge(session: Session, url: URL, maxBytes: number, size?: number): NodeApiError {
	const what = size === undefined ? `more than ${megabytes(maxBytes)}` : megabytes(size);
	return apiError(session, {
		message: `The file at ${place(url)} is larger than the size limit of ${megabytes(maxBytes)} (${what})`,
		description:
			'Nothing was kept. Raise Options → Max File Size (MB) if the file is expected to be this large.',
	});
}

/** The first bytes of an error answer's body, as text; the rest is not read. */
async function errorText(body: Stream | undefined): Promise<string> {
	let text = Buffer.alloc(0);
	try {
		for await (const chunk of (body ?? []) as AsyncIterable<unknown>) {
			text = Buffer.concat([text, Buffer.isBuffer(chunk) ? chunk : Buffer.from(String(chunk))]);
			if (text.length >= ERROR_TEXT_BYTES) break;
		}
	} catch {
		// an error answer's words are optional
	}
	discard(body);
	return text.subarray(0, ERROR_TEXT_BYTES).toString('utf8');
}

/** What a refused download means, in words a user can act on. */
async function refusal(session: Session, url: URL, answer: Answer): Promise<NodeApiError> {
	const words = serviceMessage(
		await errorText(answer.body),
		header(answer.headers, 'content-type'),
	);
	const status = answer.statusCode;
	const other = url.origin !== session.apiOrigin;
	let description =
		'Nothing was downloaded. Try again later; if it persists, check the attachment in the service.';
	if (status === 404 || status === 410) {
		description =
			'There is no file at this address (any more): the attachment may have been deleted, or the address is not its Uri. Read the attachment again (Get Attachments) for its current Uri.';
	} else if (
		other &&
		(status === 400 || status === 401 || status === 403) &&
		/expire/i.test(words ?? '')
	) {
		description =
			'The link has expired: links to files on another server are valid for a short time. Read the attachment again (Get Attachments) and download at once, or download it by its owner and ID, which reads a fresh link.';
	} else if (other && (status === 400 || status === 401 || status === 403)) {
		description =
			'The file server refused the link. Links to files on another server carry their own signature and expire: read the attachment again (Get Attachments), or download it by its owner and ID, which reads a fresh link.';
	} else if (status === 401 || status === 403) {
		description =
			'The service refused this credential for the file (a missing permission, or an attachment this user may not see).';
	} else if (status === 429 || status === 503) {
		description =
			'The service is throttling requests; the node waited within Max Wait and Max Retries (Request Options). Try again later.';
	}
	return apiError(session, {
		message: `The file download from ${place(url)} was answered ${status}${words ? `: ${words}` : ''}`,
		description,
		httpCode: String(status),
	});
}

/** An error thrown by n8n's request helpers: no answer, or an error status on the renewing path. */
function failure(session: Session, url: URL, error: unknown): Error {
	if (error instanceof NodeOperationError) return error;
	const { status, networkCode } = readHttpFailure(error);
	if (status !== undefined) {
		return apiError(session, {
			message: `The file download from ${place(url)} was answered ${status} after the token was renewed`,
			description:
				status === 401
					? "The service refused the credential for this file. Check the credential (Test) and the user's permissions."
					: 'Nothing was downloaded. Try again later.',
			httpCode: String(status),
		});
	}
	return apiError(session, {
		message: `No answer from ${url.origin} for the file download${networkCode ? ` (${networkCode})` : ''}`,
		description:
			'Nothing was kept: the server could not be reached, or stopped sending within the Timeout (Request Options). Try again later.',
		httpCode: networkCode,
	});
}

function apiError(session: Session, text: ErrorText): NodeApiError {
	return makeApiError(session.ctx.getNode(), text, session.itemIndex, (value) =>
		session.client.secrets.redact(value),
	);
}
