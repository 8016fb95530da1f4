// @ts-check
'use strict';

/**
 * multipart/form-data parsing on one Buffer, with Buffer#indexOf only (no per-byte JS loops), so a
 * 100 MB upload is parsed in milliseconds. Part data are views (subarray) of the request body: no
 * copies.
 */

class MultipartError extends Error {}

/**
 * @param {string | undefined} contentType
 * @returns {string | null}
 */
function boundaryOf(contentType) {
	if (!contentType) return null;
	const m = /;\s*boundary=(?:"([^"]+)"|([^;\s]+))/i.exec(contentType);
	if (!m) return null;
	return m[1] || m[2] || null;
}

/**
 * Parses header parameters such as `form-data; name="a"; filename="b.jpg"`.
 * @param {string} value
 * @returns {{ type: string, params: Record<string, string> }}
 */
function parseHeaderParams(value) {
	const semi = value.indexOf(';');
	const type = (semi === -1 ? value : value.slice(0, semi)).trim().toLowerCase();
	/** @type {Record<string, string>} */
	const params = {};
	const re = /;\s*([^=;\s]+)\s*=\s*(?:"((?:[^"\\]|\\.)*)"|([^;]*))/g;
	let m;
	while ((m = re.exec(value))) {
		const key = m[1].toLowerCase();
		let v = m[2] !== undefined ? m[2].replace(/\\(.)/g, '$1') : (m[3] || '').trim();
		if (key.endsWith('*')) {
			// RFC 5987: charset'lang'percent-encoded
			const ext = /^([^']*)'[^']*'(.*)$/.exec(v);
			if (ext) {
				try {
					v = decodeURIComponent(ext[2]);
				} catch {
					/* keep raw */
				}
			}
			params[key.slice(0, -1)] = v;
		} else if (!(key in params)) {
			params[key] = v;
		}
	}
	return { type, params };
}

/**
 * @typedef {{ name: string, filename: string | null, contentType: string | null, headers: Record<string, string>, data: Buffer, size: number }} Part
 */

/**
 * @param {Buffer} body
 * @param {string | undefined} contentType
 * @returns {Part[]}
 */
function parseMultipart(body, contentType) {
	const boundary = boundaryOf(contentType);
	if (!boundary)
		throw new MultipartError('multipart/form-data request without a boundary parameter');
	const delimiter = Buffer.from(`--${boundary}`, 'latin1');
	const innerDelimiter = Buffer.from(`\r\n--${boundary}`, 'latin1');
	const CRLFCRLF = Buffer.from('\r\n\r\n', 'latin1');
	/** @type {Part[]} */
	const parts = [];

	let pos = body.indexOf(delimiter);
	if (pos === -1) throw new MultipartError('multipart body does not contain the boundary');
	for (;;) {
		pos += delimiter.length;
		if (body[pos] === 45 && body[pos + 1] === 45) break; // "--": closing delimiter
		// optional transport padding, then CRLF
		while (body[pos] === 32 || body[pos] === 9) pos++;
		if (body[pos] === 13 && body[pos + 1] === 10) pos += 2;
		else throw new MultipartError('malformed multipart body: delimiter not followed by CRLF');
		const headerEnd = body.indexOf(CRLFCRLF, pos);
		if (headerEnd === -1)
			throw new MultipartError('malformed multipart body: part headers not terminated');
		const headerText = body.toString('utf8', pos, headerEnd);
		/** @type {Record<string, string>} */
		const headers = {};
		for (const line of headerText.split('\r\n')) {
			if (!line) continue;
			const colon = line.indexOf(':');
			if (colon === -1)
				throw new MultipartError(`malformed multipart part header: ${line.slice(0, 80)}`);
			headers[line.slice(0, colon).trim().toLowerCase()] = line.slice(colon + 1).trim();
		}
		const dataStart = headerEnd + 4;
		const next = body.indexOf(innerDelimiter, dataStart);
		if (next === -1) throw new MultipartError('malformed multipart body: missing closing boundary');
		const disposition = headers['content-disposition'];
		if (!disposition) throw new MultipartError('multipart part without Content-Disposition');
		const { type, params } = parseHeaderParams(disposition);
		if (type !== 'form-data' || params.name === undefined) {
			throw new MultipartError('multipart part Content-Disposition must be form-data with a name');
		}
		const data = body.subarray(dataStart, next);
		parts.push({
			name: params.name,
			filename: params.filename !== undefined ? params.filename : null,
			contentType: headers['content-type'] || null,
			headers,
			data,
			size: data.length,
		});
		pos = next + 2;
	}
	return parts;
}

module.exports = { parseMultipart, boundaryOf, parseHeaderParams, MultipartError };
