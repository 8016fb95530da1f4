'use strict';
/**
 * The node as an AI agent's tool (issue 20): what a model is told (tool description and schema, as
 * n8n 2.41 builds them for the `<name>Tool` variant of a `usableAsTool` node), what it gets back
 * when an operation needs a file, and that every error it gets says on its own what was wrong and
 * what to change. Tool calls run through n8n-core's real paths (test/ai/support.js): the engine
 * requests of AI Agent v3 and the tool invocation of AI Agent v1/v2 and the MCP Server Trigger;
 * the service is the emulator on 127.0.0.1.
 */
const { NodeOperationError } = require('n8n-workflow');

const support = require('../support');
const {
	installToolVariant,
	agentWorkflow,
	defaults,
	minimalConvertNodeToAiTool,
} = require('./support');

const CRED = 'cred-1';
const AGENTS = ['engineAgent', 'toolsAgent'];

let env;
let variant;
beforeAll(async () => {
	env = await support.setup();
	env.fixtures = env.emulator.fixtures;
	env.harness.credentials.set(CRED, {
		name: 'Emulator password',
		type: 'workOrderServiceApi',
		data: support.passwordCredential(env.emulator),
	});
	variant = installToolVariant(env.harness);
});
afterAll(async () => {
	if (env) await env.close();
});
beforeEach(() => {
	env.emulator.resetFaults();
	env.emulator.clearRequests();
});

const api = () => support.apiRequests(env.emulator);
/** Puts a proposal in `status` (the service refuses a move to the status a proposal already has). */
const setStatus = (id, status) => {
	if (env.emulator.state.proposals[id].Status !== status)
		env.emulator.setProposalStatus(id, status);
};
const fromAI = (key, description, type = 'string') =>
	`={{ $fromAI('${key}', '${description}', '${type}') }}`;

/** Runs the scripted calls through one agent path; returns the observations the model receives. */
async function callTool(agent, tool, calls) {
	const result = await env.harness.run(agentWorkflow({ agent, tool, calls }), {
		timeoutMs: 60_000,
	});
	expect(result.status).toBe('success');
	const [out] = result.outputs.Agent;
	return { result, out: out.json, observations: out.json.results.map((r) => r.observation) };
}

/** The one error message an observation carries (engine: `[{ error }]`; invocation: the thrown message). */
function errorOf(agent, observation) {
	if (agent === 'toolsAgent') return observation;
	const parsed = JSON.parse(observation);
	expect(Array.isArray(parsed) && parsed.length === 1 && typeof parsed[0].error === 'string').toBe(
		true,
	);
	return parsed[0].error;
}

// Every operation and its action: with "Set Automatically" the model gets "<action> in Work Order Service".
const OPERATIONS = {
	'asset.attachToWorkOrder': 'Attach an asset to work order',
	'asset.get': 'Get an asset',
	'asset.getAll': 'Get many assets',
	'attachment.download': 'Download an attachment',
	'checklist.getQuestions': 'Get checklist questions',
	'checklistResponse.submit': 'Answer a checklist question',
	'checklistResponse.update': 'Update a checklist response',
	'invoice.approve': 'Approve an invoice',
	'invoice.create': 'Create an invoice',
	'invoice.get': 'Get an invoice',
	'invoice.getAll': 'Get many invoices',
	'invoice.getRateDiscrepancy': 'Get rate discrepancies of an invoice',
	'invoice.getRequirements': 'Get invoice requirements',
	'invoice.putOnHold': 'Put an invoice on hold',
	'invoice.recordPayment': 'Record an invoice payment',
	'invoice.reject': 'Reject an invoice',
	'location.addNote': 'Add a note to a location',
	'location.get': 'Get a location',
	'location.getAll': 'Get many locations',
	'location.getNotes': 'Get the notes of a location',
	'proposal.approve': 'Approve a proposal',
	'proposal.get': 'Get a proposal',
	'proposal.getAll': 'Get many proposals',
	'proposal.getAttachments': 'Get attachments of a proposal',
	'proposal.putOnHold': 'Put a proposal on hold',
	'proposal.reject': 'Reject a proposal',
	'proposal.reopen': 'Reopen a proposal',
	'provider.getAll': 'Get many providers',
	'rejectionReason.getAll': 'Get many rejection reasons',
	'subsidiary.getAll': 'Get many subsidiaries',
	'trade.getAll': 'Get many trades',
	'workOrder.addAttachment': 'Add a work order attachment',
	'workOrder.checkIn': 'Check in to a work order',
	'workOrder.checkOut': 'Check out of a work order',
	'workOrder.create': 'Create a work order',
	'workOrder.get': 'Get a work order',
	'workOrder.getAll': 'Get many work orders',
	'workOrder.getChecklistResponses': 'Get work order checklist responses',
	'workOrder.updateNte': 'Update a work order NTE',
	'workOrder.updatePriority': 'Update a work order priority',
	'workOrder.updateScheduledDate': 'Update a work order scheduled date',
	'workOrder.updateStatus': 'Update a work order status',
	'workOrderNote.addAttachment': 'Add an attachment to a note',
	'workOrderNote.create': 'Create a work order note',
	'workOrderNote.get': 'Get a work order note',
	'workOrderNote.getAll': 'Get many work order notes',
	'workOrderNote.getAttachments': 'Get attachments of a note',
};

/** The manual Tool Description docs/ai-agents.md shows for an approval tool: it names the refusals in advance. */
const APPROVE_MANUAL_DESCRIPTION =
	"Approve a proposal by its ID. The service refuses when the proposal's work order is invoiced or missing, or when the amount is over this user's approval limit: then tell the user its reason, do not call again.";

describe('what a model is told', () => {
	test("the tool variant is built with n8n 2.41.1's own convertNodeToAiTool (or the stand-in, which builds the same)", () => {
		const { runtime, editor, source } = variant;
		expect(runtime.description.name).toMatch(/workOrderServiceTool$/);
		expect(runtime.description.displayName).toBe('Work Order Service Tool');
		expect(runtime.description.outputs).toEqual(['ai_tool']);
		expect(runtime.description.inputs).toEqual([]);
		expect(editor.properties.find((p) => p.name === 'descriptionType').default).toBe('auto');
		// The stand-in, used without a cached runtime, gives the editor the same Tool Description parameters.
		const base = env.harness.nodeTypes.getByName('n8n-nodes-work-order-service.workOrderService');
		const standIn = minimalConvertNodeToAiTool({
			description: JSON.parse(JSON.stringify(base.description)),
		}).description;
		const pick = (d) =>
			d.properties.filter((p) => ['descriptionType', 'toolDescription'].includes(p.name));
		expect(pick(standIn)).toEqual(pick(editor));
		expect(typeof source).toBe('string');
	});

	test.each(Object.entries(OPERATIONS))(
		'%s: "Set Automatically" tells the model what it does, in n8n\'s words: "<action> in Work Order Service"',
		(key, action) => {
			const [resource, operation] = key.split('.');
			const d = defaults(variant.editor, variant.runtime, { resource, operation });
			expect(d.description).toBe(`${action} in Work Order Service`);
			// A short action, n8n style: the editor also lists it and names new nodes after it.
			expect(action).not.toMatch(/[\n\t]/);
			expect(action.split(' ').length).toBeLessThanOrEqual(6);
			expect(d.nodeName).toBe(`${action} in Work Order Service`);
			// n8n 2.41 shortens the tool name to the 64 characters model APIs accept.
			expect(d.toolName.length).toBeLessThanOrEqual(64);
			expect(d.toolName).toMatch(/^[A-Za-z0-9_-]+$/);
		},
	);

	test('every operation of the node has its description above (none forgotten)', () => {
		const ops = variant.runtime.description.properties
			.filter((p) => p.name === 'operation')
			.flatMap((p) => p.options.map((o) => `${p.displayOptions.show.resource[0]}.${o.value}`));
		expect(ops.sort()).toEqual(Object.keys(OPERATIONS).sort());
	});

	test("the refusals are not in the short descriptions: the model learns them from the refused call's own error (below), or in advance from a manual description (docs/ai-agents.md)", () => {
		for (const action of Object.values(OPERATIONS))
			expect(action).not.toMatch(/unless|invoiced|approval limit|refused/);
		const docs = require('node:fs').readFileSync(`${support.ROOT}/docs/ai-agents.md`, 'utf8');
		expect(docs).toContain(APPROVE_MANUAL_DESCRIPTION);
		expect(APPROVE_MANUAL_DESCRIPTION).toMatch(/invoiced.*approval limit/);
	});

	test('through n8n-core: tool name, description and $fromAI schema as the model API receives them; "Set Manually" replaces the description', async () => {
		const { out } = await callTool(
			'toolsAgent',
			[
				{
					name: 'Approve proposal',
					parameters: {
						resource: 'proposal',
						operation: 'approve',
						proposalId: fromAI('proposal_id', 'ID of the proposal to approve', 'number'),
						additionalFields: { reasonString: fromAI('reason', 'Why it is approved') },
					},
				},
				{
					name: 'Answer checklist question',
					parameters: {
						resource: 'checklistResponse',
						operation: 'submit',
						workOrderId: {
							__rl: true,
							mode: 'id',
							value: fromAI('work_order_id', 'Work order ID', 'number'),
						},
						questionId: fromAI('question_id', 'Checklist question ID', 'number'),
						questionType: 'acknowledgement',
						answer: fromAI('answer', 'yes or no'),
						providerId: '3001',
						technicianId: '4001',
						attempt: 1,
					},
				},
				{
					name: 'Approve within limit',
					parameters: {
						resource: 'proposal',
						operation: 'approve',
						descriptionType: 'manual',
						toolDescription: APPROVE_MANUAL_DESCRIPTION,
						proposalId: fromAI('proposal_id', 'ID of the proposal to approve', 'number'),
					},
				},
				{
					name: 'Read note',
					parameters: {
						resource: 'workOrderNote',
						operation: 'get',
						descriptionType: 'manual',
						toolDescription:
							'Reads one note of a work order. Pass the note ID as a string of digits.',
						workOrderId: { __rl: true, mode: 'id', value: '90000005' },
						noteId: fromAI('note_id', 'Note ID, digits as a string'),
					},
				},
			],
			[],
		);
		const byName = (a, b) => a.function.name.localeCompare(b.function.name);
		expect([...out.tools].sort(byName)).toEqual([
			{
				type: 'function',
				function: {
					name: 'Answer_checklist_question',
					description: `${OPERATIONS['checklistResponse.submit']} in Work Order Service`,
					parameters: expect.objectContaining({
						properties: {
							work_order_id: { type: 'number', description: 'Work order ID' },
							question_id: { type: 'number', description: 'Checklist question ID' },
							answer: { type: 'string', description: 'yes or no' },
						},
					}),
				},
			},
			{
				type: 'function',
				function: {
					name: 'Approve_proposal',
					description: `${OPERATIONS['proposal.approve']} in Work Order Service`,
					parameters: expect.objectContaining({
						type: 'object',
						properties: {
							proposal_id: { type: 'number', description: 'ID of the proposal to approve' },
							reason: { type: 'string', description: 'Why it is approved' },
						},
						required: ['proposal_id', 'reason'],
					}),
				},
			},
			{
				type: 'function',
				function: {
					name: 'Approve_within_limit',
					description: APPROVE_MANUAL_DESCRIPTION,
					parameters: expect.objectContaining({
						properties: {
							proposal_id: { type: 'number', description: 'ID of the proposal to approve' },
						},
					}),
				},
			},
			{
				type: 'function',
				function: {
					name: 'Read_note',
					description: 'Reads one note of a work order. Pass the note ID as a string of digits.',
					parameters: expect.objectContaining({
						properties: { note_id: { type: 'string', description: 'Note ID, digits as a string' } },
					}),
				},
			},
		]);
		expect(api()).toEqual([]);
	});
});

describe.each(AGENTS)('tool calls through n8n-core (%s)', (agent) => {
	const approveTool = {
		name: 'Approve proposal',
		parameters: {
			resource: 'proposal',
			operation: 'approve',
			proposalId: fromAI('proposal_id', 'ID of the proposal', 'number'),
		},
	};

	test('a good call reaches the service exactly; the model gets the item as JSON', async () => {
		setStatus(61001, 'Open');
		const { observations } = await callTool(agent, approveTool, [{ args: { proposal_id: 61001 } }]);
		expect(JSON.parse(observations[0])).toEqual([
			{ success: true, operation: 'approve', proposalId: 61001, status: 'approved' },
		]);
		expect(api().map((r) => `${r.method} ${r.path} ${r.status}`)).toEqual([
			'PUT /api/v3/proposals/61001/approve 204',
		]);
		expect(api()[0].body).toEqual({});
	});

	test('bad input from the model: which argument, which value, what to change; nothing sent', async () => {
		const { observations } = await callTool(agent, approveTool, [{ args: { proposal_id: 0 } }]);
		expect(errorOf(agent, observations[0])).toBe(
			'Proposal ID must be a whole number of 1 or more, got 0; nothing was sent. Call the tool again with "proposal_id" set to a whole number of 1 or more.',
		);
		expect(api()).toEqual([]);
	});

	test('bad input set in the node, not by the model: calling again will not help, tell the user', async () => {
		const tool = {
			name: 'Put on hold',
			parameters: {
				resource: 'proposal',
				operation: 'putOnHold',
				proposalId: '61001',
				additionalFields: { userEmail: 'not-an-address' },
			},
		};
		const { observations } = await callTool(agent, tool, [{ args: {} }]);
		expect(errorOf(agent, observations[0])).toBe(
			'User Email must be an e-mail address like name@example.com, got "not-an-address"; nothing was sent. "User Email" is set in this tool\'s parameters, not by your arguments, so calling again will not help: tell the user to correct it.',
		);
		expect(api()).toEqual([]);
	});

	test('a 64-bit note ID passed as a JSON number has lost digits: the model is told to pass a string; a string keeps every digit', async () => {
		const readNote = (name, type) => ({
			name,
			parameters: {
				resource: 'workOrderNote',
				operation: 'get',
				workOrderId: {
					__rl: true,
					mode: 'id',
					value: fromAI('work_order_id', 'Work order', 'number'),
				},
				noteId: fromAI('note_id', 'Note ID', type),
			},
		});
		const { observations } = await callTool(
			agent,
			[readNote('Read note by number', 'number'), readNote('Read note', 'string')],
			[
				{
					tool: 'Read_note_by_number',
					args: { work_order_id: 90000005, note_id: 9007199254740993 },
				},
				{ tool: 'Read_note', args: { work_order_id: 90000005, note_id: '9007199254740993' } },
			],
		);
		expect(errorOf(agent, observations[0])).toBe(
			'Note ID must be a whole number from 1 to 9223372036854775807, given as a string of digits, got 9007199254740992; nothing was sent. Call the tool again with "note_id" set to a whole number from 1 to 9223372036854775807, given as a string of digits.',
		);
		expect(JSON.parse(observations[1])[0].Id).toBe('9007199254740993');
		expect(api().map((r) => r.path)).toEqual([
			'/api/v3/odata/workorders(90000005)/notes(9007199254740993)',
		]);
	});

	test('the service refuses (over the approval limit, 400 code 100): which proposal, its reason, nothing changed, who can approve it', async () => {
		const { observations } = await callTool(agent, approveTool, [
			{ args: { proposal_id: env.fixtures.proposals.overLimit } },
		]);
		const message = errorOf(agent, observations[0]);
		const refused = api();
		expect(refused.map((r) => `${r.method} ${r.path} ${r.status}`)).toEqual([
			'PUT /api/v3/proposals/61005/approve 400',
		]);
		const serviceWords = JSON.parse(refused[0].responseBody).ErrorMessage;
		expect(message).toBe(
			`The Work Order Service refused to approve proposal 61005 (400 Bad Request): ${serviceWords} (error code 100). Nothing changed. The same call will be refused again: tell the user that a user with a higher approval limit must approve it.`,
		);
		expect(env.emulator.state.proposals[61005].Status).toBe('Open');
	});

	test('a move to the status the proposal already has (400 code 503): the model is told nothing needs doing and not to repeat the call', async () => {
		setStatus(61006, 'Approved');
		const { observations } = await callTool(agent, approveTool, [{ args: { proposal_id: 61006 } }]);
		expect(api().map((r) => `${r.method} ${r.path} ${r.status}`)).toEqual([
			'PUT /api/v3/proposals/61006/approve 400',
		]);
		expect(errorOf(agent, observations[0])).toBe(
			"The Work Order Service refused to approve proposal 61006 (400 Bad Request): Proposal 61006 is already approved (error code 503). Nothing changed. Do not repeat the same call: if the service's reason says the proposal already has that status, nothing needs doing; if it names a value you passed, call again with that value corrected; otherwise tell the user the service's reason.",
		);
	});

	test("an invoice under multi-level approval (400 NotAllowed): which invoice, the service's reason, not to call again", async () => {
		const invoiceTool = {
			name: 'Approve invoice',
			parameters: {
				resource: 'invoice',
				operation: 'approve',
				invoiceId: {
					__rl: true,
					mode: 'id',
					value: fromAI('invoice_id', 'ID of the invoice', 'number'),
				},
			},
		};
		const id = env.fixtures.invoices.mliOpen;
		const { observations } = await callTool(agent, invoiceTool, [{ args: { invoice_id: id } }]);
		const refused = api();
		expect(refused.map((r) => `${r.method} ${r.path} ${r.status}`)).toEqual([
			`PUT /api/v3/invoices/${id}/approve 400`,
		]);
		const serviceWords = JSON.parse(refused[0].responseBody).ErrorMessage;
		expect(errorOf(agent, observations[0])).toBe(
			`The Work Order Service refused to approve invoice ${id} (400 Bad Request): ${serviceWords} (error code NotAllowed). Nothing changed. Calling again will not help: tell the user the service's reason (an invoice under multi-level approval is moved in the service by its approval levels).`,
		);
	});

	test('an unknown proposal (400 code 502): the model is told to check the ID it passed', async () => {
		const { observations } = await callTool(agent, approveTool, [{ args: { proposal_id: 69999 } }]);
		expect(api().map((r) => r.status)).toEqual([400]);
		expect(errorOf(agent, observations[0])).toBe(
			'The Work Order Service refused to approve proposal 69999 (400 Bad Request): Proposal 69999 was not found (error code 502). Nothing changed. Check the proposal ID you passed: no proposal with it exists for this account. Call again only with a corrected ID.',
		);
	});

	test('an invoiced work order (400 code 503) and an unknown work order (404) say what to do', async () => {
		const getTool = {
			name: 'Get work order',
			parameters: {
				resource: 'workOrder',
				operation: 'get',
				workOrderId: { __rl: true, mode: 'id', value: fromAI('id', 'Work order ID', 'number') },
			},
		};
		const invoiced = await callTool(agent, approveTool, [
			{ args: { proposal_id: env.fixtures.proposals.invoiced } },
		]);
		expect(errorOf(agent, invoiced.observations[0])).toMatch(
			/^The Work Order Service refused to approve proposal 61003 \(400 Bad Request\): .*invoiced \(error code 503\)\. Nothing changed\. Do not repeat the same call: .*otherwise tell the user the service's reason\.$/,
		);
		env.emulator.clearRequests();
		const missing = await callTool(agent, getTool, [{ args: { id: 99999999 } }]);
		expect(errorOf(agent, missing.observations[0])).toMatch(
			/^The Work Order Service answered 404 Not Found to GET \/workorders\/99999999: .*\. Nothing changed\. Check the IDs you passed: the record does not exist or this account cannot see it/,
		);
		expect(api().map((r) => r.status)).toEqual([404]);
	});

	test('Output (the tool variant): Simplified by default, Raw on request, Selected Fields with the ID', async () => {
		const getTool = (output) => ({
			name: 'Get work order',
			parameters: {
				resource: 'workOrder',
				operation: 'get',
				workOrderId: { __rl: true, mode: 'id', value: fromAI('id', 'Work order ID', 'number') },
				...output,
			},
		});
		const stored = env.emulator.workOrder(90000007);
		const read = async (output) => {
			const { observations } = await callTool(agent, getTool(output), [{ args: { id: 90000007 } }]);
			return JSON.parse(observations[0])[0];
		};
		const simplified = await read({});
		expect(Object.keys(simplified).length).toBeLessThanOrEqual(10);
		expect(simplified).toMatchObject({ Id: 90000007, Number: stored.Number });
		expect(simplified).not.toHaveProperty('Subscriber');
		const raw = await read({ output: 'raw' });
		expect(Object.keys(raw).length).toBeGreaterThan(10);
		const selected = await read({ output: 'selected', outputFields: ['Number', 'Priority'] });
		expect(selected).toEqual({ Id: 90000007, Number: stored.Number, Priority: stored.Priority });
	});

	test('a note whose POST got no answer: the model is told it may be recorded and not to call again blindly', async () => {
		env.emulator.dropNext({
			method: 'POST',
			path: '/api/v3/workorders/90000005/notes',
			afterProcessing: true,
		});
		const tool = {
			name: 'Add note',
			parameters: {
				resource: 'workOrderNote',
				operation: 'create',
				workOrderId: { __rl: true, mode: 'id', value: '90000005' },
				note: fromAI('text', 'Note text'),
			},
		};
		const { observations } = await callTool(agent, tool, [
			{ args: { text: 'Compressor replaced' } },
		]);
		expect(errorOf(agent, observations[0])).toMatch(
			/^No answer from the Work Order Service for POST \/workorders\/90000005\/notes \(\w+\)\. The service may or may not have recorded it\. Do not call again before checking that it is not there/,
		);
		expect(api().filter((r) => r.method === 'POST')).toHaveLength(1);
	});

	test('no secret reaches the model, even when the service echoes it', async () => {
		const { clientSecret, password } = support.passwordCredential(env.emulator);
		env.emulator.failNext({
			path: '/api/v3/proposals',
			status: 400,
			body: { ErrorCode: 1, ErrorMessage: `rejected ${clientSecret} for ${password}` },
		});
		const { result, observations } = await callTool(agent, approveTool, [
			{ args: { proposal_id: 61002 } },
		]);
		const message = errorOf(agent, observations[0]);
		expect(message).toMatch(
			/^The Work Order Service refused to approve proposal 61002 \(400 Bad Request\): rejected .* \(error code 1\)\. Nothing changed\. Do not repeat the same call: /,
		);
		const everything = JSON.stringify(result.run.data) + observations.join('');
		expect(everything).not.toContain(clientSecret);
		expect(everything).not.toContain(password);
	});

	test('with On Error "Continue" on the tool node the model gets the same self-contained message as an error item', async () => {
		const { observations } = await callTool(
			agent,
			{ ...approveTool, onError: 'continueRegularOutput' },
			[{ args: { proposal_id: -5 } }],
		);
		const [item] = JSON.parse(observations[0]);
		expect(item.error).toBe(
			'Proposal ID must be a whole number of 1 or more, got -5; nothing was sent. Call the tool again with "proposal_id" set to a whole number of 1 or more.',
		);
		expect(item.errorDescription).toBe(
			'Call the tool again with "proposal_id" set to a whole number of 1 or more.',
		);
		expect(api()).toEqual([]);
	});
});

describe.each(AGENTS)('downloads and proposal reads as tools (%s)', (agent) => {
	test("Download: the model gets the file's name, type and size and the record without its link, never the bytes; the answer says so", async () => {
		const tool = {
			name: 'Download proposal file',
			parameters: {
				resource: 'attachment',
				operation: 'download',
				source: 'proposal',
				proposalId: {
					__rl: true,
					mode: 'id',
					value: fromAI('proposal_id', 'Proposal ID', 'number'),
				},
				attachmentId: fromAI('attachment_id', 'Attachment ID', 'number'),
			},
		};
		const { observations } = await callTool(agent, tool, [
			{ args: { proposal_id: 61001, attachment_id: 660001 } },
		]);
		const answer = JSON.parse(observations[0]);
		expect(answer).toEqual([
			{
				Id: 660001,
				Description: 'Signed quote',
				Name: 'P-61001-quote.pdf',
				TimeStamp: expect.any(String),
				NoteId: null,
				Visibility: null,
				fileName: 'P-61001-quote.pdf',
				mimeType: 'application/pdf',
				fileSize: expect.any(Number),
				fileIncluded: false,
				note: expect.stringMatching(/never its bytes/),
			},
		]);
		expect(observations[0]).not.toContain('/v3/files/');
		expect(api().map((r) => `${r.method} ${r.path} ${r.status}`)).toEqual([
			'GET /api/v3/odata/proposals(61001)/attachments 200',
			'GET /api/v3/files/660001 200',
		]);
	});

	test('Get proposal: the compact proposal; an unknown ID tells the model what it means', async () => {
		const tool = {
			name: 'Get proposal',
			parameters: {
				resource: 'proposal',
				operation: 'get',
				proposalId: {
					__rl: true,
					mode: 'id',
					value: fromAI('proposal_id', 'Proposal ID', 'number'),
				},
			},
		};
		const { observations } = await callTool(agent, tool, [
			{ args: { proposal_id: 61005 } },
			{ args: { proposal_id: 69999 } },
		]);
		expect(JSON.parse(observations[0])).toEqual([
			expect.objectContaining({
				Id: 61005,
				Amount: 7500,
				Status: expect.objectContaining({ Primary: 'Open' }),
			}),
		]);
		expect(errorOf(agent, observations[1])).toMatch(/^Proposal 69999 was not found\. .*90 days/);
	});
});

describe.each(AGENTS)('operations that need a file (%s)', (agent) => {
	const wo = { __rl: true, mode: 'id', value: '90000005' };

	test('Add Attachment: a tool call carries no file; the model is told so and what to do instead; nothing sent', async () => {
		const tool = {
			name: 'Attach',
			parameters: {
				resource: 'workOrderNote',
				operation: 'addAttachment',
				workOrderId: wo,
				noteId: fromAI('note_id', 'Note ID'),
			},
		};
		const { observations } = await callTool(agent, tool, [
			{ args: { note_id: '9007199254740993' } },
		]);
		expect(errorOf(agent, observations[0])).toBe(
			'Add Attachment needs a file, but a tool call cannot carry one (this call has no binary field "data"), so nothing was sent. Do not call it again from the agent: tell the user that the file must be attached by a workflow in which an earlier node provides it (a download, an e-mail attachment or a form upload), or, if text is enough, add it as a work order note instead.',
		);
		expect(api()).toEqual([]);
	});

	test('Work Order Add Attachment: the same answer; nothing sent', async () => {
		const tool = {
			name: 'Attach to work order',
			parameters: {
				resource: 'workOrder',
				operation: 'addAttachment',
				workOrderId: {
					__rl: true,
					mode: 'id',
					value: fromAI('work_order_id', 'Work order ID', 'number'),
				},
			},
		};
		const { observations } = await callTool(agent, tool, [{ args: { work_order_id: 90000014 } }]);
		expect(errorOf(agent, observations[0])).toMatch(
			/^Add Attachment needs a file, but a tool call cannot carry one \(this call has no binary field "data"\), so nothing was sent\./,
		);
		expect(api()).toEqual([]);
	});

	test("Create a work order as a tool: the model's values reach the request, the new ID reaches the model", async () => {
		const tool = {
			name: 'Create work order',
			parameters: {
				resource: 'workOrder',
				operation: 'create',
				location: { __rl: true, mode: 'storeId', value: 'S501' },
				tradeName: 'HVAC',
				category: 'REPAIR',
				priority: 'P2 - Urgent',
				description: fromAI('description', 'What is wrong'),
				problemCode: 'NO COOLING',
				callDate: '={{ $now }}',
			},
		};
		const { observations } = await callTool(agent, tool, [
			{ args: { description: 'Walk-in cooler at 50F' } },
		]);
		const [post] = api();
		expect(post.body).toMatchObject({
			ContractInfo: { StoreId: 'S501', TradeName: 'HVAC' },
			Description: 'Walk-in cooler at 50F',
		});
		const created = JSON.parse(post.responseBody).id;
		expect(observations[0]).toContain(`"id":${created}`);
	});

	const checklist = (photo) => ({
		name: 'Answer question',
		parameters: {
			resource: 'checklistResponse',
			operation: 'submit',
			workOrderId: { __rl: true, mode: 'id', value: '90000001' },
			questionId: fromAI('question_id', 'Question ID', 'number'),
			questionType: 'acknowledgement',
			answer: fromAI('answer', 'yes or no'),
			providerId: '3001',
			technicianId: '4001',
			attempt: 1,
			binaryPropertyName: photo,
		},
	});

	test('a checklist answer set to carry a photo: the user must clear the photo field; nothing sent', async () => {
		const { observations } = await callTool(agent, checklist('data'), [
			{ args: { question_id: 9101, answer: 'yes' } },
		]);
		expect(errorOf(agent, observations[0])).toBe(
			'This checklist answer is set to include a photo from the binary field "data", but a tool call cannot carry a file, so nothing was sent. To answer without a photo, the user must clear "Photo Binary Field" in this tool; an answer that needs a photo must be given by a workflow that has the file. Tell the user.',
		);
		expect(api()).toEqual([]);
	});

	test('photo field filled by the model: told to call again with it empty, which then submits the answer', async () => {
		const { observations } = await callTool(
			agent,
			checklist(fromAI('photo', 'Binary field of a photo, or empty')),
			[
				{ args: { question_id: 9101, answer: 'yes', photo: 'data' } },
				{ args: { question_id: 9101, answer: 'yes', photo: '' } },
			],
		);
		expect(errorOf(agent, observations[0])).toBe(
			'This checklist answer is set to include a photo from the binary field "data", but a tool call cannot carry a file, so nothing was sent. Call the tool again with "photo" empty to submit the answer without a photo, unless the question requires one; an answer that needs a photo must be given by a workflow that has the file: tell the user.',
		);
		const [answered] = JSON.parse(observations[1]);
		expect(answered.CheckListResponse).toMatchObject({
			CheckListQuestionId: 9101,
			Answer: 'yes',
			EntityId: 90000001,
		});
		expect(api()).toHaveLength(1);
		const part = JSON.parse(
			api()[0]
				.parts.find((p) => p.name === 'CheckListResponseRequest')
				.data.toString('utf8'),
		);
		expect(part).toEqual({
			CheckListQuestionID: 9101,
			Answer: 'yes',
			ProviderID: 3001,
			TechnicianID: 4001,
			Attempt: 1,
			EntityID: 90000001,
		});
		expect(api()[0].parts.some((p) => p.name === 'file')).toBe(false);
	});

	test('a question that requires a photo, answered without one: the service refuses and the model is told to tell the user', async () => {
		const { observations } = await callTool(agent, checklist(''), [
			{ args: { question_id: env.fixtures.questions.pictureRequired, answer: 'yes' } },
		]);
		expect(errorOf(agent, observations[0])).toMatch(
			/^The Work Order Service answered 400 Bad Request to POST \/checklists\/CheckListResponse: Question 9105 requires a picture .* If the question requires a photo, a tool call cannot send one: tell the user\.$/,
		);
		expect(api().map((r) => r.status)).toEqual([400]);
	});
});

describe('in workflows nothing changes', () => {
	test('the same bad input in a workflow keeps its message and description', async () => {
		const r = await support.runNode(env.harness, {
			credentialId: CRED,
			parameters: { resource: 'proposal', operation: 'approve', proposalId: '0' },
		});
		expect(r.error).toBeInstanceOf(NodeOperationError);
		expect(r.error.message).toBe(
			'Invalid Proposal ID (parameter "proposalId") in item 0: must be 1 or greater, got "0"',
		);
		expect(r.error.description).toBe(
			'Fix the "Proposal ID" parameter for item 0. Nothing was sent to the service for this item.',
		);
	});

	test('Add Attachment in a workflow without the binary field keeps the workflow message', async () => {
		const r = await support.runNode(env.harness, {
			credentialId: CRED,
			parameters: {
				resource: 'workOrderNote',
				operation: 'addAttachment',
				workOrderId: 90000005,
				noteId: '15001',
				binaryPropertyName: 'data',
			},
		});
		expect(r.error.message).toBe(
			'Invalid Input Binary Field (parameter "binaryPropertyName") in item 0: the input item has no binary property "data", got "data"',
		);
		expect(api()).toEqual([]);
	});

	test('a service refusal in a workflow keeps its message and description', async () => {
		const r = await support.runNode(env.harness, {
			credentialId: CRED,
			parameters: { resource: 'proposal', operation: 'approve', proposalId: '61005' },
		});
		expect(r.error.message).toBe(
			'The Work Order Service refused to approve proposal 61005 (400 Bad Request): Proposal 61005 cannot be approved: its amount 7500 USD exceeds your approval limit of 5000 USD (error code 100)',
		);
		expect(r.error.description).toBe(
			"Error code 100: the proposal's amount is above the approval limit of the credential's user. Nothing changed. A user with a higher approval limit must approve it (in the service, or with a credential of that user).",
		);
		// the agent's words are not added in a workflow
		expect(`${r.error.message} ${r.error.description}`).not.toMatch(/same call|tell the user/);
	});
});
