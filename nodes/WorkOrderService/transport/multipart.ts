/**
 * multipart/form-data built as one Buffer, so that n8n can send it again after a 401 re-login
 * (a stream or a FormData object is consumed by the first attempt and cannot be resent).
 */

export interface MultipartField {
	name: string;
	/** Text value; JSON parts pass their serialized text. */
	value: string;
	contentType?: string;
}

export interface MultipartFile {
	name: string;
	fileName: string;
	contentType: string;
	data: Buffer;
}

export type MultipartPart = MultipartField | MultipartFile;

export interface MultipartBody {
	contentType: string;
	body: Buffer;
}

function isFile(part: MultipartPart): part is MultipartFile {
	return (part as MultipartFile).data !== undefined;
}

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

function randomBoundary(): string {
	let text = '';
	for (let i = 0; i < 24; i++) text += Math.floor(Math.random() * 16).toString(16);
	return `----n8nWorkOrderService${text}`;
}

export function buildMultipart(parts: MultipartPart[], boundary = randomBoundary()): MultipartBody {
	const chunks: Buffer[] = [];
	for (const part of parts) {
		let head = `--${boundary}\r\nContent-Disposition: form-data; name=${quote(part.name)}`;
		if (isFile(part)) {
			head += `; ${fileNameParameters(part.fileName)}\r\nContent-Type: ${part.contentType}\r\n\r\n`;
			chunks.push(Buffer.from(head, 'utf8'), part.data, Buffer.from('\r\n', 'utf8'));
		} else {
			if (part.contentType) head += `\r\nContent-Type: ${part.contentType}`;
			chunks.push(Buffer.from(`${head}\r\n\r\n${part.value}\r\n`, 'utf8'));
		}
	}
	chunks.push(Buffer.from(`--${boundary}--\r\n`, 'utf8'));
	return { contentType: `multipart/form-data; boundary=${boundary}`, body: Buffer.concat(chunks) };
}
