import type { IDataObject, INode, IPollFunctions } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import { readFilters, type TriggerFilters } from './filter';
import {
	INVOICES,
	INVOICE_REACH_DAYS,
	WORK_ORDERS,
	type DateField,
	type WatchedObject,
} from './objects';
import {
	DEFAULT_MEMORY_LIMIT,
	TRIGGER_EVENTS,
	isCreatedEvent,
	isStatusEvent,
	type TriggerEvent,
} from './state';
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
	/** What the event watches: work orders or invoices (objects.ts). */
	object: WatchedObject;
	field: DateField;
	filters: TriggerFilters;
	/**
	 * Clauses sent with every poll's read (Status Changed compares statuses itself: no status
	 * clause); for invoices first the list's reach (`PostedDate ge <365 days back>`).
	 */
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
			description:
				'Choose Work Order Created, Work Order Updated, Work Order Status Changed, Invoice Created, Invoice Updated or Invoice Status Changed.',
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

/**
 * Invoice Created with a Start Date: the service lists invoices posted within the last 365 days at
 * most (and refuses a PostedDate filter reaching further); the trigger reads 364 (objects.ts).
 */
export function checkInvoiceStart(
	node: INode,
	startDate: string,
	startMs: number | undefined,
	serviceNowMs: number,
): void {
	const limit = INVOICE_REACH_DAYS - 1;
	if (startMs === undefined || serviceNowMs - startMs <= limit * 86_400_000) return;
	throw new NodeOperationError(
		node,
		`Invalid Start Date (parameter "options.startDate"): "${startDate}" is more than ${limit} days ago`,
		{
			description: `The Work Order Service lists invoices posted in the last ${INVOICE_REACH_DAYS} days at most (a day is kept for clocks). Give a Start Date within the last ${limit} days. Nothing was sent to the service.`,
		},
	);
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
	return isStatusEvent(event) ? filters.clauses : allClauses(filters);
}

/** What an event watches. */
export function objectOf(event: TriggerEvent): WatchedObject {
	return event.startsWith('invoice') ? INVOICES : WORK_ORDERS;
}

/**
 * The node's settings, checked in the order the editor shows them. `serviceNowMs`: the service's
 * clock as far as the trigger knows it (the invoice list's reach is counted from it).
 */
export function readSettings(ctx: IPollFunctions, serviceNowMs = Date.now()): Settings {
	const node = ctx.getNode();
	const event = checkEvent(node, ctx.getNodeParameter('event', 'workOrderUpdated'));
	const object = objectOf(event);
	const filters = readFilters(node, ctx.getNodeParameter('filters', {}) as IDataObject, object);
	const options = (ctx.getNodeParameter('options', {}) ?? {}) as IDataObject;
	// Status Changed has no history to read (the service keeps none): it starts at activation.
	const startDate = isStatusEvent(event) ? '' : startDateText(options.startDate);
	const startMs = startInstant(node, startDate, () => ctx.getTimezone());
	if (event === 'invoiceCreated') checkInvoiceStart(node, startDate, startMs, serviceNowMs);
	return {
		event,
		object,
		field: isCreatedEvent(event) ? object.createdField : 'UpdatedDate',
		filters,
		pollClauses: [...object.reach(serviceNowMs), ...pollClauses(event, filters)],
		startDate,
		startMs,
		lookbackMs: lookbackMs(node, options.lookbackSeconds),
		unknownStatus: unknownStatusHandling(node, options.unknownPreviousStatus),
		memoryLimit: memoryLimit(node, options.maxRemembered),
	};
}
