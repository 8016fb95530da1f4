'use strict';
/**
 * Token endpoint failures are explained (issue 3, "Transport"; field notes "Authentication quirks"
 * and "Rate limits"): wrong client (401), wrong client answered with a 302 to a login page, wrong
 * user/password, throttling (429 + Retry-After), unreachable authorization server. Each message
 * names the cause and contains no secret; the node makes no API call with a failed login.
 */
const H = require('./helpers');
const { forgetTokens } = require('../support');

let emulator;
let harness;
let recorder;

H.useSuite((suite) => ({ emulator, harness, recorder } = suite));

const GET_ONE = { resource: 'workOrder', operation: 'get', workOrderId: 90000001 };
let credCounter = 0;

/** Runs GET work order once on a fresh credential (so a login is needed). */
function runFresh(credentialData, extra = {}) {
	return recorder.run({
		credentialId: `err-${++credCounter}`,
		credentialData,
		parameters: GET_ONE,
		...extra,
	});
}

function errorText(result) {
	return `${result.error?.message ?? ''}\n${result.error?.description ?? ''}`;
}

describe('wrong client', () => {
	test('wrong client secret (401 invalid_client): "client credentials rejected", names Client ID / Client Secret, no secret, one request, no API call', async () => {
		const { result, output } = await runFresh(
			H.passwordCredential(emulator, 'subscriber', { clientSecret: H.LEAK.wrongClientSecret }),
		);
		expect(result.status).toBe('error');
		expect(output).toHaveLength(0);
		const tokens = H.tokenRequests(emulator);
		expect(tokens.map((t) => t.status)).toEqual([401]);
		expect(tokens[0].headers.authorization).toBe(
			H.basic(H.LEAK.clientId, H.LEAK.wrongClientSecret),
		);
		expect(H.apiRequests(emulator)).toHaveLength(0);
		expect(result.error.message).toMatch(/client credentials rejected/i);
		expect(result.error.message).toMatch(/401/);
		expect(result.error.message).toMatch(/Client ID/);
		expect(result.error.message).toMatch(/Client Secret/);
		expect(errorText(result)).not.toContain(H.LEAK.wrongClientSecret);
		expect(errorText(result)).not.toContain(
			H.basic(H.LEAK.clientId, H.LEAK.wrongClientSecret).slice(6),
		);
	});

	test('the same with "continue on fail": an error item with the explanation, no secret', async () => {
		const { result, output } = await runFresh(
			H.passwordCredential(emulator, 'subscriber', { clientSecret: H.LEAK.wrongClientSecret }),
			{
				continueOnFail: true,
				items: H.items([{}, {}]),
			},
		);
		expect(result.status).toBe('success');
		expect(output).toHaveLength(2);
		expect(output[0].json.error).toMatch(/client credentials rejected/i);
		expect(output[0].pairedItem).toEqual({ item: 0 });
		expect(JSON.stringify(output)).not.toContain(H.LEAK.wrongClientSecret);
		expect(H.apiRequests(emulator)).toHaveLength(0);
	});

	test('wrong client answered with a 302 to an HTML login page (badClientRedirect): "client credentials or authorization URL rejected", the redirect is not followed', async () => {
		emulator.setFaults({ badClientRedirect: true });
		const { result } = await runFresh(
			H.passwordCredential(emulator, 'subscriber', { clientSecret: H.LEAK.wrongClientSecret }),
		);
		expect(result.status).toBe('error');
		const tokens = H.tokenRequests(emulator);
		expect(tokens.map((t) => t.status)).toEqual([302]);
		expect(emulator.requests.filter((r) => r.path.startsWith('/auth/login'))).toHaveLength(0); // not followed
		expect(H.apiRequests(emulator)).toHaveLength(0);
		expect(result.error.message).toMatch(/client credentials or authorization URL rejected/i);
		expect(result.error.message).not.toMatch(/JSON|Unexpected token|parse/i);
		expect(errorText(result)).not.toContain(H.LEAK.wrongClientSecret);
	});

	test('the contractor login gets the same explanation for a 302', async () => {
		emulator.setFaults({ badClientRedirect: true });
		const { result } = await recorder.run({
			authentication: 'contractor',
			credentialId: `err-${++credCounter}`,
			credentialData: H.contractorCredential(emulator, { clientSecret: H.LEAK.wrongClientSecret }),
			parameters: GET_ONE,
		});
		expect(result.status).toBe('error');
		expect(H.tokenRequests(emulator).map((t) => [t.path, t.status])).toEqual([
			['/auth/jwt/token', 302],
		]);
		expect(emulator.requests.filter((r) => r.path.startsWith('/auth/login'))).toHaveLength(0);
		expect(result.error.message).toMatch(/client credentials or authorization URL rejected/i);
	});
});

describe('wrong user', () => {
	test('wrong password (400 invalid_grant): "username or password rejected", no password in the message', async () => {
		const { result } = await runFresh(
			H.passwordCredential(emulator, 'subscriber', { password: H.LEAK.wrongPassword }),
		);
		expect(result.status).toBe('error');
		const tokens = H.tokenRequests(emulator);
		expect(tokens.map(H.grantOf)).toEqual(['password']);
		expect(tokens.map((t) => t.status)).toEqual([400]);
		expect(H.apiRequests(emulator)).toHaveLength(0);
		expect(result.error.message).toMatch(/username or password rejected/i);
		expect(result.error.message).toMatch(/Username and Password/);
		expect(result.error.message).not.toMatch(/client credentials/i);
		expect(errorText(result)).not.toContain(H.LEAK.wrongPassword);
		expect(errorText(result)).not.toContain(H.LEAK.users.subscriber.password);
	});
});

describe('throttled token endpoint', () => {
	test('429 with Retry-After (seconds): the login waits as told, then succeeds', async () => {
		emulator.setFaults({ tokenRateLimit: { perUserMs: 1500 } });
		// a first login of the same user opens the throttle window ...
		const first = await runFresh(H.passwordCredential(emulator));
		expect(first.result.status).toBe('success');
		emulator.clearRequests();
		// ... so a second credential of that user, in a process that knows no token of it (another worker), is answered 429 at once
		forgetTokens();
		const started = Date.now();
		const { result, output } = await runFresh(H.passwordCredential(emulator));
		expect(result.error).toBeUndefined();
		expect(result.status).toBe('success');
		expect(output).toHaveLength(1);
		const tokens = H.tokenRequests(emulator);
		expect(tokens.map(H.grantOf)).toEqual(['password', 'password']);
		expect(tokens.map((t) => t.status)).toEqual([429, 200]);
		const retryAfter = Number(tokens[0].responseHeaders['retry-after']);
		expect(retryAfter).toBeGreaterThanOrEqual(1);
		expect(Date.parse(tokens[1].time) - Date.parse(tokens[0].time)).toBeGreaterThanOrEqual(
			retryAfter * 1000 - 50,
		);
		expect(Date.now() - started).toBeLessThan(10_000);
	});

	test('429 with Retry-After as an HTTP date: waits, then succeeds', async () => {
		emulator.setFaults({ tokenRateLimit: { perUserMs: 1500, retryAfter: 'date' } });
		await runFresh(H.passwordCredential(emulator));
		emulator.clearRequests();
		forgetTokens(); // the second login as another worker's (that process knows no token of the user)
		const { result } = await runFresh(H.passwordCredential(emulator));
		expect(result.status).toBe('success');
		const tokens = H.tokenRequests(emulator);
		// An HTTP date has whole seconds, so the wait it gives can end just before the window does:
		// one more 429 (and wait) is legitimate; what matters is waiting, boundedly, then success.
		expect(tokens.map((t) => t.status).join(',')).toMatch(/^429,(429,)?200$/);
		expect(tokens[0].responseHeaders['retry-after']).toMatch(/GMT$/);
		expect(Date.parse(tokens[1].time) - Date.parse(tokens[0].time)).toBeGreaterThanOrEqual(500);
	});

	test('a child-subscriber login under the throttle (password grant and subsidiary step of one user) waits and completes', async () => {
		emulator.setFaults({ tokenRateLimit: { perUserMs: 1500 } });
		const { result, output } = await recorder.run({
			credentialId: `err-${++credCounter}`,
			credentialData: H.passwordCredential(emulator, 'universal', { subsidiaryId: '2001' }),
			parameters: { resource: 'workOrder', operation: 'getAll', returnAll: true, simplify: false },
		});
		expect(result.status).toBe('success');
		expect(new Set(output.map((i) => i.json.Subscriber.Id))).toEqual(new Set([2001]));
		const tokens = H.tokenRequests(emulator);
		expect(tokens.map(H.grantOf)).toEqual(['password', 'subsidiary', 'subsidiary']);
		expect(tokens.map((t) => t.status)).toEqual([200, 429, 200]);
		// the retried step still carries the universal token as Bearer
		const universalToken = H.responseJson(tokens[0]).access_token;
		expect(tokens[2].headers.authorization).toBe(`Bearer ${universalToken}`);
	});

	test('503 with Retry-After (older deployments) on the token endpoint: waits, then succeeds', async () => {
		emulator.failNext({
			path: '/auth/oauth/token',
			status: 503,
			headers: { 'retry-after': '1' },
			body: { error: 'temporarily_unavailable', error_description: 'Too many requests' },
		});
		const { result } = await runFresh(H.passwordCredential(emulator));
		expect(result.status).toBe('success');
		const tokens = H.tokenRequests(emulator);
		expect(tokens.map((t) => t.status)).toEqual([503, 200]);
		expect(tokens.map(H.grantOf)).toEqual(['password', 'password']);
		expect(Date.parse(tokens[1].time) - Date.parse(tokens[0].time)).toBeGreaterThanOrEqual(950);
	});

	test('a Retry-After too long to wait for: a clear "throttled" error at once, no secret', async () => {
		emulator.setFaults({ tokenRateLimit: { perUserMs: 1500, retryAfterSeconds: 600 } });
		await runFresh(H.passwordCredential(emulator)); // opens the window (first request is not throttled)
		emulator.clearRequests();
		forgetTokens(); // the second login as another worker's (that process knows no token of the user)
		const started = Date.now();
		const { result } = await runFresh(H.passwordCredential(emulator));
		expect(Date.now() - started).toBeLessThan(5_000);
		expect(result.status).toBe('error');
		expect(H.tokenRequests(emulator).map((t) => t.status)).toEqual([429]);
		expect(H.apiRequests(emulator)).toHaveLength(0);
		expect(result.error.message).toMatch(/throttl/i);
		expect(result.error.message).toMatch(/429/);
	});
});

describe('unreachable authorization server', () => {
	let port;
	let ran;
	beforeAll(async () => {
		port = await H.closedPort();
	});

	test('a closed port on 127.0.0.1: the run fails with no API call', async () => {
		ran = await runFresh(
			H.passwordCredential(emulator, 'subscriber', {
				authServerUrl: `http://127.0.0.1:${port}/auth`,
			}),
		);
		expect(ran.result.status).toBe('error');
		expect(emulator.requests).toHaveLength(0);
		expect(errorText(ran.result)).not.toContain(H.LEAK.clientSecret);
		expect(errorText(ran.result)).not.toContain(H.LEAK.users.subscriber.password);
	});

	test('the message names the cause: the authorization server (its address) could not be reached', () => {
		expect(ran).toBeDefined();
		const { message } = ran.result.error;
		// transport/credential intent: "Login to the Work Order Service failed: Could not reach the
		// authorization server at http://127.0.0.1:<port> (ECONNREFUSED) during the password grant. ..."
		expect(message).toMatch(/authorization server/i);
		expect(message).toContain(`127.0.0.1:${port}`);
		expect(message).toMatch(/could not reach|unreachable|ECONNREFUSED|refused/i);
	});

	test('with "continue on fail" the error item names the authorization server too', async () => {
		const { output } = await runFresh(
			H.passwordCredential(emulator, 'subscriber', {
				authServerUrl: `http://127.0.0.1:${port}/auth`,
			}),
			{
				continueOnFail: true,
			},
		);
		expect(output).toHaveLength(1);
		expect(output[0].json.error).toMatch(/authorization server/i);
	});
});

test('leak check: no secret in any of these errors, error items or logs', () => {
	const secrets = H.allSecrets(emulator);
	expect(recorder.results.length).toBeGreaterThanOrEqual(12);
	expect(recorder.leaks(secrets)).toEqual([]);
});
