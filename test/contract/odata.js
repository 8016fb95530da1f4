// @ts-check
'use strict';

/**
 * OData query options checked against the type of the records an operation answers with: every
 * property path in `$select`, `$filter`, `$orderby` and `$expand` must exist in the reference
 * (`Location/Name` walks WorkOrder.Location → Location.Name), `$filter` must be an expression the
 * service can parse (balanced parentheses, known functions, no stray tokens such as the space a
 * `+` becomes when it is not percent-encoded), and a property compared with a literal must be
 * compared with one of its type. Independent of the emulator's own OData implementation.
 */

const { walkPath, resolve } = require('./reference');

/** @typedef {import('./schema').Violation} Violation */

const KEYWORDS = new Set([
	'and',
	'or',
	'not',
	'eq',
	'ne',
	'gt',
	'ge',
	'lt',
	'le',
	'add',
	'sub',
	'mul',
	'div',
	'mod',
	'has',
	'in',
]);
const COMPARISONS = new Set(['eq', 'ne', 'gt', 'ge', 'lt', 'le']);
const CONSTANTS = new Set(['true', 'false', 'null']);
/** The canonical functions of OData v4 that ASP.NET OData implements (string, date, math). */
const FUNCTIONS = new Set([
	'contains',
	'startswith',
	'endswith',
	'length',
	'indexof',
	'substring',
	'tolower',
	'toupper',
	'trim',
	'concat',
	'year',
	'month',
	'day',
	'hour',
	'minute',
	'second',
	'fractionalseconds',
	'date',
	'time',
	'now',
	'mindatetime',
	'maxdatetime',
	'round',
	'floor',
	'ceiling',
	'cast',
	'isof',
]);

const DATETIME =
	/^\d{4}-\d{2}-\d{2}(?:T\d{2}:\d{2}(?::\d{2}(?:\.\d{1,7})?)?(?:Z|[+-]\d{2}:\d{2})?)?/i;
const NUMBER = /^-?\d+(?:\.\d+)?(?:[eE][+-]?\d+)?[mMdDfFlL]?/;
const IDENT = /^[A-Za-z_$][A-Za-z0-9_.]*(?:\/[A-Za-z_][A-Za-z0-9_.]*)*/;

/**
 * @typedef {{ t: 'ident' | 'string' | 'number' | 'datetime' | 'typed' | '(' | ')' | ',', v: string, pos: number }} Token
 */

/**
 * @param {string} text
 * @returns {{ tokens: Token[], error?: string }}
 */
function tokenize(text) {
	/** @type {Token[]} */
	const tokens = [];
	let i = 0;
	while (i < text.length) {
		const c = text[i];
		if (/\s/.test(c)) {
			i++;
			continue;
		}
		if (c === '(' || c === ')' || c === ',') {
			tokens.push({ t: c, v: c, pos: i });
			i++;
			continue;
		}
		if (c === "'") {
			let j = i + 1;
			for (;;) {
				if (j >= text.length)
					return { tokens, error: `unterminated string literal at position ${i}` };
				if (text[j] === "'") {
					if (text[j + 1] === "'") {
						j += 2;
						continue;
					}
					break;
				}
				j++;
			}
			tokens.push({ t: 'string', v: text.slice(i + 1, j).replace(/''/g, "'"), pos: i });
			i = j + 1;
			continue;
		}
		const rest = text.slice(i);
		const dt = /\d/.test(c) ? DATETIME.exec(rest) : null;
		if (dt && dt[0].length > 4 && /-/.test(dt[0])) {
			tokens.push({ t: 'datetime', v: dt[0], pos: i });
			i += dt[0].length;
			continue;
		}
		const num = NUMBER.exec(rest);
		if (num && (c === '-' || /\d/.test(c))) {
			tokens.push({ t: 'number', v: num[0], pos: i });
			i += num[0].length;
			continue;
		}
		const id = IDENT.exec(rest);
		if (id) {
			if (text[i + id[0].length] === "'") {
				// a typed literal: datetime'...', guid'...'
				const end = text.indexOf("'", i + id[0].length + 1);
				if (end < 0) return { tokens, error: `unterminated literal at position ${i}` };
				tokens.push({ t: 'typed', v: text.slice(i, end + 1), pos: i });
				i = end + 1;
				continue;
			}
			tokens.push({ t: 'ident', v: id[0], pos: i });
			i += id[0].length;
			continue;
		}
		return { tokens, error: `unexpected '${text.slice(i, i + 12)}' at position ${i}` };
	}
	return { tokens };
}

/** The kind of value a property holds, for comparisons. @param {import('./reference').Schema} schema */
function kindOf(schema) {
	const s = resolve(schema) || {};
	if (s.enum) return 'enum';
	if (s.type === 'string') return s.format === 'date-time' ? 'date' : 'string';
	if (s.type === 'integer' || s.type === 'number') return 'number';
	if (s.type === 'boolean') return 'boolean';
	return 'other';
}

/** Whether a literal token can be compared with a property of `kind`. @param {string} kind @param {Token} lit */
function compatible(kind, lit) {
	if (lit.t === 'ident' && lit.v === 'null') return true;
	switch (kind) {
		case 'date':
			return lit.t === 'datetime' || lit.t === 'typed' || lit.t === 'string';
		case 'string':
			return lit.t === 'string';
		case 'enum':
			return lit.t === 'string' || lit.t === 'number' || lit.t === 'typed';
		case 'number':
			return lit.t === 'number';
		case 'boolean':
			return lit.t === 'ident' && (lit.v === 'true' || lit.v === 'false');
		default:
			return true;
	}
}

/**
 * Checks one property path against the records' type. @param {string} type @param {string} path
 * @param {string} option @param {Violation[]} out
 * @returns {string | undefined} the kind of the property, when it is one
 */
function checkPath(type, path, option, out) {
	const steps = path.split('/');
	const walked = walkPath(type, steps);
	if (!walked.ok) {
		out.push({
			kind: 'unknown OData property',
			where: option,
			message: `${option}: '${path}' is not a property path of ${type}: ${walked.reason}`,
		});
		return undefined;
	}
	return kindOf(walked.schema);
}

/** @param {string} type @param {string} text @param {Violation[]} out */
function checkFilter(type, text, out) {
	const where = '$filter';
	const { tokens, error } = tokenize(text);
	if (error) {
		out.push({
			kind: 'OData syntax',
			where,
			message: `$filter: ${error}${/ \d{2}:\d{2}/.test(text) ? " (a '+' sent unencoded in a query string arrives as a space)" : ''}`,
		});
		return;
	}
	let depth = 0;
	for (let i = 0; i < tokens.length; i++) {
		const t = tokens[i];
		if (t.t === '(') depth++;
		if (t.t === ')' && --depth < 0) {
			out.push({
				kind: 'OData syntax',
				where,
				message: `$filter: unbalanced ')' at position ${t.pos}`,
			});
			return;
		}
		if (t.t !== 'ident') continue;
		const lower = t.v.toLowerCase();
		if (KEYWORDS.has(lower) || CONSTANTS.has(lower)) continue;
		const next = tokens[i + 1];
		if (next && next.t === '(') {
			if (!FUNCTIONS.has(lower))
				out.push({
					kind: 'OData syntax',
					where,
					message: `$filter: '${t.v}' is not a function the service knows`,
				});
			continue;
		}
		const kind = checkPath(type, t.v, where, out);
		// property op literal / literal op property: the literal must be of the property's type
		const op = tokens[i + 1];
		const before = tokens[i - 1];
		const lit =
			op && op.t === 'ident' && COMPARISONS.has(op.v.toLowerCase())
				? tokens[i + 2]
				: before && before.t === 'ident' && COMPARISONS.has(before.v.toLowerCase())
					? tokens[i - 2]
					: undefined;
		if (
			kind &&
			lit &&
			lit.t !== 'ident' &&
			lit.t !== '(' &&
			lit.t !== ')' &&
			lit.t !== ',' &&
			!compatible(kind, lit)
		) {
			out.push({
				kind: 'wrong type',
				where,
				message: `$filter: '${t.v}' (a ${kind}) is compared with ${lit.t} ${lit.v}`,
			});
		}
		if (
			kind &&
			lit &&
			lit.t === 'ident' &&
			(lit.v === 'true' || lit.v === 'false') &&
			kind !== 'boolean'
		) {
			out.push({
				kind: 'wrong type',
				where,
				message: `$filter: '${t.v}' (a ${kind}) is compared with ${lit.v}`,
			});
		}
	}
	if (depth !== 0)
		out.push({ kind: 'OData syntax', where, message: '$filter: unbalanced parentheses' });
	for (let i = 0; i + 1 < tokens.length; i++) {
		const a = tokens[i];
		const b = tokens[i + 1];
		const operand = (/** @type {Token} */ t) =>
			t.t !== '(' &&
			t.t !== ')' &&
			t.t !== ',' &&
			!(t.t === 'ident' && KEYWORDS.has(t.v.toLowerCase()));
		if (operand(a) && operand(b) && !(a.t === 'ident' && b.t === '(')) {
			out.push({
				kind: 'OData syntax',
				where,
				message: `$filter: '${a.v}' and '${b.v}' follow each other without an operator (position ${b.pos})`,
			});
			return;
		}
	}
}

/** @param {string} type @param {string} text @param {Violation[]} out */
function checkOrderBy(type, text, out) {
	for (const clause of text.split(',')) {
		const m =
			/^\s*([A-Za-z_][A-Za-z0-9_]*(?:\/[A-Za-z_][A-Za-z0-9_]*)*)(?:\s+(asc|desc))?\s*$/.exec(
				clause,
			);
		if (!m) {
			out.push({
				kind: 'OData syntax',
				where: '$orderby',
				message: `$orderby: cannot read '${clause.trim()}' (expected "Property [asc|desc]")`,
			});
			continue;
		}
		checkPath(type, m[1], '$orderby', out);
	}
}

/** @param {string} type @param {string} text @param {string} option @param {Violation[]} out */
function checkList(type, text, option, out) {
	if (text.trim() === '*') return;
	for (const item of text.split(',')) {
		const name = item.trim().replace(/\(.*\)$/, '');
		if (!/^[A-Za-z_][A-Za-z0-9_]*(?:\/[A-Za-z_][A-Za-z0-9_]*)*$/.test(name)) {
			out.push({
				kind: 'OData syntax',
				where: option,
				message: `${option}: cannot read '${item.trim()}'`,
			});
			continue;
		}
		checkPath(type, name, option, out);
	}
}

/**
 * Violations of the OData options of one request, for records of `type`.
 * @param {string} type @param {Record<string, unknown>} query
 * @returns {Violation[]}
 */
function checkODataOptions(type, query) {
	/** @type {Violation[]} */
	const out = [];
	const text = (/** @type {string} */ k) => {
		const v = query[k];
		return Array.isArray(v) ? String(v[v.length - 1]) : v === undefined ? undefined : String(v);
	};
	const filter = text('$filter');
	if (filter !== undefined) checkFilter(type, filter, out);
	const orderby = text('$orderby');
	if (orderby !== undefined) checkOrderBy(type, orderby, out);
	const select = text('$select');
	if (select !== undefined) checkList(type, select, '$select', out);
	const expand = text('$expand');
	if (expand !== undefined) checkList(type, expand, '$expand', out);
	return out;
}

/**
 * What a `$select` asks for, as a tree (`Id,Location/Name` → { Id: true, Location: { Name: true } });
 * undefined: everything.
 * @param {unknown} select @returns {import('./schema').Selection | undefined}
 */
function selectedTopLevel(select) {
	if (select === undefined) return undefined;
	const text = Array.isArray(select) ? String(select[select.length - 1]) : String(select);
	if (text.trim() === '' || text.trim() === '*') return undefined;
	/** @type {import('./schema').Selection} */
	const tree = {};
	for (const item of text.split(',')) {
		const path = item.trim().split('/');
		/** @type {any} */
		let node = tree;
		path.forEach((step, i) => {
			if (i === path.length - 1) node[step] = true;
			else {
				if (node[step] === true) return;
				node[step] = node[step] || {};
				node = node[step];
			}
		});
	}
	return tree;
}

module.exports = { checkODataOptions, selectedTopLevel, tokenize, FUNCTIONS };
