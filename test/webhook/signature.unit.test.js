'use strict';
/**
 * The webhook trigger's signature check (webhook/signature, compiled, from dist/), without HTTP:
 * the key's readings (UTF-8 bytes, base64, base64url), the Sign-Data header, signBody.
 */
const crypto = require('node:crypto');
const { ROOT } = require('../support');

const signature = require(`${ROOT}/dist/nodes/WorkOrderService/webhook/signature.js`);

const hmac = (key, body) => crypto.createHmac('sha256', key).update(body).digest();

describe('signature', () => {
	const body = Buffer.from('{"EventType":"WorkOrderCreated","Object":{"Id":1}}');
	const key = crypto.randomBytes(32).toString('base64');

	test("accepts the HMAC under the key string's UTF-8 bytes and under the base64-decoded key; nothing else", () => {
		expect(signature.verifySignature(body, hmac(Buffer.from(key, 'utf8'), body), key)).toBe(true);
		expect(signature.verifySignature(body, hmac(Buffer.from(key, 'base64'), body), key)).toBe(true);
		expect(signature.verifySignature(body, hmac(Buffer.from(`${key}x`, 'utf8'), body), key)).toBe(
			false,
		);
		expect(
			signature.verifySignature(
				Buffer.concat([body, Buffer.from(' ')]),
				hmac(Buffer.from(key, 'utf8'), body),
				key,
			),
		).toBe(false);
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
