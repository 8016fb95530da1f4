import type { IDataObject, IPollFunctions } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import type { WorkOrderServiceClient } from '../transport/client';
import { PAGE_SIZE } from '../transport/paging';
import { WORK_ORDERS, type WatchedObject } from './objects';
import { isTransient, readBaselinePage, type BaselinePage } from './reader';
import {
	statusSignature,
	type BaselineProgress,
	type StatusMemory,
	type TriggerState,
} from './state';

/**
 * Status Changed, while settling: the status every work order had at T0, read page by page
 * (keyset paging by Id, newest first, see reader.ts readBaselinePage) over as many polls as it
 * takes. This file holds the policy: when the read is done, what a page teaches the memory, where
 * the next page starts.
 */

/**
 * Requests one poll may make for the Status Changed baseline (besides the window): 100,000 work
 * orders. In practice the poll budget ends it first at a rate-limited service (40/min: about 160).
 */
export const MAX_BASELINE_REQUESTS_PER_POLL = 2000;

/** What the status read of one poll may spend, and what it has spent (shared with the window read). */
export interface BaselineBudget {
	ctx: IPollFunctions;
	/** The client for reads that can wait for the next poll. */
	optionalClient: WorkOrderServiceClient;
	pollClauses: string[];
	/** The list whose statuses are read (work orders when not given). */
	object?: WatchedObject;
	/** Requests this poll has made, and may make in all. */
	requests: number;
	totalRequests: number;
	/** No read beyond the first starts after this time. */
	deadline: number;
}

/** Whether everything below `before` was forgotten for the memory limit: no need to read it (settled). */
export function belowForgotten(
	before: bigint | undefined,
	memory: Pick<StatusMemory, 'forgottenBelow'>,
): boolean {
	return (
		before !== undefined &&
		memory.forgottenBelow !== undefined &&
		before <= memory.forgottenBelow + 1n
	);
}

/**
 * Where the read goes after a page: its progress, 'settled' at the end, or 'unfiltered' when the
 * page holds work orders the Id clause should have left out. The end: an empty page, or one
 * shorter than an earlier one (the service's page size is at least that; a first short page is
 * confirmed by an empty one).
 */
export function afterBaselinePage(
	progress: BaselineProgress,
	page: Pick<BaselinePage, 'size' | 'lowest'>,
	before: bigint | undefined,
): BaselineProgress | 'settled' | 'unfiltered' {
	const largest = progress.page;
	let next = progress;
	if (page.size > 0) {
		if (page.lowest === undefined || (before !== undefined && page.lowest >= before))
			return 'unfiltered';
		next = { after: page.lowest.toString(), page: Math.max(largest ?? 0, page.size) };
	}
	if (
		page.size === 0 ||
		(largest !== undefined && page.size < largest) ||
		(page.size < PAGE_SIZE && largest === PAGE_SIZE)
	)
		return 'settled';
	return next;
}

/** Learns the T0 statuses of a page: a status seen since T0 is newer; a forgotten id stays forgotten. */
export function rememberT0Statuses(
	memory: StatusMemory,
	records: Array<{ id: string; record: IDataObject }>,
): void {
	for (const { id, record } of records) {
		if (!memory.has(id) && !memory.forgot(id)) memory.set(id, statusSignature(record));
	}
}

function unfilteredError(ctx: IPollFunctions, label: string): NodeOperationError {
	return new NodeOperationError(
		ctx.getNode(),
		'The Work Order Service did not apply the Id filter of the status read',
		{
			description: `Reading the statuses of all ${label}s pages with "$filter=... and Id lt <Id>&$orderby=Id desc". The service answered with ${label}s it should have left out, so the read cannot go on.`,
		},
	);
}

/** One status page, or undefined when a passing failure (throttling, 5xx, no answer) ends this poll's part. */
async function readStatusPage(
	budget: BaselineBudget,
	originMs: number,
	before: bigint | undefined,
): Promise<BaselinePage | undefined> {
	const { ctx } = budget;
	const object = budget.object ?? WORK_ORDERS;
	const outcome = await readBaselinePage(ctx, budget.optionalClient, {
		clauses: budget.pollClauses,
		originMs,
		before,
		path: object.path,
		select: object.baselineSelect,
		label: object.label,
	}).then(
		(read) => ({ read }),
		(error: unknown) => ({ error }),
	);
	budget.requests++;
	if (!('error' in outcome)) return outcome.read;
	if (!isTransient(outcome.error)) throw outcome.error;
	ctx.logger.warn(
		'Work Order Service Polling Trigger: reading the statuses as of activation paused until the next poll',
		{
			node: ctx.getNode().name,
			error: (outcome.error as Error).message,
		},
	);
	return undefined;
}

/** Whether the status read may start another page (at least one per poll, so that a tiny poll budget still progresses). */
function mayReadPage(budget: BaselineBudget, pages: number): boolean {
	return (
		budget.requests < budget.totalRequests &&
		pages < MAX_BASELINE_REQUESTS_PER_POLL &&
		(pages === 0 || Date.now() < budget.deadline)
	);
}

/**
 * Continues the status read (Status Changed, while settling) for the rest of this poll's budget.
 * Throttling or a transient failure only ends this poll's part; the next poll continues. Moves
 * `state.baseline` on, and removes it when settled.
 */
export async function pollBaseline(
	budget: BaselineBudget,
	state: TriggerState,
	memory: StatusMemory,
): Promise<void> {
	const originMs = Date.parse(state.origin);
	for (let pages = 0; state.baseline && mayReadPage(budget, pages); pages++) {
		const before = state.baseline.after === undefined ? undefined : BigInt(state.baseline.after);
		if (belowForgotten(before, memory)) {
			delete state.baseline;
			return;
		}
		const page = await readStatusPage(budget, originMs, before);
		if (!page) return;
		rememberT0Statuses(memory, page.records);
		const next = afterBaselinePage(state.baseline, page, before);
		if (next === 'unfiltered')
			throw unfilteredError(budget.ctx, (budget.object ?? WORK_ORDERS).label);
		if (next === 'settled') delete state.baseline;
		else state.baseline = next;
	}
}
