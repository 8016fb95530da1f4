import type { IDataObject, INodeExecutionData, IPollFunctions } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import { WorkOrderServiceClient } from '../transport';
import { matchesStatus, readFilters, type TriggerFilters } from './filter';
import {
	STATE_VERSION,
	STATUS_MEMORY_CAP,
	StatusMemory,
	keyId,
	keyInstant,
	readState,
	statusSignature,
	versionKey,
	writeState,
	type TriggerEvent,
	type TriggerState,
} from './state';
import { isKnownZone, parseDateTime, toODataInstant, zonedWallTimeToInstant } from './time';
import {
	compareVersions,
	readBefore,
	readLatest,
	readWindow,
	recordInstant,
	type DateField,
	type WorkOrderVersion,
} from './reader';

/**
 * One poll of the Work Order Service Trigger (see README "Trigger" for what it guarantees).
 *
 * Each poll reads, oldest first, every matching work order dated at or after the cursor (its
 * UpdatedDate, or CallDate for Created), skips the versions it handled before, emits the rest
 * (one item per work order: its newest version), and moves the cursor to the service's clock at
 * the start of the read minus the Lookback Window. Records read again inside that window are
 * recognised by `<Id>@<instant>` and not emitted twice. The cursor is kept in the service's
 * clock (the `Date` header of its answers and its own dates), so a difference between the
 * service's clock and n8n's does not matter. State is written only when the poll succeeds.
 */

export const DEFAULT_LOOKBACK_SECONDS = 60;
/** Requests one poll may make for the window; a larger backlog continues in the next poll. */
export const MAX_REQUESTS_PER_POLL = 100;
const DEFAULT_POLL_BUDGET_MS = 5 * 60_000;

interface Settings {
	event: TriggerEvent;
	field: DateField;
	filters: TriggerFilters;
	/** Clauses sent with every poll's read (Status Changed compares statuses itself: no status clause). */
	pollClauses: string[];
	/** The Start Date option as given ('' = none) and its instant. */
	startDate: string;
	startMs?: number;
	lookbackMs: number;
}

const EVENTS: TriggerEvent[] = ['workOrderCreated', 'workOrderUpdated', 'workOrderStatusChanged'];

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
	const filters = readFilters(node, ctx.getNodeParameter('filters', {}) as IDataObject);
	const options = (ctx.getNodeParameter('options', {}) ?? {}) as IDataObject;

	const startDate = startDateText(options.startDate);
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

	const statusChanged = event === 'workOrderStatusChanged';
	return {
		event,
		field: event === 'workOrderCreated' ? 'CallDate' : 'UpdatedDate',
		filters,
		pollClauses: statusChanged || !filters.statusClause ? filters.clauses : [...filters.clauses, filters.statusClause],
		startDate,
		startMs,
		lookbackMs: Math.round(lookback * 1000),
	};
}

function pollBudgetMs(ctx: IPollFunctions): number {
	const getBudget = (ctx as Partial<Pick<IPollFunctions, 'getPollBudgetMs'>>).getPollBudgetMs;
	const budget = typeof getBudget === 'function' ? Number(getBudget.call(ctx)) : DEFAULT_POLL_BUDGET_MS;
	return Number.isFinite(budget) && budget > 0 ? budget * 0.8 : DEFAULT_POLL_BUDGET_MS;
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

interface PollOutcome {
	items: IDataObject[];
	state: TriggerState;
	requests: number;
	read: number;
}

/**
 * Reads the window from `fromMs`, handles what was not handled before, and computes the next
 * state. `emit` false: the records are only remembered (first activation without a Start Date).
 */
async function runWindow(
	ctx: IPollFunctions,
	client: WorkOrderServiceClient,
	settings: Settings,
	run: {
		fromMs: number;
		seen: string[];
		resume?: { after: string; skip: number };
		memory?: StatusMemory;
		emit: boolean;
		deadline: number;
		requestsSoFar: number;
	},
): Promise<PollOutcome> {
	// Resume where the last poll stopped, if it stopped early (the acceptance rule steps back if
	// that place moved meanwhile).
	let resume: { offset: number; last: { ms: number; idValue: bigint } } | undefined;
	if (run.resume !== undefined) {
		const at = keyInstant(run.resume.after);
		const id = keyId(run.resume.after);
		if (at >= run.fromMs && /^-?\d{1,19}$/.test(id)) resume = { offset: run.resume.skip, last: { ms: at, idValue: BigInt(id) } };
	}
	const window = await readWindow(ctx, client, {
		clauses: settings.pollClauses,
		field: settings.field,
		fromMs: run.fromMs,
		deadline: run.deadline,
		maxRequests: MAX_REQUESTS_PER_POLL,
		resume,
	});

	// Created: a work order is created once, whatever its date says later; others: per version.
	const byId = settings.event === 'workOrderCreated';
	const seenKeys = new Set(run.seen);
	const seenIds = new Set(run.seen.map(keyId));
	const handled: string[] = [];
	const newest = new Map<string, WorkOrderVersion>();
	for (const version of window.versions) {
		if (byId ? seenIds.has(version.id) : seenKeys.has(version.key)) continue;
		handled.push(version.key);
		const previous = newest.get(version.id);
		if (!previous || compareVersions(version, previous) >= 0) newest.set(version.id, version);
	}

	const items: IDataObject[] = [];
	for (const version of [...newest.values()].sort(compareVersions)) {
		if (run.memory) {
			const before = run.memory.get(version.id);
			const now = statusSignature(version.record);
			run.memory.see(version.id, now);
			if (run.emit && before !== undefined && before !== now && matchesStatus(version.record, settings.filters.statuses)) {
				items.push(version.record);
			}
		} else if (run.emit) {
			items.push(version.record);
		}
	}

	// The service clock when the read began: its Date header, else its newest date read.
	let serviceNow = window.serviceNow;
	if (serviceNow === undefined) {
		for (const version of window.versions) if (serviceNow === undefined || version.ms > serviceNow) serviceNow = version.ms;
	}
	let next = serviceNow === undefined ? run.fromMs : serviceNow - settings.lookbackMs;
	if (!window.complete) next = Math.min(next, window.safeMs ?? run.fromMs);
	next = Math.max(run.fromMs, next);

	const keep = new Set<string>();
	for (const key of [...run.seen, ...handled]) if (keyInstant(key) >= next) keep.add(key);

	const state: TriggerState = {
		version: STATE_VERSION,
		event: settings.event,
		startDate: settings.startDate,
		cursor: toODataInstant(next),
		seen: [...keep],
		...(run.memory ? run.memory.toState() : {}),
	};
	if (!window.complete && window.last && window.last.ms >= next) {
		// The next window starts at the new cursor: the records dated before it (all handled, so in
		// `seen` or read now) leave the front of the list. Counting one that has moved away makes the
		// offset smaller, which only re-reads a record or two.
		let dropped = 0;
		for (const key of new Set([...run.seen, ...handled])) {
			const at = keyInstant(key);
			if (at >= run.fromMs && at < next) dropped++;
		}
		state.resume = {
			after: versionKey(String(window.last.idValue), window.last.ms),
			skip: Math.max(0, window.nextOffset - dropped),
		};
	}
	return { items, state, requests: run.requestsSoFar + window.requests, read: window.versions.length };
}

/** First poll (no usable state): from the Start Date, or from now without emitting what is already there. */
async function begin(ctx: IPollFunctions, client: WorkOrderServiceClient, settings: Settings, deadline: number): Promise<PollOutcome> {
	let fromMs: number;
	let requests = 0;
	if (settings.startMs !== undefined) {
		fromMs = settings.startMs;
	} else {
		const latest = await readLatest(ctx, client, settings.pollClauses, settings.field);
		requests++;
		// The service clock (its Date header); without one, the newest record's date (nothing newer
		// exists yet); with neither, nothing matches at all, so any past instant is as good (n8n's
		// clock may be ahead of the service's: a day back).
		const now =
			latest.serviceNow ??
			(latest.record ? recordInstant(latest.record, settings.field) : undefined) ??
			Date.now() - 86_400_000;
		fromMs = now - settings.lookbackMs;
	}
	let memory: StatusMemory | undefined;
	if (settings.event === 'workOrderStatusChanged') {
		memory = new StatusMemory();
		const before = await readBefore(ctx, client, { clauses: settings.pollClauses, beforeMs: fromMs, max: STATUS_MEMORY_CAP, deadline });
		requests += Math.max(1, Math.ceil(before.length / 50));
		for (const version of before.reverse()) memory.see(version.id, statusSignature(version.record));
	}
	return await runWindow(ctx, client, settings, {
		fromMs,
		seen: [],
		memory,
		emit: settings.startMs !== undefined,
		deadline,
		requestsSoFar: requests,
	});
}

export async function pollWorkOrders(this: IPollFunctions): Promise<INodeExecutionData[][] | null> {
	const settings = readSettings(this);
	const client = WorkOrderServiceClient.forNode(this);
	if (this.getMode() === 'manual') return await fetchTestEvent(this, client, settings);

	const deadline = Date.now() + pollBudgetMs(this);
	const staticData = this.getWorkflowStaticData('node');
	const state = readState(staticData, settings.event, settings.startDate);
	const outcome = state
		? await runWindow(this, client, settings, {
				fromMs: Date.parse(state.cursor),
				seen: state.seen,
				resume: state.resume,
				memory: settings.event === 'workOrderStatusChanged' ? new StatusMemory(state) : undefined,
				emit: true,
				deadline,
				requestsSoFar: 0,
			})
		: await begin(this, client, settings, deadline);

	writeState(staticData, outcome.state);
	this.logger.debug('Work Order Service Trigger polled', {
		node: this.getNode().name,
		event: settings.event,
		requests: outcome.requests,
		read: outcome.read,
		emitted: outcome.items.length,
		cursor: outcome.state.cursor,
		remembered: outcome.state.seen.length,
	});
	return outcome.items.length ? [this.helpers.returnJsonArray(outcome.items)] : null;
}
