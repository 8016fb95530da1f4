// @ts-check
'use strict';

/**
 * Checks a value against a schema of the reference (reference.js), in one of two modes:
 *   - 'request': what a client sends. Unknown fields, missing required fields (null counts as
 *     missing), wrong types, values outside an enum.
 *   - 'answer': what the service (here: the emulator) answers. Every property of the reference's
 *     object must be there (null is a value: "nulls included"), none beyond them, each of its type.
 * Each problem is a violation `{ kind, where, message }`; `where` is a path such as
 * `body.Location.Name` or `part AddAttachmentsRequest[0].Type`.
 */

const { resolve, defName } = require('./reference');

/**
 * @typedef {import('./reference').Schema} Schema
 * @typedef {{ kind: string, where: string, message: string }} Violation
 * @typedef {{ [name: string]: true | Selection }} Selection  the properties an answer must have ($select): true = all of it
 * @typedef {{ mode: 'request' | 'answer', violations: Violation[] }} Ctx
 */

const INT32_MIN = -2147483648;
const INT32_MAX = 2147483647;
const INT64_MIN = -9223372036854775808n;
const INT64_MAX = 9223372036854775807n;

const ISO_DATE_TIME =
	/^\d{4}-\d{2}-\d{2}(?:[T ]\d{2}:\d{2}(?::\d{2}(?:\.\d{1,7})?)?)?(?:Z|[+-]\d{2}:?\d{2})?$/i;

/** @param {unknown} v */
function describe(v) {
	if (v === null) return 'null';
	if (Array.isArray(v)) return 'an array';
	if (typeof v === 'bigint') return `the integer ${v}`;
	if (typeof v === 'string')
		return `the string ${JSON.stringify(v.length > 40 ? `${v.slice(0, 37)}...` : v)}`;
	if (typeof v === 'object') return 'an object';
	return `${typeof v} ${String(v)}`;
}

/** @param {Ctx} ctx @param {string} kind @param {string} where @param {string} message */
function add(ctx, kind, where, message) {
	ctx.violations.push({
		kind: ctx.mode === 'answer' && !kind.startsWith('answer:') ? `answer: ${kind}` : kind,
		where,
		message,
	});
}

/** A whole number within `[min, max]` as a number, a BigInt, or (when `text`) a decimal string. @param {unknown} v @param {boolean} int64 @param {boolean} text */
function isInteger(v, int64, text) {
	/** @type {bigint | undefined} */
	let n;
	if (typeof v === 'number' && Number.isInteger(v)) n = BigInt(v);
	else if (typeof v === 'bigint') n = v;
	else if (text && typeof v === 'string' && /^-?\d{1,19}$/.test(v)) n = BigInt(v);
	if (n === undefined) return false;
	return int64
		? n >= INT64_MIN && n <= INT64_MAX
		: n >= BigInt(INT32_MIN) && n <= BigInt(INT32_MAX);
}

/**
 * @param {Schema} schema @param {unknown} value @param {string} where @param {Ctx} ctx @param {Selection} [only]
 */
function checkValue(schema, value, where, ctx, only) {
	const target = resolve(schema);
	if (!target || value === null || value === undefined) return;
	if (target.properties || target.type === 'object') {
		checkObject(target, defName(schema), value, where, ctx, only);
		return;
	}
	if (target.type === 'array') {
		if (!Array.isArray(value)) {
			add(ctx, 'wrong type', where, `${where} must be an array, got ${describe(value)}`);
			return;
		}
		value.forEach((item, i) => checkValue(target.items || {}, item, `${where}[${i}]`, ctx));
		return;
	}
	checkScalar(target, value, where, ctx);
}

/** @param {Schema} s @param {unknown} v @param {string} where @param {Ctx} ctx */
function checkScalar(s, v, where, ctx) {
	const wrong = (/** @type {string} */ expected) =>
		add(ctx, 'wrong type', where, `${where} must be ${expected}, got ${describe(v)}`);
	if (s.enum) {
		const ok =
			(typeof v === 'string' && s.enum.includes(v)) ||
			(isInteger(v, false, false) && Number(v) >= 0 && Number(v) < s.enum.length); // rule 6: names or numbers
		if (!ok)
			add(
				ctx,
				'wrong type',
				where,
				`${where} must be one of ${s.enum.slice(0, 8).join(', ')}${s.enum.length > 8 ? ', ...' : ''} (or its number), got ${describe(v)}`,
			);
		return;
	}
	switch (s.type) {
		case 'integer': {
			const int64 = s.format === 'int64' || !!s.int64;
			if (isInteger(v, int64, !!s.int64 || !!s.stringToo)) return;
			if (s.stringToo && typeof v === 'string') return;
			wrong(int64 ? 'a 64-bit integer' : 'a 32-bit integer');
			return;
		}
		case 'number':
			if (typeof v === 'number' || typeof v === 'bigint') return;
			wrong('a number');
			return;
		case 'boolean':
			if (typeof v !== 'boolean') wrong('true or false');
			return;
		case 'string': {
			if (s.numberToo && (typeof v === 'number' || typeof v === 'bigint')) return;
			if (s.format === 'byte' && isInteger(v, false, false)) return; // Note.Visibility may come as a number
			if (typeof v !== 'string') {
				wrong(s.format === 'date-time' ? 'an ISO 8601 date-time string' : 'a string');
				return;
			}
			if (s.format === 'date-time' && !ISO_DATE_TIME.test(v.trim())) wrong('an ISO 8601 date-time');
			return;
		}
		default:
	}
}

/**
 * @param {Schema} def @param {string | undefined} name @param {unknown} value @param {string} where @param {Ctx} ctx
 * @param {Selection} [only] the properties that must be there (an answer to $select)
 */
function checkObject(def, name, value, where, ctx, only) {
	const label = name || 'object';
	const generic = Object.keys(def.properties || {}).length === 0;
	// an answer typed as the empty generic object is "JSON of unknown shape" (the page's table of
	// answers without a documented body): any JSON passes, a list too
	if (generic && ctx.mode === 'answer') return;
	if (value === null || typeof value !== 'object' || Array.isArray(value)) {
		add(ctx, 'wrong type', where, `${where} must be a ${label} object, got ${describe(value)}`);
		return;
	}
	const props = def.properties || {};
	const known = Object.keys(props);
	if (known.length === 0) return; // AnyObject: anything goes
	const lower = new Map(known.map((k) => [k.toLowerCase(), k]));
	const rec = /** @type {Record<string, unknown>} */ (value);
	/** @type {Set<string>} */
	const present = new Set();
	for (const key of Object.keys(rec)) {
		if (ctx.mode === 'answer' && key.startsWith('@odata.')) continue;
		const prop = Object.prototype.hasOwnProperty.call(props, key)
			? key
			: def.anyCase
				? lower.get(key.toLowerCase())
				: undefined;
		if (!prop) {
			add(
				ctx,
				ctx.mode === 'answer' ? 'answer: unknown property' : 'unknown body field',
				`${where}.${key}`,
				`${where}.${key} is not a property of ${label} (properties: ${known.slice(0, 12).join(', ')}${known.length > 12 ? ', ...' : ''})`,
			);
			continue;
		}
		present.add(prop);
		const sub = only && only[prop] !== true ? only[prop] : undefined;
		checkValue(props[prop], rec[key], `${where}.${prop}`, ctx, sub || undefined);
	}
	if (ctx.mode === 'request') {
		for (const req of def.requiredOf ? def.requiredOf(rec) : def.required || []) {
			const key = Object.keys(rec).find((k) =>
				def.anyCase ? k.toLowerCase() === req.toLowerCase() : k === req,
			);
			if (key === undefined || rec[key] === null || rec[key] === undefined) {
				add(
					ctx,
					'missing body field',
					`${where}.${req}`,
					`${where}.${req} is required by ${label}`,
				);
			}
		}
		return;
	}
	const expected = only ? known.filter((k) => k in only) : known;
	for (const prop of expected) {
		if (!present.has(prop))
			add(
				ctx,
				'answer: missing property',
				`${where}.${prop}`,
				`${where}.${prop} of ${label} is missing (the reference's objects carry every property, null when empty)`,
			);
	}
}

/**
 * Violations of `value` against `schema`.
 * @param {Schema} schema @param {unknown} value @param {string} where
 * @param {{ mode: 'request' | 'answer', only?: Selection }} o  `only`: the properties an answer must have ($select)
 * @returns {Violation[]}
 */
function check(schema, value, where, o) {
	/** @type {Ctx} */
	const ctx = { mode: o.mode, violations: [] };
	checkValue(schema, value, where, ctx, o.only);
	return ctx.violations;
}

module.exports = { check, checkScalar, isInteger, describe, ISO_DATE_TIME };
