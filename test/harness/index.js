// @ts-check
'use strict';

/**
 * Workflow test harness for this n8n community-node package.
 *
 * Runs workflows (JSON as n8n saves them) through n8n-core's real
 * WorkflowExecute, in manual mode, from the trigger/start node, with
 * additionalData built the way n8n's NodeTestHarness and CLI build it (a
 * CredentialsHelper, ExecutionLifecycleHooks, ...). Nodes and credentials
 * are loaded from the package's `dist/` through n8n-core's
 * PackageDirectoryLoader, named `<package name>.<node name>` like n8n names
 * community nodes. See README.md next to this file.
 */

const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const { AsyncLocalStorage } = require('node:async_hooks');

const { Container } = require('@n8n/di');
const { Logger } = require('@n8n/backend-common');
const { InstanceSettingsConfig } = require('@n8n/config');
const {
	BinaryDataService,
	ErrorReporter,
	ExecutionLifecycleHooks,
	InstanceSettings,
	PackageDirectoryLoader,
	UnrecognizedNodeTypeError,
	WorkflowExecute,
} = require('n8n-core');
const { LoggerProxy, NodeHelpers, UnexpectedError, Workflow } = require('n8n-workflow');

const { CapturingLogger } = require('./logger');
const { createPollApi } = require('./poll');
const { createWebhookApi } = require('./webhook');
const {
	CredentialStore,
	HarnessCredentialTypes,
	HarnessCredentialsHelper,
} = require('./credentials');
const {
	ConvertToFileToBinary,
	HarnessItems,
	HttpRequestWithCredential,
	IfFilter,
	ManualTrigger,
	OAuth2Api,
	ScheduleTriggerManual,
	SetRaw,
} = require('./builtin-types');
const { MergeByPosition, WebhookOnReceived } = require('./builtin-webhook');

/** @typedef {import('n8n-workflow').INodeType} INodeType */
/** @typedef {import('n8n-workflow').IVersionedNodeType} IVersionedNodeType */
/** @typedef {import('n8n-workflow').INodeExecutionData} INodeExecutionData */
/** @typedef {import('n8n-workflow').IRun} IRun */
/** @typedef {import('n8n-workflow').IWorkflowBase} IWorkflowBase */
/** @typedef {import('n8n-workflow').IWorkflowExecuteAdditionalData} IWorkflowExecuteAdditionalData */
/** @typedef {import('./logger').LogEntry} LogEntry */

/**
 * A workflow as n8n saves/exports it (only nodes and connections are required).
 * @typedef {{
 *   id?: string, name?: string, nodes: Array<Record<string, any>>, connections: Record<string, any>,
 *   settings?: Record<string, any>, staticData?: Record<string, any>, pinData?: Record<string, any>,
 *   [key: string]: any,
 * }} WorkflowJson
 */

/**
 * @typedef {object} RunContext
 * @property {Record<string, Error>} nodeErrors original error instance last thrown by each node's execute()
 */

/**
 * @typedef {object} RunResult
 * @property {'success' | 'error' | 'canceled' | 'waiting' | 'crashed' | 'new' | 'running' | 'unknown'} status
 * @property {Error | Record<string, any> | undefined} error the error that failed the run: the ORIGINAL
 *   instance thrown by the node (NodeOperationError/NodeApiError...) when it could be matched, else the plain
 *   copy n8n stores in resultData.error
 * @property {Record<string, any> | undefined} executionError resultData.error exactly as WorkflowExecute stores it (a plain copy)
 * @property {Record<string, Error>} nodeErrors original instances thrown by each node (also when continueOnFail swallowed them)
 * @property {import('n8n-workflow').IRunData} runData
 * @property {Record<string, INodeExecutionData[]>} outputs per node: first main output of its last run
 * @property {Record<string, INodeExecutionData[][]>} allOutputs per node: all main outputs of its last run
 * @property {string | undefined} lastNodeExecuted
 * @property {INodeExecutionData[] | undefined} lastNodeOutput outputs[lastNodeExecuted]
 * @property {string[]} executionOrder node names in the order they finished
 * @property {IRun} run the full IRun
 * @property {string} executionId
 * @property {string[]} logs log lines written during this run
 */

const BUILTIN_PACKAGE = 'harness';

/** One-time process (module-registry) wide n8n-core setup. */
let globalSetup;

function setupGlobals() {
	if (globalSetup) return globalSetup;

	// 1. Logger first: the nodes loader, node contexts and ErrorReporter resolve it from DI.
	const logger = new CapturingLogger();
	Container.set(Logger, /** @type {any} */ (logger));
	LoggerProxy.init(/** @type {any} */ (logger));

	// 2. InstanceSettings (each node execution context resolves it) in a private temp folder,
	//    so nothing is written to ~/.n8n.
	const baseDir = fs.mkdtempSync(path.join(os.tmpdir(), 'n8n-harness-'));
	process.once('exit', () => fs.rmSync(baseDir, { recursive: true, force: true }));
	const instanceConfig = Object.assign(Object.create(InstanceSettingsConfig.prototype), {
		enforceSettingsFilePermissions: false,
		encryptionKey: 'harness-test-encryption-key',
		userHome: baseDir,
		n8nFolder: path.join(baseDir, '.n8n'),
	});
	fs.mkdirSync(instanceConfig.n8nFolder, { recursive: true });
	Container.set(InstanceSettingsConfig, instanceConfig);
	const instanceSettings = new InstanceSettings(instanceConfig, /** @type {any} */ (logger));
	Container.set(InstanceSettings, instanceSettings);

	// 3. BinaryDataService in n8n's 'default' (in-memory) mode: binary data stays base64 in the item.
	//    HARNESS_BINARY_DATA_MODE=filesystem: n8n 2.x's default, files under the temp folder.
	const mode = process.env.HARNESS_BINARY_DATA_MODE === 'filesystem' ? 'filesystem' : 'default';
	const binaryDataConfig = {
		mode,
		availableModes: [mode],
		localStoragePath: path.join(baseDir, 'binaryData'),
		signingSecret: 'harness-binary-signing-secret',
		dbMaxFileSize: 512,
	};
	const binaryDataService = new BinaryDataService(
		/** @type {any} */ (binaryDataConfig),
		Container.get(ErrorReporter),
		/** @type {any} */ (logger),
	);
	Container.set(BinaryDataService, binaryDataService);
	const binaryReady = binaryDataService.init();

	globalSetup = { logger, baseDir, binaryReady, als: new AsyncLocalStorage() };
	return globalSetup;
}

/** Node type registry (n8n's NodeTypes over LoadNodesAndCredentials). */
class HarnessNodeTypes {
	/** @param {AsyncLocalStorage<RunContext>} als */
	constructor(als) {
		this.als = als;
		/** @type {Map<string, { type: INodeType | IVersionedNodeType, sourcePath: string, className: string }>} */
		this.nodes = new Map();
		/** @type {WeakMap<INodeType, INodeType>} */
		this.wrapped = new WeakMap();
	}

	/** @param {string} fullType @param {INodeType | IVersionedNodeType} type @param {string} [sourcePath] */
	add(fullType, type, sourcePath = '') {
		this.nodes.set(fullType, { type, sourcePath, className: type.constructor.name });
	}

	/** @param {string} type */
	getByName(type) {
		const entry = this.nodes.get(type);
		if (!entry) throw this.unrecognized(type);
		return entry.type;
	}

	/** @param {string} type @param {number} [version] */
	getByNameAndVersion(type, version) {
		const nodeType = NodeHelpers.getVersionedNodeType(this.getByName(type), version);
		return this.wrap(nodeType);
	}

	getKnownTypes() {
		/** @type {Record<string, { className: string, sourcePath: string }>} */
		const known = {};
		for (const [name, { className, sourcePath }] of this.nodes)
			known[name] = { className, sourcePath };
		return known;
	}

	/** @param {string} fullType */
	unrecognized(fullType) {
		const dot = fullType.lastIndexOf('.');
		return new UnrecognizedNodeTypeError(fullType.slice(0, dot), fullType.slice(dot + 1));
	}

	/**
	 * Same node type, but execute() (and poll()) records the original error instance in the
	 * current run's context before re-throwing it unchanged (WorkflowExecute
	 * only keeps a plain-object copy of it).
	 * @param {INodeType} nodeType
	 * @returns {INodeType}
	 */
	wrap(nodeType) {
		if (typeof nodeType.execute !== 'function' && typeof nodeType.poll !== 'function')
			return nodeType;
		const cached = this.wrapped.get(nodeType);
		if (cached) return cached;
		const { als } = this;
		/** @type {INodeType} */
		const wrapper = Object.create(nodeType);
		if (typeof nodeType.execute === 'function') {
			const originalExecute = nodeType.execute;
			wrapper.execute = async function (...args) {
				try {
					return await originalExecute.apply(this, /** @type {any} */ (args));
				} catch (error) {
					const ctx = als.getStore();
					if (ctx) ctx.nodeErrors[this.getNode().name] = /** @type {Error} */ (error);
					throw error;
				}
			};
		}
		// Polling nodes: the same for poll() (Fetch Test Event runs it in manual mode).
		if (typeof nodeType.poll === 'function') {
			const originalPoll = nodeType.poll;
			wrapper.poll = async function (...args) {
				try {
					return await originalPoll.apply(this, /** @type {any} */ (args));
				} catch (error) {
					const ctx = als.getStore();
					if (ctx) ctx.nodeErrors[this.getNode().name] = /** @type {Error} */ (error);
					throw error;
				}
			};
		}
		this.wrapped.set(nodeType, wrapper);
		return wrapper;
	}
}

/**
 * Load `package.json`'s n8n.nodes / n8n.credentials with n8n-core's real
 * PackageDirectoryLoader.
 * @param {string} packageDir
 */
async function loadPackage(packageDir) {
	const pkgPath = path.join(packageDir, 'package.json');
	const pkg = JSON.parse(fs.readFileSync(pkgPath, 'utf8'));
	const listed = [...(pkg.n8n?.nodes ?? []), ...(pkg.n8n?.credentials ?? [])];
	const missing = listed.filter(
		(/** @type {string} */ f) => !fs.existsSync(path.join(packageDir, f)),
	);
	if (missing.length) {
		throw new UnexpectedError(
			`The package at ${packageDir} lists files that do not exist (build it first, e.g. \`npm run build\`): ${missing.join(', ')}`,
		);
	}
	const loader = new PackageDirectoryLoader(packageDir);
	await loader.loadAll();
	return loader;
}

/**
 * @param {{ packageDir?: string }} [options]
 */
async function createHarness({ packageDir = path.resolve(__dirname, '..', '..') } = {}) {
	const { logger, binaryReady, als, baseDir } = setupGlobals();
	await binaryReady;

	/** @type {string[]} */
	const logs = [];
	/** @type {LogEntry[]} */
	const logEntries = [];
	/** @param {LogEntry} entry */
	const sink = (entry) => {
		logs.push(entry.line);
		logEntries.push(entry);
	};
	logger.sinks.add(sink);

	const nodeTypes = new HarnessNodeTypes(/** @type {AsyncLocalStorage<RunContext>} */ (als));
	const credentialTypes = new HarnessCredentialTypes();

	// Test-only helper types first; the package's own types win on a name clash.
	nodeTypes.add('n8n-nodes-base.manualTrigger', new ManualTrigger());
	nodeTypes.add('n8n-nodes-base.set', new SetRaw());
	nodeTypes.add('n8n-nodes-base.convertToFile', new ConvertToFileToBinary());
	nodeTypes.add(`${BUILTIN_PACKAGE}.items`, new HarnessItems());
	nodeTypes.add('n8n-nodes-base.httpRequest', new HttpRequestWithCredential());
	nodeTypes.add('n8n-nodes-base.webhook', new WebhookOnReceived());
	nodeTypes.add('n8n-nodes-base.merge', new MergeByPosition());
	nodeTypes.add('n8n-nodes-base.scheduleTrigger', new ScheduleTriggerManual());
	nodeTypes.add('n8n-nodes-base.if', new IfFilter());
	credentialTypes.add(new OAuth2Api());

	/** Loads (or, after `reloadPackage`, loads again) the package's nodes and credentials. */
	async function addPackage() {
		const loader = await loadPackage(path.resolve(packageDir));
		for (const name of Object.keys(loader.known.nodes)) {
			const loaded = loader.getNode(name);
			nodeTypes.add(`${loader.packageName}.${name}`, loaded.type, loaded.sourcePath);
		}
		for (const name of Object.keys(loader.known.credentials)) {
			const loaded = loader.getCredential(name);
			const supported = (loader.known.credentials[name].supportedNodes ?? []).map(
				(n) => `${loader.packageName}.${n}`,
			);
			credentialTypes.add(loaded.type, supported);
		}
		return loader.packageName;
	}
	const packageName = await addPackage();

	const credentials = new CredentialStore();
	const credentialsHelper = new HarnessCredentialsHelper(credentialTypes, credentials, nodeTypes);

	let executionCounter = 0;

	/**
	 * additionalData shaped like n8n's (WorkflowExecuteAdditionalData.getBase + hooks).
	 * @param {{ hooks: ExecutionLifecycleHooks, executionId: string, workflowId: string }} o
	 * @returns {IWorkflowExecuteAdditionalData}
	 */
	function makeAdditionalData({ hooks, executionId, workflowId }) {
		return /** @type {any} */ ({
			credentialsHelper,
			hooks,
			executionId,
			workflowId,
			userId: 'harness-user',
			currentNodeExecutionIndex: 0,
			restApiUrl: 'http://127.0.0.1:5678/rest',
			instanceBaseUrl: 'http://127.0.0.1:5678/',
			formBaseUrl: 'http://127.0.0.1:5678/form',
			formWaitingBaseUrl: 'http://127.0.0.1:5678/form-waiting',
			formTestBaseUrl: 'http://127.0.0.1:5678/form-test',
			webhookBaseUrl: 'http://127.0.0.1:5678/webhook',
			webhookWaitingBaseUrl: 'http://127.0.0.1:5678/webhook-waiting',
			webhookTestBaseUrl: 'http://127.0.0.1:5678/webhook-test',
			mcpBaseUrl: 'http://127.0.0.1:5678/mcp',
			mcpTestBaseUrl: 'http://127.0.0.1:5678/mcp-test',
			variables: {},
			currentNodeParameters: undefined,
			executeWorkflow: async () => {
				throw new UnexpectedError('harness: sub-workflow execution is not supported');
			},
			getRunExecutionData: async () => undefined,
			getRuntimeCredential: async () => undefined,
			logAiEvent: () => {},
			setExecutionStatus: () => {},
			sendDataToUI: () => {},
			startRunnerTask: async () => {
				throw new UnexpectedError('harness: task runners are not supported');
			},
		});
	}

	/**
	 * Execute a workflow.
	 * @param {WorkflowJson} workflowJson
	 * @param {{
	 *   credentials?: Record<string, { name: string, type: string, data: import('n8n-workflow').ICredentialDataDecryptedObject }>,
	 *   timeoutMs?: number,
	 *   startNode?: string,
	 *   usePinData?: boolean,
	 * }} [options]
	 * @returns {Promise<RunResult>}
	 */
	async function run(workflowJson, options = {}) {
		const { timeoutMs = 30_000, startNode: startNodeName, usePinData = false } = options;
		// the contract test counts the node operations the suite runs (test/contract)
		/** @type {any} */ (globalThis).__WOS_CONTRACT__?.noteWorkflow(workflowJson);
		for (const [id, entry] of Object.entries(options.credentials ?? {})) credentials.set(id, entry);

		/** @type {IWorkflowBase} */
		const workflowData = JSON.parse(JSON.stringify(workflowJson));
		workflowData.id ??= 'harness-workflow';
		workflowData.name ??= 'Harness workflow';
		workflowData.settings = { executionOrder: 'v1', ...(workflowData.settings ?? {}) };

		const workflow = new Workflow({
			id: workflowData.id,
			name: workflowData.name,
			nodes: workflowData.nodes,
			connections: workflowData.connections,
			active: false,
			nodeTypes,
			staticData: workflowData.staticData,
			settings: workflowData.settings,
			pinData: usePinData ? workflowData.pinData : undefined,
		});

		const executionId = `harness-${++executionCounter}`;
		const mode = 'manual';
		const hooks = new ExecutionLifecycleHooks(mode, executionId, workflowData);
		/** @type {string[]} */
		const executionOrder = [];
		hooks.addHandler('nodeExecuteAfter', (nodeName) => {
			executionOrder.push(nodeName);
		});

		const additionalData = makeAdditionalData({ hooks, executionId, workflowId: workflowData.id });

		const startNode = startNodeName
			? workflow.getNode(startNodeName)
			: (workflowData.nodes
					.map((n) => workflow.getNode(n.name))
					.find((n) => n && !n.disabled && n.type === 'n8n-nodes-base.manualTrigger') ??
				workflow.getStartNode());
		if (!startNode) throw new UnexpectedError('harness: no start node found in the workflow');

		const logStart = logs.length;
		/** @type {RunContext} */
		const ctx = { nodeErrors: {} };
		const workflowExecute = new WorkflowExecute(additionalData, mode);

		/** @type {any} */
		let execution;
		/** @type {NodeJS.Timeout | undefined} */
		let timer;
		/** @type {IRun} */
		let fullRun;
		try {
			fullRun = await als.run(ctx, async () => {
				execution = workflowExecute.run({
					workflow,
					startNode,
					pinData: usePinData ? workflowData.pinData : undefined,
				});
				const timeout = new Promise((_, reject) => {
					timer = setTimeout(() => {
						execution.cancel?.();
						reject(new Error(`harness: workflow run timed out after ${timeoutMs} ms`));
					}, timeoutMs);
				});
				return /** @type {IRun} */ (await Promise.race([execution, timeout]));
			});
		} finally {
			clearTimeout(timer);
		}

		const resultData = fullRun.data.resultData;
		const runData = resultData.runData;
		/** @type {Record<string, INodeExecutionData[]>} */
		const outputs = {};
		/** @type {Record<string, INodeExecutionData[][]>} */
		const allOutputs = {};
		for (const [nodeName, tasks] of Object.entries(runData)) {
			const last = tasks[tasks.length - 1];
			const main = /** @type {INodeExecutionData[][]} */ (last?.data?.main ?? []);
			allOutputs[nodeName] = main.map((o) => o ?? []);
			outputs[nodeName] = main[0] ?? [];
		}

		const executionError = /** @type {Record<string, any> | undefined} */ (resultData.error);
		/** @type {RunResult['error']} */
		let error = executionError;
		if (executionError) {
			const failedNode = executionError.node?.name ?? resultData.lastNodeExecuted;
			const original = failedNode ? ctx.nodeErrors[failedNode] : undefined;
			if (original && original.stack === executionError.stack) error = original;
		}

		const lastNodeExecuted = resultData.lastNodeExecuted;
		return {
			status: fullRun.status,
			error,
			executionError,
			nodeErrors: ctx.nodeErrors,
			runData,
			outputs,
			allOutputs,
			lastNodeExecuted,
			lastNodeOutput: lastNodeExecuted ? outputs[lastNodeExecuted] : undefined,
			executionOrder,
			run: fullRun,
			executionId,
			logs: logs.slice(logStart),
		};
	}

	const pollApi = createPollApi({ nodeTypes, credentials, logs, makeAdditionalData, run });
	const webhookApi = createWebhookApi({ nodeTypes, credentials, logs, makeAdditionalData });

	return {
		/** The loaded package's name (node types are `${packageName}.${nodeName}`). */
		packageName,
		/** Full node type name for one of the package's nodes. @param {string} nodeName */
		nodeType: (nodeName) => `${packageName}.${nodeName}`,
		nodeTypes,
		credentialTypes,
		credentialsHelper,
		credentials,
		/** Every log line (all levels, message + stringified meta) since the harness was created. */
		logs,
		/** Structured log entries ({ level, message, meta, line }). */
		logEntries,
		run,
		/** One poll of a polling trigger through n8n-core's poll path (see poll.js / README). */
		poll: pollApi.poll,
		/** Activate a workflow with a polling trigger; then `.poll()` per cron tick, `.restart()`. */
		activate: pollApi.activate,
		/** Activate a workflow with a webhook trigger (checkExists / create); requests over HTTP (webhook.js / README). */
		activateWebhook: webhookApi.activateWebhook,
		/** "Listen for test event" of a webhook trigger (the /webhook-test/ URL, manual mode). */
		listenForTestEvent: webhookApi.listenForTestEvent,
		/** The harness's webhook server (http://127.0.0.1:PORT) once a webhook trigger was activated. */
		get webhookOrigin() {
			return webhookApi.origin;
		},
		/**
		 * What an n8n process restart does to the package: its modules are loaded afresh from dist/
		 * (nothing the previous load kept in memory, e.g. caches of the nodes, survives). Node and
		 * credential types are replaced in place; stored credentials and saved static data stay.
		 * Resolves true when the modules were really loaded afresh (plain Node); under jest, whose
		 * module registry cannot be purged, false: the test then resets module memory itself.
		 */
		async reloadPackage() {
			const dist = path.join(path.resolve(packageDir), 'dist') + path.sep;
			const before = [...nodeTypes.nodes.values()].map((entry) => entry.type.constructor);
			for (const file of Object.keys(require.cache))
				if (file.startsWith(dist)) delete require.cache[file];
			await addPackage();
			// Under jest, require.cache cannot be purged (jest's own module registry): the same
			// classes come back and module memory is not reset. Returns whether it was.
			const after = [...nodeTypes.nodes.values()].map((entry) => entry.type.constructor);
			return after.some((ctor) => !before.includes(ctor));
		},
		/** Stop capturing logs into this harness (the last close also removes the temp folder); stops the webhook server. */
		close() {
			logger.sinks.delete(sink);
			if (logger.sinks.size === 0) fs.rmSync(baseDir, { recursive: true, force: true });
			return webhookApi.close();
		},
	};
}

/** @typedef {Awaited<ReturnType<typeof createHarness>>} Harness */

module.exports = { createHarness, HarnessNodeTypes, BUILTIN_PACKAGE };
