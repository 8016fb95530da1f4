'use strict';
/**
 * Issue 10.4: every wait is bounded.
 *
 * A server that accepts the connection and never answers must give a clear error within about
 * 1.5x the bound: API calls are bounded by the node's Timeout (and a request that got no answer in
 * time is not sent again), token calls by the node's Timeout but at most 30 s (the README says so).
 * The wait is measured from the moment the silent server accepted the node's connection to the end
 * of the run, so that the login and the workflow set-up before it (slower on a busy machine) do not
 * count; the whole run is still at least the Timeout.
 */
const net = require('node:net');
const support = require('../support');

const env = support.useEnvironment();

/** A TCP server that accepts connections, reads whatever comes, and never answers. */
let silent;
beforeAll(async () => {
	const sockets = new Set();
	const connections = [];
	const server = net.createServer((socket) => {
		sockets.add(socket);
		connections.push(Date.now());
		socket.on('data', () => {});
		socket.on('error', () => {});
		socket.on('close', () => sockets.delete(socket));
	});
	await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
	silent = { server, sockets, connections, url: `http://127.0.0.1:${server.address().port}` };
});
afterAll(async () => {
	for (const s of silent.sockets) s.destroy();
	await new Promise((resolve) => silent.server.close(resolve));
});
beforeEach(() => {
	silent.connections.length = 0;
});

// 4 s, so that 1.5x leaves 2 s for a busy machine to end the run after the timeout fired
const TIMEOUT_S = 4;

/** Milliseconds from the silent server's first accepted connection (the node's request) to now. */
const waitedSinceConnection = () => {
	expect(silent.connections.length).toBeGreaterThanOrEqual(1);
	return Date.now() - silent.connections[0];
};

const getWo = {
	resource: 'workOrder',
	operation: 'get',
	workOrderId: 90000001,
	requestOptions: { timeoutSeconds: TIMEOUT_S },
};

test('a silent API (GET): a clear error within 1.5x the Timeout, not sent again', async () => {
	const started = Date.now();
	const r = await env.run({
		credentialId: 'silent-api',
		credentialData: support.passwordCredential(env.emulator, 'subscriber', {
			baseUrl: `${silent.url}/api`,
		}),
		parameters: getWo,
	});
	const waited = waitedSinceConnection();
	const ms = Date.now() - started;
	expect(r.result.status).toBe('error');
	expect(r.error.message).toBe(
		`No answer from the Work Order Service for GET /workorders/90000001 within the Timeout of ${TIMEOUT_S} s`,
	);
	expect(r.error.description).toMatch(/not sent again/);
	expect(waited).toBeLessThan(TIMEOUT_S * 1500);
	expect(ms).toBeGreaterThanOrEqual(TIMEOUT_S * 1000 - 100);
	expect(silent.connections).toHaveLength(1);
});

test('a silent API (POST): the same bound, and the submission is flagged as maybe recorded', async () => {
	const started = Date.now();
	const r = await env.run({
		credentialId: 'silent-api',
		parameters: {
			resource: 'workOrderNote',
			operation: 'create',
			workOrderId: 90000005,
			note: 'silent',
			requestOptions: { timeoutSeconds: TIMEOUT_S },
		},
	});
	expect(waitedSinceConnection()).toBeLessThan(TIMEOUT_S * 1500);
	expect(Date.now() - started).toBeGreaterThanOrEqual(TIMEOUT_S * 1000 - 100);
	expect(r.error.message).toContain(`within the Timeout of ${TIMEOUT_S} s`);
	expect(r.error.description).toMatch(/may or may not have been recorded/);
	expect(silent.connections).toHaveLength(1);
});

test("a silent token endpoint: each token request waits at most 30 s (within 1.5x), whatever the node's Timeout; a clear login error", async () => {
	const started = Date.now();
	const r = await env.run({
		credentialId: 'silent-token-default',
		credentialData: support.passwordCredential(env.emulator, 'subscriber', {
			authServerUrl: `${silent.url}/auth`,
		}),
		parameters: { resource: 'workOrder', operation: 'get', workOrderId: 90000001 },
		timeoutMs: 60_000,
	});
	const ms = Date.now() - started;
	expect(r.error.message).toMatch(/timed out; each token request waits at most 30 s/);
	expect(ms).toBeGreaterThanOrEqual(29_500);
	expect(ms).toBeLessThan(45_000);
}, 60_000);
