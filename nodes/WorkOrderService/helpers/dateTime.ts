/**
 * Date-times as the Work Order Service writes and reads them. The service's reference: a plain
 * date-time (no offset) is the service's local time, US Eastern (with daylight saving); many dates
 * have a twin that carries the offset (`UpdatedDate_DTO` on work orders, `UpdatedDateDto` on
 * checklist responses, ...), possibly in the location's zone. So an instant is read from the twin
 * when there is one, a plain date-time as US Eastern, never as UTC; and a date-time the package
 * sends carries an explicit offset, written in US Eastern (`2026-11-01T01:30:00.000-04:00`), which
 * reads the same whether the service honours the offset or compares wall times.
 */

/** The service's own time zone (the reference: plain date-times are US Eastern local time). */
export const SERVICE_TIME_ZONE = 'America/New_York';

const DATE_TIME =
	/^(\d{4})-(\d{2})-(\d{2})(?:[T ](\d{2}):(\d{2})(?::(\d{2})(?:\.(\d{1,9}))?)?)?\s*(Z|[+-]\d{2}(?::?\d{2})?)?$/i;

export interface WallTime {
	/** The wall time's fields read as if they were UTC, in ms. */
	wallMs: number;
	/** Minutes east of UTC when the text carries an offset (`Z` = 0); undefined for a local time. */
	offsetMinutes?: number;
}

function offsetOf(zone: string): number | undefined {
	if (zone.toUpperCase() === 'Z') return 0;
	const sign = zone.startsWith('-') ? -1 : 1;
	const digits = zone.slice(1).replace(':', '');
	const minutes = sign * (Number(digits.slice(0, 2)) * 60 + Number(digits.slice(2) || '0'));
	return Math.abs(minutes) > 14 * 60 ? undefined : minutes;
}

/** ISO 8601 date or date-time, with or without offset; undefined when it is not one (or not a real date). */
export function parseDateTime(text: string): WallTime | undefined {
	const match = DATE_TIME.exec(text.trim());
	if (!match) return undefined;
	const [, y, mo, d, h = '0', mi = '0', s = '0', fraction = '', zone] = match;
	const [year, month, day, hour, minute, second] = [y, mo, d, h, mi, s].map(Number);
	if (month < 1 || month > 12 || hour > 23 || minute > 59 || second > 59) return undefined;
	const wallMs = Date.UTC(
		year,
		month - 1,
		day,
		hour,
		minute,
		second,
		Number(fraction.padEnd(3, '0').slice(0, 3)),
	);
	const check = new Date(wallMs);
	if (
		check.getUTCFullYear() !== year ||
		check.getUTCMonth() !== month - 1 ||
		check.getUTCDate() !== day
	)
		return undefined;
	if (zone === undefined) return { wallMs };
	const offsetMinutes = offsetOf(zone);
	return offsetMinutes === undefined ? undefined : { wallMs, offsetMinutes };
}

/** The instant of a date-time that carries an offset; undefined without one. */
export function instantOf(text: unknown): number | undefined {
	if (typeof text !== 'string') return undefined;
	const parsed = parseDateTime(text);
	if (!parsed || parsed.offsetMinutes === undefined) return undefined;
	return parsed.wallMs - parsed.offsetMinutes * 60_000;
}

const formatters = new Map<string, Intl.DateTimeFormat>();

function formatter(zone: string): Intl.DateTimeFormat {
	let f = formatters.get(zone);
	if (!f) {
		f = new Intl.DateTimeFormat('en-US', {
			timeZone: zone,
			hourCycle: 'h23',
			year: 'numeric',
			month: '2-digit',
			day: '2-digit',
			hour: '2-digit',
			minute: '2-digit',
			second: '2-digit',
		});
		formatters.set(zone, f);
	}
	return f;
}

/** Offset of `zone` from UTC at `instantMs`, in ms (Berlin in summer: +7,200,000). */
export function zoneOffsetMs(zone: string, instantMs: number): number {
	const parts: Record<string, number> = {};
	for (const part of formatter(zone).formatToParts(new Date(instantMs))) {
		if (part.type !== 'literal') parts[part.type] = Number(part.value);
	}
	const asUtc = Date.UTC(
		parts.year,
		parts.month - 1,
		parts.day,
		parts.hour,
		parts.minute,
		parts.second,
	);
	const wholeSeconds = instantMs - (((instantMs % 1000) + 1000) % 1000);
	return asUtc - wholeSeconds;
}

/**
 * The instant of a wall time in an IANA zone. In a spring-forward gap the time is moved forward
 * by the gap; in the autumn overlap the earlier instant is taken (the usual rule, and the
 * service's).
 */
export function zonedWallTimeToInstant(wallMs: number, zone: string): number {
	const before = zoneOffsetMs(zone, wallMs - 86_400_000);
	const after = zoneOffsetMs(zone, wallMs + 86_400_000);
	const candidates = [wallMs - before, wallMs - after].filter(
		(ms) => ms + zoneOffsetMs(zone, ms) === wallMs,
	);
	if (candidates.length) return Math.min(...candidates);
	// In a gap: the wall time does not exist; read it with the offset before the change.
	return wallMs - before;
}

/** Whether `zone` is a time zone this runtime knows. */
export function isKnownZone(zone: string): boolean {
	try {
		formatter(zone);
		return true;
	} catch {
		return false;
	}
}

/**
 * The instant of a date-time the service wrote: its offset when it has one, else US Eastern (the
 * service's local time). undefined when it is not a date-time.
 */
export function serviceInstant(text: unknown): number | undefined {
	if (typeof text !== 'string') return undefined;
	const parsed = parseDateTime(text);
	if (!parsed) return undefined;
	if (parsed.offsetMinutes !== undefined) return parsed.wallMs - parsed.offsetMinutes * 60_000;
	return zonedWallTimeToInstant(parsed.wallMs, SERVICE_TIME_ZONE);
}

function pad(n: number, width = 2): string {
	return String(n).padStart(width, '0');
}

/** An instant as local time of `zone` with its offset: `2026-11-01T01:30:00.000-04:00`. */
export function withOffsetIn(ms: number, zone: string): string {
	const offset = zoneOffsetMs(zone, ms);
	const wall = new Date(ms + offset).toISOString().replace('Z', '');
	const minutes = Math.round(offset / 60_000);
	const sign = minutes < 0 ? '-' : '+';
	return `${wall}${sign}${pad(Math.floor(Math.abs(minutes) / 60))}:${pad(Math.abs(minutes) % 60)}`;
}

/** An instant as the service's local time with its offset (US Eastern): what the package sends. */
export function serviceDateTime(ms: number): string {
	return withOffsetIn(ms, SERVICE_TIME_ZONE);
}

/**
 * A date-time a user gave (text, a Date, a Luxon DateTime): with an offset it is that instant;
 * without one it is a wall time in `zone` (the workflow's time zone). Returns the instant, or
 * undefined when it is not a date-time.
 */
export function userInstant(value: unknown, zone: string | undefined): number | undefined {
	if (value instanceof Date) return Number.isNaN(value.getTime()) ? undefined : value.getTime();
	const iso =
		typeof (value as { toISO?: unknown })?.toISO === 'function'
			? String((value as { toISO: () => string }).toISO())
			: value;
	if (typeof iso !== 'string') return undefined;
	const parsed = parseDateTime(iso);
	if (!parsed) return undefined;
	if (parsed.offsetMinutes !== undefined) return parsed.wallMs - parsed.offsetMinutes * 60_000;
	return zone && isKnownZone(zone)
		? zonedWallTimeToInstant(parsed.wallMs, zone)
		: zonedWallTimeToInstant(parsed.wallMs, SERVICE_TIME_ZONE);
}
