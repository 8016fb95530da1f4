'use strict';
/**
 * Token economy of the password-grant credential (workOrderServiceApi), through n8n-core's real
 * WorkflowExecute and CredentialsHelper against the emulator:
 * - one login per credential, reused for every item and every execution in the token's lifetime;
 * - expired access token: refresh grant (not the password); both expired: password grant;
 * - a token revoked in the middle of a run: exactly one re-login, and the run completes;
 * - a second 401 after the re-login is reported, never looped.
 * Ends with a leak check over every run of this file.
 */
const H = require('./helpers');

const MINUTE = 60;
const DAY = 24 * 3600;

let emulator;
let harness;
let recorder;

H.useSuite((suite) => ({ emulator, harness, recorder } = suite));

/** Work-order ids cycling over the main subscriber's work orders. */
function workOrderItems(count) {
	const first = emulator.fixtures.workOrders.mainFirst;
	const n = emulator.fixtures.workOrders.mainCount;
	return H.items(Array.from({ length: count }, (_, k) => ({ id: first + (k % n) })));
}

function expectPasswordGrant(request, userKey = 'subscriber') {
	const user = H.LEAK.users[userKey];
	expect(request.method).toBe('POST');
	expect(request.path).toBe('/auth/oauth/token');
	expect(request.query).toEqual({});
	expect(request.headers.authorization).toBe(H.basic());
	expect(request.headers['content-type']).toMatch(/^application\/x-www-form-urlencoded/);
	// the user's credentials only in the body; the client's only in the Basic header
	expect(request.body).toEqual({
		grant_type: 'password',
		username: user.username,
		password: user.password,
	});
}

function expectRefreshGrant(request, refreshToken) {
	expect(request.method).toBe('POST');
	expect(request.path).toBe('/auth/oauth/token');
	expect(request.query).toEqual({});
	expect(request.headers.authorization).toBe(H.basic());
	expect(request.headers['content-type']).toMatch(/^application\/x-www-form-urlencoded/);
	expect(request.body).toEqual({ grant_type: 'refresh_token', refresh_token: refreshToken });
}

describe('one login serves a whole execution and the next ones', () => {
	const CRED = 'economy-500';

	test('500 items on one credential: exactly one token request, every call carries its token', async () => {
		const { result, output } = await recorder.run({
			credentialId: CRED,
			credentialData: H.passwordCredential(emulator),
			parameters: H.GET_WORK_ORDER,
			items: workOrderItems(500),
		});
		expect(result.error).toBeUndefined();
		expect(result.status).toBe('success');
		expect(output).toHaveLength(500);
		expect(output[499].json.Id).toBe(
			emulator.fixtures.workOrders.mainFirst + (499 % emulator.fixtures.workOrders.mainCount),
		);

		const tokens = H.tokenRequests(emulator);
		expect(tokens).toHaveLength(1);
		expectPasswordGrant(tokens[0]);
		expect(tokens[0].status).toBe(200);
		const issued = H.responseJson(tokens[0]);

		const api = H.apiRequests(emulator);
		expect(api).toHaveLength(500);
		expect(new Set(api.map((r) => r.headers.authorization))).toEqual(
			new Set([`Bearer ${issued.access_token}`]),
		);
		expect(api.every((r) => r.status === 200)).toBe(true);

		// the token was persisted by n8n (updateCredentials after preAuthentication), once
		const stored = harness.credentials.get(CRED);
		expect(stored.accessToken).toBe(issued.access_token);
		expect(stored.refreshToken).toBe(issued.refresh_token);
		expect(Number(stored.accessTokenExpiresAt)).toBeGreaterThan(Date.now() + 590_000);
		expect(Number(stored.accessTokenExpiresAt)).toBeLessThanOrEqual(Date.now() + 600_000);
		expect(Number(stored.refreshTokenExpiresAt)).toBeGreaterThan(Date.now() + 29 * DAY * 1000);
		// n8n persists what preAuthentication returns, as for any expirable credential: once per
		// request that found the token empty (at most the Concurrency), always the one token
		const updates = harness.credentials.updates.filter((u) => u.id === CRED);
		expect(updates.length).toBeGreaterThanOrEqual(1);
		expect(updates.length).toBeLessThanOrEqual(20);
		expect(
			updates.every(
				(u) => u.via === 'updateCredentials' && u.data.accessToken === issued.access_token,
			),
		).toBe(true);
	});

	test('a second execution within the token lifetime makes no token request', async () => {
		const before = harness.credentials.get(CRED);
		const updatesBefore = harness.credentials.updates.filter((u) => u.id === CRED).length;
		emulator.advanceTime(5 * MINUTE); // later, but still inside the 600 s lifetime

		const { result, output } = await recorder.run({
			credentialId: CRED,
			parameters: H.GET_WORK_ORDER,
			items: workOrderItems(500),
		});
		expect(result.status).toBe('success');
		expect(output).toHaveLength(500);
		expect(H.tokenRequests(emulator)).toHaveLength(0);
		const api = H.apiRequests(emulator);
		expect(api).toHaveLength(500);
		expect(new Set(api.map((r) => r.headers.authorization))).toEqual(
			new Set([`Bearer ${before.accessToken}`]),
		);
		expect(harness.credentials.updates.filter((u) => u.id === CRED)).toHaveLength(updatesBefore);
		expect(harness.credentials.get(CRED).accessToken).toBe(before.accessToken);
	});
});

describe('expired tokens', () => {
	test('access token expired, refresh token valid: a 401, then exactly one refresh grant (not the password), and the run completes', async () => {
		const CRED = 'expiry-refresh';
		await recorder.run({
			credentialId: CRED,
			credentialData: H.passwordCredential(emulator),
			parameters: H.GET_WORK_ORDER,
			items: workOrderItems(1),
		});
		const first = harness.credentials.get(CRED);
		expect(first.accessToken).toMatch(/^at_/);
		emulator.clearRequests();

		emulator.advanceTime(601); // the 600 s access token is over; the refresh token lives 30 days

		const { result, output } = await recorder.run({
			credentialId: CRED,
			parameters: H.GET_WORK_ORDER_SEQUENTIAL,
			items: workOrderItems(3),
		});
		expect(result.error).toBeUndefined();
		expect(result.status).toBe('success');
		expect(output.map((i) => i.json.Id)).toEqual(workOrderItems(3).map((i) => i.json.id));

		const tokens = H.tokenRequests(emulator);
		expect(tokens.map(H.grantOf)).toEqual(['refresh_token']);
		expectRefreshGrant(tokens[0], first.refreshToken);
		expect(tokens[0].status).toBe(200);
		const issued = H.responseJson(tokens[0]);

		const api = H.apiRequests(emulator);
		expect(api.map((r) => r.status)).toEqual([401, 200, 200, 200]);
		expect(H.bearerOf(api[0])).toBe(first.accessToken);
		expect(api.slice(1).map(H.bearerOf)).toEqual([
			issued.access_token,
			issued.access_token,
			issued.access_token,
		]);

		const stored = harness.credentials.get(CRED);
		expect(stored.accessToken).toBe(issued.access_token);
		expect(stored.refreshToken).toBe(issued.refresh_token); // refresh tokens rotate
		expect(stored.refreshToken).not.toBe(first.refreshToken);
	});

	test('the same with emulator.expireAccessTokens(): refresh grant, not the password', async () => {
		const CRED = 'expiry-refresh-2';
		await recorder.run({
			credentialId: CRED,
			credentialData: H.passwordCredential(emulator),
			parameters: H.GET_WORK_ORDER,
			items: workOrderItems(1),
		});
		const first = harness.credentials.get(CRED);
		emulator.clearRequests();
		emulator.expireAccessTokens();

		const { result } = await recorder.run({
			credentialId: CRED,
			parameters: H.GET_WORK_ORDER_SEQUENTIAL,
			items: workOrderItems(2),
		});
		expect(result.status).toBe('success');
		const tokens = H.tokenRequests(emulator);
		expect(tokens.map(H.grantOf)).toEqual(['refresh_token']);
		expectRefreshGrant(tokens[0], first.refreshToken);
		expect(H.apiRequests(emulator).map((r) => r.status)).toEqual([401, 200, 200]);
	});

	test('both expired (31 days later on the server; the stored expiry does not know it yet): the refused refresh falls back to the password grant once, and the run completes', async () => {
		const CRED = 'expiry-both-server';
		await recorder.run({
			credentialId: CRED,
			credentialData: H.passwordCredential(emulator),
			parameters: H.GET_WORK_ORDER,
			items: workOrderItems(1),
		});
		const first = harness.credentials.get(CRED);
		emulator.clearRequests();

		emulator.advanceTime(31 * DAY);

		const { result, output } = await recorder.run({
			credentialId: CRED,
			parameters: H.GET_WORK_ORDER_SEQUENTIAL,
			items: workOrderItems(3),
		});
		expect(result.error).toBeUndefined();
		expect(result.status).toBe('success');
		expect(output).toHaveLength(3);

		const tokens = H.tokenRequests(emulator);
		// The credential's clock says the refresh token is still valid, so one refresh attempt is
		// legitimate; the server refuses it (expired) and the password grant follows, once.
		expect(tokens.map(H.grantOf)).toEqual(['refresh_token', 'password']);
		expectRefreshGrant(tokens[0], first.refreshToken);
		expect(tokens[0].status).toBe(400);
		expectPasswordGrant(tokens[1]);
		expect(tokens[1].status).toBe(200);
		const issued = H.responseJson(tokens[1]);
		expect(H.apiRequests(emulator).map((r) => r.status)).toEqual([401, 200, 200, 200]);
		expect(harness.credentials.get(CRED).accessToken).toBe(issued.access_token);
		expect(harness.credentials.get(CRED).refreshToken).toBe(issued.refresh_token);
	});

	test('both expired and the stored refresh expiry says so: the password grant directly, no refresh attempt', async () => {
		const CRED = 'expiry-both-known';
		await recorder.run({
			credentialId: CRED,
			credentialData: H.passwordCredential(emulator),
			parameters: H.GET_WORK_ORDER,
			items: workOrderItems(1),
		});
		// 31 days pass for both sides: the server's tokens expire and the stored expiry is in the past
		emulator.advanceTime(31 * DAY);
		const stored = harness.credentials.get(CRED);
		harness.credentials.set(CRED, {
			name: 'Emulator password',
			type: 'workOrderServiceApi',
			data: {
				...stored,
				accessTokenExpiresAt: String(Date.now() - DAY * 1000),
				refreshTokenExpiresAt: String(Date.now() - 1000),
			},
		});
		emulator.clearRequests();

		const { result } = await recorder.run({
			credentialId: CRED,
			parameters: H.GET_WORK_ORDER_SEQUENTIAL,
			items: workOrderItems(2),
		});
		expect(result.status).toBe('success');
		const tokens = H.tokenRequests(emulator);
		expect(tokens.map(H.grantOf)).toEqual(['password']);
		expectPasswordGrant(tokens[0]);
		expect(H.apiRequests(emulator).map((r) => r.status)).toEqual([401, 200, 200]);
	});
});

describe('revocation and repeated 401', () => {
	test("a token revoked mid-run (after the first item's request) causes exactly one re-login and the run completes", async () => {
		const CRED = 'revoke-mid-run';
		// Revocation happens inside the execution: the emulator's onResponse hook revokes every
		// access token right after it answered the first API request of this run.
		let revoked = false;
		emulator.onResponse = (entry) => {
			if (!revoked && entry.path.startsWith('/api/')) {
				revoked = true;
				emulator.revokeAccessTokens();
			}
		};
		const { result, output } = await recorder.run({
			credentialId: CRED,
			credentialData: H.passwordCredential(emulator),
			parameters: H.GET_WORK_ORDER_SEQUENTIAL,
			items: workOrderItems(3),
		});
		expect(revoked).toBe(true);
		expect(result.error).toBeUndefined();
		expect(result.status).toBe('success');
		expect(output.map((i) => i.json.Id)).toEqual(workOrderItems(3).map((i) => i.json.id));
		expect(output.map((i) => i.pairedItem)).toEqual([{ item: 0 }, { item: 1 }, { item: 2 }]);

		const tokens = H.tokenRequests(emulator);
		expect(tokens.map(H.grantOf)).toEqual(['password', 'refresh_token']); // the login, then ONE re-login
		const login = H.responseJson(tokens[0]);
		const relogin = H.responseJson(tokens[1]);
		expectRefreshGrant(tokens[1], login.refresh_token);

		const api = H.apiRequests(emulator);
		expect(api.map((r) => r.status)).toEqual([200, 401, 200, 200]);
		expect(api.map(H.bearerOf)).toEqual([
			login.access_token,
			login.access_token,
			relogin.access_token,
			relogin.access_token,
		]);
		expect(harness.credentials.get(CRED).accessToken).toBe(relogin.access_token);
	});

	test.each([
		['checklist picture', 'POST /api/v3/checklists/CheckListResponse'],
		['note attachment', 'POST /api/v3/workorders/90000005/notes/9007199254740993/attachments'],
	])(
		'a multipart upload (%s) rejected with 401 is re-sent once after the re-login, with the identical body',
		async (kind, route) => {
			const CRED = `multipart-401-${kind}`;
			// log in first, then revoke: the upload is the first request to meet the 401
			await recorder.run({
				credentialId: CRED,
				credentialData: H.passwordCredential(emulator),
				parameters: H.GET_WORK_ORDER,
				items: workOrderItems(1),
			});
			emulator.revokeAccessTokens();
			emulator.clearRequests();
			const photo = Buffer.concat([
				Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
				Buffer.alloc(4096, 7),
			]);
			const f = emulator.fixtures;
			const parameters =
				kind === 'checklist picture'
					? {
							resource: 'checklistResponse',
							operation: 'submit',
							workOrderId: f.workOrders.checklist,
							questionId: f.questions.pictureRequired,
							questionType: 'acknowledgement',
							answer: 'yes',
							providerId: f.providerId,
							technicianId: f.technicianId,
							attempt: 1,
							binaryPropertyName: 'data',
						}
					: {
							resource: 'workOrderNote',
							operation: 'addAttachment',
							workOrderId: 90000005,
							noteId: '9007199254740993',
							binaryPropertyName: 'data',
						};
			const storedBefore =
				kind === 'checklist picture'
					? emulator.state.checklistResponses.length
					: emulator.state.attachments.length;
			const { result, output } = await recorder.run({
				credentialId: CRED,
				parameters,
				items: [
					{
						json: {},
						binary: {
							data: {
								base64: photo.toString('base64'),
								fileName: 'unit.png',
								mimeType: 'image/png',
							},
						},
					},
				],
			});
			expect(result.error).toBeUndefined();
			expect(output).toHaveLength(1);
			expect(H.tokenRequests(emulator).map(H.grantOf)).toEqual(['refresh_token']);
			const api = H.apiRequests(emulator);
			expect(api.map((r) => `${r.method} ${r.path}`)).toEqual([route, route]);
			expect(api.map((r) => r.status)).toEqual([401, 201]);
			expect(api[1].rawBody.equals(api[0].rawBody)).toBe(true);
			const file = api[1].parts.find((part) => part.name === 'file');
			expect(file.filename).toBe('unit.png');
			expect(file.contentType).toBe('image/png');
			expect(file.data.equals(photo)).toBe(true);
			const storedAfter =
				kind === 'checklist picture'
					? emulator.state.checklistResponses.length
					: emulator.state.attachments.length;
			expect(storedAfter).toBe(storedBefore + 1);
		},
	);

	test("all tokens revoked while this process holds a newer token of the same settings (another worker's, another credential's): that one is not taken for a renewal, one refresh, the run completes", async () => {
		// two credentials with the same settings log in: the process's newest token is B's
		await recorder.run({
			credentialId: 'revoke-all-a',
			credentialData: H.passwordCredential(emulator),
			parameters: H.GET_WORK_ORDER,
			items: workOrderItems(1),
		});
		// B logs in as another worker would (that process knows no token of A's): here, after forgetting A's
		require('../support').forgetTokens();
		await recorder.run({
			credentialId: 'revoke-all-b',
			credentialData: H.passwordCredential(emulator),
			parameters: H.GET_WORK_ORDER,
			items: workOrderItems(1),
		});
		const a = harness.credentials.get('revoke-all-a');
		const b = harness.credentials.get('revoke-all-b');
		expect(b.accessToken).not.toBe(a.accessToken);
		emulator.revokeAccessTokens();
		emulator.clearRequests();

		const { result, output } = await recorder.run({
			credentialId: 'revoke-all-a',
			parameters: H.GET_WORK_ORDER_SEQUENTIAL,
			items: workOrderItems(2),
		});
		expect(result.error).toBeUndefined();
		expect(output).toHaveLength(2);
		const tokens = H.tokenRequests(emulator);
		expect(tokens.map(H.grantOf)).toEqual(['refresh_token']);
		expectRefreshGrant(tokens[0], a.refreshToken);
		const api = H.apiRequests(emulator);
		expect(api.map((r) => r.status)).toEqual([401, 200, 200]);
		expect(api.map(H.bearerOf)).not.toContain(b.accessToken);
	});

	test('a 401 that persists after the re-login is reported after one retry, never looped', async () => {
		const CRED = 'repeated-401';
		await recorder.run({
			credentialId: CRED,
			credentialData: H.passwordCredential(emulator),
			parameters: H.GET_WORK_ORDER,
			items: workOrderItems(1),
		});
		emulator.clearRequests();
		emulator.failNext({
			path: '/api/v3/workorders/',
			status: 401,
			count: 5,
			body: {
				ErrorCodes: [401001],
				ErrorCode: 401001,
				ErrorMessage: 'The request was rejected by security permissions',
			},
		});

		const { result, output } = await recorder.run({
			credentialId: CRED,
			parameters: H.GET_WORK_ORDER,
			items: workOrderItems(1),
		});
		expect(result.status).toBe('error');
		expect(output).toHaveLength(0);
		expect(H.tokenRequests(emulator).map(H.grantOf)).toEqual(['refresh_token']);
		expect(H.apiRequests(emulator).map((r) => r.status)).toEqual([401, 401]);
		expect(result.error.message).toMatch(/401/);
		expect(result.error.message).toMatch(/rejected by security permissions/);
	});
});

test('leak check: no client secret, password, access or refresh token in any output, error or log of this file', () => {
	expect(recorder.results.length).toBeGreaterThanOrEqual(8);
	const secrets = H.allSecrets(emulator);
	expect(secrets.length).toBeGreaterThan(10);
	expect(recorder.leaks(secrets)).toEqual([]);
});
