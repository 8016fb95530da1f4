'use strict';
/**
 * The webhook trigger's memory of bodies seen (webhook/dedupe, compiled, from dist/), without
 * HTTP: its 20-minute horizon and its size bound, which a test through n8n cannot wait for.
 */
const { ROOT } = require('../support');

const dedupe = require(`${ROOT}/dist/nodes/WorkOrderService/webhook/dedupe.js`);

describe('bodies seen', () => {
	test('a body is a repeat within 20 minutes and new again after them, per scope', () => {
		const scope = `units-${Math.random()}`;
		const body = Buffer.from('{"a":1}');
		const t0 = 1_000_000;
		expect(dedupe.isRepeat(scope, body, t0)).toBe(false);
		expect(dedupe.isRepeat(scope, body, t0 + 15 * 60_000)).toBe(true);
		expect(dedupe.isRepeat(`${scope}-other`, body, t0 + 15 * 60_000)).toBe(false);
		expect(dedupe.isRepeat(scope, body, t0 + dedupe.DEDUPE_HORIZON_MS)).toBe(false);
		expect(dedupe.DEDUPE_HORIZON_MS).toBeGreaterThanOrEqual(3 * 5 * 60_000);
	});

	test('the memory is bounded: beyond its capacity the oldest bodies are forgotten first', () => {
		const recent = new dedupe.RecentBodies(60_000, 3);
		for (const d of ['a', 'b', 'c', 'd']) expect(recent.checkAndRemember(d, 1)).toBe(false);
		expect(recent.size).toBe(3);
		expect(recent.checkAndRemember('d', 2)).toBe(true);
		expect(recent.checkAndRemember('a', 2)).toBe(false);
		// expired entries leave as time passes
		expect(recent.checkAndRemember('e', 70_000)).toBe(false);
		expect(recent.size).toBe(1);
	});
});
