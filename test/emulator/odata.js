// @ts-check
'use strict';

/**
 * The OData query subset the emulator understands (README.md, "OData"), over records of one type
 * of the reference (`WorkOrder`, `Note`, `Attachment`, `CheckInActivity`):
 *   $top, $skip  non-negative integers; a page never holds more than 50 records;
 *   $filter      comparisons `eq ne gt ge lt le` between property paths (`Status/Primary`,
 *                `Location/Name`), literals and the functions contains, startswith, endswith,
 *                tolower, toupper, trim, length, indexof, substring, concat; `and`, `or`, `not`,
 *                parentheses; a bare boolean property or function. Precedence: not > comparison >
 *                and > or. Literals: 'text' ('' escapes a quote), integers of any size, decimals,
 *                true, false, null, date-times 2026-03-29T01:30:00Z / -04:00 / .1234567 / no offset,
 *                dates 2026-03-29, and datetime'...' / datetimeoffset'...' (OData v3).
 *   $orderby     `Path [asc|desc]`, comma-separated; ties are broken by Id ascending;
 *   $select      comma-separated properties or paths (`Location/Name` keeps Location with Name);
 *   $count       true | false (the number of records matching $filter, before paging).
 * Every property path is checked against the reference's definition of the type (an unknown one
 * is an error, as the service's "Could not find a property named ... on type ..."). Date-time
 * properties compare as instants: a plain date with an offset twin (`UpdatedDate` / `UpdatedDate_DTO`)
 * is read from the twin, one without (Note.DateCreated) as local time of the service; a literal
 * without an offset is local time of the service (its time zone, see service-time.js). Strings
 * compare without regard to case, contains/startswith/endswith too (a case-insensitive collation,
 * as SQL Server's default). $expand and other `$` options are refused. No @odata.nextLink is ever
 * returned.
 */

const { UTC, parseIsoParts } = require('./service-time');
const { walkPath, datesOf, resolve } = require('../contract/reference');

const PAGE_CAP = 50;

class ODataError extends Error {}

/**
 * @typedef {import('./service-time').ServiceTime} ServiceTime
 * @typedef {{ kind: 'string', value: string } | { kind: 'number', value: number | bigint } | { kind: 'bool', value: boolean }
 *   | { kind: 'null' } | { kind: 'datetime', text: string, ticks: bigint }} Literal
 * @typedef {{ kind: 'prop', path: string[], name: string } | { kind: 'lit', lit: Literal } | { kind: 'call', name: string, args: Operand[] }} Operand
 * @typedef {{ type: 'or' | 'and', left: Expr, right: Expr } | { type: 'not', expr: Expr }
 *   | { type: 'cmp', op: string, left: Operand, right: Operand }} Expr
 * @typedef {{ t: 'ident' | 'string' | 'number' | 'datetime' | 'typed' | '(' | ')' | ',', v: string, prefix?: string, pos: number }} Token
 * @typedef {{ type: string, time: ServiceTime }} Env
 */

/** The functions of $filter: their argument types and what they return. */
const FUNCTIONS = {
	contains: { args: ['string', 'string'], returns: 'bool' },
	startswith: { args: ['string', 'string'], returns: 'bool' },
	endswith: { args: ['string', 'string'], returns: 'bool' },
	tolower: { args: ['string'], returns: 'string' },
	toupper: { args: ['string'], returns: 'string' },
	trim: { args: ['string'], returns: 'string' },
	length: { args: ['string'], returns: 'number' },
	indexof: { args: ['string', 'string'], returns: 'number' },
	substring: { args: ['string', 'number', 'number?'], returns: 'string' },
	concat: { args: ['string', 'string'], returns: 'string' },
};

const COMPARISON = new Set(['eq', 'ne', 'gt', 'ge', 'lt', 'le']);
const KEYWORDS = new Set(['and', 'or', 'not', ...COMPARISON]);
const TYPED_LITERALS = new Set(['datetime', 'datetimeoffset']);

const DATETIME_TOKEN =
	/^\d{4}-\d{2}-\d{2}(?:[Tt]\d{2}:\d{2}(?::\d{2}(?:\.\d+)?)?(?:[Zz]|[+-]\d{2}:\d{2})?)?/;
const NUMBER_TOKEN = /^-?\d+(\.\d+)?([eE][+-]?\d+)?[mMdDfFlL]?/;
const IDENT_TOKEN = /^[A-Za-z_][A-Za-z0-9_]*(\/[A-Za-z_][A-Za-z0-9_]*)*/;

/** @param {string} what */
const syntax = (what) =>
	new ODataError(
		`$filter: ${what}. Supported: comparisons (eq, ne, gt, ge, lt, le) of a property and a literal, joined by and, or, not and parentheses`,
	);

/**
 * @param {string} text
 * @returns {Token[]}
 */
function tokenize(text) {
	/** @type {Token[]} */
	const tokens = [];
	let i = 0;
	/** @param {number} from */
	const quoted = (from) => {
		let j = from + 1;
		let out = '';
		for (;;) {
			if (j >= text.length)
				throw new ODataError(`$filter: unterminated string literal starting at position ${from}`);
			if (text[j] === "'") {
				if (text[j + 1] === "'") {
					out += "'";
					j += 2;
					continue;
				}
				break;
			}
			out += text[j];
			j++;
		}
		return { value: out, end: j + 1 };
	};
	while (i < text.length) {
		const c = text[i];
		if (c === ' ' || c === '\t' || c === '\r' || c === '\n') {
			i++;
			continue;
		}
		if (c === '(' || c === ')' || c === ',') {
			tokens.push({ t: c, v: c, pos: i });
			i++;
			continue;
		}
		if (c === "'") {
			const q = quoted(i);
			tokens.push({ t: 'string', v: q.value, pos: i });
			i = q.end;
			continue;
		}
		const rest = text.slice(i);
		const dt = /\d/.test(c) ? DATETIME_TOKEN.exec(rest) : null;
		if (dt) {
			const timePart = dt[0].slice(10);
			if (
				timePart !== '' &&
				!/[Zz+-]/.test(timePart) &&
				/^ \d{2}:?\d{2}\b/.test(rest.slice(dt[0].length))
			) {
				throw new ODataError(
					`$filter: '${rest.slice(0, dt[0].length + 6)}' is not a date-time: a '+' in a URL query means a space; send the offset as %2B (e.g. ${dt[0]}%2B01:00) or use Z`,
				);
			}
			tokens.push({ t: 'datetime', v: dt[0], pos: i });
			i += dt[0].length;
			continue;
		}
		const num = NUMBER_TOKEN.exec(rest);
		if (num && (c === '-' || /\d/.test(c))) {
			tokens.push({ t: 'number', v: num[0].replace(/[mMdDfFlL]$/, ''), pos: i });
			i += num[0].length;
			continue;
		}
		const id = IDENT_TOKEN.exec(rest);
		if (id) {
			if (text[i + id[0].length] === "'") {
				const q = quoted(i + id[0].length);
				tokens.push({ t: 'typed', v: q.value, prefix: id[0], pos: i });
				i = q.end;
				continue;
			}
			tokens.push({ t: 'ident', v: id[0], pos: i });
			i += id[0].length;
			continue;
		}
		throw syntax(`unsupported syntax at '${text.slice(i, i + 20)}'`);
	}
	return tokens;
}

/**
 * @param {string} text of a date-time literal
 * @param {ServiceTime} time
 * @returns {Literal}
 */
function dateLiteral(text, time) {
	if (/\.\d{8,}/.test(text))
		throw new ODataError(`$filter: '${text}' has more than 7 fractional digits`);
	const parts = parseIsoParts(text);
	if (!parts) throw new ODataError(`$filter: '${text}' is not a valid date-time`);
	return { kind: 'datetime', text, ticks: time.ticksOf(parts) };
}

/**
 * Parses a $filter expression into a tree. Property names are not checked here (see compile).
 * @param {string} text
 * @param {ServiceTime} [time] the service time zone (reads literals without an offset)
 * @returns {Expr}
 */
function parseFilter(text, time = UTC) {
	const tokens = tokenize(text);
	let i = 0;
	if (tokens.length === 0) throw syntax('empty expression');
	const peek = () => tokens[i];
	/** @param {Token | undefined} t @param {string} word */
	const isWord = (t, word) => !!t && t.t === 'ident' && t.v.toLowerCase() === word;
	const describe = (/** @type {Token | undefined} */ t) =>
		t ? `'${t.t === 'string' ? `'${t.v}'` : t.v}' at position ${t.pos}` : 'the end';

	/** @returns {Expr} */
	function parseOr() {
		let left = parseAnd();
		while (isWord(peek(), 'or')) {
			i++;
			left = { type: 'or', left, right: parseAnd() };
		}
		return left;
	}
	/** @returns {Expr} */
	function parseAnd() {
		let left = parseUnary();
		while (isWord(peek(), 'and')) {
			i++;
			left = { type: 'and', left, right: parseUnary() };
		}
		return left;
	}
	/** @returns {Expr} */
	function parseUnary() {
		const t = peek();
		if (!t) throw syntax(`expression ends after ${describe(tokens[i - 1])}`);
		if (isWord(t, 'not')) {
			i++;
			return { type: 'not', expr: parseUnary() };
		}
		if (t.t === '(') {
			i++;
			const e = parseOr();
			const close = peek();
			if (!close || close.t !== ')') throw syntax(`expected ')' but found ${describe(close)}`);
			i++;
			return e;
		}
		return parseComparison();
	}
	/** @returns {Expr} */
	function parseComparison() {
		const left = parseOperand();
		const op = peek();
		if (!op || op.t === ')' || isWord(op, 'and') || isWord(op, 'or')) {
			if (left.kind === 'prop' || left.kind === 'call')
				return {
					type: 'cmp',
					op: 'eq',
					left,
					right: { kind: 'lit', lit: { kind: 'bool', value: true } },
				};
			throw syntax(`a literal alone is not a condition (${describe(tokens[i - 1])})`);
		}
		if (op.t !== 'ident' || !COMPARISON.has(op.v.toLowerCase())) {
			throw syntax(`operator ${describe(op)} is not supported`);
		}
		i++;
		if (!peek()) throw syntax(`missing value after ${op.v}`);
		const right = parseOperand();
		return { type: 'cmp', op: op.v.toLowerCase(), left, right };
	}
	/** @returns {Operand} */
	function parseOperand() {
		const t = peek();
		if (!t) throw syntax('missing operand');
		i++;
		switch (t.t) {
			case 'string':
				return { kind: 'lit', lit: { kind: 'string', value: t.v } };
			case 'number': {
				if (/^-?\d+$/.test(t.v)) {
					const n = Number(t.v);
					return {
						kind: 'lit',
						lit: { kind: 'number', value: Number.isSafeInteger(n) ? n : BigInt(t.v) },
					};
				}
				return { kind: 'lit', lit: { kind: 'number', value: Number(t.v) } };
			}
			case 'datetime':
				return { kind: 'lit', lit: dateLiteral(t.v, time) };
			case 'typed': {
				const prefix = String(t.prefix).toLowerCase();
				if (!TYPED_LITERALS.has(prefix))
					throw syntax(
						`typed literal ${t.prefix}'...' is not supported (datetime'...' and datetimeoffset'...' are)`,
					);
				if (!DATETIME_TOKEN.test(t.v) || DATETIME_TOKEN.exec(t.v)?.[0] !== t.v)
					throw new ODataError(`$filter: ${t.prefix}'${t.v}' is not a valid date-time`);
				return { kind: 'lit', lit: dateLiteral(t.v, time) };
			}
			case 'ident': {
				if (t.v === 'true' || t.v === 'false')
					return { kind: 'lit', lit: { kind: 'bool', value: t.v === 'true' } };
				if (t.v === 'null') return { kind: 'lit', lit: { kind: 'null' } };
				if (KEYWORDS.has(t.v.toLowerCase()))
					throw syntax(`expected a property or a value but found ${describe(t)}`);
				if (peek() && peek().t === '(') return parseCall(t);
				const path = t.v.split('/');
				return { kind: 'prop', path, name: path.join('/') };
			}
			default:
				throw syntax(`expected a property or a value but found ${describe(t)}`);
		}
	}

	/** @param {Token} t the function's name @returns {Operand} */
	function parseCall(t) {
		const name = t.v.toLowerCase();
		if (!Object.prototype.hasOwnProperty.call(FUNCTIONS, name)) {
			throw syntax(`unknown function '${t.v}' (functions: ${Object.keys(FUNCTIONS).join(', ')})`);
		}
		i++; // (
		/** @type {Operand[]} */
		const args = [];
		if (peek() && peek().t !== ')') {
			for (;;) {
				args.push(parseOperand());
				const sep = peek();
				if (sep && sep.t === ',') {
					i++;
					continue;
				}
				break;
			}
		}
		const close = peek();
		if (!close || close.t !== ')')
			throw syntax(`expected ')' after the arguments of ${t.v} but found ${describe(close)}`);
		i++;
		return { kind: 'call', name, args };
	}

	const tree = parseOr();
	if (i < tokens.length) throw syntax(`unexpected ${describe(tokens[i])}`);
	return tree;
}

/** @param {any} obj @param {string[]} path */
function getPath(obj, path) {
	let cur = obj;
	for (const p of path) {
		if (cur === null || cur === undefined || typeof cur !== 'object') return undefined;
		cur = cur[p];
	}
	return cur;
}

/** @param {any} a @param {any} b @returns {number} */
function compareNumbers(a, b) {
	if (typeof a === 'bigint' || typeof b === 'bigint') {
		if (Number.isInteger(Number(a)) && Number.isInteger(Number(b))) {
			const x = BigInt(a);
			const y = BigInt(b);
			return x < y ? -1 : x > y ? 1 : 0;
		}
	}
	return Number(a) < Number(b) ? -1 : Number(a) > Number(b) ? 1 : 0;
}

/** Case-insensitive string order (ordinal on the lower-cased text). @param {string} a @param {string} b */
function compareStrings(a, b) {
	const x = a.toLowerCase();
	const y = b.toLowerCase();
	return x < y ? -1 : x > y ? 1 : 0;
}

/**
 * Order of two values of any JSON type: null first, numbers numerically, booleans false < true,
 * strings case-sensitively (kept for callers that sort ids and raw values).
 * @param {any} a @param {any} b @returns {number}
 */
function compareValues(a, b) {
	const na = a === null || a === undefined;
	const nb = b === null || b === undefined;
	if (na || nb) return na && nb ? 0 : na ? -1 : 1;
	if (
		(typeof a === 'number' || typeof a === 'bigint') &&
		(typeof b === 'number' || typeof b === 'bigint')
	)
		return compareNumbers(a, b);
	if (typeof a === 'boolean' && typeof b === 'boolean') return a === b ? 0 : a ? 1 : -1;
	const sa = String(a);
	const sb = String(b);
	return sa < sb ? -1 : sa > sb ? 1 : 0;
}

/**
 * Typed comparison of two filter values; null when they cannot be compared (different types).
 * @param {any} a @param {any} b @returns {number | null}
 */
function compareTyped(a, b) {
	if (typeof a === 'bigint' && typeof b === 'bigint') return a < b ? -1 : a > b ? 1 : 0;
	const numA = typeof a === 'number' || typeof a === 'bigint';
	const numB = typeof b === 'number' || typeof b === 'bigint';
	if (numA && numB) return compareNumbers(a, b);
	if (typeof a === 'string' && typeof b === 'string') return compareStrings(a, b);
	if (typeof a === 'boolean' && typeof b === 'boolean') return a === b ? 0 : a ? 1 : -1;
	return null;
}

/**
 * The schema a property path of `type` leads to, or an ODataError naming the step that is not a
 * property (as the service's "Could not find a property named 'X' on type 'WorkOrder'").
 * @param {string} type @param {string[]} path @param {string} where
 */
function schemaOf(type, path, where) {
	const walked = walkPath(type, path);
	if (!walked.ok) {
		const owner =
			walked.at === 0
				? type
				: (() => {
						const up = walkPath(type, path.slice(0, walked.at));
						return up.ok
							? String(
									resolve(up.schema) && up.schema.$ref ? up.schema.$ref.split('/').pop() : up.owner,
								)
							: type;
					})();
		throw new ODataError(
			`${where}: Could not find a property named '${path[walked.at]}' on type '${owner}'.`,
		);
	}
	return walked.schema;
}

/** @param {import('../contract/reference').Schema} schema */
function isDateSchema(schema) {
	const s = resolve(schema);
	return !!s && s.format === 'date-time';
}

/** @param {import('../contract/reference').Schema} schema */
function isStringSchema(schema) {
	const s = resolve(schema);
	return !!s && s.type === 'string' && s.format !== 'date-time';
}

/**
 * Instant of a record's date property in 100 ns ticks (BigInt), or null. A plain date is read from
 * its offset twin when the record has one, else as local time of the service.
 * @param {any} record @param {string} name @param {ServiceTime} time @param {string} [type] the record's type
 * @returns {bigint | null}
 */
function instantOf(record, name, time, type) {
	return dateReader(type, [name], time)(record);
}

/**
 * `instantOf` for one property path, with the names worked out once (filters and orders call it for
 * every record of the list).
 * @param {string | undefined} type @param {string[]} path @param {ServiceTime} time
 * @returns {(record: any) => bigint | null}
 */
function dateReader(type, path, time) {
	/** @param {any} v */
	const read = (v) => {
		if (typeof v === 'string' && v !== '') return time.parseTicks(v);
		if (typeof v === 'number') return BigInt(v) * 10000n;
		return null;
	};
	if (path.length > 1 || !type) {
		return (record) => read(getPath(record, path));
	}
	const name = path[0];
	const dates = datesOf(type);
	const base = dates.plain.get(name) ?? name;
	const twin = dates.twins.get(base);
	if (!twin)
		return (record) => (record === null || record === undefined ? null : read(record[name]));
	return (record) => {
		if (record === null || record === undefined) return null;
		const a = read(record[twin]);
		return a !== null ? a : read(record[base]);
	};
}

/**
 * Rough cost of evaluating a filter tree on one record (date comparisons and functions cost more).
 * @param {Expr} tree @returns {number}
 */
function cost(tree) {
	switch (tree.type) {
		case 'or':
		case 'and':
			return cost(tree.left) + cost(tree.right);
		case 'not':
			return cost(tree.expr);
		default: {
			const dated = [tree.left, tree.right].some((o) =>
				o.kind === 'lit'
					? o.lit.kind === 'datetime'
					: o.kind === 'call' || /Date|Dto|DTO|Eta|Time/.test(o.name),
			);
			return dated ? 4 : 1;
		}
	}
}

/**
 * Compiles a filter tree into a predicate; checks property paths and operand types.
 * @param {Expr} tree @param {Env} env
 * @returns {(record: any) => boolean}
 */
function compile(tree, env) {
	switch (tree.type) {
		case 'or': {
			const l = compile(tree.left, env);
			const r = compile(tree.right, env);
			return (x) => l(x) || r(x);
		}
		case 'and': {
			let l = compile(tree.left, env);
			let r = compile(tree.right, env);
			// No side effects: test the cheaper side first (a date comparison reads and parses a date).
			if (cost(tree.left) > cost(tree.right)) [l, r] = [r, l];
			return (x) => l(x) && r(x);
		}
		case 'not': {
			const e = compile(tree.expr, env);
			return (x) => !e(x);
		}
		default:
			return compileComparison(tree, env);
	}
}

/**
 * What an operand is: 'date', 'string', 'number', 'bool', 'null' or 'other'.
 * @param {Operand} o @param {Env} env
 */
function kindOfOperand(o, env) {
	if (o.kind === 'call') return FUNCTIONS[/** @type {keyof typeof FUNCTIONS} */ (o.name)].returns;
	if (o.kind === 'lit') return o.lit.kind === 'datetime' ? 'date' : o.lit.kind;
	const schema = resolve(schemaOf(env.type, o.path, '$filter')) || {};
	if (schema.format === 'date-time') return 'date';
	if (schema.enum || schema.type === 'string') return 'string';
	if (schema.type === 'integer' || schema.type === 'number') return 'number';
	if (schema.type === 'boolean') return 'bool';
	return 'other';
}

/**
 * A reader of a function call's value.
 * @param {{ name: string, args: Operand[] }} call @param {Env} env
 * @returns {(record: any) => any}
 */
function callReader(call, env) {
	const spec = FUNCTIONS[/** @type {keyof typeof FUNCTIONS} */ (call.name)];
	const min = spec.args.filter((a) => !a.endsWith('?')).length;
	if (call.args.length < min || call.args.length > spec.args.length) {
		throw new ODataError(
			`$filter: ${call.name} takes ${min === spec.args.length ? min : `${min} to ${spec.args.length}`} arguments, got ${call.args.length}`,
		);
	}
	const readers = call.args.map((arg, n) => {
		const want = spec.args[n].replace('?', '');
		const kind = kindOfOperand(arg, env);
		if (kind !== want && kind !== 'null') {
			const what = arg.kind === 'prop' ? `'${arg.name}' (a ${kind})` : `a ${kind}`;
			throw new ODataError(
				`$filter: no function signature for ${call.name} matches ${what} as argument ${n + 1} (a ${want} is needed)`,
			);
		}
		return valueReader(arg, env);
	});
	/** @param {any} v */
	const text = (v) => (typeof v === 'string' ? v : null);
	return (x) => {
		const v = readers.map((r) => r(x));
		const a = text(v[0]);
		if (a === null && spec.args[0] === 'string') return null;
		const b = typeof v[1] === 'string' ? v[1] : null;
		switch (call.name) {
			case 'contains':
				return b === null
					? null
					: /** @type {string} */ (a).toLowerCase().includes(b.toLowerCase());
			case 'startswith':
				return b === null
					? null
					: /** @type {string} */ (a).toLowerCase().startsWith(b.toLowerCase());
			case 'endswith':
				return b === null
					? null
					: /** @type {string} */ (a).toLowerCase().endsWith(b.toLowerCase());
			case 'tolower':
				return /** @type {string} */ (a).toLowerCase();
			case 'toupper':
				return /** @type {string} */ (a).toUpperCase();
			case 'trim':
				return /** @type {string} */ (a).trim();
			case 'length':
				return /** @type {string} */ (a).length;
			case 'indexof':
				return b === null ? null : /** @type {string} */ (a).toLowerCase().indexOf(b.toLowerCase());
			case 'substring':
				return v[2] === undefined
					? /** @type {string} */ (a).slice(Number(v[1]))
					: /** @type {string} */ (a).substr(Number(v[1]), Number(v[2]));
			default:
				return b === null ? a : /** @type {string} */ (a) + b;
		}
	};
}

/**
 * A reader of an operand outside date comparisons.
 * @param {Operand} o @param {Env} env @returns {(record: any) => any}
 */
function valueReader(o, env) {
	if (o.kind === 'call') return callReader(o, env);
	if (o.kind === 'prop') {
		schemaOf(env.type, o.path, '$filter');
		return (x) => getPath(x, o.path);
	}
	const lit = o.lit;
	if (lit.kind === 'null') return () => null;
	if (lit.kind === 'datetime') return () => lit.ticks;
	if (lit.kind === 'bool') return () => lit.value;
	return () => /** @type {any} */ (lit).value;
}

/**
 * A reader of an operand of a date comparison (instants in ticks).
 * @param {Operand} o @param {Env} env @returns {(record: any) => any}
 */
function dateOperand(o, env) {
	if (o.kind === 'call')
		throw new ODataError(
			`$filter: ${o.name}(...) is not a date and cannot be compared with a date-time`,
		);
	if (o.kind === 'prop') {
		if (!isDateSchema(schemaOf(env.type, o.path, '$filter'))) {
			throw new ODataError(
				`$filter: '${o.name}' is not a date property and cannot be compared with a date-time`,
			);
		}
		return dateReader(env.type, o.path, env.time);
	}
	const lit = o.lit;
	if (lit.kind === 'datetime') return () => lit.ticks;
	if (lit.kind === 'null') return () => null;
	if (lit.kind === 'string') {
		const p = parseIsoParts(lit.value);
		if (!p || /\.\d{8,}/.test(lit.value))
			throw new ODataError(
				`$filter: '${lit.value}' is not a date-time and cannot be compared with a date property`,
			);
		const ticks = env.time.ticksOf(p);
		return () => ticks;
	}
	throw new ODataError(`$filter: a ${lit.kind} value cannot be compared with a date property`);
}

/**
 * @param {{ op: string, left: Operand, right: Operand }} cmp
 * @param {Env} env
 * @returns {(record: any) => boolean}
 */
function compileComparison(cmp, env) {
	const kinds = [kindOfOperand(cmp.left, env), kindOfOperand(cmp.right, env)];
	const dateMode = kinds.includes('date');
	const left = dateMode ? dateOperand(cmp.left, env) : valueReader(cmp.left, env);
	const right = dateMode ? dateOperand(cmp.right, env) : valueReader(cmp.right, env);
	const op = cmp.op;
	return (x) => {
		const a = left(x);
		const b = right(x);
		const na = a === null || a === undefined;
		const nb = b === null || b === undefined;
		if (na || nb) {
			if (op === 'eq') return na && nb;
			if (op === 'ne') return !(na && nb);
			return false;
		}
		const c = compareTyped(a, b);
		if (c === null) return op === 'ne';
		switch (op) {
			case 'eq':
				return c === 0;
			case 'ne':
				return c !== 0;
			case 'gt':
				return c > 0;
			case 'ge':
				return c >= 0;
			case 'lt':
				return c < 0;
			default:
				return c <= 0;
		}
	};
}

/**
 * @param {string} name
 * @param {any} value
 * @returns {number}
 */
function nonNegativeInt(name, value) {
	if (typeof value !== 'string' || !/^\d{1,9}$/.test(value.trim())) {
		throw new ODataError(`${name} must be a non-negative integer, got '${value}'`);
	}
	return Number(value.trim());
}

/** Lists known to be in strictly ascending Id order (the emulator's cached lists, never modified). */
const ID_ORDERED = new WeakSet();

/**
 * Marks a list as being in strictly ascending Id order (the caller guarantees it and never
 * modifies the list); returns it.
 * @template {any[]} T @param {T} list @returns {T}
 */
function markIdOrdered(list) {
	ID_ORDERED.add(list);
	return list;
}

/**
 * Whether every record has a safe-integer Id, in strictly ascending order.
 * @param {any[]} list
 */
function inIdOrder(list) {
	if (ID_ORDERED.has(list)) return true;
	for (let i = 0; i < list.length; i++) {
		const id = list[i].Id;
		if (typeof id !== 'number' || !Number.isSafeInteger(id)) return false;
		if (i > 0 && !(list[i - 1].Id < id)) return false;
	}
	return true;
}

/**
 * Bounds on Id that a filter's top-level `and` terms set (`Id lt 5`, `Id ge 3`, `7 gt Id`, ...);
 * every record that matches the filter lies within them.
 * @param {Expr} tree @returns {{ below?: number, above?: number }} Id < below, Id > above (whole numbers)
 */
function idBounds(tree) {
	/** @type {{ below?: number, above?: number }} */
	const bounds = {};
	/** @param {Expr} e */
	const visit = (e) => {
		if (e.type === 'and') {
			visit(e.left);
			visit(e.right);
			return;
		}
		if (e.type !== 'cmp') return;
		let { op, left, right } = e;
		if (left.kind === 'lit' && right.kind === 'prop') {
			[left, right] = [right, left];
			op = { lt: 'gt', le: 'ge', gt: 'lt', ge: 'le', eq: 'eq', ne: 'ne' }[op] || op;
		}
		if (
			left.kind !== 'prop' ||
			left.name !== 'Id' ||
			right.kind !== 'lit' ||
			right.lit.kind !== 'number'
		)
			return;
		const n = Number(right.lit.value);
		if (!Number.isSafeInteger(n)) return;
		const below = op === 'lt' ? n : op === 'le' || op === 'eq' ? n + 1 : undefined;
		const above = op === 'gt' ? n : op === 'ge' || op === 'eq' ? n - 1 : undefined;
		if (below !== undefined && (bounds.below === undefined || below < bounds.below))
			bounds.below = below;
		if (above !== undefined && (bounds.above === undefined || above > bounds.above))
			bounds.above = above;
	};
	visit(tree);
	return bounds;
}

/**
 * The index range of a list in ascending Id order whose Ids lie within `bounds`.
 * @param {any[]} items @param {{ below?: number, above?: number }} bounds
 */
function idRange(items, bounds) {
	/** First index whose Id is >= n. @param {number} n */
	const lowerBound = (n) => {
		let lo = 0;
		let hi = items.length;
		while (lo < hi) {
			const mid = (lo + hi) >> 1;
			if (items[mid].Id < n) lo = mid + 1;
			else hi = mid;
		}
		return lo;
	};
	return {
		from: bounds.above === undefined ? 0 : lowerBound(bounds.above + 1),
		to: bounds.below === undefined ? items.length : lowerBound(bounds.below),
	};
}

/**
 * `$skip + min($top, 50)` when both are valid (the records a page needs from the ordered list);
 * undefined when they are not (the full sort runs and the usual error follows).
 * @param {(k: string) => any} q
 */
function pageEnd(q) {
	const skip = q('$skip');
	const top = q('$top');
	const valid = (/** @type {any} */ v) =>
		v === undefined || (typeof v === 'string' && /^\d{1,9}$/.test(v.trim()));
	if (!valid(skip) || !valid(top)) return undefined;
	return (
		(skip === undefined ? 0 : Number(skip)) +
		Math.min(top === undefined ? PAGE_CAP : Number(top), PAGE_CAP)
	);
}

/**
 * The first `k` records of `items` in the order of `keys` (stable: ties keep their input order),
 * by a bounded max-heap, O(n log k) instead of sorting all n. A record's keys are read only as far
 * as needed to see that it does not beat the worst one kept.
 * @param {any[]} items @param {number} k
 * @param {Array<{ get: (x: any) => any, dir: number }>} keys @param {(a: any, b: any) => number} compareKey
 * @returns {any[]}
 */
function firstInOrder(items, k, keys, compareKey) {
	if (k <= 0) return [];
	/** @type {Array<{ x: any, v: any[], index: number }>} */
	const heap = [];
	/** @param {{ v: any[], index: number }} a @param {{ v: any[], index: number }} b  a comes after b */
	const worse = (a, b) => {
		for (let n = 0; n < keys.length; n++) {
			const c = compareKey(a.v[n], b.v[n]);
			if (c !== 0) return c * keys[n].dir > 0;
		}
		return a.index > b.index;
	};
	const swap = (/** @type {number} */ i, /** @type {number} */ j) => {
		const t = heap[i];
		heap[i] = heap[j];
		heap[j] = t;
	};
	const down = () => {
		for (let i = 0; ; ) {
			const l = 2 * i + 1;
			const r = l + 1;
			let top = i;
			if (l < heap.length && worse(heap[l], heap[top])) top = l;
			if (r < heap.length && worse(heap[r], heap[top])) top = r;
			if (top === i) return;
			swap(i, top);
			i = top;
		}
	};
	for (let index = 0; index < items.length; index++) {
		const x = items[index];
		if (heap.length < k) {
			heap.push({ x, v: keys.map((key) => key.get(x)), index });
			for (let i = heap.length - 1; i > 0; ) {
				const parent = (i - 1) >> 1;
				if (!worse(heap[i], heap[parent])) break;
				swap(i, parent);
				i = parent;
			}
			continue;
		}
		// Does x come before the worst record kept (the root)? Later records lose ties.
		const root = heap[0];
		/** @type {any[]} */
		const v = [];
		let before = false;
		for (let n = 0; n < keys.length; n++) {
			v.push(keys[n].get(x));
			const c = compareKey(v[n], root.v[n]) * keys[n].dir;
			if (c !== 0) {
				before = c < 0;
				break;
			}
		}
		if (!before) continue;
		for (let n = v.length; n < keys.length; n++) v.push(keys[n].get(x));
		heap[0] = { x, v, index };
		down();
	}
	return heap.sort((a, b) => (worse(a, b) ? 1 : worse(b, a) ? -1 : 0)).map((e) => e.x);
}

/**
 * @param {any[]} items all records the query runs over (already limited to what the caller may see)
 * @param {Record<string, any>} query parsed query string
 * @param {{ context: string, type: string, defaultOrder?: (a: any, b: any) => number, time?: ServiceTime }} opts
 *   `type`: the reference's definition of the records (WorkOrder, Note, ...)
 * @returns {Record<string, any>} OData collection response
 */
function applyODataQuery(items, query, opts) {
	const time = opts.time || UTC;
	const type = opts.type;
	const allowed = new Set(['$top', '$skip', '$filter', '$orderby', '$select', '$count', '$format']);
	for (const key of Object.keys(query)) {
		if (key.startsWith('$') && !allowed.has(key.toLowerCase())) {
			throw new ODataError(
				key.toLowerCase() === '$expand'
					? `$expand is not supported on ${type}: read notes and attachments through their own calls`
					: `The query option '${key}' is not supported by this service`,
			);
		}
	}
	/** @param {string} k */
	const q = (k) => {
		for (const key of Object.keys(query))
			if (key.toLowerCase() === k) {
				const v = query[key];
				return Array.isArray(v) ? v[v.length - 1] : v;
			}
		return undefined;
	};
	const hasId = !!walkPath(type, ['Id']).ok;

	const filter = q('$filter');
	const tree = filter !== undefined ? parseFilter(String(filter), time) : undefined;
	const predicate = tree ? compile(tree, { type, time }) : undefined;
	const countParam = q('$count');
	let withCount = false;
	if (countParam !== undefined) {
		const v = String(countParam).toLowerCase();
		if (v !== 'true' && v !== 'false')
			throw new ODataError(`$count must be true or false, got '${countParam}'`);
		withCount = v === 'true';
	}

	const orderby = q('$orderby');
	/** @type {Array<{ path: string[], get: (x: any) => any, dir: number }> | undefined} */
	let keys;
	if (orderby !== undefined) {
		keys = String(orderby)
			.split(',')
			.map((s) => s.trim())
			.map((s) => {
				const m = /^([A-Za-z_][A-Za-z0-9_]*(?:\/[A-Za-z_][A-Za-z0-9_]*)*)(?:\s+(asc|desc))?$/i.exec(
					s,
				);
				if (!m) throw new ODataError(`$orderby: cannot parse '${s}'; expected "Field [asc|desc]"`);
				const path = m[1].split('/');
				const isDate = isDateSchema(schemaOf(type, path, '$orderby'));
				/** @type {(x: any) => any} */
				const get = isDate
					? dateReader(type, path, time)
					: (/** @type {any} */ x) => getPath(x, path);
				return { path, get, dir: m[2] && m[2].toLowerCase() === 'desc' ? -1 : 1 };
			});
		if (hasId && !keys.some((k) => k.path.length === 1 && k.path[0] === 'Id')) {
			keys.push({ path: ['Id'], get: (x) => x.Id, dir: 1 });
		}
	}

	const needed = pageEnd(q);
	const byIdOnly =
		!!keys && keys.length === 1 && keys[0].path.length === 1 && keys[0].path[0] === 'Id';
	/** @type {any[]} */
	let list;
	let total = 0;
	if (byIdOnly && !withCount && needed !== undefined && inIdOrder(items)) {
		// Keyset paging over a large tenant (`$filter=... and Id lt N&$orderby=Id desc`, no count):
		// the records are already in Id order, so walk them in the asked direction and stop once the
		// page is full, instead of filtering and ordering all of them.
		// A top-level `Id lt N` (le, gt, ge) bounds the walk: found by binary search, not by testing
		// every record before it.
		list = [];
		const dir = /** @type {any[]} */ (keys)[0].dir;
		const { from, to } = idRange(items, tree ? idBounds(tree) : {});
		for (let i = dir > 0 ? from : to - 1; i >= from && i < to && list.length < needed; i += dir) {
			if (!predicate || predicate(items[i])) list.push(items[i]);
		}
	} else {
		list = predicate ? items.filter(predicate) : items.slice();
		total = list.length;
		if (keys) {
			if (byIdOnly && inIdOrder(list)) {
				// Ordered by Id alone and the list already is (the store keeps work orders by Id): no sort.
				if (keys[0].dir < 0) list.reverse();
			} else {
				const k = keys;
				/** @param {any} va @param {any} vb */
				const compareKey = (va, vb) =>
					typeof va === 'string' && typeof vb === 'string'
						? compareStrings(va, vb) || compareValues(va, vb)
						: compareValues(va, vb);
				if (needed !== undefined && needed * 8 < list.length) {
					// Only the first $skip + $top records are returned: on a long list, select them
					// instead of sorting everything.
					list = firstInOrder(list, needed, k, compareKey);
				} else {
					const decorated = list.map((x) => ({ x, v: k.map((key) => key.get(x)) }));
					decorated.sort((a, b) => {
						for (let n = 0; n < k.length; n++) {
							const c = compareKey(a.v[n], b.v[n]);
							if (c !== 0) return c * k[n].dir;
						}
						return 0;
					});
					list = decorated.map((d) => d.x);
				}
			}
		} else if (opts.defaultOrder) {
			list.sort(opts.defaultOrder);
		}
	}

	const skipParam = q('$skip');
	const topParam = q('$top');
	const skip = skipParam === undefined ? 0 : nonNegativeInt('$skip', skipParam);
	const top = topParam === undefined ? PAGE_CAP : nonNegativeInt('$top', topParam);
	list = list.slice(skip, skip + Math.min(top, PAGE_CAP));

	let context = opts.context;
	const select = q('$select');
	if (select !== undefined && String(select).trim() !== '' && String(select).trim() !== '*') {
		const fields = String(select)
			.split(',')
			.map((s) => s.trim());
		const paths = fields.map((f) => {
			if (!/^[A-Za-z_][A-Za-z0-9_]*(?:\/[A-Za-z_][A-Za-z0-9_]*)*$/.test(f))
				throw new ODataError(
					`$select: cannot read '${f}' (a property or a path such as Location/Name)`,
				);
			const path = f.split('/');
			schemaOf(type, path, '$select');
			return path;
		});
		list = list.map((it) => selectPaths(it, paths));
		context = `${context}(${fields.join(',')})`;
	}
	/** @type {Record<string, any>} */
	const out = { '@odata.context': context };
	if (withCount) out['@odata.count'] = total;
	out.value = list;
	return out;
}

/**
 * A record with only the selected paths (`Location/Name` keeps `Location` with `Name` alone).
 * @param {any} record @param {string[][]} paths
 */
function selectPaths(record, paths) {
	/** @type {Record<string, any>} */
	const out = {};
	for (const path of paths) {
		let from = record;
		let to = out;
		for (let i = 0; i < path.length; i++) {
			const key = path[i];
			const value = from === null || from === undefined ? null : from[key];
			if (i === path.length - 1) {
				to[key] = value === undefined ? null : value;
			} else {
				if (value === null || value === undefined) {
					to[key] = null;
					break;
				}
				if (!to[key] || typeof to[key] !== 'object') to[key] = {};
				to = to[key];
				from = value;
			}
		}
	}
	return out;
}

module.exports = {
	applyODataQuery,
	parseFilter,
	compile,
	instantOf,
	dateReader,
	ODataError,
	PAGE_CAP,
	compareValues,
	markIdOrdered,
	FUNCTIONS,
};
