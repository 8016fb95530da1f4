'use strict';
/**
 * What the example-workflow suites (proposal-workflows.js, invoice-workflows.js) share: the examples
 * as they activate them, and waiting for the executions n8n recorded.
 */
const fs = require('node:fs');
const path = require('node:path');
const n8n = require('./n8n');
const { waitFor } = require('../trigger/e2e-trigger');

const EXAMPLES = path.resolve(__dirname, '..', '..', 'examples');

/** An example workflow (examples/<file>) with every execution saved, as the suites read them back. */
function savedExample(file) {
	const workflow = JSON.parse(fs.readFileSync(path.join(EXAMPLES, file), 'utf8'));
	workflow.settings = {
		...workflow.settings,
		saveDataSuccessExecution: 'all',
		saveDataErrorExecution: 'all',
		saveManualExecutions: true,
	};
	return workflow;
}

/** Finished executions of a workflow (data written), at least `count`. */
function finished(instance, workflowId, count, timeoutMs = 90_000) {
	return waitFor(
		`${count} finished execution(s) of ${workflowId}`,
		async () => {
			const list = (await n8n.recordedExecutions(instance, workflowId)).filter(
				(e) => e.status !== 'running' && e.status !== 'new' && Object.keys(e.runData).length > 0,
			);
			return list.length >= count ? list : false;
		},
		timeoutMs,
	);
}

module.exports = { savedExample, finished, output: n8n.runOutput };
