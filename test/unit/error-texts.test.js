'use strict';
// The error builders of the transport (transport/errors.ts): the words of each failure, without HTTP.
const {
	failureText,
	notSentText,
	redirectText,
	retryNote,
	routeOf,
	throttleHint,
	throttledTooLongText,
	WorkOrderServiceAuthError,
} = require('../../dist/nodes/WorkOrderService/transport/errors');

const SETTINGS = { maxRetries: 3, maxWaitMs: 120_000, timeoutMs: 60_000 };
const ONE = { attempts: 1, waitedMs: 0 };
const json = (body) => ({
	headers: { 'content-type': 'application/json' },
	bodyText: JSON.stringify(body),
});

test('routeOf and retryNote', () => {
	expect(routeOf('post', '/workorders/1/notes?x=1')).toBe('POST /workorders/1/notes');
	expect(retryNote(ONE)).toBe('');
	expect(retryNote({ attempts: 1, waitedMs: 0, gaveUp: 'x' })).toBe(' Gave up: x.');
	expect(retryNote({ attempts: 4, waitedMs: 3400, gaveUp: 'Max Retries (3) reached' })).toBe(
		' Tried 4 times over 3 s; gave up: Max Retries (3) reached.',
	);
});

test("an answer: the service's words, its code, the status, what to check", () => {
	const t = failureText(
		'GET /workorders/9',
		{ status: 404, ...json({ ErrorCode: 5002, ErrorMessage: 'Work order 9 was not found' }) },
		ONE,
		SETTINGS,
		false,
	);
	expect(t).toEqual({
		kind: 'notFound',
		message:
			'The Work Order Service answered 404 Not Found to GET /workorders/9: Work order 9 was not found (error code 5002)',
		description:
			'Check the IDs. A record created moments ago can take up to about 30 seconds to become readable.',
		httpCode: '404',
		said: { words: 'Work order 9 was not found', code: 5002, attempts: 1 },
	});
});

test('a 5xx to a POST may or may not have been recorded; to a GET it is a service failure', () => {
	const post = failureText(
		'POST /checklists/CheckListResponse',
		{ status: 500, headers: {}, bodyText: 'Backend failure' },
		ONE,
		SETTINGS,
		false,
	);
	expect(post.description).toMatch(
		/^The submission may or may not have been recorded by the service/,
	);
	const get = failureText(
		'GET /workorders/1',
		{ status: 502, headers: {}, bodyText: '' },
		{ attempts: 3, waitedMs: 2000, gaveUp: 'Max Retries (2) reached' },
		SETTINGS,
		false,
	);
	expect(get.message).toBe(
		'The Work Order Service answered 502 Bad Gateway to GET /workorders/1 (gave up after 3 attempts)',
	);
	expect(get.description).toMatch(
		/The service failed\. .* Tried 3 times over 2 s; gave up: Max Retries \(2\) reached\.$/,
	);
});

test('throttled: the option to change depends on what bounded it', () => {
	expect(throttleHint('the next wait (30 s) would exceed Max Wait (120 s)', SETTINGS)).toMatch(
		/Raise "Max Wait \(Seconds\)" \(now 120 s\).*"Requests Per Minute"/,
	);
	expect(throttleHint('Max Retries (3) reached', SETTINGS)).toMatch(
		/Raise "Max Retries" \(now 3\)/,
	);
	const t = failureText(
		'PUT /proposals/1/approve',
		{ status: 429, headers: {}, bodyText: '' },
		{ attempts: 1, waitedMs: 0, gaveUp: 'the next wait (30 s) would exceed Max Wait (1 s)' },
		{ ...SETTINGS, maxWaitMs: 1000 },
		true,
	);
	expect(t.description).toMatch(/Raise "Max Wait \(Seconds\)" \(now 1 s\)/);
	expect(t.description).toMatch(/Gave up: the next wait \(30 s\) would exceed Max Wait \(1 s\)\.$/);
	expect(throttledTooLongText('GET /x', 'the service kept throttling', SETTINGS).message).toBe(
		"The request GET /x was not sent: the Work Order Service kept throttling this application's requests for longer than Max Wait (120 s)",
	);
});

test('not sent: refused, TLS, connect timeout; never "may or may not"', () => {
	const refused = notSentText(
		'POST /workorders/1/notes',
		{ headers: {}, bodyText: '', networkCode: 'ECONNREFUSED', notSent: true },
		ONE,
		SETTINGS,
	);
	expect(refused.message).toBe(
		'The request POST /workorders/1/notes was not sent: the Work Order Service could not be reached (ECONNREFUSED)',
	);
	expect(refused.description).toMatch(
		/^Nothing reached the service, so nothing was recorded for this item/,
	);
	expect(
		notSentText(
			'GET /x',
			{ headers: {}, bodyText: '', networkCode: 'DEPTH_ZERO_SELF_SIGNED_CERT', notSent: true },
			ONE,
			SETTINGS,
		).message,
	).toMatch(/\(the secure connection failed, DEPTH_ZERO_SELF_SIGNED_CERT\)$/);
	expect(
		notSentText(
			'GET /x',
			{ headers: {}, bodyText: '', networkCode: 'ECONNABORTED', notSent: true },
			ONE,
			{ ...SETTINGS, timeoutMs: 2000 },
		).message,
	).toMatch(/\(no connection within the Timeout of 2 s\)$/);
});

test('no answer after sending: a POST may have been recorded; a read that timed out is not sent again', () => {
	const post = failureText(
		'POST /workorders/1/notes',
		{ headers: {}, bodyText: '', networkCode: 'ECONNRESET', notSent: false },
		ONE,
		SETTINGS,
		false,
	);
	expect(post.message).toBe(
		'No answer from the Work Order Service for POST /workorders/1/notes (ECONNRESET)',
	);
	expect(post.description).toMatch(/may or may not have been recorded/);
	const get = failureText(
		'GET /workorders/1',
		{ headers: {}, bodyText: '', networkCode: 'ECONNABORTED', notSent: false },
		ONE,
		{ ...SETTINGS, timeoutMs: 2000 },
		false,
	);
	expect(get.message).toBe(
		'No answer from the Work Order Service for GET /workorders/1 within the Timeout of 2 s',
	);
	expect(get.description).toMatch(/not sent again/);
});

test('a login failure and a redirect that was not followed', () => {
	const login = new WorkOrderServiceAuthError('invalidUser', 'Username or password rejected');
	expect(failureText('GET /x', { headers: {}, bodyText: '', login }, ONE, SETTINGS, false)).toEqual(
		{
			kind: 'login',
			message: 'Login to the Work Order Service failed: Username or password rejected',
			description: 'The request was not sent. Fix the credential, then run the workflow again.',
		},
	);
	expect(
		redirectText('GET /x', 302, 'a redirect without a usable Location', {
			attempts: 2,
			waitedMs: 0,
		}),
	).toEqual({
		kind: 'redirected',
		message: 'The Work Order Service answered GET /x with a redirect without a usable Location',
		description:
			"HTTP 302. API calls go only to the origin of the credential's API Base URL. If the service has moved, set the new address as the API Base URL. Tried 2 times.",
		httpCode: '302',
	});
});
