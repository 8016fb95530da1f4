'use strict';
/**
 * Pure parts of the webhook trigger, without HTTP: signature readings and the memory of bodies
 * seen (its 20-minute horizon and its size bound, which a test through n8n cannot wait for).
 */
const crypto = require('node:crypto');
const { ROOT } = require('../support');

const signature = require(`${ROOT}/dist/nodes/WorkOrderService/webhook/signature.js`);
const dedupe = require(`${ROOT}/dist/nodes/WorkOrderService/webhook/dedupe.js`);
const events = require(`${ROOT}/dist/nodes/WorkOrderService/webhook/events.js`);

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
