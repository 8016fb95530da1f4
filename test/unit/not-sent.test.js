'use strict';
/**
 * Which failures without an answer prove that nothing reached the service (transport/errors.ts
 * `readHttpFailure(...).notSent`), for the error shapes each n8n version throws. n8n 2.x keeps
 * the request error (axios, with its ClientRequest and socket) as `cause`; n8n 1.x keeps only
 * the code (`httpCode`) and the messages, so there a timeout cannot be told apart and stays
 * "may have been sent". Live shapes: test/e2e/error-shape.js.
 */
const {
	readHttpFailure,
	isNotSentCode,
	requestFlushed,
} = require('../../dist/nodes/WorkOrderService/transport/errors');

/** An n8n 2.x NodeApiError around an axios error whose ClientRequest is `request` (its public Writable state). */
function n8n2(code, message, request) {
	const axiosError = Object.assign(new Error(message), { name: 'AxiosError', code, request });
	return Object.assign(
		new Error('The connection was aborted, perhaps the server is offline', { cause: axiosError }),
		{ name: 'NodeApiError', httpCode: code },
	);
}

/** An n8n 1.x NodeApiError: no cause, only the code and the original message. */
function n8n1(code, message) {
	return Object.assign(new Error('The connection was aborted, perhaps the server is offline'), {
		name: 'NodeApiError',
		httpCode: code,
		messages: [message],
		cause: undefined,
	});
}

/** Node's http.ClientRequest as a failed request leaves it: only public Writable state. */
const request = (flushed, extra = {}) => ({
	writableFinished: flushed,
	writableEnded: true,
	...extra,
});

describe("n8n 2.x: the request's public Writable state says whether it left this process", () => {
	test.each([
		[
			'connect timeout (nothing flushed)',
			n8n2('ECONNABORTED', 'timeout of 1000ms exceeded', request(false)),
			true,
		],
		[
			'response timeout (the request was written)',
			n8n2('ECONNABORTED', 'timeout of 1000ms exceeded', request(true)),
			false,
		],
		[
			'connection refused',
			n8n2('ECONNREFUSED', 'connect ECONNREFUSED 127.0.0.1:1', request(false)),
			true,
		],
		[
			'reset after the request was written',
			n8n2('ECONNRESET', 'socket hang up', request(true)),
			false,
		],
		[
			'reset before anything was written',
			n8n2('ECONNRESET', 'socket hang up', request(false)),
			true,
		],
		[
			'certificate refused (the code says it)',
			n8n2('DEPTH_ZERO_SELF_SIGNED_CERT', 'self-signed certificate', request(false)),
			true,
		],
		[
			'TLS to a plain server',
			n8n2('EPROTO', 'write EPROTO ... wrong version number', request(true)),
			true,
		],
		[
			'TLS connection up, request written, then timeout',
			n8n2('ECONNABORTED', 'timeout of 1000ms exceeded', request(true)),
			false,
		],
		[
			'a reused keep-alive socket says nothing about this request',
			n8n2('ECONNRESET', 'socket hang up', request(false, { reusedSocket: true })),
			false,
		],
	])('%s', (_name, error, notSent) => {
		const failure = readHttpFailure(error);
		expect(failure.status).toBeUndefined();
		expect(failure.notSent).toBe(notSent);
	});

	test('requestFlushed reads only public fields, and nothing without a request', () => {
		expect(requestFlushed({ request: request(false) })).toBe(false);
		expect(
			requestFlushed({ request: { _bytesDispatched: 0, socket: { _secureEstablished: false } } }),
		).toBeUndefined();
		expect(requestFlushed({ request: {} })).toBeUndefined();
		expect(requestFlushed(new Error('x'))).toBeUndefined();
	});
});

describe('n8n 1.x (no socket): only the code can prove it', () => {
	test.each([
		['ECONNREFUSED', 'connect ECONNREFUSED 127.0.0.1:1', true],
		['ENOTFOUND', 'getaddrinfo ENOTFOUND wos.example', true],
		['EAI_AGAIN', 'getaddrinfo EAI_AGAIN wos.example', true],
		['DEPTH_ZERO_SELF_SIGNED_CERT', 'self-signed certificate', true],
		['CERT_HAS_EXPIRED', 'certificate has expired', true],
		['ERR_TLS_CERT_ALTNAME_INVALID', "Hostname/IP does not match certificate's altnames", true],
		// a timeout or a reset may have come after the request was written: "may have been recorded"
		['ECONNABORTED', 'timeout of 1000ms exceeded', false],
		['ETIMEDOUT', 'connect ETIMEDOUT', false],
		['ECONNRESET', 'socket hang up', false],
	])('%s', (code, message, notSent) => {
		const failure = readHttpFailure(n8n1(code, message));
		expect(failure.networkCode).toBe(code);
		expect(failure.notSent).toBe(notSent);
	});

	test('a certificate failure known only from the message is a TLS failure', () => {
		const error = Object.assign(new Error('unable to verify the first certificate'), {
			name: 'NodeApiError',
			httpCode: null,
			messages: [],
			cause: undefined,
		});
		const failure = readHttpFailure(error);
		expect(failure.notSent).toBe(true);
	});

	test('isNotSentCode', () => {
		expect(isNotSentCode('ENOTFOUND')).toBe(true);
		expect(isNotSentCode('ERR_SSL_WRONG_VERSION_NUMBER')).toBe(true);
		expect(isNotSentCode('ECONNRESET')).toBe(false);
		expect(isNotSentCode(undefined)).toBe(false);
	});

	test('an answer (any status) is never "not sent"', () => {
		const err = Object.assign(new Error('x'), {
			cause: Object.assign(new Error('y'), {
				code: 'ECONNREFUSED',
				response: { status: 503, headers: {}, data: '' },
			}),
		});
		expect(readHttpFailure(err).notSent).toBeUndefined();
	});
});
