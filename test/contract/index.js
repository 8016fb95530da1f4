'use strict';
/**
 * For tests: mark what a test sends invalid on purpose, so that the contract test (README.md) does
 * not count it.
 *   - a request the test sends itself: the header `x-contract-deliberate: <why>`
 *     (`deliberateHeader(why)`);
 *   - requests the node sends during a run (a refusal tested through the node):
 *     `await deliberately('why', () => env.run(...))`.
 */
const { DELIBERATE_HEADER } = require('./observe');

/** @param {string} why @returns {Record<string, string>} */
function deliberateHeader(why) {
	return { [DELIBERATE_HEADER]: why };
}

/**
 * @template T @param {string} why @param {() => Promise<T>} fn @returns {Promise<T>}
 */
async function deliberately(why, fn) {
	const collector = globalThis.__WOS_CONTRACT__;
	return collector ? await collector.deliberately(why, fn) : await fn();
}

module.exports = { deliberateHeader, deliberately, DELIBERATE_HEADER };
