import type { WindowRead } from './reader';
import type { Settings } from './settings';
import { STATE_VERSION, keyWithoutDigest, parseKey, versionKey, type TriggerState } from './state';
import { isAmbiguousReading, toODataInstant, wallSafeFrom } from './time';

const HOUR_MS = 3_600_000;

/**
 * Where the next poll starts, from what this poll read: the cursor (the service's clock at the
 * start of the read minus the Lookback Window, never back), the version keys it keeps (those at or
 * after the cursor), and, after a read that stopped before the end of the list, where to resume.
 * Pure functions of the state and the window read.
 */

type SortKey = { ms: number; idValue: bigint };

/** Where a poll resumes the window: the last poll's offset and last record, if still inside the window. */
export function resumePoint(
	state: TriggerState,
	fromMs: number,
): { offset: number; last: SortKey } | undefined {
	const at = state.resume ? parseKey(state.resume.after) : undefined;
	if (!state.resume || !at || at.ms < fromMs) return undefined;
	return { offset: state.resume.skip, last: { ms: at.ms, idValue: BigInt(at.id) } };
}

/** The service clock when the read began: its Date header, else the newest date read. */
export function serviceNowOf(
	window: Pick<WindowRead, 'serviceNow' | 'versions'>,
): number | undefined {
	let serviceNow = window.serviceNow;
	if (serviceNow === undefined) {
		for (const version of window.versions)
			if (serviceNow === undefined || version.ms > serviceNow) serviceNow = version.ms;
	}
	return serviceNow;
}

/**
 * The next cursor: the service clock minus the lookback (the cursor as it is without a clock),
 * not beyond what an incomplete read reached, and never back.
 */
export function nextCursorMs(
	fromMs: number,
	serviceNow: number | undefined,
	lookbackMs: number,
	window: Pick<WindowRead, 'complete' | 'safeMs'>,
): number {
	let next = serviceNow === undefined ? fromMs : serviceNow - lookbackMs;
	if (!window.complete) next = Math.min(next, window.safeMs ?? fromMs);
	return Math.max(fromMs, next);
}

/**
 * The keys still inside the next window (dated at or after `nextMs`), each once. With plain dates
 * (no twins: invoices) the next read starts at `wallSafeFrom(nextMs)`, and a key read from a wall
 * time the fall-back repeats may stand for the instant an hour later (or be returned again by a
 * service that compares wall times): such a key is kept while that later instant is in the window.
 */
export function keysToKeep(keys: string[], nextMs: number, plainDates = false): string[] {
	const keep = new Set<string>();
	const from = plainDates ? wallSafeFrom(nextMs) : nextMs;
	for (const key of keys) {
		const ms = parseKey(key)?.ms ?? -Infinity;
		if (ms >= from || (plainDates && ms + HOUR_MS >= from && isAmbiguousReading(ms))) keep.add(key);
	}
	return [...keep];
}

/**
 * Where the next poll resumes an incomplete read: after the last record read, at the offset it
 * would have read minus the records that leave the front of the list. The next window starts at
 * the new cursor: the records dated before it (all handled, so in `keys`) leave the front.
 * Counting one that has moved away makes the offset smaller, which only re-reads a record or two.
 */
export function resumeAfter(
	window: Pick<WindowRead, 'last' | 'nextOffset'>,
	keys: string[],
	fromMs: number,
	nextMs: number,
): TriggerState['resume'] {
	if (!window.last) return undefined;
	let dropped = 0;
	for (const key of new Set(keys.map(keyWithoutDigest))) {
		const at = parseKey(key)?.ms ?? Number.NaN;
		if (at >= fromMs && at < nextMs) dropped++;
	}
	return {
		after: versionKey(String(window.last.idValue), window.last.ms),
		skip: Math.max(0, window.nextOffset - dropped),
	};
}

/** The state after a poll that read `window` from `state` and handled the versions `handled`. */
export function nextState(
	state: TriggerState,
	settings: Pick<Settings, 'event' | 'startDate' | 'lookbackMs'> &
		Partial<Pick<Settings, 'object'>>,
	window: WindowRead,
	handled: string[],
): TriggerState {
	const fromMs = Date.parse(state.cursor);
	const next = nextCursorMs(fromMs, serviceNowOf(window), settings.lookbackMs, window);
	const keys = [...state.seen, ...handled];
	const result: TriggerState = {
		version: STATE_VERSION,
		event: settings.event,
		startDate: settings.startDate,
		origin: state.origin,
		cursor: toODataInstant(next),
		seen: keysToKeep(keys, next, settings.object?.plainDates),
	};
	if (!window.complete && window.last && window.last.ms >= next)
		result.resume = resumeAfter(window, keys, fromMs, next);
	if (state.baseline) result.baseline = { ...state.baseline };
	if (state.skewMs !== undefined) result.skewMs = state.skewMs;
	return result;
}
