'use strict';
/**
 * Pure parts of the trigger (compiled, from dist/): date-times and zones, filter clauses, the
 * stored state, version keys and the status memory.
 */
const path = require('path');
const { NodeOperationError } = require('n8n-workflow');

const DIST = path.resolve(__dirname, '..', '..', 'dist', 'nodes', 'WorkOrderService', 'trigger');
const time = require(path.join(DIST, 'time'));
const filter = require(path.join(DIST, 'filter'));
const state = require(path.join(DIST, 'state'));
const reader = require(path.join(DIST, 'reader'));

const NODE = { id: 'n', name: 'Work Order Service Trigger', type: 't', typeVersion: 1, position: [0, 0], parameters: {} };

describe('time', () => {
	test.each([
		['2026-03-29T01:30:00.000+01:00', Date.parse('2026-03-29T00:30:00Z')],
		['2026-03-29T03:30:00.000+02:00', Date.parse('2026-03-29T01:30:00Z')],
		['2026-10-25T02:30:00.000+02:00', Date.parse('2026-10-25T00:30:00Z')],
		['2026-10-25T02:30:00.000+01:00', Date.parse('2026-10-25T01:30:00Z')],
		['2026-01-01T00:00:00Z', Date.parse('2026-01-01T00:00:00Z')],
		['2026-01-01T05:30:00.1234567+05:30', Date.parse('2026-01-01T00:00:00.123Z')],
		['2026-01-01T00:00:00-0500', Date.parse('2026-01-01T05:00:00Z')],
	])('instantOf(%s)', (text, expected) => {
		expect(time.instantOf(text)).toBe(expected);
	});

	test.each(['2026-03-29T01:30:00', '2026-02-30T00:00:00Z', '2026-13-01T00:00:00Z', 'yesterday', '', '2026-01-01T00:00:00+15:00', 42])(
		'instantOf(%p) is undefined (no offset or not a date-time)',
		(text) => {
			expect(time.instantOf(text)).toBeUndefined();
		},
	);

	test.each([
		['Europe/Berlin', '2026-03-29T01:30:00', '2026-03-29T00:30:00.000Z'], // before the spring change
		['Europe/Berlin', '2026-03-29T02:30:00', '2026-03-29T01:30:00.000Z'], // in the gap: moved forward (03:30 +02:00)
		['Europe/Berlin', '2026-10-25T02:30:00', '2026-10-25T00:30:00.000Z'], // in the overlap: the earlier instant
		['Europe/Berlin', '2026-10-25T03:30:00', '2026-10-25T02:30:00.000Z'],
		['America/New_York', '2026-11-01T01:30:00', '2026-11-01T05:30:00.000Z'],
		['America/New_York', '2026-07-01T12:00:00.250', '2026-07-01T16:00:00.250Z'],
		['UTC', '2026-07-01T12:00:00', '2026-07-01T12:00:00.000Z'],
	])('a wall time in %s: %s is %s', (zone, wall, expected) => {
		const { wallMs } = time.parseDateTime(wall);
		expect(new Date(time.zonedWallTimeToInstant(wallMs, zone)).toISOString()).toBe(expected);
	});

	test('the cursor literal is UTC with milliseconds and Z (no "+" to be read as a space in a query string)', () => {
		expect(time.toODataInstant(Date.parse('2026-03-29T01:30:00+02:00'))).toBe('2026-03-28T23:30:00.000Z');
		expect(time.parseHttpDate('Sun, 29 Mar 2026 01:30:05 GMT')).toBe(Date.parse('2026-03-29T01:30:05Z'));
		expect(time.parseHttpDate('soon')).toBeUndefined();
		expect(time.isKnownZone('Europe/Berlin')).toBe(true);
		expect(time.isKnownZone('Mars/Olympus')).toBe(false);
	});
});

describe('records', () => {
	test('the sort key of a record: its Dto instant and its Id (int64 kept exact); the version key adds a content digest', () => {
		const a = reader.toVersion({ Id: '9007199254740993', UpdatedDate: '2026-10-25T02:30:00.000', UpdatedDateDto: '2026-10-25T02:30:00.000+01:00' }, 'UpdatedDate');
		const b = reader.toVersion({ Id: 9007199254740991, UpdatedDate: '2026-10-25T02:45:00.000', UpdatedDateDto: '2026-10-25T02:45:00.000+02:00' }, 'UpdatedDate');
		expect(a.key).toMatch(/^9007199254740993@2026-10-25T01:30:00\.000Z#[A-Za-z0-9_-]{8}$/);
		expect(b.key).toMatch(/^9007199254740991@2026-10-25T00:45:00\.000Z#[A-Za-z0-9_-]{8}$/);
		// 02:45 +02:00 happened before 02:30 +01:00
		expect(reader.compareVersions(b, a)).toBe(-1);
		const c = reader.toVersion({ Id: '9007199254740995', UpdatedDateDto: '2026-10-25T02:30:00.000+01:00' }, 'UpdatedDate');
		expect(reader.compareVersions(a, c)).toBe(-1);
		expect(reader.toVersion({ Id: 'x', UpdatedDateDto: '2026-10-25T02:30:00.000+01:00' }, 'UpdatedDate')).toBeUndefined();
		expect(reader.toVersion({ Id: 1 }, 'UpdatedDate')).toBeUndefined();
		expect(reader.recordInstant({ CallDate: '2026-01-01T00:00:00.000', CallDateDto: '2026-01-01T00:00:00.000-05:00' }, 'CallDate')).toBe(Date.parse('2026-01-01T05:00:00Z'));
	});

	test('the content digest: the same for every read of one version (key order, annotations), different for any change in the same second', () => {
		const record = { Id: 5, Status: { Primary: 'OPEN', Extended: null }, UpdatedDateDto: '2026-01-01T00:00:00.000+00:00', Nte: 500 };
		const again = { Nte: 500, UpdatedDateDto: '2026-01-01T00:00:00.000+00:00', Status: { Extended: null, Primary: 'OPEN' }, Id: 5, '@odata.etag': 'W/"1"' };
		expect(state.contentDigest(again)).toBe(state.contentDigest(record));
		expect(reader.toVersion(again, 'UpdatedDate').key).toBe(reader.toVersion(record, 'UpdatedDate').key);
		const changed = { ...record, Status: { Primary: 'COMPLETED', Extended: null } };
		expect(state.contentDigest(changed)).not.toBe(state.contentDigest(record));
		expect(state.contentDigest({ ...record, Nte: '500' })).not.toBe(state.contentDigest(record));
		expect(state.keyWithoutDigest(reader.toVersion(changed, 'UpdatedDate').key)).toBe('5@2026-01-01T00:00:00.000Z');
		expect(state.parseKey('5@2026-01-01T00:00:00.000Z#abcdefgh')).toEqual({ id: '5', ms: Date.parse('2026-01-01T00:00:00Z'), digest: 'abcdefgh' });
		expect(state.parseKey('5@2026-01-01T00:00:00.000Z')).toEqual({ id: '5', ms: Date.parse('2026-01-01T00:00:00Z') });
		expect(state.parseKey('x@2026')).toBeUndefined();
	});
});

describe('filters', () => {
	test('lists become OData clauses; blanks are ignored; quotes doubled', () => {
		expect(filter.readFilters(NODE, {})).toEqual({ clauses: [], statuses: [], statusClause: '' });
		expect(filter.readFilters(NODE, { locationIds: ' 501 ,, 0502 ', trades: "O'Hara", categories: 'A,B', statuses: 'Open', filter: '  Nte gt 5 ' })).toEqual({
			clauses: ['(LocationId eq 501 or LocationId eq 502)', "Trade eq 'O''Hara'", "(Category eq 'A' or Category eq 'B')", '(Nte gt 5)'],
			statuses: ['open'],
			statusClause: "Status/Primary eq 'Open'",
		});
		expect(filter.joinClauses([])).toBeUndefined();
		expect(filter.matchesStatus({ Status: { Primary: 'OPEN' } }, ['open'])).toBe(true);
		expect(filter.matchesStatus({ Status: { Primary: 'COMPLETED' } }, ['open'])).toBe(false);
		expect(filter.matchesStatus({ Status: null }, [])).toBe(true);
	});

	test.each([
		[{ locationIds: '-1' }, /Location IDs.*"-1" is not a positive whole number/],
		[{ locationIds: '0' }, /"0" is not a positive whole number/],
		[{ filter: '$filter=Nte gt 1' }, /OData Filter.*without "\$filter="/],
		[{ filter: 42 }, /OData Filter.*must be text/],
	])('refused: %p', (filters, message) => {
		expect(() => filter.readFilters(NODE, filters)).toThrow(NodeOperationError);
		expect(() => filter.readFilters(NODE, filters)).toThrow(message);
	});
});

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
		expect(state.readState({ state: { ...valid, cursor: 'x' } }, 'workOrderUpdated', '')).toBeUndefined();
		expect(state.readState({ state: { ...valid, origin: undefined } }, 'workOrderUpdated', '')).toBeUndefined();
		expect(state.readState({ state: { ...valid, seen: [1] } }, 'workOrderUpdated', '')).toBeUndefined();
		expect(state.readState({ state: { ...valid, seen: ['not a key'] } }, 'workOrderUpdated', '')).toBeUndefined();
		expect(state.readState({ state: { ...valid, version: 3 } }, 'workOrderUpdated', '')).toBeUndefined();
		// Status Changed needs its statuses
		expect(state.readState({ state: { ...valid, event: 'workOrderStatusChanged' } }, 'workOrderStatusChanged', '')).toBeUndefined();
		expect(state.keyId('9007199254740993@2026-01-01T00:00:00.000Z')).toBe('9007199254740993');
		expect(state.keyInstant('1@2026-01-01T00:00:00.000Z#abcdefgh')).toBe(Date.parse('2026-01-01T00:00:00Z'));
	});

	test('a version 1 state is taken over: its cursor is T0, its keys (no digest) kept; Status Changed keeps its statuses and reads the others', () => {
		const v1 = { version: 1, event: 'workOrderUpdated', startDate: '', cursor: '2026-01-01T00:00:00.000Z', seen: ['1@2026-01-01T00:00:10.000Z'], resume: { after: '1@2026-01-01T00:00:10.000Z', skip: 49 } };
		expect(state.readState({ state: v1 }, 'workOrderUpdated', '')).toEqual({ ...v1, version: 2, origin: v1.cursor });
		expect(state.readState({ state: v1 }, 'workOrderUpdated', '2026-01-01')).toBeUndefined();
		const v1Status = {
			version: 1,
			event: 'workOrderStatusChanged',
			startDate: '2025-12-01',
			cursor: '2026-01-01T00:00:00.000Z',
			seen: [],
			statusValues: ['OPEN\u001fA', 'DONE\u001f'],
			statuses: [['7', 1], ['3', 0], ['bad', 0], ['9', 5]],
		};
		const taken = state.readState({ state: v1Status }, 'workOrderStatusChanged', '');
		expect(taken).toMatchObject({ version: 2, origin: v1Status.cursor, cursor: v1Status.cursor, baseline: {} });
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
		expect(encoded).toEqual({ values: ['OPEN\u001fA', 'OPEN\u001fB', 'DONE\u001f'], ids: `1hl0g1,1,1,${(9223372036854775807n - 90000003n).toString(36)}`, codes: 'ABCA', width: 1 });
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
		for (let i = 0; i < 50_000; i++) big.set(String(90000001 + i), ['OPEN\u001fA', 'DONE\u001f', 'IN PROGRESS\u001fON SITE'][i % 3]);
		expect(JSON.stringify(big.encode(100_000)).length).toBeLessThan(160_000);
		expect(state.statusSignature({ Status: { Primary: 'OPEN', Extended: null } })).toBe(state.statusSignature({ Status: { Primary: 'OPEN', Extended: '' } }));
		expect(state.statusSignature({ Status: { Primary: 'OPEN', Extended: 'X' } })).not.toBe(state.statusSignature({ Status: { Primary: 'OPEN' } }));
		expect(() => state.StatusMemory.decode({ ...encoded, codes: 'AB' })).toThrow();
	});
});
