#!/usr/bin/env node
'use strict';
/**
 * Issue 34's example in a real n8n: examples/12-freezer-asset.json as a user imports it (a
 * refrigeration work order created with the location, trade and provider the editor's lists give,
 * the location's assets of that trade, the walk-in freezer attached, a note naming it), run with
 * `n8n execute` against the emulator.
 *
 *   node test/e2e/places-workflow.js                     # npm pack, then n8n 2.41.1 and 1.123.81
 *   node test/e2e/places-workflow.js --version 2.41.1    # one version
 *
 * From run-e2e.js (per version, with its own check() and tarball):
 *   await runPlacesE2E({ version, tarball, check });
 *
 * Checks per version: (1) install, the example's credential and workflow imported; (2) one run:
 * success; the emulator received exactly POST /workorders (ContractInfo with LocationId 501,
 * REFRIGERATION, provider 3003), GET /assets/locations/501?trade=REFRIGERATION, PUT
 * /assets/workorders/{new id}/attach with the walk-in freezer's ID, POST /workorders/{new id}/notes
 * naming its tag, each with the stored credential's token; the work order carries the asset.
 */

const assert = require('node:assert/strict');
const fs = require('node:fs');
const path = require('node:path');

const n8n = require('./n8n');
const { startEmulator } = require('../emulator');
const { demoCredentials } = require('../../examples/demo-credentials');

const EXAMPLE = path.join(__dirname, '..', '..', 'examples', '12-freezer-asset.json');

/**
 * One n8n version. `check(name, fn)` runs one check (run-e2e.js passes its own).
 * @param {{ version: string, tarball: string, check: (name: string, fn: () => Promise<void>) => Promise<boolean>, log?: (line: string) => void }} o
 */
async function runPlacesE2E({ version, tarball, check, log = (line) => console.log(line) }) {
	const runtime = await n8n.ensureRuntime({ version });
	const instance = await n8n.createInstance({
		runtime,
		encryptionKey: 'wos-places-e2e-key-0123456789abcdef',
	});
	const emu = await startEmulator({ port: 0, accessTokenTtl: 86_400 });
	const workflow = JSON.parse(fs.readFileSync(EXAMPLE, 'utf8'));
	const prefix = `freezer -> asset (n8n ${version}):`;
	try {
		const ready = await check(
			`${prefix} install, the example's credential and workflow`,
			async () => {
				await n8n.installCommunityPackage(instance, tarball);
				await n8n.importCredentials(
					instance,
					demoCredentials(emu).filter((c) => c.id === 'wosPasswordDemo'),
				);
				await n8n.importWorkflows(instance, [workflow]);
			},
		);
		if (!ready) return;

		await check(
			`${prefix} one run: create (location, trade, provider from the lists), the trade's assets, attach the freezer, a note naming it`,
			async () => {
				const mark = emu.requests.length;
				const run = await n8n.executeOk(instance, workflow.id);
				const created = n8n.nodeOutput(run.result, 'Create work order')[0];
				const id = created.id;
				assert.equal(created.success, true);
				const api = emu.requests.slice(mark).filter((r) => r.path.startsWith('/api/'));
				assert.deepEqual(
					api.map((r) => `${r.method} ${r.path} ${r.status}`),
					[
						'POST /api/v3/workorders 201',
						'GET /api/v3/assets/locations/501 200',
						`PUT /api/v3/assets/workorders/${id}/attach 200`,
						`POST /api/v3/workorders/${id}/notes 201`,
					],
				);
				const token = api[0].headers.authorization;
				assert.ok(api.every((r) => r.headers.authorization === token));
				assert.deepEqual(api[0].body.ContractInfo, {
					LocationId: 501,
					TradeName: 'REFRIGERATION',
					ProviderId: 3003,
				});
				assert.deepEqual(api[1].query, { trade: 'REFRIGERATION' });
				assert.deepEqual(api[2].body, { AssetId: 50101 });
				assert.match(String(api[3].body.Note), /^Asset WIF-501-1 attached: Walk-in Freezer/);
				assert.deepEqual(n8n.nodeOutput(run.result, 'Attach the asset'), [
					{ success: true, operation: 'attachToWorkOrder', workOrderId: id, assetId: 50101 },
				]);
				const wo = emu.workOrder(id);
				assert.equal(wo.Asset.Id, 50101);
				assert.equal(wo.Provider.Id, 3003);
				log(`     work order ${id}: asset ${wo.Asset.Tag} attached, note written`);
			},
		);
	} finally {
		await emu.close();
		if (process.env.N8N_E2E_KEEP === '1') log(`     kept ${instance.dir}`);
		await n8n.destroyInstance(instance);
	}
}

async function main() {
	await n8n.runStandalone({
		label: 'freezer -> asset',
		packPrefix: 'wos-places-pack-',
		run: runPlacesE2E,
	});
}

if (require.main === module) {
	main().catch((err) => {
		console.error(err);
		process.exitCode = 1;
	});
}

module.exports = { runPlacesE2E };
