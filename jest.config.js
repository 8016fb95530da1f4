'use strict';
/** @type {import('jest').Config} */
module.exports = {
	testEnvironment: 'node',
	testMatch: [
		'<rootDir>/test/**/*.test.js'
	],
	testPathIgnorePatterns: [
		'/node_modules/',
		'<rootDir>/test/e2e/',
		'<rootDir>/dist/'
	],
	testTimeout: 30000,
	reporters: [
		'default',
		'<rootDir>/test/support/summary-reporter.js'
	]
};
