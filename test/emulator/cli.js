#!/usr/bin/env node
// @ts-check
'use strict';

/**
 * npm run emulator [-- --port N] [--host H] [--work-orders N] [--time-zone Europe/Berlin] [--clock-skew-ms 120000]
 *   [--date-precision-ms 1000] [--rate-limit 40] [--quiet]
 * Starts the Work Order Service emulator (default port 8787, or $EMULATOR_PORT), prints the URLs
 * and the demo credentials, and serves until SIGINT/SIGTERM.
 */

const { startEmulator } = require('./index');

/** @param {string[]} argv */
function parseArgs(argv) {
	/** @type {Record<string, string | boolean>} */
	const out = {};
	for (let i = 0; i < argv.length; i++) {
		const a = argv[i];
		if (!a.startsWith('--')) continue;
		const eq = a.indexOf('=');
		if (eq !== -1) out[a.slice(2, eq)] = a.slice(eq + 1);
		else if (argv[i + 1] !== undefined && !argv[i + 1].startsWith('--'))
			out[a.slice(2)] = argv[++i];
		else out[a.slice(2)] = true;
	}
	return out;
}

async function main() {
	const args = parseArgs(process.argv.slice(2));
	if (args.help || args.h) {
		process.stdout.write(
			'Usage: node test/emulator/cli.js [--port N] [--host 127.0.0.1] [--work-orders 120] [--time-zone UTC|Europe/Berlin|+01:00] [--clock-skew-ms N] [--date-precision-ms 1|1000] [--rate-limit N (requests per minute per client)] [--quiet]\n',
		);
		return;
	}
	const port = Number(args.port ?? process.env.EMULATOR_PORT ?? 8787);
	if (!Number.isInteger(port) || port < 0 || port > 65535)
		throw new Error(`invalid port: ${args.port ?? process.env.EMULATOR_PORT}`);
	const emu = await startEmulator({
		port,
		host: typeof args.host === 'string' ? args.host : '127.0.0.1',
		workOrderCount: args['work-orders'] ? Number(args['work-orders']) : undefined,
		serviceTimeZone: typeof args['time-zone'] === 'string' ? args['time-zone'] : undefined,
		clockSkewMs: args['clock-skew-ms'] !== undefined ? Number(args['clock-skew-ms']) : 0,
		datePrecisionMs:
			args['date-precision-ms'] !== undefined ? Number(args['date-precision-ms']) : 1,
	});
	if (args['rate-limit'] !== undefined)
		emu.setFaults({ rateLimit: { limit: Number(args['rate-limit']), windowMs: 60_000 } });
	const fx = emu.fixtures;
	const u = fx.users;
	const c = fx.clients.main;
	const lines = [
		'Work Order Service emulator is running.',
		'',
		`  Base URL (API)      ${emu.baseUrl}        (calls go to ${emu.baseUrl}/v3/...)`,
		`  Auth URL            ${emu.authUrl}`,
		`  Service time zone   ${emu.serviceTimeZone}${emu.clockSkewMs ? `, clock ${emu.clockSkewMs > 0 ? '+' : ''}${emu.clockSkewMs} ms from real time` : ''}${emu.datePrecisionMs > 1 ? `, dates to ${emu.datePrecisionMs} ms` : ''}`,
		`  Work orders         ${Object.keys(emu.state.workOrders).length}${emu.faults.rateLimit ? `; rate limit ${emu.faults.rateLimit.limit} requests per minute per client` : ''}`,
		`    token             ${emu.authUrl}/oauth/token`,
		`    authorize         ${emu.authUrl}/oauth/authorize`,
		`    contractor JWT    ${emu.authUrl}/jwt/token`,
		'',
		'  OAuth client',
		`    client_id         ${c.clientId}`,
		`    client_secret     ${c.clientSecret}`,
		`    callback URIs     ${c.callbackUris.join(', ')}`,
		`  Second client       ${fx.clients.second.clientId} / ${fx.clients.second.clientSecret}`,
		'',
		'  Users (username / password)',
		`    subscriber        ${u.subscriber.username} / ${u.subscriber.password}   (subscriber ${u.subscriber.subscriberId}, approval limit ${u.subscriber.approvalLimit})`,
		`    manager           ${u.manager.username} / ${u.manager.password}   (approval limit ${u.manager.approvalLimit}; "Super Admin": may register webhooks)`,
		`    viewer            ${u.viewer.username} / ${u.viewer.password}   (read-only)`,
		`    universal         ${u.universal.username} / ${u.universal.password}   (children ${u.universal.children.join(', ')})`,
		`    no subsidiaries   ${u.noSubsidiaryPermission.username} / ${u.noSubsidiaryPermission.password}`,
		`    contractor (JWT)  ${u.contractor.username} / ${u.contractor.password}   (provider ${u.contractor.providerId}; "Provider Automation Admin")`,
		'',
		'  Handy ids',
		`    provider / technician            ${fx.providerId} / ${fx.technicianId}`,
		`    work order with checklist        ${fx.workOrders.checklist}  (questions: ack ${fx.questions.acknowledgement}, selector ${fx.questions.selector}, text ${fx.questions.textEntry}, numeric ${fx.questions.numericInput}, picture-required ${fx.questions.pictureRequired})`,
		`    checklist at disabled location   ${fx.workOrders.checklistDisabledLocation}`,
		`    work order with int64 notes      ${fx.notes.workOrderId}  (notes ${fx.notes.big31}, ${fx.notes.big53}, ${fx.notes.max64})`,
		`    proposals                        open ${fx.proposals.open}, on hold ${fx.proposals.onHold}, invoiced WO ${fx.proposals.invoiced}, no WO ${fx.proposals.noWorkOrder}, over limit ${fx.proposals.overLimit}`,
		`    rejection reasons                ${fx.rejectionReasons.map((r) => `${r.Id}=${r.Code}`).join(', ')}`,
		'',
		`  Control (not part of the service): GET ${emu.origin}/__emulator/state, /__emulator/requests, /__emulator/fixtures, /__emulator/webhooks, /__emulator/webhooks/deliveries`,
		'  Press Ctrl+C to stop.',
	];
	process.stdout.write(`${lines.join('\n')}\n`);
	if (!args.quiet) {
		emu.onResponse = (r) => {
			process.stdout.write(
				`${r.time} ${r.method} ${r.path} -> ${r.dropped ? 'dropped' : r.status}${r.username ? ` (${r.username})` : ''}\n`,
			);
		};
		emu.webhooks.onDelivery = (d) => {
			process.stdout.write(
				`${d.at} webhook ${d.eventType} -> ${d.url} -> ${d.status ?? d.error} (attempt ${d.attempt})\n`,
			);
		};
	}
	let stopping = false;
	const stop = (/** @type {string} */ signal) => {
		if (stopping) return;
		stopping = true;
		process.stdout.write(`\n${signal}: stopping the emulator\n`);
		emu.close().then(() => process.exit(0));
		setTimeout(() => process.exit(0), 2000).unref();
	};
	process.on('SIGINT', () => stop('SIGINT'));
	process.on('SIGTERM', () => stop('SIGTERM'));
}

main().catch((err) => {
	process.stderr.write(`emulator failed to start: ${err && err.message}\n`);
	process.exit(1);
});
