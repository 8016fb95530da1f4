/**
 * Instants for the trigger. Every comparison the trigger makes is between instants (epoch
 * milliseconds) read from the service's own date fields, never between wall times: the offset
 * twin of a date (`UpdatedDate_DTO` on work orders) carries its UTC offset, so records written on
 * either side of a daylight-saving change, or in another location's zone, compare correctly; a
 * plain date-time without a twin is US Eastern, the service's local time (helpers/dateTime.ts).
 * The only other wall time the trigger reads is a Start Date without an offset, which is taken in
 * the workflow's time zone.
 */

import { serviceDateTime } from '../helpers/dateTime';

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
