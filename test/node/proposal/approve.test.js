'use strict';
/**
 * proposal.approve through n8n-core against the emulator: PUT /proposals/{id}/approve (the
 * behaviour all status changes share is in ./statusChange.js), the service's refusals (invoiced
 * work order, no work order, over the approval limit) as NodeApiError with its message, and
 * validation before any request.
 */
const { useEnvironment, items, expectJsonRequest, pairedIndexes, expectApiError } = require('../helpers');
const { params, notificationsSince, statusChangeTests, validationTests } = require('./statusChange');

const env = useEnvironment();

describe('proposal.approve', () => {
	statusChangeTests(env, 'approve');
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
		expect(notificationsSince(env, sent)).toEqual([]);
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

describe('proposal.approve: validation before any request', () => {
	validationTests(env, [
		['bad ID (0)', 'approve', { id: 0 }, 'proposalId', /1 or greater/],
		['bad provider e-mail', 'approve', { providerEmail: 'not-an-email' }, 'additionalFields.providerEmail', /e-mail address/],
	]);
});
