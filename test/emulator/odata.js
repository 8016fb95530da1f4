// @ts-check
'use strict';

/**
 * The OData query subset the emulator understands:
 *   $top, $skip (non-negative integers; a page never holds more than 50 records),
 *   $filter  `Field eq literal` clauses joined by `and` (Field may be a path such as Status/Primary;
 *            literals: 'text' (with '' escaping), integers of any size, decimals, true, false, null),
 *   $orderby `Field [asc|desc]`, comma-separated,
 *   $select  comma-separated top-level properties,
 *   $count   true | false.
 * Anything else starting with `$` → 400. No @odata.nextLink is ever returned.
 */

const PAGE_CAP = 50;

class ODataError extends Error {}

/**
 * @typedef {{ kind: 'string', value: string } | { kind: 'number', value: number | bigint } | { kind: 'bool', value: boolean } | { kind: 'null' }} Literal
 * @typedef {{ path: string[], literal: Literal }} Clause
 */

/**
 * @param {string} text
 * @returns {Array<{ t: 'ident' | 'string' | 'number' | 'word', v: string }>}
 */
function tokenize(text) {
  const tokens = [];
  let i = 0;
  while (i < text.length) {
    const c = text[i];
    if (c === ' ' || c === '\t') {
      i++;
      continue;
    }
    if (c === "'") {
      let j = i + 1;
      let out = '';
      for (;;) {
        if (j >= text.length) throw new ODataError(`$filter: unterminated string literal starting at position ${i}`);
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
      tokens.push({ t: /** @type {const} */ ('string'), v: out });
      i = j + 1;
      continue;
    }
    const num = /^-?\d+(\.\d+)?([eE][+-]?\d+)?[mMdDfFlL]?/.exec(text.slice(i));
    if (num && (c === '-' || /\d/.test(c))) {
      tokens.push({ t: /** @type {const} */ ('number'), v: num[0].replace(/[mMdDfFlL]$/, '') });
      i += num[0].length;
      continue;
    }
    const id = /^[A-Za-z_][A-Za-z0-9_]*(\/[A-Za-z_][A-Za-z0-9_]*)*/.exec(text.slice(i));
    if (id) {
      tokens.push({ t: /** @type {const} */ ('ident'), v: id[0] });
      i += id[0].length;
      continue;
    }
    throw new ODataError(
      `$filter: unsupported syntax at '${text.slice(i, i + 20)}'. Only "Field eq value" clauses joined by "and" are supported`,
    );
  }
  return tokens;
}

/**
 * @param {string} text
 * @returns {Clause[]}
 */
function parseFilter(text) {
  const tokens = tokenize(text);
  /** @type {Clause[]} */
  const clauses = [];
  let i = 0;
  const unsupported = (/** @type {string} */ what) =>
    new ODataError(`$filter: ${what}. Only "Field eq value" clauses joined by "and" are supported`);
  if (tokens.length === 0) throw unsupported('empty expression');
  for (;;) {
    const field = tokens[i];
    const op = tokens[i + 1];
    const lit = tokens[i + 2];
    if (!field || field.t !== 'ident' || ['true', 'false', 'null'].includes(field.v)) {
      throw unsupported(`expected a property name at token ${i + 1}`);
    }
    if (!op || op.t !== 'ident' || op.v.toLowerCase() !== 'eq') {
      throw unsupported(`operator '${op ? op.v : '(none)'}' is not supported`);
    }
    if (!lit) throw unsupported('missing value after eq');
    /** @type {Literal} */
    let literal;
    if (lit.t === 'string') literal = { kind: 'string', value: lit.v };
    else if (lit.t === 'number') {
      if (/^-?\d+$/.test(lit.v)) {
        const n = Number(lit.v);
        literal = { kind: 'number', value: Number.isSafeInteger(n) ? n : BigInt(lit.v) };
      } else literal = { kind: 'number', value: Number(lit.v) };
    } else if (lit.t === 'ident' && lit.v === 'true') literal = { kind: 'bool', value: true };
    else if (lit.t === 'ident' && lit.v === 'false') literal = { kind: 'bool', value: false };
    else if (lit.t === 'ident' && lit.v === 'null') literal = { kind: 'null' };
    else throw unsupported(`'${lit.v}' is not a literal value (strings need single quotes)`);
    clauses.push({ path: field.v.split('/'), literal });
    i += 3;
    if (i >= tokens.length) break;
    const and = tokens[i];
    if (and.t !== 'ident' || and.v.toLowerCase() !== 'and') throw unsupported(`'${and.v}' is not supported here`);
    i++;
    if (i >= tokens.length) throw unsupported('expression ends after "and"');
  }
  return clauses;
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

/** @param {any} a @param {any} b */
function numericEqual(a, b) {
  if (typeof a === 'bigint' || typeof b === 'bigint') {
    const ia = typeof a === 'bigint' || Number.isInteger(a);
    const ib = typeof b === 'bigint' || Number.isInteger(b);
    if (!ia || !ib) return Number(a) === Number(b);
    return BigInt(a) === BigInt(b);
  }
  return a === b;
}

/** @param {any} v @param {Literal} literal */
function matches(v, literal) {
  switch (literal.kind) {
    case 'null':
      return v === null || v === undefined;
    case 'bool':
      return v === literal.value;
    case 'string':
      return typeof v === 'string' && v.toLowerCase() === literal.value.toLowerCase();
    case 'number':
      return (typeof v === 'number' || typeof v === 'bigint') && numericEqual(v, literal.value);
    default:
      return false;
  }
}

/** @param {any} a @param {any} b @returns {number} */
function compareValues(a, b) {
  const na = a === null || a === undefined;
  const nb = b === null || b === undefined;
  if (na || nb) return na && nb ? 0 : na ? -1 : 1;
  if ((typeof a === 'number' || typeof a === 'bigint') && (typeof b === 'number' || typeof b === 'bigint')) {
    if (typeof a === 'bigint' || typeof b === 'bigint') {
      if (Number.isInteger(Number(a)) && Number.isInteger(Number(b))) {
        const x = BigInt(a);
        const y = BigInt(b);
        return x < y ? -1 : x > y ? 1 : 0;
      }
    }
    return Number(a) < Number(b) ? -1 : Number(a) > Number(b) ? 1 : 0;
  }
  if (typeof a === 'boolean' && typeof b === 'boolean') return a === b ? 0 : a ? 1 : -1;
  const sa = String(a);
  const sb = String(b);
  return sa < sb ? -1 : sa > sb ? 1 : 0;
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

/**
 * @param {any[]} items all records the query runs over (already limited to what the caller may see)
 * @param {Record<string, any>} query parsed query string
 * @param {{ context: string, properties: string[], defaultOrder?: (a: any, b: any) => number }} opts
 * @returns {Record<string, any>} OData collection response
 */
function applyODataQuery(items, query, opts) {
  const allowed = new Set(['$top', '$skip', '$filter', '$orderby', '$select', '$count', '$format']);
  for (const key of Object.keys(query)) {
    if (key.startsWith('$') && !allowed.has(key.toLowerCase())) {
      throw new ODataError(`The query option '${key}' is not supported by this service`);
    }
  }
  /** @param {string} k */
  const q = (k) => {
    for (const key of Object.keys(query)) if (key.toLowerCase() === k) {
      const v = query[key];
      return Array.isArray(v) ? v[v.length - 1] : v;
    }
    return undefined;
  };
  const props = new Set(opts.properties);
  /** @param {string[]} path @param {string} where */
  const checkProp = (path, where) => {
    if (!props.has(path[0])) {
      throw new ODataError(`${where}: could not find a property named '${path[0]}' on this entity type`);
    }
  };

  let list = items.slice();
  const filter = q('$filter');
  if (filter !== undefined) {
    const clauses = parseFilter(String(filter));
    for (const c of clauses) checkProp(c.path, '$filter');
    list = list.filter((it) => clauses.every((c) => matches(getPath(it, c.path), c.literal)));
  }
  const countParam = q('$count');
  let withCount = false;
  if (countParam !== undefined) {
    const v = String(countParam).toLowerCase();
    if (v !== 'true' && v !== 'false') throw new ODataError(`$count must be true or false, got '${countParam}'`);
    withCount = v === 'true';
  }
  const total = list.length;

  const orderby = q('$orderby');
  if (orderby !== undefined) {
    const keys = String(orderby)
      .split(',')
      .map((s) => s.trim())
      .map((s) => {
        const m = /^([A-Za-z_][A-Za-z0-9_]*(?:\/[A-Za-z_][A-Za-z0-9_]*)*)(?:\s+(asc|desc))?$/i.exec(s);
        if (!m) throw new ODataError(`$orderby: cannot parse '${s}'; expected "Field [asc|desc]"`);
        const path = m[1].split('/');
        checkProp(path, '$orderby');
        return { path, dir: m[2] && m[2].toLowerCase() === 'desc' ? -1 : 1 };
      });
    list.sort((a, b) => {
      for (const k of keys) {
        const c = compareValues(getPath(a, k.path), getPath(b, k.path));
        if (c !== 0) return c * k.dir;
      }
      return 0;
    });
  } else if (opts.defaultOrder) {
    list.sort(opts.defaultOrder);
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
    for (const f of fields) {
      if (!/^[A-Za-z_][A-Za-z0-9_]*$/.test(f)) throw new ODataError(`$select: '${f}' is not a top-level property name`);
      checkProp([f], '$select');
    }
    list = list.map((it) => {
      /** @type {Record<string, any>} */
      const o = {};
      for (const f of fields) o[f] = it[f] === undefined ? null : it[f];
      return o;
    });
    context = `${context}(${fields.join(',')})`;
  }
  /** @type {Record<string, any>} */
  const out = { '@odata.context': context };
  if (withCount) out['@odata.count'] = total;
  out.value = list;
  return out;
}

module.exports = { applyODataQuery, parseFilter, ODataError, PAGE_CAP, compareValues };
