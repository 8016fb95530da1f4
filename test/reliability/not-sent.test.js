'use strict';
/**
 * Issue 19: failures before any byte of a request reached the service (connection refused, TLS
 * failure, connect timeout; DNS failures are covered by test/unit/errors.test.js) are retried
 * for every method, POST included, within Max Retries, and when they persist the item fails as
 * "not sent", never as "may or may not have been recorded". Only a request that was written and
 * got no answer may have been recorded (test/security/timeouts.test.js, retries.test.js).
 */
const { useEnvironment, items, errorText } = require('./support');
const support = require('../support');
const { switchablePort, unconnectablePort } = require('./network-faults');

const env = useEnvironment();

const WO = 90000002;
const createNote = (text, extra = {}) => ({
	resource: 'workOrderNote',
	operation: 'create',
	workOrderId: WO,
	note: text,
	...extra,
});
const stored = (text) => env.emulator.notesOf(WO).filter((n) => n.NoteData === text);

function credentialAt(baseUrl) {
	return support.passwordCredential(env.emulator, 'subscriber', { baseUrl });
}

test('a closed port that opens 1.2 s later: the note POST is sent once it can be, and succeeds; stored once', async () => {
	const sw = await switchablePort({ port: env.emulator.port });
	try {
		setTimeout(() => sw.open(), 1200);
		const started = Date.now();
		const r = await env.run({
			credentialId: 'refused-then-open',
			credentialData: credentialAt(`${sw.url}/api`),
			parameters: createNote('not-sent open later'),
		});
		expect(r.error).toBeUndefined();
		expect(r.output).toHaveLength(1);
		expect(Date.now() - started).toBeGreaterThanOrEqual(1200);
		expect(r.api.filter((q) => q.method === 'POST')).toHaveLength(1);
		expect(stored('not-sent open later')).toHaveLength(1);
		expect(sw.connections).toHaveLength(1);
	} finally {
		await sw.close();
	}
});

test('a port that stays closed: retried within Max Retries, then "not sent" (never "may or may not have been recorded")', async () => {
	const sw = await switchablePort({ port: env.emulator.port });
	const r = await env.run({
		credentialId: 'refused-always',
		credentialData: credentialAt(`${sw.url}/api`),
		parameters: createNote('not-sent closed'),
	});
	expect(r.result.status).toBe('error');
	expect(r.error.message).toMatch(
		/^The request POST \/workorders\/90000002\/notes was not sent: the Work Order Service could not be reached \(ECONNREFUSED\)$/,
	);
	expect(r.error.description).toMatch(/Nothing reached the service, so nothing was recorded/);
	expect(r.error.description).toMatch(/Tried 4 times .* Max Retries \(3\) reached/);
	expect(errorText(r.error)).not.toMatch(/may or may not/);
	expect(r.api).toHaveLength(0);
}, 30_000);

test('a connect timeout (the server never completes the connection): retried, then "not sent"', async () => {
	const port = await unconnectablePort();
	try {
		const started = Date.now();
		const r = await env.run({
			credentialId: 'connect-timeout',
			credentialData: credentialAt(`${port.url}/api`),
			parameters: createNote('not-sent connect timeout', {
				requestOptions: { timeoutSeconds: 1, maxRetries: 1 },
			}),
		});
		expect(r.result.status).toBe('error');
		expect(r.error.message).toMatch(
			/was not sent: the Work Order Service could not be reached \(no connection within the Timeout of 1 s\)/,
		);
		expect(r.error.description).toMatch(/Tried 2 times/);
		expect(errorText(r.error)).not.toMatch(/may or may not/);
		expect(Date.now() - started).toBeGreaterThanOrEqual(2000);
		expect(Date.now() - started).toBeLessThan(8000);
	} finally {
		port.stop();
	}
}, 30_000);

test('a TLS failure (https to a server that does not speak TLS): "not sent", nothing reached the API', async () => {
	const r = await env.run({
		credentialId: 'tls-failure',
		credentialData: credentialAt(`https://127.0.0.1:${env.emulator.port}/api`),
		parameters: createNote('not-sent tls', { requestOptions: { maxRetries: 1 } }),
	});
	expect(r.result.status).toBe('error');
	expect(r.error.message).toMatch(
		/was not sent: the Work Order Service could not be reached \(the secure connection failed, (EPROTO|ERR_SSL_[A-Z_]+)\)/,
	);
	expect(errorText(r.error)).not.toMatch(/may or may not/);
	expect(r.api).toHaveLength(0);
	expect(stored('not-sent tls')).toHaveLength(0);
});

test('a GET through a closed port is retried the same way and fails as not sent', async () => {
	const sw = await switchablePort({ port: env.emulator.port });
	const r = await env.run({
		credentialId: 'refused-get',
		credentialData: credentialAt(`${sw.url}/api`),
		parameters: {
			resource: 'workOrder',
			operation: 'get',
			workOrderId: WO,
			requestOptions: { maxRetries: 1 },
		},
	});
	expect(r.error.message).toMatch(/^The request GET \/workorders\/90000002 was not sent/);
	expect(r.error.description).toMatch(/Tried 2 times/);
});

test('several items through a port that stays closed: the error says that none was created', async () => {
	const sw = await switchablePort({ port: env.emulator.port });
	const r = await env.run({
		credentialId: 'refused-batch',
		credentialData: credentialAt(`${sw.url}/api`),
		parameters: createNote('={{ $json.text }}', { requestOptions: { maxRetries: 0 } }),
		items: items(...[0, 1, 2].map((k) => ({ text: `not-sent batch ${k}` }))),
	});
	expect(r.error.context.itemIndex).toBe(0);
	expect(r.error.description).toContain('Item 0 of 3 failed; it was not sent.');
	expect(r.error.description).toContain('No other item was created.');
	expect(r.error.description).not.toMatch(/may have been created/);
});
