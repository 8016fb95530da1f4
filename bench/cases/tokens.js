'use strict';
/**
 * Case 1: token economy. For each credential type, token-endpoint requests (POST /auth/oauth/token
 * and /auth/jwt/token, counted in the emulator's request log) for
 *   (a) one execution of 1,000 items, starting from a credential without a token;
 *   (b) 10 consecutive executions of 100 items each (1,000 items in all), same start.
 * OAuth2 (authorization code) gets its token the way n8n's Connect button does (authorize URL from
 * @n8n/client-oauth2, sign-in form, code exchange); that exchange is counted too.
 * Naive contrast: one password-grant login per item, actually sent with plain fetch (1,000).
 */
const { ClientOAuth2 } = require('@n8n/client-oauth2');
const S = require('../../test/support');
const { median, round, log } = require('../lib/util');

const CALLBACK_URI = 'http://localhost:5678/rest/oauth2-credential/callback';

/** Work Order -> Get on a work order the credential's user can see (same operation for every type). */
const KINDS = [
	{
		key: 'password',
		label: 'password',
		authentication: 'password',
		workOrder: (f) => f.workOrders.checklist,
	},
	{
		key: 'child',
		label: 'password + child subscriber',
		authentication: 'password',
		workOrder: (f) => f.workOrders.child2001[0],
	},
	{
		key: 'contractor',
		label: 'contractor JWT',
		authentication: 'contractor',
		workOrder: (f) => f.workOrders.checklist,
	},
	{
		key: 'oAuth2',
		label: 'OAuth2 authorization code',
		authentication: 'oAuth2',
		workOrder: (f) => f.workOrders.checklist,
	},
];

/** n8n's Connect: authorize URL, sign in at the emulator's form, code to the callback, code exchange. */
async function connectOAuth2(emulator, user) {
	const client = emulator.fixtures.clients.main;
	const oauth = new ClientOAuth2({
		clientId: client.clientId,
		clientSecret: client.clientSecret,
		accessTokenUri: `${emulator.authUrl}/oauth/token`,
		authorizationUri: `${emulator.authUrl}/oauth/authorize`,
		redirectUri: CALLBACK_URI,
		authentication: 'header',
		state: `bench-${Math.random().toString(36).slice(2)}`,
	});
	const page = await fetch(oauth.code.getUri(), { redirect: 'manual' });
	const html = await page.text();
	const form = /<form method="post" action="([^"]+)"/.exec(html);
	if (page.status !== 200 || !form) throw new Error(`authorize page: HTTP ${page.status}`);
	const action = form[1].replace(/&amp;/g, '&');
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
	if (signIn.status !== 302) throw new Error(`sign-in: HTTP ${signIn.status}`);
	const token = await oauth.code.getToken(signIn.headers.get('location'));
	return {
		clientId: client.clientId,
		clientSecret: client.clientSecret,
		authServerUrl: emulator.authUrl,
		baseUrl: emulator.baseUrl,
		authUrl: `${emulator.authUrl}/oauth/authorize`,
		accessTokenUrl: `${emulator.authUrl}/oauth/token`,
		grantType: 'authorizationCode',
		authentication: 'header',
		scope: '',
		authQueryParameters: '',
		oauthTokenData: { ...token.data },
	};
}

let credentialCounter = 0;

/** What a token-endpoint request was: its grant, or the child-scope exchange, or a JWT login. */
function grantOf(entry) {
	if (/\/jwt\/token$/i.test(entry.path))
		return entry.body?.refresh_token ? 'jwt refresh' : 'jwt login';
	if (entry.body?.subsidiary_id !== undefined) return 'child-scope exchange';
	return entry.body?.grant_type ?? 'unknown';
}

function grantsSince(emulator, from) {
	const counts = {};
	for (const e of emulator.tokenRequests().slice(from))
		counts[grantOf(e)] = (counts[grantOf(e)] || 0) + 1;
	return counts;
}

/** A credential without any token yet; returns { id, setupTokenRequests }. */
async function freshCredential(emulator, harness, kind) {
	const id = `bench-tokens-${kind.key}-${++credentialCounter}`;
	// a first use as in a fresh n8n process: this one would hand a new credential of the same
	// settings the token it already knows (0 token requests)
	S.forgetTokens();
	const f = emulator.fixtures;
	const before = emulator.tokenRequests().length;
	let data;
	if (kind.key === 'password') data = S.passwordCredential(emulator, 'subscriber');
	else if (kind.key === 'child')
		data = S.passwordCredential(emulator, 'universal', { subsidiaryId: '2001' });
	else if (kind.key === 'contractor') data = S.contractorCredential(emulator, 'contractor');
	else data = await connectOAuth2(emulator, f.users.subscriber);
	harness.credentials.set(id, {
		name: `Bench ${kind.label}`,
		type: S.CREDENTIAL_TYPES[kind.authentication],
		data,
	});
	return { id, setupTokenRequests: emulator.tokenRequests().length - before };
}

async function execute(emulator, harness, kind, credentialId, count) {
	const wf = S.workflow({
		authentication: kind.authentication,
		credentialId,
		parameters: {
			resource: 'workOrder',
			operation: 'get',
			workOrderId: kind.workOrder(emulator.fixtures),
		},
		items: Array.from({ length: count }, () => ({ json: {} })),
	});
	const result = await harness.run(wf, { timeoutMs: 180_000 });
	const out = result.outputs[S.NODE_NAME] ?? [];
	if (result.status !== 'success' || out.length !== count) {
		throw new Error(
			`${kind.label}: run ${result.status} with ${out.length}/${count} items: ${result.error?.message}`,
		);
	}
	return out.length;
}

/** The naive connector: a password-grant login for every item (actually sent). */
async function naiveLogins(emulator, count) {
	const client = emulator.fixtures.clients.main;
	const user = emulator.fixtures.users.subscriber;
	const basic = `Basic ${Buffer.from(`${client.clientId}:${client.clientSecret}`).toString('base64')}`;
	const before = emulator.tokenRequests().length;
	const t0 = performance.now();
	for (let i = 0; i < count; i++) {
		const res = await fetch(`${emulator.authUrl}/oauth/token`, {
			method: 'POST',
			headers: { authorization: basic, 'content-type': 'application/x-www-form-urlencoded' },
			body: new URLSearchParams({
				grant_type: 'password',
				username: user.username,
				password: user.password,
			}).toString(),
		});
		await res.arrayBuffer();
		if (res.status !== 200) throw new Error(`naive login ${i}: HTTP ${res.status}`);
	}
	return { tokenRequests: emulator.tokenRequests().length - before, ms: performance.now() - t0 };
}

async function run({ emulator, harness, runs = 3, items = 1000, executions = 10 }) {
	const perExecution = Math.round(items / executions);
	const rows = {};
	for (const kind of KINDS)
		rows[kind.key] = {
			label: kind.label,
			oneExecution: [],
			consecutive: [],
			connectTokenRequests: [],
			apiRequests: [],
			grants: null,
		};
	const naive = [];
	const delivered = { out: 0, sent: 0 };
	const count = async (promise, n) => {
		delivered.out += await promise;
		delivered.sent += n;
	};
	for (let r = 0; r < runs; r++) {
		for (const kind of KINDS) {
			// (a) one execution of `items` items
			const start = emulator.tokenRequests().length;
			let cred = await freshCredential(emulator, harness, kind);
			let before = emulator.tokenRequests().length;
			let apiBefore = S.apiRequests(emulator).length;
			await count(execute(emulator, harness, kind, cred.id, items), items);
			rows[kind.key].oneExecution.push(
				cred.setupTokenRequests + emulator.tokenRequests().length - before,
			);
			rows[kind.key].apiRequests.push(S.apiRequests(emulator).length - apiBefore);
			rows[kind.key].connectTokenRequests.push(cred.setupTokenRequests);
			rows[kind.key].grants = grantsSince(emulator, start);
			// (b) `executions` consecutive executions of items/executions items
			cred = await freshCredential(emulator, harness, kind);
			before = emulator.tokenRequests().length;
			for (let e = 0; e < executions; e++)
				await count(execute(emulator, harness, kind, cred.id, perExecution), perExecution);
			rows[kind.key].consecutive.push(
				cred.setupTokenRequests + emulator.tokenRequests().length - before,
			);
			emulator.clearRequests();
		}
		naive.push(await naiveLogins(emulator, items));
		emulator.clearRequests();
		log(`case 1: run ${r + 1}/${runs} done`);
	}
	const byKind = Object.entries(rows).map(([key, v]) => ({
		key,
		label: v.label,
		oneExecution: median(v.oneExecution),
		consecutive: median(v.consecutive),
		samples: { oneExecution: v.oneExecution, consecutive: v.consecutive },
		connectTokenRequests: median(v.connectTokenRequests),
		tokenRequestKinds: v.grants,
		apiRequestsPerExecution: median(v.apiRequests),
		met: median(v.oneExecution) === 1 && median(v.consecutive) === 1,
	}));
	return {
		items,
		executions,
		itemsPerConsecutiveExecution: perExecution,
		runs,
		note: "Token-endpoint requests counted in the emulator log, from a credential without a token. OAuth2: the one request is the authorization-code exchange of n8n's Connect flow (executions themselves send none).",
		byKind,
		deliveries: [{ label: 'items out of the node (work order reads)', ...delivered }].map((d) => ({
			label: d.label,
			delivered: d.out,
			sent: d.sent,
		})),
		naive: {
			tokenRequests: median(naive.map((n) => n.tokenRequests)),
			ms: round(median(naive.map((n) => n.ms)), 1),
			method: 'measured: a password-grant POST /auth/oauth/token per item with plain fetch',
		},
		met: byKind.every((k) => k.met),
	};
}

module.exports = { run };
