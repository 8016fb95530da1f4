import type { IDataObject, INodeExecutionData, IPollFunctions } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import { WorkOrderServiceClient } from '../transport/client';
import { MAX_BASELINE_REQUESTS_PER_POLL, pollBaseline, type BaselineBudget } from './baseline';
import { nextState, resumePoint, serviceNowOf } from './cursor';
import { itemsToEmit, selectNew } from './emit';
import { readLatest, readWindow, recordInstant } from './reader';
import {
	DEFAULT_LOOKBACK_SECONDS,
	allClauses,
	readSettings,
	type Settings,
	type UnknownStatusHandling,
} from './settings';
import {
	STATE_VERSION,
	StatusMemory,
	isCreatedEvent,
	isStatusEvent,
	readState,
	stateBytes,
	versionKey,
	writeState,
	type TriggerState,
} from './state';
import { toODataInstant } from './time';

/**
 * One poll of the Work Order Service Polling Trigger (docs/trigger.md).
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

export { DEFAULT_LOOKBACK_SECONDS, MAX_BASELINE_REQUESTS_PER_POLL, type UnknownStatusHandling };
/** Requests one poll may make for the window; a larger backlog continues in the next poll. */
export const MAX_REQUESTS_PER_POLL = 100;
/**
 * The first poll of an active workflow (activation, or n8n starting again) makes at most this
 * many requests to the API (a login may add one) ...
 */
export const ACTIVATION_MAX_REQUESTS = 8;
/** ... and starts a read beyond the first only within this time. */
export const ACTIVATION_READ_MS = 10_000;
const DEFAULT_POLL_BUDGET_MS = 5 * 60_000;

/** What one poll may spend: requests for the window, requests in all, and until when it starts reads. */
export interface Limits {
	windowRequests: number;
	totalRequests: number;
	/** No read beyond the first starts after this time. */
	deadline: number;
}

/**
 * The static data objects of the live workflows this process has polled successfully. n8n keeps one
 * workflow object (and so one static data object) per active workflow from its activation to its
 * deactivation, so an object not in here is an activation (or n8n starting again): that poll is
 * kept short. Only a bound: when n8n builds the object afresh for every poll, every poll is short.
 */
const polledLive = new WeakSet<object>();
/** Static data objects with a poll running: a tick that comes while the last poll still runs does nothing. */
const polling = new WeakSet<object>();

/** n8n's poll budget for this poll (80 % of it; n8n versions without one: 5 minutes). */
function pollBudgetMs(ctx: IPollFunctions): number {
	const getBudget = (ctx as Partial<Pick<IPollFunctions, 'getPollBudgetMs'>>).getPollBudgetMs;
	const budget =
		typeof getBudget === 'function' ? Number(getBudget.call(ctx)) : DEFAULT_POLL_BUDGET_MS;
	return Number.isFinite(budget) && budget > 0 ? budget * 0.8 : DEFAULT_POLL_BUDGET_MS * 0.8;
}

/** The limits of a poll started at `started` with `budgetMs`: an activation is kept short. */
export function pollLimits(activation: boolean, started: number, budgetMs: number): Limits {
	const budgetDeadline = started + budgetMs;
	return activation
		? {
				windowRequests: ACTIVATION_MAX_REQUESTS,
				totalRequests: ACTIVATION_MAX_REQUESTS,
				deadline: Math.min(budgetDeadline, started + ACTIVATION_READ_MS),
			}
		: {
				windowRequests: MAX_REQUESTS_PER_POLL,
				totalRequests: MAX_REQUESTS_PER_POLL + MAX_BASELINE_REQUESTS_PER_POLL,
				deadline: budgetDeadline,
			};
}

/** 'Fetch Test Event': the most recent matching work order (or invoice), nothing stored. */
async function fetchTestEvent(
	ctx: IPollFunctions,
	client: WorkOrderServiceClient,
	settings: Settings,
): Promise<INodeExecutionData[][]> {
	const { object } = settings;
	const { record } = await readLatest(
		ctx,
		client,
		[...object.reach(Date.now()), ...allClauses(settings.filters)],
		settings.field,
		object.path,
	);
	if (!record) {
		const label = object.label;
		throw new NodeOperationError(ctx.getNode(), `No ${label} matches the trigger's filters`, {
			description: `Fetch Test Event returns the most recently ${isCreatedEvent(settings.event) ? 'created' : 'changed'} ${label} that matches the filters. Loosen the filters, or create or change ${label === 'invoice' ? 'an' : 'a'} ${label} in the service, then fetch again.`,
		});
	}
	return [ctx.helpers.returnJsonArray([record])];
}

/** One poll as it goes: its clients, settings and limits, and what it has done so far. */
interface Poll extends BaselineBudget {
	client: WorkOrderServiceClient;
	settings: Settings;
	/** Requests this poll may make for the window. */
	windowRequests: number;
	read: number;
	/** Status Changed: items emitted for a work order whose earlier status was not known. */
	unknown: number;
	/** The service's clock minus n8n's, from the Date header of this poll's first answer. */
	skewMs?: number;
}

/** Notes the service's clock of an answer (its Date header) against n8n's. */
function noteServiceClock(poll: Poll, serviceNow: number | undefined): void {
	if (serviceNow !== undefined && poll.skewMs === undefined) poll.skewMs = serviceNow - Date.now();
}

/** What a poll leaves: the items it emits, the next state, and the status memory (Status Changed). */
interface Outcome {
	items: IDataObject[];
	state: TriggerState;
	memory?: StatusMemory;
}

/**
 * Reads the window from the cursor (resuming where the last poll stopped), handles what was not
 * handled before, and returns the items and the next state (statuses not yet encoded).
 */
async function pollWindow(
	poll: Poll,
	state: TriggerState,
	memory: StatusMemory | undefined,
): Promise<Outcome & { serviceNow?: number }> {
	const { ctx, client, settings } = poll;
	const fromMs = Date.parse(state.cursor);
	const window = await readWindow(ctx, client, {
		path: settings.object.path,
		label: settings.object.label,
		plainDates: settings.object.plainDates,
		clauses: settings.pollClauses,
		field: settings.field,
		fromMs,
		deadline: poll.deadline,
		maxRequests: Math.max(1, Math.min(poll.windowRequests, poll.totalRequests - poll.requests)),
		resume: resumePoint(state, fromMs),
		laterClient: poll.optionalClient === client ? undefined : poll.optionalClient,
	});
	poll.requests += window.requests;
	poll.read += window.versions.length;
	noteServiceClock(poll, window.serviceNow);
	const selection = selectNew(window.versions, state.seen, isCreatedEvent(settings.event), memory);
	const rule = {
		statuses: settings.filters.statuses,
		unknownStatus: settings.unknownStatus,
		originMs: Date.parse(state.origin),
		existedFields: settings.object.existedFields,
		textStatus: settings.object.textStatus,
	};
	const { items, unknown } = itemsToEmit(selection.newest, memory, rule);
	poll.unknown += unknown;
	return {
		items,
		state: nextState(state, settings, window, selection.handled),
		memory,
		serviceNow: serviceNowOf(window),
	};
}

/**
 * Activation without a Start Date: T0 from the service's clock (its Date header); without one, the
 * newest record's date (nothing newer exists yet; that record itself is remembered as handled);
 * with neither, nothing matches at all, so any past instant is as good (n8n's clock may be ahead
 * of the service's: a day back).
 */
async function activationOrigin(poll: Poll): Promise<{ origin: number; seen: string[] }> {
	const { settings } = poll;
	const latest = await readLatest(
		poll.ctx,
		poll.client,
		settings.pollClauses,
		settings.field,
		settings.object.path,
	);
	poll.requests++;
	noteServiceClock(poll, latest.serviceNow);
	const newest = latest.record ? recordInstant(latest.record, settings.field) : undefined;
	const origin = latest.serviceNow ?? newest ?? Date.now() - 86_400_000;
	const seen: string[] = [];
	if (latest.serviceNow === undefined && latest.record && newest !== undefined)
		seen.push(versionKey(String(latest.record.Id), newest));
	return { origin, seen };
}

/** First poll (no usable state): T0 from the service, then the Start Date's backlog or the statuses. */
async function begin(poll: Poll, staticData: IDataObject): Promise<Outcome> {
	const { settings } = poll;
	const memory = isStatusEvent(settings.event) ? new StatusMemory() : undefined;
	const base = { version: STATE_VERSION, event: settings.event, startDate: settings.startDate };
	if (settings.startMs === undefined) {
		const { origin, seen } = await activationOrigin(poll);
		const state: TriggerState = {
			...base,
			origin: toODataInstant(origin),
			cursor: toODataInstant(origin),
			seen,
		};
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
	const fromState: TriggerState = {
		...base,
		origin: toODataInstant(settings.startMs),
		cursor: toODataInstant(settings.startMs),
		seen: [],
	};
	const outcome = await pollWindow(poll, fromState, memory);
	outcome.state.origin = toODataInstant(outcome.serviceNow ?? Date.now());
	return { items: outcome.items, state: outcome.state, memory };
}

/** The poll proper: the window (or the activation), then the status read while settling. */
async function runPoll(poll: Poll, staticData: IDataObject): Promise<Outcome> {
	const stored = readState(staticData, poll.settings.event, poll.settings.startDate);
	let outcome: Outcome;
	if (stored) {
		// readState gives Status Changed a state only with its statuses.
		outcome = await pollWindow(
			poll,
			stored,
			stored.statuses ? StatusMemory.decode(stored.statuses) : undefined,
		);
	} else {
		outcome = await begin(poll, staticData);
	}
	if (outcome.memory) {
		await pollBaseline(poll, outcome.state, outcome.memory);
		outcome.state.statuses = outcome.memory.encode(poll.settings.memoryLimit);
	}
	// invoices: the list's reach is counted on the service's clock (the next poll's estimate of it)
	if (poll.settings.object.kind === 'invoice' && poll.skewMs !== undefined)
		outcome.state.skewMs = Math.round(poll.skewMs);
	return { items: outcome.items, state: outcome.state, memory: outcome.memory };
}

function newPoll(
	ctx: IPollFunctions,
	client: WorkOrderServiceClient,
	settings: Settings,
	activation: boolean,
): Poll {
	const limits = pollLimits(activation, Date.now(), pollBudgetMs(ctx));
	// Activation: reads that can wait for the next poll go without retries, so that a throttled
	// read ends the activation's part instead of waiting for the service's window.
	const optionalClient = activation
		? new WorkOrderServiceClient(ctx, client.authentication, { ...client.settings, maxRetries: 0 })
		: client;
	return {
		ctx,
		client,
		optionalClient,
		settings,
		pollClauses: settings.pollClauses,
		object: settings.object,
		...limits,
		requests: 0,
		read: 0,
		unknown: 0,
	};
}

function logPoll(poll: Poll, activation: boolean, outcome: Outcome): void {
	const { ctx, settings } = poll;
	const { items, state, memory } = outcome;
	ctx.logger.debug('Work Order Service Polling Trigger polled', {
		node: ctx.getNode().name,
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
}

/**
 * The service's clock as the state tells: n8n's clock plus the difference seen at the last read
 * (`skewMs`), and at least the cursor (the service's clock at the last read, minus the lookback).
 * The invoice list's reach is counted from it, so that a service clock ahead of n8n's does not see
 * a reach beyond its 365 days.
 */
function serviceClockHint(staticData: IDataObject): number {
	const state = staticData.state as IDataObject | undefined;
	const skew =
		typeof state?.skewMs === 'number' && Number.isFinite(state.skewMs) ? state.skewMs : 0;
	const cursor = Date.parse(String(state?.cursor ?? ''));
	const now = Date.now() + skew;
	return Number.isFinite(cursor) ? Math.max(now, cursor) : now;
}

export async function pollWorkOrders(this: IPollFunctions): Promise<INodeExecutionData[][] | null> {
	if (this.getMode() === 'manual') {
		const settings = readSettings(this);
		return await fetchTestEvent(this, WorkOrderServiceClient.forNode(this), settings);
	}

	const staticData = this.getWorkflowStaticData('node');
	const settings = readSettings(this, serviceClockHint(staticData));
	const client = WorkOrderServiceClient.forNode(this);
	if (polling.has(staticData)) {
		this.logger.debug(
			'Work Order Service Polling Trigger: the previous poll is still running; this one is skipped',
			{ node: this.getNode().name },
		);
		return null;
	}
	polling.add(staticData);
	try {
		const activation = !polledLive.has(staticData);
		const poll = newPoll(this, client, settings, activation);
		const outcome = await runPoll(poll, staticData);
		writeState(staticData, outcome.state);
		polledLive.add(staticData);
		logPoll(poll, activation, outcome);
		return outcome.items.length ? [this.helpers.returnJsonArray(outcome.items)] : null;
	} finally {
		polling.delete(staticData);
	}
}
