/**
 * Instants for the trigger. Every comparison the trigger makes is between instants (epoch
 * milliseconds) read from the service's own date fields, never between wall times: the `...Dto`
 * twin of a date carries its UTC offset, so records written on either side of a daylight-saving
 * change, or by a service in another time zone, compare correctly. The only wall time the trigger
 * reads is a Start Date without an offset, which is taken in the workflow's time zone.
 */

const DATE_TIME =
	/^(\d{4})-(\d{2})-(\d{2})(?:[T ](\d{2}):(\d{2})(?::(\d{2})(?:\.(\d{1,9}))?)?)?\s*(Z|[+-]\d{2}(?::?\d{2})?)?$/i;

export interface WallTime {
	/** The wall time's fields read as if they were UTC, in ms. */
	wallMs: number;
	/** Minutes east of UTC when the text carries an offset (`Z` = 0); undefined for a local time. */
	offsetMinutes?: number;
}

/** ISO 8601 date or date-time, with or without offset; undefined when it is not one (or not a real date). */
export function parseDateTime(text: string): WallTime | undefined {
	const match = DATE_TIME.exec(text.trim());
	if (!match) return undefined;
	const [, y, mo, d, h = '0', mi = '0', s = '0', fraction = '', zone] = match;
	const year = Number(y);
	const month = Number(mo);
	const day = Number(d);
	const hour = Number(h);
	const minute = Number(mi);
	const second = Number(s);
	if (month < 1 || month > 12 || hour > 23 || minute > 59 || second > 59) return undefined;
	const wallMs = Date.UTC(year, month - 1, day, hour, minute, second, Number(fraction.padEnd(3, '0').slice(0, 3)));
	const check = new Date(wallMs);
	if (check.getUTCFullYear() !== year || check.getUTCMonth() !== month - 1 || check.getUTCDate() !== day) return undefined;
	if (zone === undefined) return { wallMs };
	if (zone.toUpperCase() === 'Z') return { wallMs, offsetMinutes: 0 };
	const sign = zone.startsWith('-') ? -1 : 1;
	const digits = zone.slice(1).replace(':', '');
	const offsetMinutes = sign * (Number(digits.slice(0, 2)) * 60 + Number(digits.slice(2) || '0'));
	if (Math.abs(offsetMinutes) > 14 * 60) return undefined;
	return { wallMs, offsetMinutes };
}

/** The instant of a date-time that carries an offset; undefined without one. */
export function instantOf(text: unknown): number | undefined {
	if (typeof text !== 'string') return undefined;
	const parsed = parseDateTime(text);
	if (!parsed || parsed.offsetMinutes === undefined) return undefined;
	return parsed.wallMs - parsed.offsetMinutes * 60_000;
}

/** `2026-03-29T01:30:00.000Z`: the form the trigger sends in `$filter` (no `+` to be mangled in a query string). */
export function toODataInstant(ms: number): string {
	return new Date(ms).toISOString();
}

/** An HTTP `Date` header (RFC 7231) in ms; undefined when absent or unreadable. */
export function parseHttpDate(value: string | undefined): number | undefined {
	if (value === undefined || value.trim() === '') return undefined;
	const ms = Date.parse(value);
	return Number.isFinite(ms) ? ms : undefined;
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
	const asUtc = Date.UTC(parts.year, parts.month - 1, parts.day, parts.hour, parts.minute, parts.second);
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
	const candidates = [wallMs - before, wallMs - after].filter((ms) => ms + zoneOffsetMs(zone, ms) === wallMs);
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
