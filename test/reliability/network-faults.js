'use strict';
/**
 * Test-side servers for failures before any byte of a request reaches the service (issue 19).
 * Not a test file. Only 127.0.0.1.
 *
 * - `switchablePort(target)`: a port that refuses connections until `open()`, then forwards every
 *   connection to `target` (the emulator); `close()` refuses again.
 * - `unconnectablePort()`: a port whose connections never complete, so a client's connect times
 *   out: a child process listens with a backlog of 1 and is stopped (SIGSTOP), and the accept
 *   queue is filled, so the kernel drops every further SYN. `stop()` kills it.
 */
const net = require('node:net');
const { spawn } = require('node:child_process');

async function freePort() {
	const server = net.createServer();
	await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
	const { port } = server.address();
	await new Promise((resolve) => server.close(resolve));
	return port;
}

/** @param {{ host?: string, port: number }} target */
async function switchablePort(target) {
	const port = await freePort();
	const sockets = new Set();
	let server = null;
	const connections = [];
	return {
		port,
		url: `http://127.0.0.1:${port}`,
		/** Times (ms) at which connections were accepted while open. */
		connections,
		async open() {
			if (server) return;
			server = net.createServer((socket) => {
				connections.push(Date.now());
				const upstream = net.connect(target.port, target.host ?? '127.0.0.1');
				sockets.add(socket).add(upstream);
				socket.pipe(upstream).pipe(socket);
				const end = () => {
					socket.destroy();
					upstream.destroy();
					sockets.delete(socket);
					sockets.delete(upstream);
				};
				socket.on('error', end).on('close', end);
				upstream.on('error', end).on('close', end);
			});
			await new Promise((resolve, reject) => {
				server.once('error', reject);
				server.listen(port, '127.0.0.1', resolve);
			});
		},
		async close() {
			if (!server) return;
			for (const s of sockets) s.destroy();
			sockets.clear();
			const closing = server;
			server = null;
			await new Promise((resolve) => closing.close(resolve));
		},
	};
}

async function unconnectablePort() {
	const child = spawn(
		process.execPath,
		[
			'-e',
			"const s=require('net').createServer(()=>{});s.listen({port:0,host:'127.0.0.1',backlog:1},()=>console.log(s.address().port))",
		],
		{ stdio: ['ignore', 'pipe', 'inherit'] },
	);
	const port = await new Promise((resolve, reject) => {
		child.once('error', reject);
		child.stdout.once('data', (d) => resolve(Number(String(d).trim())));
	});
	process.kill(child.pid, 'SIGSTOP');
	// fill the accept queue until a connection stays pending: from then on every SYN is dropped
	const fillers = [];
	for (let k = 0; k < 8; k++) {
		const s = net.connect(port, '127.0.0.1');
		s.on('error', () => {});
		fillers.push(s);
		await new Promise((resolve) => setTimeout(resolve, 50));
		if (fillers.some((f) => f.connecting)) break;
	}
	await new Promise((resolve) => setTimeout(resolve, 200));
	if (!fillers.some((f) => f.connecting)) {
		child.kill('SIGKILL');
		throw new Error(
			'could not fill the accept queue: connections to a stopped listener still complete',
		);
	}
	return {
		port,
		url: `http://127.0.0.1:${port}`,
		stop() {
			for (const f of fillers) f.destroy();
			try {
				child.kill('SIGKILL');
			} catch {
				// already gone
			}
		},
	};
}

module.exports = { freePort, switchablePort, unconnectablePort };
