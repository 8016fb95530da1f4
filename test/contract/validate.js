// @ts-check
'use strict';

/**
 * The contract check of one logged request (an entry of the emulator's request log) against the
 * reference (reference.js): which operation it is, and every way it departs from it. Generic over
 * every operation of the JSON and the contract's additions: nothing here knows a path.
 *
 *   validateRequest(entry) → { operation, source, violations } | null (not an API call)
 *   validateAnswer(entry, operation) → violations of the emulator's answer (2xx bodies against the
 *     documented schema with every property; error bodies against ErrorResponse)
 *
 * Request violation kinds: unknown path, unknown method, unknown query parameter, missing query
 * parameter, wrong type (path, query, body, part, OData literal), missing body, unexpected body,
 * body not JSON, unknown body field, missing body field, not multipart, unknown part, missing part,
 * part not JSON, unknown OData property, OData syntax.
 */

const { matchPath, answerType, isOData } = require('./reference');
const { check, checkScalar } = require('./schema');
const { checkODataOptions, selectedTopLevel } = require('./odata');
const { parse } = require('../emulator/lossless-json');

/**
 * @typedef {import('./schema').Violation} Violation
 * @typedef {import('./reference').Operation} Operation
 * @typedef {import('./reference').Parameter} Parameter
 * @typedef {{ method: string, path: string, query: Record<string, any>, headers: Record<string, any>, body?: any,
 *   bodySize?: number, parts?: any[], bodyError?: string, status?: number | null, responseBody?: string,
 *   responseHeaders?: Record<string, any>, injected?: boolean, dropped?: boolean, throttled?: boolean }} Entry
 */

const API_PREFIX = '/api/v3';

/** @param {string | undefined} contentType */
function mediaType(contentType) {
	return String(contentType || '')
		.split(';')[0]
		.trim()
		.toLowerCase();
}

/**
 * A path or query value (text) against its parameter's type.
 * @param {Parameter} p @param {string} text @param {string} where @returns {Violation[]}
 */
function checkText(p, text, where) {
	/** @type {Violation[]} */
	const out = [];
	const wrong = (/** @type {string} */ expected) =>
		out.push({
			kind: 'wrong type',
			where,
			message: `${where} must be ${expected}, got ${JSON.stringify(text)}`,
		});
	switch (p.type) {
		case 'integer': {
			const int64 = p.format === 'int64' || !!p.int64;
			const ok =
				/^-?\d{1,19}$/.test(text.trim()) &&
				(int64
					? BigInt(text.trim()) <= 9223372036854775807n &&
						BigInt(text.trim()) >= -9223372036854775808n
					: Math.abs(Number(text)) <= 2147483647);
			if (!ok) wrong(int64 ? 'a 64-bit integer' : 'a 32-bit integer');
			break;
		}
		case 'number':
			if (!/^-?\d+(\.\d+)?([eE][+-]?\d+)?$/.test(text.trim())) wrong('a number');
			break;
		case 'boolean':
			if (!/^(true|false)$/i.test(text.trim())) wrong('true or false');
			break;
		default:
	}
	return out;
}

/** @param {Operation} op @param {Record<string, string>} values @returns {Violation[]} */
function checkPathValues(op, values) {
	/** @type {Violation[]} */
	const out = [];
	for (const p of op.parameters.filter((x) => x.in === 'path')) {
		const v = values[p.name];
		if (v === undefined || v === '')
			out.push({ kind: 'wrong type', where: `path ${p.name}`, message: `path ${p.name} is empty` });
		else out.push(...checkText(p, v, `path ${p.name}`));
	}
	return out;
}

/** @param {Operation} op @param {Record<string, any>} query @returns {Violation[]} */
function checkQuery(op, query) {
	/** @type {Violation[]} */
	const out = [];
	const params = op.parameters.filter((p) => p.in === 'query');
	const byName = new Map(params.map((p) => [p.name, p]));
	for (const [key, raw] of Object.entries(query || {})) {
		const p = byName.get(key);
		if (!p) {
			const near = params.find((x) => x.name.toLowerCase() === key.toLowerCase());
			out.push({
				kind: 'unknown query parameter',
				where: `query ${key}`,
				message: `query parameter '${key}' is not a parameter of ${op.id}${near ? ` (the reference spells it '${near.name}')` : params.length ? ` (parameters: ${params.map((x) => x.name).join(', ')})` : ' (it takes none)'}`,
			});
			continue;
		}
		const values = Array.isArray(raw) ? raw : [raw];
		if (values.length > 1 && p.type !== 'array') {
			out.push({
				kind: 'wrong type',
				where: `query ${key}`,
				message: `query parameter '${key}' is given ${values.length} times`,
			});
		}
		for (const v of values) out.push(...checkText(p, String(v), `query ${key}`));
	}
	for (const p of params) {
		if (p.required && !(p.name in (query || {})))
			out.push({
				kind: 'missing query parameter',
				where: `query ${p.name}`,
				message: `query parameter '${p.name}' is required by ${op.id}`,
			});
	}
	const type = answerType(op);
	if (isOData(op) && type) out.push(...checkODataOptions(type, query || {}));
	return out;
}

/** @param {Parameter} bodyParam @param {Entry} entry @returns {Violation[]} */
function checkJsonBody(bodyParam, entry) {
	const size = entry.bodySize || 0;
	if (size === 0) {
		return bodyParam.required
			? [
					{
						kind: 'missing body',
						where: 'body',
						message: `a JSON body (${bodyParam.schema && bodyParam.schema.$ref ? bodyParam.schema.$ref.split('/').pop() : 'object'}) is required`,
					},
				]
			: [];
	}
	const type = mediaType(entry.headers['content-type']);
	if (type !== 'application/json' && !type.endsWith('+json')) {
		return [
			{
				kind: 'wrong type',
				where: 'body',
				message: `the body must be application/json, sent as ${type || 'no content type'}`,
			},
		];
	}
	if (entry.bodyError !== undefined || entry.body === null || entry.body === undefined) {
		return [
			{
				kind: 'body not JSON',
				where: 'body',
				message: `the body is not JSON${entry.bodyError ? `: ${entry.bodyError}` : ''}`,
			},
		];
	}
	return check(/** @type {any} */ (bodyParam.schema), entry.body, 'body', { mode: 'request' });
}

/** One form field (a multipart part or an url-encoded field) against its parameter. @param {Parameter} p @param {any} part @returns {Violation[]} */
function checkFormField(p, part) {
	const where = `part ${p.name}`;
	if (p.type === 'file') {
		return part.filename
			? []
			: [
					{
						kind: 'wrong type',
						where,
						message: `${where} must be a file (a part with a file name)`,
					},
				];
	}
	if (p.schema) {
		// rule 7: a JSON part (type application/json plus a schema)
		if (part.json === undefined) {
			return [
				{
					kind: 'part not JSON',
					where,
					message: `${where} must hold JSON (${p.type}), got ${JSON.stringify(String(part.text ?? '').slice(0, 40))}`,
				},
			];
		}
		return check(p.schema, part.json, where, { mode: 'request' });
	}
	if (p.type === 'text' || p.type === 'string' || p.type === undefined) return [];
	return checkText(p, String(part.text ?? part.json ?? ''), where);
}

/** @param {Parameter[]} formParams @param {Entry} entry @param {Operation} op @returns {Violation[]} */
function checkForm(formParams, entry, op) {
	const type = mediaType(entry.headers['content-type']);
	/** @type {any[]} */
	let fields;
	if (type === 'multipart/form-data') {
		fields = entry.parts || [];
	} else if (
		type === 'application/x-www-form-urlencoded' &&
		entry.body &&
		typeof entry.body === 'object'
	) {
		fields = Object.entries(entry.body).map(([name, text]) => ({
			name,
			text,
			json: safeJson(String(text)),
		}));
	} else {
		const required = formParams.some((p) => p.required);
		if ((entry.bodySize || 0) === 0 && !required) return [];
		return [
			{
				kind: 'not multipart',
				where: 'body',
				message: `${op.id} takes multipart/form-data (parts: ${formParams.map((p) => p.name).join(', ')}), sent as ${type || 'no content type'}`,
			},
		];
	}
	/** @type {Violation[]} */
	const out = [];
	const byName = new Map(formParams.map((p) => [p.name, p]));
	const seen = new Map();
	for (const part of fields) {
		const p = byName.get(part.name);
		if (!p) {
			out.push({
				kind: 'unknown part',
				where: `part ${part.name}`,
				message: `part '${part.name}' is not a form parameter of ${op.id} (parts: ${formParams.map((x) => x.name).join(', ')})`,
			});
			continue;
		}
		seen.set(p.name, (seen.get(p.name) || 0) + 1);
		out.push(...checkFormField(p, part));
	}
	for (const p of formParams) {
		if (p.required && !seen.has(p.name))
			out.push({
				kind: 'missing part',
				where: `part ${p.name}`,
				message: `part '${p.name}' is required by ${op.id}`,
			});
	}
	return out;
}

/** @param {string} text */
function safeJson(text) {
	try {
		return /^\s*[[{"]/.test(text) ? parse(text) : undefined;
	} catch {
		return undefined;
	}
}

/** @param {Operation} op @param {Entry} entry @returns {Violation[]} */
function checkBody(op, entry) {
	const bodyParam = op.parameters.find((p) => p.in === 'body');
	const formParams = op.parameters.filter((p) => p.in === 'formData');
	if (bodyParam) return checkJsonBody(bodyParam, entry);
	if (formParams.length) return checkForm(formParams, entry, op);
	if ((entry.bodySize || 0) > 0)
		return [
			{
				kind: 'unexpected body',
				where: 'body',
				message: `${op.id} takes no body, got ${entry.bodySize} bytes`,
			},
		];
	return [];
}

/** Where the emulator serves the files behind attachments' `Uri` (test/emulator/api-files.js). */
const ATTACHMENT_URI = /^\/files\//i;

/**
 * The operation a logged request is and its violations; null when it is not a call of the API
 * (token endpoints, the emulator's control endpoints).
 * @param {Entry} entry
 * @returns {{ operation: Operation | null, violations: Violation[] } | null}
 */
function validateRequest(entry) {
	const path = entry.path;
	if (!/^\/api(\/|$)/i.test(path)) return null;
	if (!path.toLowerCase().startsWith(`${API_PREFIX}/`)) {
		return {
			operation: null,
			violations: [
				{ kind: 'unknown path', where: 'path', message: `${path} is not below ${API_PREFIX}` },
			],
		};
	}
	const rest = path.slice(API_PREFIX.length);
	// An attachment's `Uri` (the reference: "the address to download the file from") is an address the
	// service hands out in records, not an operation of the API: the emulator serves its files there.
	if (entry.method === 'GET' && ATTACHMENT_URI.test(rest)) return null;
	const matches = matchPath(rest);
	if (!matches.length) {
		return {
			operation: null,
			violations: [
				{
					kind: 'unknown path',
					where: 'path',
					message: `${entry.method} ${rest}: no operation of the reference has this path`,
				},
			],
		};
	}
	const withMethod = matches.filter((m) => m.operation.method === entry.method);
	if (!withMethod.length) {
		const methods = [...new Set(matches.map((m) => m.operation.method))].join(', ');
		return {
			operation: null,
			violations: [
				{
					kind: 'unknown method',
					where: 'method',
					message: `${entry.method} ${rest}: the reference has ${methods} on this path, not ${entry.method}`,
				},
			],
		};
	}
	const candidates = withMethod.map((m) => ({
		...m,
		pathViolations: checkPathValues(m.operation, m.values),
	}));
	const chosen = candidates.find((c) => c.pathViolations.length === 0) || candidates[0];
	const op = chosen.operation;
	return {
		operation: op,
		violations: [...chosen.pathViolations, ...checkQuery(op, entry.query), ...checkBody(op, entry)],
	};
}

/**
 * @param {Entry} entry @returns {string | undefined}
 */
function contentTypeOf(entry) {
	const h = entry.responseHeaders || {};
	const v = h['content-type'] ?? h['Content-Type'];
	return Array.isArray(v) ? v[0] : v;
}

/**
 * Violations of the emulator's answer to a request of `op`: a 2xx body against the documented
 * schema (every property there, nulls included, none more; OData lists as `{ value: [...] }` with
 * each element checked, `$select` narrowing what must be there), an ErrorResponse against its
 * definition, an OData error as `{ error: { message } }`. Statuses the reference does not list,
 * bodies it does not describe, injected faults and throttling are not checked.
 * @param {Entry} entry @param {Operation} op
 * @returns {Violation[]}
 */
function validateAnswer(entry, op) {
	if (entry.injected || entry.dropped || entry.throttled || typeof entry.status !== 'number')
		return [];
	const documented = op.responses[String(entry.status)];
	if (!documented || !documented.schema) return [];
	const text = entry.responseBody;
	if (text === undefined) return [];
	if (text.trim() === '')
		return [
			{
				kind: 'answer: missing body',
				where: 'answer',
				message: `${entry.status} answer without a body; the reference documents one`,
			},
		];
	let body;
	try {
		body = parse(text);
	} catch {
		return [
			{
				kind: 'answer: not JSON',
				where: 'answer',
				message: `${entry.status} answer is not JSON (${contentTypeOf(entry) || 'no content type'})`,
			},
		];
	}
	const schema = documented.schema;
	if (entry.status >= 400) {
		if (
			isOData(op) &&
			body &&
			typeof body === 'object' &&
			body.error &&
			typeof body.error === 'object'
		) {
			return typeof body.error.message === 'string'
				? []
				: [
						{
							kind: 'answer: wrong type',
							where: 'answer.error.message',
							message: 'an OData error carries error.message',
						},
					];
		}
		return check(schema, body, 'answer', { mode: 'answer' });
	}
	const only = isOData(op) ? selectedTopLevel(entry.query && entry.query.$select) : undefined;
	if (schema.type === 'array') {
		let list = body;
		/** @type {Violation[]} */
		const out = [];
		if (isOData(op)) {
			if (!body || typeof body !== 'object' || !Array.isArray(body.value)) {
				return [
					{
						kind: 'answer: wrong type',
						where: 'answer',
						message: 'an OData list answer is { "value": [...] } (rule 4)',
					},
				];
			}
			for (const key of Object.keys(body)) {
				if (key !== 'value' && !key.startsWith('@odata.'))
					out.push({
						kind: 'answer: unknown property',
						where: `answer.${key}`,
						message: `answer.${key} is not part of an OData list`,
					});
			}
			list = body.value;
		} else if (!Array.isArray(body)) {
			return [
				{
					kind: 'answer: wrong type',
					where: 'answer',
					message: `${op.id} answers with a list (a JSON array), got an object`,
				},
			];
		}
		list.forEach((/** @type {any} */ item, /** @type {number} */ i) =>
			out.push(
				...check(/** @type {any} */ (schema.items), item, `answer[${i}]`, { mode: 'answer', only }),
			),
		);
		return out;
	}
	return check(schema, body, 'answer', { mode: 'answer', only });
}

/** The numeric and checkable scalar check, for callers outside (unit tests). */
module.exports = { validateRequest, validateAnswer, checkScalar, API_PREFIX };
