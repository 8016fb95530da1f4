#!/usr/bin/env node
// @ts-check
'use strict';
/**
 * The package's main job on a fresh machine: starts the embedded emulator of the Work Order
 * Service, runs the example workflows of this folder through n8n-core's real WorkflowExecute with
 * this package's node and credentials (from dist/), and prints what each step produced.
 *
 *   npm run demo            (builds first)
 *   node examples/run-demo.js [--only 03-notes] [--json]
 */
const fs = require('fs');
const path = require('path');
const { startEmulator } = require('../test/emulator');
const { createHarness } = require('../test/harness');
const { demoCredentials } = require('./demo-credentials');
const { alarmForm } = require('./alarm-sample');
const { runWebhookWorkflow, startsWithWebhook } = require('./webhook-workflow');

const ROOT = path.resolve(__dirname, '..');
const args = process.argv.slice(2);
const only = args.includes('--only') ? args[args.indexOf('--only') + 1] : undefined;
const asJson = args.includes('--json');
const HELPER_TYPES = new Set([
	'n8n-nodes-base.manualTrigger',
	'n8n-nodes-base.set',
	'n8n-nodes-base.convertToFile',
	'n8n-nodes-base.merge',
	'n8n-nodes-base.scheduleTrigger',
]);
const INSTANT_TRIGGER = 'n8n-nodes-work-order-service.workOrderServiceTrigger';

/** Text cut at a word boundary (never mid-word), with "…" when cut. @param {unknown} value @param {number} max */
function short(value, max = 100) {
	const text = String(value ?? '')
		.replace(/\s+/g, ' ')
		.trim();
	if (text.length <= max) return text;
	const cut = text.slice(0, max - 1);
	const space = cut.lastIndexOf(' ');
	return `${(space > max / 2 ? cut.slice(0, space) : cut).replace(/[\s,.;:]+$/, '')}…`;
}

/** Bytes as a person reads them. @param {unknown} n */
function size(n) {
	const b = Number(n);
	if (!Number.isFinite(b)) return 'size unknown';
	return b < 1024
		? `${b} bytes`
		: b < 1024 * 1024
			? `${(b / 1024).toFixed(1)} KB`
			: `${(b / 1024 / 1024).toFixed(1)} MB`;
}

/** A record the demo has no sentence for: its scalar fields, whole ones only, up to `max` characters. @param {any} json @param {number} max */
function fields(json, max = 110) {
	const parts = [];
	let length = 0;
	const entries = Object.entries(json).filter(
		([, v]) => v !== null && v !== '' && typeof v !== 'object',
	);
	for (const [k, v] of entries) {
		const part = `${k} ${typeof v === 'string' ? short(v, 40) : v}`;
		if (parts.length && length + part.length + 2 > max) break;
		parts.push(part);
		length += part.length + 2;
	}
	const rest = Object.keys(json).length - parts.length;
	return `${parts.join(', ')}${rest > 0 ? ` (+${rest} more fields)` : ''}`;
}

/** The files an item carries, as "-> file NAME (TYPE, SIZE) in binary KEY". @param {any} item */
function filesOf(item) {
	return Object.entries(item.binary ?? {})
		.map(
			([key, b]) =>
				` -> file ${/** @type {any} */ (b).fileName} (${/** @type {any} */ (b).mimeType}, ${size(/** @type {any} */ (b).bytes)}) in binary "${key}"`,
		)
		.join('');
}

/** One readable line for an item. @param {any} json */
function describe(json) {
	if (json.error) return `ERROR (kept as an item by "Continue On Fail"): ${json.error}`;
	if (json.success === true && json.operation) {
		const { success, operation, ...rest } = json;
		return `${operation} done: ${fields(rest)}`;
	}
	if (json.headers && json.body && typeof json.body === 'object')
		return `request received: ${fields(json.body)}`;
	if (json.CheckListResponse) {
		const r = json.CheckListResponse;
		const p = json.CheckListResponsePicture;
		const comment = r.FreeTextAnswer ? ` (comment: "${short(r.FreeTextAnswer, 60)}")` : '';
		const picture = p && p.Id ? `photo ${p.DocumentName} stored as picture ${p.Id}` : 'no photo';
		return `answer ${r.Id} to question ${r.CheckListQuestionId} on work order ${r.WorkOrderId ?? r.EntityId}: "${short(r.Answer, 100)}"${comment}; ${picture}`;
	}
	if (json.proposalId !== undefined && json.status)
		return `proposal ${json.proposalId} is now ${json.status === 'onHold' ? 'on hold' : json.status}`;
	if (json.MechanicId !== undefined)
		return `check-in/out ${json.MechanicId} recorded on work order ${json.workOrderId}`;
	if (json.success === true && json.operation) {
		// a write: what was done, the IDs passed and the IDs the service returned
		const ids =
			json.id !== undefined
				? `, new ID ${json.id}`
				: json.ids
					? `, new IDs ${json.ids.join(', ')}`
					: '';
		const on = json.noteId !== undefined ? `note ${json.noteId} of ` : '';
		const wo = json.workOrderId !== undefined ? ` on ${on}work order ${json.workOrderId}` : '';
		return `${json.operation} done${wo}${ids}`;
	}
	if (json.Amount !== undefined && json.Status && json.Status.Primary !== undefined) {
		const where = json.Location?.Name ? ` at ${json.Location.Name}` : '';
		return `proposal ${json.Id} (${json.Number}): ${json.Amount} ${json.Currency?.AlphabeticalCode ?? ''}, ${json.Status.Primary}${where}: "${short(json.Description, 50)}"`;
	}
	if (json.WoTrackingNumber !== undefined && json.InvoiceTotal !== undefined)
		return `invoice ${json.Id} (${json.Number}) of work order ${json.WoTrackingNumber}: ${json.InvoiceTotal} ${json.Currency?.AlphabeticalCode ?? ''}, ${json.Status}, balance ${json.InvoiceBalance}`;
	if (json.Uri !== undefined && json.Name !== undefined)
		return `attachment ${json.Id}: ${json.Name} (${json.Uri.startsWith('http') ? new URL(json.Uri).origin : json.Uri})`;
	if (json.NoteData !== undefined) return `note ${json.Id}: "${short(json.NoteData, 70)}"`;
	if (json.Number !== undefined && json.Status) {
		const number = String(json.Number) === String(json.Id) ? '' : ` (number ${json.Number})`;
		const where = json.Location && json.Location.Name ? ` at ${json.Location.Name}` : '';
		return `work order ${json.Id}${number}: ${json.Trade} / ${json.Category}${where}, ${json.Status.Primary} (${json.Status.Extended})`;
	}
	if (json.Tag !== undefined && json.Type !== undefined && json.LocationId !== undefined)
		return `asset ${json.Id} ${json.Tag}: ${json.Type} (${json.Trade}, ${json.Manufacturer} ${json.ModelNo}) at location ${json.LocationId}`;
	if (json.MechanicId !== undefined)
		return `check-in/out ${json.MechanicId} recorded on work order ${json.workOrderId}`;
	if (json.Uri !== undefined && json.Name !== undefined) {
		const on = json.NoteId !== null && json.NoteId !== undefined ? ` on note ${json.NoteId}` : '';
		return `attachment ${json.Id}: ${json.Name}${on} (${json.Uri})`;
	}
	if (json.Code !== undefined && json.Description !== undefined)
		return `rejection reason ${json.Id} ${json.Code}: ${json.Description}`;
	if (json.ParentId !== undefined && json.Name !== undefined)
		return `child subscriber ${json.Id} ${json.Name} (of ${json.ParentId}${json.IsActive === false ? ', inactive' : ''})`;
	return fields(json);
}

/** Example 11: each approved invoice's payment recorded once, in bulk requests. @param {any} emulator @param {any} result */
function paymentsRecorded(emulator, result) {
	const out = result.outputs['Record their payments in one batch'] ?? [];
	const recorded = out.filter((/** @type {any} */ o) => o.json.result === 'recorded');
	const once = recorded.every(
		(/** @type {any} */ o) =>
			emulator
				.invoice(o.json.invoiceId)
				.Payments.filter((/** @type {any} */ p) => p.PaymentNumber === o.json.paymentNumber)
				.length === 1,
	);
	const bulk = emulator.requests.filter(
		(/** @type {any} */ r) => r.method === 'POST' && r.path === '/api/v3/invoices/Payments',
	).length;
	console.log(
		`  In the service: ${recorded.length} payment(s) recorded in ${bulk} bulk request(s), each once: ${once ? 'yes' : 'NO'}`,
	);
	return out.length > 0 && recorded.length > 0 && once;
}

/** Example 08: the work order the alarm created holds the chart and a note of the alarm. @param {any} emulator @param {any} result */
function alarmRecorded(emulator, result) {
	const id = result.outputs['Create work order']?.[0]?.json?.id;
	const files = emulator.state.attachments
		.filter((/** @type {any} */ a) => a.WorkOrderId === id)
		.map((/** @type {any} */ a) => a.FileName);
	const noted =
		id !== undefined &&
		emulator.notesOf(id).some((/** @type {any} */ n) => /alarm A-20417/.test(n.NoteData ?? n.Note));
	console.log(
		`  In the service: work order ${id}, files ${files.join(', ') || 'none'}, alarm noted: ${noted ? 'yes' : 'NO'}`,
	);
	return files.includes('rtu1-trend.png') && noted;
}

/** Example 10: the refrigeration work order carries the walk-in freezer and a note names it. @param {any} emulator @param {any} result */
function assetRecorded(emulator, result) {
	const id = result.outputs['Create work order']?.[0]?.json?.id;
	const wo = id === undefined ? undefined : emulator.workOrder(id);
	const asset = wo?.Asset;
	const noted =
		asset &&
		emulator
			.notesOf(id)
			.some((/** @type {any} */ n) => String(n.NoteData ?? '').includes(asset.Tag));
	console.log(
		`  In the service: work order ${id} (${wo?.Trade}, provider ${wo?.Provider?.Name}), asset ${asset ? `${asset.Id} ${asset.Tag} ${asset.Type}` : 'NONE'}, note names it: ${noted ? 'yes' : 'NO'}`,
	);
	return wo?.Trade === 'REFRIGERATION' && asset?.Type === 'Walk-in Freezer' && !!noted;
}

async function main() {
	const started = Date.now();
	const emulator = await startEmulator({});
	const harness = await createHarness({ packageDir: ROOT });
	for (const c of demoCredentials(emulator))
		harness.credentials.set(c.id, { name: c.name, type: c.type, data: c.data });

	const files = fs
		.readdirSync(__dirname)
		.filter((f) => /^\d\d-.*\.json$/.test(f))
		.filter((f) => !only || f.startsWith(only))
		.sort();
	/** @type {any[]} */
	const report = [];
	let failed = 0;
	console.log(`Work Order Service emulator: API ${emulator.baseUrl}/v3, auth ${emulator.authUrl}`);
	for (const file of files) {
		const { entry, ok } = await runExample(emulator, harness, file);
		if (!ok) failed++;
		report.push(entry);
	}
	if (!only || only === 'instant') {
		const ok = await instantEvent(emulator, harness);
		if (!ok) failed++;
	}
	console.log(
		`\n${files.length} workflow(s), ${failed} failure(s), ${emulator.requests.length} requests to the emulator, ${((Date.now() - started) / 1000).toFixed(1)} s`,
	);
	if (asJson)
		fs.writeFileSync(path.join(ROOT, 'demo-output.json'), JSON.stringify(report, null, 2));
	await harness.close();
	await emulator.close();
	process.exitCode = failed ? 1 : 0;
}

/**
 * Runs one example workflow and prints what each step produced; an example started by the instant
 * trigger is activated instead (instantExample).
 * @param {any} emulator @param {any} harness @param {string} file
 */
async function runExample(emulator, harness, file) {
	const workflow = JSON.parse(fs.readFileSync(path.join(__dirname, file), 'utf8'));
	if (workflow.nodes.some((/** @type {any} */ n) => n.type === INSTANT_TRIGGER)) {
		const ok = await instantExample(emulator, harness, workflow, file);
		return { entry: { file, name: workflow.name, status: ok ? 'success' : 'error' }, ok };
	}
	const before = emulator.requests.length;
	const t0 = Date.now();
	// a workflow started by "another system" (Webhook node): activated, called with the sample request
	const result = startsWithWebhook(workflow)
		? await runWebhookWorkflow(harness, workflow, () => alarmForm())
		: await harness.run(workflow, { timeoutMs: 60_000 });
	const ms = Date.now() - t0;
	const requests = emulator.requests.slice(before);
	const tokenCalls = requests.filter((/** @type {any} */ r) => r.path.startsWith('/auth/')).length;
	console.log(
		`\n=== ${workflow.name} (${file}) — ${result.status}, ${ms} ms, ${requests.length} HTTP requests (${tokenCalls} to the token endpoints)`,
	);
	if (workflow.meta?.description) console.log(`    ${workflow.meta.description}`);
	const entry = {
		file,
		name: workflow.name,
		status: result.status,
		ms,
		requests: requests.length,
		tokenRequests: tokenCalls,
		steps: /** @type {any[]} */ ([]),
	};
	for (const nodeName of result.executionOrder) {
		const node = workflow.nodes.find((/** @type {any} */ n) => n.name === nodeName);
		if (!node || HELPER_TYPES.has(node.type)) continue;
		const out = result.outputs[nodeName] ?? [];
		console.log(`  • ${nodeName}: ${out.length} item(s)`);
		out
			.slice(0, 3)
			.forEach((/** @type {any} */ item) =>
				console.log(`      ${describe(item.json)}${filesOf(item)}`),
			);
		if (out.length > 3) console.log(`      ... and ${out.length - 3} more`);
		entry.steps.push({ node: nodeName, items: out.map((/** @type {any} */ i) => i.json) });
	}
	if (result.status !== 'success')
		console.log(`  ✗ failed: ${result.error?.message ?? 'unknown error'}`);
	return { entry, ok: result.status === 'success' && afterExample(emulator, file, result) };
}

/** What some examples show after their run; false when a check fails. @param {any} emulator @param {string} file @param {any} result */
function afterExample(emulator, file, result) {
	if (file.startsWith('02-')) {
		const notes = emulator.state.notifications.slice(-6);
		console.log(`  Notifications the service would have sent:`);
		for (const n of notes)
			console.log(`      proposal ${n.proposalId} ${n.action}: ${n.recipients.join(', ')}`);
	}
	if (file.startsWith('03-')) {
		const created = result.outputs['Create note']?.[0]?.json?.id;
		const readBack = result.outputs['Read the note back']?.[0]?.json?.Id;
		const exact =
			typeof created === 'string' && BigInt(created) > 2n ** 53n && created === readBack;
		console.log(
			`  64-bit note ID check: created ${created}, read back ${readBack} -> ${exact ? 'exact (above 2^53, every digit kept)' : 'MISMATCH'}`,
		);
		return exact;
	}
	if (file.startsWith('08-')) return alarmRecorded(emulator, result);
	if (file.startsWith('11-')) return paymentsRecorded(emulator, result);
	if (file.startsWith('12-')) return assetRecorded(emulator, result);
	return true;
}

/**
 * An instant event end to end: the webhook trigger is activated (it registers its webhook with the
 * emulator), a work order changes status in the emulator, the signed delivery reaches the harness's
 * webhook URL over HTTP and starts the workflow. The credential is the emulator's administrator.
 * @param {any} emulator @param {any} harness
 */
async function instantEvent(emulator, harness) {
	const client = emulator.fixtures.clients.main;
	const admin = emulator.fixtures.users.manager;
	harness.credentials.set('wosInstantDemo', {
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
	});
	const workflow = {
		id: 'instantDemo',
		name: 'Instant event: a work order completed',
		nodes: [
			{
				id: 'instant-trigger',
				name: 'Work Order Service Trigger',
				type: 'n8n-nodes-work-order-service.workOrderServiceTrigger',
				typeVersion: 1,
				position: [0, 0],
				webhookId: '0b7c4f3e-9a61-4d2b-8f0e-5c1d2a3b4c5d',
				parameters: {
					authentication: 'password',
					events: ['WorkOrderStatusChanged'],
					rules: { statuses: 'COMPLETED' },
				},
				credentials: {
					workOrderServiceApi: {
						id: 'wosInstantDemo',
						name: 'Work Order Service (emulator, Super Admin)',
					},
				},
			},
			{
				id: 'instant-alert',
				name: 'Alert text',
				type: 'n8n-nodes-base.set',
				typeVersion: 3.4,
				position: [220, 0],
				parameters: {
					mode: 'raw',
					jsonOutput:
						'={{ { alert: "Work order " + $json.Object.Id + " at " + $json.Object.LocationName + " is " + $json.Object.Status.Primary } }}',
				},
			},
		],
		connections: {
			'Work Order Service Trigger': { main: [[{ node: 'Alert text', type: 'main', index: 0 }]] },
		},
		settings: { executionOrder: 'v1' },
	};
	console.log(`\n=== ${workflow.name} (webhook trigger, activated in n8n-core)`);
	const hook = await harness.activateWebhook(workflow);
	if (hook.activation.error) {
		console.log(`  ✗ activation failed: ${hook.activation.error.message}`);
		return false;
	}
	const [registered] = emulator.webhooks.hooks.values();
	console.log(
		`  • activated: webhook ${registered.Id} registered at ${registered.Url} (${registered.Subscriptions.map((x) => x.EventTypes.join(', ')).join('; ')}, statuses ${registered.Subscriptions[0].Rules.Statuses.join(', ')})`,
	);
	const [t0, deliveriesBefore] = [Date.now(), emulator.deliveries.length];
	emulator.setWorkOrderStatus(90000004, 'COMPLETED', 'PENDING CONFIRMATION');
	emulator.setWorkOrderStatus(90000003, 'IN PROGRESS', 'ON SITE'); // not COMPLETED: the service sends nothing
	const [execution] = await hook.waitForExecutions(1, 10_000);
	await emulator.webhooksIdle();
	const delivery = emulator.deliveries[deliveriesBefore];
	const item = execution.items[0].json;
	console.log(
		`  • the emulator changed work order 90000004 to COMPLETED: one signed POST (Sign-Data ${delivery.headers['sign-data'].slice(0, 10)}...), answered ${delivery.status} in ${delivery.durationMs} ms`,
	);
	console.log(
		`  • n8n started one execution ${Date.now() - t0} ms after the change: ${item.EventType} ${item.Action}, work order ${item.Object.Id} [${item.Object.Status.Primary}/${item.Object.Status.Extended}]`,
	);
	console.log(`      ${execution.outputs['Alert text'][0].json.alert}`);
	const off = await hook.deactivate();
	console.log(
		`  • deactivated: webhook deleted (${off.calls[0].result ? 'ok' : 'failed'}), the emulator holds ${emulator.webhooks.hooks.size} webhook(s)`,
	);
	return (
		execution.status === 'success' &&
		emulator.deliveries.length === deliveriesBefore + 1 &&
		emulator.webhooks.hooks.size === 0
	);
}

/**
 * The events an instant example is shown with (by file): what the emulator does while the
 * workflow is active, and what must have become of it.
 */
const INSTANT_EXAMPLES = {
	/** Two proposals created: the small one is approved by the workflow, the large one stays open. */
	'07': {
		act: (/** @type {any} */ emulator) => [
			emulator.createProposal({
				WorkOrderId: 90000003,
				Amount: 350,
				Description: 'Replace the faucet cartridge',
			}),
			emulator.createProposal({
				WorkOrderId: 90000001,
				Amount: 1800,
				Description: 'Replace the rooftop unit fan motor',
			}),
		],
		check: (/** @type {any} */ emulator, /** @type {any[]} */ [small, large]) => {
			const states = [small, large].map(
				(p) => `proposal ${p.Id} (${p.Amount}) is ${emulator.state.proposals[p.Id].Status}`,
			);
			return {
				ok:
					emulator.state.proposals[small.Id].Status === 'Approved' &&
					emulator.state.proposals[large.Id].Status === 'Open',
				text: states.join(', '),
			};
		},
	},
	/** Two invoices posted: the one within its work order's NTE is approved, the one above is put on hold. */
	10: {
		act: (/** @type {any} */ emulator) => [
			emulator.createInvoice({ WorkOrderId: 90000003 }),
			emulator.createInvoice({ WorkOrderId: 90000001, OverNte: true }),
		],
		check: (/** @type {any} */ emulator, /** @type {any[]} */ [within, above]) => {
			const states = [within, above].map(
				(inv) =>
					`invoice ${inv.Id} (${inv.InvoiceTotal}, NTE ${emulator.workOrder(inv.WoTrackingNumber).Nte}) is ${emulator.invoice(inv.Id).Status}`,
			);
			return {
				ok:
					emulator.invoice(within.Id).Status === 'Approved' &&
					emulator.invoice(above.Id).Status === 'On Hold',
				text: states.join(', '),
			};
		},
	},
};

/**
 * An example whose trigger is the instant (webhook) trigger: activated in n8n-core (it registers
 * its webhook with the emulator), the emulator makes the example's events, each signed delivery
 * starts one execution, then the workflow is deactivated.
 * @param {any} emulator @param {any} harness @param {any} workflow @param {string} file
 */
async function instantExample(emulator, harness, workflow, file) {
	const example = /** @type {Record<string, any>} */ (INSTANT_EXAMPLES)[file.slice(0, 2)];
	console.log(`\n=== ${workflow.name} (${file}, webhook trigger activated in n8n-core)`);
	if (workflow.meta?.description) console.log(`    ${workflow.meta.description}`);
	if (!example) {
		console.log('  ✗ no events are scripted for this example in run-demo.js');
		return false;
	}
	const hook = await harness.activateWebhook(workflow);
	if (hook.activation.error) {
		console.log(`  ✗ activation failed: ${hook.activation.error.message}`);
		return false;
	}
	const made = example.act(emulator);
	const executions = await hook.waitForExecutions(made.length, 20_000);
	for (const execution of executions) {
		const event = execution.items[0].json;
		console.log(`  • ${event.EventType} ${event.Object.Id}: execution ${execution.status}`);
		for (const node of workflow.nodes.slice(1)) {
			const out = execution.outputs[node.name];
			if (out)
				out.forEach((/** @type {any} */ item) =>
					console.log(`      ${node.name}: ${describe(item.json)}`),
				);
		}
	}
	await hook.deactivate();
	const { ok, text } = example.check(emulator, made);
	console.log(
		`  ${ok ? '•' : '✗'} ${text}; deactivated, the emulator holds ${emulator.webhooks.hooks.size} webhook(s)`,
	);
	return (
		ok &&
		executions.every((/** @type {any} */ e) => e.status === 'success') &&
		emulator.webhooks.hooks.size === 0
	);
}

main().catch((error) => {
	console.error(error);
	// the emulator and the harness hold open servers: a crash must not leave the command hanging
	process.exit(1);
});
