'use strict';
/**
 * Pure parts of the webhook trigger, without HTTP: signature readings, the memory of bodies
 * seen (its 20-minute horizon and its size bound, which a test through n8n cannot wait for), the
 * event table, and a delivery's refusals and items (receive.ts).
 */
const crypto = require('node:crypto');
const { ROOT } = require('../support');

const signature = require(`${ROOT}/dist/nodes/WorkOrderService/webhook/signature.js`);
const dedupe = require(`${ROOT}/dist/nodes/WorkOrderService/webhook/dedupe.js`);
const events = require(`${ROOT}/dist/nodes/WorkOrderService/webhook/events.js`);
const receive = require(`${ROOT}/dist/nodes/WorkOrderService/webhook/receive.js`);

const hmac = (key, body) => crypto.createHmac('sha256', key).update(body).digest();

describe('signature', () => {
	const body = Buffer.from('{"EventType":"WorkOrderCreated","Object":{"Id":1}}');
	const key = crypto.randomBytes(32).toString('base64');

	test('accepts the HMAC under the key string\'s UTF-8 bytes and under the base64-decoded key; nothing else', () => {
		expect(signature.verifySignature(body, hmac(Buffer.from(key, 'utf8'), body), key)).toBe(true);
		expect(signature.verifySignature(body, hmac(Buffer.from(key, 'base64'), body), key)).toBe(true);
		expect(signature.verifySignature(body, hmac(Buffer.from(`${key}x`, 'utf8'), body), key)).toBe(false);
		expect(signature.verifySignature(Buffer.concat([body, Buffer.from(' ')]), hmac(Buffer.from(key, 'utf8'), body), key)).toBe(false);
		expect(signature.verifySignature(body, undefined, key)).toBe(false);
		expect(signature.verifySignature(body, hmac(Buffer.from(key, 'utf8'), body), '')).toBe(false);
	});

	test('a key that is not base64 has one reading; a base64url key is decoded as such', () => {
		expect(signature.keyReadings('plain key with spaces!')).toHaveLength(1);
		const url = crypto.randomBytes(24).toString('base64url');
		const readings = signature.keyReadings(url);
		expect(readings).toHaveLength(2);
		expect(readings[1].equals(Buffer.from(url, 'base64url'))).toBe(true);
	});

	test('Sign-Data: base64 (or base64url) of 32 bytes, else unusable', () => {
		const mac = hmac('k', body);
		expect(signature.signatureBytes(mac.toString('base64')).equals(mac)).toBe(true);
		expect(signature.signatureBytes(` ${mac.toString('base64')} `).equals(mac)).toBe(true);
		expect(signature.signatureBytes(mac.toString('base64url')).equals(mac)).toBe(true);
		expect(signature.signatureBytes([mac.toString('base64')]).equals(mac)).toBe(true);
		expect(signature.signatureBytes(undefined)).toBeUndefined();
		expect(signature.signatureBytes('')).toBeUndefined();
		expect(signature.signatureBytes('***')).toBeUndefined();
		expect(signature.signatureBytes(Buffer.alloc(20).toString('base64'))).toBeUndefined();
	});

	test('signBody writes what verifySignature accepts, for both readings', () => {
		for (const reading of ['utf8', 'base64']) {
			const sent = signature.signBody(body, key, reading);
			expect(signature.verifySignature(body, Buffer.from(sent, 'base64'), key)).toBe(true);
		}
	});
});

describe('bodies seen', () => {
	test('a body is a repeat within 20 minutes and new again after them, per scope', () => {
		const scope = `units-${Math.random()}`;
		const body = Buffer.from('{"a":1}');
		const t0 = 1_000_000;
		expect(dedupe.isRepeat(scope, body, t0)).toBe(false);
		expect(dedupe.isRepeat(scope, body, t0 + 15 * 60_000)).toBe(true);
		expect(dedupe.isRepeat(`${scope}-other`, body, t0 + 15 * 60_000)).toBe(false);
		expect(dedupe.isRepeat(scope, body, t0 + dedupe.DEDUPE_HORIZON_MS)).toBe(false);
		expect(dedupe.DEDUPE_HORIZON_MS).toBeGreaterThanOrEqual(3 * 5 * 60_000);
	});

	test('the memory is bounded: beyond its capacity the oldest bodies are forgotten first', () => {
		const recent = new dedupe.RecentBodies(60_000, 3);
		for (const d of ['a', 'b', 'c', 'd']) expect(recent.checkAndRemember(d, 1)).toBe(false);
		expect(recent.size).toBe(3);
		expect(recent.checkAndRemember('d', 2)).toBe(true);
		expect(recent.checkAndRemember('a', 2)).toBe(false);
		// expired entries leave as time passes
		expect(recent.checkAndRemember('e', 70_000)).toBe(false);
		expect(recent.size).toBe(1);
	});
});

describe('events', () => {
	test('the 18 events of the issue, each with its object; the option list is sorted by name', () => {
		const values = events.EVENT_OPTIONS.map((o) => o.value);
		expect(values).toHaveLength(18);
		expect(values.filter((v) => events.objectOf(v) === 'workOrder')).toHaveLength(10);
		expect(values.filter((v) => events.objectOf(v) === 'proposal')).toHaveLength(6);
		expect(values.filter((v) => events.objectOf(v) === 'checklistResponse')).toHaveLength(2);
		const names = events.EVENT_OPTIONS.map((o) => o.name);
		expect(names).toEqual([...names].sort((a, b) => a.localeCompare(b)));
	});
});

describe('receiving a delivery', () => {
	const body = '{"EventType":"WorkOrderCreated","Object":{"Id":1}}';
	const sign = crypto.randomBytes(32).toString('base64');

	test('no body, or no valid Sign-Data header: 401 before any key is read', () => {
		expect(receive.signedBody({ headers: { 'sign-data': sign } })).toEqual({
			refusal: { status: 401, message: 'Delivery refused: no body to verify', log: 'Work Order Service Trigger: refused a delivery without a body (401)' },
		});
		expect(receive.signedBody({ rawBody: Buffer.alloc(0), headers: { 'sign-data': sign } }).refusal.status).toBe(401);
		for (const header of [undefined, '', 'not base64!', crypto.randomBytes(16).toString('base64')]) {
			const { refusal } = receive.signedBody({ rawBody: Buffer.from(body), headers: { 'sign-data': header } });
			expect(refusal.status).toBe(401);
			expect(refusal.message).toBe('Delivery refused: missing or malformed Sign-Data signature');
		}
	});

	test('a body as Buffer or text and a 32-byte signature (also base64url, also the first of repeated headers) go on to verification', () => {
		const signature = Buffer.from(sign, 'base64');
		expect(receive.signedBody({ rawBody: Buffer.from(body), headers: { 'sign-data': sign } })).toEqual({ raw: Buffer.from(body), signature });
		expect(receive.signedBody({ rawBody: body, headers: { 'sign-data': [signature.toString('base64url')] } })).toEqual({ raw: Buffer.from(body), signature });
	});

	test('a signature that does not verify: 503 with Retry-After when the key could not be read, else 401', () => {
		const late = receive.refusalFor({ kind: 'late' });
		expect(late).toMatchObject({ status: 503, headers: { 'retry-after': '60' }, message: 'The signing key could not be read in time; send again later' });
		expect(late.log).toContain(`not read within ${receive.KEY_BUDGET_MS / 1000} s`);
		const failed = receive.refusalFor({ kind: 'failed', error: new Error('403 Forbidden') });
		expect(failed.status).toBe(503);
		expect(failed.log).toContain('could not be read (403 Forbidden)');
		const mismatch = receive.refusalFor({ kind: 'key', key: 'secret-key', fresh: true });
		expect(mismatch).toEqual({
			status: 401,
			message: 'Delivery refused: the signature does not match',
			log: "Work Order Service Trigger: refused a delivery whose signature matches neither reading of the account's signing key (401)",
		});
		expect(JSON.stringify(mismatch)).not.toContain('secret-key');
		expect(receive.refusalFor({ kind: 'throttled' }).log).toContain('(key re-read skipped: one per 30 s)');
	});

	test('items: only the events chosen; the service\'s test event only while listening in the editor', () => {
		const created = { EventType: 'WorkOrderCreated', Action: 'Created', Object: { Id: 1 } };
		const approved = { EventType: 'ProposalApproved', Object: { Id: 2 } };
		const test = { EventType: 'WorkOrderCreated', Object: { Source: 'WebhookTest' } };
		const probe = { EventType: 'Ping', Object: { Source: 'WebhookTest' } };
		const chosen = new Set(['WorkOrderCreated']);
		expect(receive.chosenItems([created, approved], chosen, false).map((i) => i.json.Object.Id)).toEqual([1]);
		expect(receive.chosenItems([approved, probe], chosen, false)).toEqual([]);
		expect(receive.chosenItems([approved, probe], chosen, true).map((i) => i.json.EventType)).toEqual(['Ping']);
		expect(receive.chosenItems([test], chosen, false)).toHaveLength(1);
		expect(Object.keys(receive.chosenItems([{ Type: 'Notification', ...created }], chosen, false)[0].json)).toEqual(['EventType', 'Action', 'Object', 'Type']);
	});
});
