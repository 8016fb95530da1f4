'use strict';
/**
 * The node as an AI agent's tool, the way n8n builds and runs it. Not a test file itself.
 *
 * - The tool variant: n8n names it `<type>Tool` and builds it at run time from the base node
 *   (n8n 2.41.1 `NodeTypes.getByNameAndVersion`: an `Object.create` clone of the node and its
 *   description, then `convertNodeToAiTool` from `n8n/dist/tool-generation/ai-tools.js`). That
 *   function is required from the cached n8n 2.41.1 runtime (test/e2e/setup-n8n.sh) when it is
 *   there; otherwise `minimalConvertNodeToAiTool` below stands in (the same steps, written out).
 *   The editor's variant (node creator, default node names) is built from a deep copy with
 *   `usableAsTool.replacements` applied (`createAiTools`); this package has none.
 * - What a model receives: n8n-core's own `createNodeAsTool` (through `getInputConnectionData`)
 *   builds the LangChain `DynamicStructuredTool` (name from the node name, description from
 *   `NodeHelpers.getToolDescriptionForNode`, schema from the `$fromAI()` keys); LangChain's
 *   `convertToOpenAITool` turns it into the `tools` entry a Chat Completions request carries.
 * - Two test-only agent node types run tool calls through n8n-core's real paths:
 *   `harness.toolsAgent` invokes the tools n8n-core built (what the MCP Server Trigger does with a
 *   client's tools/call: the node's execute() in a SupplyDataContext; an error comes back thrown,
 *   as n8n-core's NodeOperationError with "Details: <description>" added when the message lacks
 *   it; the agent records the result string or the thrown message);
 *   `harness.engineAgent` returns an engine request (the path of AI Agent v3, n8n's default agent):
 *   WorkflowExecute runs the tool node itself, in n8n-core 2.x turns an error into
 *   `{ error: message }` (n8n 1.x stops the workflow instead), and hands the results back; the
 *   model's observation is built as n8n's `buildObservation` does (those few lines are
 *   reimplemented here).
 */
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');

const {
	NodeConnectionTypes,
	NodeHelpers,
	deepCopy,
	jsonParse,
	nodeNameToToolName,
} = require('n8n-workflow');
const { convertToOpenAITool } = require('@langchain/core/utils/function_calling');

const PACKAGE = 'n8n-nodes-work-order-service';
const BASE_TYPE = `${PACKAGE}.workOrderService`;
const TOOL_TYPE = `${BASE_TYPE}Tool`;

const CACHE =
	process.env.N8N_E2E_CACHE_DIR ||
	path.join(
		process.env.XDG_CACHE_HOME || path.join(os.homedir(), '.cache'),
		'n8n-nodes-work-order-service',
	);
const N8N_AI_TOOLS = path.join(
	CACHE,
	'n8n-2.41.1',
	'node_modules',
	'n8n',
	'dist',
	'tool-generation',
	'ai-tools.js',
);

/** n8n 2.41.1's convertNodeToAiTool, written out (used only when the cached runtime is absent). */
function minimalConvertNodeToAiTool(item) {
	const d = item.description;
	d.name += 'Tool';
	d.inputs = [];
	d.outputs = [NodeConnectionTypes.AiTool];
	d.displayName += ' Tool';
	delete d.usableAsTool;
	const hasResourceOrOperation = d.properties.some(
		(p) => p.name === 'resource' || p.name === 'operation',
	);
	if (!d.properties.map((p) => p.name).includes('toolDescription')) {
		const descProp = {
			displayName: 'Description',
			name: 'toolDescription',
			type: 'string',
			default: d.description,
			required: true,
			typeOptions: { rows: 2 },
			description:
				'Explain to the LLM what this tool does, a good, specific description would allow LLMs to produce expected results much more often',
		};
		let lastCallout = -1;
		for (let i = d.properties.length - 1; i >= 0; i--)
			if (d.properties[i].type === 'callout') {
				lastCallout = i;
				break;
			}
		d.properties.splice(lastCallout + 1, 0, descProp);
		if (hasResourceOrOperation) {
			d.properties.splice(lastCallout + 1, 0, {
				displayName: 'Tool Description',
				name: 'descriptionType',
				type: 'options',
				noDataExpression: true,
				options: [
					{
						name: 'Set Automatically',
						value: 'auto',
						description: 'Automatically set based on resource and operation',
					},
					{ name: 'Set Manually', value: 'manual', description: 'Manually set the description' },
				],
				default: 'auto',
			});
			descProp.displayOptions = { show: { descriptionType: ['manual'] } };
		}
	}
	return item;
}

/** `convertNodeToAiTool` of the cached n8n 2.41.1, else the minimal stand-in; and which one. */
function n8nConvertNodeToAiTool() {
	if (fs.existsSync(N8N_AI_TOOLS))
		return { convertNodeToAiTool: require(N8N_AI_TOOLS).convertNodeToAiTool, source: N8N_AI_TOOLS };
	return {
		convertNodeToAiTool: minimalConvertNodeToAiTool,
		source: 'minimal reimplementation (n8n 2.41.1 runtime not cached)',
	};
}

/** The run-time tool variant of a node type, as n8n 2.41.1's NodeTypes builds it. */
function runtimeToolVariant(baseType, convertNodeToAiTool) {
	const clonedProperties = Object.create(baseType.description.properties);
	const clonedDescription = Object.create(baseType.description, {
		properties: { value: clonedProperties, writable: false },
	});
	const clonedNode = Object.create(baseType, { description: { value: clonedDescription } });
	return convertNodeToAiTool(clonedNode);
}

/** The editor's tool variant (node creator, new node names), as n8n's createAiTools builds it. */
function editorToolVariant(baseType, convertNodeToAiTool) {
	const replacements =
		typeof baseType.description.usableAsTool === 'object'
			? baseType.description.usableAsTool.replacements
			: undefined;
	const description = { ...deepCopy(baseType.description), ...replacements };
	return convertNodeToAiTool({ description }).description;
}

/**
 * Registers `workOrderServiceTool` and the two test agents in a harness.
 * @returns {{ source: string, runtime: any, editor: any }}
 */
function installToolVariant(harness) {
	const { convertNodeToAiTool, source } = n8nConvertNodeToAiTool();
	const base = harness.nodeTypes.getByName(BASE_TYPE);
	const runtime = runtimeToolVariant(base, convertNodeToAiTool);
	harness.nodeTypes.add(TOOL_TYPE, runtime);
	harness.nodeTypes.add('harness.toolsAgent', new ToolsAgent());
	harness.nodeTypes.add('harness.engineAgent', new EngineAgent());
	return { source, runtime, editor: editorToolVariant(base, convertNodeToAiTool) };
}

/** What the model is told about each connected tool: the Chat Completions `tools` entries. */
async function connectedTools(ctx) {
	const connected = await ctx.getInputConnectionData(NodeConnectionTypes.AiTool, 0);
	const tools = (Array.isArray(connected) ? connected : [connected]).flat().filter(Boolean);
	return tools;
}

const agentDescription = (name, displayName) => ({
	displayName,
	name,
	group: ['transform'],
	version: 1,
	description: 'Test-only agent: calls its tools as scripted in "calls"',
	defaults: { name: 'Agent' },
	inputs: [
		NodeConnectionTypes.Main,
		{ type: NodeConnectionTypes.AiTool, displayName: 'Tools', required: true },
	],
	outputs: [NodeConnectionTypes.Main],
	properties: [{ displayName: 'Calls', name: 'calls', type: 'json', default: '[]' }],
});

/** The tool-invocation path (AI Agent v1/v2, MCP Server Trigger): n8n-core's DynamicStructuredTool. */
class ToolsAgent {
	constructor() {
		this.description = agentDescription('toolsAgent', 'Harness Tools Agent');
	}

	async execute() {
		const tools = await connectedTools(this);
		const calls = jsonParse(this.getNodeParameter('calls', 0, '[]'));
		const results = [];
		for (const call of calls) {
			const tool = tools.find((t) => t.name === call.tool) ?? tools[0];
			try {
				results.push({ tool: tool.name, observation: await tool.invoke(call.args) });
			} catch (error) {
				results.push({ tool: tool.name, observation: error.message, thrown: true });
			}
		}
		return [[{ json: { tools: tools.map((t) => convertToOpenAITool(t)), results } }]];
	}
}

/** n8n's buildObservation (utils/agent-execution/buildSteps.js in @n8n/n8n-nodes-langchain 2.41.1). */
function buildObservation(toolData) {
	const aiToolData = toolData?.data?.ai_tool?.[0]?.map((item) => item?.json);
	if (aiToolData && aiToolData.length > 0) return JSON.stringify(aiToolData);
	if (toolData?.error) {
		return JSON.stringify({
			error: toolData.error.message ?? 'Unknown error',
			...(toolData.error.name && { errorType: toolData.error.name }),
		});
	}
	return JSON.stringify('');
}

/** The engine-request path (AI Agent v3): the engine runs the tool node and hands back its run. */
class EngineAgent {
	constructor() {
		this.description = agentDescription('engineAgent', 'Harness Engine Agent');
	}

	async execute(response) {
		const calls = jsonParse(this.getNodeParameter('calls', 0, '[]'));
		if (!response || !response.actionResponses || response.actionResponses.length === 0) {
			const tools = await connectedTools(this);
			return {
				actions: calls.map((call, k) => {
					const tool = tools.find((t) => t.name === call.tool) ?? tools[0];
					return {
						actionType: 'ExecutionNodeAction',
						nodeName: tool.metadata.sourceNodeName,
						input: call.args,
						type: NodeConnectionTypes.AiTool,
						id: `call_${k}`,
						metadata: { itemIndex: 0, toolName: tool.name },
					};
				}),
				metadata: {},
			};
		}
		const results = response.actionResponses.map((r) => ({
			id: r.action.id,
			tool: r.action.metadata.toolName,
			observation: buildObservation(r.data),
		}));
		return [[{ json: { results } }]];
	}
}

/**
 * Manual Trigger -> Agent, with the tool node connected to the agent's tool input.
 * @param {{ agent?: 'toolsAgent' | 'engineAgent', calls: Array<{ tool?: string, args: object }>, tool: object | object[], credentialId?: string }} spec
 */
function agentWorkflow(spec) {
	const tools = (Array.isArray(spec.tool) ? spec.tool : [spec.tool]).map((t, k) => ({
		id: `tool-${k}`,
		type: TOOL_TYPE,
		typeVersion: 1,
		position: [220, 200 + 100 * k],
		credentials: {
			workOrderServiceApi: { id: spec.credentialId ?? 'cred-1', name: 'Emulator password' },
		},
		...t,
		name: t.name ?? 'Work Order Service',
		parameters: { authentication: 'password', ...t.parameters },
	}));
	const connections = { Start: { main: [[{ node: 'Agent', type: 'main', index: 0 }]] } };
	for (const t of tools)
		connections[t.name] = { ai_tool: [[{ node: 'Agent', type: 'ai_tool', index: 0 }]] };
	return {
		name: 'agent',
		nodes: [
			{
				id: 'start',
				name: 'Start',
				type: 'n8n-nodes-base.manualTrigger',
				typeVersion: 1,
				position: [0, 0],
				parameters: {},
			},
			{
				id: 'agent',
				name: 'Agent',
				type: `harness.${spec.agent ?? 'engineAgent'}`,
				typeVersion: 1,
				position: [220, 0],
				parameters: { calls: JSON.stringify(spec.calls) },
			},
			...tools,
		],
		connections,
		settings: { executionOrder: 'v1' },
	};
}

/** The tool description "Set Automatically" gives and the default node/tool name of a new tool node. */
function defaults(editor, runtime, parameters) {
	const nodeName = NodeHelpers.makeNodeName(parameters, editor);
	return {
		description: NodeHelpers.makeDescription(parameters, runtime.description),
		nodeName,
		toolName: nodeNameToToolName(nodeName),
	};
}

module.exports = {
	BASE_TYPE,
	TOOL_TYPE,
	installToolVariant,
	agentWorkflow,
	defaults,
	minimalConvertNodeToAiTool,
	buildObservation,
};
