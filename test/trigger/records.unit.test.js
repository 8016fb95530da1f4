'use strict';
/**
 * A record's place in the trigger's reading (trigger/reader and state, compiled, from dist/),
 * without HTTP: its sort key (Dto instant and int64 Id) and its version key (a content digest).
 */
const path = require('path');

const DIST = path.resolve(__dirname, '..', '..', 'dist', 'nodes', 'WorkOrderService', 'trigger');
const reader = require(path.join(DIST, 'reader'));
const state = require(path.join(DIST, 'state'));

describe('records', () => {
	test('the sort key of a record: its Dto instant and its Id (int64 kept exact); the version key adds a content digest', () => {
		const a = reader.toVersion(
			{
				Id: '9007199254740993',
				UpdatedDate: '2026-10-25T02:30:00.000',
				UpdatedDate_DTO: '2026-10-25T02:30:00.000+01:00',
			},
			'UpdatedDate',
		);
		const b = reader.toVersion(
			{
				Id: 9007199254740991,
				UpdatedDate: '2026-10-25T02:45:00.000',
				UpdatedDate_DTO: '2026-10-25T02:45:00.000+02:00',
			},
			'UpdatedDate',
		);
		expect(a.key).toMatch(/^9007199254740993@2026-10-25T01:30:00\.000Z#[A-Za-z0-9_-]{8}$/);
		expect(b.key).toMatch(/^9007199254740991@2026-10-25T00:45:00\.000Z#[A-Za-z0-9_-]{8}$/);
		// 02:45 +02:00 happened before 02:30 +01:00
		expect(reader.compareVersions(b, a)).toBe(-1);
		const c = reader.toVersion(
			{ Id: '9007199254740995', UpdatedDate_DTO: '2026-10-25T02:30:00.000+01:00' },
			'UpdatedDate',
		);
		expect(reader.compareVersions(a, c)).toBe(-1);
		expect(
			reader.toVersion(
				{ Id: 'x', UpdatedDate_DTO: '2026-10-25T02:30:00.000+01:00' },
				'UpdatedDate',
			),
		).toBeUndefined();
		expect(reader.toVersion({ Id: 1 }, 'UpdatedDate')).toBeUndefined();
		expect(
			reader.recordInstant(
				{ CallDate: '2026-01-01T00:00:00.000', CallDate_DTO: '2026-01-01T00:00:00.000-05:00' },
				'CallDate',
			),
		).toBe(Date.parse('2026-01-01T05:00:00Z'));
	});

	test("the instant of a work order date: its twin under the work order's name (_DTO), in any zone; without one the plain date is US Eastern, never UTC", () => {
		// the twin in the location's zone (Dallas) and the plain date in US Eastern: one instant
		expect(
			reader.recordInstant(
				{
					UpdatedDate: '2026-07-01T12:00:00.000',
					UpdatedDate_DTO: '2026-07-01T11:00:00.000-05:00',
				},
				'UpdatedDate',
			),
		).toBe(Date.parse('2026-07-01T16:00:00Z'));
		// the older spelling is not the work order's twin: ignored, the plain date read as Eastern
		expect(
			reader.recordInstant(
				{ UpdatedDate: '2026-07-01T12:00:00.000', UpdatedDateDto: '2026-07-01T12:00:00.000+00:00' },
				'UpdatedDate',
			),
		).toBe(Date.parse('2026-07-01T16:00:00Z'));
		// no twin: Eastern local time with daylight saving (EST in January, EDT in July)
		expect(reader.recordInstant({ UpdatedDate: '2026-01-15T12:00:00' }, 'UpdatedDate')).toBe(
			Date.parse('2026-01-15T17:00:00Z'),
		);
		expect(reader.recordInstant({ CallDate: '2026-07-15T12:00:00' }, 'CallDate')).toBe(
			Date.parse('2026-07-15T16:00:00Z'),
		);
		// in the fall-back overlap the plain text is ambiguous: the twin decides
		const first = reader.recordInstant(
			{ UpdatedDate: '2026-11-01T01:30:00', UpdatedDate_DTO: '2026-11-01T01:30:00-04:00' },
			'UpdatedDate',
		);
		const second = reader.recordInstant(
			{ UpdatedDate: '2026-11-01T01:30:00', UpdatedDate_DTO: '2026-11-01T00:30:00-06:00' },
			'UpdatedDate',
		);
		expect(second - first).toBe(3_600_000);
		expect(reader.recordInstant({ UpdatedDate: 'soon' }, 'UpdatedDate')).toBeUndefined();
	});

	test('the content digest: the same for every read of one version (key order, annotations), different for any change in the same second', () => {
		const record = {
			Id: 5,
			Status: { Primary: 'OPEN', Extended: null },
			UpdatedDate_DTO: '2026-01-01T00:00:00.000+00:00',
			Nte: 500,
		};
		const again = {
			Nte: 500,
			UpdatedDate_DTO: '2026-01-01T00:00:00.000+00:00',
			Status: { Extended: null, Primary: 'OPEN' },
			Id: 5,
			'@odata.etag': 'W/"1"',
		};
		expect(state.contentDigest(again)).toBe(state.contentDigest(record));
		expect(reader.toVersion(again, 'UpdatedDate').key).toBe(
			reader.toVersion(record, 'UpdatedDate').key,
		);
		const changed = { ...record, Status: { Primary: 'COMPLETED', Extended: null } };
		expect(state.contentDigest(changed)).not.toBe(state.contentDigest(record));
		expect(state.contentDigest({ ...record, Nte: '500' })).not.toBe(state.contentDigest(record));
		expect(state.keyWithoutDigest(reader.toVersion(changed, 'UpdatedDate').key)).toBe(
			'5@2026-01-01T00:00:00.000Z',
		);
		expect(state.parseKey('5@2026-01-01T00:00:00.000Z#abcdefgh')).toEqual({
			id: '5',
			ms: Date.parse('2026-01-01T00:00:00Z'),
			digest: 'abcdefgh',
		});
		expect(state.parseKey('5@2026-01-01T00:00:00.000Z')).toEqual({
			id: '5',
			ms: Date.parse('2026-01-01T00:00:00Z'),
		});
		expect(state.parseKey('x@2026')).toBeUndefined();
	});
});
