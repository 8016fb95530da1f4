// @ts-check
'use strict';

/**
 * Polling triggers through n8n-core's real poll path (see README.md, "Polling triggers").
 *
 * What n8n does for an active workflow with a polling node, and what this models:
 * - n8n keeps one `Workflow` object per active workflow in memory; its `staticData` is an
 *   ObservableObject that flags `__dataChanged` when a node changes it.
 * - A cron tick calls `PollTriggerExecutor.create(...)(false)`: it runs `poll()` through
 *   `TriggersAndPollers.runPollFunction` inside the PollContext's staging scope. A non-null result
 *   goes to `__emit`, which saves the static data when `__dataChanged` is set
 *   (WorkflowStaticDataService.saveStaticData) and starts an execution with the items; a thrown
 *   error goes to `__emitError`, which records a failed execution. A null result saves nothing
 *   (outside durable-cursor mode): the change stays in memory until the next save.
 * - Activation (`n8n start`, publish/activate) runs one poll at once with `testingTrigger`
 *   true: its error fails the activation; afterwards n8n saves the static data.
 * - "Fetch Test Event" runs the workflow in manual mode: WorkflowExecute calls `poll()` in a
 *   PollContext with mode 'manual'.
 */

const { Container } = require('@n8n/di');
const {
	ExecutionLifecycleHooks,
	PollContext,
	PollTriggerExecutor,
	WorkflowExecute,
} = require('n8n-core');
const { UnexpectedError, Workflow, createRunExecutionData } = require('n8n-workflow');

/** @typedef {import('n8n-workflow').INodeExecutionData} INodeExecutionData */
/** @typedef {import('n8n-workflow').IRun} IRun */

/**
 * @typedef {object} TriggeredExecution what n8n would run for one emit
 * @property {string} status
 * @property {Record<string, INodeExecutionData[]>} outputs first main output of each node's last run
 * @property {Record<string, any> | undefined} error resultData.error
 * @property {IRun} run
 */

/**
 * @typedef {object} PollResult
 * @property {INodeExecutionData[]} items the items of every emit of this poll (first output), in order
 * @property {INodeExecutionData[][][]} emitted what was passed to `__emit`, one entry per emit
 * @property {Error | undefined} error the poll's error: given to `__emitError` (a tick) or thrown (activation, manual)
 * @property {'emitError' | 'thrown' | undefined} errorVia how the error left n8n-core: `__emitError` (n8n records a
 *   failed execution and runs the error workflow) or thrown (the activation fails; manual: the run fails)
 * @property {Record<string, any>} nodeStaticData the node's static data after the poll (in memory), a copy
 * @property {Record<string, any>} staticData the workflow's static data after the poll (in memory), a copy
 * @property {Record<string, any> | undefined} saved the workflow's static data if this poll saved it ("database"), a copy
 * @property {TriggeredExecution[]} executions the executions the emits started (when runWorkflow is on)
 * @property {string[]} logs log lines written during the poll
 */

/** @param {any} value */
function copy(value) {
	return value === undefined ? undefined : JSON.parse(JSON.stringify(value));
}

/** @param {IRun} run */
function outputsOf(run) {
	/** @type {Record<string, INodeExecutionData[]>} */
	const outputs = {};
	for (const [nodeName, tasks] of Object.entries(run.data.resultData.runData)) {
		const last = tasks[tasks.length - 1];
		outputs[nodeName] = /** @type {INodeExecutionData[]} */ (last?.data?.main?.[0] ?? []);
	}
	return outputs;
}

/**
 * @param {{
 *   nodeTypes: any,
 *   credentials: any,
 *   logs: string[],
 *   makeAdditionalData: (o: { hooks: any, executionId: string, workflowId: string }) => any,
 *   run: (workflow: any, options?: any) => Promise<any>,
 * }} deps
 */
function createPollApi({ nodeTypes, credentials, logs, makeAdditionalData, run }) {
	let counter = 0;

	/** @param {any} workflowJson */
	function normalize(workflowJson) {
		const workflowData = copy(workflowJson);
		workflowData.id ??= 'harness-workflow';
		workflowData.name ??= 'Harness workflow';
		workflowData.settings = { executionOrder: 'v1', ...(workflowData.settings ?? {}) };
		return workflowData;
	}

	/** @param {any} workflowData @param {Record<string, any> | undefined} staticData */
	function buildWorkflow(workflowData, staticData) {
		return new Workflow({
			id: workflowData.id,
			name: workflowData.name,
			nodes: copy(workflowData.nodes),
			connections: workflowData.connections,
			active: true,
			nodeTypes,
			staticData: copy(staticData ?? workflowData.staticData ?? {}),
			settings: workflowData.settings,
		});
	}

	/** @param {any} workflow @param {string | undefined} nodeName */
	function pollNodeOf(workflow, nodeName) {
		if (nodeName) {
			const node = workflow.getNode(nodeName);
			if (!node) throw new UnexpectedError(`harness: no node "${nodeName}" in the workflow`);
			return node;
		}
		const [node] = workflow.getPollNodes();
		if (!node) throw new UnexpectedError('harness: the workflow has no polling node');
		return node;
	}

	/**
	 * What n8n's WorkflowExecutionService.runWorkflow starts for an emit: an execution in mode
	 * 'trigger' whose stack holds the poll node with the emitted data.
	 * @param {any} live @param {any} node @param {INodeExecutionData[][]} data
	 * @returns {Promise<TriggeredExecution>}
	 */
	async function runTriggered(live, node, data) {
		const workflow = buildWorkflow(live.workflowData, live.saved);
		const executionId = `harness-exec-${++counter}`;
		const hooks = new ExecutionLifecycleHooks('trigger', executionId, live.workflowData);
		const additionalData = makeAdditionalData({
			hooks,
			executionId,
			workflowId: live.workflowData.id,
		});
		const runExecutionData = createRunExecutionData({
			executionData: {
				nodeExecutionStack: [
					{ node: workflow.getNode(node.name), data: { main: data }, source: null },
				],
			},
		});
		const execute = new WorkflowExecute(additionalData, 'trigger', runExecutionData);
		const fullRun = /** @type {IRun} */ (await execute.processRunExecutionData(workflow));
		return {
			status: fullRun.status,
			outputs: outputsOf(fullRun),
			error: fullRun.data.resultData.error,
			run: fullRun,
		};
	}

	/**
	 * One poll of the live workflow, as a cron tick (`testingTrigger` false) or an activation (true).
	 * @param {any} live @param {{ testingTrigger: boolean, activation: string }} how
	 * @returns {Promise<PollResult>}
	 */
	async function tick(live, { testingTrigger, activation }) {
		const workflow = live.workflow;
		const node = pollNodeOf(workflow, live.nodeName);
		const executionId = `harness-poll-${++counter}`;
		const hooks = new ExecutionLifecycleHooks('trigger', executionId, live.workflowData);
		const additionalData = makeAdditionalData({
			hooks,
			executionId,
			workflowId: live.workflowData.id,
		});
		const logStart = logs.length;
		/** @type {INodeExecutionData[][][]} */
		const emitted = [];
		/** @type {Error[]} */
		const emittedErrors = [];
		let saved = false;
		// WorkflowStaticDataService.saveStaticData
		const save = () => {
			if (workflow.staticData.__dataChanged === true) {
				live.saved = copy(workflow.staticData);
				workflow.staticData.__dataChanged = false;
				saved = true;
			}
		};
		const pollFunctions = new PollContext(
			workflow,
			node,
			additionalData,
			'trigger',
			/** @type {any} */ (activation),
			(/** @type {INodeExecutionData[][]} */ data) => {
				save();
				emitted.push(data);
			},
			(/** @type {Error} */ error) => {
				emittedErrors.push(error);
			},
			undefined, // __commitCursor: n8n-core's default (durable cursors off)
			undefined, // __runPoll: n8n-core's default
			undefined, // static data: the workflow's (n8n-core's default)
			live.pollBudgetMs === undefined ? undefined : () => live.pollBudgetMs,
		);
		const executePoll = Container.get(PollTriggerExecutor).create(
			workflow,
			node,
			pollFunctions,
			() => true,
		);
		/** @type {Error | undefined} */
		let thrown;
		try {
			await executePoll(testingTrigger);
			if (testingTrigger) save();
		} catch (error) {
			thrown = /** @type {Error} */ (error);
		}
		/** @type {TriggeredExecution[]} */
		const executions = [];
		if (live.runWorkflow)
			for (const data of emitted) executions.push(await runTriggered(live, node, data));
		const result = {
			items: emitted.flatMap((data) => data[0] ?? []),
			emitted,
			error: thrown ?? emittedErrors[0],
			errorVia: thrown ? 'thrown' : emittedErrors.length ? 'emitError' : undefined,
			nodeStaticData: copy(workflow.staticData[`node:${node.name}`] ?? {}),
			staticData: copy(workflow.staticData),
			saved: saved ? copy(live.saved) : undefined,
			executions,
			logs: logs.slice(logStart),
		};
		live.polls.push(result);
		return result;
	}

	/**
	 * @typedef {object} TriggerOptions
	 * @property {Record<string, any>} [staticData] the workflow's static data to start from (default: the workflow JSON's)
	 * @property {string} [nodeName] the polling node (default: the workflow's first)
	 * @property {Record<string, { name: string, type: string, data: object }>} [credentials] added to the store first
	 * @property {boolean} [runWorkflow] run the execution n8n starts for each emit (default true)
	 * @property {string} [activation] activation mode of the first poll: 'activate' (default), 'init' (n8n start), 'update'
	 */

	/**
	 * The live state of an active workflow: its credentials added to the store, the workflow built
	 * with the given static data, what n8n saved so far, and the polls run.
	 * @param {any} workflowJson @param {TriggerOptions} options
	 */
	function startLive(workflowJson, options) {
		for (const [id, entry] of Object.entries(options.credentials ?? {})) credentials.set(id, entry);
		const workflowData = normalize(workflowJson);
		return {
			workflowData,
			nodeName: options.nodeName,
			runWorkflow: options.runWorkflow ?? true,
			pollBudgetMs: options.pollBudgetMs,
			workflow: buildWorkflow(workflowData, options.staticData),
			saved: copy(options.staticData ?? workflowData.staticData ?? {}),
			/** @type {PollResult[]} */
			polls: [],
		};
	}

	/**
	 * Activates a workflow the way n8n does: builds the live workflow and runs the activation poll.
	 * `trigger.poll()` then runs a cron tick; `trigger.restart()` rebuilds the workflow from the
	 * saved static data only (as `n8n start` after a restart does) and runs its activation poll.
	 * @param {any} workflowJson @param {TriggerOptions} [options]
	 */
	async function activate(workflowJson, options = {}) {
		/** @type {any} */ (globalThis).__WOS_CONTRACT__?.noteWorkflow(workflowJson);
		const live = startLive(workflowJson, options);
		const activation = await tick(live, {
			testingTrigger: true,
			activation: options.activation ?? 'activate',
		});
		return {
			/** The activation poll. */
			activation,
			/** Every poll so far, activation first. */
			polls: live.polls,
			/** A cron tick. */
			poll: () => tick(live, { testingTrigger: false, activation: 'activate' }),
			/** n8n restarts: the workflow is rebuilt from the saved static data and activated ('init'). */
			restart: async () => {
				live.workflow = buildWorkflow(live.workflowData, live.saved);
				return await tick(live, { testingTrigger: true, activation: 'init' });
			},
			/** The workflow's static data in memory (a copy). */
			get staticData() {
				return copy(live.workflow.staticData);
			},
			/** The node's static data in memory (a copy). */
			get nodeStaticData() {
				return copy(
					live.workflow.staticData[`node:${pollNodeOf(live.workflow, live.nodeName).name}`] ?? {},
				);
			},
			/** The static data as n8n last saved it (a copy). */
			get savedStaticData() {
				return copy(live.saved);
			},
		};
	}

	/**
	 * One poll. mode 'trigger': a cron tick of a workflow activated with `staticData` (or, with
	 * `activation` set, its activation poll). mode 'manual': "Fetch Test Event", i.e. the
	 * workflow run by WorkflowExecute in manual mode from the polling node.
	 * @param {any} workflowJson
	 * @param {TriggerOptions & { mode?: 'trigger' | 'manual', timeoutMs?: number }} [options]
	 * @returns {Promise<PollResult & { result?: any }>}
	 */
	async function poll(workflowJson, options = {}) {
		const mode = options.mode ?? 'trigger';
		if (mode === 'manual') {
			const workflowData = normalize(workflowJson);
			if (options.staticData) workflowData.staticData = copy(options.staticData);
			const probe = buildWorkflow(workflowData, options.staticData);
			const node = pollNodeOf(probe, options.nodeName);
			const logStart = logs.length;
			const result = await run(workflowData, {
				credentials: options.credentials,
				startNode: node.name,
				timeoutMs: options.timeoutMs,
			});
			return {
				items: result.outputs[node.name] ?? [],
				emitted: result.outputs[node.name] ? [[result.outputs[node.name]]] : [],
				error: result.error,
				errorVia: result.error ? 'thrown' : undefined,
				nodeStaticData: copy(options.staticData?.[`node:${node.name}`] ?? {}),
				staticData: copy(options.staticData ?? {}),
				saved: undefined,
				executions: [],
				logs: logs.slice(logStart),
				result,
			};
		}
		const live = startLive(workflowJson, options);
		const activation = options.activation;
		return await tick(live, {
			testingTrigger: activation !== undefined,
			activation: activation ?? 'activate',
		});
	}

	return { poll, activate };
}

module.exports = { createPollApi };
