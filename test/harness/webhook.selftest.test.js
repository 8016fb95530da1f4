// @ts-check
'use strict';

/**
 * Self-test of the harness's webhook-trigger support (webhook.js) with the fixture package's
 * webhook node (./fixture/src/nodes/HarnessFixtureWebhook): which n8n-core context each lifecycle
 * method gets and with which mode and activation, what is saved, how requests are answered and
 * which executions start, and "Listen for test event".
 */

const { afterAll, beforeAll, beforeEach, describe, expect, test } = require('@jest/globals');
const { NodeOperationError } = require('n8n-workflow');

const { createHarness } = require('./index');
const { buildFixturePackage, removeFixturePackage } = require('./fixture/build');

/** @type {string} */ let fixtureDir;
/** @type {import('./index').Harness} */ let harness;

const NODE = 'Fixture Webhook';

/** @param {Record<string, unknown>} [parameters] @param {string} [id] */
function workflow(parameters = {}, id = 'wf-hook-selftest') {
	return {
		id,
		name: 'webhook self-test',
		nodes: [
			{
				id: 'hook',
				name: NODE,
				type: harness.nodeType('harnessFixtureWebhook'),
				typeVersion: 1,
				position: [0, 0],
				webhookId: 'c0ffee00-0000-4000-8000-000000000001',
				parameters,
			},
			{
				id: 'next',
				name: 'Next',
				type: 'n8n-nodes-base.set',
				typeVersion: 3.4,
				position: [220, 0],
				parameters: { mode: 'raw', jsonOutput: '={{ { seen: $json.rawBody } }}' },
			},
		],
		connections: { [NODE]: { main: [[{ node: 'Next', type: 'main', index: 0 }]] } },
		settings: { executionOrder: 'v1' },
	};
}

/** @returns {any[]} */
const calls = () => /** @type {any} */ (globalThis).__fixtureWebhookCalls ?? [];

/** @param {string} url @param {string} body @param {Record<string, string>} [headers] */
async function post(url, body, headers = {}) {
	const r = await fetch(url, {
		method: 'POST',
		headers: { 'content-type': 'application/json', ...headers },
		body,
	});
	return { status: r.status, text: await r.text() };
}

beforeAll(async () => {
	fixtureDir = buildFixturePackage();
	harness = await createHarness({ packageDir: fixtureDir });
});

afterAll(async () => {
	await harness?.close();
	removeFixturePackage(fixtureDir);
});

beforeEach(() => {
	/** @type {any} */ (globalThis).__fixtureWebhookCalls = [];
});

describe('activation and deactivation (HookContext)', () => {
	test('checkExists then create, each on a HookContext in mode "trigger" with the activation mode and the production URL on the harness server; static data saved', async () => {
		const hook = await harness.activateWebhook(workflow(), { activation: 'activate' });
		expect(hook.activation.error).toBeUndefined();
		expect(hook.url).toBe(
			`${harness.webhookOrigin}/webhook/c0ffee00-0000-4000-8000-000000000001/hook`,
		);
		expect(
			calls().map(({ method, context, mode, activation, url, webhookName }) => ({
				method,
				context,
				mode,
				activation,
				url,
				webhookName,
			})),
		).toEqual([
			{
				method: 'checkExists',
				context: 'HookContext',
				mode: 'trigger',
				activation: 'activate',
				url: hook.url,
				webhookName: 'default',
			},
			{
				method: 'create',
				context: 'HookContext',
				mode: 'trigger',
				activation: 'activate',
				url: hook.url,
				webhookName: 'default',
			},
		]);
		expect(hook.activation.calls.map((c) => `${c.method}:${c.result}`)).toEqual([
			'checkExists:false',
			'create:true',
		]);
		expect(hook.activation.saved).toEqual({
			[`node:${NODE}`]: { registered: true, url: hook.url },
		});
		expect(hook.savedStaticData).toEqual(hook.activation.saved);
		const off = await hook.deactivate();
		expect(calls().at(-1)).toMatchObject({
			method: 'delete',
			context: 'HookContext',
			mode: 'internal',
			activation: 'update',
			staticData: { registered: true },
		});
		expect(off.saved).toEqual({ [`node:${NODE}`]: {} });
		expect(
			(
				await post(
					hook.url ?? `${harness.webhookOrigin}/webhook/c0ffee00-0000-4000-8000-000000000001/hook`,
					'{}',
				)
			).status,
		).toBe(404);
	});

	test('a restart runs nothing of the node; with lostRegistration it runs checkExists (activation "init") from the saved static data', async () => {
		const hook = await harness.activateWebhook(workflow());
		/** @type {any} */ (globalThis).__fixtureWebhookCalls = [];
		const plain = await hook.restart();
		expect(plain.calls).toEqual([]);
		expect(calls()).toEqual([]);
		expect((await post(/** @type {string} */ (hook.url), '{"a":1}')).status).toBe(200);
		const lost = await hook.restart({ lostRegistration: true });
		expect(lost.calls.map((c) => `${c.method}:${c.result}`)).toEqual(['checkExists:true']);
		expect(calls().map((c) => [c.method, c.activation, c.staticData.registered])).toEqual([
			['checkExists', 'init', true],
		]);
		await hook.deactivate();
	});

	test("a failing create fails the activation: the node's delete runs (2.41 clearRegisteredWebhook), the route is gone; attempts repeats it", async () => {
		const hook = await harness.activateWebhook(workflow({ failCreate: true }), { attempts: 2 });
		expect(hook.activation.error).toBeInstanceOf(NodeOperationError);
		expect(hook.activation.error?.message).toBe('Fixture create refused');
		expect(calls().map((c) => c.method)).toEqual([
			'checkExists',
			'create',
			'delete',
			'checkExists',
			'create',
			'delete',
		]);
		expect(hook.url).toBeUndefined();
	});
});

describe('requests (WebhookContext)', () => {
	test('workflowData: 200 "Workflow was started" at once, then one execution in mode "webhook" with the items on the stack; rawBody is the Buffer as sent, body parsed', async () => {
		const hook = await harness.activateWebhook(workflow());
		const body = '{"n":9007199254740993,"s":"\\u00e9"}';
		const answer = await post(`${hook.url}?x=1`, body);
		expect(answer).toEqual({
			status: 200,
			text: JSON.stringify({ message: 'Workflow was started' }),
		});
		const [execution] = await hook.waitForExecutions(1);
		expect(execution.mode).toBe('webhook');
		expect(execution.status).toBe('success');
		expect(execution.items.map((i) => i.json)).toEqual([
			{
				context: 'WebhookContext',
				mode: 'webhook',
				rawBody: body,
				body: { n: 9007199254740992, s: 'é' },
				contentType: 'application/json',
				query: { x: '1' },
				webhookName: 'default',
			},
		]);
		expect(execution.outputs.Next.map((i) => i.json)).toEqual([{ seen: body }]);
		expect(hook.deliveries.map((d) => [d.status, d.executionStarted])).toEqual([[200, true]]);
		await hook.deactivate();
	});

	test('no workflowData: 200 "Webhook call received", no execution; noWebhookResponse: the node\'s own answer; a throw: 500 and an error execution', async () => {
		const hook = await harness.activateWebhook(workflow());
		expect(
			await post(/** @type {string} */ (hook.url), '{}', { 'x-fixture-reply': 'no-data' }),
		).toEqual({ status: 200, text: JSON.stringify({ message: 'Webhook call received' }) });
		expect(
			await post(/** @type {string} */ (hook.url), '{}', { 'x-fixture-reply': 'node-401' }),
		).toEqual({ status: 401, text: 'refused by the node' });
		const thrown = await post(/** @type {string} */ (hook.url), '{}', {
			'x-fixture-reply': 'throw',
		});
		expect(thrown.status).toBe(500);
		expect(JSON.parse(thrown.text).message).toBe(
			'Workflow Webhook Error: Workflow could not be started!',
		);
		expect(hook.executions.map((e) => [e.status, e.error?.message])).toEqual([
			['error', 'fixture webhook failure'],
		]);
		expect(hook.deliveries.map((d) => [d.status, d.executionStarted, d.error?.message])).toEqual([
			[200, false, undefined],
			[401, false, undefined],
			[500, false, 'fixture webhook failure'],
		]);
		expect((await post(`${harness.webhookOrigin}/webhook/unknown/path`, '{}')).status).toBe(404);
		await hook.deactivate();
	});
});

describe('"Listen for test event"', () => {
	test('the /webhook-test/ URL with empty static data, checkExists/create in mode and activation "manual"; the first request runs the workflow in manual mode, then delete runs with the registration\'s static data', async () => {
		const listen = await harness.listenForTestEvent(workflow(), {
			staticData: { [`node:${NODE}`]: { registered: true } },
		});
		expect(listen.url).toBe(
			`${harness.webhookOrigin}/webhook-test/c0ffee00-0000-4000-8000-000000000001/hook`,
		);
		expect(calls().map((c) => [c.method, c.mode, c.activation, c.url, c.staticData])).toEqual([
			['checkExists', 'manual', 'manual', listen.url, {}],
			['create', 'manual', 'manual', listen.url, {}],
		]);
		expect((await post(/** @type {string} */ (listen.url), '{"t":1}')).status).toBe(200);
		const done = await listen.done;
		expect(done.why).toBe('request');
		expect(done.execution.mode).toBe('manual');
		expect(done.execution.items[0].json).toMatchObject({ mode: 'manual', rawBody: '{"t":1}' });
		expect(calls().at(-1)).toMatchObject({
			method: 'delete',
			mode: 'internal',
			activation: 'update',
			url: listen.testUrl,
			staticData: { registered: true, url: listen.testUrl },
		});
		expect((await post(listen.testUrl, '{}')).status).toBe(404);
	});

	test('the timeout ends the listen with delete; cancel() as well', async () => {
		const timed = await harness.listenForTestEvent(workflow(), { timeoutMs: 50 });
		expect((await timed.done).why).toBe('timeout');
		expect(calls().map((c) => c.method)).toEqual(['checkExists', 'create', 'delete']);
		const cancelled = await harness.listenForTestEvent(workflow());
		await cancelled.cancel();
		expect((await cancelled.done).why).toBe('cancel');
		expect(calls().map((c) => c.method)).toEqual([
			'checkExists',
			'create',
			'delete',
			'checkExists',
			'create',
			'delete',
		]);
	});
});
