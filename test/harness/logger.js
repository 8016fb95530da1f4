// @ts-check
'use strict';

/**
 * A capturing stand-in for n8n's DI `Logger` (`@n8n/backend-common`), which is
 * what n8n-core 2.41 resolves with `Container.get(Logger)` for `this.logger` in
 * node execution contexts, the nodes loader and the ErrorReporter. The same
 * object is also installed as n8n-workflow's `LoggerProxy` (used by
 * WorkflowExecute itself).
 *
 * Every line (level, message and metadata, stringified deeply) is pushed to
 * every registered sink (one per live harness), so a test can audit the logs
 * for leaked secrets.
 */

const { EventEmitter } = require('node:events');

/** @typedef {{ level: string, message: string, meta: unknown, line: string }} LogEntry */

/**
 * Deep, cycle-safe stringification for log metadata. Errors are expanded
 * (name, message, stack, own properties, cause) and emitters/sockets are
 * reduced to their class name (keeping a ClientRequest's raw `_header`, which
 * is where an Authorization header would hide).
 * @param {unknown} value
 * @returns {string}
 */
function stringifyForAudit(value) {
	const seen = new WeakSet();
	/** @param {unknown} v @param {number} depth @returns {unknown} */
	const walk = (v, depth) => {
		if (v === null || v === undefined) return v;
		const t = typeof v;
		if (t === 'string' || t === 'number' || t === 'boolean') return v;
		if (t === 'bigint') return String(v);
		if (t === 'symbol') return String(v);
		if (t === 'function') return `[Function ${/** @type {Function} */ (v).name || 'anonymous'}]`;
		const o = /** @type {Record<string, unknown>} */ (v);
		if (seen.has(o)) return '[Circular]';
		if (depth > 12) return '[MaxDepth]';
		seen.add(o);
		try {
			if (Buffer.isBuffer(o))
				return `[Buffer ${o.length} bytes: ${o.subarray(0, 256).toString('latin1')}]`;
			if (o instanceof Error || (typeof o.message === 'string' && typeof o.stack === 'string')) {
				/** @type {Record<string, unknown>} */
				const out = { name: o.name, message: o.message, stack: o.stack };
				for (const key of Object.getOwnPropertyNames(o)) {
					if (key in out) continue;
					out[key] = walk(o[key], depth + 1);
				}
				if ('cause' in o && !('cause' in out)) out.cause = walk(o.cause, depth + 1);
				return out;
			}
			if (o instanceof EventEmitter) {
				const name = o.constructor?.name ?? 'EventEmitter';
				return typeof o._header === 'string'
					? { [`[${name}]`]: { _header: o._header } }
					: `[${name}]`;
			}
			if (o instanceof Date) return o.toISOString();
			if (o instanceof Map) return walk(Object.fromEntries(o), depth + 1);
			if (o instanceof Set) return walk([...o], depth + 1);
			if (ArrayBuffer.isView(o)) return `[${o.constructor.name} ${o.byteLength} bytes]`;
			if (Array.isArray(o)) return o.map((x) => walk(x, depth + 1));
			/** @type {Record<string, unknown>} */
			const out = {};
			for (const key of Object.keys(o)) out[key] = walk(o[key], depth + 1);
			return out;
		} finally {
			seen.delete(o);
		}
	};
	try {
		return JSON.stringify(walk(value, 0)) ?? '';
	} catch (error) {
		return `[unserializable: ${/** @type {Error} */ (error).message}]`;
	}
}

class CapturingLogger {
	constructor() {
		/** @type {Set<(entry: LogEntry) => void>} */
		this.sinks = new Set();
		/** Echo to stderr when HARNESS_LOG=1 (debugging aid). */
		this.echo = process.env.HARNESS_LOG === '1';
	}

	/** @param {string} level @param {unknown} message @param {unknown} [meta] */
	log(level, message, meta) {
		const msg = typeof message === 'string' ? message : stringifyForAudit(message);
		const line = `${level}: ${msg}${meta === undefined ? '' : ' ' + stringifyForAudit(meta)}`;
		const entry = { level, message: msg, meta, line };
		for (const sink of this.sinks) sink(entry);
		if (this.echo) process.stderr.write(line + '\n');
	}

	/** @param {string} message @param {unknown} [meta] */
	error(message, meta) {
		this.log('error', message, meta);
	}
	/** @param {string} message @param {unknown} [meta] */
	warn(message, meta) {
		this.log('warn', message, meta);
	}
	/** @param {string} message @param {unknown} [meta] */
	info(message, meta) {
		this.log('info', message, meta);
	}
	/** @param {string} message @param {unknown} [meta] */
	debug(message, meta) {
		this.log('debug', message, meta);
	}
	/** n8n's Logger.scoped() returns a scoped child; one capturing logger is enough. */
	scoped() {
		return this;
	}
	getInternalLogger() {
		return this;
	}
}

module.exports = { CapturingLogger, stringifyForAudit };
