'use strict';
/**
 * Issue 5, test 7: the service answers errors as JSON (ErrorMessage or Reason), plain text, HTML or
 * with no body at all. Each must become a readable NodeApiError message with the HTTP status and
 * the service's own words (JSON message, first text line, HTML page title) - never a stack of HTML.
 */
const { NodeApiError } = require('n8n-workflow');
const { useEnvironment, checklistParams, items, errorText, support, WO } = require('./support');

const env = useEnvironment();

const GET_PATH = `/api/v3/workorders/${WO}`;
const BIG_HTML =
	'<!DOCTYPE html>\n<html lang="en">\n<head>\n<meta charset="utf-8">\n<title>502 Bad Gateway - upstream timed out</title>\n' +
	'<style>body { font-family: sans-serif; } .x { color: red; }</style>\n<script>var trace = "secret-ish stack";</script>\n</head>\n' +
	`<body>\n<h1>Bad Gateway</h1>\n<p>The proxy server received an invalid response.</p>\n${'<div class="trace">at Object.handler (/srv/app.js:12:3)</div>\n'.repeat(2000)}</body>\n</html>\n`;

/**
 * [shape, status, body, contentType, words the message must contain]
 */
const SHAPES = [
	[
		'JSON ErrorMessage (service error body)',
		400,
		{
			ErrorCodes: [2001],
			ErrorCode: 2001,
			ErrorMessage: 'Field Answer is not valid for this question',
		},
		undefined,
		['Field Answer is not valid for this question', '(error code 2001)'],
	],
	[
		'JSON Reason',
		409,
		{ Reason: 'The proposal is locked by another user' },
		undefined,
		['The proposal is locked by another user'],
	],
	[
		'JSON OData error { error: { message } }',
		400,
		{ error: { code: 'BadRequest', message: "The query parameter '$filter' is invalid" } },
		undefined,
		["The query parameter '$filter' is invalid"],
	],
	[
		'JSON with a multi-line ErrorMessage',
		422,
		{ ErrorMessage: 'First line of the reason\n   at Service.Validate()\n   at Service.Run()' },
		undefined,
		['First line of the reason'],
	],
	[
		'plain text',
		403,
		'Access to this work order is not allowed for your role\nTrace id 8c1f',
		'text/plain; charset=utf-8',
		['Access to this work order is not allowed for your role'],
	],
	[
		'plain text without a content type',
		404,
		Buffer.from('Resource not found'),
		undefined,
		['Resource not found'],
	],
	[
		'HTML page with a title',
		502,
		BIG_HTML,
		'text/html; charset=utf-8',
		['502 Bad Gateway - upstream timed out'],
	],
	[
		'HTML page without a title, with a heading',
		500,
		'<html><body><h1>Service <b>Temporarily</b> Down</h1><p>Try later</p></body></html>',
		'text/html',
		['Service Temporarily Down'],
	],
	[
		'HTML page with entities in the title',
		503,
		'<html><head><title>Maintenance &amp; upgrade &lt;2h&gt;</title></head><body></body></html>',
		'text/html',
		['Maintenance & upgrade <2h>'],
	],
	[
		'HTML sent as text/plain',
		500,
		'<!DOCTYPE html><html><head><title>Internal Server Error</title></head><body><h1>500</h1></body></html>',
		'text/plain',
		['Internal Server Error'],
	],
	['empty body', 404, undefined, undefined, ['Not Found']],
	[
		'empty body with a JSON content type',
		400,
		Buffer.alloc(0),
		'application/json',
		['Bad Request'],
	],
	['malformed JSON', 400, '{"ErrorMessage": "cut off', 'application/json', []],
	['JSON without any message field', 409, { ErrorCodes: [7], Data: { x: 1 } }, undefined, []],
	['unusual status, plain text', 418, 'I am a teapot', 'text/plain', ['I am a teapot']],
];

/** A message a person can read: one line, bounded, no markup. */
function expectReadable(message, status) {
	expect(typeof message).toBe('string');
	expect(message).toContain(String(status));
	expect(message).toMatch(/Work Order Service/);
	expect(message).not.toMatch(/<\s*(html|head|body|title|h1|div|script|style|!doctype)\b/i);
	expect(message).not.toMatch(/<\/[a-z]+>/i);
	expect(message).not.toMatch(/\n/);
	expect(message).not.toMatch(/at Object\.handler|at Service\.Validate/);
	expect(message.length).toBeLessThanOrEqual(500);
}

describe('error bodies in every shape produce a readable message with the HTTP status', () => {
	test.each(SHAPES)('%s (HTTP %i) on a GET', async (_shape, status, body, contentType, words) => {
		env.emulator.failNext({
			method: 'GET',
			path: GET_PATH,
			status,
			body,
			...(contentType !== undefined ? { contentType } : {}),
		});
		const r = await env.run({
			parameters: {
				resource: 'workOrder',
				operation: 'get',
				workOrderId: WO,
				requestOptions: { maxRetries: 0 },
			},
		});
		// the emulator sent the body as specified
		expect(r.api).toHaveLength(1);
		expect(r.api[0].status).toBe(status);
		expect(r.result.status).toBe('error');
		expect(r.error).toBeInstanceOf(NodeApiError);
		expect(r.error.httpCode).toBe(String(status));
		expectReadable(r.error.message, status);
		for (const w of words) expect(r.error.message).toContain(w);
		expect(r.error.message).toContain(`GET /workorders/${WO}`);
		// the description says what to check, also without markup
		expect(typeof r.error.description).toBe('string');
		expect(r.error.description.length).toBeGreaterThan(10);
		expect(r.error.description).not.toMatch(/<\/?[a-z][^>]*>/i);
	});

	test('the same shapes on a checklist POST with Continue On Fail: each error item is readable and carries the status', async () => {
		const picks = SHAPES.filter(([shape]) =>
			/ErrorMessage \(|Reason|plain text$|HTML page with a title|empty body$/.test(shape),
		);
		expect(picks).toHaveLength(6);
		for (const [, status, body, contentType] of picks) {
			env.emulator.failNext({
				method: 'POST',
				status,
				body,
				...(contentType !== undefined ? { contentType } : {}),
			});
		}
		const r = await env.run({
			parameters: checklistParams(),
			items: items(...picks.map((_, i) => ({ answer: `shape ${i}` }))),
			continueOnFail: true,
		});
		expect(r.output).toHaveLength(picks.length);
		picks.forEach(([, status, , , words], i) => {
			const json = r.output[i].json;
			expect(r.output[i].pairedItem).toEqual({ item: i });
			expect(json.httpCode).toBe(String(status));
			expectReadable(json.error, status);
			for (const w of words) expect(json.error).toContain(w);
		});
	});

	test("a JSON error body on the token endpoint surfaces the service's reason; an HTML one does not dump the page", async () => {
		const credentialData = { ...support.passwordCredential(env.emulator) };
		// fresh credentials log in only when this process knows no token for their settings (as after a restart)
		support.forgetTokens();
		env.emulator.failNext({
			path: '/auth/oauth/token',
			status: 503,
			body: '<html><head><title>Login maintenance</title></head><body><pre>trace</pre></body></html>',
			contentType: 'text/html',
			headers: { 'retry-after': '0' },
			count: 10,
		});
		const r1 = await env.run({
			credentialId: 'fresh-1',
			credentialData,
			parameters: { resource: 'workOrder', operation: 'get', workOrderId: WO },
		});
		expect(r1.result.status).toBe('error');
		expect(errorText(r1.error)).toMatch(/503/);
		expect(errorText(r1.error)).not.toMatch(/<\/?(html|head|title|pre|body)/i);
		env.emulator.resetFaults();
		env.emulator.failNext({
			path: '/auth/oauth/token',
			status: 400,
			body: { error: 'invalid_grant', error_description: 'Account locked after too many attempts' },
		});
		const r2 = await env.run({
			credentialId: 'fresh-2',
			credentialData,
			parameters: { resource: 'workOrder', operation: 'get', workOrderId: WO },
		});
		expect(r2.result.status).toBe('error');
		expect(errorText(r2.error)).toMatch(/Account locked after too many attempts/);
		expect(errorText(r2.error)).toMatch(/400/);
	});
});
