'use strict';
/**
 * subsidiary.getAll: GET /subscribers/current/subsidiaries, one item per child subscriber,
 * Limit, and the permission refusal.
 */
const {
	useEnvironment,
	items,
	expectBearer,
	expectGet,
	pairedIndexes,
	expectApiError,
	expectValidationError,
	support,
} = require('../helpers');

const env = useEnvironment();

const params = (extra = {}) => ({ resource: 'subsidiary', operation: 'getAll', ...extra });

function useUser(userKey, credentialId) {
	env.harness.credentials.set(credentialId, {
		name: `Emulator ${userKey}`,
		type: 'workOrderServiceApi',
		data: support.passwordCredential(env.emulator, userKey),
	});
	return credentialId;
}

describe('subsidiary.getAll', () => {
	test('universal user: one item per child subscriber', async () => {
		const credentialId = useUser('universal', 'cred-universal');
		const r = await env.run({ parameters: params({ returnAll: true }), credentialId });
		expect(r.error).toBeUndefined();
		expect(r.api).toHaveLength(1);
		expectGet(r.api[0], { path: '/api/v3/subscribers/current/subsidiaries' });
		expectBearer(env, r.api[0], 'demo.universal', credentialId);
		expect(r.output).toEqual([
			{
				json: { Id: 2001, Name: 'Holdings East', ParentId: 2000, IsActive: true },
				pairedItem: { item: 0 },
			},
			{
				json: { Id: 2002, Name: 'Holdings West', ParentId: 2000, IsActive: true },
				pairedItem: { item: 0 },
			},
		]);
		expect(r.output.map((o) => ({ Id: o.json.Id, Name: o.json.Name }))).toEqual(
			env.fixtures.subscribers.children,
		);
	});

	test('Limit 1', async () => {
		const r = await env.run({
			parameters: params({ returnAll: false, limit: 1 }),
			credentialId: 'cred-universal',
		});
		expect(r.error).toBeUndefined();
		expect(r.output.map((o) => o.json.Id)).toEqual([2001]);
	});

	test('a subscriber without child subscribers: no items', async () => {
		const r = await env.run({ parameters: params({ returnAll: true }) });
		expect(r.error).toBeUndefined();
		expect(r.api).toHaveLength(1);
		expect(r.output).toEqual([]);
	});

	test('several input items -> one request per item', async () => {
		const r = await env.run({
			parameters: params({ returnAll: true }),
			items: items({}, {}),
			credentialId: 'cred-universal',
		});
		expect(r.api).toHaveLength(2);
		expect(pairedIndexes(r.output)).toEqual([0, 0, 1, 1]);
		expect(r.output.map((o) => o.json.Id)).toEqual([2001, 2002, 2001, 2002]);
	});

	test('bad Limit is refused before any request, naming the parameter and the item', async () => {
		const r = await env.run({
			parameters: params({ limit: '={{ $json.n }}' }),
			items: items({ n: 1 }, { n: 2.5 }),
			credentialId: 'cred-universal',
		});
		expectValidationError(r, { parameter: 'limit', item: 1, problem: /positive whole number/ });
		expect(r.api).toHaveLength(1);
	});

	test('user without the permission to list subsidiaries: NodeApiError with the service message', async () => {
		const credentialId = useUser('noSubsidiaryPermission', 'cred-limited');
		const r = await env.run({ parameters: params({ returnAll: true }), credentialId });
		expectApiError(r, {
			status: 401,
			serviceMessage:
				"The request was rejected by security permissions: user demo.universal.limited lacks the permission 'subsidiaries.read'",
			code: 1010,
		});
		expect(r.api.length).toBeGreaterThanOrEqual(1);
		for (const q of r.api) {
			expect(q.path).toBe('/api/v3/subscribers/current/subsidiaries');
			expect(q.status).toBe(401);
		}
		expect(r.output).toEqual([]);
	});

	test('Continue On Fail with the refused user: every item becomes an error item', async () => {
		const r = await env.run({
			parameters: params({ returnAll: true }),
			items: items({}, {}),
			credentialId: 'cred-limited',
			continueOnFail: true,
		});
		expect(r.result.status).toBe('success');
		expect(pairedIndexes(r.output)).toEqual([0, 1]);
		for (const o of r.output) {
			expect(o.json.error).toContain("lacks the permission 'subsidiaries.read'");
			expect(o.json.httpCode).toBe('401');
		}
	});
});
