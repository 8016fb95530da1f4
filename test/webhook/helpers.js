'use strict';
/**
 * Shared helpers of the webhook trigger tests (test/webhook/*.test.js). Not a test file itself.
 *
 * One n8n-core harness per test file (it loads the package from dist/); every test starts its own
 * emulator and stores its own credential. Activation, deactivation and "Listen for test event" run
 * the node's webhook methods on n8n-core's HookContext; deliveries arrive over HTTP at the
 * harness's webhook server and run `webhook()` on a WebhookContext (test/harness/webhook.js).
 */
const crypto = require('node:crypto');
const {
	CREDENTIAL_TYPES,
	ROOT,
	closeServicesAfterEach,
	serviceWithCredential,
	useFileHarness,
} = require('../support');

const TYPE = 'n8n-nodes-work-order-service.workOrderServiceTrigger';
const NAME = 'Work Order Service Trigger';
const WEBHOOKS = '/api/v3/NotificationWebHooks';
const SIGNING_KEY = '/api/v3/NotificationSubscriptions/SigningKey';

const useHarness = useFileHarness;
closeServicesAfterEach();
let counter = 0;

/**
 * A fresh emulator (closed after the test; re-sends 50 ms apart) and a credential for it:
 * the Super Admin `manager` by default.
 */
async function freshService(
	harness,
	{ authentication = 'password', userKey, emulator = {}, webhookOptions = {} } = {},
) {
	const defaultUser = authentication === 'contractor' ? 'contractor' : 'manager';
	const service = await serviceWithCredential(harness, {
		authentication,
		userKey: userKey ?? defaultUser,
		emulatorOptions: emulator,
		idPrefix: 'hook-cred',
	});
	service.emu.setWebhookOptions({ retryDelayMs: 50, ...webhookOptions });
	return service;
}

/**
 * A workflow with the webhook trigger and a downstream node that passes items on.
 * @param {{ credentialId: string, events?: string[], rules?: object, authentication?: string, id?: string, webhookId?: string }} spec
 */
function hookWorkflow(spec) {
	const authentication = spec.authentication ?? 'password';
	const id = spec.id ?? `hook-wf-${++counter}`;
	return {
		id,
		name: `Webhook test ${id}`,
		nodes: [
			{
				id: `${id}-trigger`,
				name: NAME,
				type: TYPE,
				typeVersion: 1,
				position: [0, 0],
				webhookId: spec.webhookId ?? crypto.randomUUID(),
				parameters: {
					authentication,
					events: spec.events ?? ['WorkOrderCreated', 'WorkOrderStatusChanged'],
					rules: spec.rules ?? {},
				},
				credentials: {
					[CREDENTIAL_TYPES[authentication]]: {
						id: spec.credentialId,
						name: `Emulator ${authentication}`,
					},
				},
			},
			{
				id: `${id}-next`,
				name: 'Next',
				type: 'n8n-nodes-base.set',
				typeVersion: 3.4,
				position: [220, 0],
				parameters: {
					mode: 'raw',
					jsonOutput: '={{ { type: $json.EventType, id: $json.Object.Id } }}',
				},
			},
		],
		connections: { [NAME]: { main: [[{ node: 'Next', type: 'main', index: 0 }]] } },
		settings: { executionOrder: 'v1' },
	};
}

/** The webhooks the emulator holds (all accounts), as the API shows them. */
function registered(emu) {
	return [...emu.webhooks.hooks.values()].map((h) => ({
		account: h.account,
		...emu.webhooks.publicWebhook(h),
	}));
}

/** API requests after index `from` as "METHOD path" (webhook management and key only). */
function calls(emu, from = 0) {
	return emu.requests
		.slice(from)
		.filter((r) => r.path.startsWith(WEBHOOKS) || r.path === SIGNING_KEY)
		.map((r) => `${r.method} ${r.path.replace('/api/v3', '')} ${r.status}`);
}

/** Key reads so far. */
function keyReads(emu) {
	return emu.requests.filter((r) => r.path === SIGNING_KEY && r.method === 'GET').length;
}

/** The account key as the emulator holds it. */
function keyOf(emu, account = 'subscriber:1001') {
	return emu.webhooks.keyOf(account);
}

/** POSTs a body to a URL, signed (or not) like the service. @param {{ key?: string, signature?: string | null, reading?: 'utf8' | 'base64' }} o */
async function deliver(url, body, o = {}) {
	const raw = Buffer.isBuffer(body)
		? body
		: Buffer.from(typeof body === 'string' ? body : JSON.stringify(body), 'utf8');
	const headers = { 'content-type': 'application/json; charset=utf-8', 'sign-type': 'HMACSHA256' };
	if (o.signature !== null) {
		headers['sign-data'] =
			o.signature ??
			crypto
				.createHmac(
					'sha256',
					o.reading === 'base64' ? Buffer.from(o.key, 'base64') : Buffer.from(o.key, 'utf8'),
				)
				.update(raw)
				.digest('base64');
	}
	const started = Date.now();
	const response = await fetch(url, { method: 'POST', headers, body: raw });
	return { status: response.status, text: await response.text(), ms: Date.now() - started };
}

/**
 * An n8n restart for an active webhook workflow: the package's modules loaded afresh (under jest,
 * where they cannot be unloaded, the trigger's process memory - signing keys, bodies seen - is
 * cleared through the modules' own functions), then the workflow rebuilt from its saved static
 * data without running the node (n8n keeps its webhook rows).
 */
async function restart(harness, hook) {
	const fresh = await harness.reloadPackage();
	if (!fresh) {
		require(`${ROOT}/dist/nodes/WorkOrderService/webhook/signingKey.js`).forgetSigningKeys();
		require(`${ROOT}/dist/nodes/WorkOrderService/webhook/dedupe.js`).forgetAllBodies();
	}
	return await hook.restart();
}

/** Waits until `predicate()` is true. */
async function until(what, predicate, timeoutMs = 10_000) {
	const end = Date.now() + timeoutMs;
	for (;;) {
		const value = await predicate();
		if (value) return value;
		if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
		await new Promise((resolve) => setTimeout(resolve, 20));
	}
}

/** Waits until the emulator has made `count` delivery attempts and none is in flight. */
async function deliveries(emu, count, timeoutMs = 10_000) {
	await until(`${count} deliveries`, () => emu.deliveries.length >= count, timeoutMs);
	await emu.webhooksIdle();
	return emu.deliveries;
}

module.exports = {
	TYPE,
	NAME,
	CREDENTIAL_TYPES,
	WEBHOOKS,
	SIGNING_KEY,
	useHarness,
	freshService,
	hookWorkflow,
	registered,
	calls,
	keyReads,
	keyOf,
	restart,
	deliver,
	until,
	deliveries,
};
