import type { IDataObject, INode, IPollFunctions } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import { readFilters, type TriggerFilters } from './filter';
import type { DateField } from './reader';
import { DEFAULT_MEMORY_LIMIT, TRIGGER_EVENTS, type TriggerEvent } from './state';
import { isKnownZone, parseDateTime, zonedWallTimeToInstant } from './time';

/**
 * The trigger's parameters, read and checked before any request: the event, the filters, and the
 * options (Start Date, Lookback Window, Unknown Previous Status, Max Work Orders Remembered). Each
 * check is a small function of the value alone; a wrong value is a NodeOperationError naming the
 * parameter.
 */

export const DEFAULT_LOOKBACK_SECONDS = 60;

export type UnknownStatusHandling = 'emit' | 'ignore';

export interface Settings {
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

/** The Event parameter, one of the three. */
export function checkEvent(node: INode, event: unknown): TriggerEvent {
	if (!TRIGGER_EVENTS.includes(event as TriggerEvent)) {
		throw new NodeOperationError(node, `Unknown event "${String(event)}" (parameter "event")`, {
			description: 'Choose Work Order Created, Work Order Updated or Work Order Status Changed.',
		});
	}
	return event as TriggerEvent;
}

/** The Start Date option as text: a Date or Luxon DateTime as ISO, anything else trimmed ('' = none). */
export function startDateText(value: unknown): string {
	if (value === undefined || value === null) return '';
	if (value instanceof Date)
		return Number.isNaN(value.getTime()) ? 'Invalid Date' : value.toISOString();
	if (typeof value === 'object' && typeof (value as { toISO?: unknown }).toISO === 'function') {
		return String((value as { toISO: () => unknown }).toISO());
	}
	return String(value).trim();
}

/**
 * The instant of a Start Date ('' = none): with an offset as given, without one in the workflow's
 * time zone (`zone()`, asked only then; an unknown zone: UTC).
 */
export function startInstant(
	node: INode,
	startDate: string,
	zone: () => string | undefined,
): number | undefined {
	if (startDate === '') return undefined;
	const parsed = parseDateTime(startDate);
	if (!parsed) {
		throw new NodeOperationError(
			node,
			`Invalid Start Date (parameter "options.startDate"): "${startDate}" is not a date-time`,
			{
				description:
					'Give an ISO 8601 date-time such as 2026-03-29T08:00:00 (workflow time zone) or 2026-03-29T06:00:00Z.',
			},
		);
	}
	if (parsed.offsetMinutes !== undefined) return parsed.wallMs - parsed.offsetMinutes * 60_000;
	const name = zone();
	return name && isKnownZone(name) ? zonedWallTimeToInstant(parsed.wallMs, name) : parsed.wallMs;
}

/** The Lookback Window option (seconds, 0 to 3600) in ms. */
export function lookbackMs(node: INode, value: unknown): number {
	const lookback = Number(value ?? DEFAULT_LOOKBACK_SECONDS);
	if (!Number.isFinite(lookback) || lookback < 0 || lookback > 3600) {
		throw new NodeOperationError(
			node,
			`Invalid Lookback Window (parameter "options.lookbackSeconds"): ${String(value)}`,
			{
				description: 'Give a number of seconds from 0 to 3600.',
			},
		);
	}
	return Math.round(lookback * 1000);
}

/** The Unknown Previous Status option: emit (default) or ignore. */
export function unknownStatusHandling(node: INode, value: unknown): UnknownStatusHandling {
	const handling = (value ?? 'emit') as UnknownStatusHandling;
	if (handling !== 'emit' && handling !== 'ignore') {
		throw new NodeOperationError(
			node,
			`Invalid Unknown Previous Status (parameter "options.unknownPreviousStatus"): "${String(handling)}"`,
			{
				description: 'Choose Emit or Ignore.',
			},
		);
	}
	return handling;
}

/** The Max Work Orders Remembered option: a whole number of at least 1,000. */
export function memoryLimit(node: INode, value: unknown): number {
	const limit = Number(value ?? DEFAULT_MEMORY_LIMIT);
	if (!Number.isSafeInteger(limit) || limit < 1000) {
		throw new NodeOperationError(
			node,
			`Invalid Max Work Orders Remembered (parameter "options.maxRemembered"): ${String(value)}`,
			{
				description: 'Give a whole number of at least 1,000.',
			},
		);
	}
	return limit;
}

/** Every clause of the filters, the status clause included (when a status is asked for). */
export function allClauses(filters: TriggerFilters): string[] {
	return filters.statusClause ? [...filters.clauses, filters.statusClause] : filters.clauses;
}

/** The clauses of every poll's read: all of them, but Status Changed compares statuses itself (no status clause). */
export function pollClauses(event: TriggerEvent, filters: TriggerFilters): string[] {
	return event === 'workOrderStatusChanged' ? filters.clauses : allClauses(filters);
}

/** The node's settings, checked in the order the editor shows them. */
export function readSettings(ctx: IPollFunctions): Settings {
	const node = ctx.getNode();
	const event = checkEvent(node, ctx.getNodeParameter('event', 'workOrderUpdated'));
	const filters = readFilters(node, ctx.getNodeParameter('filters', {}) as IDataObject);
	const options = (ctx.getNodeParameter('options', {}) ?? {}) as IDataObject;
	// Status Changed has no history to read (the service keeps none): it starts at activation.
	const startDate = event === 'workOrderStatusChanged' ? '' : startDateText(options.startDate);
	return {
		event,
		field: event === 'workOrderCreated' ? 'CallDate' : 'UpdatedDate',
		filters,
		pollClauses: pollClauses(event, filters),
		startDate,
		startMs: startInstant(node, startDate, () => ctx.getTimezone()),
		lookbackMs: lookbackMs(node, options.lookbackSeconds),
		unknownStatus: unknownStatusHandling(node, options.unknownPreviousStatus),
		memoryLimit: memoryLimit(node, options.maxRemembered),
	};
}
