import type { FileSource } from '../helpers/binary';

/**
 * multipart/form-data in ONE Buffer allocated at its final size: n8n can send it again after a 401
 * re-login (a stream or FormData is consumed by the first attempt), and a file is written straight
 * into it from the item's binary data (a large upload costs one copy of the file, not two).
 */

/** A text part (JSON parts pass their serialized text) or a file. */
export type MultipartPart =
	| { name: string; value: string; contentType?: string }
	| { name: string; fileName: string; contentType: string; data: Buffer | FileSource };

/** Quoted-string for a header parameter: no CR/LF, quotes and backslashes escaped. */
function quote(value: string): string {
	return `"${value.replace(/[\r\n]+/g, ' ').replace(/(["\\])/g, '\\$1')}"`;
}

/** Header parameter for a file name; non-ASCII names also get the RFC 5987 form. */
function fileNameParameters(fileName: string): string {
	const ascii = fileName.replace(/[^\x20-\x7e]/g, '_');
	if (ascii === fileName) return `filename=${quote(fileName)}`;
	return `filename=${quote(ascii)}; filename*=UTF-8''${encodeURIComponent(fileName)}`;
}

const randomBoundary = () =>
	`----n8nWorkOrderService${Array.from({ length: 24 }, () => Math.floor(Math.random() * 16).toString(16)).join('')}`;

const inMemory = (data: Buffer): FileSource => ({
	size: data.length,
	copyTo: async (target, offset) => data.copy(target, offset),
});
const text = (value: string) => inMemory(Buffer.from(value, 'utf8'));

export async function buildMultipart(
	parts: MultipartPart[],
	boundary = randomBoundary(),
): Promise<{ contentType: string; body: Buffer }> {
	const segments: FileSource[] = [];
	for (const part of parts) {
		let head = `--${boundary}\r\nContent-Disposition: form-data; name=${quote(part.name)}`;
		if ('data' in part) {
			head += `; ${fileNameParameters(part.fileName)}\r\nContent-Type: ${part.contentType.replace(/[\r\n]+/g, ' ')}\r\n\r\n`;
			segments.push(
				text(head),
				Buffer.isBuffer(part.data) ? inMemory(part.data) : part.data,
				text('\r\n'),
			);
		} else {
			if (part.contentType) head += `\r\nContent-Type: ${part.contentType}`;
			segments.push(text(`${head}\r\n\r\n${part.value}\r\n`));
		}
	}
	segments.push(text(`--${boundary}--\r\n`));
	const body = Buffer.allocUnsafe(segments.reduce((sum, s) => sum + s.size, 0));
	let offset = 0;
	for (const segment of segments) {
		const written = await segment.copyTo(body, offset);
		if (written !== segment.size)
			throw new RangeError(
				`File size changed while reading it (${written} of ${segment.size} bytes)`,
			);
		offset += written;
	}
	return { contentType: `multipart/form-data; boundary=${boundary}`, body };
}
