'use strict';
/**
 * Prints one plain closing line after jest's own summary, e.g. `jest: 212 passed, 0 failed, 1 skipped`,
 * so that CI logs can be read without knowing jest's format.
 */
class SummaryReporter {
	onRunComplete(_contexts, results) {
		const skipped = results.numPendingTests + results.numTodoTests;
		const failed = results.numFailedTests + results.numRuntimeErrorTestSuites;
		process.stdout.write(
			`\njest: ${results.numPassedTests} passed, ${failed} failed${skipped ? `, ${skipped} skipped` : ''}\n`,
		);
	}
}
module.exports = SummaryReporter;
