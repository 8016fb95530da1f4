import type { IDataObject, INodeExecutionData, IPollFunctions } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import { PAGE_SIZE, WorkOrderServiceClient } from '../transport';
import { matchesStatus, readFilters, type TriggerFilters } from './filter';
import {
	DEFAULT_MEMORY_LIMIT,
	STATE_VERSION,
	StatusMemory,
	keyWithoutDigest,
	parseKey,
	readState,
	stateBytes,
	statusSignature,
	versionKey,
	writeState,
	type TriggerEvent,
	type TriggerState,
} from './state';
import { isKnownZone, parseDateTime, toODataInstant, zonedWallTimeToInstant } from './time';
import {
	compareVersions,
	isTransient,
	readBaselinePage,
	readLatest,
	readWindow,
	recordInstant,
	type DateField,
	type WorkOrderVersion,
} from './reader';

/**
 * One poll of the Work Order Service Trigger (README "Trigger", docs/trigger.md).
 *
 * Activation (the first poll of an active workflow) reads the service's clock: T0. What the
 * service dated before T0 was already there; everything dated at or after T0 is an event. Each
 * later poll reads, oldest first, every matching work order dated at or after the cursor (its
 * UpdatedDate, or CallDate for Created), skips the versions it handled before, emits the rest (one
 * item per work order: its newest version), and moves the cursor to the service's clock at the
 * start of the read minus the Lookback Window, never back and never before T0. Records read again
 * inside that window are recognised by `<Id>@<instant>#<content digest>` and not emitted twice.
 *
 * Status Changed also needs the status every work order had at T0. Reading it takes one request
 * per 50 work orders, so it is not done inside the activation (n8n gives an activation about 84 s):
 * the activation reads what fits in a few requests, and every later poll continues (keyset paging
 * by Id, newest work orders first) until all are read: the trigger "settles". A work order that
 * existed at T0 but whose status the trigger does not know (it changed before its T0 status was
 * read, was not in the lists then, or was forgotten beyond the memory limit) has no known earlier
 * status: the Unknown Previous Status option decides whether its change is emitted.
 *
 * The state is written as a whole at the end of a successful poll (and, at activation, as soon as
 * T0 is known, before anything else is read): a failed poll leaves the last state untouched.
 */

export const DEFAULT_LOOKBACK_SECONDS = 60;
/** Requests one poll may make for the window; a larger backlog continues in the next poll. */
export const MAX_REQUESTS_PER_POLL = 100;
/**
 * Requests one poll may make for the Status Changed baseline (besides the window): 100,000 work
 * orders. In practice the poll budget ends it first at a rate-limited service (40/min: about 160).
 */
export const MAX_BASELINE_REQUESTS_PER_POLL = 2000;
/**
 * The first poll of an active workflow (activation, or n8n starting again) makes at most this
 * many requests to the API (a login may add one) ...
 */
export const ACTIVATION_MAX_REQUESTS = 8;
/** ... and starts a read beyond the first only within this time. */
export const ACTIVATION_READ_MS = 10_000;
const DEFAULT_POLL_BUDGET_MS = 5 * 60_000;

export type UnknownStatusHandling = 'emit' | 'ignore';

interface Settings {
	event: TriggerEvent;
	field: DateField;
	filters: TriggerFilters;
	/** Clauses sent with every poll's read (Status Changed compares statuses itself: no status clause). */
	pollClauses: string[];
	/** The Start Date option as given ('' = none; always '' for Status Changed) and its instant. */
	startDate: string;
	startMs?: number;
	lookbackMs: number;
	unknownStatus: UnknownStatusHandling;
	memoryLimit: number;
}

interface Limits {
	/** Requests this poll may make for the window. */
	windowRequests: number;
	/** Requests this poll may make in all. */
	totalRequests: number;
	/** No read beyond the first starts after this time. */
	deadline: number;
}

const EVENTS: TriggerEvent[] = ['workOrderCreated', 'workOrderUpdated', 'workOrderStatusChanged'];

/**
 * The static data objects of the live workflows this process has polled successfully. n8n keeps one
 * workflow object (and so one static data object) per active workflow from its activation to its
 * deactivation, so an object not in here is an activation (or n8n starting again): that poll is
 * kept short. Only a bound: when n8n builds the object afresh for every poll, every poll is short.
 */
const polledLive = new WeakSet<object>();
/** Static data objects with a poll running: a tick that comes while the last poll still runs does nothing. */
const polling = new WeakSet<object>();

function startDateText(value: unknown): string {
	if (value === undefined || value === null) return '';
	if (value instanceof Date) return Number.isNaN(value.getTime()) ? 'Invalid Date' : value.toISOString();
	if (typeof value === 'object' && typeof (value as { toISO?: unknown }).toISO === 'function') {
		return String((value as { toISO: () => unknown }).toISO());
	}
	return String(value).trim();
}

function readSettings(ctx: IPollFunctions): Settings {
	const node = ctx.getNode();
	const event = ctx.getNodeParameter('event', 'workOrderUpdated') as TriggerEvent;
	if (!EVENTS.includes(event)) {
		throw new NodeOperationError(node, `Unknown event "${String(event)}" (parameter "event")`, {
			description: 'Choose Work Order Created, Work Order Updated or Work Order Status Changed.',
		});
	}
	const statusChanged = event === 'workOrderStatusChanged';
	const filters = readFilters(node, ctx.getNodeParameter('filters', {}) as IDataObject);
	const options = (ctx.getNodeParameter('options', {}) ?? {}) as IDataObject;

	// Status Changed has no history to read (the service keeps none): it starts at activation.
	const startDate = statusChanged ? '' : startDateText(options.startDate);
	let startMs: number | undefined;
	if (startDate !== '') {
		const parsed = parseDateTime(startDate);
		if (!parsed) {
			throw new NodeOperationError(node, `Invalid Start Date (parameter "options.startDate"): "${startDate}" is not a date-time`, {
				description: 'Give an ISO 8601 date-time such as 2026-03-29T08:00:00 (workflow time zone) or 2026-03-29T06:00:00Z.',
			});
		}
		if (parsed.offsetMinutes !== undefined) startMs = parsed.wallMs - parsed.offsetMinutes * 60_000;
		else {
			const zone = ctx.getTimezone();
			startMs = zone && isKnownZone(zone) ? zonedWallTimeToInstant(parsed.wallMs, zone) : parsed.wallMs;
		}
	}

	const lookback = Number(options.lookbackSeconds ?? DEFAULT_LOOKBACK_SECONDS);
	if (!Number.isFinite(lookback) || lookback < 0 || lookback > 3600) {
		throw new NodeOperationError(node, `Invalid Lookback Window (parameter "options.lookbackSeconds"): ${String(options.lookbackSeconds)}`, {
			description: 'Give a number of seconds from 0 to 3600.',
		});
	}

	const unknownStatus = (options.unknownPreviousStatus ?? 'emit') as UnknownStatusHandling;
	if (unknownStatus !== 'emit' && unknownStatus !== 'ignore') {
		throw new NodeOperationError(node, `Invalid Unknown Previous Status (parameter "options.unknownPreviousStatus"): "${String(unknownStatus)}"`, {
			description: 'Choose Emit or Ignore.',
		});
	}
	const memoryLimit = Number(options.maxRemembered ?? DEFAULT_MEMORY_LIMIT);
	if (!Number.isSafeInteger(memoryLimit) || memoryLimit < 1000) {
		throw new NodeOperationError(node, `Invalid Max Work Orders Remembered (parameter "options.maxRemembered"): ${String(options.maxRemembered)}`, {
			description: 'Give a whole number of at least 1,000.',
		});
	}

	return {
		event,
		field: event === 'workOrderCreated' ? 'CallDate' : 'UpdatedDate',
		filters,
		pollClauses: statusChanged || !filters.statusClause ? filters.clauses : [...filters.clauses, filters.statusClause],
		startDate,
		startMs,
		lookbackMs: Math.round(lookback * 1000),
		unknownStatus,
		memoryLimit,
	};
}

function pollBudgetMs(ctx: IPollFunctions): number {
	const getBudget = (ctx as Partial<Pick<IPollFunctions, 'getPollBudgetMs'>>).getPollBudgetMs;
	const budget = typeof getBudget === 'function' ? Number(getBudget.call(ctx)) : DEFAULT_POLL_BUDGET_MS;
	return Number.isFinite(budget) && budget > 0 ? budget * 0.8 : DEFAULT_POLL_BUDGET_MS * 0.8;
}

/** 'Fetch Test Event': the most recent matching work order, nothing stored. */
async function fetchTestEvent(ctx: IPollFunctions, client: WorkOrderServiceClient, settings: Settings): Promise<INodeExecutionData[][]> {
	const clauses = settings.filters.statusClause ? [...settings.filters.clauses, settings.filters.statusClause] : settings.filters.clauses;
	const { record } = await readLatest(ctx, client, clauses, settings.field);
	if (!record) {
		throw new NodeOperationError(ctx.getNode(), 'No work order matches the trigger\'s filters', {
			description: `Fetch Test Event returns the most recently ${settings.field === 'CallDate' ? 'created' : 'changed'} work order that matches the filters. Loosen the filters, or create or change a work order in the service, then fetch again.`,
		});
	}
	return [ctx.helpers.returnJsonArray([record])];
}

/** Whether a record existed before `originMs` (its CreatedDate, else CallDate; unknown: yes). */
function existedBefore(record: IDataObject, originMs: number): boolean {
	const created = recordInstant(record, 'CreatedDate') ?? recordInstant(record, 'CallDate');
	return created === undefined || created < originMs;
}

interface Poll {
	ctx: IPollFunctions;
	client: WorkOrderServiceClient;
	/**
	 * The client for reads that can wait for the next poll (activation: without retries, so that a
	 * throttled read ends the activation's part instead of waiting for the service's window).
	 */
	optionalClient: WorkOrderServiceClient;
	settings: Settings;
	limits: Limits;
	requests: number;
	read: number;
	/** Status Changed: items emitted for a work order whose earlier status was not known. */
	unknown: number;
}

/**
 * Reads the window from the cursor (resuming where the last poll stopped), handles what was not
 * handled before, and returns the items and the next state (statuses not yet encoded).
 */
async function pollWindow(
	poll: Poll,
	state: TriggerState,
	memory: StatusMemory | undefined,
): Promise<{ items: IDataObject[]; state: TriggerState; serviceNow?: number }> {
	const { ctx, client, settings } = poll;
	const fromMs = Date.parse(state.cursor);
	let resume: { offset: number; last: { ms: number; idValue: bigint } } | undefined;
	const resumeAt = state.resume ? parseKey(state.resume.after) : undefined;
	if (state.resume && resumeAt && resumeAt.ms >= fromMs) {
		resume = { offset: state.resume.skip, last: { ms: resumeAt.ms, idValue: BigInt(resumeAt.id) } };
	}
	const window = await readWindow(ctx, client, {
		clauses: settings.pollClauses,
		field: settings.field,
		fromMs,
		deadline: poll.limits.deadline,
		maxRequests: Math.max(1, Math.min(poll.limits.windowRequests, poll.limits.totalRequests - poll.requests)),
		resume,
		laterClient: poll.optionalClient === client ? undefined : poll.optionalClient,
	});
	poll.requests += window.requests;
	poll.read += window.versions.length;

	// Created: a work order is created once, whatever its date says later; others: per version
	// (content included), and never a version older than one handled (a lagging replica).
	const byId = settings.event === 'workOrderCreated';
	const seenKeys = new Set(state.seen);
	const seenIds = new Set<string>();
	const newestSeen = new Map<string, number>();
	for (const key of state.seen) {
		const parts = parseKey(key);
		if (!parts) continue;
		seenIds.add(parts.id);
		if ((newestSeen.get(parts.id) ?? -Infinity) < parts.ms) newestSeen.set(parts.id, parts.ms);
	}
	const handled: string[] = [];
	const newest = new Map<string, WorkOrderVersion>();
	for (const version of window.versions) {
		if (byId) {
			if (seenIds.has(version.id)) continue;
		} else if ((newestSeen.get(version.id) ?? -Infinity) > version.ms) {
			continue;
		} else if (seenKeys.has(version.key) || seenKeys.has(keyWithoutDigest(version.key))) {
			// Handled before, so its status is the one last seen (a state of version 1 may not have
			// remembered it).
			if (memory && !memory.has(version.id)) memory.set(version.id, statusSignature(version.record));
			continue;
		}
		handled.push(byId ? keyWithoutDigest(version.key) : version.key);
		const previous = newest.get(version.id);
		if (!previous || compareVersions(version, previous) >= 0) newest.set(version.id, version);
	}

	const originMs = Date.parse(state.origin);
	const items: IDataObject[] = [];
	for (const version of [...newest.values()].sort(compareVersions)) {
		if (memory) {
			const before = memory.get(version.id);
			const now = statusSignature(version.record);
			const matches = matchesStatus(version.record, settings.filters.statuses);
			if (before !== undefined) {
				if (before !== now && matches) items.push(version.record);
			} else if (existedBefore(version.record, originMs) || memory.forgot(version.id)) {
				// It existed at T0, but its status before this change is not known (not read yet while
				// settling, not in the lists then, or forgotten): it may have changed.
				if (settings.unknownStatus === 'emit' && matches) {
					items.push(version.record);
					poll.unknown++;
				}
			}
			memory.set(version.id, now);
		} else {
			items.push(version.record);
		}
	}

	// The service clock when the read began: its Date header, else its newest date read.
	let serviceNow = window.serviceNow;
	if (serviceNow === undefined) {
		for (const version of window.versions) if (serviceNow === undefined || version.ms > serviceNow) serviceNow = version.ms;
	}
	let next = serviceNow === undefined ? fromMs : serviceNow - settings.lookbackMs;
	if (!window.complete) next = Math.min(next, window.safeMs ?? fromMs);
	next = Math.max(fromMs, next);

	const keep = new Set<string>();
	for (const key of [...state.seen, ...handled]) if ((parseKey(key)?.ms ?? -Infinity) >= next) keep.add(key);

	const nextState: TriggerState = {
		version: STATE_VERSION,
		event: settings.event,
		startDate: settings.startDate,
		origin: state.origin,
		cursor: toODataInstant(next),
		seen: [...keep],
	};
	if (!window.complete && window.last && window.last.ms >= next) {
		// The next window starts at the new cursor: the records dated before it (all handled, so in
		// `seen` or read now) leave the front of the list. Counting one that has moved away makes the
		// offset smaller, which only re-reads a record or two.
		let dropped = 0;
		for (const key of new Set([...state.seen, ...handled].map(keyWithoutDigest))) {
			const at = parseKey(key)?.ms ?? Number.NaN;
			if (at >= fromMs && at < next) dropped++;
		}
		nextState.resume = {
			after: versionKey(String(window.last.idValue), window.last.ms),
			skip: Math.max(0, window.nextOffset - dropped),
		};
	}
	if (state.baseline) nextState.baseline = { ...state.baseline };
	return { items, state: nextState, serviceNow };
}

/**
 * Continues the status read (Status Changed, while settling) for the rest of this poll's budget:
 * pages of the statuses as of T0, newest Ids first. Throttling or a transient failure only ends
 * this poll's part; the next poll continues.
 */
async function pollBaseline(poll: Poll, state: TriggerState, memory: StatusMemory): Promise<void> {
	const baseline = state.baseline;
	if (!baseline) return;
	const originMs = Date.parse(state.origin);
	let pages = 0;
	// At least one page per poll (as the window read), so that a tiny poll budget still progresses.
	while (poll.requests < poll.limits.totalRequests && pages < MAX_BASELINE_REQUESTS_PER_POLL && (pages === 0 || Date.now() < poll.limits.deadline)) {
		const before = baseline.after === undefined ? undefined : BigInt(baseline.after);
		if (before !== undefined && memory.forgottenBelow !== undefined && before <= memory.forgottenBelow + 1n) {
			// Everything below was forgotten for the memory limit: no need to read it. Settled.
			delete state.baseline;
			return;
		}
		const outcome = await readBaselinePage(poll.ctx, poll.optionalClient, { clauses: poll.settings.pollClauses, originMs, before }).then(
			(read) => ({ read }),
			(error: unknown) => ({ error }),
		);
		poll.requests++;
		if ('error' in outcome) {
			if (!isTransient(outcome.error)) throw outcome.error;
			poll.ctx.logger.warn('Work Order Service Trigger: reading the statuses as of activation paused until the next poll', {
				node: poll.ctx.getNode().name,
				error: (outcome.error as Error).message,
			});
			return;
		}
		const page = outcome.read;
		pages++;
		for (const { id, record } of page.records) {
			// A status seen since T0 is newer than the one as of T0; a forgotten id stays forgotten.
			if (!memory.has(id) && !memory.forgot(id)) memory.set(id, statusSignature(record));
		}
		const largest = baseline.page;
		if (page.size > 0) {
			if (page.lowest === undefined || (before !== undefined && page.lowest >= before)) {
				throw new NodeOperationError(poll.ctx.getNode(), 'The Work Order Service did not apply the Id filter of the status read', {
					description: 'Reading the statuses of all work orders pages with "$filter=... and Id lt <Id>&$orderby=Id desc". The service answered with work orders it should have left out, so the read cannot go on.',
				});
			}
			baseline.after = page.lowest.toString();
			baseline.page = Math.max(largest ?? 0, page.size);
		}
		// The end: an empty page, or one shorter than an earlier one (the service's page size is at
		// least that; a first short page is confirmed by an empty one).
		if (page.size === 0 || (largest !== undefined && page.size < largest) || (page.size < PAGE_SIZE && largest === PAGE_SIZE)) {
			delete state.baseline; // settled
			return;
		}
	}
}

/** First poll (no usable state): T0 from the service, then the Start Date's backlog or the statuses. */
async function begin(poll: Poll, staticData: IDataObject): Promise<{ items: IDataObject[]; state: TriggerState; memory?: StatusMemory }> {
	const { ctx, client, settings } = poll;
	const statusChanged = settings.event === 'workOrderStatusChanged';
	const memory = statusChanged ? new StatusMemory() : undefined;
	const base = { version: STATE_VERSION, event: settings.event, startDate: settings.startDate };
	if (settings.startMs === undefined) {
		const latest = await readLatest(ctx, client, settings.pollClauses, settings.field);
		poll.requests++;
		// T0: the service clock (its Date header); without one, the newest record's date (nothing newer
		// exists yet; that record itself is remembered as handled); with neither, nothing matches at
		// all, so any past instant is as good (n8n's clock may be ahead of the service's: a day back).
		const newest = latest.record ? recordInstant(latest.record, settings.field) : undefined;
		const origin = latest.serviceNow ?? newest ?? Date.now() - 86_400_000;
		const seen: string[] = [];
		if (latest.serviceNow === undefined && latest.record && newest !== undefined) seen.push(versionKey(String(latest.record.Id), newest));
		const state: TriggerState = { ...base, origin: toODataInstant(origin), cursor: toODataInstant(origin), seen };
		if (memory) {
			state.statuses = memory.encode(settings.memoryLimit);
			state.baseline = {};
		}
		// T0 is known and nothing was handled: a true state to continue from, should a later read of
		// this activation fail (n8n does not save it then, but a poll of the same workflow object would
		// use it).
		writeState(staticData, state);
		return { items: [], state, memory };
	}

	// With a Start Date: the window from that date, emitted; T0 is the clock of its first answer.
	const fromState: TriggerState = { ...base, origin: toODataInstant(settings.startMs), cursor: toODataInstant(settings.startMs), seen: [] };
	const outcome = await pollWindow(poll, fromState, memory);
	outcome.state.origin = toODataInstant(outcome.serviceNow ?? Date.now());
	return { items: outcome.items, state: outcome.state, memory };
}

export async function pollWorkOrders(this: IPollFunctions): Promise<INodeExecutionData[][] | null> {
	const settings = readSettings(this);
	const client = WorkOrderServiceClient.forNode(this);
	if (this.getMode() === 'manual') return await fetchTestEvent(this, client, settings);

	const staticData = this.getWorkflowStaticData('node');
	if (polling.has(staticData)) {
		this.logger.debug('Work Order Service Trigger: the previous poll is still running; this one is skipped', { node: this.getNode().name });
		return null;
	}
	polling.add(staticData);
	try {
		const started = Date.now();
		const budgetDeadline = started + pollBudgetMs(this);
		const activation = !polledLive.has(staticData);
		const limits: Limits = activation
			? { windowRequests: ACTIVATION_MAX_REQUESTS, totalRequests: ACTIVATION_MAX_REQUESTS, deadline: Math.min(budgetDeadline, started + ACTIVATION_READ_MS) }
			: { windowRequests: MAX_REQUESTS_PER_POLL, totalRequests: MAX_REQUESTS_PER_POLL + MAX_BASELINE_REQUESTS_PER_POLL, deadline: budgetDeadline };
		const optionalClient = activation ? new WorkOrderServiceClient(this, client.authentication, { ...client.settings, maxRetries: 0 }) : client;
		const poll: Poll = { ctx: this, client, optionalClient, settings, limits, requests: 0, read: 0, unknown: 0 };

		const stored = readState(staticData, settings.event, settings.startDate);
		let items: IDataObject[];
		let state: TriggerState;
		let memory: StatusMemory | undefined;
		if (stored) {
			// readState gives Status Changed a state only with its statuses.
			memory = stored.statuses ? StatusMemory.decode(stored.statuses) : undefined;
			({ items, state } = await pollWindow(poll, stored, memory));
		} else {
			({ items, state, memory } = await begin(poll, staticData));
		}
		if (memory) {
			await pollBaseline(poll, state, memory);
			state.statuses = memory.encode(settings.memoryLimit);
		}

		writeState(staticData, state);
		polledLive.add(staticData);
		this.logger.debug('Work Order Service Trigger polled', {
			node: this.getNode().name,
			event: settings.event,
			activation,
			requests: poll.requests,
			read: poll.read,
			emitted: items.length,
			unknownPreviousStatus: poll.unknown,
			cursor: state.cursor,
			remembered: state.seen.length,
			...(memory ? { statuses: memory.size, settling: state.baseline !== undefined } : {}),
			stateBytes: stateBytes(state),
		});
		return items.length ? [this.helpers.returnJsonArray(items)] : null;
	} finally {
		polling.delete(staticData);
	}
}
