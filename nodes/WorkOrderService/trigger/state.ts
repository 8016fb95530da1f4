import { createHash } from 'crypto';
import type { IDataObject } from 'n8n-workflow';

/**
 * What the trigger keeps between polls, in the workflow's static data (node scope), which n8n
 * saves with the workflow: nothing lives in process memory from one poll to the next. The state
 * is plain JSON, replaced as a whole (one property write) and always self-consistent: n8n saves
 * it only when a poll emits, so a restart may return to any earlier state, and every state the
 * trigger writes is one it can continue from without skipping or repeating a change.
 *
 *   version     format of this object (2; a version 1 state is taken over, see `readState`)
 *   event       the event it was built for; another event starts afresh
 *   startDate   the Start Date option it was started from ('' = none); a new one starts afresh
 *   origin      T0: the service's clock (its Date header) at activation's first request. What the
 *               service dated before it was already there; everything dated at or after it is
 *               an event. The cursor never moves before it (without a Start Date)
 *   cursor      ISO instant in the service's clock: every matching record dated before it was
 *               handled (emitted, or already there at activation)
 *   seen        keys of the record versions handled that are dated at or after the cursor: the
 *               next poll reads from the cursor again and skips these. `<Id>@<ISO instant>#<digest>`
 *               (Updated, Status Changed: a version is told apart by its content, since deployed
 *               services date with one-second precision) or `<Id>@<ISO instant>` (Created: by Id)
 *   resume      only after a poll that stopped before the end of the list: the last record it
 *               read (`after`, `<Id>@<ISO instant>`) and the `$skip` it would have read next
 *   statuses    Status Changed: the status of every work order as of T0 and as seen since
 *               (see `StatusMemory` for the encoding)
 *   baseline    Status Changed, while settling: how far the read of every work order's status as
 *               of T0 has come (`after`: the lowest Id read, newest Ids first; `page`: the largest
 *               page the service sent). Removed when the read ends: settled.
 *   skewMs      invoices: the service's clock minus n8n's at the last read (the list's reach of 365
 *               days is counted on the service's clock)
 */

export type TriggerEvent =
	| 'workOrderCreated'
	| 'workOrderUpdated'
	| 'workOrderStatusChanged'
	| 'invoiceCreated'
	| 'invoiceUpdated'
	| 'invoiceStatusChanged';

export const STATE_VERSION = 2;
/** Default of the Max Work Orders Remembered option (Status Changed). */
export const DEFAULT_MEMORY_LIMIT = 100_000;

export interface EncodedStatuses {
	/** Status signatures (Primary \u001f Extended), each once. */
	values: string[];
	/** The ids, sorted, as base-36 deltas (the first one absolute), comma-separated. */
	ids: string;
	/** Per id (same order), the index of its status in `values`, as `width` base-64url digits. */
	codes: string;
	width: number;
	/** Ids at or below this one were forgotten for the memory limit (lowest first). */
	forgottenBelow?: string;
}

export interface BaselineProgress {
	/** The lowest Id read so far (the read goes from the highest Id down); absent before the first page. */
	after?: string;
	/** The largest page the service answered with (a shorter page ends the read). */
	page?: number;
}

export interface TriggerState {
	version: number;
	event: TriggerEvent;
	startDate: string;
	origin: string;
	cursor: string;
	seen: string[];
	resume?: { after: string; skip: number };
	statuses?: EncodedStatuses;
	baseline?: BaselineProgress;
	/**
	 * Invoices: the service's clock minus n8n's at the last read (ms), from its Date header. The
	 * invoice list's 365-day reach is counted on the service's clock.
	 */
	skewMs?: number;
}

/** The events the trigger offers (the Event parameter's values). */
export const TRIGGER_EVENTS: readonly TriggerEvent[] = [
	'workOrderCreated',
	'workOrderUpdated',
	'workOrderStatusChanged',
	'invoiceCreated',
	'invoiceUpdated',
	'invoiceStatusChanged',
];

/** The events that compare statuses (they keep a status memory and read the statuses as of T0). */
export function isStatusEvent(event: TriggerEvent): boolean {
	return event === 'workOrderStatusChanged' || event === 'invoiceStatusChanged';
}

/** The events that emit a record once, when it is created (versions keyed by Id). */
export function isCreatedEvent(event: TriggerEvent): boolean {
	return event === 'workOrderCreated' || event === 'invoiceCreated';
}
/** A work order Id as text: an int64 in decimal. */
export const ID_TEXT = /^-?\d{1,19}$/;

function isStringArray(value: unknown): value is string[] {
	return Array.isArray(value) && value.every((v) => typeof v === 'string');
}

function isInstant(value: unknown): value is string {
	return typeof value === 'string' && Number.isFinite(Date.parse(value));
}

function readResume(raw: unknown): TriggerState['resume'] {
	const resume = raw as IDataObject | undefined;
	if (
		resume &&
		typeof resume === 'object' &&
		typeof resume.after === 'string' &&
		parseKey(resume.after) !== undefined &&
		Number.isSafeInteger(resume.skip) &&
		(resume.skip as number) >= 0
	) {
		return { after: resume.after, skip: resume.skip as number };
	}
	return undefined;
}

function readEncoded(raw: unknown): EncodedStatuses | undefined {
	const s = raw as IDataObject | undefined;
	if (!s || typeof s !== 'object' || Array.isArray(s)) return undefined;
	if (!isStringArray(s.values) || typeof s.ids !== 'string' || typeof s.codes !== 'string')
		return undefined;
	if (!Number.isSafeInteger(s.width) || (s.width as number) < 1 || (s.width as number) > 4)
		return undefined;
	if (
		s.forgottenBelow !== undefined &&
		(typeof s.forgottenBelow !== 'string' || !ID_TEXT.test(s.forgottenBelow))
	)
		return undefined;
	const encoded: EncodedStatuses = {
		values: s.values,
		ids: s.ids,
		codes: s.codes,
		width: s.width as number,
	};
	if (s.forgottenBelow !== undefined) encoded.forgottenBelow = s.forgottenBelow as string;
	try {
		StatusMemory.decode(encoded);
	} catch {
		return undefined;
	}
	return encoded;
}

function readBaseline(raw: unknown): BaselineProgress | undefined | false {
	if (raw === undefined) return undefined;
	const b = raw as IDataObject;
	if (!b || typeof b !== 'object' || Array.isArray(b)) return false;
	const progress: BaselineProgress = {};
	if (b.after !== undefined) {
		if (typeof b.after !== 'string' || !ID_TEXT.test(b.after)) return false;
		progress.after = b.after;
	}
	if (b.page !== undefined) {
		if (!Number.isSafeInteger(b.page) || (b.page as number) < 1) return false;
		progress.page = b.page as number;
	}
	return progress;
}

/** The parts every event's state has, from a stored state already checked (`origin`: its T0). */
function commonState(
	raw: IDataObject,
	event: TriggerEvent,
	startDate: string,
	origin: string,
): TriggerState {
	const state: TriggerState = {
		version: STATE_VERSION,
		event,
		startDate,
		origin,
		cursor: raw.cursor as string,
		seen: raw.seen as string[],
	};
	const resume = readResume(raw.resume);
	if (resume) state.resume = resume;
	if (typeof raw.skewMs === 'number' && Number.isFinite(raw.skewMs)) state.skewMs = raw.skewMs;
	return state;
}

/**
 * The stored state when it is usable for this event and start date; otherwise undefined (start
 * afresh). A state of the previous version (1) is taken over: its cursor becomes T0 (everything
 * before it was handled), its `seen` keys (without a digest) match any version with their Id and
 * instant, and with Status Changed the statuses it remembered (at most 5,000) are kept and the
 * statuses of all other work orders are read as of its cursor, as after an activation.
 */
export function readState(
	staticData: IDataObject,
	event: TriggerEvent,
	startDate: string,
): TriggerState | undefined {
	const raw = staticData.state as IDataObject | undefined;
	if (!raw || typeof raw !== 'object' || Array.isArray(raw)) return undefined;
	if (raw.event !== event || !TRIGGER_EVENTS.includes(raw.event as TriggerEvent)) return undefined;
	if (
		!isInstant(raw.cursor) ||
		!isStringArray(raw.seen) ||
		raw.seen.some((key) => parseKey(key) === undefined)
	)
		return undefined;
	// version 1 knew work orders only
	if (raw.version === 1)
		return event.startsWith('workOrder') ? fromVersion1(raw, event, startDate) : undefined;
	if (raw.version !== STATE_VERSION || raw.startDate !== startDate || !isInstant(raw.origin))
		return undefined;
	const state = commonState(raw, event, startDate, raw.origin);
	if (isStatusEvent(event)) {
		const statuses = readEncoded(raw.statuses);
		const baseline = readBaseline(raw.baseline);
		// Without a readable memory the trigger cannot tell a status change: start afresh.
		if (!statuses || baseline === false) return undefined;
		state.statuses = statuses;
		if (baseline) state.baseline = baseline;
	}
	return state;
}

function fromVersion1(
	raw: IDataObject,
	event: TriggerEvent,
	startDate: string,
): TriggerState | undefined {
	// Version 1 took a Start Date for Status Changed too (and read nothing older with it).
	if (!isStatusEvent(event) && raw.startDate !== startDate) return undefined;
	// Its cursor becomes T0.
	const state = commonState(raw, event, startDate, raw.cursor as string);
	if (isStatusEvent(event)) {
		const memory = new StatusMemory();
		if (isStringArray(raw.statusValues) && Array.isArray(raw.statuses)) {
			const values = raw.statusValues;
			for (const entry of raw.statuses as unknown[]) {
				if (!Array.isArray(entry) || typeof entry[0] !== 'string' || !ID_TEXT.test(entry[0]))
					continue;
				const index = entry[1];
				if (typeof index === 'number' && index >= 0 && index < values.length)
					memory.set(entry[0], values[index]);
			}
		}
		state.statuses = memory.encode(Number.MAX_SAFE_INTEGER);
		state.baseline = {};
	}
	return state;
}

/** Replaces the stored state (one property write: n8n sees the change and saves it). */
export function writeState(staticData: IDataObject, state: TriggerState): void {
	staticData.state = JSON.parse(JSON.stringify(state)) as IDataObject;
}

/** The size of the state as n8n stores it (JSON), in bytes. */
export function stateBytes(state: TriggerState): number {
	return Buffer.byteLength(JSON.stringify(state), 'utf8');
}

// ---- version keys ---------------------------------------------------------------------------

/** `<Id>@<ISO instant>` (and `#<digest>` when given): one version of one record. */
export function versionKey(id: string, ms: number, digest?: string): string {
	const key = `${id}@${new Date(ms).toISOString()}`;
	return digest === undefined ? key : `${key}#${digest}`;
}

/** The parts of a version key; undefined when it is not one. */
export function parseKey(key: string): { id: string; ms: number; digest?: string } | undefined {
	const at = key.indexOf('@');
	if (at <= 0) return undefined;
	const hash = key.indexOf('#', at);
	const id = key.slice(0, at);
	const ms = Date.parse(key.slice(at + 1, hash === -1 ? undefined : hash));
	if (!ID_TEXT.test(id) || !Number.isFinite(ms)) return undefined;
	return hash === -1 ? { id, ms } : { id, ms, digest: key.slice(hash + 1) };
}

/** The key without its digest (`<Id>@<ISO instant>`). */
export function keyWithoutDigest(key: string): string {
	const hash = key.indexOf('#', key.indexOf('@'));
	return hash === -1 ? key : key.slice(0, hash);
}

/** The instant of a version key (NaN when it is not one). */
export function keyInstant(key: string): number {
	return parseKey(key)?.ms ?? Number.NaN;
}

/** The Id of a version key. */
export function keyId(key: string): string {
	return key.slice(0, key.indexOf('@'));
}

function canonical(value: unknown): string {
	if (value === null || typeof value !== 'object') return JSON.stringify(value) ?? 'null';
	if (Array.isArray(value)) return `[${value.map(canonical).join(',')}]`;
	const keys = Object.keys(value)
		.filter((k) => !k.startsWith('@odata.'))
		.sort();
	return `{${keys.map((k) => `${JSON.stringify(k)}:${canonical((value as IDataObject)[k])}`).join(',')}}`;
}

/**
 * A short digest of a record's content (8 base-64url characters, 48 bits), the same for every
 * read of the same version (keys in any order; OData annotations left out).
 */
export function contentDigest(record: IDataObject): string {
	return createHash('sha256').update(canonical(record)).digest('base64url').slice(0, 8);
}

/** A status as one comparable string: primary and extended (null and '' are the same). */
export function statusSignature(record: IDataObject): string {
	const status = record.Status;
	if (status && typeof status === 'object' && !Array.isArray(status)) {
		const s = status as IDataObject;
		const primary = s.Primary === null || s.Primary === undefined ? '' : String(s.Primary);
		const extended = s.Extended === null || s.Extended === undefined ? '' : String(s.Extended);
		return `${primary}\u001f${extended}`;
	}
	return `${status === null || status === undefined ? '' : String(status)}\u001f`;
}

// ---- status memory --------------------------------------------------------------------------

const DIGITS = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_';

function parseBase36(text: string): bigint {
	const negative = text.startsWith('-');
	let value = 0n;
	for (let i = negative ? 1 : 0; i < text.length; i++) {
		const digit = parseInt(text[i], 36);
		if (Number.isNaN(digit)) throw new Error(`not base 36: ${text}`);
		value = value * 36n + BigInt(digit);
	}
	return negative ? -value : value;
}

/**
 * The last known status of every work order (Status Changed): as of T0 for those the trigger has
 * not seen change since, else as last seen. Stored compactly (see `EncodedStatuses`): the ids
 * sorted and delta-encoded in base 36, each status as an index into a table of the distinct
 * statuses: about 3 bytes per work order when ids are dense (50,000 work orders: about 150 KB).
 */
export class StatusMemory {
	private readonly entries = new Map<string, string>();

	/** Ids at or below this one were forgotten for the memory limit. */
	forgottenBelow?: bigint;

	static decode(encoded: EncodedStatuses): StatusMemory {
		const memory = new StatusMemory();
		const ids = encoded.ids === '' ? [] : encoded.ids.split(',');
		if (encoded.codes.length !== ids.length * encoded.width)
			throw new Error('status codes do not match the ids');
		let id = 0n;
		for (let i = 0; i < ids.length; i++) {
			const delta = parseBase36(ids[i]);
			if (i > 0 && delta <= 0n) throw new Error('ids not ascending');
			id = i === 0 ? delta : id + delta;
			let code = 0;
			for (let c = 0; c < encoded.width; c++) {
				const digit = DIGITS.indexOf(encoded.codes[i * encoded.width + c]);
				if (digit < 0) throw new Error('bad status code');
				code = code * 64 + digit;
			}
			if (code >= encoded.values.length) throw new Error('status code out of range');
			memory.entries.set(String(id), encoded.values[code]);
		}
		if (encoded.forgottenBelow !== undefined)
			memory.forgottenBelow = BigInt(encoded.forgottenBelow);
		return memory;
	}

	get size(): number {
		return this.entries.size;
	}

	get(id: string): string | undefined {
		return this.entries.get(id);
	}

	has(id: string): boolean {
		return this.entries.has(id);
	}

	set(id: string, status: string): void {
		this.entries.set(id, status);
	}

	/** Whether `id` was forgotten for the memory limit (its status is then unknown). */
	forgot(id: string): boolean {
		return this.forgottenBelow !== undefined && BigInt(id) <= this.forgottenBelow;
	}

	/**
	 * The compact form, keeping at most `limit` work orders: beyond it the lowest ids (the oldest
	 * work orders) are forgotten, and `forgottenBelow` says up to where.
	 */
	encode(limit: number): EncodedStatuses {
		const sorted = [...this.entries.keys()]
			.map((id) => ({ id, value: BigInt(id) }))
			.sort((a, b) => (a.value < b.value ? -1 : a.value > b.value ? 1 : 0));
		let forgottenBelow = this.forgottenBelow;
		const drop = Math.max(0, sorted.length - Math.max(0, Math.floor(limit)));
		if (drop > 0) {
			const last = sorted[drop - 1].value;
			forgottenBelow =
				forgottenBelow === undefined || last > forgottenBelow ? last : forgottenBelow;
		}
		const kept = sorted.slice(drop);
		const values: string[] = [];
		const index = new Map<string, number>();
		const codesOf: number[] = [];
		for (const { id } of kept) {
			const status = this.entries.get(id) as string;
			let i = index.get(status);
			if (i === undefined) {
				i = values.length;
				values.push(status);
				index.set(status, i);
			}
			codesOf.push(i);
		}
		let width = 1;
		while (64 ** width < values.length) width++;
		const ids: string[] = [];
		let previous = 0n;
		for (let i = 0; i < kept.length; i++) {
			const value = kept[i].value;
			ids.push((i === 0 ? value : value - previous).toString(36));
			previous = value;
		}
		let codes = '';
		for (const code of codesOf) {
			let text = '';
			for (let c = width - 1, rest = code; c >= 0; c--) {
				text = DIGITS[rest % 64] + text;
				rest = Math.floor(rest / 64);
			}
			codes += text;
		}
		const encoded: EncodedStatuses = { values, ids: ids.join(','), codes, width };
		if (forgottenBelow !== undefined) encoded.forgottenBelow = String(forgottenBelow);
		return encoded;
	}
}
