'use strict';

/**
 * Contract tests of the emulator's event notifications (../../../../shared/spec/webhooks.md and
 * ../README.md, "Webhooks"): management endpoints with their limits and admin rule, the signing key,
 * and signed deliveries of the changes made through the API and through the emulator's methods
 * and control endpoints, to a receiver on 127.0.0.1.
 */

const crypto = require('node:crypto');
const http = require('node:http');
const { startEmulator } = require('../index');

/** @type {import('./index').Emulator} */
let emu;
/** @type {any} */
let fx;
/** @type {Awaited<ReturnType<typeof receiver>>[]} */
const receivers = [];

beforeEach(async () => {
	emu = await startEmulator({ accessTokenTtl: 86400, jwtTtl: 86400 });
	fx = emu.fixtures;
});

afterEach(async () => {
	await emu.close();
	for (const r of receivers.splice(0)) await r.close();
});

// ---- helpers ---------------------------------------------------------------------------------

/**
 * A receiver of deliveries: records each request (raw body, headers) and answers with
 * `answer()` (default 200 at once).
 * @param {(n: number) => { status?: number, delayMs?: number }} [answer]
 */
async function receiver(answer = () => ({ status: 200 })) {
	/** @type {Array<{ headers: Record<string, any>, raw: Buffer, json: any, at: number }>} */
	const got = [];
	const server = http.createServer((req, res) => {
		const chunks = [];
		req.on('data', (c) => chunks.push(c));
		req.on('end', () => {
			const raw = Buffer.concat(chunks);
			got.push({
				headers: req.headers,
				raw,
				json: JSON.parse(raw.toString('utf8')),
				at: Date.now(),
			});
			const { status = 200, delayMs = 0 } = answer(got.length) || {};
			setTimeout(() => {
				res.writeHead(status, { 'content-type': 'text/plain' });
				res.end('ok');
			}, delayMs);
		});
	});
	const sockets = new Set();
	server.on('connection', (s) => {
		sockets.add(s);
		s.on('close', () => sockets.delete(s));
	});
	await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
	const r = {
		url: `http://127.0.0.1:${server.address().port}/hook`,
		got,
		close: () =>
			new Promise((resolve) => {
				server.close(resolve);
				for (const s of sockets) s.destroy();
			}),
	};
	receivers.push(r);
	return r;
}

const basic = (c) => `Basic ${Buffer.from(`${c.clientId}:${c.clientSecret}`).toString('base64')}`;

/** @param {string} who */
async function token(who = 'manager') {
	const u = fx.users[who];
	const endpoint = u.kind === 'contractor' ? '/jwt/token' : '/oauth/token';
	const form =
		u.kind === 'contractor'
			? { username: u.username, password: u.password }
			: { grant_type: 'password', username: u.username, password: u.password };
	const r = await fetch(`${emu.authUrl}${endpoint}`, {
		method: 'POST',
		headers: {
			authorization: basic(fx.clients.main),
			'content-type': 'application/x-www-form-urlencoded',
		},
		body: new URLSearchParams(form).toString(),
	});
	return (await r.json()).access_token;
}

/** @param {string} method @param {string} p @param {{ who?: string, body?: any, raw?: string, deliberate?: string }} [o]  `deliberate`: invalid on purpose (the contract test does not count it) */
async function api(method, p, o = {}) {
	const headers = { authorization: `Bearer ${await token(o.who ?? 'manager')}` };
	if (o.deliberate) headers['x-contract-deliberate'] = o.deliberate;
	let body;
	if (o.body !== undefined) {
		headers['content-type'] = 'application/json';
		body = JSON.stringify(o.body);
	}
	const r = await fetch(`${emu.baseUrl}/v3${p}`, { method, headers, body });
	const text = await r.text();
	let json = null;
	try {
		json = JSON.parse(text);
	} catch {
		json = null;
	}
	return { status: r.status, json, text };
}

/** A webhook body. @param {string} url @param {string[]} events @param {object} [extra] */
function webhook(url, events = ['WorkOrderCreated'], extra = {}) {
	return {
		Name: 'test hook',
		Url: url,
		Enabled: true,
		Subscriptions: [{ Name: 'wo', EventTypes: events }],
		...extra,
	};
}

const hmac = (key, raw) => crypto.createHmac('sha256', key).update(raw).digest('base64');

/** Waits until the receiver holds `n` requests. */
async function received(r, n, timeoutMs = 5000) {
	const until = Date.now() + timeoutMs;
	while (r.got.length < n) {
		if (Date.now() > until)
			throw new Error(`${r.got.length} of ${n} deliveries after ${timeoutMs} ms`);
		await new Promise((resolve) => setTimeout(resolve, 10));
	}
	await emu.webhooksIdle();
	return r.got;
}

// ---- management ------------------------------------------------------------------------------

describe('webhook management', () => {
	test("POST creates (201 Id + SubscriptionsResponses); GET lists the account's webhooks and gets one by Id; unknown Id 400 with ErrorCode 502", async () => {
		const created = await api('POST', '/NotificationWebHooks', {
			body: {
				Name: 'n8n',
				Description: 'for tests',
				Url: 'http://127.0.0.1:9/x',
				Enabled: true,
				Subscriptions: [
					{
						Name: 'wo',
						EventTypes: ['WorkOrderCreated', 'WorkOrderStatusChanged'],
						Rules: { Trades: ['HVAC'] },
					},
					{ Name: 'p', EventTypes: ['ProposalApproved'] },
				],
			},
		});
		expect(created.status).toBe(201);
		expect(created.json).toEqual({
			Id: expect.any(Number),
			SubscriptionsResponses: [expect.any(Number), expect.any(Number)],
		});
		const list = await api('GET', '/NotificationWebHooks');
		expect(list.status).toBe(200);
		expect(list.json).toEqual([
			{
				Id: created.json.Id,
				Name: 'n8n',
				Description: 'for tests',
				Url: 'http://127.0.0.1:9/x',
				Enabled: true,
				ResetOptions: false,
				Subscriptions: [
					{
						Id: created.json.SubscriptionsResponses[0],
						Name: 'wo',
						EventTypes: ['WorkOrderCreated', 'WorkOrderStatusChanged'],
						Rules: { Trades: ['HVAC'], Categories: [], Statuses: [] },
					},
					{
						Id: created.json.SubscriptionsResponses[1],
						Name: 'p',
						EventTypes: ['ProposalApproved'],
						Rules: null,
					},
				],
			},
		]);
		const one = await api('GET', `/NotificationWebHooks/${created.json.Id}`);
		expect(one.json).toEqual(list.json[0]);
		const unknown = await api('GET', '/NotificationWebHooks/99999');
		expect(unknown.status).toBe(400);
		expect(unknown.json.ErrorCode).toBe(502);
	});

	test('Enabled defaults to false; PUT takes the whole webhook: subscriptions by Id kept, new ones added, others removed; DELETE 204, then 400/502', async () => {
		const { json: c } = await api('POST', '/NotificationWebHooks', {
			body: {
				Name: 'a',
				Url: 'http://127.0.0.1:9/a',
				Subscriptions: [
					{ Name: 's1', EventTypes: ['WorkOrderCreated'] },
					{ Name: 's2', EventTypes: ['ProposalOpen'] },
				],
			},
		});
		expect((await api('GET', `/NotificationWebHooks/${c.Id}`)).json.Enabled).toBe(false);
		const put = await api('PUT', `/NotificationWebHooks/${c.Id}`, {
			body: {
				Name: 'b',
				Url: 'http://127.0.0.1:9/b',
				Enabled: true,
				Subscriptions: [
					{ Id: c.SubscriptionsResponses[0], Name: 's1', EventTypes: ['WorkOrderNoteAdded'] },
					{ Name: 's3', EventTypes: ['CheckListResponseAdded'] },
				],
			},
		});
		expect(put.status).toBe(204);
		const after = (await api('GET', `/NotificationWebHooks/${c.Id}`)).json;
		expect(after).toMatchObject({ Name: 'b', Url: 'http://127.0.0.1:9/b', Enabled: true });
		expect(after.Subscriptions.map((s) => [s.Name, s.EventTypes])).toEqual([
			['s1', ['WorkOrderNoteAdded']],
			['s3', ['CheckListResponseAdded']],
		]);
		expect(after.Subscriptions[0].Id).toBe(c.SubscriptionsResponses[0]);
		const foreignSub = await api('PUT', `/NotificationWebHooks/${c.Id}`, {
			body: {
				Name: 'b',
				Url: 'http://127.0.0.1:9/b',
				Subscriptions: [{ Id: 1, Name: 'x', EventTypes: ['WorkOrderCreated'] }],
			},
		});
		expect(foreignSub.status).toBe(400);
		const missingName = await api('PUT', `/NotificationWebHooks/${c.Id}`, {
			body: {
				Url: 'http://127.0.0.1:9/b',
				Subscriptions: [{ Name: 'x', EventTypes: ['WorkOrderCreated'] }],
			},
			deliberate: 'Name is required',
		});
		expect(missingName.status).toBe(400);
		expect((await api('DELETE', `/NotificationWebHooks/${c.Id}`)).status).toBe(204);
		const again = await api('DELETE', `/NotificationWebHooks/${c.Id}`);
		expect(again.status).toBe(400);
		expect(again.json.ErrorCode).toBe(502);
	});

	test('limits: 1 to 20 subscriptions, 20 webhooks per account (the 21st is refused), unknown event types refused, Name and Url required', async () => {
		const sub = (i) => ({ Name: `s${i}`, EventTypes: ['WorkOrderCreated'] });
		const none = await api('POST', '/NotificationWebHooks', {
			body: { Name: 'a', Url: 'http://127.0.0.1:9/a', Subscriptions: [] },
		});
		expect([none.status, none.json.ErrorCode]).toEqual([400, 4033]);
		const many = await api('POST', '/NotificationWebHooks', {
			body: {
				Name: 'a',
				Url: 'http://127.0.0.1:9/a',
				Subscriptions: Array.from({ length: 21 }, (_, i) => sub(i)),
			},
		});
		expect([many.status, many.json.ErrorCode]).toEqual([400, 4033]);
		const twenty = await api('POST', '/NotificationWebHooks', {
			body: {
				Name: 'a',
				Url: 'http://127.0.0.1:9/a',
				Subscriptions: Array.from({ length: 20 }, (_, i) => sub(i)),
			},
		});
		expect(twenty.status).toBe(201);
		const unknownType = await api('POST', '/NotificationWebHooks', {
			body: webhook('http://127.0.0.1:9/a', ['WorkOrderExploded']),
			deliberate: 'an event type the service does not know',
		});
		expect([unknownType.status, unknownType.json.ErrorCode]).toEqual([400, 4032]);
		expect(unknownType.json.ErrorMessage).toMatch(/WorkOrderExploded/);
		const otherKnown = await api('POST', '/NotificationWebHooks', {
			body: webhook('http://127.0.0.1:9/a', ['InvoiceCreated']),
		});
		expect(otherKnown.status).toBe(201);
		expect(
			(
				await api('POST', '/NotificationWebHooks', {
					body: { Url: 'http://127.0.0.1:9/a', Subscriptions: [sub(1)] },
					deliberate: 'Name is required',
				})
			).status,
		).toBe(400);
		expect(
			(
				await api('POST', '/NotificationWebHooks', {
					body: { Name: 'a', Url: 'not a url', Subscriptions: [sub(1)] },
				})
			).status,
		).toBe(400);
		for (let i = 2; i < 20; i++)
			expect(
				(await api('POST', '/NotificationWebHooks', { body: webhook(`http://127.0.0.1:9/${i}`) }))
					.status,
			).toBe(201);
		expect((await api('GET', '/NotificationWebHooks')).json).toHaveLength(20);
		const over = await api('POST', '/NotificationWebHooks', {
			body: webhook('http://127.0.0.1:9/21'),
		});
		expect([over.status, over.json.ErrorCode]).toEqual([400, 4031]);
		// another account is not affected
		expect(
			(
				await api('POST', '/NotificationWebHooks', {
					who: 'contractor',
					body: webhook('http://127.0.0.1:9/c'),
				})
			).status,
		).toBe(201);
	});

	test('admin only: a subscriber without "Super Admin" gets 403 (ErrorCode 4030) on create, change, delete and the signing key; listing is allowed', async () => {
		const { json: c } = await api('POST', '/NotificationWebHooks', {
			body: webhook('http://127.0.0.1:9/a'),
		});
		for (const [method, p, body] of [
			['POST', '/NotificationWebHooks', webhook('http://127.0.0.1:9/b')],
			['PUT', `/NotificationWebHooks/${c.Id}`, webhook('http://127.0.0.1:9/b')],
			['DELETE', `/NotificationWebHooks/${c.Id}`, undefined],
			['GET', '/NotificationSubscriptions/SigningKey', undefined],
			['PUT', '/NotificationSubscriptions/SigningKey', undefined],
		]) {
			const r = await api(method, p, { who: 'subscriber', body });
			expect([method, p, r.status, r.json.ErrorCode]).toEqual([method, p, 403, 4030]);
			expect(r.json.ErrorMessage).toMatch(/"Super Admin"/);
		}
		const list = await api('GET', '/NotificationWebHooks', { who: 'subscriber' });
		expect(list.status).toBe(200);
		expect(list.json.map((w) => w.Id)).toEqual([c.Id]);
	});

	test('provider side: the contractor (Provider Automation Admin) has its own account; without the access level 403 names it; setWebhookAdmin and the control endpoint switch it', async () => {
		const own = await api('POST', '/NotificationWebHooks', {
			who: 'contractor',
			body: webhook('http://127.0.0.1:9/p'),
		});
		expect(own.status).toBe(201);
		expect(
			(await api('GET', '/NotificationWebHooks', { who: 'contractor' })).json.map((w) => w.Id),
		).toEqual([own.json.Id]);
		expect((await api('GET', '/NotificationWebHooks')).json).toEqual([]);
		expect((await api('GET', `/NotificationWebHooks/${own.json.Id}`)).status).toBe(400);
		emu.setWebhookAdmin('contractor', false);
		const refused = await api('DELETE', `/NotificationWebHooks/${own.json.Id}`, {
			who: 'contractor',
		});
		expect([refused.status, refused.json.ErrorCode]).toEqual([403, 4030]);
		expect(refused.json.ErrorMessage).toMatch(/"Provider Automation Admin"/);
		const ctl = await fetch(`${emu.origin}/__emulator/webhooks/admin`, {
			method: 'POST',
			body: JSON.stringify({ user: 'subscriber', admin: true }),
		});
		expect(await ctl.json()).toEqual({ user: 'subscriber', admin: true });
		expect(
			(
				await api('POST', '/NotificationWebHooks', {
					who: 'subscriber',
					body: webhook('http://127.0.0.1:9/s'),
				})
			).status,
		).toBe(201);
	});

	test("signing key: GET gives the account's key (the same each time, another per account); PUT gives a new one and the old one stops at once", async () => {
		const k1 = (await api('GET', '/NotificationSubscriptions/SigningKey')).json.Key;
		expect(typeof k1).toBe('string');
		expect(k1.length).toBeGreaterThanOrEqual(32);
		expect((await api('GET', '/NotificationSubscriptions/SigningKey')).json.Key).toBe(k1);
		expect(
			(await api('GET', '/NotificationSubscriptions/SigningKey', { who: 'contractor' })).json.Key,
		).not.toBe(k1);
		const rotated = await api('PUT', '/NotificationSubscriptions/SigningKey');
		expect(rotated.status).toBe(200);
		expect(rotated.json.Key).not.toBe(k1);
		expect((await api('GET', '/NotificationSubscriptions/SigningKey')).json.Key).toBe(
			rotated.json.Key,
		);
		const r = await receiver();
		await api('POST', '/NotificationWebHooks', { body: webhook(r.url) });
		emu.createWorkOrder({});
		const [got] = await received(r, 1);
		expect(got.headers['sign-data']).toBe(hmac(Buffer.from(rotated.json.Key, 'utf8'), got.raw));
		expect(got.headers['sign-data']).not.toBe(hmac(Buffer.from(k1, 'utf8'), got.raw));
	});
});

// ---- delivery --------------------------------------------------------------------------------

describe('deliveries', () => {
	test("a signed POST per event: Content-Type json utf-8, Sign-Type HMACSHA256, Sign-Data = base64 HMAC-SHA256 of the raw body with the key's UTF-8 bytes; body EventType, Object, Action, Type, Version", async () => {
		const r = await receiver();
		await api('POST', '/NotificationWebHooks', {
			body: webhook(r.url, ['WorkOrderCreated', 'WorkOrderStatusChanged']),
		});
		const key = (await api('GET', '/NotificationSubscriptions/SigningKey')).json.Key;
		const wo = emu.createWorkOrder({ Trade: 'PLUMBING' });
		emu.setWorkOrderStatus(wo.Id, 'IN PROGRESS', 'ON SITE');
		const got = await received(r, 2);
		for (const g of got) {
			expect(g.headers['content-type']).toBe('application/json; charset=utf-8');
			expect(g.headers['sign-type']).toBe('HMACSHA256');
			expect(g.headers['sign-data']).toBe(hmac(Buffer.from(key, 'utf8'), g.raw));
			expect(g.headers['sign-data']).not.toBe(hmac(Buffer.from(key, 'base64'), g.raw));
		}
		expect(got.map((g) => [g.json.EventType, g.json.Action, g.json.Type, g.json.Version])).toEqual([
			['WorkOrderCreated', 'NEW', 'WoRootNotification', 1],
			['WorkOrderStatusChanged', 'UPDATE', 'WoRootNotification', 1],
		]);
		expect(got[1].json.Object).toMatchObject({
			Id: wo.Id,
			Trade: 'PLUMBING',
			SubscriberId: 1001,
			ProviderId: 3001,
			Status: { Primary: 'IN PROGRESS', Extended: 'ON SITE' },
			UpdatedBy: { UserName: 'emulator' },
		});
		expect(got[1].json.Object.UpdatedDate_DTO).toBe(emu.workOrder(wo.Id).UpdatedDate_DTO);
		expect(got[1].json.Object).toMatchObject({
			LocationName: emu.workOrder(wo.Id).Location.Name,
			LocationStoreId: emu.workOrder(wo.Id).Location.StoreId,
		});
		expect(emu.deliveries.map((d) => [d.eventType, d.status, d.attempt, d.ok])).toEqual([
			['WorkOrderCreated', 200, 1, true],
			['WorkOrderStatusChanged', 200, 1, true],
		]);
	});

	test("only enabled webhooks with a subscription for the type (and matching rules) of the record's accounts get it", async () => {
		const all = await receiver();
		const hvac = await receiver();
		const completed = await receiver();
		const disabled = await receiver();
		const provider = await receiver();
		const otherProvider = await receiver();
		await api('POST', '/NotificationWebHooks', {
			body: webhook(all.url, ['WorkOrderStatusChanged']),
		});
		await api('POST', '/NotificationWebHooks', {
			body: {
				...webhook(hvac.url),
				Subscriptions: [
					{ Name: 'h', EventTypes: ['WorkOrderStatusChanged'], Rules: { Trades: ['hvac'] } },
				],
			},
		});
		await api('POST', '/NotificationWebHooks', {
			body: {
				...webhook(completed.url),
				Subscriptions: [
					{
						Name: 'c',
						EventTypes: ['WorkOrderStatusChanged'],
						Rules: { Statuses: ['COMPLETED'], Categories: ['REPAIR'] },
					},
				],
			},
		});
		await api('POST', '/NotificationWebHooks', {
			body: webhook(disabled.url, ['WorkOrderStatusChanged'], { Enabled: false }),
		});
		await api('POST', '/NotificationWebHooks', {
			who: 'contractor',
			body: webhook(provider.url, ['WorkOrderStatusChanged']),
		});
		emu.setWebhookAdmin('contractor', true);
		// 90000009 is served by provider 3002: the contractor (3001) does not hear of it
		emu.setWorkOrderStatus(90000003, 'COMPLETED', 'PENDING CONFIRMATION'); // PLUMBING / REPAIR, provider 3001
		emu.setWorkOrderStatus(90000001, 'IN PROGRESS', 'ON SITE'); // HVAC / PREVENTIVE MAINTENANCE
		emu.setWorkOrderStatus(90000009, 'IN PROGRESS', 'ON SITE'); // HVAC, provider 3002
		emu.updateWorkOrder(90000005, { Description: 'no event for a description' });
		await received(all, 3);
		await emu.webhooksIdle();
		expect(all.got.map((g) => g.json.Object.Id)).toEqual([90000003, 90000001, 90000009]);
		expect(hvac.got.map((g) => g.json.Object.Id)).toEqual([90000001, 90000009]);
		expect(completed.got.map((g) => g.json.Object.Id)).toEqual([90000003]);
		expect(disabled.got).toEqual([]);
		expect(provider.got.map((g) => g.json.Object.Id)).toEqual([90000003, 90000001]);
		expect(otherProvider.got).toEqual([]);
	});

	test('every kind of change raises its event: API notes (int64 Id literal), attachments, check-in/out, proposal moves, checklist responses (added, then updated); emulator methods for priority, schedule, provider, technician, proposals', async () => {
		const r = await receiver();
		const all = [
			'WorkOrderCreated',
			'WorkOrderStatusChanged',
			'WorkOrderNoteAdded',
			'WorkOrderAttachmentAdded',
			'WorkOrderCheckIn',
			'WorkOrderCheckOut',
			'WorkOrderPriorityChanged',
			'WorkOrderScheduledDateChanged',
			'WorkOrderProviderChanged',
			'WorkOrderTechnicianAssigned',
			'ProposalCreated',
			'ProposalOpen',
			'ProposalOnHold',
			'ProposalApproved',
			'ProposalRejected',
			'ProposalVoided',
			'CheckListResponseAdded',
			'CheckListResponseUpdated',
		];
		await api('POST', '/NotificationWebHooks', {
			body: {
				Name: 'all',
				Url: r.url,
				Enabled: true,
				Subscriptions: [
					{ Name: 'wo', EventTypes: all.slice(0, 10) },
					{ Name: 'p', EventTypes: all.slice(10, 16) },
					{ Name: 'c', EventTypes: all.slice(16) },
				],
			},
		});
		const tok = await token('manager');
		const call = (method, p, body, type = 'application/json') =>
			fetch(`${emu.baseUrl}/v3${p}`, {
				method,
				headers: { authorization: `Bearer ${tok}`, ...(type ? { 'content-type': type } : {}) },
				body,
			});
		const noteId = await (
			await call('POST', `/workorders/${90000005}/notes`, JSON.stringify({ Note: 'from the API' }))
		).text();
		expect(BigInt(noteId) > 2n ** 53n).toBe(true);
		const form = new FormData();
		form.append('file', new Blob([Buffer.from('photo')], { type: 'image/jpeg' }), 'p.jpg');
		expect(
			(
				await fetch(`${emu.baseUrl}/v3/workorders/90000005/notes/${noteId}/attachments`, {
					method: 'POST',
					headers: { authorization: `Bearer ${tok}` },
					body: form,
				})
			).status,
		).toBe(201);
		expect(
			(
				await call(
					'POST',
					'/workorders/90000001/universalCheckIn',
					'{"Latitude":32.7767,"Longitude":-96.797}',
				)
			).status,
		).toBe(200);
		expect(
			(
				await call(
					'POST',
					'/workorders/90000001/universalCheckOut',
					JSON.stringify({ Latitude: 32.7767, Longitude: -96.797, PrimaryStatus: 'Completed' }),
				)
			).status,
		).toBe(200);
		expect((await call('PUT', '/proposals/61001/approve', '{}')).status).toBe(204);
		expect((await call('PUT', '/proposals/61002/open', '{}')).status).toBe(204);
		expect((await call('PUT', '/proposals/61007/onhold', '{}')).status).toBe(204);
		expect((await call('PUT', '/proposals/61008/reject', '{}')).status).toBe(204);
		const answer = () => {
			const f = new FormData();
			f.append(
				'CheckListResponseRequest',
				JSON.stringify({
					CheckListQuestionID: 9101,
					ProviderID: 3001,
					TechnicianID: 4001,
					EntityID: 90000001,
					Attempt: 1,
					Answer: 'yes',
				}),
			);
			return fetch(`${emu.baseUrl}/v3/checklists/CheckListResponse`, {
				method: 'POST',
				headers: { authorization: `Bearer ${tok}` },
				body: f,
			});
		};
		expect((await answer()).status).toBe(201);
		expect((await answer()).status).toBe(201);
		emu.updateWorkOrder(90000002, { Priority: 'P1 - Emergency' });
		emu.updateWorkOrder(90000002, { ScheduledDate: '2030-01-01T08:00:00Z' });
		emu.updateWorkOrder(90000002, { ProviderId: 3002 });
		emu.assignTechnician(90000002, 4101);
		const proposal = emu.createProposal({ WorkOrderId: 90000003, Amount: 640 });
		emu.setProposalStatus(proposal.Id, 'Voided');
		emu.createWorkOrder({});
		await received(r, 19);
		await new Promise((resolve) => setTimeout(resolve, 100));
		await emu.webhooksIdle();
		const types = r.got.map((g) => g.json.EventType);
		expect([...new Set(types)].sort()).toEqual([...all].sort());
		// one event each, except the status changes of check-in and check-out
		expect(types.filter((t) => t === 'WorkOrderStatusChanged')).toHaveLength(2);
		expect(r.got.length).toBe(19);
		const noteEvent = r.got.find((g) => g.json.EventType === 'WorkOrderNoteAdded');
		expect(noteEvent.raw.toString('utf8')).toContain(`"Id":${noteId}`);
		expect(noteEvent.json.Object.Notes[0].NoteData).toBe('from the API');
		expect(noteEvent.json.Object.UpdatedBy.UserName).toBe('demo.manager');
		const checkIn = r.got.find((g) => g.json.EventType === 'WorkOrderCheckIn').json;
		expect(Object.keys(checkIn.Object).sort()).toEqual([
			'Category',
			'Id',
			'LocationId',
			'ProviderId',
			'SubscriberId',
			'Trade',
			'UpdatedBy',
			'UpdatedDate_DTO',
		]);
		const approved = r.got.find((g) => g.json.EventType === 'ProposalApproved').json;
		expect(approved).toMatchObject({
			Action: 'UPDATE',
			Type: 'GenericRootNotification',
			Object: { Id: 61001, Status: 'Approved', WorkOrderId: 90000006, Amount: 1200 },
		});
		const updated = r.got.find((g) => g.json.EventType === 'CheckListResponseUpdated').json;
		expect(updated.Object).toMatchObject({
			WorkOrderId: 90000001,
			CheckListQuestionId: 9101,
			Answer: 'yes',
			Trade: 'HVAC',
		});
		expect(
			r.got.find((g) => g.json.EventType === 'WorkOrderTechnicianAssigned').json.Object,
		).toMatchObject({ Id: 90000002, TechnicianId: 4101 });
		// the subscriber is the same on both sides of the provider change: one delivery to this account
		expect(r.got.filter((g) => g.json.EventType === 'WorkOrderProviderChanged')).toHaveLength(1);
	});

	test('re-sends: a failed delivery (5xx, or no answer within 5 s) is sent again, identical, 3 more times retryDelayMs apart; a success stops it', async () => {
		emu.setWebhookOptions({ retryDelayMs: 60, timeoutMs: 300 });
		const failing = await receiver(() => ({ status: 500 }));
		const recovering = await receiver((n) => (n <= 2 ? { status: 503 } : { status: 204 }));
		const slow = await receiver(() => ({ status: 200, delayMs: 600 }));
		await api('POST', '/NotificationWebHooks', { body: webhook(failing.url) });
		await api('POST', '/NotificationWebHooks', { body: webhook(recovering.url) });
		await api('POST', '/NotificationWebHooks', { body: webhook(slow.url) });
		emu.createWorkOrder({});
		await received(failing, 4);
		await received(slow, 4, 8000);
		await received(recovering, 3);
		await new Promise((resolve) => setTimeout(resolve, 300));
		await emu.webhooksIdle();
		expect(failing.got).toHaveLength(4);
		expect(new Set(failing.got.map((g) => g.raw.toString('base64'))).size).toBe(1);
		expect(new Set(failing.got.map((g) => g.headers['sign-data'])).size).toBe(1);
		const gaps = failing.got.slice(1).map((g, i) => g.at - failing.got[i].at);
		for (const gap of gaps) expect(gap).toBeGreaterThanOrEqual(50);
		expect(recovering.got).toHaveLength(3);
		expect(slow.got).toHaveLength(4);
		const slowLog = emu.deliveries.filter((d) => d.url === slow.url);
		expect(slowLog.map((d) => [d.attempt, d.ok, d.status])).toEqual(
			[1, 2, 3, 4].map((a) => [a, false, null]),
		);
		expect(slowLog[0].error).toMatch(/no answer within 300 ms/);
		expect(emu.webhooks.pendingRetries).toBe(0);
	});

	test('retryNow() and POST /__emulator/webhooks/retry-now send the waiting re-sends at once', async () => {
		emu.setWebhookOptions({ retryDelayMs: 3_600_000 });
		const r = await receiver((n) => ({ status: n === 1 ? 500 : 200 }));
		await api('POST', '/NotificationWebHooks', { body: webhook(r.url) });
		emu.createWorkOrder({});
		await received(r, 1);
		expect(emu.webhooks.pendingRetries).toBe(1);
		const res = await fetch(`${emu.origin}/__emulator/webhooks/retry-now`, { method: 'POST' });
		expect(await res.json()).toEqual({ retried: 1 });
		await received(r, 2);
		expect(r.got[1].raw.equals(r.got[0].raw)).toBe(true);
	});

	test('1,000 consecutive failures (failureLimit) disable a webhook for 12 hours (Enabled reads false); after a second run it stays disabled until PUT enables it', async () => {
		emu.setWebhookOptions({ failureLimit: 3, maxAttempts: 1 });
		const r = await receiver(() => ({ status: 500 }));
		const { json: c } = await api('POST', '/NotificationWebHooks', { body: webhook(r.url) });
		for (let i = 0; i < 3; i++) {
			emu.createWorkOrder({});
			await received(r, i + 1);
		}
		expect((await api('GET', `/NotificationWebHooks/${c.Id}`)).json.Enabled).toBe(false);
		emu.createWorkOrder({});
		await emu.webhooksIdle();
		expect(r.got).toHaveLength(3);
		emu.advanceTime(12 * 3600 + 1);
		expect((await api('GET', `/NotificationWebHooks/${c.Id}`)).json.Enabled).toBe(true);
		for (let i = 0; i < 3; i++) {
			emu.createWorkOrder({});
			await received(r, 4 + i);
		}
		emu.advanceTime(13 * 3600);
		const hook = (await api('GET', `/NotificationWebHooks/${c.Id}`)).json;
		expect(hook.Enabled).toBe(false);
		expect(
			(await api('PUT', `/NotificationWebHooks/${c.Id}`, { body: { ...hook, Enabled: true } }))
				.status,
		).toBe(204);
		emu.createWorkOrder({});
		await received(r, 7);
	});

	test('switches: signWithDecodedKey signs with the base64-decoded key; deliverTwice sends two identical POSTs; signature wrong / missing', async () => {
		const r = await receiver();
		await api('POST', '/NotificationWebHooks', { body: webhook(r.url) });
		const key = (await api('GET', '/NotificationSubscriptions/SigningKey')).json.Key;
		const set = (o) =>
			fetch(`${emu.origin}/__emulator/webhooks/options`, {
				method: 'POST',
				body: JSON.stringify(o),
			}).then((x) => x.json());
		expect(await set({ signWithDecodedKey: true })).toMatchObject({
			signWithDecodedKey: true,
			deliverTwice: false,
		});
		emu.createWorkOrder({});
		let [g] = await received(r, 1);
		expect(g.headers['sign-data']).toBe(hmac(Buffer.from(key, 'base64'), g.raw));
		expect(g.headers['sign-data']).not.toBe(hmac(Buffer.from(key, 'utf8'), g.raw));
		await set({ signWithDecodedKey: false, deliverTwice: true });
		emu.createWorkOrder({});
		const twice = (await received(r, 3)).slice(1);
		expect(twice[0].raw.equals(twice[1].raw)).toBe(true);
		expect(twice[0].headers['sign-data']).toBe(twice[1].headers['sign-data']);
		expect(twice[0].headers['sign-data']).toBe(hmac(Buffer.from(key, 'utf8'), twice[0].raw));
		await set({ deliverTwice: false, signature: 'wrong' });
		emu.createWorkOrder({});
		[g] = (await received(r, 4)).slice(3);
		expect(g.headers['sign-data']).toMatch(/^[A-Za-z0-9+/]{43}=$/);
		expect(g.headers['sign-data']).not.toBe(hmac(Buffer.from(key, 'utf8'), g.raw));
		await set({ signature: 'missing' });
		emu.createWorkOrder({});
		[g] = (await received(r, 5)).slice(4);
		expect(g.headers['sign-data']).toBeUndefined();
		expect(g.headers['sign-type']).toBe('HMACSHA256');
		await fetch(`${emu.origin}/__emulator/webhooks/options`, { method: 'DELETE' });
		expect(emu.webhooks.options.signature).toBe('valid');
		expect(
			(
				await fetch(`${emu.origin}/__emulator/webhooks/options`, {
					method: 'POST',
					body: JSON.stringify({ nope: 1 }),
				})
			).status,
		).toBe(400);
	});

	test('POST /test/webhooks/notifications: a signed test WorkOrderCreated (Object.Source "WebhookTest") to Url; 201 when it answered 2xx, else 400 with ErrorCode 503', async () => {
		const ok = await receiver();
		const bad = await receiver(() => ({ status: 404 }));
		const key = (await api('GET', '/NotificationSubscriptions/SigningKey')).json.Key;
		const sent = await api('POST', '/test/webhooks/notifications', { body: { Url: ok.url } });
		expect(sent.status).toBe(201);
		expect(ok.got).toHaveLength(1);
		expect(ok.got[0].json).toMatchObject({
			EventType: 'WorkOrderCreated',
			Action: 'NEW',
			Object: { Source: 'WebhookTest', SubscriberId: 1001 },
		});
		expect(ok.got[0].headers['sign-data']).toBe(hmac(Buffer.from(key, 'utf8'), ok.got[0].raw));
		const failed = await api('POST', '/test/webhooks/notifications', { body: { Url: bad.url } });
		expect([failed.status, failed.json.ErrorCode]).toEqual([400, 503]);
		expect(failed.json.ErrorMessage).toMatch(/HTTP 404/);
		expect(bad.got).toHaveLength(1);
		const noUrl = await api('POST', '/test/webhooks/notifications', {
			body: {},
			deliberate: 'Url is required',
		});
		expect(noUrl.status).toBe(400);
		expect(emu.deliveries.filter((d) => d.test).map((d) => [d.status, d.ok])).toEqual([
			[200, true],
			[404, false],
		]);
	});

	test('control endpoints: proposals, notes, technician, custom events, deliveries and events logs', async () => {
		const r = await receiver();
		await api('POST', '/NotificationWebHooks', {
			body: {
				Name: 'x',
				Url: r.url,
				Enabled: true,
				Subscriptions: [
					{
						Name: 'a',
						EventTypes: [
							'ProposalCreated',
							'ProposalApproved',
							'WorkOrderNoteAdded',
							'WorkOrderTechnicianAssigned',
							'InvoiceCreated',
						],
					},
				],
			},
		});
		const ctl = (method, p, body) =>
			fetch(`${emu.origin}/__emulator${p}`, { method, body: body && JSON.stringify(body) }).then(
				async (x) => ({ status: x.status, json: await x.json() }),
			);
		const created = await ctl('POST', '/proposals', { WorkOrderId: 90000003, Amount: 320 });
		expect(created.status).toBe(201);
		expect(
			(await ctl('POST', `/proposals/${created.json.Id}/status`, { status: 'Approved' })).status,
		).toBe(200);
		expect(
			(await ctl('POST', `/proposals/${created.json.Id}/status`, { status: 'Bogus' })).status,
		).toBe(400);
		expect((await ctl('POST', '/workorders/90000003/notes', { text: 'control note' })).status).toBe(
			201,
		);
		expect(
			(await ctl('POST', '/workorders/90000003/technician', { technicianId: 4002 })).status,
		).toBe(200);
		expect(
			(
				await ctl('POST', '/webhooks/events', {
					eventType: 'InvoiceCreated',
					subscriberId: 1001,
					object: { Id: 5, Amount: 10 },
				})
			).status,
		).toBe(201);
		await received(r, 5);
		expect(r.got.map((g) => g.json.EventType)).toEqual([
			'ProposalCreated',
			'ProposalApproved',
			'WorkOrderNoteAdded',
			'WorkOrderTechnicianAssigned',
			'InvoiceCreated',
		]);
		expect(r.got[4].json).toMatchObject({
			Action: 'NEW',
			Type: 'GenericRootNotification',
			Object: { Id: 5, Amount: 10 },
		});
		const deliveries = await ctl('GET', '/webhooks/deliveries');
		expect(deliveries.json).toHaveLength(5);
		expect(deliveries.json[0]).toMatchObject({
			eventType: 'ProposalCreated',
			status: 200,
			attempt: 1,
			ok: true,
			url: r.url,
		});
		expect((await ctl('GET', '/webhooks/events')).json.length).toBeGreaterThanOrEqual(5);
		expect((await ctl('GET', '/webhooks')).json[0]).toMatchObject({
			Url: r.url,
			account: 'subscriber:1001',
			consecutiveFailures: 0,
		});
		await ctl('DELETE', '/webhooks/deliveries');
		expect(emu.deliveries).toEqual([]);
	});
});
