'use strict';
/**
 * The status read's policy (trigger/baseline.ts), without HTTP: where the read goes after each page,
 * when it has settled, what a page teaches the status memory.
 */
const path = require('path');

const DIST = path.resolve(__dirname, '..', '..', 'dist', 'nodes', 'WorkOrderService', 'trigger');
const baseline = require(path.join(DIST, 'baseline'));
const state = require(path.join(DIST, 'state'));

describe('after a status page', () => {
	test('a full page: continue below its lowest Id, remembering the largest page', () => {
		expect(baseline.afterBaselinePage({}, { size: 50, lowest: 900n }, undefined)).toEqual({
			after: '900',
			page: 50,
		});
		expect(
			baseline.afterBaselinePage({ after: '900', page: 50 }, { size: 50, lowest: 850n }, 900n),
		).toEqual({ after: '850', page: 50 });
	});

	test('a first short page is confirmed by an empty one; a page shorter than an earlier one ends the read', () => {
		expect(baseline.afterBaselinePage({}, { size: 20, lowest: 10n }, undefined)).toEqual({
			after: '10',
			page: 20,
		});
		expect(baseline.afterBaselinePage({ after: '10', page: 20 }, { size: 0 }, 10n)).toBe('settled');
		expect(
			baseline.afterBaselinePage({ after: '900', page: 50 }, { size: 12, lowest: 3n }, 900n),
		).toBe('settled');
		expect(
			baseline.afterBaselinePage({ after: '900', page: 30 }, { size: 12, lowest: 3n }, 900n),
		).toBe('settled');
		expect(
			baseline.afterBaselinePage({ after: '900', page: 30 }, { size: 30, lowest: 3n }, 900n),
		).toEqual({ after: '3', page: 30 });
	});

	test('a page with Ids the keyset clause should have left out (or none usable) cannot go on', () => {
		expect(
			baseline.afterBaselinePage({ after: '900', page: 50 }, { size: 50, lowest: 900n }, 900n),
		).toBe('unfiltered');
		expect(baseline.afterBaselinePage({}, { size: 3 }, undefined)).toBe('unfiltered');
	});

	test('everything below the forgotten Ids need not be read', () => {
		const memory = new state.StatusMemory();
		expect(baseline.belowForgotten(100n, memory)).toBe(false);
		memory.forgottenBelow = 99n;
		expect(baseline.belowForgotten(100n, memory)).toBe(true);
		expect(baseline.belowForgotten(101n, memory)).toBe(false);
		expect(baseline.belowForgotten(undefined, memory)).toBe(false);
	});

	test('a page teaches the T0 status of work orders not seen since and not forgotten', () => {
		const memory = new state.StatusMemory();
		memory.set('5', 'COMPLETED\u001f');
		memory.forgottenBelow = 2n;
		baseline.rememberT0Statuses(memory, [
			{ id: '5', record: { Status: { Primary: 'OPEN' } } },
			{ id: '4', record: { Status: { Primary: 'OPEN', Extended: 'DISPATCHED' } } },
			{ id: '2', record: { Status: { Primary: 'OPEN' } } },
		]);
		expect(memory.get('5')).toBe('COMPLETED\u001f');
		expect(memory.get('4')).toBe('OPEN\u001fDISPATCHED');
		expect(memory.has('2')).toBe(false);
	});
});
