'use strict';
/**
 * Work Order Service Trigger (webhook): self-registration through n8n's webhook lifecycle. Each
 * activation runs `checkExists` / `create` on n8n-core's HookContext the way n8n does, each
 * deactivation `delete`; the tests assert what the emulator received and holds, and what the node
 * keeps in static data.
 */
const { NodeOperationError } = require('n8n-workflow');
const H = require('./helpers');

const env = H.useHarness();

const ALL_WO = ['WorkOrderCreated', 'WorkOrderStatusChanged', 'WorkOrderNoteAdded'];

describe('activation', () => {
	test('creates one webhook: Enabled, at the production URL, one subscription per object with the chosen events and rules; static data holds only its Id and URL', async () => {
		const { emu, credentialId } = await H.freshService(env.harness);
		const events = [...ALL_WO, 'ProposalApproved', 'ProposalRejected', 'CheckListResponseAdded'];
		const hook = await env.harness.activateWebhook(
			H.hookWorkflow({
				credentialId,
				events,
				rules: { trades: 'HVAC, plumbing', categories: 'REPAIR', statuses: 'OPEN' },
			}),
		);
		expect(hook.activation.error).toBeUndefined();
		expect(hook.activation.calls.map((c) => `${c.method}:${c.result}`)).toEqual([
			'checkExists:false',
			'create:true',
		]);
		expect(H.calls(emu)).toEqual([
			'GET /NotificationWebHooks 200',
			'POST /NotificationWebHooks 201',
			'GET /NotificationSubscriptions/SigningKey 200',
		]);
		const [webhook] = H.registered(emu);
		expect(H.registered(emu)).toHaveLength(1);
		expect(webhook).toMatchObject({ account: 'subscriber:1001', Url: hook.url, Enabled: true });
		expect(hook.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/webhook\/[0-9a-f-]{36}\/webhook$/);
		expect(webhook.Name).toContain('Work Order Service Trigger');
		const rules = { Trades: ['HVAC', 'plumbing'], Categories: ['REPAIR'] };
		expect(
			webhook.Subscriptions.map(({ Name, EventTypes, Rules }) => ({ Name, EventTypes, Rules })),
		).toEqual([
			{ Name: 'n8n: work orders', EventTypes: ALL_WO, Rules: { ...rules, Statuses: ['OPEN'] } },
			{
				Name: 'n8n: proposals',
				EventTypes: ['ProposalApproved', 'ProposalRejected'],
				Rules: { ...rules, Statuses: [] },
			},
			{
				Name: 'n8n: checklist responses',
				EventTypes: ['CheckListResponseAdded'],
				Rules: { ...rules, Statuses: [] },
			},
		]);
		expect(hook.activation.saved).toEqual({
			[`node:${H.NAME}`]: { webhookId: webhook.Id, webhookUrl: hook.url },
		});
		expect(JSON.stringify(hook.savedStaticData)).not.toContain(H.keyOf(emu));
	});

	test('only the objects with chosen events get a subscription', async () => {
		const { emu, credentialId } = await H.freshService(env.harness);
		const hook = await env.harness.activateWebhook(
			H.hookWorkflow({ credentialId, events: ['ProposalApproved'] }),
		);
		expect(hook.activation.error).toBeUndefined();
		expect(H.registered(emu)[0].Subscriptions.map((s) => [s.Name, s.EventTypes, s.Rules])).toEqual([
			['n8n: proposals', ['ProposalApproved'], { Trades: [], Categories: [], Statuses: [] }],
		]);
	});

	test('no events chosen: activation fails naming the parameter, and nothing is sent', async () => {
		const { emu, credentialId } = await H.freshService(env.harness);
		const hook = await env.harness.activateWebhook(H.hookWorkflow({ credentialId, events: [] }));
		expect(hook.activation.error).toBeInstanceOf(NodeOperationError);
		expect(hook.activation.error.message).toBe('Choose at least one event (parameter "events")');
		expect(H.calls(emu).filter((c) => !c.startsWith('GET'))).toEqual([]);
		expect(H.registered(emu)).toEqual([]);
	});

	test('the three credential types: OAuth2 (authorization code) and a contractor (provider account) register as well', async () => {
		for (const authentication of ['oAuth2', 'contractor']) {
			const { emu, credentialId } = await H.freshService(env.harness, { authentication });
			const hook = await env.harness.activateWebhook(
				H.hookWorkflow({ credentialId, authentication }),
			);
			expect(hook.activation.error).toBeUndefined();
			expect(H.registered(emu).map((w) => [w.account, w.Url])).toEqual([
				[authentication === 'contractor' ? 'provider:3001' : 'subscriber:1001', hook.url],
			]);
			// a delivery is verified with that account's key, read through this credential
			emu.setWorkOrderStatus(90000004, 'COMPLETED', 'PENDING CONFIRMATION');
			const [execution] = await hook.waitForExecutions(1);
			expect(execution.items.map((i) => [i.json.EventType, i.json.Object.Id])).toEqual([
				['WorkOrderStatusChanged', 90000004],
			]);
			await hook.deactivate();
			expect(H.registered(emu)).toEqual([]);
		}
	});
});

describe('checkExists: one webhook, whatever the service holds', () => {
	test('after n8n lost its registration (restart), the stored webhook is found by its Id: no second one', async () => {
		const { emu, credentialId } = await H.freshService(env.harness);
		const hook = await env.harness.activateWebhook(H.hookWorkflow({ credentialId }));
		const id = H.registered(emu)[0].Id;
		const from = emu.requests.length;
		const again = await hook.restart({ lostRegistration: true });
		expect(again.error).toBeUndefined();
		expect(again.calls.map((c) => `${c.method}:${c.result}`)).toEqual(['checkExists:true']);
		// the key is still in this process's memory: not read again
		expect(H.calls(emu, from)).toEqual(['GET /NotificationWebHooks 200']);
		expect(H.registered(emu).map((w) => w.Id)).toEqual([id]);
	});

	test('a plain restart runs nothing of the node (n8n keeps its webhook rows); the webhook keeps working', async () => {
		const { emu, credentialId } = await H.freshService(env.harness);
		const hook = await env.harness.activateWebhook(H.hookWorkflow({ credentialId }));
		const from = emu.requests.length;
		const restarted = await hook.restart();
		expect(restarted.calls).toEqual([]);
		expect(H.calls(emu, from)).toEqual([]);
		emu.createWorkOrder({});
		await hook.waitForExecutions(1);
		expect(H.registered(emu)).toHaveLength(1);
	});

	test('a webhook left behind at the same URL (static data lost) is adopted, and surplus duplicates at that URL are deleted', async () => {
		const { emu, credentialId } = await H.freshService(env.harness);
		const workflow = H.hookWorkflow({ credentialId });
		const first = await env.harness.activateWebhook(workflow);
		const url = first.url;
		const original = H.registered(emu)[0];
		// two more at the same URL (e.g. an activation whose answer was lost, retried), one elsewhere
		const body = {
			Name: 'left',
			Url: url,
			Enabled: true,
			Subscriptions: original.Subscriptions.map(({ Name, EventTypes, Rules }) => ({
				Name,
				EventTypes,
				Rules,
			})),
		};
		emu.webhooks.create(
			{ user: emu.state.users['demo.manager'], providerId: null, subscriberId: 1001 },
			body,
		);
		emu.webhooks.create(
			{ user: emu.state.users['demo.manager'], providerId: null, subscriberId: 1001 },
			{ ...body, Url: 'http://127.0.0.1:9/other' },
		);
		const from = emu.requests.length;
		const second = await env.harness.activateWebhook(workflow, { staticData: {} });
		expect(second.url).toBe(url);
		expect(second.activation.calls.map((c) => `${c.method}:${c.result}`)).toEqual([
			'checkExists:true',
		]);
		const left = H.registered(emu);
		expect(left.map((w) => w.Url).sort()).toEqual(['http://127.0.0.1:9/other', url].sort());
		expect(left.find((w) => w.Url === url).Id).toBe(original.Id);
		expect(H.calls(emu, from).filter((c) => c.startsWith('DELETE'))).toHaveLength(1);
		expect(second.activation.saved[`node:${H.NAME}`]).toEqual({
			webhookId: original.Id,
			webhookUrl: url,
		});
	});

	test('other events or rules than the webhook at this URL holds: it is deleted and registered afresh', async () => {
		const { emu, credentialId } = await H.freshService(env.harness);
		const workflow = H.hookWorkflow({ credentialId, events: ['WorkOrderCreated'] });
		const first = await env.harness.activateWebhook(workflow);
		const oldId = H.registered(emu)[0].Id;
		const changed = H.hookWorkflow({
			credentialId,
			events: ['WorkOrderCreated'],
			rules: { trades: 'HVAC' },
		});
		changed.id = workflow.id;
		changed.nodes[0].webhookId = workflow.nodes[0].webhookId;
		const from = emu.requests.length;
		const second = await env.harness.activateWebhook(changed, {
			staticData: first.savedStaticData,
		});
		expect(second.activation.calls.map((c) => `${c.method}:${c.result}`)).toEqual([
			'checkExists:false',
			'create:true',
		]);
		expect(H.calls(emu, from)).toEqual([
			'GET /NotificationWebHooks 200',
			`DELETE /NotificationWebHooks/${oldId} 204`,
			'POST /NotificationWebHooks 201',
		]);
		const [now] = H.registered(emu);
		expect(H.registered(emu)).toHaveLength(1);
		expect(now.Subscriptions[0].Rules.Trades).toEqual(['HVAC']);
		expect(second.activation.saved[`node:${H.NAME}`].webhookId).toBe(now.Id);
	});

	test("the stored webhook at an old URL (n8n's address changed) is deleted and one is created at the new URL", async () => {
		const { emu, credentialId } = await H.freshService(env.harness);
		const workflow = H.hookWorkflow({ credentialId });
		const first = await env.harness.activateWebhook(workflow);
		const [old] = H.registered(emu);
		emu.webhooks.hooks.get(old.Id).Url = 'http://old-n8n.example/webhook/x/webhook';
		const second = await env.harness.activateWebhook(workflow, {
			staticData: first.savedStaticData,
		});
		expect(second.activation.error).toBeUndefined();
		expect(H.registered(emu).map((w) => w.Url)).toEqual([second.url]);
		expect(H.registered(emu)[0].Id).not.toBe(old.Id);
	});

	test('a webhook the service disabled (after failed deliveries) is enabled again with PUT', async () => {
		const { emu, credentialId } = await H.freshService(env.harness);
		const workflow = H.hookWorkflow({ credentialId });
		const first = await env.harness.activateWebhook(workflow);
		const [webhook] = H.registered(emu);
		emu.webhooks.hooks.get(webhook.Id).Enabled = false;
		emu.webhooks.hooks.get(webhook.Id).disabledRuns = 2;
		const from = emu.requests.length;
		const second = await env.harness.activateWebhook(workflow, {
			staticData: first.savedStaticData,
		});
		expect(second.activation.error).toBeUndefined();
		expect(H.calls(emu, from)).toEqual([
			'GET /NotificationWebHooks 200',
			`PUT /NotificationWebHooks/${webhook.Id} 204`,
		]);
		const put = emu.requests.find(
			(r) => r.method === 'PUT' && r.path.endsWith(`/NotificationWebHooks/${webhook.Id}`),
		);
		expect(put.body).toMatchObject({
			Id: webhook.Id,
			Url: first.url,
			Enabled: true,
			Subscriptions: webhook.Subscriptions,
		});
		expect(H.registered(emu)).toEqual([{ ...webhook, Enabled: true }]);
	});
});

describe('refusals fail the activation with a message saying what to do', () => {
	test('403 (subscriber without "Super Admin"): the message names the role and points to the polling trigger; nothing is left registered', async () => {
		const { emu, credentialId } = await H.freshService(env.harness, { userKey: 'subscriber' });
		const hook = await env.harness.activateWebhook(H.hookWorkflow({ credentialId }));
		const error = hook.activation.error;
		expect(error).toBeInstanceOf(NodeOperationError);
		expect(error.message).toMatch(/"Super Admin"/);
		expect(error.message).toMatch(/403/);
		expect(error.message).toMatch(/Work Order Service Polling Trigger/);
		expect(error.description).toMatch(/Managing event notifications requires/);
		expect(H.registered(emu)).toEqual([]);
		expect(hook.activation.calls.map((c) => c.method)).toEqual(['checkExists', 'failed', 'delete']);
	});

	test('403 for a contractor without "Provider Automation Admin" names that access level', async () => {
		const { emu, credentialId } = await H.freshService(env.harness, {
			authentication: 'contractor',
		});
		emu.setWebhookAdmin('contractor', false);
		const hook = await env.harness.activateWebhook(
			H.hookWorkflow({ credentialId, authentication: 'contractor' }),
		);
		expect(hook.activation.error.message).toMatch(/"Provider Automation Admin"/);
		expect(hook.activation.error.message).toMatch(/Polling Trigger/);
	});

	test("the account already has 20 webhooks: a clear message; n8n's retries (5 attempts) create nothing", async () => {
		const { emu, credentialId } = await H.freshService(env.harness);
		const principal = {
			user: emu.state.users['demo.manager'],
			providerId: null,
			subscriberId: 1001,
		};
		for (let i = 0; i < 20; i++)
			emu.webhooks.create(principal, {
				Name: `w${i}`,
				Url: `http://127.0.0.1:9/${i}`,
				Subscriptions: [{ Name: 's', EventTypes: ['WorkOrderCreated'] }],
			});
		const hook = await env.harness.activateWebhook(H.hookWorkflow({ credentialId }), {
			attempts: 5,
		});
		expect(hook.activation.error.message).toMatch(/already has the most webhooks it allows \(20\)/);
		expect(hook.activation.error.message).toMatch(/Delete webhooks that are no longer used/);
		expect(H.registered(emu)).toHaveLength(20);
		expect(emu.requests.filter((r) => r.method === 'POST' && r.path === H.WEBHOOKS).length).toBe(5);
	});

	test('a service that echoes the signing key in an error: the key is redacted from the message', async () => {
		const { emu, credentialId } = await H.freshService(env.harness);
		const workflow = H.hookWorkflow({ credentialId, events: ['WorkOrderCreated'] });
		const first = await env.harness.activateWebhook(workflow);
		const key = H.keyOf(emu);
		const changed = {
			...workflow,
			nodes: [
				{
					...workflow.nodes[0],
					parameters: { ...workflow.nodes[0].parameters, events: ['ProposalOpen'] },
				},
				workflow.nodes[1],
			],
		};
		emu.failNext({
			path: H.WEBHOOKS,
			method: 'POST',
			status: 400,
			body: {
				ErrorCodes: [2006],
				ErrorCode: 2006,
				ErrorMessage: `Subscription refused for key ${key}`,
			},
		});
		const second = await env.harness.activateWebhook(changed, {
			staticData: first.savedStaticData,
		});
		expect(second.activation.error.message).toMatch(/Subscription refused for key \[redacted\]/);
		expect(
			`${second.activation.error.message} ${second.activation.error.description}`,
		).not.toContain(key);
		expect(second.activation.logs.join('\n')).not.toContain(key);
	});

	test("a failing service (500) fails the activation with the service's words", async () => {
		const { emu, credentialId } = await H.freshService(env.harness);
		emu.failNext({
			path: H.WEBHOOKS,
			method: 'POST',
			status: 500,
			body: { ErrorCodes: [9000], ErrorCode: 9000, ErrorMessage: 'Notification store down' },
		});
		const hook = await env.harness.activateWebhook(H.hookWorkflow({ credentialId }));
		expect(hook.activation.error.message).toMatch(
			/^Could not register the webhook with the Work Order Service: .*Notification store down/,
		);
	});
});

describe('deactivation', () => {
	test('deletes the webhook and forgets it', async () => {
		const { emu, credentialId } = await H.freshService(env.harness);
		const hook = await env.harness.activateWebhook(H.hookWorkflow({ credentialId }));
		const [webhook] = H.registered(emu);
		const from = emu.requests.length;
		const off = await hook.deactivate();
		expect(off.calls).toEqual([{ method: 'delete', result: true }]);
		expect(H.calls(emu, from)).toEqual([
			`DELETE /NotificationWebHooks/${webhook.Id} 204`,
			'GET /NotificationWebHooks 200',
		]);
		expect(H.registered(emu)).toEqual([]);
		expect(off.saved).toEqual({ [`node:${H.NAME}`]: {} });
		// nothing is delivered any more
		emu.createWorkOrder({});
		await emu.webhooksIdle();
		expect(emu.deliveries).toEqual([]);
	});

	test('a webhook already gone at the service (400, ErrorCode 502) counts as deleted', async () => {
		const { emu, credentialId } = await H.freshService(env.harness);
		const hook = await env.harness.activateWebhook(H.hookWorkflow({ credentialId }));
		emu.webhooks.hooks.clear();
		const off = await hook.deactivate();
		expect(off.calls).toEqual([{ method: 'delete', result: true }]);
		expect(emu.requests.find((r) => r.method === 'DELETE').status).toBe(400);
		expect(off.saved[`node:${H.NAME}`]).toEqual({});
	});

	test('a service that keeps failing does not block the deactivation: a warning, and the Id stays for the next activation to clean up', async () => {
		const { emu, credentialId } = await H.freshService(env.harness);
		const workflow = H.hookWorkflow({ credentialId });
		const hook = await env.harness.activateWebhook(workflow);
		const [webhook] = H.registered(emu);
		const url = hook.url;
		emu.failNext({ path: H.WEBHOOKS, method: 'DELETE', status: 503, count: 3 });
		const off = await hook.deactivate();
		expect(off.calls).toEqual([{ method: 'delete', result: false }]);
		expect(off.logs.join('\n')).toMatch(
			/warn: Work Order Service Trigger: the webhook could not be deleted from the service/,
		);
		expect(hook.savedStaticData[`node:${H.NAME}`]).toEqual({
			webhookId: webhook.Id,
			webhookUrl: url,
		});
		// next activation with other events: the old one is removed, one new one registered
		const changed = {
			...workflow,
			nodes: [
				{
					...workflow.nodes[0],
					parameters: { ...workflow.nodes[0].parameters, events: ['ProposalApproved'] },
				},
				workflow.nodes[1],
			],
		};
		const again = await env.harness.activateWebhook(changed, { staticData: hook.savedStaticData });
		expect(again.activation.error).toBeUndefined();
		expect(H.registered(emu).map((w) => w.Subscriptions[0].EventTypes)).toEqual([
			['ProposalApproved'],
		]);
	});
});

describe('"Listen for test event" (manual mode)', () => {
	test("registers a second webhook at the /webhook-test/ URL; the service's test event runs the workflow once in manual mode; then the test webhook is deleted and the active one stays", async () => {
		const { emu, credentialId } = await H.freshService(env.harness);
		const workflow = H.hookWorkflow({ credentialId, events: ['ProposalApproved'] });
		const active = await env.harness.activateWebhook(workflow);
		const listen = await env.harness.listenForTestEvent(workflow);
		expect(listen.registration.error).toBeUndefined();
		expect(listen.url).toBe(active.url.replace('/webhook/', '/webhook-test/'));
		expect(
			H.registered(emu)
				.map((w) => w.Url)
				.sort(),
		).toEqual([active.url, listen.url].sort());
		// the test static data is separate: the active workflow's is untouched
		expect(active.savedStaticData[`node:${H.NAME}`].webhookUrl).toBe(active.url);
		// the service's test endpoint, as a user would call it (or the emulator's admin tooling)
		const token = await (
			await fetch(`${emu.authUrl}/oauth/token`, {
				method: 'POST',
				headers: {
					authorization: `Basic ${Buffer.from('wos-demo-client:wos-demo-secret-8a1f').toString('base64')}`,
					'content-type': 'application/x-www-form-urlencoded',
				},
				body: 'grant_type=password&username=demo.manager&password=Demo%23Manager1',
			})
		).json();
		const test = await fetch(`${emu.baseUrl}/v3/test/webhooks/notifications`, {
			method: 'POST',
			headers: {
				authorization: `Bearer ${token.access_token}`,
				'content-type': 'application/json',
			},
			body: JSON.stringify({ Url: listen.url }),
		});
		expect(test.status).toBe(201);
		const done = await listen.done;
		expect(done.why).toBe('request');
		expect(done.execution.mode).toBe('manual');
		expect(done.execution.status).toBe('success');
		expect(done.execution.items.map((i) => [i.json.EventType, i.json.Object.Source])).toEqual([
			['WorkOrderCreated', 'WebhookTest'],
		]);
		expect(done.deregistration.calls).toEqual([{ method: 'delete', result: true }]);
		expect(H.registered(emu).map((w) => w.Url)).toEqual([active.url]);
		expect(active.executions).toEqual([]);
	});

	test('a real event also ends the listen, in manual mode', async () => {
		const { emu, credentialId } = await H.freshService(env.harness);
		const workflow = H.hookWorkflow({ credentialId, events: ['WorkOrderStatusChanged'] });
		const listen = await env.harness.listenForTestEvent(workflow);
		emu.setWorkOrderStatus(90000004, 'COMPLETED', 'PENDING CONFIRMATION');
		const done = await listen.done;
		expect(done.execution.mode).toBe('manual');
		expect(done.execution.items.map((i) => [i.json.EventType, i.json.Object.Id])).toEqual([
			['WorkOrderStatusChanged', 90000004],
		]);
		expect(done.execution.outputs.Next.map((i) => i.json)).toEqual([
			{ type: 'WorkOrderStatusChanged', id: 90000004 },
		]);
		expect(H.registered(emu)).toEqual([]);
	});

	test('no event before the timeout: the test webhook is deleted', async () => {
		const { emu, credentialId } = await H.freshService(env.harness);
		const listen = await env.harness.listenForTestEvent(H.hookWorkflow({ credentialId }), {
			timeoutMs: 300,
		});
		expect(H.registered(emu)).toHaveLength(1);
		const done = await listen.done;
		expect(done.why).toBe('timeout');
		expect(H.registered(emu)).toEqual([]);
	});

	test('a 403 while listening says the same as at activation', async () => {
		const { credentialId } = await H.freshService(env.harness, { userKey: 'subscriber' });
		const listen = await env.harness.listenForTestEvent(H.hookWorkflow({ credentialId }));
		expect(listen.registration.error.message).toMatch(/"Super Admin".*Polling Trigger/);
		expect((await listen.done).why).toBe('failed');
	});
});
