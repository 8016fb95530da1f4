'use strict';
/**
 * Jest `globalSetup`: a fresh directory for the contract results of this run, passed to the test
 * workers as WOS_CONTRACT_DIR (they inherit the environment). The reporter reads it at the end.
 */
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');

module.exports = async function globalSetup() {
	const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'wos-contract-'));
	process.env.WOS_CONTRACT_DIR = dir;
};
