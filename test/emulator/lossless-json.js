// @ts-check
'use strict';

/**
 * Lossless JSON for the emulator.
 *
 * - `parse(text)` is a strict JSON parser that returns integers outside the safe range of a JS
 *   number as BigInt (so note ids such as 9223372036854775807 keep every digit); everything else
 *   is what JSON.parse would return.
 * - `stringify(value, indent?)` writes BigInt values as bare integer literals (never quoted),
 *   Buffers as `{"bufferSize":N}`, Dates as ISO strings; otherwise like JSON.stringify.
 */

class JsonSyntaxError extends SyntaxError {}

const NUMBER_RE = /-?(?:0|[1-9]\d*)(\.\d+)?([eE][+-]?\d+)?/y;

/**
 * @param {string} text
 * @returns {any}
 */
function parse(text) {
	let i = 0;
	const n = text.length;

	/** @param {string} msg @returns {never} */
	function fail(msg) {
		throw new JsonSyntaxError(`${msg} at position ${i}`);
	}

	function ws() {
		while (i < n) {
			const c = text.charCodeAt(i);
			if (c === 32 || c === 9 || c === 10 || c === 13) i++;
			else break;
		}
	}

	/** @returns {any} */
	function value() {
		ws();
		if (i >= n) fail('Unexpected end of JSON input');
		const c = text[i];
		if (c === '{') return object();
		if (c === '[') return array();
		if (c === '"') return string();
		if (c === 't') return literal('true', true);
		if (c === 'f') return literal('false', false);
		if (c === 'n') return literal('null', null);
		if (c === '-' || (c >= '0' && c <= '9')) return number();
		return fail(`Unexpected token '${c}'`);
	}

	/** @param {string} word @param {any} result */
	function literal(word, result) {
		if (text.startsWith(word, i)) {
			i += word.length;
			return result;
		}
		return fail(`Unexpected token '${text[i]}'`);
	}

	function number() {
		NUMBER_RE.lastIndex = i;
		const m = NUMBER_RE.exec(text);
		if (!m) return fail('Invalid number');
		i += m[0].length;
		const num = Number(m[0]);
		if (!m[1] && !m[2] && !Number.isSafeInteger(num)) return BigInt(m[0]);
		return num;
	}

	function string() {
		const start = i;
		let j = i + 1;
		for (;;) {
			const q = text.indexOf('"', j);
			if (q === -1) {
				i = n;
				return fail('Unterminated string');
			}
			let backslashes = 0;
			for (let k = q - 1; k > start && text.charCodeAt(k) === 92; k--) backslashes++;
			if (backslashes % 2 === 0) {
				i = q + 1;
				try {
					return JSON.parse(text.slice(start, q + 1));
				} catch (e) {
					i = start;
					return fail('Invalid string');
				}
			}
			j = q + 1;
		}
	}

	function array() {
		i++;
		const out = /** @type {any[]} */ ([]);
		ws();
		if (text[i] === ']') {
			i++;
			return out;
		}
		for (;;) {
			out.push(value());
			ws();
			if (text[i] === ',') {
				i++;
				continue;
			}
			if (text[i] === ']') {
				i++;
				return out;
			}
			return fail(
				i >= n ? 'Unexpected end of JSON input' : `Expected ',' or ']' but found '${text[i]}'`,
			);
		}
	}

	function object() {
		i++;
		/** @type {Record<string, any>} */
		const out = {};
		ws();
		if (text[i] === '}') {
			i++;
			return out;
		}
		for (;;) {
			ws();
			if (text[i] !== '"')
				return fail(i >= n ? 'Unexpected end of JSON input' : 'Expected a property name');
			const key = string();
			ws();
			if (text[i] !== ':') return fail(`Expected ':' after property name`);
			i++;
			const v = value();
			Object.defineProperty(out, key, {
				value: v,
				enumerable: true,
				writable: true,
				configurable: true,
			});
			ws();
			if (text[i] === ',') {
				i++;
				continue;
			}
			if (text[i] === '}') {
				i++;
				return out;
			}
			return fail(
				i >= n ? 'Unexpected end of JSON input' : `Expected ',' or '}' but found '${text[i]}'`,
			);
		}
	}

	const result = value();
	ws();
	if (i < n) fail(`Unexpected data after JSON value`);
	return result;
}

/**
 * @param {any} value
 * @param {number} [indent]
 * @returns {string}
 */
function stringify(value, indent) {
	const pad = indent ? ' '.repeat(indent) : '';
	/** @param {any} v @param {string} cur @returns {string | undefined} */
	function write(v, cur) {
		if (v === null) return 'null';
		switch (typeof v) {
			case 'bigint':
				return v.toString();
			case 'number':
				return Number.isFinite(v) ? JSON.stringify(v) : 'null';
			case 'boolean':
				return v ? 'true' : 'false';
			case 'string':
				return JSON.stringify(v);
			case 'undefined':
			case 'function':
			case 'symbol':
				return undefined;
			default:
				break;
		}
		if (v instanceof Date) return JSON.stringify(v.toISOString());
		if (Buffer.isBuffer(v) || v instanceof Uint8Array) return `{"bufferSize":${v.length}}`;
		if (v instanceof RegExp) return JSON.stringify(String(v));
		if (v instanceof Map) v = Object.fromEntries(v);
		if (v instanceof Set) v = [...v];
		const next = cur + pad;
		const nl = pad ? '\n' : '';
		const sep = pad ? ': ' : ':';
		if (Array.isArray(v)) {
			if (v.length === 0) return '[]';
			const items = v.map((x) => {
				const s = write(x, next);
				return (pad ? next : '') + (s === undefined ? 'null' : s);
			});
			return `[${nl}${items.join(`,${nl}`)}${nl}${pad ? cur : ''}]`;
		}
		const items = [];
		for (const key of Object.keys(v)) {
			const s = write(v[key], next);
			if (s === undefined) continue;
			items.push(`${pad ? next : ''}${JSON.stringify(key)}${sep}${s}`);
		}
		if (items.length === 0) return '{}';
		return `{${nl}${items.join(`,${nl}`)}${nl}${pad ? cur : ''}}`;
	}
	const out = write(value, '');
	return out === undefined ? 'null' : out;
}

/**
 * `stringify` for API answers, through the runtime's JSON.stringify (an answer of 50 work orders
 * is 200 KB): BigInt values become integer literals through a marker the runtime cannot produce
 * from real text (a NUL character). For values without Buffers, Maps or Sets (API answers);
 * `stringify` handles those.
 * @param {any} value
 * @returns {string}
 */
function stringifyFast(value) {
	let big = false;
	// the holder's own value: a BigInt.prototype.toJSON (some libraries add one) runs before the replacer
	const text = JSON.stringify(
		value,
		/** @this {any} @param {string} key @param {any} v */ function (key, v) {
			const raw = this[key];
			if (typeof raw !== 'bigint') return v;
			big = true;
			return `\u0000bigint:${raw.toString()}`;
		},
	);
	if (text === undefined) return 'null';
	return big ? text.replace(/"\\u0000bigint:(-?\d+)"/g, '$1') : text;
}

module.exports = { parse, stringify, stringifyFast, JsonSyntaxError };
