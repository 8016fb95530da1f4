'use strict';
/**
 * The trigger's date-times and zones (trigger/time, compiled, from dist/), without HTTP: local
 * times in a zone (daylight saving gaps and overlaps), HTTP dates, the cursor literal.
 */
const path = require('path');

const DIST = path.resolve(__dirname, '..', '..', 'dist', 'nodes', 'WorkOrderService', 'trigger');
const time = require(path.join(DIST, 'time'));

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

	test.each([
		'2026-03-29T01:30:00',
		'2026-02-30T00:00:00Z',
		'2026-13-01T00:00:00Z',
		'yesterday',
		'',
		'2026-01-01T00:00:00+15:00',
		42,
	])('instantOf(%p) is undefined (no offset or not a date-time)', (text) => {
		expect(time.instantOf(text)).toBeUndefined();
	});

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

	test.each([
		// a plain date-time the service wrote is US Eastern local time (daylight saving included), never UTC
		['2026-07-01T12:00:00', '2026-07-01T16:00:00.000Z'],
		['2026-01-15T12:00:00.500', '2026-01-15T17:00:00.500Z'],
		['2026-11-01T01:30:00', '2026-11-01T05:30:00.000Z'], // the fall-back overlap: the earlier instant
		['2026-03-08T02:30:00', '2026-03-08T07:30:00.000Z'], // the spring-forward gap: moved forward
		['2026-11-01T01:30:00-05:00', '2026-11-01T06:30:00.000Z'], // an offset wins
		['2026-11-01T01:30:00Z', '2026-11-01T01:30:00.000Z'],
	])('serviceInstant(%s) = %s', (text, expected) => {
		expect(new Date(time.serviceInstant(text)).toISOString()).toBe(expected);
	});

	test.each([
		['2026-07-01T16:00:00Z', '2026-07-01T12:00:00.000-04:00'],
		['2026-01-15T17:00:00.250Z', '2026-01-15T12:00:00.250-05:00'],
		['2026-11-01T05:30:00Z', '2026-11-01T01:30:00.000-04:00'],
		['2026-11-01T06:30:00Z', '2026-11-01T01:30:00.000-05:00'],
		['2026-03-08T07:00:00Z', '2026-03-08T03:00:00.000-04:00'],
		['2026-03-08T06:59:59.999Z', '2026-03-08T01:59:59.999-05:00'],
	])('the $filter literal of %s is US Eastern with its explicit offset: %s', (instant, literal) => {
		expect(time.filterLiteral(Date.parse(instant))).toBe(literal);
		expect(Date.parse(literal)).toBe(Date.parse(instant));
	});

	test('the state keeps instants in UTC (toODataInstant), no "+" anywhere', () => {
		expect(time.toODataInstant(Date.parse('2026-03-29T01:30:00+02:00'))).toBe(
			'2026-03-28T23:30:00.000Z',
		);
		expect(time.parseHttpDate('Sun, 29 Mar 2026 01:30:05 GMT')).toBe(
			Date.parse('2026-03-29T01:30:05Z'),
		);
		expect(time.parseHttpDate('soon')).toBeUndefined();
		expect(time.isKnownZone('Europe/Berlin')).toBe(true);
		expect(time.isKnownZone('Mars/Olympus')).toBe(false);
	});
});
