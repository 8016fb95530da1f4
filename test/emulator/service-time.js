// @ts-check
'use strict';

/**
 * The service's time zone: how instants are written as `X` (local time of the service, no offset)
 * and `XDto` (the same local time with its UTC offset), and how text without an offset is read.
 *
 *   const t = new ServiceTime('Europe/Berlin');     // or 'UTC' (default), '+05:30', -300 (minutes)
 *   t.local(ms)  // '2026-03-29T01:30:00.000'
 *   t.dto(ms)    // '2026-03-29T01:30:00.000+01:00'
 *   t.parse('2026-03-29T01:30:00')        // ms; no offset = service local time
 *   t.parse('2026-03-29T01:30:00+01:00')  // ms; the offset wins
 *
 * IANA zones use Node's Intl (daylight-saving changes included). Local times that do not exist
 * (spring-forward gap) or exist twice (fall-back overlap) are resolved like Temporal's
 * 'compatible' disambiguation: a gap moves forward by its length, an overlap takes the earlier
 * instant.
 */

const MINUTE = 60000;

/**
 * Parsed ISO 8601 date or date-time. `fraction` is in 100 ns ticks (0..9999999), like .NET.
 * @typedef {{ y: number, mo: number, d: number, h: number, mi: number, s: number, fraction: number,
 *   offsetMinutes: number | null, dateOnly: boolean }} IsoParts
 */

const ISO_RE =
	/^(\d{4})-(\d{2})-(\d{2})(?:[Tt](\d{2}):(\d{2})(?::(\d{2})(?:\.(\d{1,7}))?)?)?(?:([Zz])|([+-])(\d{2}):?(\d{2}))?$/;

/**
 * Strict ISO 8601 parse (calendar-checked). Returns null when the text is not a date/date-time.
 * @param {string} text
 * @returns {IsoParts | null}
 */
function parseIsoParts(text) {
	const m = ISO_RE.exec(String(text).trim());
	if (!m) return null;
	const dateOnly = m[4] === undefined;
	if (dateOnly && (m[8] || m[9])) return null; // an offset needs a time
	const p = {
		y: Number(m[1]),
		mo: Number(m[2]),
		d: Number(m[3]),
		h: dateOnly ? 0 : Number(m[4]),
		mi: dateOnly ? 0 : Number(m[5]),
		s: m[6] ? Number(m[6]) : 0,
		fraction: m[7] ? Number(m[7].padEnd(7, '0')) : 0,
		offsetMinutes: m[8]
			? 0
			: m[9]
				? (m[9] === '-' ? -1 : 1) * (Number(m[10]) * 60 + Number(m[11]))
				: null,
		dateOnly,
	};
	if (p.mo < 1 || p.mo > 12 || p.d < 1 || p.h > 23 || p.mi > 59 || p.s > 59) return null;
	if (p.d > new Date(Date.UTC(p.y, p.mo, 0)).getUTCDate()) return null;
	if (m[9] && (Number(m[10]) > 14 || Number(m[11]) > 59)) return null;
	return p;
}

/** @param {number} n @param {number} [w] */
const pad = (n, w = 2) => String(n).padStart(w, '0');

/** @param {number} minutes */
function formatOffset(minutes) {
	const sign = minutes < 0 ? '-' : '+';
	const a = Math.abs(minutes);
	return `${sign}${pad(Math.floor(a / 60))}:${pad(a % 60)}`;
}

/**
 * Parses a fixed offset zone: '+01:00', '-0530', 'UTC+2', 'Z', 'UTC', 'GMT'.
 * @param {string} zone
 * @returns {number | null} minutes east of UTC
 */
function fixedOffset(zone) {
	const z = zone.trim();
	if (/^(Z|UTC|GMT|Etc\/UTC|Etc\/GMT)$/i.test(z)) return 0;
	const m = /^(?:UTC|GMT)?([+-])(\d{1,2})(?::?(\d{2}))?$/i.exec(z);
	if (!m) return null;
	const minutes = Number(m[2]) * 60 + Number(m[3] || 0);
	if (Number(m[2]) > 14 || Number(m[3] || 0) > 59) return null;
	return (m[1] === '-' ? -1 : 1) * minutes;
}

class ServiceTime {
	/**
	 * @param {string | number | null | undefined} zone IANA name ('Europe/Berlin'), 'UTC', a fixed
	 *   offset ('+01:00', '-05:30') or a number of minutes east of UTC. Default UTC.
	 */
	constructor(zone) {
		/** @type {number | null} */
		this.fixedMinutes = null;
		/** @type {Intl.DateTimeFormat | null} */
		this._dtf = null;
		/** @type {Map<number, number>} */
		this._cache = new Map();
		/** @type {Map<number, string>} written local times (a bulk of work orders shares few instants) */
		this._local = new Map();
		/** @type {Map<string, bigint | null>} parsed date-times (lists of 50,000 work orders compare every date on every page) */
		this._parsed = new Map();
		if (zone === undefined || zone === null || zone === '') zone = 'UTC';
		if (typeof zone === 'number') {
			if (!Number.isInteger(zone) || Math.abs(zone) > 14 * 60)
				throw new RangeError(`utcOffsetMinutes must be an integer within ±840, got ${zone}`);
			this.fixedMinutes = zone;
			this.name = formatOffset(zone);
			return;
		}
		const fixed = fixedOffset(String(zone));
		if (fixed !== null) {
			this.fixedMinutes = fixed;
			this.name = fixed === 0 && /^[a-z]/i.test(String(zone)) ? 'UTC' : formatOffset(fixed);
			return;
		}
		try {
			this._dtf = new Intl.DateTimeFormat('en-US', {
				timeZone: String(zone),
				hourCycle: 'h23',
				year: 'numeric',
				month: 'numeric',
				day: 'numeric',
				hour: 'numeric',
				minute: 'numeric',
				second: 'numeric',
			});
		} catch {
			throw new RangeError(
				`unknown time zone '${zone}' (use an IANA name such as Europe/Berlin, 'UTC', or an offset such as +01:00)`,
			);
		}
		this.name = this._dtf.resolvedOptions().timeZone;
	}

	/** Offset of the service's local time from UTC at instant `ms`, in minutes (east positive). @param {number} ms */
	offsetMinutes(ms) {
		if (this.fixedMinutes !== null) return this.fixedMinutes;
		const key = Math.floor(ms / MINUTE);
		const hit = this._cache.get(key);
		if (hit !== undefined) return hit;
		/** @type {Record<string, number>} */
		const f = {};
		for (const part of /** @type {Intl.DateTimeFormat} */ (this._dtf).formatToParts(key * MINUTE)) {
			if (part.type !== 'literal') f[part.type] = Number(part.value);
		}
		const asUtc = Date.UTC(
			f.year,
			f.month - 1,
			f.day,
			f.hour === 24 ? 0 : f.hour,
			f.minute,
			f.second,
		);
		const minutes = Math.round((asUtc - key * MINUTE) / MINUTE);
		if (this._cache.size > 20000) this._cache.clear();
		this._cache.set(key, minutes);
		return minutes;
	}

	/** `X` form: local time of the service, no offset, milliseconds always written. @param {number} ms */
	local(ms) {
		const hit = this._local.get(ms);
		if (hit !== undefined) return hit;
		const text = new Date(ms + this.offsetMinutes(ms) * MINUTE).toISOString().replace('Z', '');
		if (this._local.size >= 100000) this._local.clear();
		this._local.set(ms, text);
		return text;
	}

	/** `XDto` form: local time of the service with its offset (`+00:00` for UTC, never `Z`). @param {number} ms */
	dto(ms) {
		return `${this.local(ms)}${formatOffset(this.offsetMinutes(ms))}`;
	}

	/** The offset at `ms` as '+01:00'. @param {number} ms */
	offsetString(ms) {
		return formatOffset(this.offsetMinutes(ms));
	}

	/**
	 * Instant of a wall-clock time of the service (compatible disambiguation).
	 * @param {number} wallMs the local date-time encoded as if it were UTC (Date.UTC(...))
	 * @returns {number}
	 */
	fromLocal(wallMs) {
		if (this.fixedMinutes !== null) return wallMs - this.fixedMinutes * MINUTE;
		const before = this.offsetMinutes(wallMs - 36 * 3600000);
		const after = this.offsetMinutes(wallMs + 36 * 3600000);
		const valid = [...new Set([before, after])]
			.map((o) => wallMs - o * MINUTE)
			.filter((t) => t + this.offsetMinutes(t) * MINUTE === wallMs)
			.sort((a, b) => a - b);
		if (valid.length) return valid[0];
		// in a gap: read it with the offset in force before the transition (moves forward)
		return wallMs - before * MINUTE;
	}

	/**
	 * Instant (ms) of ISO 8601 text; without an offset it is local time of the service. The sub-
	 * millisecond part is dropped. Throws a RangeError for anything else.
	 * @param {string} text
	 */
	parse(text) {
		const t = this.parseTicks(text);
		if (t === null) throw new RangeError(`not an ISO 8601 date-time: '${text}'`);
		return Number(t / 10000n);
	}

	/**
	 * Instant in 100 ns ticks since the epoch (BigInt), or null when `text` is not ISO 8601.
	 * @param {string} text
	 * @returns {bigint | null}
	 */
	parseTicks(text) {
		const hit = this._parsed.get(text);
		if (hit !== undefined) return hit;
		const p = parseIsoParts(text);
		const ticks = p ? this.ticksOf(p) : null;
		if (this._parsed.size >= 500000) this._parsed.clear();
		this._parsed.set(text, ticks);
		return ticks;
	}

	/** @param {IsoParts} p @returns {bigint} */
	ticksOf(p) {
		const wall = Date.UTC(p.y, p.mo - 1, p.d, p.h, p.mi, p.s);
		const wallFull = new Date(wall);
		wallFull.setUTCFullYear(p.y); // years 0..99 are not shifted to 19xx
		const w = wallFull.getTime();
		const ms = p.offsetMinutes !== null ? w - p.offsetMinutes * MINUTE : this.fromLocal(w);
		return BigInt(ms) * 10000n + BigInt(p.fraction);
	}
}

/** UTC, the default. */
const UTC = new ServiceTime('UTC');

module.exports = { ServiceTime, UTC, parseIsoParts, formatOffset };
