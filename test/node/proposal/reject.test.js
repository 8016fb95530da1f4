'use strict';
/**
 * proposal.reject through n8n-core against the emulator: PUT /proposals/{id}/reject (the behaviour
 * all status changes share is in ./statusChange.js), the rejection reason, the proposal alert
 * e-mails (useProposalAlertEmails as a query parameter), and validation before any request.
 * The rejection-reason dropdown: test/node/methods/getRejectionReasons.test.js.
 */
const { useEnvironment, expectJsonRequest } = require('../helpers');
const {
	params,
	notificationsSince,
	awayFrom,
	expectRefusedMove,
	statusChangeTests,
	validationTests,
} = require('./statusChange');

const env = useEnvironment();

describe('proposal.reject', () => {
	statusChangeTests(env, 'reject');
});

describe('proposal.reject: rejection reason and proposal alert e-mails', () => {
	beforeEach(() => awayFrom(env, 'reject', 61008));

	test('useProposalAlertEmails=true without e-mails: the alert list is notified', async () => {
		const sent = env.emulator.state.notifications.length;
		const r = await env.run({
			parameters: params('reject', 61008, {
				rejectReasonCodeId: 1,
				useProposalAlertEmails: true,
				comments: 'Too expensive',
			}),
		});
		expect(r.error).toBeUndefined();
		expectJsonRequest(r.api[0], {
			method: 'PUT',
			path: '/api/v3/proposals/61008/reject',
			query: { useProposalAlertEmails: 'true' },
			body: { RejectReasonCodeId: 1, Comments: 'Too expensive' },
		});
		expect(env.emulator.state.proposals[61008]).toMatchObject({
			Status: 'Rejected',
			RejectReasonCodeId: 1,
		});
		expect(notificationsSince(env, sent)).toEqual([
			expect.objectContaining({
				action: 'reject',
				proposalId: 61008,
				useProposalAlertEmails: true,
				userRecipients: env.fixtures.subscribers.proposalAlertEmails[1001],
				providerRecipients: ['office@bright-hvac.example'],
			}),
		]);
		expect(r.output).toEqual([
			{
				json: { success: true, operation: 'reject', proposalId: 61008, status: 'rejected' },
				pairedItem: { item: 0 },
			},
		]);
	});

	test('useProposalAlertEmails=false is sent as false', async () => {
		const r = await env.run({
			parameters: params('reject', 61008, { useProposalAlertEmails: false }),
		});
		expect(r.error).toBeUndefined();
		expect(r.api[0].query).toEqual({ useProposalAlertEmails: 'false' });
	});

	test('useProposalAlertEmails with an explicit User Email: the service ignores the alert list', async () => {
		const sent = env.emulator.state.notifications.length;
		const r = await env.run({
			parameters: params('reject', 61008, {
				useProposalAlertEmails: true,
				userEmail: 'buyer@demo-retail.example',
			}),
		});
		expect(r.error).toBeUndefined();
		expect(r.api[0].query).toEqual({ useProposalAlertEmails: 'true' });
		expect(r.api[0].body).toEqual({ UserEmail: 'buyer@demo-retail.example' });
		expect(notificationsSince(env, sent)[0]).toMatchObject({
			useProposalAlertEmails: false,
			userRecipients: ['buyer@demo-retail.example'],
		});
	});

	test('an unknown rejection reason code is refused by the service: 400, code 503 (bad data), the proposal not rejected', async () => {
		const r = await env.run({ parameters: params('reject', 61008, { rejectReasonCodeId: 99 }) });
		expect(r.api).toHaveLength(1);
		expect(r.api[0].body).toEqual({ RejectReasonCodeId: 99 });
		expectRefusedMove(env, r, {
			operation: 'reject',
			id: 61008,
			words:
				'RejectReasonCodeId 99 is not a known rejection reason (see GET /proposals/RejectionReasons)',
			code: 503,
			means: /held a value the service does not accept.*must be corrected/,
		});
		expect(env.emulator.state.proposals[61008].Status).not.toBe('Rejected');
	});
});

describe('proposal.reject: validation before any request', () => {
	validationTests(env, [
		[
			'bad user e-mail',
			'reject',
			{ userEmail: 'sam@@demo' },
			'additionalFields.userEmail',
			/e-mail address/,
		],
		[
			'bad rejection reason code',
			'reject',
			{ rejectReasonCodeId: 'PRICE' },
			'additionalFields.rejectReasonCodeId',
			/positive whole number/,
		],
		[
			'bad useProposalAlertEmails',
			'reject',
			{ useProposalAlertEmails: 'sometimes' },
			'additionalFields.useProposalAlertEmails',
			/true or false/,
		],
	]);
});
