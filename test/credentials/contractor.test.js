'use strict';
/**
 * Contractor credential `workOrderServiceContractorApi` (spec 4.3, 5.9): POST /jwt/token with the
 * Basic client header and username/password, no grant_type; calls carry `Bearer <jwt>`; renewal
 * with refresh_token (no grant_type) after expiry or revocation, then the retry succeeds.
 */
const H = require('./helpers');

let emulator;
let harness;
let recorder;

H.useSuite((suite) => ({ emulator, harness, recorder } = suite));

const CRED = 'contractor';
const IDS = [90000001, 90000004, 90000005]; // provider 3001's work orders: visible to the contractor

function runContractor(extra = {}) {
	return recorder.run({
		authentication: 'contractor',
		credentialId: CRED,
		parameters: H.GET_WORK_ORDER,
		items: H.items(IDS.map((id) => ({ id }))),
		...extra,
	});
}

function expectJwtRenewal(request, refreshToken) {
	expect(request.method).toBe('POST');
	expect(request.path).toBe('/auth/jwt/token');
	expect(request.headers.authorization).toBe(H.basic());
	expect(request.headers['content-type']).toMatch(/^application\/x-www-form-urlencoded/);
	expect(request.body).toEqual({ refresh_token: refreshToken });
	expect('grant_type' in request.body).toBe(false);
}

test('login: /auth/jwt/token with Basic and username/password, no grant_type; every call carries Bearer <jwt>', async () => {
	const { result, output } = await runContractor({
		credentialData: H.contractorCredential(emulator),
	});
	expect(result.error).toBeUndefined();
	expect(result.status).toBe('success');
	expect(output.map((i) => i.json.Id)).toEqual(IDS);

	const tokens = H.tokenRequests(emulator);
	expect(tokens).toHaveLength(1);
	const login = tokens[0];
	expect(login.method).toBe('POST');
	expect(login.path).toBe('/auth/jwt/token');
	expect(login.query).toEqual({});
	expect(login.headers.authorization).toBe(H.basic());
	expect(login.headers['content-type']).toMatch(/^application\/x-www-form-urlencoded/);
	const user = H.LEAK.users.contractor;
	expect(login.body).toEqual({ username: user.username, password: user.password });
	expect('grant_type' in login.body).toBe(false);
	expect(login.status).toBe(200);
	const issued = H.responseJson(login);
	expect(issued.token_type).toBe('jwt');
	expect(issued.access_token.split('.')).toHaveLength(3);

	const api = H.apiRequests(emulator);
	expect(api.map((r) => r.headers.authorization)).toEqual(
		IDS.map(() => `Bearer ${issued.access_token}`),
	);

	const stored = harness.credentials.get(CRED);
	expect(stored.accessToken).toBe(issued.access_token);
	expect(stored.refreshToken).toBe(issued.refresh_token);
	// lifetime from expires_in (14400 s by default)
	expect(Number(stored.accessTokenExpiresAt)).toBeGreaterThan(Date.now() + 14_390_000);
	expect(Number(stored.accessTokenExpiresAt)).toBeLessThanOrEqual(Date.now() + 14_400_000);
});

test('a second execution reuses the stored JWT: no token request', async () => {
	const before = harness.credentials.get(CRED);
	const { result } = await runContractor();
	expect(result.status).toBe('success');
	expect(H.tokenRequests(emulator)).toHaveLength(0);
	expect(H.apiRequests(emulator).map((r) => r.headers.authorization)).toEqual(
		IDS.map(() => `Bearer ${before.accessToken}`),
	);
});

test('after expiry: a 401, renewal with refresh_token (no grant_type), the retry succeeds', async () => {
	const before = harness.credentials.get(CRED);
	emulator.expireAccessTokens();
	const { result, output } = await runContractor({ parameters: H.GET_WORK_ORDER_SEQUENTIAL });
	expect(result.error).toBeUndefined();
	expect(result.status).toBe('success');
	expect(output.map((i) => i.json.Id)).toEqual(IDS);

	const tokens = H.tokenRequests(emulator);
	expect(tokens).toHaveLength(1);
	expectJwtRenewal(tokens[0], before.refreshToken);
	expect(tokens[0].status).toBe(200);
	const renewed = H.responseJson(tokens[0]);
	expect(renewed.token_type).toBe('jwt');

	const api = H.apiRequests(emulator);
	expect(api.map((r) => r.status)).toEqual([401, 200, 200, 200]);
	expect(api.map((r) => r.headers.authorization)).toEqual([
		`Bearer ${before.accessToken}`,
		`Bearer ${renewed.access_token}`,
		`Bearer ${renewed.access_token}`,
		`Bearer ${renewed.access_token}`,
	]);
	expect(harness.credentials.get(CRED).accessToken).toBe(renewed.access_token);
	expect(harness.credentials.get(CRED).refreshToken).toBe(renewed.refresh_token);
});

test('after revocation: renewal with refresh_token, the retry succeeds', async () => {
	const before = harness.credentials.get(CRED);
	emulator.revokeAccessTokens();
	const { result } = await runContractor({ parameters: H.GET_WORK_ORDER_SEQUENTIAL });
	expect(result.status).toBe('success');
	const tokens = H.tokenRequests(emulator);
	expect(tokens).toHaveLength(1);
	expectJwtRenewal(tokens[0], before.refreshToken);
	expect(H.apiRequests(emulator).map((r) => r.status)).toEqual([401, 200, 200, 200]);
});

test('the stored expiry follows expires_in (a shorter lifetime for this user)', async () => {
	emulator.setTtl({ jwt: 1200 });
	try {
		emulator.expireAccessTokens();
		const { result } = await runContractor();
		expect(result.status).toBe('success');
		expect(H.responseJson(H.tokenRequests(emulator)[0]).expires_in).toBe(1200);
		const expiresAt = Number(harness.credentials.get(CRED).accessTokenExpiresAt);
		expect(expiresAt).toBeGreaterThan(Date.now() + 1_190_000);
		expect(expiresAt).toBeLessThanOrEqual(Date.now() + 1_200_000);
	} finally {
		emulator.setTtl({ jwt: 14400 });
	}
});

test('refresh token refused too: a fresh JWT login with username/password, and the run completes', async () => {
	emulator.expireAccessTokens();
	emulator.expireRefreshTokens();
	const { result } = await runContractor();
	expect(result.status).toBe('success');
	const tokens = H.tokenRequests(emulator);
	expect(tokens.map(H.grantOf)).toEqual(['jwt-refresh', 'jwt-password']);
	expect(tokens.map((t) => t.status)).toEqual([400, 200]);
	expect(tokens[1].body).toEqual({
		username: H.LEAK.users.contractor.username,
		password: H.LEAK.users.contractor.password,
	});
});

test('a wrong contractor password: a clear error naming the user/password problem, without the password', async () => {
	const { result } = await recorder.run({
		authentication: 'contractor',
		credentialId: 'contractor-wrong',
		credentialData: H.contractorCredential(emulator, { password: H.LEAK.wrongPassword }),
		parameters: H.GET_WORK_ORDER,
		items: H.items([{ id: IDS[0] }]),
	});
	expect(result.status).toBe('error');
	expect(H.tokenRequests(emulator).map((t) => [t.path, t.status])).toEqual([
		['/auth/jwt/token', 400],
	]);
	expect(result.error.message).toMatch(/username or password/i);
	expect(result.error.message).toMatch(/JWT/);
	expect(result.error.message).not.toContain(H.LEAK.wrongPassword);
});

test('leak check: no client secret, password or JWT / refresh token in outputs, errors or logs', () => {
	const secrets = H.allSecrets(emulator);
	expect(recorder.results.length).toBeGreaterThanOrEqual(7);
	expect(recorder.leaks(secrets)).toEqual([]);
});
