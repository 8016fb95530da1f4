'use strict';
/**
 * rejectionReason.getAll: GET /proposals/RejectionReasons, one item per record, Return All / Limit.
 */
const {
	useEnvironment,
	items,
	expectBearer,
	expectGet,
	pairedIndexes,
	expectValidationError,
	expectApiError,
} = require('../helpers');

const env = useEnvironment();

const params = (extra = {}) => ({ resource: 'rejectionReason', operation: 'getAll', ...extra });

describe('rejectionReason.getAll', () => {
	test('Return All: one item per record, exactly as the service sent them', async () => {
		const r = await env.run({ parameters: params({ returnAll: true }) });
		expect(r.error).toBeUndefined();
		expect(r.api).toHaveLength(1);
		expectGet(r.api[0], { path: '/api/v3/proposals/RejectionReasons' });
		expectBearer(env, r.api[0]);
		expect(r.output.map((o) => o.json)).toEqual(env.fixtures.rejectionReasons);
		expect(r.output.map((o) => o.json)).toEqual(env.emulator.state.rejectionReasons);
		expect(pairedIndexes(r.output)).toEqual([0, 0, 0, 0, 0]);
	});

	test('Limit 2 returns the first two records', async () => {
		const r = await env.run({ parameters: params({ returnAll: false, limit: 2 }) });
		expect(r.error).toBeUndefined();
		expect(r.api).toHaveLength(1);
		expect(r.output.map((o) => o.json)).toEqual(env.fixtures.rejectionReasons.slice(0, 2));
		expect(r.output.map((o) => o.pairedItem)).toEqual([{ item: 0 }, { item: 0 }]);
	});

	test('default Limit (50) is more than the list: all 5 records', async () => {
		const r = await env.run({ parameters: params() });
		expect(r.error).toBeUndefined();
		expect(r.output).toHaveLength(5);
	});

	test('several input items -> one request per item, records paired to their item', async () => {
		const r = await env.run({
			parameters: params({ limit: '={{ $json.n }}' }),
			items: items({ n: 1 }, { n: 3 }),
		});
		expect(r.error).toBeUndefined();
		expect(r.api).toHaveLength(2);
		expect(r.output.map((o) => o.json.Id)).toEqual([1, 1, 2, 3]);
		expect(pairedIndexes(r.output)).toEqual([0, 1, 1, 1]);
	});

	test('bad Limit is refused before any request, naming the parameter and the item', async () => {
		const r = await env.run({
			parameters: params({ limit: '={{ $json.n }}' }),
			items: items({ n: 2 }, { n: 0 }),
		});
		expectValidationError(r, { parameter: 'limit', item: 1, problem: /1 or greater/ });
		expect(r.api).toHaveLength(1);
	});

	test('Continue On Fail: a bad Limit yields an error item, the others their records', async () => {
		const r = await env.run({
			parameters: params({ limit: '={{ $json.n }}' }),
			items: items({ n: 1 }, { n: 'many' }, { n: 2 }),
			continueOnFail: true,
		});
		expect(r.result.status).toBe('success');
		expect(r.api).toHaveLength(2);
		expect(pairedIndexes(r.output)).toEqual([0, 1, 2, 2]);
		expect(r.output[1].json).toEqual({
			error: expect.stringContaining('(parameter "limit") in item 1'),
			errorDescription: expect.stringContaining('Nothing was sent to the service for this item'),
		});
		expect(r.output.filter((o) => o.json.Id).map((o) => o.json.Id)).toEqual([1, 1, 2]);
	});

	test('a failure of the service is a NodeApiError carrying its message', async () => {
		env.emulator.failNext({
			path: '/api/v3/proposals/RejectionReasons',
			status: 400,
			body: { ErrorCodes: [2008], ErrorCode: 2008, ErrorMessage: 'Reasons are unavailable' },
		});
		const r = await env.run({ parameters: params({ returnAll: true }) });
		expectApiError(r, { status: 400, serviceMessage: 'Reasons are unavailable', code: 2008 });
	});
});
