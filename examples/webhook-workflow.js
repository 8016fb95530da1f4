// @ts-check
'use strict';
/**
 * Runs an example workflow that starts with n8n's Webhook node in the demo's harness, the way n8n
 * runs an active one: the workflow is activated (its webhook registered on the harness's HTTP
 * server), the request "another system" sends is POSTed to the production URL, the execution it
 * starts is awaited, then the workflow is deactivated. The result has the shape of
 * `harness.run()`'s (status, error, outputs, executionOrder).
 */

/** Whether a workflow starts with n8n's Webhook node. @param {any} workflow */
function startsWithWebhook(workflow) {
	return workflow.nodes.some((/** @type {any} */ n) => n.type === 'n8n-nodes-base.webhook');
}

/**
 * @param {any} harness @param {any} workflow
 * @param {() => FormData | string} body the request body (fetch sets a FormData's Content-Type)
 */
async function runWebhookWorkflow(harness, workflow, body) {
	const hook = await harness.activateWebhook(workflow);
	if (hook.activation.error)
		return { status: 'error', error: hook.activation.error, outputs: {}, executionOrder: [] };
	try {
		const response = await fetch(hook.url, { method: 'POST', body: body() });
		if (response.status !== 200)
			return {
				status: 'error',
				error: new Error(`the webhook answered ${response.status}: ${await response.text()}`),
				outputs: {},
				executionOrder: [],
			};
		const [execution] = await hook.waitForExecutions(1, 60_000);
		const runData = execution.run?.data.resultData.runData ?? {};
		const executionOrder = Object.keys(runData).sort(
			(a, b) => runData[a][0].startTime - runData[b][0].startTime,
		);
		return {
			status: execution.status,
			error: execution.error,
			outputs: execution.outputs,
			executionOrder,
			url: hook.url,
		};
	} finally {
		await hook.deactivate();
	}
}

module.exports = { startsWithWebhook, runWebhookWorkflow };
