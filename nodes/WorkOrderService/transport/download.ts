import type { IBinaryData, IExecuteFunctions } from 'n8n-workflow';
import { NodeApiError, NodeOperationError, fileTypeFromMimeType } from 'n8n-workflow';

import { kindOfStatus, withMeaning, type ItemOutcome } from '../helpers/errorMeaning';
import type { FileResult, FileStream, WorkOrderServiceClient } from './client';
import { readHttpFailure, serviceMessage, type ErrorText } from './errors';
import { headerValue as header, isThrottle, webUrl } from './policy';

/**
 * An attachment's file from its `Uri` (service reference, section 5) into n8n's binary data,
 * streamed (in n8n's in-memory mode the base64 is built chunk by chunk: 1.4 times the file, not the
 * 3.4 of `prepareBinaryData`). The request goes through the client (`sendFile`): the budget, the
 * policy's retries and redirects, the token only to the API Base URL's origin (transport/client.ts).
 * Here: the address, the size limit (before and while reading), the file's name and type, and the
 * words of a failure. Error texts show an address without its query (signatures).
 */

type Stream = FileStream;

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
	itemIndex: number;
};

const ERROR_TEXT_BYTES = 4096;

export async function downloadFile(
	ctx: IExecuteFunctions,
	client: WorkOrderServiceClient,
	request: DownloadRequest,
): Promise<Downloaded> {
	const session: Session = { ctx, client, itemIndex: request.itemIndex };
	const url = resolveUri(session, request.uri, await client.apiUrl(request.itemIndex));
	const answer = await client.sendFile(url.href, request.itemIndex);
	const at = new URL(answer.url);
	if (answer.redirectRefused !== undefined) {
		discard(answer.body);
		throw await apiError(session, 'answered', {
			kind: 'redirected',
			message: `The file download from ${place(at)} was answered ${answer.status} with ${answer.redirectRefused}`,
			description:
				'Nothing was downloaded. Ask the service provider about the attachment, or fetch its Uri with an HTTP Request node.',
			httpCode: String(answer.status),
		});
	}
	if (answer.status === undefined) throw await noAnswer(session, at, answer.networkCode);
	if (answer.status < 200 || answer.status >= 300) throw await refusal(session, at, answer);
	return await receive(session, at, answer, request);
}

/** The address to fetch: an absolute http(s) URL, or one relative to {API Base URL}/v3/. */
function resolveUri(session: Session, uri: string, apiUrl: string): URL {
	const url = uri.trim() === '' ? undefined : webUrl(uri.trim(), `${apiUrl}/`);
	if (url) return url;
	const text = uri.length > 80 ? `${uri.slice(0, 77)}...` : uri;
	const error = new NodeOperationError(
		session.ctx.getNode(),
		`The attachment's Uri is not an http(s) address in item ${session.itemIndex}: "${text}"`,
		{
			itemIndex: session.itemIndex,
			description:
				'Map the Uri of an attachment record (from Get Attachments), e.g. {{ $json.Uri }}. Nothing was downloaded.',
		},
	);
	throw withMeaning(error, { kind: 'validation', outcome: 'notSent' });
}

/** Never the query (signatures live there). */
const place = (url: URL) => `${url.origin}${url.pathname}`;

function discard(body: Stream | undefined): void {
	if (body && typeof body.destroy === 'function') body.destroy();
}

/** The file: streamed into n8n's binary data, within the size limit. */
async function receive(
	session: Session,
	url: URL,
	answer: FileResult,
	request: DownloadRequest,
): Promise<Downloaded> {
	const length = header(answer.headers, 'content-length');
	const size = length !== undefined && /^\d+$/.test(length.trim()) ? Number(length) : undefined;
	const mimeType =
		header(answer.headers, 'content-type')?.split(';')[0].trim().toLowerCase() || undefined;
	const fileName = fileNameOf(request.fileName, header(answer.headers, 'content-disposition'), url);
	if (size !== undefined && size > request.maxBytes) {
		discard(answer.body);
		throw await tooLarge(session, url, request.maxBytes, size);
	}
	if (request.metadataOnly) {
		discard(answer.body);
		return { fileName, mimeType: mimeType ?? 'application/octet-stream', size };
	}
	const count = { received: 0, tooLarge: false };
	// an answer without Content-Type: the type of the name's extension
	const type = mimeType ?? TYPES[extensionOf(fileName) ?? ''] ?? 'application/octet-stream';
	try {
		const body = limited(answer.body as Stream, request.maxBytes, count);
		const binary = (await keepsFilesInItems(session))
			? await intoItem(body, fileName, type)
			: await session.ctx.helpers.prepareBinaryData(body, fileName, type);
		return {
			fileName: binary.fileName ?? fileName,
			mimeType: binary.mimeType,
			size: binary.bytes ?? count.received,
			binary,
		};
	} catch (error) {
		if (count.tooLarge) throw await tooLarge(session, url, request.maxBytes);
		throw await readFailure(session, url, error);
	}
}

/** A failure while the file was read: n8n's own error as it is, else the answer stopped. */
async function readFailure(session: Session, url: URL, error: unknown): Promise<Error> {
	if (error instanceof NodeOperationError || error instanceof NodeApiError) return error;
	return await noAnswer(session, url, readHttpFailure(error).networkCode);
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

/** Whether n8n keeps binary data in the items (in-memory mode: an empty probe gets no store `id`); once per execution. */
async function keepsFilesInItems({ ctx, client }: Session): Promise<boolean> {
	client.filesInItems ??= ctx.helpers
		.prepareBinaryData(Buffer.alloc(0), 'probe', 'application/octet-stream')
		.then((probe) => !probe.id);
	return await client.filesInItems;
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

async function tooLarge(
	session: Session,
	url: URL,
	maxBytes: number,
	size?: number,
): Promise<NodeApiError> {
	const what = size === undefined ? `more than ${megabytes(maxBytes)}` : megabytes(size);
	return await apiError(session, 'answered', {
		kind: 'tooLarge',
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
async function refusal(session: Session, url: URL, answer: FileResult): Promise<NodeApiError> {
	const status = answer.status as number;
	const words = serviceMessage(
		await errorText(answer.body),
		header(answer.headers, 'content-type'),
	);
	const other = !answer.signed;
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
	} else if (answer.renewed && status === 401) {
		description =
			"The service refused the credential for this file. Check the credential (Test) and the user's permissions.";
	} else if (status === 401 || status === 403) {
		description =
			'The service refused this credential for the file (a missing permission, or an attachment this user may not see).';
	} else if (status === 429 || status === 503) {
		description =
			'The service is throttling requests; the node waited within Max Wait and Max Retries (Request Options). Try again later.';
	}
	const renewed = answer.renewed && answer.body === undefined ? ' after the token was renewed' : '';
	return await apiError(session, 'answered', {
		kind: kindOfStatus(status, answer.signed && isThrottle(status, answer.headers, '')),
		message: `The file download from ${place(url)} was answered ${status}${renewed}${words ? `: ${words}` : ''}`,
		description,
		httpCode: String(status),
		said: { words, attempts: answer.attempts },
	});
}

/** No answer (or the answer stopped): nothing kept. */
async function noAnswer(
	session: Session,
	url: URL,
	networkCode: string | undefined,
): Promise<NodeApiError> {
	return await apiError(session, 'notSent', {
		kind: 'noAnswer',
		message: `No answer from ${url.origin} for the file download${networkCode ? ` (${networkCode})` : ''}`,
		description:
			'Nothing was kept: the server could not be reached, or stopped sending within the Timeout (Request Options). Try again later.',
		httpCode: networkCode,
	});
}

async function apiError(
	session: Session,
	outcome: ItemOutcome,
	text: ErrorText,
): Promise<NodeApiError> {
	return await session.client.error(text, session.itemIndex, outcome);
}
