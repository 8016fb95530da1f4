'use strict';
/**
 * Where the next poll starts (trigger/cursor.ts), without HTTP: the cursor on the service's clock
 * minus the Lookback Window (never back, not beyond an incomplete read), the version keys kept, and
 * the resume point of a read that stopped before the end.
 */
const path = require('path');

const DIST = path.resolve(__dirname, '..', '..', 'dist', 'nodes', 'WorkOrderService', 'trigger');
const cursor = require(path.join(DIST, 'cursor'));
const state = require(path.join(DIST, 'state'));

const T0 = Date.parse('2026-05-01T10:00:00Z');
const iso = (seconds) => new Date(T0 + seconds * 1000).toISOString();
const key = (id, seconds, digest) => state.versionKey(String(id), T0 + seconds * 1000, digest);
const base = {
	version: 2,
	event: 'workOrderUpdated',
	startDate: '',
	origin: iso(0),
	cursor: iso(0),
	seen: [],
};

describe('resume point', () => {
	test('the stored offset and last record, while the last record is inside the window', () => {
		const stored = { ...base, resume: { after: key(42, 10), skip: 97 } };
		expect(cursor.resumePoint(stored, T0)).toEqual({
			offset: 97,
			last: { ms: T0 + 10_000, idValue: 42n },
		});
		expect(cursor.resumePoint(stored, T0 + 11_000)).toBeUndefined();
		expect(cursor.resumePoint(base, T0)).toBeUndefined();
	});
});

describe('the next cursor', () => {
	test('the service clock: its Date header, else the newest date read, else none', () => {
		expect(cursor.serviceNowOf({ serviceNow: T0 + 5, versions: [{ ms: T0 + 9 }] })).toBe(T0 + 5);
		expect(
			cursor.serviceNowOf({ versions: [{ ms: T0 + 3 }, { ms: T0 + 9 }, { ms: T0 + 1 }] }),
		).toBe(T0 + 9);
		expect(cursor.serviceNowOf({ versions: [] })).toBeUndefined();
	});

	test('the clock minus the lookback, never back; an incomplete read: not beyond the last record read', () => {
		const complete = { complete: true };
		expect(cursor.nextCursorMs(T0, T0 + 120_000, 60_000, complete)).toBe(T0 + 60_000);
		expect(cursor.nextCursorMs(T0, T0 + 30_000, 60_000, complete)).toBe(T0);
		expect(cursor.nextCursorMs(T0, undefined, 60_000, complete)).toBe(T0);
		expect(
			cursor.nextCursorMs(T0, T0 + 120_000, 60_000, { complete: false, safeMs: T0 + 7_000 }),
		).toBe(T0 + 7_000);
		expect(cursor.nextCursorMs(T0, T0 + 120_000, 60_000, { complete: false })).toBe(T0);
	});

	test('the keys kept: those at or after the next cursor, each once', () => {
		expect(
			cursor.keysToKeep(
				[key(1, 1, 'a'), key(2, 5, 'b'), key(3, 9, 'c'), key(2, 5, 'b')],
				T0 + 5_000,
			),
		).toEqual([key(2, 5, 'b'), key(3, 9, 'c')]);
	});

	test('the resume point: after the last record, the offset less the records that leave the front of the window', () => {
		const window = { last: { ms: T0 + 20_000, idValue: 9n }, nextOffset: 98 };
		const keys = [key(1, 1, 'a'), key(1, 1, 'b'), key(2, 3, 'c'), key(3, 12, 'd'), key(4, -5, 'e')];
		// 1@1 (two digests: one record position) and 2@3 lie in [cursor, next cursor)
		expect(cursor.resumeAfter(window, keys, T0, T0 + 10_000)).toEqual({
			after: key(9, 20),
			skip: 96,
		});
		expect(cursor.resumeAfter({ ...window, nextOffset: 1 }, keys, T0, T0 + 10_000).skip).toBe(0);
		expect(cursor.resumeAfter({ nextOffset: 5 }, keys, T0, T0 + 10_000)).toBeUndefined();
	});
});

describe('the next state', () => {
	const settings = { event: 'workOrderUpdated', startDate: '', lookbackMs: 60_000 };

	test('a complete read: cursor on the service clock minus the lookback, the keys at or after it, the baseline copied', () => {
		const stored = { ...base, seen: [key(1, -1, 'a')], baseline: { after: '500', page: 50 } };
		const window = {
			versions: [],
			complete: true,
			serviceNow: T0 + 90_000,
			nextOffset: 0,
			requests: 1,
		};
		const next = cursor.nextState(stored, settings, window, [key(2, 40, 'b'), key(3, 20, 'c')]);
		expect(next).toEqual({
			version: 2,
			event: 'workOrderUpdated',
			startDate: '',
			origin: iso(0),
			cursor: iso(30),
			seen: [key(2, 40, 'b')],
			baseline: { after: '500', page: 50 },
		});
		expect(next.baseline).not.toBe(stored.baseline);
	});

	test('an incomplete read: the cursor stays at the last record read and the read resumes after it', () => {
		const window = {
			versions: [],
			complete: false,
			serviceNow: T0 + 90_000,
			safeMs: T0 + 10_000,
			last: { ms: T0 + 10_000, idValue: 7n },
			nextOffset: 49,
			requests: 1,
		};
		const next = cursor.nextState(base, settings, window, [key(5, 2, 'x'), key(7, 10, 'y')]);
		expect(next.cursor).toBe(iso(10));
		expect(next.seen).toEqual([key(7, 10, 'y')]);
		expect(next.resume).toEqual({ after: key(7, 10), skip: 48 });
	});
});
