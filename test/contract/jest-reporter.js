'use strict';
/**
 * Jest reporter of the contract test (README.md): once every test file ran, reads what each file's
 * collector wrote (WOS_CONTRACT_DIR), prints which of the reference's operations the suite
 * exercised and which of the node's operations it ran, prints every violation with its test file
 * and test, and fails the run (getLastError) when there is one.
 */
const fs = require('node:fs');
const path = require('node:path');
const { operations } = require('./reference');

const ROOT = path.resolve(__dirname, '..', '..');

/** The node's operations from its built description: `workOrderService <resource>.<operation>`, the triggers' events. */
function nodeOperations() {
	const out = [];
	try {
		const dist = path.join(ROOT, 'dist', 'nodes', 'WorkOrderService');
		const { WorkOrderService } = require(path.join(dist, 'WorkOrderService.node.js'));
		for (const p of new WorkOrderService().description.properties) {
			if (p.name !== 'operation' || !p.displayOptions?.show?.resource) continue;
			for (const resource of p.displayOptions.show.resource)
				for (const o of p.options) out.push(`workOrderService ${resource}.${o.value}`);
		}
		const { WorkOrderServicePollingTrigger } = require(
			path.join(dist, 'WorkOrderServicePollingTrigger.node.js'),
		);
		const event = new WorkOrderServicePollingTrigger().description.properties.find(
			(p) => p.name === 'event',
		);
		for (const o of event?.options ?? []) out.push(`workOrderServicePollingTrigger ${o.value}`);
		const { WorkOrderServiceTrigger } = require(path.join(dist, 'WorkOrderServiceTrigger.node.js'));
		const events = new WorkOrderServiceTrigger().description.properties.find(
			(p) => p.name === 'events',
		);
		for (const o of events?.options ?? []) out.push(`workOrderServiceTrigger ${o.value}`);
	} catch {
		/* not built: the list is left out */
	}
	return out;
}

/** @param {string} dir */
function readResults(dir) {
	const summaries = [];
	const violations = [];
	for (const name of fs.readdirSync(dir)) {
		const file = path.join(dir, name);
		if (name.endsWith('.summary.json')) summaries.push(JSON.parse(fs.readFileSync(file, 'utf8')));
		if (name.endsWith('.violations.jsonl')) {
			for (const line of fs.readFileSync(file, 'utf8').split('\n'))
				if (line.trim()) violations.push(JSON.parse(line));
		}
	}
	return { summaries, violations };
}

/** @param {Array<Record<string, number>>} maps */
function sum(maps) {
	const out = {};
	for (const m of maps) for (const [k, v] of Object.entries(m || {})) out[k] = (out[k] || 0) + v;
	return out;
}

/** Part C operations the reference has and this connector does not use (service-reference-c.md). */
const NOT_FOR_CONNECTOR = new Set([
	'PUT /locations/{locationId}',
	'DELETE /locations/{locationId}',
]);

class ContractReporter {
	constructor() {
		this._error = undefined;
	}

	getLastError() {
		return this._error;
	}

	onRunComplete() {
		const dir = process.env.WOS_CONTRACT_DIR;
		if (!dir || !fs.existsSync(dir)) return;
		const { summaries, violations } = readResults(dir);
		fs.rmSync(dir, { recursive: true, force: true });
		const lines = [];
		const requests = summaries.reduce((n, s) => n + s.requests, 0);
		const deliberate = summaries.reduce((n, s) => n + s.deliberate, 0);
		const count = violations.reduce((n, v) => n + v.violations.length, 0);
		lines.push(
			'',
			`contract: ${requests} requests of ${summaries.filter((s) => s.requests).length} test files validated against test/contract/service-reference.json and service-reference-c.json; ${count} violation${count === 1 ? '' : 's'} (${deliberate} deliberately invalid requests of the emulator's own tests not counted)`,
		);

		const exercised = sum(summaries.map((s) => s.operations));
		const reference = operations.filter((o) => o.source === 'reference');
		const hit = reference.filter((o) => exercised[o.id]);
		lines.push(`contract: reference operations exercised: ${hit.length} of ${reference.length}`);
		for (const o of reference)
			lines.push(
				`  ${exercised[o.id] ? `${String(exercised[o.id]).padStart(6)}x` : '      -'} ${o.id}`,
			);
		const partC = operations.filter((o) => o.source === 'reference-c');
		const hitC = partC.filter((o) => exercised[o.id]);
		lines.push(
			`contract: part C operations exercised (service-reference-c.json): ${hitC.length} of ${partC.length}`,
		);
		for (const o of partC)
			lines.push(
				`  ${exercised[o.id] ? `${String(exercised[o.id]).padStart(6)}x` : '      -'} ${o.id} (part C${NOT_FOR_CONNECTOR.has(o.id) ? ', not for this connector' : ''})`,
			);
		// the 12 invoice endpoints of part C (issue 33): which the tests called, and which the node's own tests
		const invoices = partC.filter((o) => /^\/(odata\/)?invoices\b/i.test(o.path));
		const byNode = sum(
			summaries.filter((s) => /^test\/node\//.test(s.file || '')).map((s) => s.operations),
		);
		const missing = invoices.filter((o) => !exercised[o.id]).map((o) => o.id);
		const nodeMissing = invoices.filter((o) => !byNode[o.id]).map((o) => o.id);
		lines.push(
			`contract: part C invoice endpoints called: ${invoices.length - missing.length} of ${invoices.length}${missing.length ? `; not called: ${missing.join(', ')}` : ''}; by the node's tests (test/node/): ${invoices.length - nodeMissing.length} of ${invoices.length}${nodeMissing.length && nodeMissing.length < invoices.length ? `; not by them: ${nodeMissing.join(', ')}` : ''}`,
		);
		// issue 34: the places around a work order (service-reference-c.md: "PUT and DELETE on a
		// location exist and are not for this connector", so they are not counted)
		const places = partC.filter(
			(o) => /locations|assets|trades|providers/.test(o.path) && !NOT_FOR_CONNECTOR.has(o.id),
		);
		lines.push(
			`contract: part C locations, assets, trades, providers: ${places.filter((o) => exercised[o.id]).length} of ${places.length} exercised (${[...NOT_FOR_CONNECTOR].join(' and ')}: not for this connector, not counted)`,
		);
		for (const o of operations.filter((x) => x.source === 'contract' && exercised[x.id]))
			lines.push(`  ${String(exercised[o.id]).padStart(6)}x ${o.id} (contract)`);

		const ran = sum(summaries.map((s) => s.nodeOperations));
		const all = nodeOperations();
		if (all.length) {
			const covered = all.filter((o) => ran[o]);
			lines.push(
				`contract: node operations run: ${covered.length} of ${all.length}${covered.length && covered.length < all.length ? `; not run: ${all.filter((o) => !ran[o]).join(', ')}` : ''}`,
			);
			const methods = Object.keys(ran).filter((k) => /listSearch|loadOptions/.test(k));
			if (methods.length) lines.push(`contract: node methods run: ${methods.sort().join(', ')}`);
		}

		if (count) {
			lines.push(
				'contract: VIOLATIONS (each request that departs from the reference, with the test that sent it):',
			);
			for (const v of violations) {
				lines.push(`  ${v.file} > ${v.test}`);
				lines.push(
					`    ${v.method} ${v.url} -> ${v.status}${v.operation ? ` (${v.operation})` : ''}`,
				);
				for (const x of v.violations)
					lines.push(`      [${x.side === 'answer' ? x.kind : `request: ${x.kind}`}] ${x.message}`);
			}
			this._error = new Error(
				`contract: ${count} violation(s) of the service reference (listed above)`,
			);
		}
		process.stdout.write(`${lines.join('\n')}\n`);
	}
}

module.exports = ContractReporter;
