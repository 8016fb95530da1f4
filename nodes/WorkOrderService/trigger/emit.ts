import type { IDataObject } from 'n8n-workflow';

import { matchesStatus } from './filter';
import { statusKey, type DateField } from './objects';
import { compareVersions, recordInstant, type WorkOrderVersion } from './reader';
import type { UnknownStatusHandling } from './settings';
import { keyWithoutDigest, parseKey, statusSignature, type StatusMemory } from './state';

/**
 * What a poll emits from the versions its window read: first the versions not handled before
 * (`selectNew`), then, per work order, its newest one, as an item (`itemsToEmit`; Status Changed:
 * only when its status differs from the one remembered).
 */

/** What earlier polls handled, from the state's `seen` keys. */
export interface Handled {
	keys: Set<string>;
	ids: Set<string>;
	/** Per work order, the instant of the newest version handled. */
	newestMs: Map<string, number>;
}

export function handledBefore(seen: string[]): Handled {
	const handled: Handled = { keys: new Set(seen), ids: new Set(), newestMs: new Map() };
	for (const key of seen) {
		const parts = parseKey(key);
		if (!parts) continue;
		handled.ids.add(parts.id);
		if ((handled.newestMs.get(parts.id) ?? -Infinity) < parts.ms)
			handled.newestMs.set(parts.id, parts.ms);
	}
	return handled;
}

/**
 * How a version read relates to what was handled: 'new'; 'older' than a version handled (a lagging
 * replica: skipped); 'seen' (this very version handled before). Created: a work order is created
 * once, whatever its date says later, so any version of a handled Id is 'seen'.
 */
export function versionStatus(
	version: WorkOrderVersion,
	handled: Handled,
	byId: boolean,
): 'new' | 'older' | 'seen' {
	if (byId) return handled.ids.has(version.id) ? 'seen' : 'new';
	// a plain wall time of the fall-back hour may be the later of its two readings
	const latestMs = version.ambiguous ? version.ms + 3_600_000 : version.ms;
	if ((handled.newestMs.get(version.id) ?? -Infinity) > latestMs) return 'older';
	if (handled.keys.has(version.key) || handled.keys.has(keyWithoutDigest(version.key)))
		return 'seen';
	return 'new';
}

export interface Selection {
	/** Keys of the versions handled now (Created: without the digest). */
	handled: string[];
	/** Per work order its newest new version, in the service's order. */
	newest: WorkOrderVersion[];
}

/**
 * The versions not handled before, and per work order the newest of them. A version handled
 * before tells the status last seen: `memory` (Status Changed) learns it when it has none (a
 * state of version 1 may not have remembered it).
 */
export function selectNew(
	versions: WorkOrderVersion[],
	seen: string[],
	byId: boolean,
	memory?: StatusMemory,
): Selection {
	const before = handledBefore(seen);
	const handled: string[] = [];
	const newest = new Map<string, WorkOrderVersion>();
	for (const version of versions) {
		const status = versionStatus(version, before, byId);
		if (status === 'seen' && !byId && memory && !memory.has(version.id))
			memory.set(version.id, statusSignature(version.record));
		if (status !== 'new') continue;
		handled.push(byId ? keyWithoutDigest(version.key) : version.key);
		const previous = newest.get(version.id);
		if (!previous || compareVersions(version, previous) >= 0) newest.set(version.id, version);
	}
	return { handled, newest: [...newest.values()].sort(compareVersions) };
}

/**
 * Whether a record existed before `originMs` (work orders: its CreatedDate, else CallDate;
 * invoices: its PostedDate; unknown: yes).
 */
export function existedBefore(
	record: IDataObject,
	originMs: number,
	fields: DateField[] = ['CreatedDate', 'CallDate'],
): boolean {
	let created: number | undefined;
	for (const field of fields) {
		created = recordInstant(record, field);
		if (created !== undefined) break;
	}
	return created === undefined || created < originMs;
}

export interface StatusRule {
	/** Primary statuses asked for (lower case; empty: any). */
	statuses: string[];
	unknownStatus: UnknownStatusHandling;
	/** T0 in ms. */
	originMs: number;
	/** The dates that say a record existed before T0 (default: work orders'). */
	existedFields?: DateField[];
	/** Statuses are text compared without case and spaces (invoices). */
	textStatus?: boolean;
}

/** Whether two status signatures are the same status (invoices: without case and spaces). */
export function sameStatus(a: string, b: string, textStatus = false): boolean {
	return textStatus ? statusKey(a) === statusKey(b) : a === b;
}

/**
 * Status Changed: whether a work order's newest version is emitted ('emit'), emitted though its
 * earlier status is not known ('unknown'), or not ('skip'). `before` is the status remembered.
 */
export function statusDecision(
	version: WorkOrderVersion,
	before: string | undefined,
	forgotten: boolean,
	rule: StatusRule,
): 'emit' | 'unknown' | 'skip' {
	const matches = matchesStatus(version.record, rule.statuses, rule.textStatus);
	if (before !== undefined)
		return !sameStatus(before, statusSignature(version.record), rule.textStatus) && matches
			? 'emit'
			: 'skip';
	// It existed at T0, but its status before this change is not known (not read yet while
	// settling, not in the lists then, or forgotten): it may have changed.
	if (!existedBefore(version.record, rule.originMs, rule.existedFields) && !forgotten)
		return 'skip';
	return rule.unknownStatus === 'emit' && matches ? 'unknown' : 'skip';
}

/**
 * A remembered status signature as the record's Status shape: a work order's `{ Primary, Extended }`
 * (empty parts null), an invoice's text.
 */
export function statusOfSignature(
	signature: string | undefined,
	textStatus = false,
): IDataObject | string | null {
	if (signature === undefined) return null;
	if (textStatus) {
		const text = signature.split('\u001f')[0];
		return text === '' ? null : text;
	}
	const [primary, extended = ''] = signature.split('\u001f');
	return { Primary: primary === '' ? null : primary, Extended: extended === '' ? null : extended };
}

/**
 * A Status Changed item: the work order as the service sent it, and `PreviousStatus`, the status
 * the trigger saw before this change (`{ Primary, Extended }`; null when it did not know it).
 */
function statusChangedItem(
	record: IDataObject,
	before: string | undefined,
	textStatus = false,
): IDataObject {
	const item: IDataObject = {};
	for (const [key, value] of Object.entries(record)) {
		Object.defineProperty(item, key, {
			value,
			enumerable: true,
			writable: true,
			configurable: true,
		});
	}
	item.PreviousStatus = statusOfSignature(before, textStatus) as IDataObject | string | null;
	return item;
}

/**
 * The items of the newest versions: all of them, or with a status memory (Status Changed) those
 * whose status changed (with the status before it), remembering each one's status now.
 * `unknown`: items emitted without a known earlier status.
 */
export function itemsToEmit(
	newest: WorkOrderVersion[],
	memory: StatusMemory | undefined,
	rule: StatusRule,
): { items: IDataObject[]; unknown: number } {
	if (!memory) return { items: newest.map((version) => version.record), unknown: 0 };
	const items: IDataObject[] = [];
	let unknown = 0;
	for (const version of newest) {
		const before = memory.get(version.id);
		const decision = statusDecision(version, before, memory.forgot(version.id), rule);
		if (decision !== 'skip') items.push(statusChangedItem(version.record, before, rule.textStatus));
		if (decision === 'unknown') unknown++;
		memory.set(version.id, statusSignature(version.record));
	}
	return { items, unknown };
}
