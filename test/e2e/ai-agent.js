#!/usr/bin/env node
'use strict';
/**
 * The node as an AI agent's tool in a real n8n: an AI Agent with n8n's OpenAI Chat Model, whose
 * credential's Base URL points at a scripted OpenAI-compatible server on 127.0.0.1
 * (model-server.js; no model is downloaded or called), and five Work Order Service Tool nodes.
 * The scripted model calls the tools as a model would, one call per turn, and the checks read
 * what n8n sent the model (the tools offered: names, descriptions, $fromAI schemas; the tool
 * results it got back) and what the emulator received.
 *
 *   node test/e2e/ai-agent.js                      # npm pack, then n8n 2.41.1 and 1.123.81
 *   node test/e2e/ai-agent.js --version 2.41.1     # one version (also --version=a,b)
 *   node test/e2e/ai-agent.js --tarball f.tgz      # a given tarball
 *
 * From run-e2e.js (per version, with its own check() and tarball):
 *   await runAgentE2E({ version, tarball, check });
 *
 * The conversation (prompt "E2E:agent"): approve_proposal with proposal_id 0 (refused before
 * anything is sent; the model reads why and what to change), approve_proposal with 61001 (the
 * service approves), read_note with a note ID above 2^53 as a string (every digit back),
 * attach_file (a tool call carries no file: the model is told so), then a final answer. Workflow
 * settings as n8n's editor makes them (AI Agent 3, OpenAI Chat Model 1.3 on the Responses API,
 * tool descriptions "Set Automatically" but one "Set Manually"), except the tool nodes' names
 * (short ones: n8n 1.x passes a node's name to the model as the tool name unshortened, and model
 * APIs accept at most 64 characters) and, on n8n 1.x only, the tool nodes' On Error = Continue
 * (n8n 1.x stops the workflow when a tool fails; see agentWorkflow).
 */
const assert = require('node:assert/strict');
const path = require('node:path');

const n8n = require('./n8n');
const { readConversation, startModelServer } = require('./model-server');
const { startEmulator } = require('../emulator');

const PKG = 'n8n-nodes-work-order-service';
const TOOL_TYPE = `${PKG}.workOrderServiceTool`;
const WOS_CRED = { id: 'wosAgentE2eCred', name: 'Work Order Service (emulator, agent e2e)' };
const OPENAI_CRED = { id: 'wosAgentE2eLlm', name: 'OpenAI (scripted model server)' };
const WF = 'wosAgentE2e0001';
const NOTE = '9007199254740993';

const fromAI = (key, description, type = 'string') =>
	`={{ $fromAI('${key}', '${description}', '${type}') }}`;

/** The tools, as a person would set them up for an agent (the model fills the IDs). */
const TOOLS = [
	{
		name: 'approve_proposal',
		parameters: {
			resource: 'proposal',
			operation: 'approve',
			proposalId: fromAI('proposal_id', 'ID of the proposal to approve', 'number'),
		},
		description: 'Approve a proposal in Work Order Service',
	},
	{
		name: 'read_note',
		parameters: {
			resource: 'workOrderNote',
			operation: 'get',
			workOrderId: {
				__rl: true,
				mode: 'id',
				value: fromAI('work_order_id', 'ID of the work order', 'number'),
			},
			noteId: fromAI('note_id', 'ID of the note, as a string of digits'),
		},
		description: 'Get a work order note in Work Order Service',
	},
	{
		name: 'attach_file',
		parameters: {
			resource: 'workOrderNote',
			operation: 'addAttachment',
			workOrderId: {
				__rl: true,
				mode: 'id',
				value: fromAI('work_order_id', 'ID of the work order', 'number'),
			},
			noteId: fromAI('note_id', 'ID of the note, as a string of digits'),
		},
		description: 'Add an attachment to a note in Work Order Service',
	},
	{
		name: 'list_rejection_reasons',
		parameters: {
			resource: 'rejectionReason',
			operation: 'getAll',
			descriptionType: 'manual',
			toolDescription: 'Lists the reason codes a proposal can be rejected with.',
		},
		description: 'Lists the reason codes a proposal can be rejected with.',
	},
	{
		// The name n8n's editor gives a new tool node: "<action> in <node>".
		name: 'Get a work order in Work Order Service',
		parameters: {
			resource: 'workOrder',
			operation: 'get',
			workOrderId: {
				__rl: true,
				mode: 'id',
				value: fromAI('work_order_id', 'ID of the work order', 'number'),
			},
		},
		description: 'Get a work order in Work Order Service',
	},
];

/** The tool name the model gets for a node name: n8n 2.x shortens it to 64 characters, n8n 1.x does not. */
function toolNameOf(nodeName, version) {
	const name = nodeName.replace(/[^a-zA-Z0-9_-]+/g, '_');
	return Number(version.split('.')[0]) >= 2 && name.length > 64
		? name.slice(0, 64).replace(/[_-]+$/, '')
		: name;
}

const SCRIPT = [
	{ tool: 'approve_proposal', args: { proposal_id: 0 } },
	{ tool: 'approve_proposal', args: { proposal_id: 61001 } },
	{ tool: 'read_note', args: { work_order_id: 90000005, note_id: NOTE } },
	{ tool: 'attach_file', args: { work_order_id: 90000005, note_id: NOTE } },
];

/**
 * @param {boolean} continueOnError the tool nodes' Settings > On Error = Continue: needed on n8n 1.x,
 *   whose AI Agent 3 stops the workflow when a tool fails (the model never sees the error); n8n 2.x
 *   hands a failed tool's message to the model by default.
 */
function agentWorkflow(continueOnError) {
	const nodes = [
		{
			id: 'a9000000-0000-4000-8000-000000000001',
			name: 'Start',
			type: 'n8n-nodes-base.manualTrigger',
			typeVersion: 1,
			position: [0, 0],
			parameters: {},
		},
		{
			id: 'a9000000-0000-4000-8000-000000000002',
			name: 'AI Agent',
			type: '@n8n/n8n-nodes-langchain.agent',
			typeVersion: 3,
			position: [240, 0],
			parameters: {
				promptType: 'define',
				text: 'E2E:agent Approve proposal 61001, read note 9007199254740993 of work order 90000005 and attach the photo to it.',
				options: {},
			},
		},
		{
			id: 'a9000000-0000-4000-8000-000000000003',
			name: 'OpenAI Chat Model',
			type: '@n8n/n8n-nodes-langchain.lmChatOpenAi',
			typeVersion: 1.3,
			position: [120, 220],
			parameters: { model: { __rl: true, mode: 'id', value: 'gpt-4o-mini' }, options: {} },
			credentials: { openAiApi: OPENAI_CRED },
		},
		...TOOLS.map((t, k) => ({
			id: `a9000000-0000-4000-8000-00000000001${k}`,
			name: t.name,
			type: TOOL_TYPE,
			typeVersion: 1,
			position: [320 + 120 * k, 220],
			parameters: { authentication: 'password', ...t.parameters },
			credentials: { workOrderServiceApi: WOS_CRED },
			...(continueOnError ? { onError: 'continueRegularOutput' } : {}),
		})),
	];
	const connections = {
		Start: { main: [[{ node: 'AI Agent', type: 'main', index: 0 }]] },
		'OpenAI Chat Model': {
			ai_languageModel: [[{ node: 'AI Agent', type: 'ai_languageModel', index: 0 }]],
		},
	};
	for (const t of TOOLS)
		connections[t.name] = { ai_tool: [[{ node: 'AI Agent', type: 'ai_tool', index: 0 }]] };
	return {
		id: WF,
		name: 'WOS e2e: AI Agent with Work Order Service tools',
		nodes,
		connections,
		settings: { executionOrder: 'v1' },
	};
}

/**
 * The error message a tool result carries: n8n 2.x hands the model `[{ "error": message }]`; with
 * On Error = Continue (n8n 1.x) the node's error item `[{ "error", "errorDescription" }]`.
 */
function errorIn(content) {
	const parsed = JSON.parse(content);
	const item = Array.isArray(parsed) ? parsed[0] : parsed;
	assert.equal(typeof item?.error, 'string', `not an error result: ${content}`);
	return item.error;
}

async function runAgentE2E({ version, tarball, check }) {
	const runtime = await n8n.ensureRuntime({ version });
	const instance = await n8n.createInstance({
		runtime,
		encryptionKey: 'wos-agent-e2e-key-0123456789abcdef',
	});
	const emu = await startEmulator({ port: 0 });
	const model = await startModelServer({ scripts: { agent: SCRIPT } });
	const prefix = `AI agent (n8n ${version}):`;
	const client = emu.fixtures.clients.main;
	const user = emu.fixtures.users.subscriber;
	let run;
	try {
		const ready = await check(
			`${prefix} install, credentials (OpenAI Base URL = scripted server), agent workflow with 5 tool nodes`,
			async () => {
				await n8n.installCommunityPackage(instance, tarball);
				await n8n.importCredentials(instance, [
					{
						...WOS_CRED,
						type: 'workOrderServiceApi',
						data: {
							authServerUrl: emu.authUrl,
							baseUrl: emu.baseUrl,
							clientId: client.clientId,
							clientSecret: client.clientSecret,
							username: user.username,
							password: user.password,
							subsidiaryId: '',
						},
					},
					{
						...OPENAI_CRED,
						type: 'openAiApi',
						data: { apiKey: 'sk-e2e-scripted-not-a-key', url: model.url },
					},
				]);
				await n8n.importWorkflows(instance, [agentWorkflow(Number(version.split('.')[0]) < 2)]);
			},
		);
		if (!ready) return;

		const ran = await check(
			`${prefix} n8n execute: the agent calls the tools 4 times and answers; the workflow succeeds`,
			async () => {
				run = await n8n.execute(instance, WF, { timeoutMs: 180_000 });
				const tail = (s) => s.split('\n').slice(-40).join('\n');
				assert.ok(
					run.ok,
					`execute failed: ${run.errorMessage}\n--- stdout ---\n${tail(run.stdout)}\n--- stderr ---\n${tail(run.stderr)}`,
				);
				const turns = model.conversation('agent');
				assert.equal(
					turns.length,
					SCRIPT.length + 1,
					`model requests: ${turns.map((t) => JSON.stringify(t.answer)).join('\n')}`,
				);
				// OpenAI Chat Model 1.3 (what the editor adds) uses the Responses API by default.
				assert.deepEqual([...new Set(turns.map((t) => t.path))], ['/v1/responses']);
				const [out] = n8n.nodeOutput(run.result, 'AI Agent');
				assert.match(out.output, /^DONE agent: /);
			},
		);
		if (!ran) return;
		const turns = model.conversation('agent').map((t) => readConversation(t.path, t.body));
		// The tool results the model got, in order (Chat Completions `tool` messages or Responses `function_call_output`s).
		const results = turns[turns.length - 1].toolResults.map((r) => r.content);

		await check(
			`${prefix} what the model is offered: tool names, "Set Automatically" descriptions (<action> in Work Order Service), $fromAI schemas`,
			async () => {
				const { offered } = turns[0];
				assert.deepEqual(
					offered.map((t) => t.name).sort(),
					TOOLS.map((t) => toolNameOf(t.name, version)).sort(),
				);
				for (const t of TOOLS) {
					const o = offered.find((x) => x.name === toolNameOf(t.name, version));
					assert.equal(o.description, t.description, `description of ${t.name}`);
				}
				const long = toolNameOf(TOOLS[TOOLS.length - 1].name, version);
				console.log(
					`     a tool node with its default name is offered as "${long}" (${long.length} characters; model APIs accept 64)`,
				);
				const approve = offered.find((x) => x.name === 'approve_proposal').parameters;
				assert.deepEqual(approve.properties, {
					proposal_id: { type: 'number', description: 'ID of the proposal to approve' },
				});
				assert.deepEqual(approve.required, ['proposal_id']);
				const note = offered.find((x) => x.name === 'read_note').parameters;
				assert.deepEqual(note.properties.note_id, {
					type: 'string',
					description: 'ID of the note, as a string of digits',
				});
				assert.deepEqual(
					offered.find((x) => x.name === 'list_rejection_reasons').parameters.properties,
					{},
				);
			},
		);

		await check(
			`${prefix} proposal_id 0: nothing sent; the model reads what was wrong and what to change, then the corrected call approves 61001`,
			async () => {
				assert.equal(
					errorIn(results[0]),
					'Proposal ID must be a whole number of 1 or more, got 0; nothing was sent. Call the tool again with "proposal_id" set to a whole number of 1 or more.',
				);
				const api = emu.requests.filter((r) => r.path.startsWith('/api/'));
				const approvals = api.filter((r) => r.path.startsWith('/api/v3/proposals/'));
				assert.deepEqual(
					approvals.map((r) => `${r.method} ${r.path} ${r.status}`),
					['PUT /api/v3/proposals/61001/approve 204'],
				);
				assert.match(approvals[0].headers.authorization, /^Bearer \S+$/);
				assert.deepEqual(JSON.parse(results[1]), [
					{ success: true, operation: 'approve', proposalId: 61001, status: 'approved' },
				]);
				assert.equal(emu.state.proposals[61001].Status, 'Approved');
			},
		);

		await check(
			`${prefix} note ID above 2^53 passed as a string: the emulator is asked for exactly that note, the model gets every digit`,
			async () => {
				const get = emu.requests.filter((r) => r.method === 'GET' && r.path.includes('/notes('));
				assert.deepEqual(
					get.map((r) => `${r.path} ${r.status}`),
					[`/api/v3/odata/workorders(90000005)/notes(${NOTE}) 200`],
				);
				assert.equal(JSON.parse(results[2])[0].Id, NOTE);
			},
		);

		await check(
			`${prefix} attach_file: a tool call carries no file; the model is told so and what to do instead; nothing posted`,
			async () => {
				assert.equal(
					errorIn(results[3]),
					'Add Attachment needs a file, but a tool call cannot carry one (this call has no binary field "data"), so nothing was sent. Do not call it again from the agent: tell the user that the file must be attached by a workflow in which an earlier node provides it (a download, an e-mail attachment or a form upload), or, if text is enough, add it as a work order note instead.',
				);
				assert.equal(emu.requests.filter((r) => r.path.includes('/attachments')).length, 0);
			},
		);

		await check(
			`${prefix} nothing secret reaches the model server (client secret, password, tokens)`,
			async () => {
				const sent = model.requests.map((r) => r.raw).join('\n');
				const secrets = [
					client.clientSecret,
					user.password,
					...emu.state.tokens.map((t) => t.token),
					...emu.state.tokens.map((t) => t.refreshToken).filter(Boolean),
				];
				for (const s of secrets) assert.ok(!sent.includes(s), 'a secret was sent to the model');
				assert.ok(
					model.requests.every(
						(r) => r.headers.authorization === 'Bearer sk-e2e-scripted-not-a-key',
					),
					"the OpenAI credential's key",
				);
			},
		);
	} finally {
		await model.close();
		await emu.close();
		await n8n.destroyInstance(instance);
	}
}

async function main() {
	await n8n.runStandalone({ label: 'AI agent', packPrefix: 'wos-agent-pack-', run: runAgentE2E });
}

if (require.main === module) {
	main().catch((err) => {
		console.error(err);
		process.exitCode = 1;
	});
}

module.exports = { runAgentE2E };
