'use strict';
/**
 * Runs before every test file (jest `setupFilesAfterEnv`): gives the file a contract collector
 * (`globalThis.__WOS_CONTRACT__`) that every emulator started in it reports its requests to
 * (observe.js), and writes the file's counts at its end. See README.md.
 */
const path = require('node:path');
const { ContractCollector } = require('./collector');

const collector = new ContractCollector({
	testPath: expect.getState().testPath,
	root: path.resolve(__dirname, '..', '..'),
	dir: process.env.WOS_CONTRACT_DIR,
});
globalThis.__WOS_CONTRACT__ = collector;

afterAll(() => {
	collector.ended = true;
	collector.flush();
});
