'use strict';
/**
 * The window read's rules (trigger/reader.ts), without HTTP: the query it sends, when a page is
 * read again from further back (the one-record overlap), when the window ends, and the status
 * read's keyset query. The pages themselves are read with transport/paging.ts (ODATA_VALUE_LIST).
 */
const path = require('path');

const DIST = path.resolve(__dirname, '..', '..', 'dist', 'nodes', 'WorkOrderService');
const reader = require(path.join(DIST, 'trigger', 'reader'));
const paging = require(path.join(DIST, 'transport', 'paging'));

const at = (ms, id) => ({ ms, idValue: BigInt(id) });

describe('window query', () => {
	test('the date field from the cursor, the filters ANDed, oldest first; $top/$skip/$count from the OData list shape', () => {
		const qs = reader.windowQuery({
			field: 'UpdatedDate',
			fromMs: Date.parse('2026-05-01T10:00:00Z'),
			clauses: ['LocationId eq 501', '(Nte gt 1000)'],
		});
		// the literal: US Eastern local time with its explicit offset (EDT in May)
		expect(qs).toEqual({
			$filter:
				'UpdatedDate ge 2026-05-01T06:00:00.000-04:00 and LocationId eq 501 and (Nte gt 1000)',
			$orderby: 'UpdatedDate asc,Id asc',
		});
		expect(Object.keys(qs)).toEqual(['$filter', '$orderby']);
		expect(paging.ODATA_VALUE_LIST.pageQuery({ page: 2, offset: 98, size: 50 })).toEqual({
			$top: 50,
			$skip: 98,
			$count: true,
		});
		expect(reader.windowQuery({ field: 'CallDate', fromMs: 0, clauses: [] })).toEqual({
			$filter: 'CallDate ge 1969-12-31T19:00:00.000-05:00',
			$orderby: 'CallDate asc,Id asc',
		});
		// across the November fall-back the offset tells the two 01:30 apart
		expect(
			reader.windowQuery({
				field: 'UpdatedDate',
				fromMs: Date.parse('2026-11-01T05:30:00Z'),
				clauses: [],
			}).$filter,
		).toBe('UpdatedDate ge 2026-11-01T01:30:00.000-04:00');
		expect(
			reader.windowQuery({
				field: 'UpdatedDate',
				fromMs: Date.parse('2026-11-01T06:30:00Z'),
				clauses: [],
			}).$filter,
		).toBe('UpdatedDate ge 2026-11-01T01:30:00.000-05:00');
		// and the March spring-forward: 02:30 does not exist in US Eastern
		expect(
			reader.windowQuery({
				field: 'UpdatedDate',
				fromMs: Date.parse('2026-03-08T07:30:00Z'),
				clauses: [],
			}).$filter,
		).toBe('UpdatedDate ge 2026-03-08T03:30:00.000-04:00');
	});
});

describe('overlap acceptance', () => {
	const last = at(1000, 7);

	test('a page whose first record is the last one read (or before it) is accepted', () => {
		expect(reader.mustStepBack([at(1000, 7), at(1001, 1)], 49, last)).toBe(false);
		expect(reader.mustStepBack([at(999, 9)], 49, last)).toBe(false);
		expect(reader.mustStepBack([at(1000, 6)], 49, last)).toBe(false);
	});

	test('a first record beyond the last one read, or an empty page, means records moved: step back', () => {
		expect(reader.mustStepBack([at(1000, 8)], 49, last)).toBe(true);
		expect(reader.mustStepBack([at(1001, 1)], 49, last)).toBe(true);
		expect(reader.mustStepBack([], 49, last)).toBe(true);
	});

	test('the first page (offset 0, or nothing read yet) is always accepted', () => {
		expect(reader.mustStepBack([at(5000, 1)], 0, last)).toBe(false);
		expect(reader.mustStepBack([], 49, undefined)).toBe(false);
	});

	test('stepping back: one page less the overlap record, not below 0', () => {
		expect(reader.stepBack(98)).toBe(49);
		expect(reader.stepBack(49)).toBe(0);
		expect(reader.stepBack(10)).toBe(0);
	});
});

describe('end of the window', () => {
	test('a short page ends it, unless @odata.count says more follow', () => {
		expect(reader.isWindowEnd(49, 0, undefined)).toBe(true);
		expect(reader.isWindowEnd(20, 49, 69)).toBe(true);
		expect(reader.isWindowEnd(20, 49, 120)).toBe(false);
		expect(reader.isWindowEnd(50, 49, 99)).toBe(false);
	});

	test('a page holding only the overlap record (or nothing) ends it', () => {
		expect(reader.isWindowEnd(1, 49, 500)).toBe(true);
		expect(reader.isWindowEnd(0, 0, 500)).toBe(true);
		expect(reader.isWindowEnd(1, 0, 500)).toBe(false);
	});
});

describe('status read query', () => {
	test('updated before T0, below the last Id read, newest Ids first, only the fields it needs', () => {
		const originMs = Date.parse('2026-05-01T10:00:00Z');
		expect(
			reader.baselineQuery({ clauses: ['LocationId eq 501'], originMs, before: 90000050n }),
		).toEqual({
			$filter:
				'UpdatedDate lt 2026-05-01T06:00:00.000-04:00 and Id lt 90000050 and LocationId eq 501',
			$orderby: 'Id desc',
			$top: 50,
			$select: 'Id,Status,UpdatedDate,UpdatedDate_DTO',
		});
		expect(reader.baselineQuery({ clauses: [], originMs }).$filter).toBe(
			'UpdatedDate lt 2026-05-01T06:00:00.000-04:00',
		);
	});
});
