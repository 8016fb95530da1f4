'use strict';
/**
 * Child subscriber (spec 5.8): a universal user's password-grant credential with a Child Subscriber
 * ID. The login is the password grant, then POST /oauth/token with `subsidiary_id` and the universal
 * token as Bearer; every API call uses the returned, scoped token and sees only that subsidiary.
 */
const H = require('./helpers');

let emulator;
let harness;
let recorder;

H.useSuite((suite) => ({ emulator, harness, recorder } = suite));

const LIST_ALL = { resource: 'workOrder', operation: 'getAll', returnAll: true, simplify: false };

function expectSubsidiaryStep(request, universalToken, subsidiaryId) {
	expect(request.method).toBe('POST');
	expect(request.path).toBe('/auth/oauth/token');
	expect(request.query).toEqual({});
	expect(request.headers.authorization).toBe(`Bearer ${universalToken}`);
	expect(request.headers['content-type']).toMatch(/^application\/x-www-form-urlencoded/);
	expect(request.body).toEqual({ subsidiary_id: subsidiaryId });
}

describe('universal user scoped to child subscriber 2001', () => {
	const CRED = 'child-2001';

	test('password grant, then the subsidiary_id exchange with the universal Bearer token; API calls use the scoped token and see only 2001', async () => {
		const { result, output } = await recorder.run({
			credentialId: CRED,
			credentialData: H.passwordCredential(emulator, 'universal', { subsidiaryId: '2001' }),
			parameters: LIST_ALL,
		});
		expect(result.error).toBeUndefined();
		expect(result.status).toBe('success');

		const tokens = H.tokenRequests(emulator);
		expect(tokens.map(H.grantOf)).toEqual(['password', 'subsidiary']);
		const universal = H.LEAK.users.universal;
		expect(tokens[0].headers.authorization).toBe(H.basic());
		expect(tokens[0].body).toEqual({
			grant_type: 'password',
			username: universal.username,
			password: universal.password,
		});
		const universalToken = H.responseJson(tokens[0]).access_token;
		expectSubsidiaryStep(tokens[1], universalToken, '2001');
		expect(tokens[1].status).toBe(200);
		const scoped = H.responseJson(tokens[1]);
		expect(scoped.scope).toBe('subsidiary:2001');
		expect(scoped.access_token).not.toBe(universalToken);

		const api = H.apiRequests(emulator);
		expect(api.length).toBeGreaterThanOrEqual(1);
		expect(api.map(H.bearerOf)).toEqual(api.map(() => scoped.access_token));

		// only the subsidiary's data
		expect(output.map((i) => i.json.Id).sort()).toEqual(
			[...emulator.fixtures.workOrders.child2001].sort(),
		);
		expect(new Set(output.map((i) => i.json.Subscriber.Id))).toEqual(new Set([2001]));

		const stored = harness.credentials.get(CRED);
		expect(stored.accessToken).toBe(scoped.access_token);
		expect(stored.refreshToken).toBe(scoped.refresh_token);
		expect(stored.tokenScope).toBe('subsidiary:2001');
	});

	test('work orders of the sibling (2002) and of the parent (2000) are not reachable with the scoped credential', async () => {
		const ids = [
			emulator.fixtures.workOrders.child2001[0],
			emulator.fixtures.workOrders.child2002[0],
			emulator.fixtures.workOrders.universalParent[0],
		];
		const { result, output } = await recorder.run({
			credentialId: CRED,
			parameters: { ...H.GET_WORK_ORDER, simplify: false },
			items: H.items(ids.map((id) => ({ id }))),
			continueOnFail: true,
		});
		expect(result.status).toBe('success');
		expect(H.tokenRequests(emulator)).toHaveLength(0); // the stored scoped token is reused
		expect(output).toHaveLength(3);
		expect(output[0].json.Id).toBe(ids[0]);
		expect(output[0].json.Subscriber.Id).toBe(2001);
		expect(output[1].json.error).toMatch(/404/);
		expect(output[2].json.error).toMatch(/404/);
		expect(H.apiRequests(emulator).map((r) => r.status)).toEqual([200, 404, 404]);
	});

	test('an expired scoped token is refreshed with the scoped refresh token and stays scoped to 2001', async () => {
		const before = harness.credentials.get(CRED);
		emulator.expireAccessTokens();
		const { result, output } = await recorder.run({ credentialId: CRED, parameters: LIST_ALL });
		expect(result.status).toBe('success');
		const tokens = H.tokenRequests(emulator);
		expect(tokens.map(H.grantOf)).toEqual(['refresh_token']);
		expect(tokens[0].headers.authorization).toBe(H.basic());
		expect(tokens[0].body).toEqual({
			grant_type: 'refresh_token',
			refresh_token: before.refreshToken,
		});
		const refreshed = H.responseJson(tokens[0]);
		expect(H.apiRequests(emulator).slice(1).map(H.bearerOf)).toEqual(
			H.apiRequests(emulator)
				.slice(1)
				.map(() => refreshed.access_token),
		);
		expect(new Set(output.map((i) => i.json.Subscriber.Id))).toEqual(new Set([2001]));
		expect(harness.credentials.get(CRED).tokenScope).toBe('subsidiary:2001');
	});

	test('with every token expired on the server, the login is redone in full: password grant, then the subsidiary exchange', async () => {
		emulator.expireAccessTokens();
		emulator.expireRefreshTokens();
		const { result, output } = await recorder.run({ credentialId: CRED, parameters: LIST_ALL });
		expect(result.status).toBe('success');
		const tokens = H.tokenRequests(emulator);
		expect(tokens.map(H.grantOf)).toEqual(['refresh_token', 'password', 'subsidiary']);
		expect(tokens.map((t) => t.status)).toEqual([400, 200, 200]);
		expectSubsidiaryStep(tokens[2], H.responseJson(tokens[1]).access_token, '2001');
		expect(new Set(output.map((i) => i.json.Subscriber.Id))).toEqual(new Set([2001]));
		expect(harness.credentials.get(CRED).accessToken).toBe(H.responseJson(tokens[2]).access_token);
	});
});

describe('child subscriber refusals are explained', () => {
	test("a subsidiary that is not among the user's children: a clear error naming the child subscriber problem, no API call", async () => {
		const { result, output } = await recorder.run({
			credentialId: 'child-2999',
			credentialData: H.passwordCredential(emulator, 'universal', { subsidiaryId: '2999' }),
			parameters: LIST_ALL,
		});
		expect(result.status).toBe('error');
		expect(output).toHaveLength(0);
		expect(H.tokenRequests(emulator).map(H.grantOf)).toEqual(['password', 'subsidiary']);
		expect(H.tokenRequests(emulator)[1].status).toBe(400);
		expect(H.apiRequests(emulator)).toHaveLength(0);
		expect(result.error.message).toMatch(/child subscriber/i);
		expect(result.error.message).toMatch(/2999/);
		expect(result.error.message).toMatch(/not a child subscriber of this user/);
		expect(`${result.error.message} ${result.error.description}`).toMatch(/Child Subscriber ID/);
		expect(harness.credentials.get('child-2999').accessToken).toBeUndefined(); // nothing half-scoped was stored
	});

	test('a universal user without the permission to list subsidiaries: the child subscriber problem is named', async () => {
		const { result } = await recorder.run({
			credentialId: 'child-limited',
			credentialData: H.passwordCredential(emulator, 'limited', { subsidiaryId: '2001' }),
			parameters: LIST_ALL,
		});
		expect(result.status).toBe('error');
		expect(H.tokenRequests(emulator).map(H.grantOf)).toEqual(['password', 'subsidiary']);
		expect(H.apiRequests(emulator)).toHaveLength(0);
		expect(result.error.message).toMatch(/child subscriber/i);
		expect(result.error.message).toMatch(/permission to retrieve subsidiary IDs/);
		expect(result.error.message).not.toMatch(/Client credentials rejected/i);
	});

	test('a user that is not a universal user, with a Child Subscriber ID: the child subscriber problem is named (not "wrong client")', async () => {
		const { result } = await recorder.run({
			credentialId: 'child-not-universal',
			credentialData: H.passwordCredential(emulator, 'subscriber', { subsidiaryId: '2001' }),
			parameters: LIST_ALL,
		});
		expect(result.status).toBe('error');
		expect(result.error.message).toMatch(/child subscriber/i);
		expect(result.error.message).toMatch(/universal user/i);
		expect(result.error.message).not.toMatch(/Client credentials rejected/i);
	});
});

test('leak check: neither the universal nor the scoped tokens, nor any secret, appear in outputs, errors or logs', () => {
	const secrets = H.allSecrets(emulator);
	expect(H.findLeaks({ probe: `x ${H.LEAK.users.universal.password} y` }, secrets)).toHaveLength(1); // the detector works
	expect(recorder.results.length).toBeGreaterThanOrEqual(7);
	expect(recorder.leaks(secrets)).toEqual([]);
});
