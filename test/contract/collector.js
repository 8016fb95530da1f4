// @ts-check
'use strict';

/**
 * What one test file's requests to any emulator did, as the contract test counts it: the
 * reference's operations exercised (how often), the node's operations run (action node resource +
 * operation, polling trigger event, instant trigger, dropdowns and list searches), and every
 * violation with the test that sent the request. Written to CONTRACT_DIR (one JSON file per test
 * file, violations appended as they happen so none is lost) and read by the reporter at the end of
 * the run (jest-reporter.js).
 *
 * Answers are checked too (the emulator's own fidelity): every answer of the first 20 of each
 * operation and status in a file, then every 25th (a scale test sends thousands of pages).
 */

const fs = require('node:fs');
const path = require('node:path');
const crypto = require('node:crypto');
const { check, isDeliberate } = require('./observe');

const ANSWERS_CHECKED_IN_FULL = 20;
const ANSWER_SAMPLE_EVERY = 25;

class ContractCollector {
	/** @param {{ testPath: string, root: string, dir?: string }} o */
	constructor(o) {
		this.file = path.relative(o.root, o.testPath).split(path.sep).join('/');
		this.dir = o.dir;
		/** @type {Record<string, number>} reference operation → requests */
		this.operations = {};
		/** @type {Record<string, number>} node operation → runs */
		this.nodeOperations = {};
		/** @type {Map<string, number>} operation + status → answers seen */
		this.answersSeen = new Map();
		this.requests = 0;
		this.deliberate = 0;
		this.violationCount = 0;
		/** @type {string[]} reasons of the deliberately invalid sends running now (deliberately()) */
		this.deliberateReasons = [];
		this.id = crypto.createHash('sha1').update(this.file).digest('hex').slice(0, 12);
	}

	/** The test running now (jest's expect state), for the report. */
	currentTest() {
		try {
			const state = /** @type {any} */ (globalThis).expect?.getState?.();
			return state && state.currentTestName ? String(state.currentTestName) : '(outside a test)';
		} catch {
			return '(outside a test)';
		}
	}

	/** @param {string} key */
	answerDue(key) {
		const n = (this.answersSeen.get(key) || 0) + 1;
		this.answersSeen.set(key, n);
		return n <= ANSWERS_CHECKED_IN_FULL || n % ANSWER_SAMPLE_EVERY === 0;
	}

	/** @param {any} entry an emulator request log entry */
	record(entry) {
		const key = `${entry.method} ${entry.path} ${entry.status}`;
		const opGuess = this.answerDue(key.replace(/\d+/g, '#'));
		const result = check(entry, { answer: opGuess });
		if (!result) return;
		this.requests++;
		if (result.operation)
			this.operations[result.operation] = (this.operations[result.operation] || 0) + 1;
		this.flushSoon();
		const deliberate = isDeliberate(entry) || this.deliberateReasons.length > 0;
		if (deliberate) this.deliberate++;
		const violations = [
			...result.violations.map((v) => ({ ...v, side: 'request' })),
			...result.answer.map((v) => ({ ...v, side: 'answer' })),
		];
		if (!violations.length) return;
		// a deliberate request's own violations are not counted; the emulator's answer to it is
		const counted = deliberate ? violations.filter((v) => v.side === 'answer') : violations;
		if (!counted.length) return;
		this.violationCount += counted.length;
		this.append({
			file: this.file,
			test: this.currentTest(),
			method: entry.method,
			url:
				entry.rawPath +
				(Object.keys(entry.query || {}).length
					? `?${new URLSearchParams(flatQuery(entry.query)).toString()}`
					: ''),
			status: entry.status,
			operation: result.operation,
			violations: counted,
		});
	}

	/**
	 * Runs `fn`; the requests sent meanwhile are deliberately invalid (a test of a refusal that
	 * goes through the node, which cannot mark its requests): their violations are not counted.
	 * @template T @param {string} reason @param {() => Promise<T>} fn @returns {Promise<T>}
	 */
	async deliberately(reason, fn) {
		this.deliberateReasons.push(reason);
		try {
			return await fn();
		} finally {
			this.deliberateReasons.splice(this.deliberateReasons.indexOf(reason), 1);
		}
	}

	/** @param {string} name e.g. `workOrderService workOrderNote.create` */
	noteNodeOperation(name) {
		this.nodeOperations[name] = (this.nodeOperations[name] || 0) + 1;
		this.flushSoon();
	}

	/**
	 * Notes the node operations of a workflow the harness runs or activates: the action node's
	 * resource and operation, the polling trigger's event, the instant trigger's events.
	 * @param {any} workflow
	 */
	noteWorkflow(workflow) {
		for (const node of (workflow && workflow.nodes) || []) {
			const type = String(node.type || '');
			const params = node.parameters || {};
			if (type.endsWith('.workOrderService'))
				this.noteNodeOperation(
					`workOrderService ${params.resource ?? '(default)'}.${params.operation ?? '(default)'}`,
				);
			else if (type.endsWith('.workOrderServicePollingTrigger'))
				this.noteNodeOperation(
					`workOrderServicePollingTrigger ${params.event ?? 'workOrderUpdated'}`,
				);
			else if (type.endsWith('.workOrderServiceTrigger')) {
				for (const event of [].concat(params.events ?? []))
					this.noteNodeOperation(`workOrderServiceTrigger ${event}`);
			}
		}
	}

	/** @param {any} line */
	append(line) {
		if (!this.dir) return;
		fs.appendFileSync(
			path.join(this.dir, `${this.id}.violations.jsonl`),
			`${JSON.stringify(line)}\n`,
		);
	}

	/** Writes the counts now and then (every 250 ms at most; on every change once the file ended). */
	flushSoon() {
		const now = Date.now();
		if (!this.ended && now - (this.lastFlush || 0) < 250) return;
		this.lastFlush = now;
		this.flush();
	}

	/** Writes the counts of this file (also at its end). */
	flush() {
		if (!this.dir) return;
		const summary = {
			file: this.file,
			requests: this.requests,
			deliberate: this.deliberate,
			violations: this.violationCount,
			operations: this.operations,
			nodeOperations: this.nodeOperations,
		};
		fs.writeFileSync(path.join(this.dir, `${this.id}.summary.json`), JSON.stringify(summary));
	}
}

/** @param {Record<string, any>} query @returns {string[][]} */
function flatQuery(query) {
	/** @type {string[][]} */
	const out = [];
	for (const [k, v] of Object.entries(query))
		for (const one of [].concat(v)) out.push([k, String(one)]);
	return out;
}

module.exports = { ContractCollector };
