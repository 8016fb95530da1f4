import type { IDataObject, IPollFunctions } from 'n8n-workflow';

import { meaningOf } from '../helpers/errorMeaning';
import { headerValue } from '../transport/policy';
import type { WorkOrderServiceClient } from '../transport/client';
import { ODATA_VALUE_LIST, PAGE_SIZE, fetchPage, readPage, type Page } from '../transport/paging';
import { joinClauses } from './filter';
import type { DateField } from './objects';
import {
	filterLiteral,
	instantOf,
	isAmbiguousReading,
	parseHttpDate,
	serviceInstant,
	wallSafeFrom,
} from './time';
import { ID_TEXT, contentDigest, versionKey } from './state';

/**
 * The trigger's reads of `GET /odata/workorders`: the window since the cursor (ascending, paged
 * with $skip), the most recent record, and the statuses as of T0 (by Id, keyset paging).
 *
 * Pages are computed by the service from live data, so a record that changes between two page
 * reads moves to the end of an ascending order and the records behind its old place move one
 * position forward: with a plain `$skip += 50`, the record that was first on the next page
 * slips onto the page already read and is never returned. The window read therefore overlaps
 * pages by one record (`$skip` = 0, 49, 98, ...): a page is accepted only when its first record
 * is one already read (its sort key is not beyond the last one read). If the first record is
 * beyond it, records before the offset changed, and the read steps back until it finds the
 * place again. Accepted pages keep this invariant: every record whose (date, Id) is at or below
 * the last one read has been read in this poll.
 */

export const WORK_ORDERS_PATH = '/odata/workorders';

export type { DateField };

/** One version of one work order: the record as the service sent it and its sort key. */
export interface WorkOrderVersion {
	record: IDataObject;
	/** The Id as text (ids beyond 2^53 arrive as exact strings). */
	id: string;
	idValue: bigint;
	/** The instant of its date field (Created: CallDate; otherwise UpdatedDate). */
	ms: number;
	/** `<Id>@<ISO instant>#<content digest>`: two versions dated in the same second differ by content. */
	key: string;
	/**
	 * Read from a plain date without twin in the hour the November fall-back repeats: `ms` is the
	 * earlier reading (EDT), the record may date from an hour later (EST).
	 */
	ambiguous?: boolean;
}

export interface WindowRead {
	/** Each version read, once, in the order read. */
	versions: WorkOrderVersion[];
	/** The read reached the end of the list (a short page). */
	complete: boolean;
	/** The service clock when the first page was answered (its `Date` header), if it sent one. */
	serviceNow?: number;
	/** Every record dated before this instant (and those at it up to the last Id) was read. */
	safeMs?: number;
	/** The sort key of the last record read, in sort order (also one read by the poll resumed). */
	last?: { ms: number; idValue: bigint };
	/** The `$skip` the read would have continued with (where a later poll resumes it). */
	nextOffset: number;
	requests: number;
}

/**
 * The instant of a work order's date field: its twin under the work order's name for it
 * (`UpdatedDate_DTO`, with the offset, possibly in the location's zone), else the plain field:
 * with an offset as given, without one as US Eastern local time (the service's zone), never UTC.
 */
export function recordInstant(record: IDataObject, field: DateField): number | undefined {
	return instantOf(record[`${field}_DTO`]) ?? serviceInstant(record[field]);
}

function idOf(record: IDataObject): { id: string; idValue: bigint } | undefined {
	const raw = record.Id;
	const text =
		typeof raw === 'number' && Number.isSafeInteger(raw)
			? String(raw)
			: typeof raw === 'string'
				? raw.trim()
				: '';
	if (!ID_TEXT.test(text)) return undefined;
	return { id: text, idValue: BigInt(text) };
}

/** Whether a record's date was read from a plain wall time the fall-back hour repeats (no twin, no offset). */
function readAmbiguously(record: IDataObject, field: DateField, ms: number): boolean {
	if (instantOf(record[`${field}_DTO`]) !== undefined) return false;
	return instantOf(record[field]) === undefined && isAmbiguousReading(ms);
}

export function toVersion(record: IDataObject, field: DateField): WorkOrderVersion | undefined {
	const id = idOf(record);
	const ms = recordInstant(record, field);
	if (!id || ms === undefined) return undefined;
	const version: WorkOrderVersion = {
		record,
		...id,
		ms,
		key: versionKey(id.id, ms, contentDigest(record)),
	};
	if (readAmbiguously(record, field, ms)) version.ambiguous = true;
	return version;
}

/** Order of the service's `$orderby=<date> asc,Id asc`. */
export function compareVersions(
	a: { ms: number; idValue: bigint },
	b: { ms: number; idValue: bigint },
): number {
	if (a.ms !== b.ms) return a.ms < b.ms ? -1 : 1;
	return a.idValue === b.idValue ? 0 : a.idValue < b.idValue ? -1 : 1;
}

function versionsOf(
	ctx: IPollFunctions,
	page: IDataObject[],
	field: DateField,
	label: string,
): WorkOrderVersion[] {
	const versions: WorkOrderVersion[] = [];
	for (const record of page) {
		const version = toVersion(record, field);
		if (version) versions.push(version);
		else
			ctx.logger.warn(
				`Work Order Service Polling Trigger: skipped a ${label} without a usable Id or ${field}`,
				{ node: ctx.getNode().name },
			);
	}
	return versions;
}

export interface WindowOptions {
	/** The list read (`/odata/workorders`, `/odata/invoices`) and what its records are called. */
	path: string;
	label: string;
	/**
	 * The list's dates are plain wall times without twin (invoices): the read starts where no wall
	 * time that follows `fromMs` is before it (time.ts `wallSafeFrom`, the fall-back hour).
	 */
	plainDates?: boolean;
	clauses: string[];
	field: DateField;
	fromMs: number;
	/** No new page is requested after this time (the first page always is). */
	deadline: number;
	maxRequests: number;
	/**
	 * Where the previous poll stopped when it could not read to the end: its offset in this same
	 * window and the last record it read. Starting there (the acceptance rule still applies), a
	 * backlog of records sharing one date longer than one poll can read still makes progress.
	 */
	resume?: { offset: number; last: { ms: number; idValue: bigint } };
	/**
	 * Reads after the first go through this client, and one that fails for a passing reason
	 * (throttling, a 5xx, no answer) ends the read early instead of failing it (activation: no
	 * waiting for a throttled read that can as well be made by the next poll).
	 */
	laterClient?: WorkOrderServiceClient;
}

/** A failure that passes: throttling (429, 503), another 5xx, or no answer (what the error means: helpers/errorMeaning.ts). */
export function isTransient(error: unknown): boolean {
	const kind = meaningOf(error)?.kind;
	return kind === 'throttled' || kind === 'serverError' || kind === 'noAnswer';
}

/** Where a window read stands: what it read, where it continues, what it has asked. */
interface WindowProgress {
	versions: WorkOrderVersion[];
	/** Keys of the versions read (each is kept once). */
	read: Set<string>;
	/** The sort key of the last record read, in sort order. */
	last?: { ms: number; idValue: bigint };
	offset: number;
	requests: number;
	serviceNow?: number;
}

function windowResult(progress: WindowProgress, complete: boolean): WindowRead {
	const { versions, serviceNow, last, offset, requests } = progress;
	return { versions, complete, serviceNow, safeMs: last?.ms, last, nextOffset: offset, requests };
}

/** The window's own query ($filter and $orderby; the page's $top/$skip/$count come from ODATA_VALUE_LIST). */
export function windowQuery(
	options: Pick<WindowOptions, 'clauses' | 'field' | 'fromMs' | 'plainDates'>,
): IDataObject {
	const { field } = options;
	const from = options.plainDates ? wallSafeFrom(options.fromMs) : options.fromMs;
	const filter = joinClauses([`${field} ge ${filterLiteral(from)}`, ...options.clauses]) as string;
	return { $filter: filter, $orderby: `${field} asc,Id asc` };
}

/**
 * Whether a page read at `offset` must be read again from further back: its first record is
 * beyond the last one read, so records before the offset changed since the last page (the
 * acceptance rule at the top). The first page of a read (no record read yet) is always accepted.
 */
export function mustStepBack(
	page: WorkOrderVersion[],
	offset: number,
	last: { ms: number; idValue: bigint } | undefined,
): boolean {
	if (offset === 0 || !last) return false;
	const first = page[0];
	return !first || compareVersions(first, last) > 0;
}

/** The offset to read again from after `mustStepBack`: one page back, keeping the one-record overlap. */
export function stepBack(offset: number): number {
	return Math.max(0, offset - (PAGE_SIZE - 1));
}

/**
 * Whether an accepted page ends the window: a short page ends the list, unless @odata.count says
 * more records follow (a service with a smaller page cap); a page holding only the overlap record
 * always ends it.
 */
export function isWindowEnd(
	pageLength: number,
	offset: number,
	count: number | undefined,
): boolean {
	if (pageLength <= (offset > 0 ? 1 : 0)) return true;
	return pageLength < PAGE_SIZE && (count === undefined || offset + pageLength >= count);
}

/** Adds a page's versions not read yet and moves `last` to the furthest in sort order. */
function takeVersions(progress: WindowProgress, page: WorkOrderVersion[]): void {
	for (const version of page) {
		if (!progress.read.has(version.key)) {
			progress.read.add(version.key);
			progress.versions.push(version);
		}
		if (!progress.last || compareVersions(version, progress.last) > 0) progress.last = version;
	}
}

/** Whether the read stops before its next page: the request budget, or the deadline (after the first). */
function windowBudgetSpent(progress: WindowProgress, options: WindowOptions): boolean {
	return (
		progress.requests >= options.maxRequests ||
		(progress.requests > 0 && Date.now() >= options.deadline)
	);
}

/** Every matching record dated at or after `fromMs`, oldest first (see the comment at the top). */
export async function readWindow(
	ctx: IPollFunctions,
	client: WorkOrderServiceClient,
	options: WindowOptions,
): Promise<WindowRead> {
	const qs = windowQuery(options);
	const progress: WindowProgress = {
		versions: [],
		read: new Set(),
		last: options.resume?.last,
		offset: options.resume ? Math.max(0, options.resume.offset) : 0,
		requests: 0,
	};
	for (;;) {
		if (windowBudgetSpent(progress, options)) return windowResult(progress, false);
		const later = progress.requests > 0 ? options.laterClient : undefined;
		const position = { page: progress.requests, offset: progress.offset, size: PAGE_SIZE };
		const outcome = await readPage(
			ctx,
			later ?? client,
			ODATA_VALUE_LIST,
			{ path: options.path, qs },
			position,
		).then(
			(page) => ({ page }),
			(error: unknown) => ({ error }),
		);
		progress.requests++;
		if ('error' in outcome) {
			if (!later || !isTransient(outcome.error)) throw outcome.error;
			return windowResult(progress, false);
		}
		const { page } = outcome;
		if (progress.requests === 1) progress.serviceNow = serviceClock(page);
		const pageVersions = versionsOf(ctx, page.records, options.field, options.label);
		if (mustStepBack(pageVersions, progress.offset, progress.last)) {
			progress.offset = stepBack(progress.offset);
			continue;
		}
		takeVersions(progress, pageVersions);
		if (isWindowEnd(page.records.length, progress.offset, page.total))
			return windowResult(progress, true);
		progress.offset += page.records.length - 1;
	}
}

/** The service's clock when it answered a page (its `Date` header), if it sent one. */
function serviceClock(page: Page): number | undefined {
	return parseHttpDate(headerValue(page.headers, 'date'));
}

/** The most recent matching record (by `field`), and the service clock. */
export async function readLatest(
	ctx: IPollFunctions,
	client: WorkOrderServiceClient,
	clauses: string[],
	field: DateField,
	path: string = WORK_ORDERS_PATH,
): Promise<{ record?: IDataObject; serviceNow?: number }> {
	const qs: IDataObject = { $orderby: `${field} desc,Id desc`, $top: 1 };
	const filter = joinClauses(clauses);
	if (filter !== undefined) qs.$filter = filter;
	const page = await fetchPage(ctx, client, ODATA_VALUE_LIST, { path, qs });
	return { record: page.records[0], serviceNow: serviceClock(page) };
}

/** What one page of the status baseline brought. */
export interface BaselinePage {
	/** Id and status signature source of each record dated before T0, in the order read. */
	records: Array<{ id: string; idValue: bigint; record: IDataObject }>;
	/** The lowest Id on the page (where the next page continues); undefined for an empty page. */
	lowest?: bigint;
	/** Records on the page (also those without a usable Id or dated at or after T0). */
	size: number;
	/** The service clock when the page was answered (its Date header). */
	serviceNow?: number;
}

/** The fields the baseline needs: the Id, the status and the date it is compared with (the work order's properties). */
export const BASELINE_SELECT = 'Id,Status,UpdatedDate,UpdatedDate_DTO';

interface BaselineQuery {
	clauses: string[];
	originMs: number;
	before?: bigint;
	/** The list and the fields selected (work orders: BASELINE_SELECT). */
	path?: string;
	select?: string;
	label?: string;
}

/** The query of one status page: updated before T0, below `before`, highest Id first. */
export function baselineQuery(options: BaselineQuery): IDataObject {
	const clauses = [`UpdatedDate lt ${filterLiteral(options.originMs)}`];
	if (options.before !== undefined) clauses.push(`Id lt ${options.before.toString()}`);
	const filter = joinClauses([...clauses, ...options.clauses]) as string;
	return {
		$filter: filter,
		$orderby: 'Id desc',
		$top: PAGE_SIZE,
		$select: options.select ?? BASELINE_SELECT,
	};
}

/**
 * One page of the statuses the Status Changed event starts from: matching work orders last
 * updated before T0, highest Id first, below `before` (keyset paging: a record that changes
 * meanwhile leaves the set, none can shift a page, so none is skipped). Newest work orders first:
 * they are the ones most likely to change while the read goes on.
 */
export async function readBaselinePage(
	ctx: IPollFunctions,
	client: WorkOrderServiceClient,
	options: BaselineQuery,
): Promise<BaselinePage> {
	const page = await fetchPage(ctx, client, ODATA_VALUE_LIST, {
		path: options.path ?? WORK_ORDERS_PATH,
		qs: baselineQuery(options),
	});
	const records: BaselinePage['records'] = [];
	let lowest: bigint | undefined;
	for (const record of page.records) {
		const id = idOf(record);
		if (!id) {
			ctx.logger.warn(
				`Work Order Service Polling Trigger: skipped a ${options.label ?? 'work order'} without a usable Id`,
				{ node: ctx.getNode().name },
			);
			continue;
		}
		if (lowest === undefined || id.idValue < lowest) lowest = id.idValue;
		// A record outside the keyset or dated at or after T0 (a service that ignored a clause) is not a T0 status.
		if (options.before !== undefined && id.idValue >= options.before) continue;
		const ms = recordInstant(record, 'UpdatedDate');
		if (ms !== undefined && ms >= options.originMs) continue;
		records.push({ ...id, record });
	}
	return { records, lowest, size: page.records.length, serviceNow: serviceClock(page) };
}
