// @ts-check
'use strict';
/**
 * Shared helpers of the credential / token-economy tests.
 *
 * - Distinctive identities (client secret, passwords) are added to the emulator's state at set-up,
 *   so that a leak can be found by searching for the exact strings.
 * - `Recorder` runs workflows through the harness and keeps every RunResult, so that each test file
 *   can end with a leak check over all of its outputs, errors and logs.
 * - Accessors for the emulator's request log: token requests, API requests, Bearer tokens.
 */
const net = require('node:net');
const S = require('../support');

/** Distinctive secrets: none of them is a substring of anything else the suite produces. */
const LEAK = {
	clientId: 'wos-leakcheck-client',
	clientSecret: 'CS-leak-7f3Qx!client-secret-9184',
	wrongClientSecret: 'CS-WRONG-leak-2Hk8?client-secret-5530',
	users: {
		subscriber: {
			username: 'leak.subscriber',
			password: 'PW-leak-subscriber-Zq8#4471',
			from: 'subscriber',
		},
		universal: {
			username: 'leak.universal',
			password: 'PW-leak-universal-Mv3%9902',
			from: 'universal',
		},
		contractor: {
			username: 'leak.contractor',
			password: 'PW-leak-contractor-Tt6&1207',
			from: 'contractor',
		},
		viewer: { username: 'leak.viewer', password: 'PW-leak-viewer-Rr2^6610', from: 'viewer' },
		limited: {
			username: 'leak.universal.limited',
			password: 'PW-leak-limited-Yy5*3381',
			from: 'noSubsidiaryPermission',
		},
	},
	wrongPassword: 'PW-WRONG-leak-Qm4$z8-7713',
};

const CALLBACK_URI = 'http://localhost:5678/rest/oauth2-credential/callback';

/**
 * Adds the distinctive client and users to the emulator (copies of the fixture users with
 * another user name and password, so they see the same data).
 * @param {any} emulator
 */
function addLeakIdentities(emulator) {
	emulator.state.clients[LEAK.clientId] = {
		clientId: LEAK.clientId,
		clientSecret: LEAK.clientSecret,
		callbackUris: [CALLBACK_URI],
	};
	for (const spec of Object.values(LEAK.users)) {
		const source = emulator.fixtures.users[spec.from];
		const original = emulator.state.users[source.username.toLowerCase()];
		emulator.state.users[spec.username] = {
			...original,
			permissions: [...original.permissions],
			children: original.children ? [...original.children] : undefined,
			username: spec.username,
			password: spec.password,
		};
	}
}

/** @returns {Promise<{ emulator: any, harness: any, close: () => Promise<void> }>} */
async function setupWithLeakIdentities() {
	const env = await S.setup();
	addLeakIdentities(env.emulator);
	return env;
}

/**
 * Registers the set-up every credential test file shares: emulator + harness with the distinctive
 * identities, a Recorder of every run, closed after the file; each test starts with no faults, no
 * response hook and an empty request log. `assign` receives { env, emulator, harness, recorder }.
 * @param {(suite: { env: any, emulator: any, harness: any, recorder: Recorder }) => void} assign
 */
function useSuite(assign) {
	/** @type {any} */
	let env;
	beforeAll(async () => {
		env = await setupWithLeakIdentities();
		assign({
			env,
			emulator: env.emulator,
			harness: env.harness,
			recorder: new Recorder(env.harness),
		});
	});
	afterAll(async () => {
		if (env) await env.close();
	});
	beforeEach(() => {
		// each test starts as a fresh n8n process: no token known for its settings
		S.forgetTokens();
		env.emulator.clearRequests();
		env.emulator.resetFaults();
		env.emulator.onResponse = null;
	});
}

/**
 * Password-grant credential data on the distinctive client and user.
 * @param {any} emulator @param {keyof typeof LEAK.users} [userKey] @param {object} [extra]
 */
function passwordCredential(emulator, userKey = 'subscriber', extra = {}) {
	const user = LEAK.users[userKey];
	return {
		authServerUrl: emulator.authUrl,
		baseUrl: emulator.baseUrl,
		clientId: LEAK.clientId,
		clientSecret: LEAK.clientSecret,
		username: user.username,
		password: user.password,
		subsidiaryId: '',
		...extra,
	};
}

/** @param {any} emulator @param {object} [extra] */
function contractorCredential(emulator, extra = {}) {
	const user = LEAK.users.contractor;
	return {
		authServerUrl: emulator.authUrl,
		baseUrl: emulator.baseUrl,
		clientId: LEAK.clientId,
		clientSecret: LEAK.clientSecret,
		username: user.username,
		password: user.password,
		...extra,
	};
}

/** `Basic BASE64(client_id:client_secret)`, computed independently of the code under test. */
function basic(clientId = LEAK.clientId, clientSecret = LEAK.clientSecret) {
	return `Basic ${Buffer.from(`${clientId}:${clientSecret}`, 'utf8').toString('base64')}`;
}

// ---- request log ----------------------------------------------------------------------------

/** Token requests (POST /auth/oauth/token and /auth/jwt/token) so far. @param {any} emulator */
function tokenRequests(emulator) {
	return emulator.tokenRequests();
}

/** Requests to the API (/api/...). @param {any} emulator */
function apiRequests(emulator) {
	return S.apiRequests(emulator);
}

/** The Bearer token a logged request carried ('' when none). @param {any} request */
function bearerOf(request) {
	const m = /^Bearer (\S+)$/.exec(String(request.headers.authorization ?? ''));
	return m ? m[1] : '';
}

/** Parsed JSON body of a logged response (token responses). @param {any} request */
function responseJson(request) {
	try {
		return JSON.parse(request.responseBody ?? '');
	} catch {
		return undefined;
	}
}

/** Which grant a logged token request used: 'password' | 'refresh_token' | 'subsidiary' | 'jwt-password' | 'jwt-refresh' | ... */
function grantOf(request) {
	const body = request.body ?? {};
	if (request.path === '/auth/jwt/token')
		return body.refresh_token !== undefined ? 'jwt-refresh' : 'jwt-password';
	if (body.subsidiary_id !== undefined) return 'subsidiary';
	return body.grant_type ?? '(none)';
}

// ---- secrets and leaks ----------------------------------------------------------------------

/**
 * Every secret value the emulator knows of: client secrets (and their Basic encodings), user
 * passwords, and every access/refresh token it issued (read from the token responses it sent).
 * @param {any} emulator @param {string[]} [extra]
 */
function allSecrets(emulator, extra = []) {
	/** @type {Set<string>} */
	const secrets = new Set([
		LEAK.clientSecret,
		LEAK.wrongClientSecret,
		LEAK.wrongPassword,
		...extra,
	]);
	secrets.add(basic().slice('Basic '.length));
	secrets.add(basic(LEAK.clientId, LEAK.wrongClientSecret).slice('Basic '.length));
	for (const user of Object.values(LEAK.users)) secrets.add(user.password);
	for (const request of emulator.requests) {
		const body = responseJson(request);
		if (body && typeof body === 'object') {
			for (const key of ['access_token', 'refresh_token'])
				if (typeof body[key] === 'string') secrets.add(body[key]);
		}
	}
	for (const rec of emulator.state.tokens) {
		secrets.add(rec.token);
		if (rec.refreshToken) secrets.add(rec.refreshToken);
	}
	return [...secrets].filter((s) => typeof s === 'string' && s.length >= 8);
}

/** JSON of anything (errors with their own properties and causes, BigInt, cycles). @param {unknown} value */
function dump(value) {
	const seen = new WeakSet();
	const text = JSON.stringify(value, function replacer(_key, v) {
		if (typeof v === 'bigint') return v.toString();
		if (v instanceof Error) {
			/** @type {Record<string, unknown>} */
			const out = { name: v.name, message: v.message, stack: v.stack };
			for (const k of Object.getOwnPropertyNames(v)) out[k] = /** @type {any} */ (v)[k];
			if (/** @type {any} */ (v).cause !== undefined) out.cause = /** @type {any} */ (v).cause;
			if (seen.has(v)) return '[cycle]';
			seen.add(v);
			return out;
		}
		if (Buffer.isBuffer(v)) return `[buffer ${v.length}]`;
		if (v && typeof v === 'object') {
			if (seen.has(v)) return '[cycle]';
			seen.add(v);
		}
		return v;
	});
	return text ?? '';
}

/** The texts of one run a user or an operator can see: outputs, errors, the stored execution, its logs. @param {any} result */
function visibleTexts(result) {
	/** @type {Record<string, string>} */
	const texts = {
		outputs: dump(result.outputs),
		'execution data (resultData)': dump(result.run?.data?.resultData),
		executionError: dump(result.executionError),
		logs: (result.logs ?? []).join('\n'),
	};
	if (result.error) {
		texts['error.message'] = String(result.error.message ?? '');
		texts['error.description'] = String(result.error.description ?? '');
		texts['error (all properties)'] = dump(result.error);
	}
	for (const [name, error] of Object.entries(result.nodeErrors ?? {}))
		texts[`nodeErrors[${name}]`] = dump(error);
	return texts;
}

/**
 * Which secrets occur in which text: [] when none. Reported as "<where>: <secret>".
 * @param {Record<string, string>} texts @param {string[]} secrets
 */
function findLeaks(texts, secrets) {
	/** @type {string[]} */
	const leaks = [];
	for (const [where, text] of Object.entries(texts)) {
		for (const secret of secrets) if (text.includes(secret)) leaks.push(`${where}: ${secret}`);
	}
	return leaks;
}

/** Runs workflows through the harness and keeps every result for the final leak check. */
class Recorder {
	/** @param {any} harness */
	constructor(harness) {
		this.harness = harness;
		/** @type {any[]} */
		this.results = [];
	}

	/** @param {Parameters<typeof S.runNode>[1]} spec */
	async run(spec) {
		const ran = await S.runNode(this.harness, spec);
		this.results.push(ran.result);
		return ran;
	}

	/**
	 * Leaks across every recorded run and the harness log.
	 * @param {string[]} secrets
	 */
	leaks(secrets) {
		/** @type {string[]} */
		const leaks = [];
		this.results.forEach((result, index) => {
			for (const leak of findLeaks(visibleTexts(result), secrets))
				leaks.push(`run ${index + 1} ${leak}`);
		});
		for (const leak of findLeaks({ 'harness.logs': this.harness.logs.join('\n') }, secrets))
			leaks.push(leak);
		return leaks;
	}
}

/** A TCP port on 127.0.0.1 with nothing listening on it. @returns {Promise<number>} */
function closedPort() {
	return new Promise((resolve, reject) => {
		const server = net.createServer();
		server.once('error', reject);
		server.listen(0, '127.0.0.1', () => {
			const { port } = /** @type {import('node:net').AddressInfo} */ (server.address());
			server.close(() => resolve(port));
		});
	});
}

const GET_WORK_ORDER = { resource: 'workOrder', operation: 'get', workOrderId: '={{ $json.id }}' };
/** The same, one item after another (Concurrency 1): for tests that assert the exact order of requests. */
const GET_WORK_ORDER_SEQUENTIAL = { ...GET_WORK_ORDER, requestOptions: { concurrency: 1 } };

module.exports = {
	LEAK,
	CALLBACK_URI,
	addLeakIdentities,
	setupWithLeakIdentities,
	useSuite,
	passwordCredential,
	contractorCredential,
	basic,
	tokenRequests,
	apiRequests,
	bearerOf,
	responseJson,
	grantOf,
	allSecrets,
	dump,
	visibleTexts,
	findLeaks,
	Recorder,
	closedPort,
	GET_WORK_ORDER,
	GET_WORK_ORDER_SEQUENTIAL,
	items: S.items,
};
