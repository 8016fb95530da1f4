// @ts-check
'use strict';
/**
 * Shared set-up for workflow tests: the emulator on a free 127.0.0.1 port, the n8n-core harness
 * with this package loaded from dist/, credentials pointing at the emulator, and a builder for
 * "Manual Trigger -> Items -> Work Order Service" workflows.
 */
const path = require('path');
const { startEmulator } = require('../emulator');
const { createHarness } = require('../harness');

const ROOT = path.resolve(__dirname, '..', '..');
const NODE_NAME = 'Work Order Service';

const CREDENTIAL_TYPES = {
	password: 'workOrderServiceApi',
	oAuth2: 'workOrderServiceOAuth2Api',
	contractor: 'workOrderServiceContractorApi',
};

/** @param {{ emulatorOptions?: object }} [options] */
async function setup(options = {}) {
	const emulator = await startEmulator(options.emulatorOptions ?? {});
	const harness = await createHarness({ packageDir: ROOT });
	return {
		emulator,
		harness,
		async close() {
			harness.close();
			await emulator.close();
		},
	};
}

/**
 * Credential data for the password-grant credential.
 * @param {any} emulator
 * @param {string} [userKey] key of emulator.fixtures.users
 * @param {object} [extra]
 */
function passwordCredential(emulator, userKey = 'subscriber', extra = {}) {
	const client = emulator.fixtures.clients.main;
	const user = emulator.fixtures.users[userKey];
	return {
		authServerUrl: emulator.authUrl,
		baseUrl: emulator.baseUrl,
		clientId: client.clientId,
		clientSecret: client.clientSecret,
		username: user.username,
		password: user.password,
		subsidiaryId: '',
		...extra,
	};
}

/** @param {any} emulator @param {string} [userKey] */
function contractorCredential(emulator, userKey = 'contractor') {
	const client = emulator.fixtures.clients.main;
	const user = emulator.fixtures.users[userKey];
	return {
		authServerUrl: emulator.authUrl,
		baseUrl: emulator.baseUrl,
		clientId: client.clientId,
		clientSecret: client.clientSecret,
		username: user.username,
		password: user.password,
	};
}

/**
 * An OAuth2 (authorization code) credential as n8n stores it after Connect: oauthTokenData from the
 * emulator's token endpoint. @param {any} emulator @param {string} [userKey]
 */
async function oAuth2Credential(emulator, userKey = 'subscriber') {
	const client = emulator.fixtures.clients.main;
	const user = emulator.fixtures.users[userKey];
	const response = await fetch(`${emulator.authUrl}/oauth/token`, {
		method: 'POST',
		headers: {
			authorization: `Basic ${Buffer.from(`${client.clientId}:${client.clientSecret}`).toString('base64')}`,
			'content-type': 'application/x-www-form-urlencoded',
		},
		body: new URLSearchParams({
			grant_type: 'password',
			username: user.username,
			password: user.password,
		}),
	});
	return {
		authServerUrl: emulator.authUrl,
		baseUrl: emulator.baseUrl,
		clientId: client.clientId,
		clientSecret: client.clientSecret,
		authUrl: `${emulator.authUrl}/oauth/authorize`,
		accessTokenUrl: `${emulator.authUrl}/oauth/token`,
		grantType: 'authorizationCode',
		authentication: 'header',
		scope: '',
		authQueryParameters: '',
		oauthTokenData: await response.json(),
	};
}

/** One harness for a test file: created in beforeAll, closed in afterAll. */
function useFileHarness() {
	/** @type {{ harness: any }} */
	const env = { harness: null };
	beforeAll(async () => {
		env.harness = await createHarness({ packageDir: ROOT });
	});
	afterAll(async () => {
		await env.harness?.close();
	});
	return env;
}

const openEmulators = new Set();
let serviceCounter = 0;

/** Closes the emulators `serviceWithCredential` started, after each test of the file that calls this. */
function closeServicesAfterEach() {
	afterEach(async () => {
		for (const emulator of openEmulators) await emulator.close();
		openEmulators.clear();
	});
}

/**
 * A fresh emulator (long token lifetimes: tests move the service clock instead of waiting) and a
 * credential of the given kind for it, stored in the harness.
 * @param {any} harness
 * @param {{ authentication?: 'password'|'oAuth2'|'contractor', userKey?: string, emulatorOptions?: object, idPrefix?: string }} [options]
 * @returns {Promise<{ emu: any, credentialId: string }>}
 */
async function serviceWithCredential(
	harness,
	{ authentication = 'password', userKey, emulatorOptions = {}, idPrefix = 'cred' } = {},
) {
	const emu = await startEmulator({ accessTokenTtl: 86_400, jwtTtl: 86_400, ...emulatorOptions });
	openEmulators.add(emu);
	const credentialId = `${idPrefix}-${++serviceCounter}`;
	let data;
	if (authentication === 'contractor') data = contractorCredential(emu, userKey);
	else if (authentication === 'oAuth2') data = await oAuth2Credential(emu, userKey);
	else data = passwordCredential(emu, userKey);
	harness.credentials.set(credentialId, {
		name: `Emulator ${authentication}`,
		type: CREDENTIAL_TYPES[authentication],
		data,
	});
	return { emu, credentialId };
}

/**
 * Builds Manual Trigger -> Items -> Work Order Service.
 * @param {{ parameters: object, items?: any[], authentication?: 'password'|'oAuth2'|'contractor', credentialId?: string, continueOnFail?: boolean, nodeName?: string }} spec
 */
/** A test workflow's first two nodes: a Manual Trigger ("Start") and "Items", which emits `items` (at x 0 and 220). */
function startNodes(items) {
	return [
		{
			id: 'node-trigger',
			name: 'Start',
			type: 'n8n-nodes-base.manualTrigger',
			typeVersion: 1,
			position: [0, 0],
			parameters: {},
		},
		{
			id: 'node-items',
			name: 'Items',
			type: 'harness.items',
			typeVersion: 1,
			position: [220, 0],
			parameters: { items: JSON.stringify(items) },
		},
	];
}

function workflow(spec) {
	const authentication = spec.authentication ?? 'password';
	const credentialType = CREDENTIAL_TYPES[authentication];
	const credentialId = spec.credentialId ?? 'cred-1';
	const nodeName = spec.nodeName ?? NODE_NAME;
	/** @type {any} */
	const node = {
		id: 'node-wos',
		name: nodeName,
		type: 'n8n-nodes-work-order-service.workOrderService',
		typeVersion: 1,
		position: [440, 0],
		parameters: { authentication, ...spec.parameters },
		credentials: { [credentialType]: { id: credentialId, name: `Emulator ${authentication}` } },
	};
	if (spec.continueOnFail) node.onError = 'continueRegularOutput';
	return {
		name: 'test',
		nodes: [...startNodes(spec.items ?? [{ json: {} }]), node],
		connections: {
			Start: { main: [[{ node: 'Items', type: 'main', index: 0 }]] },
			Items: { main: [[{ node: nodeName, type: 'main', index: 0 }]] },
		},
		settings: { executionOrder: 'v1' },
	};
}

/**
 * Runs the node once with the given parameters and items; returns the run result and its output.
 * @param {any} harness
 * @param {Parameters<typeof workflow>[0] & { credentialData?: object, timeoutMs?: number }} spec
 */
async function runNode(harness, spec) {
	const credentialId = spec.credentialId ?? 'cred-1';
	const authentication = spec.authentication ?? 'password';
	if (spec.credentialData) {
		harness.credentials.set(credentialId, {
			name: `Emulator ${authentication}`,
			type: CREDENTIAL_TYPES[authentication],
			data: spec.credentialData,
		});
	}
	const result = await harness.run(workflow(spec), { timeoutMs: spec.timeoutMs ?? 60_000 });
	const output = result.outputs[spec.nodeName ?? NODE_NAME] ?? [];
	return { result, output, error: result.error };
}

const CRED_ID = 'cred-1';

/**
 * `n` new Open proposals of subscriber 1001 (amount 100, within the subscriber user's approval
 * limit, on a work order that is not invoiced); their IDs. The service refuses a move to the status
 * a proposal already has, so a test that approves many times needs a proposal per approval.
 * @param {any} emulator @param {number} n
 */
function openProposals(emulator, n, workOrderId = 90000006) {
	return Array.from(
		{ length: n },
		() => emulator.createProposal({ WorkOrderId: workOrderId, Amount: 100 }).Id,
	);
}

/**
 * Starts emulator + harness for a test file, stores a password credential under CRED_ID, and
 * returns a context whose fields are filled in beforeAll. Each test starts with no faults, no
 * response hook and an empty request log. Call at the top level of a test file.
 * @param {{ emulatorOptions?: object, userKey?: string }} [options]
 */
function useEnvironment(options = {}) {
	/** @type {any} */
	const env = { emulator: null, harness: null, close: null, fixtures: null };
	beforeAll(async () => {
		const s = await setup({ emulatorOptions: options.emulatorOptions });
		env.emulator = s.emulator;
		env.harness = s.harness;
		env.close = s.close;
		env.fixtures = s.emulator.fixtures;
		env.harness.credentials.set(CRED_ID, {
			name: 'Emulator password',
			type: 'workOrderServiceApi',
			data: passwordCredential(s.emulator, options.userKey ?? 'subscriber'),
		});
	});
	afterAll(async () => {
		if (env.close) await env.close();
	});
	beforeEach(() => {
		if (env.emulator) {
			env.emulator.resetFaults();
			env.emulator.onResponse = null;
			env.emulator.clearRequests();
		}
	});
	/**
	 * Runs the node once. spec: { parameters, items?, continueOnFail?, credentialId?, credentialData?, timeoutMs? }
	 * Returns { result, output, error, api, ms }: api = the API requests the emulator received during
	 * this run (token requests excluded), ms = wall time of the run.
	 * @param {any} spec
	 */
	env.run = async (spec) => {
		env.emulator.clearRequests();
		const started = Date.now();
		const r = await runNode(env.harness, { credentialId: CRED_ID, ...spec });
		return { ...r, api: apiRequests(env.emulator), ms: Date.now() - started };
	};
	return env;
}

/** Items with `json` only. @param {object[]} jsons */
function items(jsons) {
	return jsons.map((json) => ({ json }));
}

/** Requests the emulator received on the API (not the token endpoints). @param {any} emulator */
function apiRequests(emulator) {
	return emulator.requests.filter((/** @type {any} */ r) => r.path.startsWith('/api/'));
}

/** Requests to the token endpoints. @param {any} emulator */
function tokenRequests(emulator) {
	return emulator.requests.filter((/** @type {any} */ r) => r.path.startsWith('/auth/'));
}

/**
 * Forgets the tokens the package keeps in this process (what an n8n restart does): a test that
 * needs a first login of settings other tests logged in with starts from here (one process takes
 * a token it knows for the same settings instead of logging in again).
 */
function forgetTokens() {
	require(path.join(ROOT, 'dist/nodes/WorkOrderService/auth/tokens.js')).forgetTokens();
}

module.exports = {
	startNodes,
	ROOT,
	forgetTokens,
	NODE_NAME,
	CREDENTIAL_TYPES,
	CRED_ID,
	setup,
	useEnvironment,
	openProposals,
	passwordCredential,
	contractorCredential,
	oAuth2Credential,
	useFileHarness,
	closeServicesAfterEach,
	serviceWithCredential,
	workflow,
	runNode,
	items,
	apiRequests,
	tokenRequests,
};
