'use strict';
/**
 * Work Order Service Trigger (webhook): deliveries. The emulator delivers signed events over HTTP
 * to the harness's webhook server, which runs the node's `webhook()` on n8n-core's WebhookContext
 * and starts the execution n8n would start. Asserted: the answers the emulator got (status, time),
 * the executions and their items, the key reads the emulator served, and what the logs hold.
 */
const crypto = require('node:crypto');
const H = require('./helpers');

const { MIN_READ_INTERVAL_MS } = require(
	`${require('../support').ROOT}/dist/nodes/WorkOrderService/webhook/signingKey.js`,
);

const env = H.useHarness();

async function active(spec = {}, service = {}) {
	const { emu, credentialId } = await H.freshService(env.harness, service);
	const hook = await env.harness.activateWebhook(H.hookWorkflow({ credentialId, ...spec }));
	expect(hook.activation.error).toBeUndefined();
	return { emu, credentialId, hook };
}

describe('items', () => {
	test('a work order change starts one execution with one item: EventType, Action and the Object as the service sent it', async () => {
		const { emu, hook } = await active({ events: ['WorkOrderStatusChanged'] });
		emu.setWorkOrderStatus(90000004, 'COMPLETED', 'PENDING CONFIRMATION');
		const [delivery] = await H.deliveries(emu, 1);
		expect([delivery.status, delivery.ok]).toEqual([200, true]);
		const [execution] = await hook.waitForExecutions(1);
		expect(execution.status).toBe('success');
		expect(execution.mode).toBe('webhook');
		const sent = JSON.parse(delivery.body);
		expect(execution.items.map((i) => i.json)).toEqual([
			{
				EventType: 'WorkOrderStatusChanged',
				Action: 'UPDATE',
				Object: sent.Object,
				Type: 'WoRootNotification',
				Version: 1,
			},
		]);
		expect(execution.items[0].json.Object.Status).toEqual({
			Primary: 'COMPLETED',
			Extended: 'PENDING CONFIRMATION',
		});
		expect(execution.outputs.Next.map((i) => i.json)).toEqual([
			{ type: 'WorkOrderStatusChanged', id: 90000004 },
		]);
		expect(hook.executions).toHaveLength(1);
	});

	test('a proposal approved through the API is one execution with the ProposalApproved item', async () => {
		const { emu, hook } = await active({ events: ['ProposalApproved', 'WorkOrderCreated'] });
		const client = emu.fixtures.clients.main;
		const token = await (
			await fetch(`${emu.authUrl}/oauth/token`, {
				method: 'POST',
				headers: {
					authorization: `Basic ${Buffer.from(`${client.clientId}:${client.clientSecret}`).toString('base64')}`,
					'content-type': 'application/x-www-form-urlencoded',
				},
				body: 'grant_type=password&username=demo.manager&password=Demo%23Manager1',
			})
		).json();
		const approve = await fetch(`${emu.baseUrl}/v3/proposals/61001/approve`, {
			method: 'PUT',
			headers: {
				authorization: `Bearer ${token.access_token}`,
				'content-type': 'application/json',
			},
			body: '{}',
		});
		expect(approve.status).toBe(204);
		const [execution] = await hook.waitForExecutions(1);
		expect(execution.items.map((i) => i.json)).toEqual([
			{
				EventType: 'ProposalApproved',
				Action: 'UPDATE',
				Object: expect.objectContaining({
					Id: 61001,
					Number: 'P-61001',
					Status: 'Approved',
					WorkOrderId: 90000006,
					Amount: 1200,
					UpdatedBy: expect.objectContaining({ UserName: 'demo.manager' }),
				}),
				Type: 'GenericRootNotification',
				Version: 1,
			},
		]);
	});

	test("note IDs beyond 2^53 come out exact, as decimal strings (read from the raw body, not n8n's parsed copy); small ones as strings too", async () => {
		const { emu, hook } = await active({
			events: ['WorkOrderNoteAdded', 'WorkOrderAttachmentAdded'],
		});
		const note = emu.addNote(90000005, 'Roof leak above aisle 4', 'manager');
		expect(note.Id > 2n ** 53n).toBe(true);
		emu.emitWebhookEvent('WorkOrderNoteAdded', {
			subscriberId: 1001,
			object: {
				Id: 90000005,
				Notes: [
					{ Id: 9223372036854775807n, NoteData: 'max' },
					{ Id: 15001n, NoteData: 'small' },
				],
				Attachments: [{ Id: 880001, NoteId: 9007199254740993n }],
			},
		});
		const executions = await hook.waitForExecutions(2);
		const raw = (await H.deliveries(emu, 2)).map((d) => d.body);
		expect(raw[0]).toContain(`"Id":${note.Id}`);
		const first = executions[0].items[0].json.Object;
		expect(first.Notes).toEqual([
			expect.objectContaining({ Id: note.Id.toString(), NoteData: 'Roof leak above aisle 4' }),
		]);
		const second = executions[1].items[0].json.Object;
		expect(second.Notes.map((n) => n.Id)).toEqual(['9223372036854775807', '15001']);
		expect(second.Attachments).toEqual([{ Id: 880001, NoteId: '9007199254740993' }]);
	});

	test('several events in one body (tolerated) are one execution with one item each; events not chosen are left out', async () => {
		const { emu, hook } = await active({ events: ['WorkOrderCreated'] });
		const body = [
			{ EventType: 'WorkOrderCreated', Action: 'NEW', Object: { Id: 1 } },
			{ EventType: 'WorkOrderCheckIn', Action: 'NEW', Object: { Id: 2 } },
			{ EventType: 'WorkOrderCreated', Action: 'NEW', Object: { Id: 3 } },
		];
		const answer = await H.deliver(hook.url, body, { key: H.keyOf(emu) });
		expect(answer.status).toBe(200);
		const [execution] = await hook.waitForExecutions(1);
		expect(execution.items.map((i) => i.json.Object.Id)).toEqual([1, 3]);
	});

	test('event types not chosen: 200 without an execution', async () => {
		const { emu, hook } = await active({ events: ['WorkOrderCreated'] });
		const answer = await H.deliver(
			hook.url,
			{ EventType: 'ProposalApproved', Action: 'UPDATE', Object: { Id: 61001 } },
			{ key: H.keyOf(emu) },
		);
		expect(answer.status).toBe(200);
		expect(JSON.parse(answer.text)).toEqual({ message: 'Webhook call received' });
		await new Promise((resolve) => setTimeout(resolve, 100));
		expect(hook.executions).toEqual([]);
		// the service's test event in production is an event like others (WorkOrderCreated chosen here)
		const test = await H.deliver(
			hook.url,
			{ EventType: 'WorkOrderCreated', Action: 'NEW', Object: { Id: 0, Source: 'WebhookTest' } },
			{ key: H.keyOf(emu) },
		);
		expect(test.status).toBe(200);
		await hook.waitForExecutions(1);
	});
});

const EVENTS_JS = `${require('../support').ROOT}/dist/nodes/WorkOrderService/webhook/events.js`;

/** The values of the trigger's Events parameter, as the node offers them. */
function offeredEvents() {
	const { WorkOrderServiceTrigger } = require(
		`${require('../support').ROOT}/dist/nodes/WorkOrderService/WorkOrderServiceTrigger.node.js`,
	);
	return new WorkOrderServiceTrigger().description.properties
		.find((p) => p.name === 'events')
		.options.map((o) => o.value);
}

describe('every event the trigger offers', () => {
	test('one webhook subscribes to all of them; an event of each type the service raises starts one execution with its EventType and Object', async () => {
		const offered = offeredEvents();
		// webhooks.md: 22 work-order, 11 proposal, 12 invoice, 5 checklist, 7 location, 2 asset events
		expect(offered).toHaveLength(59);
		// the emulator, like the service, refuses a subscription naming a type it does not know
		const { KNOWN_EVENT_TYPES } = require('../emulator/webhooks');
		expect(offered.filter((t) => !KNOWN_EVENT_TYPES.has(t))).toEqual([]);
		const { emu, hook } = await active({ events: offered });
		const [registered] = H.registered(emu);
		expect(registered.Subscriptions.flatMap((x) => x.EventTypes).sort()).toEqual(
			[...offered].sort(),
		);
		expect(registered.Subscriptions.map((s) => s.Name)).toEqual([
			'n8n: work orders',
			'n8n: work order technicians',
			'n8n: proposals',
			'n8n: invoices',
			'n8n: checklist responses',
			'n8n: checklists',
			'n8n: locations',
			'n8n: assets',
		]);
		offered.forEach((eventType, n) =>
			emu.emitWebhookEvent(eventType, { subscriberId: 1001, object: { Id: 70000 + n } }),
		);
		const executions = await hook.waitForExecutions(offered.length);
		expect(executions.map((e) => e.status)).toEqual(offered.map(() => 'success'));
		const seen = executions.map((e) => e.items.map((i) => [i.json.EventType, i.json.Object.Id]));
		expect(seen.flat().sort()).toEqual(
			offered.map((eventType, n) => [eventType, 70000 + n]).sort(),
		);
		expect(seen.every((items) => items.length === 1)).toBe(true);
	});

	test('with rules, each subscription takes the rules its events carry (technician events no trade or category); a matching event of each type starts one execution, another trade none', async () => {
		const offered = offeredEvents();
		const { objectOf } = require(EVENTS_JS);
		const { emu, hook } = await active({
			events: offered,
			rules: { trades: 'HVAC', categories: 'REPAIR', statuses: 'OPEN' },
		});
		const [registered] = H.registered(emu);
		expect(registered.Subscriptions.map((s) => [s.Name, s.EventTypes.length, s.Rules])).toEqual([
			['n8n: work orders', 19, { Trades: ['HVAC'], Categories: ['REPAIR'], Statuses: ['OPEN'] }],
			['n8n: work order technicians', 3, { Trades: [], Categories: [], Statuses: ['OPEN'] }],
			['n8n: proposals', 11, { Trades: ['HVAC'], Categories: ['REPAIR'], Statuses: [] }],
			['n8n: invoices', 12, { Trades: ['HVAC'], Categories: [], Statuses: [] }],
			['n8n: checklist responses', 2, { Trades: ['HVAC'], Categories: ['REPAIR'], Statuses: [] }],
			['n8n: checklists', 3, { Trades: [], Categories: [], Statuses: [] }],
			['n8n: locations', 7, { Trades: [], Categories: [], Statuses: [] }],
			['n8n: assets', 2, { Trades: ['HVAC'], Categories: [], Statuses: [] }],
		]);
		expect([...registered.Subscriptions[1].EventTypes].sort()).toEqual([
			'WorkOrderTechnicianAccepted',
			'WorkOrderTechnicianAssigned',
			'WorkOrderTechnicianUnassigned',
		]);
		// objects as the service sends them for a record that matches: a technician event carries
		// the work order's trade, but no trade rule is applied to it (here another trade)
		const objectFor = (eventType, n) => {
			switch (objectOf(eventType)) {
				case 'workOrder':
					return { Id: n, Trade: 'hvac', Category: 'Repair', Status: { Primary: 'OPEN' } };
				case 'technician':
					return { Id: n, Trade: 'PLUMBING', Category: 'PM', Status: { Primary: 'OPEN' } };
				case 'invoice':
				case 'asset':
					return { Id: n, Trade: 'HVAC', Status: 'Approved' };
				case 'checklist':
				case 'location':
					return { Id: n };
				default:
					return { Id: n, Trade: 'HVAC', Category: 'REPAIR', Status: 'Approved' };
			}
		};
		offered.forEach((eventType, n) =>
			emu.emitWebhookEvent(eventType, { subscriberId: 1001, object: objectFor(eventType, n) }),
		);
		emu.emitWebhookEvent('InvoiceApproved', {
			subscriberId: 1001,
			object: { Id: 999, Trade: 'PLUMBING', Status: 'Approved' },
		});
		const executions = await hook.waitForExecutions(offered.length);
		await emu.webhooksIdle();
		expect(emu.deliveries.map((d) => d.eventType).sort()).toEqual([...offered].sort());
		expect(executions.map((e) => e.items[0].json.EventType).sort()).toEqual([...offered].sort());
	});

	test('"WorOrderAttachmentAdded", as some of the service\'s lists spell it, starts the workflow of a trigger set to Work Order Attachment Added; its item keeps the EventType as sent', async () => {
		const { emu, hook } = await active({ events: ['WorkOrderAttachmentAdded'] });
		const body =
			'{"EventType":"WorOrderAttachmentAdded","Action":"NEW","Object":{"Id":90000005,"Attachments":[{"Id":880002,"NoteId":9007199254740995}]}}';
		const delivered = await H.deliver(hook.url, body, { key: H.keyOf(emu) });
		expect(delivered.status).toBe(200);
		const [execution] = await hook.waitForExecutions(1);
		expect(execution.items.map((i) => i.json)).toEqual([
			{
				EventType: 'WorOrderAttachmentAdded',
				Action: 'NEW',
				Object: { Id: 90000005, Attachments: [{ Id: 880002, NoteId: '9007199254740995' }] },
			},
		]);
	});

	test('invoices the service approves and creates are one execution each, the invoice as the service sent it; an invoice of another trade is left out by the Trades rule', async () => {
		const { emu, hook } = await active({
			events: ['InvoiceApproved', 'InvoiceCreated'],
			rules: { trades: 'HVAC' },
		});
		const hvac = emu
			.invoiceList()
			.find((i) => i.Trade === 'HVAC' && i.Status === 'Open' && i.Subscriber.Id === 1001);
		const other = emu
			.invoiceList()
			.find((i) => i.Trade !== 'HVAC' && i.Status === 'Open' && i.Subscriber.Id === 1001);
		emu.setInvoiceStatus(other.Id, 'Approved');
		emu.setInvoiceStatus(hvac.Id, 'Approved');
		const created = emu.createInvoice({ WorkOrderId: 90000001 });
		const executions = await hook.waitForExecutions(2);
		const delivered = await H.deliveries(emu, 2);
		expect(delivered.map((d) => d.eventType)).toEqual(['InvoiceApproved', 'InvoiceCreated']);
		expect(executions.map((e) => e.items.map((i) => i.json))).toEqual(
			delivered.map((d) => {
				const sent = JSON.parse(d.body);
				return [
					{
						EventType: sent.EventType,
						Action: sent.Action,
						Object: sent.Object,
						Type: 'GenericRootNotification',
						Version: 1,
					},
				];
			}),
		);
		expect(executions[0].items[0].json.Object).toMatchObject({
			Id: hvac.Id,
			Status: 'Approved',
			Trade: 'HVAC',
			WoTrackingNumber: hvac.WoTrackingNumber,
			PostedDate: hvac.PostedDate,
		});
		expect(executions[1].items[0].json.Object).toMatchObject({ Id: created.Id, Status: 'Open' });
	});

	test('invoice and location events carry their objects as the service sent them: every digit of 64-bit IDs, dates as text, nested objects', async () => {
		const { emu, hook } = await active({
			events: ['InvoiceApproved', 'InvoicePaid', 'LocationNoteHeaderCreated', 'AssetUpdated'],
		});
		const invoice = {
			Id: 4100001,
			Number: 'INV-4100001',
			WoTrackingNumber: 90000006,
			SubscriberId: 1001,
			ProviderId: 3001,
			LocationId: 501,
			Status: 'Approved',
			InvoiceTotal: 1234.56,
			Currency: { Id: 1, AlphabeticalCode: 'USD' },
			Trade: 'HVAC',
			ApprovalCode: 'AC-7',
			PostedDate: '2026-11-01T01:30:00',
			UpdatedDate: '2026-11-01T01:45:12',
			UpdatedBy: { Id: 12, UserName: 'demo.manager', FullName: 'Dana Manager', Email: null },
			Payments: [{ PaymentId: 9223372036854775001n, PaymentAmount: 1234.56 }],
		};
		const location = {
			Id: 501,
			StoreId: '501',
			ShortName: 'Dallas Downtown',
			FullName: 'Store #501 Dallas Downtown',
			SubscriberId: 1001,
			City: 'Dallas',
			UpdatedDate: '2026-11-01T01:10:00',
			Notes: [{ Id: 9007199254740993n, HeaderId: 77, Header: 'Access', Value: 'Gate code 4411' }],
		};
		emu.emitWebhookEvent('InvoiceApproved', { subscriberId: 1001, object: invoice });
		emu.emitWebhookEvent('LocationNoteHeaderCreated', { subscriberId: 1001, object: location });
		emu.emitWebhookEvent('AssetUpdated', {
			subscriberId: 1001,
			object: { Id: 66001, LocationId: 501, Trade: 'REFRIGERATION', Tag: 'FRZ-2' },
		});
		const executions = await hook.waitForExecutions(3);
		const byType = Object.fromEntries(
			executions.map((e) => [e.items[0].json.EventType, e.items[0].json]),
		);
		expect(byType.InvoiceApproved).toEqual({
			EventType: 'InvoiceApproved',
			Action: 'UPDATE',
			Object: {
				...invoice,
				Payments: [{ PaymentId: '9223372036854775001', PaymentAmount: 1234.56 }],
			},
			Type: 'GenericRootNotification',
			Version: 1,
		});
		expect(byType.LocationNoteHeaderCreated.Object).toEqual({
			...location,
			Notes: [{ Id: '9007199254740993', HeaderId: 77, Header: 'Access', Value: 'Gate code 4411' }],
		});
		expect(byType.LocationNoteHeaderCreated.Action).toBe('NEW');
		expect(byType.AssetUpdated.Object).toEqual({
			Id: 66001,
			LocationId: 501,
			Trade: 'REFRIGERATION',
			Tag: 'FRZ-2',
		});
	});
});

describe('verification', () => {
	test('a tampered delivery (body changed after signing), a missing or malformed Sign-Data: 401, no execution, no error execution', async () => {
		const { emu, hook } = await active({ events: ['WorkOrderCreated'] });
		const key = H.keyOf(emu);
		const body = JSON.stringify({
			EventType: 'WorkOrderCreated',
			Action: 'NEW',
			Object: { Id: 90000001, Nte: 500 },
		});
		const signature = crypto
			.createHmac('sha256', Buffer.from(key, 'utf8'))
			.update(body)
			.digest('base64');
		const tampered = await H.deliver(hook.url, body.replace('"Nte":500', '"Nte":99999'), {
			signature,
		});
		const missing = await H.deliver(hook.url, body, { signature: null });
		const malformed = await H.deliver(hook.url, body, { signature: 'not base64!' });
		const short = await H.deliver(hook.url, body, {
			signature: Buffer.from('abc').toString('base64'),
		});
		const otherKey = await H.deliver(hook.url, body, {
			key: crypto.randomBytes(32).toString('base64'),
		});
		for (const answer of [tampered, missing, malformed, short, otherKey]) {
			expect(answer.status).toBe(401);
			expect(JSON.parse(answer.text).message).toMatch(/^Delivery refused/);
		}
		await new Promise((resolve) => setTimeout(resolve, 100));
		expect(hook.executions).toEqual([]);
		expect(hook.deliveries.map((d) => d.error)).toEqual([
			undefined,
			undefined,
			undefined,
			undefined,
			undefined,
		]);
		// the untouched body is accepted
		expect((await H.deliver(hook.url, body, { signature })).status).toBe(200);
		await hook.waitForExecutions(1);
	});

	test("both key readings are accepted: the key string's UTF-8 bytes and the base64-decoded key", async () => {
		const { emu, hook } = await active(
			{ events: ['WorkOrderCreated'] },
			{ webhookOptions: { signWithDecodedKey: true } },
		);
		emu.createWorkOrder({});
		const [delivery] = await H.deliveries(emu, 1);
		expect(delivery.status).toBe(200);
		emu.setWebhookOptions({ signWithDecodedKey: false });
		emu.createWorkOrder({});
		const later = await H.deliveries(emu, 2);
		expect(later[1].status).toBe(200);
		await hook.waitForExecutions(2);
	});

	test('the service sending a wrong or no signature: every attempt refused (401), re-sent, never run', async () => {
		const { emu, hook } = await active(
			{ events: ['WorkOrderCreated'] },
			{ webhookOptions: { signature: 'wrong' } },
		);
		emu.createWorkOrder({});
		const attempts = await H.deliveries(emu, 4);
		expect(attempts.map((d) => [d.attempt, d.status])).toEqual([
			[1, 401],
			[2, 401],
			[3, 401],
			[4, 401],
		]);
		expect(hook.executions).toEqual([]);
	});

	test('key rotation: the first delivery signed with the new key makes the node read the key again once, and it is accepted', async () => {
		const { emu, hook } = await active({ events: ['WorkOrderCreated'] });
		emu.createWorkOrder({});
		await hook.waitForExecutions(1);
		const readsBefore = H.keyReads(emu);
		const oldKey = H.keyOf(emu);
		emu.webhooks.rotateKey('subscriber:1001');
		expect(H.keyOf(emu)).not.toBe(oldKey);
		emu.createWorkOrder({});
		emu.createWorkOrder({});
		await hook.waitForExecutions(3);
		expect(H.keyReads(emu)).toBe(readsBefore + 1);
		expect((await H.deliveries(emu, 3)).map((d) => d.status)).toEqual([200, 200, 200]);
	});

	test('key rotation right after a refused delivery: the first delivery signed with the new key starts its execution', async () => {
		const { emu, hook } = await active({ events: ['WorkOrderCreated'] });
		const readsBefore = H.keyReads(emu);
		// a delivery that does not verify (here: signed with another key) makes the node read the key again ...
		const refused = await H.deliver(
			hook.url,
			{ EventType: 'WorkOrderCreated', Action: 'NEW', Object: { Id: 1 } },
			{ key: crypto.randomBytes(32).toString('base64') },
		);
		expect(refused.status).toBe(401);
		expect(H.keyReads(emu)).toBe(readsBefore + 1);
		// ... and the account's key is rotated right after: the next delivery carries the new key
		const oldKey = H.keyOf(emu);
		emu.webhooks.rotateKey('subscriber:1001');
		expect(H.keyOf(emu)).not.toBe(oldKey);
		const wo = emu.createWorkOrder({});
		const [delivery] = await H.deliveries(emu, 1);
		expect([delivery.attempt, delivery.status]).toEqual([1, 200]);
		const [execution] = await hook.waitForExecutions(1);
		expect(execution.items[0].json.Object.Id).toBe(wo.Id);
		// one more read, started after the delivery arrived, at least MIN_READ_INTERVAL_MS after the one before
		const reads = emu.requests.filter((r) => r.path === H.SIGNING_KEY && r.method === 'GET');
		expect(reads).toHaveLength(readsBefore + 2);
		const [previous, last] = reads.slice(-2).map((r) => r.startedMs);
		expect(last - previous).toBeGreaterThanOrEqual(MIN_READ_INTERVAL_MS - 50);
	});

	test('a stream of forged deliveries makes at most one key read per 2 s (deliveries that arrive together share one)', async () => {
		const { emu, hook } = await active({ events: ['WorkOrderCreated'] });
		const readsBefore = H.keyReads(emu);
		const started = Date.now();
		const forged = [];
		for (let i = 0; i < 12; i++)
			forged.push(
				H.deliver(
					hook.url,
					{ EventType: 'WorkOrderCreated', Object: { Id: i } },
					{ key: crypto.randomBytes(32).toString('base64') },
				),
			);
		const answers = await Promise.all(forged);
		expect(H.keyReads(emu)).toBe(readsBefore + 1);
		for (let i = 0; i < 3; i++)
			answers.push(
				await H.deliver(
					hook.url,
					{ EventType: 'WorkOrderCreated', Object: { Id: 100 + i } },
					{ key: 'forged-key-0123456789' },
				),
			);
		const elapsed = Date.now() - started;
		expect(answers.map((a) => a.status)).toEqual(Array(15).fill(401));
		const reads = emu.requests
			.filter((r) => r.path === H.SIGNING_KEY && r.method === 'GET')
			.slice(Math.max(0, readsBefore - 1))
			.map((r) => r.startedMs);
		expect(reads.length - 1).toBeLessThanOrEqual(1 + Math.floor(elapsed / MIN_READ_INTERVAL_MS));
		for (let i = 1; i < reads.length; i++)
			expect(reads[i] - reads[i - 1]).toBeGreaterThanOrEqual(MIN_READ_INTERVAL_MS - 50);
		for (const a of answers) expect(a.ms).toBeLessThan(4000);
		expect(hook.executions).toEqual([]);
	});
});

describe('each event once', () => {
	test('the service delivering every event twice starts one execution per event', async () => {
		const { emu, hook } = await active(
			{ events: ['WorkOrderCreated', 'WorkOrderStatusChanged'] },
			{ webhookOptions: { deliverTwice: true } },
		);
		const wo = emu.createWorkOrder({});
		emu.setWorkOrderStatus(wo.Id, 'IN PROGRESS', 'ON SITE');
		const attempts = await H.deliveries(emu, 4);
		expect(attempts.map((d) => d.status)).toEqual([200, 200, 200, 200]);
		await new Promise((resolve) => setTimeout(resolve, 150));
		expect(hook.executions.map((e) => e.items[0].json.EventType).sort()).toEqual([
			'WorkOrderCreated',
			'WorkOrderStatusChanged',
		]);
		expect(hook.deliveries.filter((d) => d.executionStarted)).toHaveLength(2);
	});

	test('a re-send after a lost answer (the first delivery ran, but the service saw a failure) starts nothing again', async () => {
		const { emu, hook } = await active({ events: ['WorkOrderCreated'] });
		const body = JSON.stringify({
			EventType: 'WorkOrderCreated',
			Action: 'NEW',
			Object: { Id: 5 },
		});
		const key = H.keyOf(emu);
		const first = await H.deliver(hook.url, body, { key });
		const again = await H.deliver(hook.url, body, { key });
		const third = await H.deliver(hook.url, body, { key });
		expect([first.status, again.status, third.status]).toEqual([200, 200, 200]);
		expect(JSON.parse(again.text)).toEqual({ message: 'Webhook call received' });
		// a different body (another event) is not a repeat
		await H.deliver(hook.url, body.replace('"Id":5', '"Id":6'), { key });
		await hook.waitForExecutions(2);
		await new Promise((resolve) => setTimeout(resolve, 100));
		expect(hook.executions.map((e) => e.items[0].json.Object.Id)).toEqual([5, 6]);
	});
});

describe('answers within 5 s', () => {
	test('20 deliveries at once on a cold process (key not in memory, service 400 ms away): one key read, every answer 2xx well within 5 s, 20 executions', async () => {
		const { emu, hook } = await active({ events: ['WorkOrderCreated'] });
		await H.restart(env.harness, hook); // the key is no longer in memory
		emu.setFaults({ latencyMs: 400 });
		const readsBefore = H.keyReads(emu);
		emu.createWorkOrders(Array.from({ length: 20 }, () => ({})));
		const attempts = await H.deliveries(emu, 20, 20_000);
		expect(attempts.map((d) => d.status)).toEqual(Array(20).fill(200));
		const slowest = Math.max(...attempts.map((d) => d.durationMs));
		expect(slowest).toBeLessThan(4000);
		expect(H.keyReads(emu)).toBe(readsBefore + 1);
		const executions = await hook.waitForExecutions(20, 20_000);
		expect(new Set(executions.map((e) => e.items[0].json.Object.Id)).size).toBe(20);
	});

	test("a key that cannot be read in time: 503 within about 3 s and a log line without the key; the service's re-send then runs the workflow once", async () => {
		const { emu, hook } = await active(
			{ events: ['WorkOrderCreated'] },
			{ webhookOptions: { retryDelayMs: 200 } },
		);
		await H.restart(env.harness, hook);
		emu.setFaults({ latencyMs: 4500 });
		const logStart = env.harness.logs.length;
		emu.createWorkOrder({});
		const [first] = await H.deliveries(emu, 1, 10_000);
		expect(first.status).toBe(503);
		expect(first.durationMs).toBeLessThan(4500);
		emu.resetFaults();
		const [execution] = await hook.waitForExecutions(1, 15_000);
		expect(execution.status).toBe('success');
		await H.until('the successful attempt in the log', () => emu.deliveries.some((d) => d.ok));
		await emu.webhooksIdle();
		expect(emu.deliveries.filter((d) => d.ok)).toHaveLength(1);
		const lines = env.harness.logs.slice(logStart).join('\n');
		expect(lines).toMatch(
			/the signing key not read within 3 s; answered 503 so that the service sends the event again/,
		);
		expect(lines).not.toContain(H.keyOf(emu));
	});
});

describe('key reads that fail', () => {
	test('a key that cannot be read (the user lost the admin right): 503, and no new read for 10 s, so deliveries meanwhile cost the service nothing', async () => {
		const { emu, hook } = await active({ events: ['WorkOrderCreated'] });
		await H.restart(env.harness, hook);
		emu.setWebhookAdmin('manager', false);
		const readsBefore = H.keyReads(emu);
		const key = H.keyOf(emu);
		const logStart = env.harness.logs.length;
		const first = await H.deliver(
			hook.url,
			{ EventType: 'WorkOrderCreated', Object: { Id: 1 } },
			{ key },
		);
		const second = await H.deliver(
			hook.url,
			{ EventType: 'WorkOrderCreated', Object: { Id: 2 } },
			{ key },
		);
		expect([first.status, second.status]).toEqual([503, 503]);
		expect(H.keyReads(emu)).toBe(readsBefore + 1);
		expect(hook.executions).toEqual([]);
		const lines = env.harness.logs.slice(logStart).join('\n');
		expect(lines).toMatch(
			/the signing key could not be read \(The Work Order Service answered 403 Forbidden/,
		);
		expect(lines).not.toContain(key);
	});
});

describe('the key is a secret', () => {
	test('after a restart the key is read again from the service; it is never in static data, items, or log lines', async () => {
		const { emu, hook } = await active({ events: ['WorkOrderCreated', 'WorkOrderStatusChanged'] });
		const key = H.keyOf(emu);
		await H.restart(env.harness, hook);
		const readsBefore = H.keyReads(emu);
		emu.createWorkOrder({});
		await hook.waitForExecutions(1);
		expect(H.keyReads(emu)).toBe(readsBefore + 1);
		const forms = [key, Buffer.from(key, 'base64').toString('hex'), encodeURIComponent(key)];
		const everything = JSON.stringify([
			hook.savedStaticData,
			hook.staticData,
			hook.executions.map((e) => e.run.data),
			env.harness.logs,
		]);
		for (const form of forms) expect(everything).not.toContain(form);
	});
});
