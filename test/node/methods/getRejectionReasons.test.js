'use strict';
/**
 * The rejection-reason dropdown of proposal.reject (loadOptions.getRejectionReasons), run through
 * n8n-core's LoadOptionsContext against the emulator.
 */
const { useEnvironment, expectBearer, loadOptions } = require('../helpers');

const env = useEnvironment();

describe('loadOptions.getRejectionReasons (proposal.reject: Rejection Reason)', () => {
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
		expect(options.map((o) => o.value).sort()).toEqual(
			env.fixtures.rejectionReasons.map((x) => x.Id).sort(),
		);
	});
});
