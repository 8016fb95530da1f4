#!/usr/bin/env node
'use strict';
/**
 * Editor test: this package inside a real n8n (2.41.1, `n8n start`), used through n8n's editor
 * in a real browser (Debian's chromium, headless, driven by playwright-core) the way a person
 * would, against the emulator of the Work Order Service running in this process.
 *
 *   npm run test:editor                        (= npm run build && node test/editor/run-editor.js)
 *   node test/editor/run-editor.js --tarball f.tgz   (test a given tarball instead of packing this clone)
 *
 * Steps (one line per check, then `editor: N passed, M failed`; exit 1 on any failure):
 *   0. owner account through n8n's setup form
 *   3. the three credential types: names in the type picker, n8n's default credential names,
 *      create + test (password grant, contractor JWT) and Connect through the emulator's login
 *      page in a popup (OAuth2 authorization code)
 *   1. node panel: "work order" lists each node once with its own description ("Work Order
 *      Service": the node and the instant trigger, its events and actions; "Work Order Service
 *      Polling Trigger"), never "We don't have ... actions yet"; task words find the node
 *   2. a new node is named after its short action; every resource/operation: no ID field shows 0,
 *      required ID fields are flagged when empty, optional ID fields are empty and not flagged
 *   4. Work Order ID: "From list" (searchable list from the service) and "By ID"
 *   6. execute the workflow from the editor and read the output panel
 *   5. the Reject form: Rejection Reason starts without a red flag and lists the service's reasons
 *   7. an over-limit approval shows the service's message in the error panel
 *   8. the work order list search finds "Dallas" in "Store #501 Dallas Downtown" (any part)
 *   9. the credential Test, after a good one, fails with a clear message once the password is wrong
 * Screenshots of every check: test/editor/artifacts/ (git-ignored), plus n8n's log; the README's
 * screenshots (docs/screenshots/) are written by the checks that show them, when they pass.
 * Only 127.0.0.1 traffic; the browser is never downloaded (apt's chromium is used).
 */

const assert = require('node:assert/strict');
const { spawnSync } = require('node:child_process');
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');

const n8n = require('../e2e/n8n');
const { startEmulator } = require('../emulator');
const { startN8nServer, OWNER } = require('./server');

const ROOT = path.resolve(__dirname, '..', '..');
const ARTIFACTS = path.join(__dirname, 'artifacts');
/** The README's screenshots, written by the checks that show them (when they pass). */
const DOC_SHOTS = path.join(ROOT, 'docs', 'screenshots');
const CHROMIUM = '/usr/bin/chromium';
const PKG = 'n8n-nodes-work-order-service';
const NODE_TYPE = `${PKG}.workOrderService`;
const NODE_NAME = 'Work Order Service';
const POLLING_NAME = 'Work Order Service Polling Trigger';
const NO_ACTIONS = /We don.t have .* actions yet/;
const TIMEOUT = 30_000; // generous: a 2-core machine shared with n8n and its task runner

/** What the package is expected to show (see the brief in the report). */
const CREDENTIALS = [
	{
		key: 'password',
		type: 'workOrderServiceApi',
		displayName: 'Work Order Service Password Grant API',
		user: 'subscriber',
	},
	{
		key: 'contractor',
		type: 'workOrderServiceContractorApi',
		displayName: 'Work Order Service Contractor JWT API',
		user: 'contractor',
	},
	{
		key: 'oAuth2',
		type: 'workOrderServiceOAuth2Api',
		displayName: 'Work Order Service Authorization Code OAuth2 API',
		user: 'subscriber',
	},
];
/** n8n 2.41 names a new credential: display name minus the words API/OAuth1/OAuth2/MCP, plus " account". */
const defaultCredentialName = (displayName) =>
	`${displayName
		.split(' ')
		.filter((w) => !['API', 'OAuth1', 'OAuth2', 'MCP'].includes(w))
		.join(' ')} account`;

const SEARCH_WORDS = ['proposal', 'checklist', 'approve', 'facility', 'work order', 'webhook'];

/**
 * What the package shows in the node panel, read from the built nodes (dist/): each node's
 * description, the actions (one per operation) and the instant trigger's events.
 */
function packageView() {
	const load = (file, name) =>
		new (require(path.join(ROOT, 'dist', 'nodes', 'WorkOrderService', file))[name])().description;
	const action = load('WorkOrderService.node.js', 'WorkOrderService');
	const instant = load('WorkOrderServiceTrigger.node.js', 'WorkOrderServiceTrigger');
	const polling = load('WorkOrderServicePollingTrigger.node.js', 'WorkOrderServicePollingTrigger');
	const actions = action.properties
		.filter((p) => p.name === 'operation')
		.flatMap((p) => p.options.map((o) => o.action));
	const events = instant.properties.find((p) => p.name === 'events').options;
	return { action, instant, polling, actions, events };
}

/**
 * Every operation, by the labels the editor shows. `required`: top-level ID parameters that must
 * start empty and be flagged as required; `optional`: ID parameters that must start empty and not
 * be flagged (collection fields are added through their "Add ..." button first).
 */
const OPERATIONS = [
	{ resource: 'Asset', operation: 'Attach To Work Order', required: ['workOrderId', 'assetId'] },
	{ resource: 'Asset', operation: 'Get', required: ['assetId'] },
	{ resource: 'Asset', operation: 'Get Many', required: ['locationId'] },
	{ resource: 'Attachment', operation: 'Download' },
	{ resource: 'Checklist', operation: 'Get Questions' },
	{
		resource: 'Checklist Response',
		operation: 'Submit',
		required: ['workOrderId', 'questionId', 'providerId', 'technicianId', 'optionId'],
		set: { questionType: 'Selector' },
	},
	{
		resource: 'Checklist Response',
		operation: 'Update',
		required: [
			'checkListResponseId',
			'workOrderId',
			'questionId',
			'providerId',
			'technicianId',
			'optionId',
		],
		set: { questionType: 'Selector' },
	},
	{ resource: 'Invoice', operation: 'Approve', required: ['invoiceId'] },
	{ resource: 'Invoice', operation: 'Create', required: ['workOrderId'] },
	{ resource: 'Invoice', operation: 'Get', required: ['invoiceId'] },
	{ resource: 'Invoice', operation: 'Get Many' },
	{ resource: 'Invoice', operation: 'Get Rate Discrepancy', required: ['invoiceId'] },
	{ resource: 'Invoice', operation: 'Get Requirements' },
	{ resource: 'Invoice', operation: 'Put On Hold', required: ['invoiceId'] },
	{ resource: 'Invoice', operation: 'Record Payment', required: ['invoiceId'] },
	{ resource: 'Invoice', operation: 'Reject', required: ['invoiceId'] },
	{ resource: 'Location', operation: 'Add Note', required: ['locationId'] },
	{ resource: 'Location', operation: 'Get', required: ['locationId'] },
	{ resource: 'Location', operation: 'Get Many' },
	{ resource: 'Location', operation: 'Get Notes', required: ['locationId'] },
	{ resource: 'Proposal', operation: 'Approve', required: ['proposalId'] },
	{ resource: 'Proposal', operation: 'Get', required: ['proposalId'] },
	{ resource: 'Proposal', operation: 'Get Attachments', required: ['proposalId'] },
	{ resource: 'Proposal', operation: 'Get Many' },
	{ resource: 'Proposal', operation: 'Put On Hold', required: ['proposalId'] },
	{ resource: 'Proposal', operation: 'Reject', required: ['proposalId'] },
	{ resource: 'Proposal', operation: 'Reopen', required: ['proposalId'] },
	{ resource: 'Provider', operation: 'Get Many' },
	{ resource: 'Rejection Reason', operation: 'Get Many' },
	{ resource: 'Subsidiary', operation: 'Get Many' },
	{ resource: 'Trade', operation: 'Get Many' },
	{ resource: 'Work Order', operation: 'Add Attachment', required: ['workOrderId'] },
	{
		resource: 'Work Order',
		operation: 'Check In',
		required: ['workOrderId'],
		optional: [['additionalFields', 'User ID', 'userId']],
	},
	{
		resource: 'Work Order',
		operation: 'Check Out',
		required: ['workOrderId'],
		optional: [['additionalFields', 'User ID', 'userId']],
	},
	{ resource: 'Work Order', operation: 'Create', required: ['location'] },
	{ resource: 'Work Order', operation: 'Get', required: ['workOrderId'] },
	{ resource: 'Work Order', operation: 'Get Checklist Responses', required: ['workOrderId'] },
	{
		resource: 'Work Order',
		operation: 'Get Many',
		optional: [['options', 'Location', 'locationId']],
	},
	{ resource: 'Work Order', operation: 'Update NTE', required: ['workOrderId'] },
	{ resource: 'Work Order', operation: 'Update Priority', required: ['workOrderId'] },
	{ resource: 'Work Order', operation: 'Update Scheduled Date', required: ['workOrderId'] },
	{ resource: 'Work Order', operation: 'Update Status', required: ['workOrderId'] },
	{ resource: 'Work Order Note', operation: 'Add Attachment', required: ['workOrderId', 'noteId'] },
	{ resource: 'Work Order Note', operation: 'Create', required: ['workOrderId'] },
	{ resource: 'Work Order Note', operation: 'Get', required: ['workOrderId', 'noteId'] },
	{
		resource: 'Work Order Note',
		operation: 'Get Attachments',
		required: ['workOrderId'],
		optional: [[null, 'Note ID', 'noteId']],
	},
	{ resource: 'Work Order Note', operation: 'Get Many', required: ['workOrderId'] },
];

// ------------------------------------------------------------------ checks, screenshots
const started = Date.now();
const results = [];
let page = null;
let shotCount = 0;

const slug = (s) =>
	s
		.toLowerCase()
		.replace(/[^a-z0-9]+/g, '-')
		.replace(/^-|-$/g, '')
		.slice(0, 70);

/** A screenshot the README shows (docs/screenshots/<name>.png). */
async function docShot(name, target = page) {
	fs.mkdirSync(DOC_SHOTS, { recursive: true });
	await target.screenshot({ path: path.join(DOC_SHOTS, `${name}.png`), timeout: 15_000 });
}

async function screenshot(name, target = page, failed = false) {
	if (!target || target.isClosed()) return null;
	const file = path.join(
		ARTIFACTS,
		`${String(++shotCount).padStart(2, '0')}-${failed ? 'FAIL-' : ''}${slug(name)}.png`,
	);
	try {
		await target.screenshot({ path: file, timeout: 15_000 });
		return file;
	} catch {
		return null;
	}
}

/** Runs one check; never throws. A screenshot of the page after it either way (HTML too on failure). */
async function check(name, fn) {
	const t = Date.now();
	try {
		await fn();
		results.push({ name, ok: true });
		await screenshot(name);
		console.log(`ok   ${name} (${Date.now() - t} ms)`);
		return true;
	} catch (err) {
		results.push({ name, ok: false });
		const shot = await screenshot(name, page, true);
		if (shot && page && !page.isClosed()) {
			try {
				fs.writeFileSync(shot.replace(/\.png$/, '.html'), await page.content());
			} catch {
				/* page gone */
			}
		}
		const msg = String(err && err.stack ? err.stack : err)
			.split('\n')
			.filter((l) => !/^\s+at .*node_modules/.test(l))
			.slice(0, 14)
			.join('\n');
		console.log(`FAIL ${name} (${Date.now() - t} ms)\n${msg.replace(/^/gm, '     ')}`);
		return false;
	}
}

/** Poll fn until it returns a truthy value (no fixed sleeps: a condition or a timeout). */
async function waitUntil(fn, { timeout = TIMEOUT, interval = 100, message = 'condition' } = {}) {
	const deadline = Date.now() + timeout;
	let last;
	for (;;) {
		try {
			last = await fn();
			if (last) return last;
		} catch (err) {
			last = err;
		}
		if (Date.now() > deadline)
			throw new Error(
				`timed out after ${timeout} ms waiting for ${message}${last instanceof Error ? `: ${last.message}` : ''}`,
			);
		await new Promise((r) => setTimeout(r, interval));
	}
}

const exact = (s) => new RegExp(`^\\s*${s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}\\s*$`);

// ------------------------------------------------------------------ environment
function ensureChromium() {
	if (fs.existsSync(CHROMIUM)) return;
	console.log(`${CHROMIUM} missing: apt-get install -y chromium`);
	const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
	const sudo = typeof process.getuid === 'function' && process.getuid() !== 0 ? ['sudo', '-E'] : [];
	const run = (args) =>
		spawnSync(sudo[0] || args[0], sudo.length ? [...sudo.slice(1), ...args] : args.slice(1), {
			env,
			stdio: 'inherit',
		});
	let r = run(['apt-get', 'install', '-y', '--no-install-recommends', 'chromium']);
	if (r.status !== 0) {
		run(['apt-get', 'update']);
		r = run(['apt-get', 'install', '-y', '--no-install-recommends', 'chromium']);
	}
	if (r.status !== 0 || !fs.existsSync(CHROMIUM))
		throw new Error('could not install chromium with apt-get');
}

/** Sources newer than their compiled counterparts in dist/ (the build must come first). */

/** The tarball to install: --tarball <file>, or `npm pack` of this clone (built beforehand). */
function packTarball(workDir) {
	const i = process.argv.indexOf('--tarball');
	if (i >= 0) {
		const file = path.resolve(process.argv[i + 1] || '');
		if (!fs.existsSync(file)) throw new Error(`--tarball ${file}: no such file`);
		return file;
	}
	const stale = n8n.staleDistFiles();
	if (stale.length)
		throw new Error(
			`dist/ is older than the sources (run "npm run build"): ${stale.slice(0, 5).join(', ')}`,
		);
	return n8n.packPackage(workDir).tarball;
}

// ------------------------------------------------------------------ editor helpers
const ndv = () => page.locator('[data-test-id="ndv"]');
const canvasNode = () =>
	page.locator(`[data-test-id="canvas-node"][data-node-type="${NODE_TYPE}"]`);

/** The innermost parameter row that holds parameter `p` (a path below `parameters.`, e.g. additionalFields.userId). */
const paramItem = (p) =>
	ndv()
		.locator('[data-test-id="parameter-item"]')
		.filter({ has: page.locator(`[data-parameter-path="parameters.${p}"]`) })
		.last();

/** The input a person types into for parameter `p` (a resource locator's value input, not its mode selector). */
async function valueInput(p) {
	const item = paramItem(p);
	const rl = item.locator('[data-test-id="rlc-input"]');
	if (await rl.count()) return rl.first();
	return item
		.locator(
			`[data-parameter-path="parameters.${p}"] input, [data-parameter-path="parameters.${p}"] textarea`,
		)
		.first();
}

async function paramValue(p) {
	return await page
		.locator(`[data-test-id="ndv"] [data-test-id="parameter-input-${p}"] input`)
		.first()
		.inputValue();
}

/** Choose `text` in the options parameter `p` (a dropdown). */
async function selectOption(p, text) {
	if ((await paramValue(p)) === text) return;
	await ndv().locator(`[data-test-id="parameter-input-${p}"]`).first().click();
	const option = page
		.locator('[data-test-id="parameter-input-item"]:visible')
		.filter({ has: page.getByText(text, { exact: true }) });
	await option.first().click();
	await waitUntil(async () => (await paramValue(p)) === text, { message: `${p} = ${text}` });
}

/** The visible option texts of the open dropdown of options parameter `p`. */
async function dropdownOptions(p) {
	await ndv().locator(`[data-test-id="parameter-input-${p}"]`).first().click();
	const items = page.locator('[data-test-id="parameter-input-item"]:visible');
	await items.first().waitFor();
	const texts = (await items.locator('.option-headline').allInnerTexts()).map((s) => s.trim());
	await ndv().locator(`[data-test-id="parameter-input-${p}"]`).first().click();
	await items
		.first()
		.waitFor({ state: 'hidden' })
		.catch(() => {});
	return texts;
}

/** Add field `label` to collection parameter `collection` (its "Add Field"/"Add Option" dropdown). */
async function addCollectionField(collection, label, p) {
	if (await ndv().locator(`[data-parameter-path="parameters.${collection}.${p}"]`).count()) return;
	const coll = ndv()
		.locator('[data-test-id="parameter-item"]')
		.filter({ has: page.locator(`label[for="${collection}"]`) })
		.first();
	await coll.locator('[data-test-id="collection-parameter-add"]').click();
	await page
		.locator('[data-test-id="collection-parameter-option"]:visible')
		.filter({ hasText: exact(label) })
		.first()
		.click();
	await ndv().locator(`[data-parameter-path="parameters.${collection}.${p}"]`).first().waitFor();
}

/** Label, value, placeholder of every parameter shown in the NDV's parameter panel. */
async function shownParameters() {
	return await ndv()
		.locator('[data-parameter-path^="parameters."]')
		.evaluateAll((els) =>
			els.map((el) => {
				const item = el.closest('[data-test-id="parameter-item"]');
				const label =
					item?.querySelector('[data-test-id="input-label"] label span')?.textContent?.trim() ?? '';
				const input =
					el.querySelector('[data-test-id="rlc-input"]') ||
					el.querySelector('input:not([readonly]), textarea') ||
					el.querySelector('input');
				return {
					path: el.getAttribute('data-parameter-path').replace(/^parameters\./, ''),
					label,
					value: input ? input.value : null,
					placeholder: input ? input.getAttribute('placeholder') || '' : null,
					resourceLocator: Boolean(
						el.querySelector(
							'[data-test-id="resource-locator-' +
								el.getAttribute('data-parameter-path').split('.').pop() +
								'"]',
						),
					),
				};
			}),
		);
}

/** Focus and leave a parameter input, as a person tabbing through does; n8n then shows its issues. */
async function touch(p) {
	const input = await valueInput(p);
	if ((await input.getAttribute('data-test-id')) === 'rlc-input') {
		await input.click();
		// "From List" opens a list (Escape closes it); "By ID" is a text field (leaving it is what counts)
		if (await input.isEditable()) await input.blur();
		else await page.keyboard.press('Escape');
	} else {
		await input.focus();
		await input.blur();
	}
}

/** A resource locator set "By ID" to `value`. */
async function locatorById(p, value) {
	const rl = ndv().locator(`[data-test-id="resource-locator-${p}"]`);
	const modeInput = rl.locator('[data-test-id="rlc-mode-selector"] input');
	if (!/\bID\b/i.test(await modeInput.inputValue())) {
		await rl.locator('[data-test-id="rlc-mode-selector"]').click();
		await page.locator('[data-test-id="mode-id"]:visible').click();
	}
	await rl.locator('[data-test-id="rlc-input"]').first().fill(value);
}

/**
 * Clicks the NDV's "Execute step" and waits for `shown`. On a loaded machine the editor can miss an
 * execution's end (its push message) or the click itself; then, once, it says what it saw (the
 * requests the emulator received since `mark`, whether `expected` was among them) and executes
 * again. A second miss fails with that account.
 */
async function executeUntilShown(shown, mark, expected) {
	const button = ndv().locator('[data-test-id="node-execute-button"]');
	for (let attempt = 1; ; attempt++) {
		await button.click();
		try {
			await shown.waitFor({ timeout: 45_000 });
			return;
		} catch (err) {
			const seen = emu.requests.slice(mark);
			const account = `attempt ${attempt}: nothing shown after 45 s; the emulator received ${seen.length} request(s) since the click (${seen
				.map((r) => `${r.method} ${r.path} ${r.status}`)
				.join(
					', ',
				)}); the expected request ${seen.some(expected) ? 'was' : 'was not'} among them; button: "${(await button.innerText().catch(() => '?')).trim()}"`;
			console.log(`     ${account}`);
			await screenshot(`execute attempt ${attempt} missed`, page, true);
			if (attempt >= 2) throw new Error(`${account}; ${err.message}`);
			// an execution still running in the editor is stopped by the same button
			if (/stop/i.test(await button.innerText().catch(() => ''))) await button.click();
		}
	}
}

const hasIssue = async (p) =>
	(await paramItem(p).locator('[data-test-id="parameter-issues"]').count()) > 0;

/** Pick a credential by name in the NDV's credential dropdown. */
async function selectCredential(name) {
	const select = ndv().locator('[data-test-id="node-credentials-select"]');
	await select.click();
	await page
		.locator('[data-test-id^="node-credentials-select-item-"]:visible')
		.filter({ has: page.getByText(name, { exact: true }) })
		.first()
		.click();
	await waitUntil(async () => (await select.locator('input').first().inputValue()) === name, {
		message: `credential ${name} selected`,
	});
}

/** Open the node panel on the canvas ("+") and search. Returns the names listed. */
async function searchNodePanel(word) {
	const creator = page.locator('[data-test-id="node-creator"]');
	const search = page.locator('input[data-test-id="node-creator-search-bar"]');
	if (!(await creator.isVisible())) await page.click('[data-test-id="node-creator-plus-button"]');
	await search.click(); // waits until the panel has stopped sliding in
	const noResults = page.locator('[data-test-id="node-creator-no-results"]');
	const names = async () =>
		(await page.locator('[data-test-id="node-creator-item-name"]').allInnerTexts()).map((s) =>
			s.trim(),
		);
	// The search is debounced: clear it until the category view ("Action in an app", ...) is back, so
	// that whatever replaces the categories afterwards is the answer to this word, not to the last one.
	await search.fill('');
	const isRoot = (list) => list.includes('Action in an app') || list.includes('On app event');
	await waitUntil(async () => isRoot(await names()), { message: "the node panel's category view" });
	await search.fill(word);
	let previous = null;
	return await waitUntil(
		async () => {
			const empty = await noResults.isVisible();
			const now = empty ? [] : await names();
			if (isRoot(now) || (!empty && now.length === 0)) return (previous = null);
			const settled = previous !== null && JSON.stringify(now) === JSON.stringify(previous);
			previous = now;
			return settled ? now : null;
		},
		{ interval: 300, message: `search results for "${word}"` },
	);
}

/** The entries of this package the node panel lists for `word`: [{ name, description }]. */
async function packageEntries(word) {
	await searchNodePanel(word);
	const items = page.locator(
		'[data-test-id="node-creator"] [data-test-id="node-creator-node-item"], [data-test-id="node-creator"] [data-test-id="node-creator-action-item"]',
	);
	const all = await items.evaluateAll((els) =>
		els.map((el) => {
			const name =
				el.querySelector('[data-test-id="node-creator-item-name"]')?.textContent?.trim() ?? '';
			const text = el.innerText
				.split('\n')
				.map((l) => l.trim())
				.filter(Boolean);
			return { name, description: text.filter((l) => l !== name).join(' ') };
		}),
	);
	return all.filter((e) => e.name.startsWith(NODE_NAME));
}

/** Opens the details of the entry `name` (after a search), returns the panel's text. */
async function openEntry(word, name) {
	await searchNodePanel(word);
	await page
		.locator('[data-test-id="node-creator-item-name"]')
		.filter({ hasText: exact(name) })
		.first()
		.click();
	const creator = page.locator('[data-test-id="node-creator"]');
	await creator
		.getByText(/^\s*Node details\s*$/)
		.first()
		.waitFor();
	return creator;
}

/** Back from an entry's details to the search. */
async function closeEntry() {
	await page.keyboard.press('Escape');
	await page
		.locator('[data-test-id="node-creator"]')
		.waitFor({ state: 'hidden' })
		.catch(() => {});
}

/** Credentials page → "Create credential": the modal with the credential type picker. */
async function openCredentialTypePicker() {
	for (const modal of ['selectCredential-modal', 'editCredential-modal']) {
		const m = page.locator(`[data-test-id="${modal}"]`);
		for (let i = 0; i < 3 && (await m.isVisible()); i++) {
			await page.keyboard.press('Escape');
			await m.waitFor({ state: 'hidden', timeout: 5000 }).catch(() => {});
		}
	}
	if (!/\/credentials/.test(new URL(page.url()).pathname))
		await page.goto(`${SERVER_URL}/home/credentials`);
	await page.getByRole('button', { name: 'Create credential' }).first().click();
	await page.locator('[data-test-id="new-credential-type-select"] input').waitFor();
}

// ------------------------------------------------------------------ main
let SERVER_URL = null;
async function main() {
	console.log(`editor: ${PKG} in n8n's editor (n8n ${n8n.N8N_VERSION}), headless chromium`);
	fs.rmSync(ARTIFACTS, { recursive: true, force: true });
	fs.mkdirSync(ARTIFACTS, { recursive: true });
	const workDir = fs.mkdtempSync(path.join(os.tmpdir(), 'wos-editor-'));
	const timings = {};
	const mark = (k, t0) => (timings[k] = Date.now() - t0);
	let emu = null;
	let server = null;
	let browser = null;
	try {
		let t0 = Date.now();
		ensureChromium();
		const { chromium } = require('playwright-core');
		const runtime = await n8n.ensureRuntime();
		mark('runtime', t0);
		t0 = Date.now();
		const tarball = packTarball(workDir);
		console.log(`package: ${tarball}`);
		emu = await startEmulator({ port: 0 });
		const fx = emu.fixtures;
		server = await startN8nServer({ runtime, tarball });
		mark('n8n start', t0);
		SERVER_URL = server.url;
		const callbackUrl = `${server.url}/rest/oauth2-credential/callback`;
		emu.addCallbackUri(fx.clients.main.clientId, callbackUrl);
		console.log(
			`n8n ${server.url} (started in ${(server.startMs / 1000).toFixed(1)} s); emulator ${emu.origin}`,
		);

		t0 = Date.now();
		browser = await chromium.launch({
			executablePath: CHROMIUM,
			args: [
				'--headless',
				'--no-sandbox',
				'--disable-gpu',
				'--disable-background-networking',
				'--disable-component-update',
				'--disable-sync',
				'--no-first-run',
			],
		});
		const context = await browser.newContext({ viewport: { width: 1440, height: 900 } });
		page = await context.newPage();
		page.setDefaultTimeout(TIMEOUT);
		page.setDefaultNavigationTimeout(60_000);
		mark('browser', t0);
		console.log(`browser: chromium ${browser.version()}\n`);
		const tChecks = Date.now();

		// ---- 0. owner account
		await check("0. setup: owner account created through n8n's setup form", async () => {
			await page.goto(`${server.url}/`);
			await page.waitForSelector('[data-test-id="setup-form"]');
			await page.fill('#email', OWNER.email);
			await page.fill('#firstName', OWNER.firstName);
			await page.fill('#lastName', OWNER.lastName);
			await page.fill('#password', OWNER.password);
			await page.click('[data-test-id="form-submit-button"]');
			await page.waitForURL((u) => !/\/(setup|signin)/.test(u.pathname), { timeout: 60_000 });
		});

		// ---- 3. credentials
		const created = {};
		await check(
			`3. credentials: the type picker lists ${CREDENTIALS.map((c) => `"${c.displayName}"`).join(', ')}`,
			async () => {
				await openCredentialTypePicker();
				const picker = page.locator('[data-test-id="new-credential-type-select"] input');
				await picker.fill('Work Order Service');
				const options = page.locator('[data-test-id="new-credential-type-select-option"]:visible');
				await options.first().waitFor();
				const names = (await options.allInnerTexts()).map((s) => s.trim()).sort();
				await page.keyboard.press('Escape');
				assert.deepEqual(
					names,
					CREDENTIALS.map((c) => c.displayName).sort(),
					'credential type names',
				);
			},
		);

		for (const cred of CREDENTIALS) {
			const user = fx.users[cred.user];
			const expectedName = defaultCredentialName(cred.displayName);
			let shownName = null;
			const opened = await check(
				`3. credential ${cred.type}: new credential is named "${expectedName}" by default`,
				async () => {
					await openCredentialTypePicker();
					const picker = page.locator('[data-test-id="new-credential-type-select"] input');
					await picker.fill('Work Order Service');
					const option = page.locator('[data-test-id="new-credential-type-select-option"]:visible');
					await option.first().waitFor();
					// Pick the type by its expected name, else by its old name (so the credential still gets created and tested).
					const byName = option.filter({ hasText: exact(cred.displayName) });
					if (await byName.count()) await byName.first().click();
					else {
						const legacy = {
							workOrderServiceApi: 'Work Order Service API',
							workOrderServiceOAuth2Api: 'Work Order Service OAuth2 API',
							workOrderServiceContractorApi: 'Work Order Service Contractor API',
						};
						await option
							.filter({ hasText: exact(legacy[cred.type]) })
							.first()
							.click();
					}
					await page.click('[data-test-id="new-credential-type-button"]');
					await page.locator('[data-test-id="parameter-input-authServerUrl"] input').waitFor();
					shownName = (
						await page
							.locator('[data-test-id="credential-name"] [data-test-id="inline-edit-preview"]')
							.innerText()
					).trim();
					assert.equal(shownName, expectedName, 'default credential name');
				},
			);
			if (!opened && !shownName) continue;
			const fill = async (name, value) =>
				page.locator(`[data-test-id="parameter-input-${name}"] input`).fill(value);
			await fill('authServerUrl', emu.authUrl);
			await fill('baseUrl', emu.baseUrl);
			await fill('clientId', fx.clients.main.clientId);
			await fill('clientSecret', fx.clients.main.clientSecret);
			if (cred.key !== 'oAuth2') {
				await check(
					`3. credential ${cred.type}: saved and tested against the service (${user.username})`,
					async () => {
						await fill('username', user.username);
						await fill('password', user.password);
						const markReq = emu.requests.length;
						await page.click('[data-test-id="credential-save-button"]');
						await page
							.locator('[data-test-id="credentials-config-container-test-success"]')
							.waitFor({ state: 'visible', timeout: 60_000 });
						const tokens = emu.requests
							.slice(markReq)
							.filter((r) => r.path.startsWith('/auth/') && r.status === 200);
						assert.ok(
							tokens.some((r) => r.username === user.username),
							`a token request for ${user.username} succeeded`,
						);
						created[cred.key] = shownName;
						if (cred.key === 'password') await docShot('credential-password-grant');
					},
				);
			} else {
				await check(
					"3. credential workOrderServiceOAuth2Api: the OAuth redirect URL shown is n8n's callback on 127.0.0.1",
					async () => {
						const shown = (
							await page.locator('[data-test-id="copy-input"]').first().innerText()
						).trim();
						assert.equal(shown.split('\n')[0].trim(), callbackUrl);
					},
				);
				await check(
					`3. credential workOrderServiceOAuth2Api: Connect, sign in on the service's page (popup), account connected`,
					async () => {
						const markReq = emu.requests.length;
						const popupPromise = page.waitForEvent('popup');
						await page.click(
							'[data-test-id="quick-connect-button"], [data-test-id="oauth-connect-button"]',
						);
						const popup = await popupPromise;
						await popup.waitForSelector('input[name="username"]', { timeout: TIMEOUT });
						await popup.fill('input[name="username"]', user.username);
						await popup.fill('input[name="password"]', user.password);
						await screenshot('3. oauth2 login page of the service (popup)', popup);
						const closed = popup.waitForEvent('close', { timeout: 60_000 });
						await popup.click('button[type="submit"]');
						await closed;
						await page
							.locator('[data-test-id="oauth-connect-success-banner"]')
							.waitFor({ state: 'visible', timeout: 60_000 });
						const exchange = emu.requests
							.slice(markReq)
							.find(
								(r) =>
									r.path === '/auth/oauth/token' &&
									r.body &&
									r.body.grant_type === 'authorization_code',
							);
						assert.ok(exchange, 'n8n exchanged the code at the token endpoint');
						assert.equal(exchange.status, 200, `code exchange answered ${exchange.status}`);
						assert.equal(
							exchange.body.redirect_uri,
							callbackUrl,
							'redirect_uri = the registered callback',
						);
						created[cred.key] = shownName;
					},
				);
			}
			await page.keyboard.press('Escape');
			await page
				.locator('[data-test-id="editCredential-modal"]')
				.waitFor({ state: 'hidden' })
				.catch(() => {});
		}

		// ---- 1. node panel
		const view = packageView();
		const panelChecks = async (when) => {
			await check(
				`1. node panel, ${when}: "work order" lists each node once with its own description: "${NODE_NAME}" (the node with the instant trigger) and "${POLLING_NAME}"`,
				async () => {
					const entries = await packageEntries('work order');
					assert.deepEqual(
						entries.map((e) => e.name).sort(),
						[NODE_NAME, POLLING_NAME].sort(),
						`entries: ${JSON.stringify(entries)}`,
					);
					const byName = Object.fromEntries(entries.map((e) => [e.name, e.description]));
					// n8n shows a node paired with its trigger under the trigger's description: written for both
					assert.equal(byName[NODE_NAME], view.instant.description);
					assert.equal(byName[POLLING_NAME], view.polling.description);
					assert.notEqual(byName[NODE_NAME], byName[POLLING_NAME]);
					if (when === 'first step')
						await docShot('node-panel-work-order', page.locator('[data-test-id="node-creator"]'));
				},
			);
			await check(
				`1. node panel, ${when}: "${NODE_NAME}" lists the instant trigger's ${view.events.length} events and the node's ${view.actions.length} actions, no "We don't have ... actions yet"`,
				async () => {
					const creator = await openEntry('work order', NODE_NAME);
					const triggersHeader = creator
						.getByText(new RegExp(`^\\s*Triggers \\(${view.events.length}\\)`))
						.first();
					const actionsHeader = creator
						.getByText(new RegExp(`^\\s*Actions \\(${view.actions.length}\\)`))
						.first();
					await triggersHeader.waitFor();
					await actionsHeader.waitFor();
					if (when === 'next step') await docShot('node-panel-details', creator);
					const names = async () =>
						(await creator.locator('[data-test-id="node-creator-item-name"]').allInnerTexts()).map(
							(t) => t.trim(),
						);
					const isEvent = (n) => /^On /.test(n);
					// the section that is not the view's own starts collapsed: open it
					if (!(await names()).includes(view.actions[0])) await actionsHeader.click();
					if (!(await names()).some(isEvent)) await triggersHeader.click();
					// n8n renders a long list a few items at a time: wait until every event and action is there
					await waitUntil(
						async () => {
							const n = await names();
							return (
								view.actions.every((a) => n.includes(a)) &&
								n.filter(isEvent).length >= view.events.length
							);
						},
						{ message: 'the events and the actions listed' },
					);
					const shown = await names();
					const missing = view.actions.filter((a) => !shown.includes(a));
					assert.deepEqual(missing, [], `actions listed: ${JSON.stringify(shown)}`);
					assert.equal(
						shown.filter(isEvent).length,
						view.events.length,
						`events listed: ${JSON.stringify(shown.filter(isEvent))}`,
					);
					// every event by name, each family's (work order, proposal, invoice, checklist, location,
					// asset): n8n lists an event as "On " and its name in lower case without punctuation
					const listed = (name) =>
						`On ${name
							.replace(/[^A-Za-z0-9]+/g, ' ')
							.trim()
							.toLowerCase()}`;
					assert.deepEqual(
						shown.filter(isEvent).sort(),
						view.events.map((e) => listed(e.name)).sort(),
					);
					for (const name of [
						'On invoice approved',
						'On invoice paid',
						'On location note header created',
						'On asset updated',
						'On checklist deleted',
						'On proposal reviewed',
						'On work order technician accepted',
						'On work order nte changed preview',
					])
						assert.ok(shown.includes(name), `"${name}" not listed`);
					assert.doesNotMatch(await creator.innerText(), NO_ACTIONS);
					await closeEntry();
				},
			);
			await check(
				`1. node panel, ${when}: "${POLLING_NAME}" is its own entry, added as it is, no "We don't have ... actions yet"`,
				async () => {
					const creator = await openEntry('work order', POLLING_NAME);
					await creator
						.getByText(/^\s*Add to workflow\s*$/)
						.first()
						.waitFor();
					const text = await creator.innerText();
					assert.match(text, new RegExp(POLLING_NAME));
					assert.doesNotMatch(text, NO_ACTIONS);
					await closeEntry();
				},
			);
		};
		await page.goto(`${server.url}/workflow/new`);
		await panelChecks('first step');
		await page.goto(`${server.url}/workflow/new`);
		await page.click('[data-test-id="node-creator-plus-button"]');
		await page
			.locator('[data-test-id="node-creator-item-name"]')
			.filter({ hasText: exact('Trigger manually') })
			.first()
			.click();
		await page
			.locator('[data-test-id="canvas-node"][data-node-type="n8n-nodes-base.manualTrigger"]')
			.waitFor();
		await page
			.locator('[data-test-id="node-creator"]')
			.waitFor({ state: 'hidden' })
			.catch(() => {});
		await panelChecks('next step');
		for (const word of SEARCH_WORDS) {
			await check(`1. node panel: searching "${word}" finds "${NODE_NAME}"`, async () => {
				const names = await searchNodePanel(word);
				assert.ok(names.includes(NODE_NAME), `results: ${JSON.stringify(names)}`);
			});
		}

		// Add the node the way a person does: from the trigger's output "+", search, pick the node, pick an action. The NDV opens.
		await closeEntry();
		await page.locator('[data-test-id="canvas-handle-plus"]').first().click();
		await page.locator('[data-test-id="node-creator"]').waitFor();
		await searchNodePanel('work order');
		await page
			.locator('[data-test-id="node-creator-item-name"]')
			.filter({ hasText: exact(NODE_NAME) })
			.first()
			.click();
		await page
			.locator('[data-test-id="node-creator-item-name"]')
			.filter({ hasText: exact('Get a work order') })
			.first()
			.click();
		await ndv().waitFor();
		await ndv().locator('[data-test-id="parameter-input-resource"]').waitFor();
		await check('2. a new node is named after its short action: "Get a work order"', async () => {
			const title = (
				await ndv().locator('[data-test-id="node-title-container"]').first().innerText()
			).trim();
			assert.equal(title, 'Get a work order');
			assert.ok(
				view.actions.every((a) => a.split(' ').length <= 6),
				`actions over 6 words: ${view.actions.filter((a) => a.split(' ').length > 6)}`,
			);
		});

		// ---- 2. every operation
		await check('2. node: the Resource dropdown lists every resource', async () => {
			const shown = (await dropdownOptions('resource')).filter((s) => s !== 'Custom API Call');
			assert.deepEqual(shown, [...new Set(OPERATIONS.map((o) => o.resource))]);
		});
		for (const op of OPERATIONS) {
			const required = op.required || [];
			const optional = op.optional || [];
			const what = [
				required.length ? `required ${required.join(', ')} empty and flagged required` : null,
				optional.length ? `optional ${optional.map((o) => o[2]).join(', ')} empty` : null,
			].filter(Boolean);
			await check(
				`2. ${op.resource} → ${op.operation}: no ID field shows 0${what.length ? `; ${what.join('; ')}` : ''}`,
				async () => {
					await selectOption('resource', op.resource);
					await selectOption('operation', op.operation);
					for (const [p, v] of Object.entries(op.set || {})) await selectOption(p, v);
					for (const [collection, label, p] of optional)
						if (collection) await addCollectionField(collection, label, p);
					const optionalPaths = optional.map(([collection, , p]) =>
						collection ? `${collection}.${p}` : p,
					);
					for (const p of [...required, ...optionalPaths]) await paramItem(p).waitFor();
					// What a person sees first, before touching anything (n8n clamps a 0 to a number field's minimum on blur).
					const shown = await shownParameters();
					// Leave each empty ID field once, as a person tabbing through does: n8n then flags empty required ones.
					const empty = (p) => shown.find((x) => x.path === p)?.value === '';
					for (const p of [...required, ...optionalPaths]) if (empty(p)) await touch(p);
					const flagged = required.filter(empty);
					if (flagged.length)
						await waitUntil(async () => (await Promise.all(flagged.map(hasIssue))).every(Boolean), {
							timeout: 3000,
						}).catch(() => {});
					const problems = [];
					for (const s of shown) {
						if (/\bIDs?\b/.test(s.label) && s.value === '0')
							problems.push(`${s.label} (${s.path}) shows 0`);
					}
					for (const p of required) {
						const s = shown.find((x) => x.path === p);
						if (!s) {
							problems.push(`${p} not shown`);
							continue;
						}
						if (s.value !== '') {
							if (s.value !== '0') problems.push(`${s.label} (${p}) is not empty: "${s.value}"`);
						} else if (!(await hasIssue(p)))
							problems.push(`${s.label} (${p}) is not flagged as required when empty`);
						if (!s.placeholder) problems.push(`${s.label} (${p}) has no placeholder`);
					}
					for (const p of optionalPaths) {
						const s = shown.find((x) => x.path === p);
						if (!s) {
							problems.push(`${p} not shown`);
							continue;
						}
						if (s.value !== '' && s.value !== '0')
							problems.push(`${s.label} (${s.path}) is not empty: "${s.value}"`);
						if (await hasIssue(s.path))
							problems.push(`${s.label} (${s.path}) is flagged although optional`);
					}
					const ids = shown
						.filter((s) => /\bIDs?\b/.test(s.label))
						.map(
							(s) =>
								`${s.label}="${s.value}"${s.placeholder ? ` (placeholder "${s.placeholder}")` : ''}`,
						);
					assert.deepEqual(problems, [], `ID fields shown: ${ids.join(', ')}`);
				},
			);
		}

		// ---- 4. Work Order ID: resource locator
		const wo = emu.state.workOrders[fx.workOrders.noChecklist];
		let selectedWorkOrder = null;
		await selectOption('resource', 'Work Order');
		await selectOption('operation', 'Get');
		await check(
			`4. Work Order ID: "From list" loads work orders from the service, search "${wo.Number}" and pick it; "By ID" then shows ${wo.Id}`,
			async () => {
				if (created.password) await selectCredential(created.password);
				const rl = ndv().locator('[data-test-id="resource-locator-workOrderId"]');
				assert.ok(
					await rl.count(),
					'Work Order ID is not a resource locator (no "From list"/"By ID" modes)',
				);
				// Mode "From list"
				const modeInput = rl.locator('[data-test-id="rlc-mode-selector"] input');
				if (!/list/i.test(await modeInput.inputValue())) {
					await rl.locator('[data-test-id="rlc-mode-selector"]').click();
					await page.locator('[data-test-id="mode-list"]:visible').click();
				}
				const markReq = emu.requests.length;
				await rl.locator('[data-test-id="rlc-input"]').click();
				const items = page.locator('[data-test-id="rlc-item"]:visible');
				await items.first().waitFor({ timeout: 60_000 });
				const all = await items.count();
				assert.ok(
					emu.requests.slice(markReq).some((r) => /workorders/i.test(r.path) && r.status === 200),
					'the list came from the service',
				);
				await page.locator('[data-test-id="rlc-search"]').fill(wo.Number);
				await waitUntil(
					async () => {
						const texts = await items.allInnerTexts();
						return (
							texts.length > 0 &&
							texts.every((t) => t.includes(wo.Number) || t.includes(String(wo.Id)))
						);
					},
					{ message: `the list filtered to "${wo.Number}" (${all} items before)` },
				);
				const item = items.filter({ hasText: wo.Number }).first();
				const itemText = (await item.innerText()).trim();
				await item.click();
				await waitUntil(
					async () => (await rl.locator('[data-test-id="rlc-input"]').inputValue()) !== '',
					{ message: 'a work order selected' },
				);
				// Mode "By ID": the chosen work order's ID
				await rl.locator('[data-test-id="rlc-mode-selector"]').click();
				await page.locator('[data-test-id="mode-id"]:visible').click();
				await waitUntil(
					async () =>
						(await rl.locator('[data-test-id="rlc-input"]').inputValue()) === String(wo.Id),
					{ message: `By ID shows ${wo.Id}` },
				);
				selectedWorkOrder = wo.Id;
				console.log(`     picked "${itemText}" from ${all} listed work orders`);
			},
		);

		// ---- 6. execute from the editor
		await check(
			`6. execute: Manual Trigger → Get work order ${wo.Id} runs from the editor; the output panel shows the service's data`,
			async () => {
				assert.ok(created.password, 'the password-grant credential was created');
				await selectCredential(created.password);
				if (!selectedWorkOrder) {
					// Today's plain number field (or a locator that failed above): type the ID.
					const rl = ndv().locator('[data-test-id="resource-locator-workOrderId"]');
					if (await rl.count()) {
						await rl.locator('[data-test-id="rlc-mode-selector"]').click();
						await page.locator('[data-test-id="mode-id"]:visible').click();
					}
					await (await valueInput('workOrderId')).fill(String(wo.Id));
				}
				await ndv().locator('[data-test-id="ndv-close-button"]').click();
				await ndv().waitFor({ state: 'hidden' });
				const markReq = emu.requests.length;
				await page.click('[data-test-id="execute-workflow-button"]');
				await waitUntil(
					async () =>
						(await canvasNode()
							.locator(
								'[data-test-id="canvas-node-status-success"], [data-test-id="canvas-node-status-error"], [data-test-id="canvas-node-status-mark-error"]',
							)
							.count()) > 0,
					{ timeout: 60_000, message: 'the node finished' },
				);
				assert.ok(
					emu.requests
						.slice(markReq)
						.some(
							(r) =>
								r.method === 'GET' && r.path === `/api/v3/workorders/${wo.Id}` && r.status === 200,
						),
					`GET /workorders/${wo.Id} answered 200`,
				);
				await screenshot('6. canvas after execute workflow');
				await canvasNode().first().dblclick();
				await ndv().waitFor();
				const output = page.locator('[data-test-id="output-panel"]');
				await output.locator('[data-test-id="radio-button-json"]').click();
				await waitUntil(async () => (await output.innerText()).includes(wo.Description), {
					message: `"${wo.Description}" in the output panel`,
				});
				const text = await output.innerText();
				assert.ok(text.includes(wo.Location.Name), `location "${wo.Location.Name}" in the output`);
				await docShot('work-order-output');
			},
		);

		// ---- 5. rejection reasons
		await check(
			"5. Proposal → Reject → Additional Fields → Rejection Reason: no red flag before anything is picked; the dropdown lists the service's reasons",
			async () => {
				if (!(await ndv().isVisible())) {
					await canvasNode().first().dblclick();
					await ndv().waitFor();
				}
				if (created.password) await selectCredential(created.password);
				await selectOption('resource', 'Proposal');
				await selectOption('operation', 'Reject');
				// n8n loads the options as soon as the field appears, before it is opened
				const markReq = emu.requests.length;
				const coll = ndv()
					.locator('[data-test-id="parameter-item"]')
					.filter({ has: page.locator('label[for="additionalFields"]') })
					.first();
				await coll.locator('[data-test-id="collection-parameter-add"]').click();
				await page
					.locator('[data-test-id="collection-parameter-option"]:visible')
					.filter({ hasText: /^\s*Rejection Reason/ })
					.first()
					.click();
				const select = ndv().locator('[data-test-id="parameter-input-rejectReasonCodeId"]').first();
				await select.waitFor();
				const loaded = () =>
					emu.requests
						.slice(markReq)
						.some(
							(r) =>
								r.method === 'GET' &&
								/^\/api\/v3\/proposals\/rejectionreasons$/i.test(r.path) &&
								r.status === 200,
						);
				await waitUntil(async () => loaded(), {
					timeout: 60_000,
					message: 'the reasons loaded from GET /proposals/RejectionReasons',
				});
				const path = 'additionalFields.rejectReasonCodeId';
				// what the editor shows once the options are in: no issue on the empty field, no "not supported"
				await page.waitForTimeout(500);
				const unflagged = async (when) => {
					assert.equal(await hasIssue(path), false, `Rejection Reason flagged ${when}`);
					assert.doesNotMatch(
						await ndv().innerText(),
						/is not supported/,
						`"not supported" shown ${when}`,
					);
				};
				await unflagged('when added');
				await select.click();
				const expected = emu.state.rejectionReasons.map((r) => r.Description);
				const items = page.locator('[data-test-id="parameter-input-item"]:visible');
				await waitUntil(async () => (await items.count()) >= expected.length, {
					timeout: 60_000,
					message: 'the reasons listed',
				});
				const texts = (await items.allInnerTexts()).map((t) => t.trim());
				for (const d of expected)
					assert.ok(
						texts.some((t) => t.includes(d)),
						`"${d}" listed; shown: ${JSON.stringify(texts)}`,
					);
				await docShot('proposal-reject-parameters');
				await page.keyboard.press('Escape');
				await items
					.first()
					.waitFor({ state: 'hidden' })
					.catch(() => {});
				await unflagged('after the dropdown was opened and closed without a pick');
				await select.click();
				await items.filter({ hasText: expected[0] }).first().click();
			},
		);

		// ---- 7. a service error in the error panel
		const overLimit = fx.proposals.overLimit;
		await check(
			`7. error: approving proposal ${overLimit} (over the approval limit) shows the service's message in the error panel; the error names the node by its action ("Problem in node 'Approve a proposal'")`,
			async () => {
				if (!(await ndv().isVisible())) {
					await canvasNode().first().dblclick();
					await ndv().waitFor();
				}
				await selectOption('resource', 'Proposal');
				await selectOption('operation', 'Approve');
				await locatorById('proposalId', String(overLimit));
				// the typed ID reaches the node's parameters when the field loses focus
				await page.keyboard.press('Tab');
				const markReq = emu.requests.length;
				const message = ndv().locator('[data-test-id="node-error-message"]');
				const approvePath = `/api/v3/proposals/${overLimit}/approve`;
				await executeUntilShown(
					message,
					markReq,
					(r) => r.method === 'PUT' && r.path === approvePath,
				);
				const refused = emu.requests
					.slice(markReq)
					.find((r) => r.method === 'PUT' && r.path === approvePath);
				assert.ok(refused, 'PUT approve sent');
				assert.equal(refused.status, 400); // the reference: a refused move is a 400 ErrorResponse (code 100: over the approval limit)
				const serviceMessage = JSON.parse(refused.responseBody).ErrorMessage;
				assert.match(serviceMessage, /approval limit/);
				const shown = (await message.innerText()).trim();
				assert.ok(
					shown.includes(serviceMessage),
					`error panel: "${shown}" should contain "${serviceMessage}"`,
				);
				// n8n renamed the node after the new action: errors name it by its short name
				assert.equal(
					(await ndv().locator('[data-test-id="node-title-container"]').first().innerText()).trim(),
					'Approve a proposal',
				);
				await page
					.getByText(/Problem in node .Approve a proposal./)
					.first()
					.waitFor({ timeout: 10_000 });
			},
		);

		// ---- 8. the work order search matches any part (needs the picker's `contains` search, issue 26)
		await check(
			'8. Work Order ID: "From list", searching "Dallas" lists the work orders at "Store #501 Dallas Downtown" (any part of the name)',
			async () => {
				if (!(await ndv().isVisible())) {
					await canvasNode().first().dblclick();
					await ndv().waitFor();
				}
				await selectOption('resource', 'Work Order');
				await selectOption('operation', 'Get');
				const rl = ndv().locator('[data-test-id="resource-locator-workOrderId"]');
				const modeInput = rl.locator('[data-test-id="rlc-mode-selector"] input');
				if (!/list/i.test(await modeInput.inputValue())) {
					await rl.locator('[data-test-id="rlc-mode-selector"]').click();
					await page.locator('[data-test-id="mode-list"]:visible').click();
				}
				const dallas = Object.values(emu.state.workOrders).filter(
					(w) =>
						/Dallas/.test(w.Location?.Name ?? '') &&
						w.SubscriberId === fx.users.subscriber.subscriberId,
				);
				assert.ok(dallas.length > 0, 'the emulator has work orders in Dallas');
				await rl.locator('[data-test-id="rlc-input"]').click();
				const items = page.locator('[data-test-id="rlc-item"]:visible');
				await items.first().waitFor({ timeout: 60_000 });
				const markReq = emu.requests.length;
				await page.locator('[data-test-id="rlc-search"]').fill('Dallas');
				await waitUntil(
					async () =>
						emu.requests.slice(markReq).some((r) => /workorders/i.test(r.path) && r.status === 200),
					{ message: 'the search sent to the service' },
				);
				const texts = await waitUntil(
					async () => {
						const t = await items.allInnerTexts();
						return t.length > 0 && t.every((x) => x.includes('Dallas')) ? t : null;
					},
					{ message: 'work orders in Dallas listed, and only those' },
				);
				assert.ok(
					dallas.some((w) => texts.some((t) => t.includes(String(w.Number)))),
					`listed: ${JSON.stringify(texts.slice(0, 5))}`,
				);
				await screenshot('8. work order search "Dallas"');
				await page.keyboard.press('Escape');
				console.log(`     "Dallas": ${texts.length} work orders listed`);
			},
		);

		// ---- 10. a work order created with the location, trade and provider chosen from the lists (issue 34)
		await check(
			'10. Work Order → Create: Location "From list" (search "Fort"), Trade from the trades at that location, Provider from the trade\'s providers; Execute step creates the work order with them',
			async () => {
				if (!(await ndv().isVisible())) {
					await canvasNode().first().dblclick();
					await ndv().waitFor();
				}
				await selectOption('resource', 'Work Order');
				await selectOption('operation', 'Create');
				// Location: From list, searched by part of the name
				const rl = ndv().locator('[data-test-id="resource-locator-location"]');
				const modeInput = rl.locator('[data-test-id="rlc-mode-selector"] input');
				if (!/list/i.test(await modeInput.inputValue())) {
					await rl.locator('[data-test-id="rlc-mode-selector"]').click();
					await page.locator('[data-test-id="mode-list"]:visible').click();
				}
				await rl.locator('[data-test-id="rlc-input"]').click();
				const items = page.locator('[data-test-id="rlc-item"]:visible');
				await items.first().waitFor({ timeout: 60_000 });
				let mark = emu.requests.length;
				await page.locator('[data-test-id="rlc-search"]').fill('Fort');
				await waitUntil(
					async () => {
						const t = await items.allInnerTexts();
						return t.length === 1 && t[0].includes('Store #502 Fort Worth');
					},
					{ message: 'the locations searched for "Fort"' },
				);
				assert.ok(
					emu.requests
						.slice(mark)
						.some((r) => r.path === '/api/v3/odata/locations' && /Fort/.test(r.query.$filter)),
					'the search went to GET /odata/locations',
				);
				// choosing the location reloads the Trade dropdown (it depends on the location)
				mark = emu.requests.length;
				await items.first().click();
				// Trade: the trades at store 502 (general maintenance is one of them, not at every store)
				const trades = await waitUntil(
					async () => {
						const t = await dropdownOptions('tradeName');
						return t.includes('REFRIGERATION') ? t : null;
					},
					{ message: 'the trades listed', timeout: 60_000 },
				);
				assert.ok(trades.includes('GENERAL MAINTENANCE'), `trades: ${trades.join(', ')}`);
				assert.ok(
					emu.requests.slice(mark).some((r) => r.path === '/api/v3/odata/locations(502)/trades'),
					`the trades of location 502 were read; requests: ${emu.requests
						.slice(mark)
						.map((r) => `${r.method} ${r.path}`)
						.join(', ')}`,
				);
				// choosing the trade reloads the Provider dropdown (it depends on the trade)
				mark = emu.requests.length;
				await selectOption('tradeName', 'REFRIGERATION');
				// Provider: the providers of REFRIGERATION
				const providers = await waitUntil(
					async () => {
						const t = await dropdownOptions('providerId');
						return t.includes('Polar Refrigeration LLC') ? t : null;
					},
					{ message: 'the providers of the trade listed', timeout: 60_000 },
				);
				assert.ok(
					emu.requests
						.slice(mark)
						.some(
							(r) => r.path === '/api/v3/providers/getbytrade' && r.query.trade === 'REFRIGERATION',
						),
					'the providers of REFRIGERATION were read',
				);
				await ndv().locator('[data-test-id="parameter-input-providerId"]').first().click();
				await page
					.locator('[data-test-id="parameter-input-item"]:visible')
					.filter({ has: page.getByText('Polar Refrigeration LLC', { exact: true }) })
					.first()
					.click();
				await selectOption('category', 'REPAIR');
				await selectOption('priority', 'P1 - Emergency');
				await (await valueInput('description')).fill('Walk-in freezer at 20F');
				await (await valueInput('problemCode')).fill('NOT COOLING');
				const callDate = await valueInput('callDate');
				await callDate.click();
				await callDate.fill('2026-05-01T09:30:00');
				await callDate.press('Enter');
				await screenshot('10. create with location, trade, provider from the lists');
				mark = emu.requests.length;
				await ndv().locator('[data-test-id="node-execute-button"]').click();
				const post = await waitUntil(
					async () =>
						emu.requests
							.slice(mark)
							.find((r) => r.method === 'POST' && r.path === '/api/v3/workorders'),
					{ message: 'POST /workorders', timeout: 60_000 },
				);
				assert.equal(
					post.status,
					201,
					`POST /workorders answered ${post.status}: ${post.responseBody}`,
				);
				assert.deepEqual(post.body.ContractInfo, {
					LocationId: 502,
					TradeName: 'REFRIGERATION',
					ProviderId: 3003,
				});
				const id = JSON.parse(post.responseBody).id;
				assert.equal(emu.workOrder(id).Provider.Name, 'Polar Refrigeration LLC');
				console.log(
					`     work order ${id}: store 502, REFRIGERATION, Polar Refrigeration LLC (of ${providers.length} providers, ${trades.length} trades)`,
				);
			},
		);

		// ---- 9. the credential Test proves what is stored now (issue 28, built on the credential side)
		await check(
			'9. credential Test: after a good Test, a wrong password fails it with a clear message (a fresh login, not a cached token)',
			async () => {
				assert.ok(created.password, 'the password-grant credential was created');
				const user = fx.users.subscriber;
				const wrong = 'Not-The-Password-9';
				await page.goto(`${server.url}/home/credentials`);
				await page.getByText(created.password, { exact: true }).first().click();
				const modal = page.locator('[data-test-id="editCredential-modal"]');
				await modal.waitFor();
				await page.locator('[data-test-id="parameter-input-password"] input').fill(wrong);
				const markReq = emu.requests.length;
				await page.click('[data-test-id="credential-save-button"]');
				const failure = modal.getByText(/Couldn.t connect with these settings/).first();
				await failure.waitFor({ timeout: 60_000 });
				const more = modal.getByText(/^\s*More details\s*$/).first();
				if (await more.count()) await more.click().catch(() => {});
				const text = await modal.innerText();
				assert.match(
					text,
					/(user ?name|password)[^\n]*(rejected|refused|wrong|incorrect|invalid|not accepted|denied)|(rejected|refused|wrong|incorrect|invalid|not accepted|denied)[^\n]*password/i,
					`the message says the password is wrong: ${text.slice(0, 600)}`,
				);
				assert.ok(!text.includes(wrong), 'the wrong password is not shown');
				assert.equal(
					await page
						.locator('[data-test-id="credentials-config-container-test-success"]')
						.isVisible(),
					false,
					'not "Connection tested successfully"',
				);
				const logins = emu.requests
					.slice(markReq)
					.filter(
						(r) =>
							r.path === '/auth/oauth/token' &&
							r.body &&
							r.body.grant_type === 'password' &&
							r.username === user.username,
					);
				assert.ok(
					logins.length > 0 && logins.every((r) => r.status >= 400),
					`the Test logged in afresh with the stored password and was refused: ${JSON.stringify(logins.map((r) => r.status))}`,
				);
				await screenshot('9. credential test with a wrong password');
				await page.keyboard.press('Escape');
			},
		);
		timings.checks = Date.now() - tChecks;
	} catch (err) {
		results.push({ name: 'setup', ok: false });
		await screenshot('setup', page, true);
		console.log(`FAIL setup\n${String(err.stack || err).replace(/^/gm, '     ')}`);
	} finally {
		const t0 = Date.now();
		if (browser) await browser.close().catch(() => {});
		if (server) {
			await server.stop();
			try {
				fs.copyFileSync(server.logFile, path.join(ARTIFACTS, 'n8n.log'));
			} catch {
				/* no log */
			}
			await n8n.destroyInstance(server.instance);
		}
		if (emu) await emu.close();
		fs.rmSync(workDir, { recursive: true, force: true });
		timings.teardown = Date.now() - t0;
	}
	const passed = results.filter((r) => r.ok).length;
	const failed = results.length - passed;
	console.log('\nsummary:');
	for (const r of results.filter((x) => !x.ok)) console.log(`  FAIL ${r.name}`);
	console.log(
		`  timings (s): ${Object.entries(timings)
			.map(([k, v]) => `${k} ${(v / 1000).toFixed(1)}`)
			.join(', ')}; total ${((Date.now() - started) / 1000).toFixed(1)}`,
	);
	console.log(
		`  screenshots: ${path.relative(ROOT, ARTIFACTS)}/ (${fs.existsSync(ARTIFACTS) ? fs.readdirSync(ARTIFACTS).length : 0} files)`,
	);
	console.log(`editor: ${passed} passed, ${failed} failed`);
	process.exitCode = failed ? 1 : 0;
}

main().catch((err) => {
	console.error(err);
	console.log('editor: 0 passed, 1 failed');
	process.exitCode = 1;
});
