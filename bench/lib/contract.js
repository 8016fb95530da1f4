'use strict';
/**
 * The contract test inside the bench: every request any emulator of the bench process receives is
 * validated against the service's reference (test/contract/), as under `npm test`. The emulator
 * reports each logged request to `globalThis.__WOS_CONTRACT__` (test/contract/observe.js); this
 * collector only queues it while a case runs (no validation on the timed path) and validates the
 * queue when the case ends (`drain`), with the same rules and answer sampling as the jest collector.
 * Violations are kept per case; bench/run.js prints them and fails the run on any.
 */
const { ContractCollector } = require('../../test/contract/collector');

class BenchContract extends ContractCollector {
	constructor() {
		super({ testPath: __filename, root: __dirname });
		/** @type {string} the case whose requests arrive now */
		this.caseName = '(no case)';
		/** @type {any[]} entries waiting for validation */
		this.queue = [];
		/** @type {Record<string, { requests: number, violations: any[] }>} */
		this.byCase = {};
	}

	/** Starts counting for a case (the entries of the previous one are validated first). */
	begin(caseName) {
		this.drain();
		this.caseName = caseName;
		this.byCase[caseName] ??= { requests: 0, violations: [] };
	}

	currentTest() {
		return this.caseName;
	}

	record(entry) {
		this.queue.push({ entry, caseName: this.caseName });
	}

	/** Validates what was queued; returns this case's counts. */
	drain() {
		const queue = this.queue;
		this.queue = [];
		for (const { entry, caseName } of queue) {
			const name = this.caseName;
			this.caseName = caseName;
			this.byCase[caseName] ??= { requests: 0, violations: [] };
			const before = this.requests;
			super.record(entry);
			this.byCase[caseName].requests += this.requests - before;
			this.caseName = name;
		}
		return this.byCase[this.caseName];
	}

	append(line) {
		(this.byCase[line.test] ??= { requests: 0, violations: [] }).violations.push(line);
	}

	flushSoon() {}

	flush() {}
}

/** Installs the collector for this process (the emulator's `observe` finds it). */
function installBenchContract() {
	const collector = new BenchContract();
	globalThis.__WOS_CONTRACT__ = collector;
	return collector;
}

module.exports = { installBenchContract, BenchContract };
