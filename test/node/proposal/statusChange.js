'use strict';
/**
 * What the four proposal status changes share (not a test file): reopen, putOnHold, approve and
 * reject each send PUT /proposals/{id}/{open|onhold|approve|reject} with an
 * UpdateProposalStatusRequest JSON body, and 204 becomes { success: true, operation, proposalId, status }.
 * The service refuses a move to the status the proposal already has (400, code 503), so each test
 * first puts its proposals in another status (`awayFrom`). The refusals every move has (already in
 * that status, an approval-level user, a provider user, no such proposal) come back as a
 * NodeApiError that says which proposal was not moved, the service's words and code, and what the
 * code means. Each operation's file (reopen.test.js, putOnHold.test.js, approve.test.js,
 * reject.test.js) calls these inside its own describe, with its own emulator and harness.
 */
const { NodeApiError } = require('n8n-workflow');
const {
	items,
	expectBearer,
	expectJsonRequest,
	pairedIndexes,
	expectValidationError,
	expectApiError,
	support,
} = require('../helpers');

const OPS = {
	reopen: {
		path: 'open',
		status: 'open',
		state: 'Open',
		doing: 'reopen proposal',
		after: '',
		verb: 'reopened',
		already: 'open',
	},
	putOnHold: {
		path: 'onhold',
		status: 'onHold',
		state: 'OnHold',
		doing: 'put proposal',
		after: ' on hold',
		verb: 'put on hold',
		already: 'on hold',
	},
	approve: {
		path: 'approve',
		status: 'approved',
		state: 'Approved',
		doing: 'approve proposal',
		after: '',
		verb: 'approved',
		already: 'approved',
	},
	reject: {
		path: 'reject',
		status: 'rejected',
		state: 'Rejected',
		doing: 'reject proposal',
		after: '',
		verb: 'rejected',
		already: 'rejected',
	},
};

/** "The Work Order Service refused to approve proposal 61005 (400 Bad Request): " */
function refusedPrefix(operation, id) {
	const op = OPS[operation];
	return `The Work Order Service refused to ${op.doing} ${id}${op.after} (400 Bad Request): `;
}

/** Puts each proposal in a status other than the move's target (the service refuses a move to the current one). */
function awayFrom(env, operation, ...ids) {
	const other = OPS[operation].state === 'Open' ? 'OnHold' : 'Open';
	for (const id of ids)
		if (env.emulator.state.proposals[id].Status === OPS[operation].state)
			env.emulator.setProposalStatus(id, other);
}

/**
 * A move the service refused: one PUT (not retried), a NodeApiError for item `item` with HTTP 400,
 * the message naming the proposal and the move with the service's words and code, the code's
 * meaning in the description, nothing changed in the service.
 */
function expectRefusedMove(env, r, { operation, id, words, code, means, item = 0 }) {
	expectApiError(r, { status: 400, serviceMessage: words, code, item });
	expect(r.error.message).toBe(`${refusedPrefix(operation, id)}${words} (error code ${code})`);
	expect(r.error.description).toContain(`Error code ${code}: `);
	expect(r.error.description).toMatch(means);
	expect(r.error.description).toContain('Nothing changed.');
	expect(r.output).toEqual([]);
}

function params(operation, proposalId, additionalFields = {}) {
	return { resource: 'proposal', operation, proposalId, additionalFields };
}

const notificationsSince = (env, n) => env.emulator.state.notifications.slice(n);

/** The behaviour every status change has: body, output, state, notifications, items, errors. */
function statusChangeTests(env, operation) {
	const op = OPS[operation];
	// the open proposal is within the subscriber's approval limit and has a work order
	const id = 61001;

	test('PUT with the JSON body built from additionalFields; 204 becomes { success, operation, proposalId, status }', async () => {
		awayFrom(env, operation, id);
		const fields = {
			comments: `Comments for ${operation}`,
			providerEmail: 'dispatch.lead@acme-fs.example',
			userEmail: 'store.manager@demo-retail.example',
			actionSource: 'DecisionEngine',
		};
		if (operation === 'approve') fields.reasonString = 'Within budget';
		if (operation === 'reject') fields.rejectReasonCodeId = 2;
		const notes = (env.emulator.state.notes[90000006] || []).length;
		const sent = env.emulator.state.notifications.length;
		const r = await env.run({ parameters: params(operation, id, fields) });
		expect(r.error).toBeUndefined();
		expect(r.result.status).toBe('success');
		expect(r.api).toHaveLength(1);
		const request = r.api[0];
		const body = {
			Comments: `Comments for ${operation}`,
			ProviderEmail: 'dispatch.lead@acme-fs.example',
			UserEmail: 'store.manager@demo-retail.example',
			ActionSource: 'DecisionEngine',
		};
		if (operation === 'approve') body.ReasonString = 'Within budget';
		if (operation === 'reject') body.RejectReasonCodeId = 2;
		expectJsonRequest(request, {
			method: 'PUT',
			path: `/api/v3/proposals/${id}/${op.path}`,
			query: {},
			body,
		});
		expect(request.status).toBe(204);
		expectBearer(env, request);

		expect(r.output).toEqual([
			{
				json: { success: true, operation, proposalId: id, status: op.status },
				pairedItem: { item: 0 },
			},
		]);

		// the service's state changed, with the fields recorded
		const proposal = env.emulator.state.proposals[id];
		expect(proposal.Status).toBe(op.state);
		expect(proposal.ActionSource).toBe('DecisionEngine');
		const last = proposal.history.at(-1);
		expect(last).toMatchObject({
			action: op.path,
			to: op.state,
			by: 'demo.subscriber',
			comments: `Comments for ${operation}`,
			providerEmail: 'dispatch.lead@acme-fs.example',
			userEmail: 'store.manager@demo-retail.example',
			actionSource: 'DecisionEngine',
			reasonString: operation === 'approve' ? 'Within budget' : null,
			rejectReasonCodeId: operation === 'reject' ? 2 : null,
		});
		if (operation === 'reject') expect(proposal.RejectReasonCodeId).toBe(2);
		// Comments (and the approval reason) went to the work order notes
		const woNotes = env.emulator.state.notes[90000006];
		expect(woNotes).toHaveLength(notes + 1);
		expect(woNotes.at(-1).NoteData).toContain(`Comments: Comments for ${operation}`);
		if (operation === 'approve') expect(woNotes.at(-1).NoteData).toContain('Reason: Within budget');
		if (operation === 'reject')
			expect(woNotes.at(-1).NoteData).toContain('Reject reason: Scope of work not approved.');
		// the notification went to the given recipients
		expect(notificationsSince(env, sent)).toEqual([
			expect.objectContaining({
				type: 'proposal',
				proposalId: id,
				action: op.path,
				status: op.state,
				providerRecipients: ['dispatch.lead@acme-fs.example'],
				userRecipients: ['store.manager@demo-retail.example'],
				useProposalAlertEmails: false,
			}),
		]);
	});

	test('empty additionalFields still sends a JSON body ({}) and default recipients are notified', async () => {
		awayFrom(env, operation, 61002);
		const sent = env.emulator.state.notifications.length;
		const r = await env.run({ parameters: params(operation, 61002) });
		expect(r.error).toBeUndefined();
		expect(r.api).toHaveLength(1);
		const request = r.api[0];
		expectJsonRequest(request, {
			method: 'PUT',
			path: `/api/v3/proposals/61002/${op.path}`,
			query: {},
			body: {},
		});
		expect(request.rawBody.toString('utf8')).toBe('{}');
		expect(request.status).toBe(204);
		expect(r.output).toEqual([
			{
				json: { success: true, operation, proposalId: 61002, status: op.status },
				pairedItem: { item: 0 },
			},
		]);
		expect(env.emulator.state.proposals[61002].Status).toBe(op.state);
		expect(notificationsSince(env, sent)).toEqual([
			expect.objectContaining({
				proposalId: 61002,
				action: op.path,
				providerRecipients: ['dispatch@acme-fs.example'],
				userRecipients: ['sam.subscriber@demo-retail.example'],
			}),
		]);
	});

	test('several input items -> one PUT per item, outputs paired', async () => {
		awayFrom(env, operation, 61006, 61007, 61008);
		const r = await env.run({
			parameters: params(operation, '={{ $json.id }}', { comments: '={{ "batch " + $json.id }}' }),
			items: items({ id: 61006 }, { id: 61007 }, { id: 61008 }),
		});
		expect(r.error).toBeUndefined();
		expect(r.api.map((q) => [q.method, q.path, q.body])).toEqual([
			['PUT', `/api/v3/proposals/61006/${op.path}`, { Comments: 'batch 61006' }],
			['PUT', `/api/v3/proposals/61007/${op.path}`, { Comments: 'batch 61007' }],
			['PUT', `/api/v3/proposals/61008/${op.path}`, { Comments: 'batch 61008' }],
		]);
		expect(r.output.map((o) => o.json)).toEqual(
			[61006, 61007, 61008].map((p) => ({
				success: true,
				operation,
				proposalId: p,
				status: op.status,
			})),
		);
		expect(pairedIndexes(r.output)).toEqual([0, 1, 2]);
		for (const p of [61006, 61007, 61008])
			expect(env.emulator.state.proposals[p].Status).toBe(op.state);
	});

	test('Continue On Fail: a bad ID yields { json: { error } } without a request; the others succeed', async () => {
		awayFrom(env, operation, 61006, 61007);
		const r = await env.run({
			parameters: params(operation, '={{ $json.id }}'),
			items: items({ id: 61006 }, { id: -3 }, { id: 61007 }),
			continueOnFail: true,
		});
		expect(r.result.status).toBe('success');
		expect(r.api.map((q) => q.path)).toEqual([
			`/api/v3/proposals/61006/${op.path}`,
			`/api/v3/proposals/61007/${op.path}`,
		]);
		expect(r.output).toHaveLength(3);
		expect(pairedIndexes(r.output)).toEqual([0, 1, 2]);
		expect(r.output[0].json).toEqual({
			success: true,
			operation,
			proposalId: 61006,
			status: op.status,
		});
		expect(r.output[2].json).toEqual({
			success: true,
			operation,
			proposalId: 61007,
			status: op.status,
		});
		expect(r.output[1].json.error).toContain(
			'Invalid Proposal ID (parameter "proposalId") in item 1',
		);
		expect(r.output[1].json).not.toHaveProperty('success');
	});

	test('an unknown proposal: the service refuses with 400, code 502; the error says which proposal and what the code means', async () => {
		const r = await env.run({ parameters: params(operation, 69999) });
		expect(r.api.map((q) => [q.method, q.path, q.status])).toEqual([
			['PUT', `/api/v3/proposals/69999/${op.path}`, 400],
		]);
		expectRefusedMove(env, r, {
			operation,
			id: 69999,
			words: 'Proposal 69999 was not found',
			code: 502,
			means: /no such proposal for this user.*Check the proposal ID/,
		});
	});

	test('a move to the status the proposal already has: sent (no pre-check), refused with 400, code 503, nothing changed', async () => {
		env.emulator.setProposalStatus(61001, op.state);
		const history = env.emulator.state.proposals[61001].history.length;
		const sent = env.emulator.state.notifications.length;
		const r = await env.run({ parameters: params(operation, 61001, { comments: 'once more' }) });
		expect(r.api).toHaveLength(1); // sent once: no read before it, no retry after it
		expectJsonRequest(r.api[0], {
			method: 'PUT',
			path: `/api/v3/proposals/61001/${op.path}`,
			body: { Comments: 'once more' },
		});
		expect(r.api[0].status).toBe(400);
		expectRefusedMove(env, r, {
			operation,
			id: 61001,
			words: `Proposal 61001 is already ${op.already}`,
			code: 503,
			means:
				/the proposal already has that status.*A proposal that already has the status needs nothing/,
		});
		expect(env.emulator.state.proposals[61001].Status).toBe(op.state);
		expect(env.emulator.state.proposals[61001].history).toHaveLength(history);
		expect(notificationsSince(env, sent)).toEqual([]);
	});

	test('an approval-level (MLP) user: every move refused with 400, code 503', async () => {
		awayFrom(env, operation, 61001);
		const before = env.emulator.state.proposals[61001].Status;
		const r = await env.run({
			parameters: params(operation, 61001),
			credentialId: 'cred-approver',
			credentialData: support.passwordCredential(env.emulator, 'approvalLevel'),
		});
		expect(r.api.map((q) => [q.method, q.path, q.status])).toEqual([
			['PUT', `/api/v3/proposals/61001/${op.path}`, 400],
		]);
		expectBearer(env, r.api[0], 'demo.approver', 'cred-approver');
		expectRefusedMove(env, r, {
			operation,
			id: 61001,
			words:
				'User demo.approver is an approval-level (MLP) user: proposal status changes are not available to approval-level users through the API',
			code: 503,
			means: /approval-level \(MLP\) user/,
		});
		expect(env.emulator.state.proposals[61001].Status).toBe(before);
	});

	test('a provider user (contractor login): refused with 400, code 401 "only subscriber users"', async () => {
		awayFrom(env, operation, 61001);
		const r = await env.run({
			parameters: params(operation, 61001),
			authentication: 'contractor',
			credentialId: 'cred-contractor',
			credentialData: support.contractorCredential(env.emulator),
		});
		expect(r.api.map((q) => [q.method, q.path, q.status])).toEqual([
			['PUT', `/api/v3/proposals/61001/${op.path}`, 400],
		]);
		expectRefusedMove(env, r, {
			operation,
			id: 61001,
			words:
				'Invalid subscriber: only subscriber users may change the status of a proposal, and demo.contractor is a provider user',
			code: 401,
			means:
				/only subscriber users may change a proposal's status.*Use a credential of a subscriber user/,
		});
	});

	test('Continue On Fail: a refused move is an error item with the words, what the code means and HTTP 400; the other items are moved', async () => {
		awayFrom(env, operation, 61006, 61008);
		env.emulator.setProposalStatus(61007, op.state);
		const r = await env.run({
			parameters: params(operation, '={{ $json.id }}'),
			items: items({ id: 61006 }, { id: 61007 }, { id: 61008 }),
			continueOnFail: true,
		});
		expect(r.result.status).toBe('success');
		expect(r.api.map((q) => [q.path, q.status])).toEqual(
			[61006, 61007, 61008].map((p, k) => [
				`/api/v3/proposals/${p}/${op.path}`,
				k === 1 ? 400 : 204,
			]),
		);
		expect(pairedIndexes(r.output)).toEqual([0, 1, 2]);
		expect(r.output[0].json).toEqual({
			success: true,
			operation,
			proposalId: 61006,
			status: op.status,
		});
		expect(r.output[2].json).toEqual({
			success: true,
			operation,
			proposalId: 61008,
			status: op.status,
		});
		expect(r.output[1].json).toEqual({
			error: `${refusedPrefix(operation, 61007)}Proposal 61007 is already ${op.already} (error code 503)`,
			errorDescription: expect.stringMatching(
				/^Error code 503: the proposal already has that status.*Nothing changed\./,
			),
			httpCode: '400',
		});
		expect(env.emulator.state.proposals[61007].Status).toBe(op.state);
	});

	test('without Continue On Fail: the refused item stops the run, and the report says it was not moved while the others were', async () => {
		awayFrom(env, operation, 61006, 61008);
		env.emulator.setProposalStatus(61007, op.state);
		const r = await env.run({
			parameters: params(operation, '={{ $json.id }}'),
			items: items({ id: 61006 }, { id: 61007 }, { id: 61008 }),
		});
		expect(r.error).toBeInstanceOf(NodeApiError);
		expect(r.error.message).toBe(
			`${refusedPrefix(operation, 61007)}Proposal 61007 is already ${op.already} (error code 503)`,
		);
		expect(r.error.context.itemIndex).toBe(1);
		expect(r.error.description).toContain(`Item 1 of 3 failed; it was not ${op.verb}.`);
		expect(r.error.description).toContain(
			`Items 0 and 2 were ${op.verb} (the service recorded them).`,
		);
		expect(r.api.map((q) => q.status).sort()).toEqual([204, 204, 400]);
	});

	test('a move the service made before answering 500 is sent again and refused as "already ...": the error says the first attempt may have made it, the report "may have been"', async () => {
		awayFrom(env, operation, 61001, 61006);
		env.emulator.failNext({
			method: 'PUT',
			path: `/api/v3/proposals/61001/${op.path}`,
			status: 500,
			afterProcessing: true,
			body: 'Internal failure',
		});
		const r = await env.run({
			parameters: params(operation, '={{ $json.id }}'),
			items: items({ id: 61001 }, { id: 61006 }),
		});
		const first = r.api.filter((q) => q.path === `/api/v3/proposals/61001/${op.path}`);
		expect(first.map((q) => q.status)).toEqual([500, 400]);
		expect(env.emulator.state.proposals[61001].Status).toBe(op.state); // the first attempt made the move
		expect(r.error).toBeInstanceOf(NodeApiError);
		expect(r.error.context.itemIndex).toBe(0);
		expect(r.error.message).toBe(
			`${refusedPrefix(operation, 61001)}Proposal 61001 is already ${op.already} (error code 503)`,
		);
		expect(r.error.description).toContain(
			'An earlier attempt of this request was sent and got no answer or a server error, so it was sent again (2 attempts): the service may have made the move on that earlier attempt',
		);
		expect(r.error.description).not.toContain('Nothing changed');
		expect(r.error.description).toContain(
			`Item 0 of 2 failed after its request was sent, so it may have been ${op.verb}.`,
		);
		expect(r.error.description).toContain(`Item 1 was ${op.verb} (the service recorded it).`);
	});

	test('useProposalAlertEmails is sent as a query parameter only on reject', async () => {
		awayFrom(env, operation, 61006);
		const r = await env.run({
			parameters: params(operation, 61006, { useProposalAlertEmails: true }),
		});
		expect(r.error).toBeUndefined();
		expect(r.api).toHaveLength(1);
		if (operation === 'reject') expect(r.api[0].query).toEqual({ useProposalAlertEmails: 'true' });
		else expect(r.api[0].query).toEqual({});
		expect(r.api[0].body).toEqual({});
	});
}

/**
 * Validation before any request: item 0 is good (sent), item 1 carries the bad value (refused,
 * naming the parameter and the item). cases: [name, operation, bad values, parameter, problem].
 */
function validationTests(env, cases) {
	test.each(cases)('%s (%s)', async (_name, operation, bad, parameter, problem) => {
		const good = {
			id: 61006,
			providerEmail: '',
			userEmail: '',
			actionSource: 'Standard',
			rejectReasonCodeId: '',
			useProposalAlertEmails: false,
		};
		const value = { ...good, ...bad };
		const fields = {
			providerEmail: '={{ $json.providerEmail }}',
			userEmail: '={{ $json.userEmail }}',
			actionSource: '={{ $json.actionSource }}',
		};
		if (operation === 'reject') {
			fields.rejectReasonCodeId = '={{ $json.rejectReasonCodeId }}';
			fields.useProposalAlertEmails = '={{ $json.useProposalAlertEmails }}';
		}
		awayFrom(env, operation, 61006);
		const r = await env.run({
			parameters: params(operation, '={{ $json.id }}', fields),
			items: items(good, value),
		});
		expectValidationError(r, { parameter, item: 1, problem });
		expect(r.api).toHaveLength(1); // item 0 only
		expect(r.api[0].path).toBe(`/api/v3/proposals/61006/${OPS[operation].path}`);
		expect(r.api[0].body).toEqual({ ActionSource: 'Standard' });
		expect(r.output).toEqual([]);
	});
}

module.exports = {
	OPS,
	params,
	notificationsSince,
	awayFrom,
	refusedPrefix,
	expectRefusedMove,
	statusChangeTests,
	validationTests,
};
