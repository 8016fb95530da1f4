// @ts-check
'use strict';

/**
 * The emulator calls `observe(entry)` for every request it logged (once it was answered, dropped
 * or refused). Inside `npm test` (jest) the collector of the running test file (jest-setup.js,
 * `globalThis.__WOS_CONTRACT__`) validates it against the reference; out of jest, with
 * `WOS_CONTRACT_LOG=<file>` set (the e2e runs), each request's operation and violations are
 * appended to that file as one JSON line. Otherwise nothing happens.
 */

const fs = require('node:fs');
const { validateRequest, validateAnswer } = require('./validate');

/** The header a test sets on a request it sends invalid on purpose (the value says why). */
const DELIBERATE_HEADER = 'x-contract-deliberate';

/** @param {any} entry */
function isDeliberate(entry) {
	return entry.headers && entry.headers[DELIBERATE_HEADER] !== undefined;
}

/**
 * Validates one logged request: its operation (null when no operation matches), its violations and
 * the emulator's answer's (`answer: true` to check the answer too).
 * @param {any} entry @param {{ answer: boolean }} o
 */
function check(entry, o) {
	const result = validateRequest(entry);
	if (!result) return null;
	const answer = o.answer && result.operation ? validateAnswer(entry, result.operation) : [];
	return {
		operation: result.operation ? result.operation.id : null,
		source: result.operation ? result.operation.source : null,
		violations: result.violations,
		answer,
	};
}

/** @param {any} entry */
function observe(entry) {
	const collector = /** @type {any} */ (globalThis).__WOS_CONTRACT__;
	if (collector) {
		collector.record(entry);
		return;
	}
	const file = process.env.WOS_CONTRACT_LOG;
	if (!file) return;
	const result = check(entry, { answer: true });
	if (!result) return;
	const line = {
		method: entry.method,
		path: entry.rawPath,
		status: entry.status,
		operation: result.operation,
		deliberate: isDeliberate(entry),
		violations: result.violations,
		answer: result.answer,
	};
	try {
		fs.appendFileSync(file, `${JSON.stringify(line)}\n`);
	} catch {
		/* the log is best effort */
	}
}

module.exports = { observe, check, isDeliberate, DELIBERATE_HEADER };
