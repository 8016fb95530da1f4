'use strict';
// Pure functions of the transport: reading failures, the service's words, Retry-After, redaction.
const {
	readHttpFailure,
	serviceMessage,
	serviceErrorCode,
	hintForStatus,
	WorkOrderServiceAuthError,
} = require('../../dist/nodes/WorkOrderService/transport/errors');
const { parseRetryAfter } = require('../../dist/nodes/WorkOrderService/transport/policy');
const { SecretSet } = require('../../dist/nodes/WorkOrderService/transport/secrets');

const redact = (text, secrets) =>
	secrets.reduce((set, secret) => set.add(secret), new SecretSet()).redact(text);

describe('serviceMessage', () => {
	test.each([
		[
			'JSON ErrorMessage',
			'{"ErrorCodes":[4001],"ErrorCode":4001,"ErrorMessage":"Work order is invoiced"}',
			'application/json',
			'Work order is invoiced',
		],
		[
			'JSON Reason',
			'{"Reason":"Proposal not found"}',
			'application/json; charset=utf-8',
			'Proposal not found',
		],
		[
			'OAuth error_description',
			'{"error":"invalid_grant","error_description":"bad password"}',
			'application/json',
			'bad password',
		],
		['nested error.message', '{"error":{"message":"deep"}}', 'application/json', 'deep'],
		[
			'plain text first line',
			'\n  Service temporarily down\nsecond line',
			'text/plain',
			'Service temporarily down',
		],
		[
			'HTML title',
			'<!DOCTYPE html><html><head><title>502 Bad Gateway</title></head><body><h1>nginx</h1></body></html>',
			'text/html',
			'502 Bad Gateway',
		],
		[
			'HTML heading without title',
			'<html><body><script>var x=1</script><h1>Login &amp; Access</h1></body></html>',
			'text/html',
			'Login & Access',
		],
		['JSON body labelled text', '{"ErrorMessage":"typed wrong"}', 'text/plain', 'typed wrong'],
	])('%s', (_name, body, type, expected) => {
		expect(serviceMessage(body, type)).toBe(expected);
	});

	test('empty body gives nothing', () => {
		expect(serviceMessage('', 'application/json')).toBeUndefined();
		expect(serviceMessage('   \n ', 'text/plain')).toBeUndefined();
	});

	test('a long line is shortened, never a whole page', () => {
		const text = 'x'.repeat(5000);
		const message = serviceMessage(text, 'text/plain');
		expect(message.length).toBeLessThanOrEqual(300);
		expect(message.endsWith('...')).toBe(true);
	});

	test('error code is read from the JSON body', () => {
		expect(serviceErrorCode('{"ErrorCode":4003,"ErrorMessage":"x"}')).toBe(4003);
		expect(serviceErrorCode('not json')).toBeUndefined();
		// the reference types ErrorCode a string (a name from a fixed list, or digits); deployments send numbers: both
		expect(serviceErrorCode('{"ErrorCode":"503","ErrorMessage":"x"}')).toBe('503');
		expect(serviceErrorCode('{"ErrorCode":"ProposalAlreadyApproved","ErrorMessage":"x"}')).toBe(
			'ProposalAlreadyApproved',
		);
		expect(serviceErrorCode('{"ErrorCodes":["InvalidSubscriber"],"ErrorMessage":"x"}')).toBe(
			'InvalidSubscriber',
		);
		expect(serviceErrorCode('{"ErrorCode":"two words","ErrorMessage":"x"}')).toBeUndefined();
	});
});

describe('parseRetryAfter', () => {
	test('seconds', () => {
		expect(parseRetryAfter('3')).toBe(3000);
		expect(parseRetryAfter(' 0 ')).toBe(0);
		expect(parseRetryAfter('1.5')).toBe(1500);
	});
	test('HTTP date, relative to now', () => {
		const now = Date.parse('Sat, 21 Nov 2026 20:00:00 GMT');
		expect(parseRetryAfter('Sat, 21 Nov 2026 20:00:07 GMT', now)).toBe(7000);
		expect(parseRetryAfter('Sat, 21 Nov 2026 19:59:00 GMT', now)).toBe(0);
	});
	test('absent or unreadable', () => {
		expect(parseRetryAfter(undefined)).toBeUndefined();
		expect(parseRetryAfter('soon')).toBeUndefined();
		expect(parseRetryAfter('')).toBeUndefined();
	});
});

describe('readHttpFailure', () => {
	test('finds status, headers and body in an axios-like cause', () => {
		const axiosError = Object.assign(new Error('Request failed with status code 429'), {
			code: 'ERR_BAD_REQUEST',
			response: {
				status: 429,
				headers: { 'retry-after': '2' },
				data: Buffer.from('{"ErrorMessage":"slow down"}'),
			},
		});
		const wrapped = Object.assign(new Error('wrapped'), { cause: axiosError, httpCode: '429' });
		const failure = readHttpFailure(wrapped);
		expect(failure.status).toBe(429);
		expect(failure.headers['retry-after']).toBe('2');
		expect(failure.bodyText).toBe('{"ErrorMessage":"slow down"}');
	});
	test('network failure without response', () => {
		const err = Object.assign(new Error('socket hang up'), { code: 'ECONNRESET' });
		const failure = readHttpFailure(Object.assign(new Error('x'), { cause: err }));
		expect(failure.status).toBeUndefined();
		expect(failure.networkCode).toBe('ECONNRESET');
	});
	test('a login failure is recognised by its type (not by a name string), with its safe message', () => {
		const auth = new WorkOrderServiceAuthError(
			'invalidUser',
			'Username or password rejected (HTTP 400)',
			400,
		);
		const failure = readHttpFailure(Object.assign(new Error('outer'), { cause: auth }));
		expect(failure.login.message).toBe('Username or password rejected (HTTP 400)');
		expect(failure.login.kind).toBe('invalidUser');
		// an impostor that only copies the name is not taken for a login failure
		const impostor = Object.assign(new Error('Bearer abc leaked'), {
			name: 'WorkOrderServiceAuthError',
			kind: 'invalidUser',
		});
		expect(
			readHttpFailure(Object.assign(new Error('outer'), { cause: impostor })).login,
		).toBeUndefined();
	});
	// The shapes below are what httpRequestWithAuthentication throws for a request sent with
	// encoding 'arraybuffer', json false, returnFullResponse true (test/e2e/error-shape.js).
	const forbiddenBody =
		'{"ErrorCodes":[4031],"ErrorCode":4031,"ErrorMessage":"Proposal amount exceeds your approval limit"}';
	const axios403 = () =>
		Object.assign(new Error('Request failed with status code 403'), {
			name: 'AxiosError',
			code: 'ERR_BAD_REQUEST',
			status: 403,
			response: {
				status: 403,
				headers: { 'content-type': 'application/json; charset=utf-8' },
				data: Buffer.from(forbiddenBody),
			},
		});
	/** n8n 1.x NodeApiError: no cause, no response; httpCode, context.data (Buffer) and messages are left. */
	const n8n1NodeApiError = (message, httpCode, data, messages) => {
		const err = Object.assign(new Error(message), {
			name: 'NodeApiError',
			httpCode,
			context: {},
			messages,
		});
		if (data !== undefined) err.context.data = data;
		err.cause = undefined;
		return err;
	};
	test('n8n 2.x: NodeApiError with the axios error as (non-enumerable) cause and the body in context.data', () => {
		const err = new Error('Forbidden - perhaps check your credentials?', { cause: axios403() });
		Object.assign(err, {
			name: 'NodeApiError',
			httpCode: '403',
			context: { data: Buffer.from(forbiddenBody) },
		});
		const failure = readHttpFailure(err);
		expect(failure.status).toBe(403);
		expect(failure.headers['content-type']).toBe('application/json; charset=utf-8');
		expect(failure.bodyText).toBe(forbiddenBody);
	});
	test('n8n 1.x: 403 with the body only in context.data (Buffer); no headers', () => {
		const err = n8n1NodeApiError(
			'Forbidden - perhaps check your credentials?',
			'403',
			Buffer.from(forbiddenBody),
			['Request failed with status code 403'],
		);
		const failure = readHttpFailure(err);
		expect(failure.status).toBe(403);
		expect(failure.headers).toEqual({});
		expect(failure.bodyText).toBe(forbiddenBody);
		expect(serviceMessage(failure.bodyText, '')).toBe(
			'Proposal amount exceeds your approval limit',
		);
		expect(failure.otherMessage).toBeUndefined();
	});
	test('n8n 1.x: context.data as ArrayBuffer, string or parsed object', () => {
		const ab = Uint8Array.from(Buffer.from('{"ErrorMessage":"ab"}')).buffer;
		expect(readHttpFailure(n8n1NodeApiError('x', '400', ab, [])).bodyText).toBe(
			'{"ErrorMessage":"ab"}',
		);
		expect(
			readHttpFailure(n8n1NodeApiError('x', '500', 'Service temporarily down', [])).bodyText,
		).toBe('Service temporarily down');
		expect(
			JSON.parse(
				readHttpFailure(n8n1NodeApiError('x', '422', { ErrorMessage: 'obj' }, [])).bodyText,
			),
		).toEqual({ ErrorMessage: 'obj' });
		const noBody = readHttpFailure(
			n8n1NodeApiError('Bad request - please check your parameters', '400', undefined, []),
		);
		expect(noBody.status).toBe(400);
		expect(noBody.bodyText).toBe('');
	});
	test.each([
		[
			'timeout',
			'The connection was aborted, perhaps the server is offline',
			'ECONNABORTED',
			['timeout of 700ms exceeded'],
			'ECONNABORTED',
		],
		[
			'connection reset',
			'The connection to the server was closed unexpectedly, perhaps it is offline.',
			'ECONNRESET',
			['socket hang up'],
			'ECONNRESET',
		],
		[
			'connection refused',
			'The service refused the connection - perhaps it is offline',
			'ECONNREFUSED',
			['connect ECONNREFUSED 127.0.0.1:1'],
			'ECONNREFUSED',
		],
		[
			'code only in the original message',
			'The service refused the connection - perhaps it is offline',
			null,
			['connect ECONNREFUSED 127.0.0.1:1'],
			'ECONNREFUSED',
		],
		[
			'timeout only in the original message',
			'Something went wrong',
			null,
			['timeout of 700ms exceeded'],
			'ETIMEDOUT',
		],
	])(
		'n8n 1.x network failure (%s): the code is in httpCode or messages',
		(_name, message, httpCode, messages, expected) => {
			const failure = readHttpFailure(n8n1NodeApiError(message, httpCode, undefined, messages));
			expect(failure.status).toBeUndefined();
			expect(failure.networkCode).toBe(expected);
			expect(failure.otherMessage).toBeUndefined();
		},
	);
	test('an error that is neither HTTP nor network keeps its message as otherMessage', () => {
		const failure = readHttpFailure(
			n8n1NodeApiError('OAuth credentials not connected', null, undefined, [
				'OAuth credentials not connected',
			]),
		);
		expect(failure.status).toBeUndefined();
		expect(failure.networkCode).toBeUndefined();
		expect(failure.otherMessage).toBe('OAuth credentials not connected');
	});
	test('does not loop on a cyclic cause chain', () => {
		const a = new Error('a');
		const b = new Error('b');
		a.cause = b;
		b.cause = a;
		expect(() => readHttpFailure(a)).not.toThrow();
	});
});

describe('redact', () => {
	test('removes secret values and Authorization header values', () => {
		const text = 'token abcd1234secret and Bearer eyJhbGciOi.x.y and Basic ZGVtbzpzZWNyZXQ=';
		const out = redact(text, ['abcd1234secret']);
		expect(out).not.toContain('abcd1234secret');
		expect(out).not.toContain('eyJhbGciOi');
		expect(out).not.toContain('ZGVtbzpzZWNyZXQ=');
		expect(out).toContain('Bearer [redacted]');
	});
	test('short values are not treated as secrets (would shred ordinary text)', () => {
		expect(redact('a b c', ['a'])).toBe('a b c');
	});
});

test('hints name what to check', () => {
	expect(hintForStatus(404, 'GET')).toMatch(/30 seconds/);
	expect(hintForStatus(429, 'POST')).toMatch(/Requests Per Minute/);
	expect(hintForStatus(401, 'GET')).toMatch(/permission/);
});
