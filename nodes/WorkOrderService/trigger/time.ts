/**
 * Instants for the trigger. Every comparison the trigger makes is between instants (epoch
 * milliseconds) read from the service's own date fields, never between wall times: the offset
 * twin of a date (`UpdatedDate_DTO` on work orders) carries its UTC offset, so records written on
 * either side of a daylight-saving change, or in another location's zone, compare correctly; a
 * plain date-time without a twin is US Eastern, the service's local time (helpers/dateTime.ts).
 * The only other wall time the trigger reads is a Start Date without an offset, which is taken in
 * the workflow's time zone.
 */

import { SERVICE_TIME_ZONE, serviceDateTime, zoneOffsetMs } from '../helpers/dateTime';

export {
	SERVICE_TIME_ZONE,
	instantOf,
	isKnownZone,
	parseDateTime,
	serviceInstant,
	zoneOffsetMs,
	zonedWallTimeToInstant,
	type WallTime,
} from '../helpers/dateTime';

/** `2026-03-29T01:30:00.000Z`: an instant as the trigger keeps it in its state (UTC). */
export function toODataInstant(ms: number): string {
	return new Date(ms).toISOString();
}

/**
 * An instant as the trigger writes it into `$filter`: US Eastern local time with its explicit
 * offset (`2026-11-01T01:30:00.000-04:00`), the service's own zone, so that it reads the same
 * whether the service honours the offset or compares wall times. (A `+` would need %2B in a query
 * string; the client encodes it.)
 */
export function filterLiteral(ms: number): string {
	return serviceDateTime(ms);
}

/** An HTTP `Date` header (RFC 7231) in ms; undefined when absent or unreadable. */
export function parseHttpDate(value: string | undefined): number | undefined {
	if (value === undefined || value.trim() === '') return undefined;
	const ms = Date.parse(value);
	return Number.isFinite(ms) ? ms : undefined;
}

const HOUR_MS = 3_600_000;

/**
 * Whether `ms`, read from a plain US Eastern date-time (the earlier of its readings, as
 * `serviceInstant` reads it), may stand for the instant an hour later: its wall time is one of the
 * hour the November fall-back repeats (01:00 to 01:59). A record dated 01:30 EST (no twin to tell)
 * reads as 01:30 EDT.
 */
export function isAmbiguousReading(ms: number): boolean {
	return (
		zoneOffsetMs(SERVICE_TIME_ZONE, ms) - zoneOffsetMs(SERVICE_TIME_ZONE, ms + HOUR_MS) === HOUR_MS
	);
}

/**
 * The instant a read "from `ms` on" of plain US Eastern dates (no twin) starts from, so that it
 * misses nothing whether the service compares instants or wall times: `ms` itself, except in the
 * hour before the November fall-back, where the wall clock is about to repeat from 01:00: then the
 * start of that hour (01:00 EDT), whose wall time is at or before every wall time that follows.
 */
export function wallSafeFrom(ms: number): number {
	const offset = zoneOffsetMs(SERVICE_TIME_ZONE, ms);
	const drop = offset - zoneOffsetMs(SERVICE_TIME_ZONE, ms + HOUR_MS);
	if (drop <= 0) return ms;
	// the change is within the next hour: find it (to the minute; zones change on whole minutes)
	let low = Math.floor(ms / 60_000) * 60_000;
	let high = ms + HOUR_MS;
	while (high - low > 60_000) {
		const mid = Math.floor((low + high) / 2 / 60_000) * 60_000;
		if (zoneOffsetMs(SERVICE_TIME_ZONE, mid) === offset) low = mid;
		else high = mid;
	}
	return Math.min(ms, high - drop);
}
