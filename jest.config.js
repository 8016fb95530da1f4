'use strict';
/** @type {import('jest').Config} */
module.exports = {
	testEnvironment: 'node',
	testMatch: ['<rootDir>/test/**/*.test.js'],
	testPathIgnorePatterns: ['/node_modules/', '<rootDir>/test/e2e/', '<rootDir>/dist/'],
	testTimeout: 30000,
	// the contract test: every request any test sends to an emulator is validated against the
	// service's reference (test/contract/README.md); a violation fails the run
	globalSetup: '<rootDir>/test/contract/jest-global-setup.js',
	setupFilesAfterEnv: ['<rootDir>/test/contract/jest-setup.js'],
	reporters: [
		'default',
		'<rootDir>/test/contract/jest-reporter.js',
		'<rootDir>/test/support/summary-reporter.js',
	],
};
