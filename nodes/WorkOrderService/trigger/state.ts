import type { IDataObject } from 'n8n-workflow';

/**
 * What the trigger keeps between polls, in the workflow's static data (node scope), which n8n
 * saves with the workflow: nothing lives in process memory from one poll to the next. The state
 * is plain JSON and is replaced as a whole at the end of a successful poll only, so a poll that
 * fails leaves the previous state untouched.
 *
 *   version     format of this object
 *   event       the event it was built for; another event starts afresh
 *   startDate   the Start Date option it was started from ('' = none); a new one starts afresh
 *   cursor      ISO instant in the service's clock: every matching record dated before it was
 *               handled (emitted, or seen as already there at activation)
 *   seen        `<Id>@<ISO instant>` of the record versions handled that are dated at or after the
 *               cursor: the next poll reads from the cursor again and skips these
 *   resume      only after a poll that stopped before the end of the list (a backlog larger than
 *               one poll reads): the last record it read (`after`, `<Id>@<ISO instant>`) and the
 *               `$skip` it would have read next; the next poll continues there instead of reading
 *               the records in `seen` again
 *   statuses    Status Changed only: the last status seen per work order, at most STATUS_MEMORY_CAP,
 *               least recently seen first, as [Id, index into statusValues]
 */

export type TriggerEvent = 'workOrderCreated' | 'workOrderUpdated' | 'workOrderStatusChanged';

export const STATE_VERSION = 1;
/** Work orders whose last seen status is remembered (Status Changed). */
export const STATUS_MEMORY_CAP = 5000;

export interface TriggerState {
	version: number;
	event: TriggerEvent;
	startDate: string;
	cursor: string;
	seen: string[];
	resume?: { after: string; skip: number };
	statusValues?: string[];
	statuses?: Array<[string, number]>;
}

const EVENTS: TriggerEvent[] = ['workOrderCreated', 'workOrderUpdated', 'workOrderStatusChanged'];

function isStringArray(value: unknown): value is string[] {
	return Array.isArray(value) && value.every((v) => typeof v === 'string');
}

/** The stored state when it is usable for this event and start date; otherwise undefined (start afresh). */
export function readState(staticData: IDataObject, event: TriggerEvent, startDate: string): TriggerState | undefined {
	const raw = staticData.state as IDataObject | undefined;
	if (!raw || typeof raw !== 'object' || Array.isArray(raw)) return undefined;
	if (raw.version !== STATE_VERSION || raw.event !== event || raw.startDate !== startDate) return undefined;
	if (!EVENTS.includes(raw.event as TriggerEvent)) return undefined;
	if (typeof raw.cursor !== 'string' || !Number.isFinite(Date.parse(raw.cursor))) return undefined;
	if (!isStringArray(raw.seen)) return undefined;
	const state: TriggerState = {
		version: STATE_VERSION,
		event,
		startDate,
		cursor: raw.cursor,
		seen: raw.seen,
	};
	const resume = raw.resume as IDataObject | undefined;
	if (
		resume &&
		typeof resume.after === 'string' &&
		Number.isFinite(keyInstant(resume.after)) &&
		Number.isSafeInteger(resume.skip) &&
		(resume.skip as number) >= 0
	) {
		state.resume = { after: resume.after, skip: resume.skip as number };
	}
	if (isStringArray(raw.statusValues) && Array.isArray(raw.statuses)) {
		state.statusValues = raw.statusValues;
		state.statuses = (raw.statuses as unknown[]).filter(
			(e): e is [string, number] =>
				Array.isArray(e) && typeof e[0] === 'string' && typeof e[1] === 'number' && e[1] >= 0 && e[1] < (raw.statusValues as string[]).length,
		);
	}
	return state;
}

/** Replaces the stored state (one property write: n8n sees the change and saves it). */
export function writeState(staticData: IDataObject, state: TriggerState): void {
	staticData.state = JSON.parse(JSON.stringify(state)) as IDataObject;
}

/** `<Id>@<ISO instant>`: one version of one record. */
export function versionKey(id: string, ms: number): string {
	return `${id}@${new Date(ms).toISOString()}`;
}

/** The instant of a version key (NaN when it is not one). */
export function keyInstant(key: string): number {
	return Date.parse(key.slice(key.lastIndexOf('@') + 1));
}

/** The Id of a version key. */
export function keyId(key: string): string {
	return key.slice(0, key.lastIndexOf('@'));
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

/**
 * The last seen status per work order, least recently seen first, at most `cap` entries: seeing
 * a work order moves it to the end, and the front is forgotten first.
 */
export class StatusMemory {
	private readonly entries = new Map<string, string>();

	constructor(
		state?: Pick<TriggerState, 'statusValues' | 'statuses'>,
		private readonly cap = STATUS_MEMORY_CAP,
	) {
		const values = state?.statusValues ?? [];
		for (const [id, index] of state?.statuses ?? []) this.entries.set(id, values[index]);
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

	/** Records `status` as the last seen one of `id` (most recently seen). */
	see(id: string, status: string): void {
		this.entries.delete(id);
		this.entries.set(id, status);
		while (this.entries.size > this.cap) {
			const oldest = this.entries.keys().next().value as string;
			this.entries.delete(oldest);
		}
	}

	toState(): Pick<TriggerState, 'statusValues' | 'statuses'> {
		const values: string[] = [];
		const index = new Map<string, number>();
		const statuses: Array<[string, number]> = [];
		for (const [id, status] of this.entries) {
			let i = index.get(status);
			if (i === undefined) {
				i = values.length;
				values.push(status);
				index.set(status, i);
			}
			statuses.push([id, i]);
		}
		return { statusValues: values, statuses };
	}
}
