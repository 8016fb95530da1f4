import { createHmac, timingSafeEqual } from 'crypto';

/**
 * `Sign-Data` verification: the base64 of an HMAC-SHA256 over the raw request body, keyed with
 * the account's signing key. The service does not say how the key string becomes key bytes, so
 * both readings are accepted: the key string's UTF-8 bytes (what the emulator does by default)
 * and the base64-decoded key. Comparison is constant-time. Pure functions, no I/O.
 */

const SIGNATURE_BYTES = 32;
const BASE64 = /^[A-Za-z0-9+/]+={0,2}$/;
const BASE64URL = /^[A-Za-z0-9_-]+$/;

/** The key bytes to try for a key string: its UTF-8 bytes, and its base64 decoding when it is base64. */
export function keyReadings(key: string): Buffer[] {
	const readings = [Buffer.from(key, 'utf8')];
	const text = key.trim();
	if (text.length >= 4 && (BASE64.test(text) || BASE64URL.test(text))) {
		const decoded = Buffer.from(text, BASE64.test(text) ? 'base64' : 'base64url');
		if (decoded.length > 0 && !decoded.equals(readings[0])) readings.push(decoded);
	}
	return readings;
}

/** The signature bytes a `Sign-Data` header carries, or undefined when it is not a base64 HMAC-SHA256. */
export function signatureBytes(header: unknown): Buffer | undefined {
	const value = Array.isArray(header) ? header[0] : header;
	if (typeof value !== 'string') return undefined;
	const text = value.trim();
	if (text === '' || !(BASE64.test(text) || BASE64URL.test(text))) return undefined;
	const bytes = Buffer.from(text, BASE64.test(text) ? 'base64' : 'base64url');
	return bytes.length === SIGNATURE_BYTES ? bytes : undefined;
}

/** True when `signature` is the HMAC-SHA256 of `body` under one of the key's readings. */
export function verifySignature(body: Buffer, signature: Buffer | undefined, key: string): boolean {
	if (!signature || signature.length !== SIGNATURE_BYTES || key === '') return false;
	let valid = false;
	for (const reading of keyReadings(key)) {
		const expected = createHmac('sha256', reading).update(body).digest();
		// every reading is compared, so the time taken does not say which one matched
		if (timingSafeEqual(expected, signature)) valid = true;
	}
	return valid;
}

/** `Sign-Data` for a body (tests and tools). */
export function signBody(body: Buffer, key: string, reading: 'utf8' | 'base64' = 'utf8'): string {
	const keyBytes = reading === 'utf8' ? Buffer.from(key, 'utf8') : Buffer.from(key, 'base64');
	return createHmac('sha256', keyBytes).update(body).digest('base64');
}
