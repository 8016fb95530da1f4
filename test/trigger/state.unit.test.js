'use strict';
/**
 * The trigger's stored state (trigger/state, compiled, from dist/), without HTTP: which stored
 * state is used, the version 1 take-over, and the status memory's encoding and bound.
 */
const path = require('path');

const DIST = path.resolve(__dirname, '..', '..', 'dist', 'nodes', 'WorkOrderService', 'trigger');
const state = require(path.join(DIST, 'state'));

describe('state', () => {
	const valid = {
		version: 2,
		event: 'workOrderUpdated',
		startDate: '',
		origin: '2026-01-01T00:00:00.000Z',
		cursor: '2026-01-01T00:00:00.000Z',
		seen: ['1@2026-01-01T00:00:00.000Z#abcdefgh'],
	};

	test('a stored state is used only for the same event and start date; anything unreadable starts afresh', () => {
		expect(state.readState({ state: valid }, 'workOrderUpdated', '')).toEqual(valid);
		expect(state.readState({ state: valid }, 'workOrderCreated', '')).toBeUndefined();
		expect(state.readState({ state: valid }, 'workOrderUpdated', '2026-01-01')).toBeUndefined();
		expect(state.readState({}, 'workOrderUpdated', '')).toBeUndefined();
		expect(
			state.readState({ state: { ...valid, cursor: 'x' } }, 'workOrderUpdated', ''),
		).toBeUndefined();
		expect(
			state.readState({ state: { ...valid, origin: undefined } }, 'workOrderUpdated', ''),
		).toBeUndefined();
		expect(
			state.readState({ state: { ...valid, seen: [1] } }, 'workOrderUpdated', ''),
		).toBeUndefined();
		expect(
			state.readState({ state: { ...valid, seen: ['not a key'] } }, 'workOrderUpdated', ''),
		).toBeUndefined();
		expect(
			state.readState({ state: { ...valid, version: 3 } }, 'workOrderUpdated', ''),
		).toBeUndefined();
		// Status Changed needs its statuses
		expect(
			state.readState(
				{ state: { ...valid, event: 'workOrderStatusChanged' } },
				'workOrderStatusChanged',
				'',
			),
		).toBeUndefined();
		expect(state.keyId('9007199254740993@2026-01-01T00:00:00.000Z')).toBe('9007199254740993');
		expect(state.keyInstant('1@2026-01-01T00:00:00.000Z#abcdefgh')).toBe(
			Date.parse('2026-01-01T00:00:00Z'),
		);
	});

	test('a version 1 state is taken over: its cursor is T0, its keys (no digest) kept; Status Changed keeps its statuses and reads the others', () => {
		const v1 = {
			version: 1,
			event: 'workOrderUpdated',
			startDate: '',
			cursor: '2026-01-01T00:00:00.000Z',
			seen: ['1@2026-01-01T00:00:10.000Z'],
			resume: { after: '1@2026-01-01T00:00:10.000Z', skip: 49 },
		};
		expect(state.readState({ state: v1 }, 'workOrderUpdated', '')).toEqual({
			...v1,
			version: 2,
			origin: v1.cursor,
		});
		expect(state.readState({ state: v1 }, 'workOrderUpdated', '2026-01-01')).toBeUndefined();
		const v1Status = {
			version: 1,
			event: 'workOrderStatusChanged',
			startDate: '2025-12-01',
			cursor: '2026-01-01T00:00:00.000Z',
			seen: [],
			statusValues: ['OPEN\u001fA', 'DONE\u001f'],
			statuses: [
				['7', 1],
				['3', 0],
				['bad', 0],
				['9', 5],
			],
		};
		const taken = state.readState({ state: v1Status }, 'workOrderStatusChanged', '');
		expect(taken).toMatchObject({
			version: 2,
			origin: v1Status.cursor,
			cursor: v1Status.cursor,
			baseline: {},
		});
		const memory = state.StatusMemory.decode(taken.statuses);
		expect(memory.size).toBe(2);
		expect(memory.get('3')).toBe('OPEN\u001fA');
		expect(memory.get('7')).toBe('DONE\u001f');
	});

	test('the status memory: ids sorted and delta-encoded, statuses as indexes into a table; the lowest ids forgotten beyond the limit', () => {
		const memory = new state.StatusMemory();
		memory.set('90000003', 'DONE\u001f');
		memory.set('90000001', 'OPEN\u001fA');
		memory.set('9223372036854775807', 'OPEN\u001fA');
		memory.set('90000002', 'OPEN\u001fB');
		const encoded = memory.encode(10);
		expect(encoded).toEqual({
			values: ['OPEN\u001fA', 'OPEN\u001fB', 'DONE\u001f'],
			ids: `1hl0g1,1,1,${(9223372036854775807n - 90000003n).toString(36)}`,
			codes: 'ABCA',
			width: 1,
		});
		const back = state.StatusMemory.decode(encoded);
		expect(back.get('9223372036854775807')).toBe('OPEN\u001fA');
		expect(back.get('90000002')).toBe('OPEN\u001fB');
		expect(back.encode(10)).toEqual(encoded);
		// over the limit: the lowest ids go, and are known as forgotten
		const limited = memory.encode(2);
		expect(limited.forgottenBelow).toBe('90000002');
		const small = state.StatusMemory.decode(limited);
		expect(small.size).toBe(2);
		expect(small.forgot('90000001')).toBe(true);
		expect(small.forgot('90000002')).toBe(true);
		expect(small.forgot('90000003')).toBe(false);
		// more than 64 distinct statuses: two characters per code
		const wide = new state.StatusMemory();
		for (let i = 0; i < 70; i++) wide.set(String(1000 + i), `S${i}\u001f`);
		const w = wide.encode(1000);
		expect(w.width).toBe(2);
		expect(w.codes).toHaveLength(140);
		expect(state.StatusMemory.decode(w).get('1069')).toBe('S69\u001f');
		// 50,000 dense ids with a few statuses: about 3 bytes each
		const big = new state.StatusMemory();
		for (let i = 0; i < 50_000; i++)
			big.set(
				String(90000001 + i),
				['OPEN\u001fA', 'DONE\u001f', 'IN PROGRESS\u001fON SITE'][i % 3],
			);
		expect(JSON.stringify(big.encode(100_000)).length).toBeLessThan(160_000);
		expect(state.statusSignature({ Status: { Primary: 'OPEN', Extended: null } })).toBe(
			state.statusSignature({ Status: { Primary: 'OPEN', Extended: '' } }),
		);
		expect(state.statusSignature({ Status: { Primary: 'OPEN', Extended: 'X' } })).not.toBe(
			state.statusSignature({ Status: { Primary: 'OPEN' } }),
		);
		expect(() => state.StatusMemory.decode({ ...encoded, codes: 'AB' })).toThrow();
	});
});
