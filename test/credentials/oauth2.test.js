'use strict';
/**
 * Authorization-code credential `workOrderServiceOAuth2Api`, end to end against the emulator:
 * the Connect flow the way n8n's OAuth2 controller does it (authorize URL from @n8n/client-oauth2,
 * sign in at the emulator's /auth/oauth/authorize form, follow the redirect to the callback with
 * `code`, exchange the code with redirect_uri and the Basic client header), the token data stored as
 * `oauthTokenData`, then workflow runs through n8n-core's requestOAuth2, including the refresh that
 * n8n-core does on a 401.
 */
const { ClientOAuth2 } = require('@n8n/client-oauth2');
const H = require('./helpers');

let emulator;
let harness;
let recorder;

H.useSuite((suite) => ({ emulator, harness, recorder } = suite));

const TYPE = 'workOrderServiceOAuth2Api';
const CRED = 'oauth2-code';
const GET_ONE = { resource: 'workOrder', operation: 'get', workOrderId: 90000001 };

/** The resolved credential data n8n hands to requestOAuth2 (defaults and `={{$self[...]}}` expressions applied). */
async function resolved(data) {
	return await harness.credentialsHelper.applyDefaultsAndOverwrites(
		{ executionId: 'resolve', variables: {} },
		data,
		TYPE,
		'manual',
	);
}

/**
 * n8n's Connect button: the authorize URL built by @n8n/client-oauth2 from the resolved credential,
 * the user signs in at the authorization server, the browser lands on n8n's callback with `code`.
 * @returns {Promise<{ oauth: ClientOAuth2, callbackUrl: string, state: string }>}
 */
async function connect(credential, user) {
	const state = 'n8n-state-' + Math.random().toString(36).slice(2);
	const oauth = new ClientOAuth2({
		clientId: credential.clientId,
		clientSecret: credential.clientSecret,
		accessTokenUri: credential.accessTokenUrl,
		authorizationUri: credential.authUrl,
		redirectUri: H.CALLBACK_URI,
		authentication: 'header',
		state,
	});
	const authorizeUrl = oauth.code.getUri();
	const page = await fetch(authorizeUrl, { redirect: 'manual' });
	expect(page.status).toBe(200);
	const html = await page.text();
	expect(html).toMatch(/<form method="post"/);
	const action = /<form method="post" action="([^"]+)"/.exec(html)[1].replace(/&amp;/g, '&');
	const hidden = [...html.matchAll(/<input type="hidden" name="([^"]+)" value="([^"]*)">/g)].map(
		(m) => [m[1], m[2].replace(/&amp;/g, '&')],
	);
	const signIn = await fetch(new URL(action, emulator.origin), {
		method: 'POST',
		redirect: 'manual',
		headers: { 'content-type': 'application/x-www-form-urlencoded' },
		body: new URLSearchParams([
			...hidden,
			['username', user.username],
			['password', user.password],
		]).toString(),
	});
	expect(signIn.status).toBe(302);
	const callbackUrl = signIn.headers.get('location');
	return { oauth, callbackUrl, state, authorizeUrl };
}

describe('authorization code flow', () => {
	let connectedTokenData;

	test('the hidden endpoint fields are derived from the Authorization Server URL (the harness resolves the $self defaults)', async () => {
		const data = await resolved({
			authServerUrl: `${emulator.authUrl}/`,
			baseUrl: emulator.baseUrl,
			clientId: 'x',
			clientSecret: 'y',
		});
		expect(data.authUrl).toBe(`${emulator.authUrl}/oauth/authorize`);
		expect(data.accessTokenUrl).toBe(`${emulator.authUrl}/oauth/token`);
		expect(data.grantType).toBe('authorizationCode');
		expect(data.authentication).toBe('header');
		expect(data.scope).toBe('');
		// a value stored for a hidden, type-owned field does not override the derivation
		const overridden = await resolved({
			authServerUrl: emulator.authUrl,
			authUrl: 'https://elsewhere.example/authorize',
			accessTokenUrl: 'https://elsewhere.example/token',
		});
		expect(overridden.authUrl).toBe(`${emulator.authUrl}/oauth/authorize`);
		expect(overridden.accessTokenUrl).toBe(`${emulator.authUrl}/oauth/token`);
	});

	test('Connect: sign in at /oauth/authorize, code to the callback, code exchange with redirect_uri and the Basic client header', async () => {
		const credential = await resolved({
			authServerUrl: emulator.authUrl,
			baseUrl: emulator.baseUrl,
			clientId: H.LEAK.clientId,
			clientSecret: H.LEAK.clientSecret,
		});
		const user = H.LEAK.users.subscriber;
		const { oauth, callbackUrl, state, authorizeUrl } = await connect(credential, user);

		const authorize = new URL(authorizeUrl);
		expect(`${authorize.origin}${authorize.pathname}`).toBe(`${emulator.authUrl}/oauth/authorize`);
		expect(authorize.searchParams.get('response_type')).toBe('code');
		expect(authorize.searchParams.get('client_id')).toBe(H.LEAK.clientId);
		expect(authorize.searchParams.get('redirect_uri')).toBe(H.CALLBACK_URI);

		const callback = new URL(callbackUrl);
		expect(`${callback.origin}${callback.pathname}`).toBe(H.CALLBACK_URI);
		expect(callback.searchParams.get('state')).toBe(state);
		const code = callback.searchParams.get('code');
		expect(code).toBeTruthy();

		// n8n's OAuth2 callback: oAuthObj.code.getToken(callbackUrl)
		const token = await oauth.code.getToken(callbackUrl);
		const exchanges = H.tokenRequests(emulator);
		expect(exchanges).toHaveLength(1);
		expect(exchanges[0].path).toBe('/auth/oauth/token');
		expect(exchanges[0].headers.authorization).toBe(H.basic());
		expect(exchanges[0].body).toEqual({
			grant_type: 'authorization_code',
			code,
			redirect_uri: H.CALLBACK_URI,
		});
		expect(exchanges[0].status).toBe(200);
		expect(token.data.access_token).toMatch(/^at_/);
		expect(token.data.refresh_token).toMatch(/^rt_/);
		expect(token.data.token_type).toBe('bearer');
		expect(token.data.expires_in).toBe(600);

		// n8n stores the token response as oauthTokenData; the user's fields stay as typed. The hidden
		// fields are set explicitly too (as the n8n UI saves them), although the type derives them.
		connectedTokenData = { ...token.data };
		harness.credentials.set(CRED, {
			name: 'Emulator OAuth2',
			type: TYPE,
			data: {
				clientId: H.LEAK.clientId,
				clientSecret: H.LEAK.clientSecret,
				authServerUrl: emulator.authUrl,
				baseUrl: emulator.baseUrl,
				authUrl: credential.authUrl,
				accessTokenUrl: credential.accessTokenUrl,
				grantType: 'authorizationCode',
				authentication: 'header',
				scope: '',
				authQueryParameters: '',
				oauthTokenData: connectedTokenData,
			},
		});
	});

	test('a workflow run uses the connected token as Bearer, without any token request', async () => {
		expect(connectedTokenData).toBeDefined();
		const { result, output } = await recorder.run({
			authentication: 'oAuth2',
			credentialId: CRED,
			parameters: GET_ONE,
		});
		expect(result.error).toBeUndefined();
		expect(result.status).toBe('success');
		expect(output).toHaveLength(1);
		expect(output[0].json.Id).toBe(90000001);
		expect(H.tokenRequests(emulator)).toHaveLength(0);
		const api = H.apiRequests(emulator);
		expect(api.map((r) => r.headers.authorization)).toEqual([
			`Bearer ${connectedTokenData.access_token}`,
		]);
		expect(harness.credentials.updates.filter((u) => u.id === CRED)).toHaveLength(0);
	});

	test('after the access token expires, n8n-core refreshes it (refresh grant + Basic client header), stores the new oauthTokenData, and the run succeeds', async () => {
		emulator.expireAccessTokens();
		const { result, output } = await recorder.run({
			authentication: 'oAuth2',
			credentialId: CRED,
			parameters: { ...GET_ONE, requestOptions: { concurrency: 1 } }, // the exact order of requests is asserted
			items: H.items([{}, {}]),
		});
		expect(result.error).toBeUndefined();
		expect(result.status).toBe('success');
		expect(output).toHaveLength(2);

		const tokens = H.tokenRequests(emulator);
		expect(tokens).toHaveLength(1);
		expect(tokens[0].path).toBe('/auth/oauth/token');
		expect(tokens[0].headers.authorization).toBe(H.basic());
		expect(tokens[0].body).toEqual({
			grant_type: 'refresh_token',
			refresh_token: connectedTokenData.refresh_token,
		});
		expect(tokens[0].body.client_secret).toBeUndefined();
		expect(tokens[0].status).toBe(200);
		const refreshed = H.responseJson(tokens[0]);

		const api = H.apiRequests(emulator);
		expect(api.map((r) => r.status)).toEqual([401, 200, 200]);
		expect(api.map((r) => r.headers.authorization)).toEqual([
			`Bearer ${connectedTokenData.access_token}`,
			`Bearer ${refreshed.access_token}`,
			`Bearer ${refreshed.access_token}`,
		]);

		const stored = harness.credentials.get(CRED);
		expect(stored.oauthTokenData.access_token).toBe(refreshed.access_token);
		expect(stored.oauthTokenData.refresh_token).toBe(refreshed.refresh_token);
		expect(stored.oauthTokenData.access_token).not.toBe(connectedTokenData.access_token);
		const updates = harness.credentials.updates.filter((u) => u.id === CRED);
		expect(updates.map((u) => u.via)).toEqual(['updateCredentialsOauthTokenData']);
		// the user's own fields are untouched by the refresh
		expect(stored.clientSecret).toBe(H.LEAK.clientSecret);
		expect(stored.authServerUrl).toBe(emulator.authUrl);
	});

	test('an Authorization Server URL with a trailing slash still reaches /auth/oauth/token exactly (no doubled slash)', async () => {
		const stored = harness.credentials.get(CRED);
		harness.credentials.set(CRED, {
			name: 'Emulator OAuth2',
			type: TYPE,
			data: { ...stored, authServerUrl: `${emulator.authUrl}/` },
		});
		emulator.expireAccessTokens();
		const { result } = await recorder.run({
			authentication: 'oAuth2',
			credentialId: CRED,
			parameters: GET_ONE,
		});
		expect(result.status).toBe('success');
		const tokens = H.tokenRequests(emulator);
		expect(tokens.map((t) => t.rawPath)).toEqual(['/auth/oauth/token']);
		expect(tokens[0].body.grant_type).toBe('refresh_token');
	});

	test('a refresh token that is no longer accepted: the run fails asking to reconnect the credential, without secrets', async () => {
		emulator.expireAccessTokens();
		emulator.expireRefreshTokens();
		const { result } = await recorder.run({
			authentication: 'oAuth2',
			credentialId: CRED,
			parameters: GET_ONE,
		});
		expect(result.status).toBe('error');
		expect(H.tokenRequests(emulator).map((t) => t.status)).toEqual([400]);
		expect(`${result.error.message} ${result.error.description ?? ''}`).toMatch(/reconnect/i);
	});
});

test('leak check: no client secret, password, code-flow or refreshed token in outputs, errors or logs', () => {
	const secrets = H.allSecrets(emulator);
	expect(recorder.results.length).toBeGreaterThanOrEqual(4);
	expect(recorder.leaks(secrets)).toEqual([]);
});
