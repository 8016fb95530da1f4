'use strict';
/**
 * What the four proposal status changes share (not a test file): reopen, putOnHold, approve and
 * reject each send PUT /proposals/{id}/{open|onhold|approve|reject} with an
 * UpdateProposalStatusRequest JSON body, and 204 becomes { proposalId, status, success: true }.
 * Each operation's file (reopen.test.js, putOnHold.test.js, approve.test.js, reject.test.js) calls
 * these inside its own describe, with its own emulator and harness.
 */
const { items, expectBearer, expectJsonRequest, pairedIndexes, expectValidationError, expectApiError } = require('../helpers');

const OPS = {
	reopen: { path: 'open', status: 'open', state: 'Open' },
	putOnHold: { path: 'onhold', status: 'onHold', state: 'OnHold' },
	approve: { path: 'approve', status: 'approved', state: 'Approved' },
	reject: { path: 'reject', status: 'rejected', state: 'Rejected' },
};

function params(operation, proposalId, additionalFields = {}) {
	return { resource: 'proposal', operation, proposalId, additionalFields };
}

const notificationsSince = (env, n) => env.emulator.state.notifications.slice(n);

/** The behaviour every status change has: body, output, state, notifications, items, errors. */
function statusChangeTests(env, operation) {
	const op = OPS[operation];
	// the open proposal is within the subscriber's approval limit and has a work order
	const id = 61001;

	test('PUT with the JSON body built from additionalFields; 204 becomes { proposalId, status, success }', async () => {
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
		expectJsonRequest(request, { method: 'PUT', path: `/api/v3/proposals/${id}/${op.path}`, query: {}, body });
		expect(request.status).toBe(204);
		expectBearer(env, request);

		expect(r.output).toEqual([{ json: { proposalId: id, status: op.status, success: true }, pairedItem: { item: 0 } }]);

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
		if (operation === 'reject') expect(woNotes.at(-1).NoteData).toContain('Reject reason: Scope of work not approved.');
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
		const sent = env.emulator.state.notifications.length;
		const r = await env.run({ parameters: params(operation, 61002) });
		expect(r.error).toBeUndefined();
		expect(r.api).toHaveLength(1);
		const request = r.api[0];
		expectJsonRequest(request, { method: 'PUT', path: `/api/v3/proposals/61002/${op.path}`, query: {}, body: {} });
		expect(request.rawBody.toString('utf8')).toBe('{}');
		expect(request.status).toBe(204);
		expect(r.output).toEqual([{ json: { proposalId: 61002, status: op.status, success: true }, pairedItem: { item: 0 } }]);
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
		expect(r.output.map((o) => o.json)).toEqual([61006, 61007, 61008].map((p) => ({ proposalId: p, status: op.status, success: true })));
		expect(pairedIndexes(r.output)).toEqual([0, 1, 2]);
		for (const p of [61006, 61007, 61008]) expect(env.emulator.state.proposals[p].Status).toBe(op.state);
	});

	test('Continue On Fail: a bad ID yields { json: { error } } without a request; the others succeed', async () => {
		const r = await env.run({
			parameters: params(operation, '={{ $json.id }}'),
			items: items({ id: 61006 }, { id: -3 }, { id: 61007 }),
			continueOnFail: true,
		});
		expect(r.result.status).toBe('success');
		expect(r.api.map((q) => q.path)).toEqual([`/api/v3/proposals/61006/${op.path}`, `/api/v3/proposals/61007/${op.path}`]);
		expect(r.output).toHaveLength(3);
		expect(pairedIndexes(r.output)).toEqual([0, 1, 2]);
		expect(r.output[0].json).toEqual({ proposalId: 61006, status: op.status, success: true });
		expect(r.output[2].json).toEqual({ proposalId: 61007, status: op.status, success: true });
		expect(r.output[1].json.error).toContain('Invalid Proposal ID (parameter "proposalId") in item 1');
		expect(r.output[1].json).not.toHaveProperty('success');
	});

	test('an unknown proposal is a NodeApiError with the service message', async () => {
		const r = await env.run({ parameters: params(operation, 69999) });
		expectApiError(r, { status: 404, serviceMessage: 'Proposal 69999 was not found', code: 5004 });
		expect(r.output).toEqual([]);
	});

	test('useProposalAlertEmails is sent as a query parameter only on reject', async () => {
		const r = await env.run({ parameters: params(operation, 61006, { useProposalAlertEmails: true }) });
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
		const good = { id: 61006, providerEmail: '', userEmail: '', actionSource: 'Standard', rejectReasonCodeId: '', useProposalAlertEmails: false };
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

module.exports = { OPS, params, notificationsSince, statusChangeTests, validationTests };
