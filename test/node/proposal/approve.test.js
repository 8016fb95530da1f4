'use strict';
/**
 * proposal.approve through n8n-core against the emulator: PUT /proposals/{id}/approve (the
 * behaviour all status changes share is in ./statusChange.js), the approval refusals (invoiced
 * work order, no work order: 400 code 503; over the approval limit: 400 code 100) as a NodeApiError
 * with the service's words, its code and what the code means, and validation before any request.
 */
const { useEnvironment, items, expectJsonRequest, pairedIndexes, support } = require('../helpers');
const {
	params,
	notificationsSince,
	awayFrom,
	expectRefusedMove,
	statusChangeTests,
	validationTests,
} = require('./statusChange');

const env = useEnvironment();

describe('proposal.approve', () => {
	statusChangeTests(env, 'approve');
});

describe('proposal.approve: the approval refusals (400) carry the service words, its code and what the code means', () => {
	const cases = [
		[
			'the work order is invoiced',
			61003,
			'Proposal 61003 cannot be approved: work order 90000007 is already invoiced',
			503,
			/no work order is linked to the proposal, or its work order is invoiced/,
		],
		[
			'no work order is linked',
			61004,
			'Proposal 61004 cannot be approved: no work order is linked to it',
			503,
			/no work order is linked to the proposal, or its work order is invoiced/,
		],
		[
			'over the approval limit',
			61005,
			'Proposal 61005 cannot be approved: its amount 7500 USD exceeds your approval limit of 5000 USD',
			100,
			/amount is above the approval limit.*A user with a higher approval limit must approve it/,
		],
	];
	test.each(cases)('%s', async (_name, id, words, code, means) => {
		const before = env.emulator.state.proposals[id].Status;
		const sent = env.emulator.state.notifications.length;
		const r = await env.run({ parameters: params('approve', id, { reasonString: 'please' }) });
		expect(r.api).toHaveLength(1); // refused, not retried
		expectJsonRequest(r.api[0], {
			method: 'PUT',
			path: `/api/v3/proposals/${id}/approve`,
			body: { ReasonString: 'please' },
		});
		expect(r.api[0].status).toBe(400);
		expectRefusedMove(env, r, { operation: 'approve', id, words, code, means });
		// what to check: the code's meaning, not a generic guess about permissions or values
		expect(r.error.description).not.toMatch(/permission|values sent/i);
		expect(env.emulator.state.proposals[id].Status).toBe(before);
		expect(notificationsSince(env, sent)).toEqual([]);
	});

	test('a user whose limit covers the amount approves the same proposal', async () => {
		const r = await env.run({
			parameters: params('approve', 61005),
			credentialId: 'cred-manager',
			credentialData: support.passwordCredential(env.emulator, 'manager'),
		});
		expect(r.error).toBeUndefined();
		expect(r.api.map((q) => [q.path, q.status])).toEqual([
			['/api/v3/proposals/61005/approve', 204],
		]);
		expect(r.output.map((o) => o.json)).toEqual([
			{ success: true, operation: 'approve', proposalId: 61005, status: 'approved' },
		]);
		expect(env.emulator.state.proposals[61005].Status).toBe('Approved');
		env.emulator.setProposalStatus(61005, 'Open');
	});

	test('Continue On Fail: the refused approval is an error item, the other items are approved', async () => {
		awayFrom(env, 'approve', 61001, 61002);
		const r = await env.run({
			parameters: params('approve', '={{ $json.id }}'),
			items: items({ id: 61001 }, { id: 61005 }, { id: 61002 }),
			continueOnFail: true,
		});
		expect(r.result.status).toBe('success');
		expect(r.api.map((q) => q.status)).toEqual([204, 400, 204]);
		expect(pairedIndexes(r.output)).toEqual([0, 1, 2]);
		expect(r.output[0].json).toEqual({
			success: true,
			operation: 'approve',
			proposalId: 61001,
			status: 'approved',
		});
		expect(r.output[2].json).toEqual({
			success: true,
			operation: 'approve',
			proposalId: 61002,
			status: 'approved',
		});
		expect(r.output[1].json.error).toBe(
			'The Work Order Service refused to approve proposal 61005 (400 Bad Request): Proposal 61005 cannot be approved: its amount 7500 USD exceeds your approval limit of 5000 USD (error code 100)',
		);
		expect(r.output[1].json.errorDescription).toMatch(
			/^Error code 100: the proposal's amount is above the approval limit/,
		);
		expect(r.output[1].json.httpCode).toBe('400');
		expect(env.emulator.state.proposals[61005].Status).toBe('Open');
	});
});

describe('proposal.approve: validation before any request', () => {
	validationTests(env, [
		['bad ID (0)', 'approve', { id: 0 }, 'proposalId', /1 or greater/],
		[
			'bad provider e-mail',
			'approve',
			{ providerEmail: 'not-an-email' },
			'additionalFields.providerEmail',
			/e-mail address/,
		],
	]);
});
