// @ts-check
'use strict';
/**
 * The credentials the example workflows refer to (by id). They live in credentials.json, in the
 * form `n8n import:credentials --input=examples/credentials.json` takes: the emulator's demo client
 * and demo users only, for the emulator on http://127.0.0.1:8787 (`npm run emulator`, `npm run dev`).
 *
 * demoCredentials(emulator) returns them pointed at a running emulator (its own port): used by the
 * demo, the tests, the real-n8n end-to-end run and `npm run dev`.
 */
const fs = require('node:fs');
const path = require('node:path');

const CREDENTIALS_FILE = path.join(__dirname, 'credentials.json');
/** The emulator address credentials.json is written for. */
const DEFAULT_EMULATOR_ORIGIN = 'http://127.0.0.1:8787';

/** @returns {{ id: string, name: string, type: string, data: Record<string, string> }[]} */
function readCredentialsFile() {
	return JSON.parse(fs.readFileSync(CREDENTIALS_FILE, 'utf8'));
}

/**
 * @param {{ authUrl: string, baseUrl: string }} emulator a running emulator (`startEmulator()`)
 */
function demoCredentials(emulator) {
	return readCredentialsFile().map((c) => ({
		...c,
		data: { ...c.data, authServerUrl: emulator.authUrl, baseUrl: emulator.baseUrl },
	}));
}

/**
 * A password-grant credential for the emulator's administrator (`demo.manager`, "Super Admin": may
 * register webhooks and read the signing key), which the instant trigger needs. `npm run dev`
 * imports it beside the others.
 * @param {{ authUrl: string, baseUrl: string, fixtures: any }} emulator a running emulator
 */
function adminCredential(emulator) {
	const client = emulator.fixtures.clients.main;
	const admin = emulator.fixtures.users.manager;
	return {
		id: 'wosAdminDemo',
		name: 'Work Order Service (emulator, Super Admin)',
		type: 'workOrderServiceApi',
		data: {
			authServerUrl: emulator.authUrl,
			baseUrl: emulator.baseUrl,
			clientId: client.clientId,
			clientSecret: client.clientSecret,
			username: admin.username,
			password: admin.password,
			subsidiaryId: '',
		},
	};
}

module.exports = {
	demoCredentials,
	adminCredential,
	readCredentialsFile,
	CREDENTIALS_FILE,
	DEFAULT_EMULATOR_ORIGIN,
};
