'use strict';
/**
 * Pure parts of the trigger (compiled, from dist/): date-times and zones, filter clauses, the
 * stored state and the bounded status memory.
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
	test('the sort key of a record: its Dto instant and its Id (int64 kept exact)', () => {
		const a = reader.toVersion({ Id: '9007199254740993', UpdatedDate: '2026-10-25T02:30:00.000', UpdatedDateDto: '2026-10-25T02:30:00.000+01:00' }, 'UpdatedDate');
		const b = reader.toVersion({ Id: 9007199254740991, UpdatedDate: '2026-10-25T02:45:00.000', UpdatedDateDto: '2026-10-25T02:45:00.000+02:00' }, 'UpdatedDate');
		expect(a.key).toBe('9007199254740993@2026-10-25T01:30:00.000Z');
		expect(b.key).toBe('9007199254740991@2026-10-25T00:45:00.000Z');
		// 02:45 +02:00 happened before 02:30 +01:00
		expect(reader.compareVersions(b, a)).toBe(-1);
		const c = reader.toVersion({ Id: '9007199254740995', UpdatedDateDto: '2026-10-25T02:30:00.000+01:00' }, 'UpdatedDate');
		expect(reader.compareVersions(a, c)).toBe(-1);
		expect(reader.toVersion({ Id: 'x', UpdatedDateDto: '2026-10-25T02:30:00.000+01:00' }, 'UpdatedDate')).toBeUndefined();
		expect(reader.toVersion({ Id: 1 }, 'UpdatedDate')).toBeUndefined();
		expect(reader.recordInstant({ CallDate: '2026-01-01T00:00:00.000', CallDateDto: '2026-01-01T00:00:00.000-05:00' }, 'CallDate')).toBe(Date.parse('2026-01-01T05:00:00Z'));
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
	const valid = { version: 1, event: 'workOrderUpdated', startDate: '', cursor: '2026-01-01T00:00:00.000Z', seen: ['1@2026-01-01T00:00:00.000Z'] };

	test('a stored state is used only for the same event and start date; anything unreadable starts afresh', () => {
		expect(state.readState({ state: valid }, 'workOrderUpdated', '')).toEqual(valid);
		expect(state.readState({ state: valid }, 'workOrderCreated', '')).toBeUndefined();
		expect(state.readState({ state: valid }, 'workOrderUpdated', '2026-01-01')).toBeUndefined();
		expect(state.readState({}, 'workOrderUpdated', '')).toBeUndefined();
		expect(state.readState({ state: { ...valid, cursor: 'x' } }, 'workOrderUpdated', '')).toBeUndefined();
		expect(state.readState({ state: { ...valid, seen: [1] } }, 'workOrderUpdated', '')).toBeUndefined();
		expect(state.readState({ state: { ...valid, version: 2 } }, 'workOrderUpdated', '')).toBeUndefined();
		expect(state.keyId('9007199254740993@2026-01-01T00:00:00.000Z')).toBe('9007199254740993');
		expect(state.keyInstant('1@2026-01-01T00:00:00.000Z')).toBe(Date.parse('2026-01-01T00:00:00Z'));
	});

	test('the status memory keeps the most recently seen work orders up to its cap, statuses stored once', () => {
		const memory = new state.StatusMemory(undefined, 3);
		memory.see('1', 'OPEN\u001fA');
		memory.see('2', 'OPEN\u001fA');
		memory.see('3', 'DONE\u001f');
		memory.see('1', 'OPEN\u001fB'); // seen again: most recent
		memory.see('4', 'OPEN\u001fA'); // over the cap: '2' (least recently seen) is forgotten
		expect(memory.size).toBe(3);
		expect(memory.has('2')).toBe(false);
		const stored = memory.toState();
		expect(stored).toEqual({ statusValues: ['DONE\u001f', 'OPEN\u001fB', 'OPEN\u001fA'], statuses: [['3', 0], ['1', 1], ['4', 2]] });
		const restored = new state.StatusMemory(stored, 3);
		expect(restored.get('1')).toBe('OPEN\u001fB');
		expect(restored.toState()).toEqual(stored);
		expect(state.STATUS_MEMORY_CAP).toBe(5000);
		expect(state.statusSignature({ Status: { Primary: 'OPEN', Extended: null } })).toBe(state.statusSignature({ Status: { Primary: 'OPEN', Extended: '' } }));
		expect(state.statusSignature({ Status: { Primary: 'OPEN', Extended: 'X' } })).not.toBe(state.statusSignature({ Status: { Primary: 'OPEN' } }));
	});
});
