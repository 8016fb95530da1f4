// @ts-check
'use strict';

/**
 * Webhook triggers through n8n-core's real contexts (see README.md, "Webhook triggers").
 *
 * What n8n does, and what this models:
 * - Activation (WebhookTriggerRegistrar.register in 2.41, ActiveWorkflowManager.addWebhooks in
 *   1.x): for each webhook of the node (WebhookService.getNodeWebhooks) n8n stores its row, then
 *   `createWebhookIfNotExists`: `checkExists` and, when that is false, `create`, each called on a
 *   `HookContext(workflow, node, additionalData, 'trigger', activation, webhookData)`; then it
 *   saves the static data. A failure removes the registration again (`delete`, 2.41's
 *   clearRegisteredWebhook) and fails the activation (2.41 retries it up to 5 times).
 * - A request (WebhookRequestHandler → WebhookHelpers.executeWebhook): the raw body is read
 *   (`req.rawBody`, a Buffer) and JSON parsed into `req.body`; `webhook()` runs on a
 *   `WebhookContext(workflow, node, additionalData, mode, webhookData, closeFunctions, null)` with
 *   `additionalData.httpRequest`/`httpResponse`. It throws: 500 and an error execution. It
 *   returns `noWebhookResponse`: n8n sends nothing (the node answered). No `workflowData`:
 *   200 `{ message: 'Webhook call received' }`, no execution. `workflowData` with responseMode
 *   onReceived: 200 `{ message: 'Workflow was started' }` at once, then the execution
 *   (WorkflowExecute, mode 'webhook', the node with the data on the stack).
 * - Deactivation: `delete` on a HookContext with mode 'internal', activation 'update'; then the
 *   static data is saved.
 * - A restart keeps n8n's webhook rows: nothing of the node runs (checkExists is called only on
 *   a first activation or when n8n lost its registration: `restart({ lostRegistration: true })`).
 * - "Listen for test event" (TestWebhooks): the workflow with empty static data, the webhook at the
 *   /webhook-test/ URL, `checkExists`/`create` with mode and activation 'manual'; the first
 *   request runs the workflow in manual mode and then the registration is deleted ('internal',
 *   'update', with the static data kept from the registration); so is it after the timeout
 *   (2 minutes in n8n).
 *
 * Requests arrive over real HTTP: one server per harness on 127.0.0.1 serves /webhook/... and
 * /webhook-test/..., and the webhook base URLs given to n8n-core point at it.
 */

const http = require('node:http');
const {
	ExecutionLifecycleHooks,
	HookContext,
	WebhookContext,
	WorkflowExecute,
} = require('n8n-core');
const {
	NodeHelpers,
	UnexpectedError,
	Workflow,
	createRunExecutionData,
	jsonParse,
} = require('n8n-workflow');

/** @typedef {import('n8n-workflow').INodeExecutionData} INodeExecutionData */
/** @typedef {import('n8n-workflow').IRun} IRun */

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

const sleep = (/** @type {number} */ ms) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * @typedef {object} Delivery one request the harness's n8n answered
 * @property {string} url
 * @property {number} status
 * @property {string} responseBody
 * @property {boolean} executionStarted
 * @property {number} ms time until the answer was sent
 * @property {Error | undefined} error what webhook() threw
 * @property {Record<string, any>} headers request headers
 * @property {string} body request body (text)
 *
 * @typedef {object} WebhookExecution what n8n ran for a request
 * @property {string} mode 'webhook' | 'manual'
 * @property {string} status
 * @property {Record<string, INodeExecutionData[]>} outputs
 * @property {INodeExecutionData[]} items the trigger's items
 * @property {Record<string, any> | undefined} error
 * @property {IRun | undefined} run
 */

/**
 * @param {{
 *   nodeTypes: any,
 *   credentials: any,
 *   logs: string[],
 *   makeAdditionalData: (o: { hooks: any, executionId: string, workflowId: string }) => any,
 * }} deps
 */
function createWebhookApi({ nodeTypes, credentials, logs, makeAdditionalData }) {
	let counter = 0;
	/** @type {http.Server | null} */
	let server = null;
	let origin = '';
	/** @type {Map<string, any>} `${kind} ${method} ${path}` → registration */
	const routes = new Map();
	/** @type {Set<import('node:net').Socket>} */
	const sockets = new Set();

	async function ensureServer() {
		if (server) return;
		const created = http.createServer((req, res) => {
			handle(req, res).catch((error) => {
				if (!res.headersSent) {
					res.writeHead(500, { 'content-type': 'application/json' });
					res.end(JSON.stringify({ message: `harness error: ${error && error.message}` }));
				}
			});
		});
		created.on('connection', (socket) => {
			sockets.add(socket);
			socket.on('close', () => sockets.delete(socket));
		});
		await new Promise((resolve) => created.listen(0, '127.0.0.1', () => resolve(undefined)));
		const address = /** @type {import('node:net').AddressInfo} */ (created.address());
		origin = `http://127.0.0.1:${address.port}`;
		server = created;
	}

	/** @param {any} workflowJson */
	function normalize(workflowJson) {
		const workflowData = copy(workflowJson);
		workflowData.id ??= 'harness-workflow';
		workflowData.name ??= 'Harness workflow';
		workflowData.settings = { executionOrder: 'v1', ...(workflowData.settings ?? {}) };
		return workflowData;
	}

	/** @param {any} workflowData @param {Record<string, any> | undefined} staticData @param {boolean} active */
	function buildWorkflow(workflowData, staticData, active = true) {
		return new Workflow({
			id: workflowData.id,
			name: workflowData.name,
			nodes: copy(workflowData.nodes),
			connections: workflowData.connections,
			active,
			nodeTypes,
			staticData: copy(staticData ?? {}),
			settings: workflowData.settings,
		});
	}

	/** additionalData as n8n's getBase builds it, with the webhook base URLs on the harness server. */
	function additionalDataFor(/** @type {any} */ workflowData, /** @type {string} */ mode) {
		const executionId = `harness-hook-${++counter}`;
		const hooks = new ExecutionLifecycleHooks(/** @type {any} */ (mode), executionId, workflowData);
		const data = makeAdditionalData({ hooks, executionId, workflowId: workflowData.id });
		data.webhookBaseUrl = `${origin}/webhook`;
		data.webhookTestBaseUrl = `${origin}/webhook-test`;
		data.webhookWaitingBaseUrl = `${origin}/webhook-waiting`;
		return data;
	}

	/** @param {any} workflow @param {any} node @param {any} description @param {string} property @param {any} [fallback] */
	function evaluate(workflow, node, description, property, fallback) {
		const value = description[property];
		if (value === undefined) return fallback;
		return workflow.expression.getSimpleParameterValue(
			node,
			value,
			'internal',
			{},
			undefined,
			fallback,
		);
	}

	/** WebhookService.getNodeWebhooks: the webhooks of one node. @param {any} workflow @param {any} node @param {any} additionalData */
	function nodeWebhooks(workflow, node, additionalData) {
		const nodeType = nodeTypes.getByNameAndVersion(node.type, node.typeVersion);
		const descriptions = nodeType.description.webhooks ?? [];
		return descriptions
			.filter((/** @type {any} */ d) => d.restartWebhook !== true)
			.map((/** @type {any} */ description) => {
				let path = String(evaluate(workflow, node, description, 'path'))
					.trim()
					.replace(/^\/+|\/+$/g, '');
				const isFullPath = evaluate(workflow, node, description, 'isFullPath', false);
				path = NodeHelpers.getNodeWebhookPath(workflow.id, node, path, isFullPath, false);
				return {
					httpMethod: String(evaluate(workflow, node, description, 'httpMethod', 'GET')),
					node: node.name,
					path,
					webhookDescription: description,
					workflowId: workflow.id,
					workflowExecuteAdditionalData: additionalData,
					webhookId: path.includes(':') ? node.webhookId : undefined,
				};
			});
	}

	/** @param {any} workflow @param {string | undefined} nodeName */
	function webhookNode(workflow, nodeName) {
		if (nodeName) {
			const node = workflow.getNode(nodeName);
			if (!node) throw new UnexpectedError(`harness: no node "${nodeName}" in the workflow`);
			return node;
		}
		for (const node of Object.values(workflow.nodes)) {
			const type = nodeTypes.getByNameAndVersion(
				/** @type {any} */ (node).type,
				/** @type {any} */ (node).typeVersion,
			);
			if (type.description.webhooks?.length) return node;
		}
		throw new UnexpectedError('harness: the workflow has no webhook node');
	}

	/**
	 * WebhookService.runWebhookMethod on a HookContext.
	 * @param {'checkExists' | 'create' | 'delete'} method @param {any} workflow @param {any} webhookData @param {string} mode @param {string} activation
	 */
	async function runMethod(method, workflow, webhookData, mode, activation) {
		const node = workflow.getNode(webhookData.node);
		const nodeType = nodeTypes.getByNameAndVersion(node.type, node.typeVersion);
		const fn = nodeType.webhookMethods?.[webhookData.webhookDescription.name]?.[method];
		if (fn === undefined) return undefined;
		const context = new HookContext(
			workflow,
			node,
			webhookData.workflowExecuteAdditionalData,
			/** @type {any} */ (mode),
			/** @type {any} */ (activation),
			webhookData,
		);
		return await fn.call(context);
	}

	/** createWebhookIfNotExists: what it called and what it returned. */
	async function createIfNotExists(
		/** @type {any} */ workflow,
		/** @type {any} */ webhookData,
		/** @type {string} */ mode,
		/** @type {string} */ activation,
		/** @type {any[]} */ calls,
	) {
		const exists = await runMethod('checkExists', workflow, webhookData, mode, activation);
		calls.push({ method: 'checkExists', result: exists });
		if (!exists)
			calls.push({
				method: 'create',
				result: await runMethod('create', workflow, webhookData, mode, activation),
			});
	}

	/** WorkflowStaticDataService.saveStaticData. @param {any} live */
	function save(live) {
		if (live.workflow.staticData.__dataChanged === true) {
			live.saved = copy(live.workflow.staticData);
			live.workflow.staticData.__dataChanged = false;
			return true;
		}
		return false;
	}

	/**
	 * What n8n starts for a webhook's workflowData: an execution whose stack holds the node with the data.
	 * @param {any} reg @param {INodeExecutionData[][]} data
	 * @returns {Promise<WebhookExecution>}
	 */
	async function runExecution(reg, data) {
		const live = reg.live;
		const mode = reg.kind === 'test' ? 'manual' : 'webhook';
		const workflow = buildWorkflow(
			live.workflowData,
			reg.kind === 'test' ? live.workflow.staticData : live.saved,
			reg.kind !== 'test',
		);
		const executionId = `harness-exec-${++counter}`;
		const hooks = new ExecutionLifecycleHooks(
			/** @type {any} */ (mode),
			executionId,
			live.workflowData,
		);
		const additionalData = makeAdditionalData({
			hooks,
			executionId,
			workflowId: live.workflowData.id,
		});
		const runExecutionData = createRunExecutionData({
			executionData: {
				nodeExecutionStack: [
					{ node: workflow.getNode(reg.webhookData.node), data: { main: data }, source: null },
				],
			},
		});
		const execute = new WorkflowExecute(
			additionalData,
			/** @type {any} */ (mode),
			runExecutionData,
		);
		const fullRun = /** @type {IRun} */ (await execute.processRunExecutionData(workflow));
		const outputs = outputsOf(fullRun);
		return {
			mode,
			status: fullRun.status,
			outputs,
			items: outputs[reg.webhookData.node] ?? [],
			error: fullRun.data.resultData.error,
			run: fullRun,
		};
	}

	/** @param {http.IncomingMessage} req */
	function readBody(req) {
		return new Promise((resolve, reject) => {
			/** @type {Buffer[]} */
			const chunks = [];
			req.on('data', (c) => chunks.push(c));
			req.on('end', () => resolve(Buffer.concat(chunks)));
			req.on('error', reject);
		});
	}

	/**
	 * One request: WebhookRequestHandler + executeWebhook (responseMode onReceived).
	 * @param {http.IncomingMessage} req @param {http.ServerResponse} res
	 */
	async function handle(req, res) {
		const started = Date.now();
		const url = new URL(req.url || '/', origin);
		const match = /^\/(webhook|webhook-test)\/(.+?)\/?$/.exec(url.pathname);
		const reg = match
			? routes.get(
					`${match[1] === 'webhook' ? 'production' : 'test'} ${req.method} ${decodeURIComponent(match[2])}`,
				)
			: undefined;
		const rawBody = await readBody(req);
		if (!reg) {
			res.writeHead(404, { 'content-type': 'application/json' });
			res.end(
				JSON.stringify({
					code: 404,
					message: `The requested webhook "${req.method} ${url.pathname}" is not registered.`,
				}),
			);
			return;
		}
		/** @type {Delivery} */
		const delivery = {
			url: url.toString(),
			status: 0,
			responseBody: '',
			executionStarted: false,
			ms: 0,
			error: undefined,
			headers: { ...req.headers },
			body: rawBody.toString('utf8'),
		};
		reg.live.deliveries.push(delivery);
		// capture what is answered (by n8n or by the node itself)
		const chunks = /** @type {Buffer[]} */ ([]);
		const end = res.end.bind(res);
		/** @type {any} */ (res).end = (/** @type {any} */ chunk, /** @type {any[]} */ ...rest) => {
			if (chunk) chunks.push(Buffer.isBuffer(chunk) ? chunk : Buffer.from(String(chunk)));
			delivery.status = res.statusCode;
			delivery.responseBody = Buffer.concat(chunks).toString('utf8');
			delivery.ms = Date.now() - started;
			return end(chunk, ...rest);
		};
		const request = /** @type {any} */ (req);
		request.rawBody = rawBody;
		request.contentType = String(req.headers['content-type'] ?? '')
			.split(';')[0]
			.trim()
			.toLowerCase();
		request.params = {};
		request.query = Object.fromEntries(url.searchParams);
		request.body = {};
		if (rawBody.length && /json/.test(request.contentType)) {
			try {
				request.body = jsonParse(rawBody.toString('utf8'));
			} catch {
				res.writeHead(400, { 'content-type': 'application/json' });
				res.end(JSON.stringify({ message: 'Failed to parse request body' }));
				return;
			}
		}
		const live = reg.live;
		const mode = reg.kind === 'test' ? 'manual' : 'webhook';
		// production: the workflow as n8n loads it per request (saved static data); test: the registration's
		const workflow =
			reg.kind === 'test' ? live.workflow : buildWorkflow(live.workflowData, live.saved);
		const node = workflow.getNode(reg.webhookData.node);
		const additionalData = additionalDataFor(live.workflowData, mode);
		additionalData.httpRequest = request;
		additionalData.httpResponse = res;
		const nodeType = nodeTypes.getByNameAndVersion(node.type, node.typeVersion);
		/** @type {Array<() => Promise<void>>} */
		const closeFunctions = [];
		const context = new WebhookContext(
			workflow,
			node,
			additionalData,
			/** @type {any} */ (mode),
			reg.webhookData,
			/** @type {any} */ (closeFunctions),
			null,
		);
		/** @type {any} */
		let result;
		try {
			result = await nodeType.webhook.call(context);
		} catch (error) {
			delivery.error = /** @type {Error} */ (error);
			if (!res.headersSent) {
				res.writeHead(500, { 'content-type': 'application/json' });
				res.end(
					JSON.stringify({
						code: 0,
						message: 'Workflow Webhook Error: Workflow could not be started!',
					}),
				);
			}
			live.executions.push({
				mode,
				status: 'error',
				outputs: {},
				items: [],
				error: { message: /** @type {Error} */ (error).message },
				run: undefined,
			});
			return;
		} finally {
			await Promise.allSettled(closeFunctions.map(async (fn) => await fn()));
		}
		if (result?.noWebhookResponse === true) {
			if (!res.headersSent) res.end();
			await reg.afterRequest?.();
			return;
		}
		if (result?.workflowData === undefined) {
			res.writeHead(200, { 'content-type': 'application/json; charset=utf-8' });
			res.end(
				JSON.stringify(
					result?.webhookResponse !== undefined
						? result.webhookResponse
						: { message: 'Webhook call received' },
				),
			);
			await reg.afterRequest?.();
			return;
		}
		res.writeHead(200, { 'content-type': 'application/json; charset=utf-8' });
		res.end(JSON.stringify({ message: 'Workflow was started' }));
		delivery.executionStarted = true;
		if (live.runWorkflow) {
			const execution = await runExecution(reg, result.workflowData);
			live.executions.push(execution);
		} else {
			live.executions.push({
				mode,
				status: 'not run',
				outputs: {},
				items: result.workflowData[0] ?? [],
				error: undefined,
				run: undefined,
			});
		}
		await reg.afterRequest?.();
	}

	/**
	 * Registers the node's webhooks (checkExists / create), as an activation does.
	 * @param {any} live @param {'production' | 'test'} kind @param {string} activation
	 */
	async function register(live, kind, activation) {
		await ensureServer();
		const mode = kind === 'test' ? 'manual' : 'trigger';
		const additionalData = additionalDataFor(live.workflowData, mode);
		const node = webhookNode(live.workflow, live.nodeName);
		const webhooks = nodeWebhooks(live.workflow, node, additionalData);
		const logStart = logs.length;
		/** @type {any[]} */
		const calls = [];
		/** @type {Error | undefined} */
		let error;
		for (const webhookData of webhooks) {
			if (kind === 'test') webhookData.isTest = true;
			const key = `${kind} ${webhookData.httpMethod} ${webhookData.path}`;
			const reg = {
				kind,
				live,
				webhookData,
				key,
				afterRequest: /** @type {undefined | (() => Promise<void>)} */ (undefined),
			};
			routes.set(key, reg);
			live.registrations.push(reg);
			for (let attempt = 1; attempt <= live.attempts; attempt++) {
				try {
					await createIfNotExists(live.workflow, webhookData, mode, activation, calls);
					error = undefined;
					break;
				} catch (e) {
					error = /** @type {Error} */ (e);
					calls.push({ method: 'failed', error });
					// 2.41 clearRegisteredWebhook: the node's delete, then the static data is saved
					try {
						calls.push({
							method: 'delete',
							result: await runMethod('delete', live.workflow, webhookData, 'internal', 'update'),
						});
					} catch (deleteError) {
						calls.push({ method: 'delete', error: deleteError });
					}
					if (kind === 'production') save(live);
				}
			}
			if (error) {
				routes.delete(key);
				live.registrations.splice(live.registrations.indexOf(reg), 1);
				break;
			}
		}
		const saved = kind === 'production' ? save(live) : false;
		return {
			error,
			calls,
			saved: saved ? copy(live.saved) : undefined,
			nodeStaticData: copy(live.workflow.staticData[`node:${node.name}`] ?? {}),
			logs: logs.slice(logStart),
		};
	}

	/** Deletes the registrations of a live workflow (deactivation / end of a test listen). @param {any} live */
	async function unregister(live) {
		const logStart = logs.length;
		/** @type {any[]} */
		const calls = [];
		for (const reg of [...live.registrations]) {
			routes.delete(reg.key);
			live.registrations.splice(live.registrations.indexOf(reg), 1);
			try {
				calls.push({
					method: 'delete',
					result: await runMethod('delete', live.workflow, reg.webhookData, 'internal', 'update'),
				});
			} catch (error) {
				calls.push({ method: 'delete', error });
			}
		}
		const saved = live.kind === 'production' ? save(live) : false;
		return { calls, saved: saved ? copy(live.saved) : undefined, logs: logs.slice(logStart) };
	}

	/**
	 * @typedef {object} WebhookOptions
	 * @property {Record<string, any>} [staticData] the workflow's saved static data to start from
	 * @property {string} [nodeName] the webhook node (default: the first one)
	 * @property {Record<string, { name: string, type: string, data: object }>} [credentials] added to the store first
	 * @property {boolean} [runWorkflow] run the executions n8n starts (default true)
	 * @property {string} [activation] 'activate' (default), 'init', 'update'
	 * @property {number} [attempts] how many times a failing activation is tried (2.41: 5; default 1)
	 */

	/** @param {any} workflowJson @param {WebhookOptions} options @param {'production' | 'test'} kind */
	function startLive(workflowJson, options, kind) {
		for (const [id, entry] of Object.entries(options.credentials ?? {})) credentials.set(id, entry);
		const workflowData = normalize(workflowJson);
		const saved = copy(options.staticData ?? workflowData.staticData ?? {});
		return {
			kind,
			workflowData,
			nodeName: options.nodeName,
			runWorkflow: options.runWorkflow ?? true,
			attempts: options.attempts ?? 1,
			// a test listen starts from empty static data (TestWebhooks.toWorkflow)
			workflow: buildWorkflow(workflowData, kind === 'test' ? {} : saved, kind !== 'test'),
			saved,
			/** @type {any[]} */
			registrations: [],
			/** @type {Delivery[]} */
			deliveries: [],
			/** @type {WebhookExecution[]} */
			executions: [],
		};
	}

	/** @param {any} live @param {number} count @param {number} timeoutMs */
	async function waitForExecutions(live, count, timeoutMs) {
		const until = Date.now() + timeoutMs;
		while (live.executions.length < count) {
			if (Date.now() > until)
				throw new Error(
					`harness: ${live.executions.length} of ${count} executions after ${timeoutMs} ms`,
				);
			await sleep(20);
		}
		return live.executions.slice(0, count);
	}

	/**
	 * Activates a workflow with a webhook trigger as n8n does; `hook.deactivate()`, `hook.restart()`.
	 * @param {any} workflowJson @param {WebhookOptions} [options]
	 */
	async function activateWebhook(workflowJson, options = {}) {
		/** @type {any} */ (globalThis).__WOS_CONTRACT__?.noteWorkflow(workflowJson);
		const live = startLive(workflowJson, options, 'production');
		await ensureServer();
		const activation = await register(live, 'production', options.activation ?? 'activate');
		const node = webhookNode(live.workflow, live.nodeName);
		return {
			activation,
			/** The production URL n8n gave the node. */
			get url() {
				const reg = live.registrations[0];
				return reg ? `${origin}/webhook/${reg.webhookData.path}` : undefined;
			},
			/** Every request answered, in order. */
			deliveries: live.deliveries,
			/** Every execution started, in order. */
			executions: live.executions,
			/** Waits until `count` executions have run. */
			waitForExecutions: (/** @type {number} */ count, timeoutMs = 10_000) =>
				waitForExecutions(live, count, timeoutMs),
			/** Deactivation: the node's delete, then the static data is saved. */
			deactivate: () => unregister(live),
			/**
			 * n8n restarts: the workflow is rebuilt from the saved static data. n8n keeps its webhook rows,
			 * so the node is not called, unless `lostRegistration` (checkExists / create with 'init').
			 * @param {{ lostRegistration?: boolean }} [o]
			 */
			restart: async (o = {}) => {
				for (const reg of live.registrations) routes.delete(reg.key);
				live.registrations.length = 0;
				live.workflow = buildWorkflow(live.workflowData, live.saved);
				if (o.lostRegistration) return await register(live, 'production', 'init');
				const additionalData = additionalDataFor(live.workflowData, 'trigger');
				for (const webhookData of nodeWebhooks(live.workflow, node, additionalData)) {
					const key = `production ${webhookData.httpMethod} ${webhookData.path}`;
					const reg = { kind: 'production', live, webhookData, key, afterRequest: undefined };
					routes.set(key, reg);
					live.registrations.push(reg);
				}
				return {
					error: undefined,
					calls: [],
					saved: undefined,
					nodeStaticData: copy(live.workflow.staticData[`node:${node.name}`] ?? {}),
					logs: [],
				};
			},
			/** The static data in memory (a copy). */
			get staticData() {
				return copy(live.workflow.staticData);
			},
			get nodeStaticData() {
				return copy(live.workflow.staticData[`node:${node.name}`] ?? {});
			},
			/** The static data as n8n last saved it (a copy). */
			get savedStaticData() {
				return copy(live.saved);
			},
		};
	}

	/**
	 * "Listen for test event": registers the /webhook-test/ URL; the first request runs the workflow in
	 * manual mode and then the registration is deleted, as is it after `timeoutMs` (n8n: 2 minutes).
	 * @param {any} workflowJson @param {WebhookOptions & { timeoutMs?: number }} [options]
	 */
	async function listenForTestEvent(workflowJson, options = {}) {
		const live = startLive(workflowJson, options, 'test');
		await ensureServer();
		const registration = await register(live, 'test', 'manual');
		/** @type {(value: any) => void} */
		let settle = () => {};
		const done = new Promise((resolve) => {
			settle = resolve;
		});
		let finished = false;
		const finish = async (/** @type {string} */ why) => {
			if (finished) return;
			finished = true;
			clearTimeout(timer);
			const deregistration = await unregister(live);
			settle({ why, deregistration, execution: live.executions[0], deliveries: live.deliveries });
		};
		const timer = setTimeout(() => void finish('timeout'), options.timeoutMs ?? 120_000);
		timer.unref();
		for (const reg of live.registrations) {
			// after the first request (that reached the node), the test webhook is removed
			reg.afterRequest = async () => finish('request');
		}
		if (registration.error) await finish('failed');
		return {
			registration,
			get url() {
				const reg = live.registrations[0];
				return reg ? `${origin}/webhook-test/${reg.webhookData.path}` : undefined;
			},
			/** The test URL even after the registration ended. */
			testUrl: `${origin}/webhook-test/${nodeWebhooks(live.workflow, webhookNode(live.workflow, live.nodeName), additionalDataFor(live.workflowData, 'manual'))[0]?.path}`,
			deliveries: live.deliveries,
			executions: live.executions,
			/** Resolves when the listen ended: `{ why: 'request' | 'timeout' | 'cancel' | 'failed', deregistration, execution }`. */
			done,
			/** Stops listening (the editor's "Stop listening"). */
			cancel: () => finish('cancel'),
		};
	}

	return {
		activateWebhook,
		listenForTestEvent,
		/** The harness's webhook server origin (http://127.0.0.1:PORT), once started. */
		get origin() {
			return origin;
		},
		async close() {
			if (!server) return;
			const s = server;
			server = null;
			routes.clear();
			await new Promise((resolve) => {
				s.close(() => resolve(undefined));
				for (const socket of sockets) socket.destroy();
			});
		},
	};
}

module.exports = { createWebhookApi };
