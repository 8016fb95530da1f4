'use strict';
/**
 * proposal.reopen / putOnHold / approve / reject through n8n-core against the emulator:
 * PUT /proposals/{id}/{open|onhold|approve|reject} with an UpdateProposalStatusRequest JSON body,
 * 204 -> { proposalId, status, success: true }, state and notifications in the emulator, refused
 * approvals as NodeApiError, the rejection-reason dropdown (loadOptions), and validation.
 */
const {
	useEnvironment,
	items,
	expectBearer,
	expectJsonRequest,
	pairedIndexes,
	expectValidationError,
	expectApiError,
	loadOptions,
} = require('./helpers');

const env = useEnvironment();

const OPS = {
	reopen: { path: 'open', status: 'open', state: 'Open' },
	putOnHold: { path: 'onhold', status: 'onHold', state: 'OnHold' },
	approve: { path: 'approve', status: 'approved', state: 'Approved' },
	reject: { path: 'reject', status: 'rejected', state: 'Rejected' },
};

function params(operation, proposalId, additionalFields = {}) {
	return { resource: 'proposal', operation, proposalId, additionalFields };
}

const notificationsSince = (n) => env.emulator.state.notifications.slice(n);

describe.each(Object.entries(OPS))('proposal.%s', (operation, op) => {
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
		expect(notificationsSince(sent)).toEqual([
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
		expect(notificationsSince(sent)).toEqual([
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
});

describe('proposal.reject: rejection reason and proposal alert e-mails', () => {
	test('useProposalAlertEmails=true without e-mails: the alert list is notified', async () => {
		const sent = env.emulator.state.notifications.length;
		const r = await env.run({
			parameters: params('reject', 61008, { rejectReasonCodeId: 1, useProposalAlertEmails: true, comments: 'Too expensive' }),
		});
		expect(r.error).toBeUndefined();
		expectJsonRequest(r.api[0], {
			method: 'PUT',
			path: '/api/v3/proposals/61008/reject',
			query: { useProposalAlertEmails: 'true' },
			body: { RejectReasonCodeId: 1, Comments: 'Too expensive' },
		});
		expect(env.emulator.state.proposals[61008]).toMatchObject({ Status: 'Rejected', RejectReasonCodeId: 1 });
		expect(notificationsSince(sent)).toEqual([
			expect.objectContaining({
				action: 'reject',
				proposalId: 61008,
				useProposalAlertEmails: true,
				userRecipients: env.fixtures.subscribers.proposalAlertEmails[1001],
				providerRecipients: ['office@bright-hvac.example'],
			}),
		]);
		expect(r.output).toEqual([{ json: { proposalId: 61008, status: 'rejected', success: true }, pairedItem: { item: 0 } }]);
	});

	test('useProposalAlertEmails=false is sent as false', async () => {
		const r = await env.run({ parameters: params('reject', 61008, { useProposalAlertEmails: false }) });
		expect(r.error).toBeUndefined();
		expect(r.api[0].query).toEqual({ useProposalAlertEmails: 'false' });
	});

	test('useProposalAlertEmails with an explicit User Email: the service ignores the alert list', async () => {
		const sent = env.emulator.state.notifications.length;
		const r = await env.run({
			parameters: params('reject', 61008, { useProposalAlertEmails: true, userEmail: 'buyer@demo-retail.example' }),
		});
		expect(r.error).toBeUndefined();
		expect(r.api[0].query).toEqual({ useProposalAlertEmails: 'true' });
		expect(r.api[0].body).toEqual({ UserEmail: 'buyer@demo-retail.example' });
		expect(notificationsSince(sent)[0]).toMatchObject({ useProposalAlertEmails: false, userRecipients: ['buyer@demo-retail.example'] });
	});

	test('an unknown rejection reason code is refused by the service (NodeApiError)', async () => {
		const r = await env.run({ parameters: params('reject', 61008, { rejectReasonCodeId: 99 }) });
		expect(r.api[0].body).toEqual({ RejectReasonCodeId: 99 });
		expectApiError(r, { status: 400, serviceMessage: 'RejectReasonCodeId 99 is not a known rejection reason', code: 4007 });
	});

	test('the rejection-reason dropdown: loadOptions.getRejectionReasons through n8n-core LoadOptionsContext', async () => {
		const options = await loadOptions(
			env,
			'getRejectionReasons',
			{ resource: 'proposal', operation: 'reject', proposalId: 61001, additionalFields: {} },
			'additionalFields.rejectReasonCodeId',
		);
		const api = env.emulator.requests.filter((q) => q.path.startsWith('/api/'));
		expect(api).toHaveLength(1);
		expect(api[0].method).toBe('GET');
		expect(api[0].path).toBe('/api/v3/proposals/RejectionReasons');
		expect(api[0].query).toEqual({});
		expectBearer(env, api[0]);
		expect(options).toEqual([
			{ name: 'Duplicate proposal (DUPLICATE)', value: 3 },
			{ name: 'Other (OTHER)', value: 5 },
			{ name: 'Price is too high (PRICE_TOO_HIGH)', value: 1 },
			{ name: 'Scope of work not approved (SCOPE_NOT_APPROVED)', value: 2 },
			{ name: 'Work no longer needed (WORK_NOT_NEEDED)', value: 4 },
		]);
		// every offered value is a reason the service accepts
		expect(options.map((o) => o.value).sort()).toEqual(env.fixtures.rejectionReasons.map((x) => x.Id).sort());
	});
});

describe('proposal.approve: refusals carry the service message', () => {
	const cases = [
		['the work order is invoiced', 61003, 409, 'Proposal 61003 cannot be approved: work order 90000007 is already invoiced', 4002],
		['no work order is linked', 61004, 409, 'Proposal 61004 cannot be approved: no work order is linked to it', 4003],
		['over the approval limit', 61005, 403, 'Proposal 61005 cannot be approved: its amount 7500 USD exceeds your approval limit of 5000 USD', 4004],
	];
	test.each(cases)('%s', async (_name, id, status, message, code) => {
		const before = env.emulator.state.proposals[id].Status;
		const sent = env.emulator.state.notifications.length;
		const r = await env.run({ parameters: params('approve', id, { reasonString: 'please' }) });
		expect(r.api).toHaveLength(1); // refused, not retried
		expectJsonRequest(r.api[0], { method: 'PUT', path: `/api/v3/proposals/${id}/approve`, body: { ReasonString: 'please' } });
		expect(r.api[0].status).toBe(status);
		expectApiError(r, { status, serviceMessage: message, code });
		// what to check: the service's reason, not a generic guess about permissions
		if (status === 403) {
			expect(r.error.description).toContain(message);
			expect(r.error.description).not.toMatch(/permission/i);
		}
		expect(r.output).toEqual([]);
		expect(env.emulator.state.proposals[id].Status).toBe(before);
		expect(notificationsSince(sent)).toEqual([]);
	});

	test('Continue On Fail: the refused approval is an error item, the other items are approved', async () => {
		const r = await env.run({
			parameters: params('approve', '={{ $json.id }}'),
			items: items({ id: 61001 }, { id: 61005 }, { id: 61002 }),
			continueOnFail: true,
		});
		expect(r.result.status).toBe('success');
		expect(r.api.map((q) => q.status)).toEqual([204, 403, 204]);
		expect(pairedIndexes(r.output)).toEqual([0, 1, 2]);
		expect(r.output[0].json).toEqual({ proposalId: 61001, status: 'approved', success: true });
		expect(r.output[2].json).toEqual({ proposalId: 61002, status: 'approved', success: true });
		expect(r.output[1].json.error).toContain('exceeds your approval limit of 5000 USD');
		expect(r.output[1].json.httpCode).toBe('403');
		expect(env.emulator.state.proposals[61005].Status).toBe('Open');
	});
});

describe('proposal: the ID written to is exactly the one given', () => {
	const statuses = () => Object.fromEntries(Object.entries(env.emulator.state.proposals).map(([id, p]) => [id, p.Status]));

	test.each([
		['typed in the field ("0")', '0'],
		['typed with spaces (" 0 ")', ' 0 '],
		['kept from an older workflow (the number 0)', 0],
		['from an expression', '={{ 0 }}'],
	])('Proposal ID 0 %s is refused before any request; no proposal changes (it used to become 1)', async (_name, proposalId) => {
		const before = statuses();
		const r = await env.run({ parameters: params('approve', proposalId) });
		expectValidationError(r, { parameter: 'proposalId', item: 0, problem: /must be 1 or greater, got/ });
		expect(r.error.message).toMatch(/^Invalid Proposal ID \(parameter "proposalId"\) in item 0: must be 1 or greater, got /);
		expect(r.api).toHaveLength(0);
		expect(statuses()).toEqual(before);
	});

	test.each([
		['typed as text (the field is text)', '61006', 61006],
		['typed with spaces', ' 61007 ', 61007],
		['a number kept from an older workflow', 61008, 61008],
		['a digit string from an expression', '={{ "61006" }}', 61006],
	])('Proposal ID %s: PUT /proposals/%s', async (_name, proposalId, expected) => {
		const r = await env.run({ parameters: params('putOnHold', proposalId) });
		expect(r.error).toBeUndefined();
		expect(r.api.map((q) => `${q.method} ${q.path}`)).toEqual([`PUT /api/v3/proposals/${expected}/onhold`]);
		expect(r.output[0].json).toEqual({ proposalId: expected, status: 'onHold', success: true });
	});

	test('Proposal ID left empty: n8n itself refuses to run the node, nothing is sent', async () => {
		env.emulator.clearRequests();
		await expect(env.run({ parameters: params('approve', '') })).rejects.toThrow('Parameter "Proposal ID" is required');
		expect(env.emulator.requests.filter((q) => q.path.startsWith('/api/'))).toHaveLength(0);
	});

	test('Proposal ID of only spaces is refused by the node, nothing is sent', async () => {
		const r = await env.run({ parameters: params('approve', '   ') });
		expectValidationError(r, { parameter: 'proposalId', item: 0, problem: /not empty/ });
		expect(r.api).toHaveLength(0);
	});
});

describe('proposal: validation before any request', () => {
	const cases = [
		['bad ID (0)', 'approve', { id: 0 }, 'proposalId', /1 or greater/],
		['bad ID (text)', 'reopen', { id: 'P-61001' }, 'proposalId', /positive whole number/],
		['bad ID (fraction)', 'putOnHold', { id: 61001.5 }, 'proposalId', /positive whole number/],
		['bad provider e-mail', 'approve', { providerEmail: 'not-an-email' }, 'additionalFields.providerEmail', /e-mail address/],
		['bad user e-mail', 'reject', { userEmail: 'sam@@demo' }, 'additionalFields.userEmail', /e-mail address/],
		['e-mail without a domain', 'putOnHold', { userEmail: 'manager@' }, 'additionalFields.userEmail', /e-mail address/],
		['unknown action source', 'reopen', { actionSource: 'Robot' }, 'additionalFields.actionSource', /must be one of Standard, DecisionEngine/],
		['bad rejection reason code', 'reject', { rejectReasonCodeId: 'PRICE' }, 'additionalFields.rejectReasonCodeId', /positive whole number/],
		['bad useProposalAlertEmails', 'reject', { useProposalAlertEmails: 'sometimes' }, 'additionalFields.useProposalAlertEmails', /true or false/],
	];
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
});
