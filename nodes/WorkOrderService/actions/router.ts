import type { IDataObject, IExecuteFunctions, INodeExecutionData, JsonObject } from 'n8n-workflow';
import { NodeApiError, NodeOperationError } from 'n8n-workflow';

import { WithFile } from '../helpers/binaryOutput';
import { meaningOf } from '../helpers/errorMeaning';
import { forToolCalls } from './toolMode';
import { DEFAULT_CONCURRENCY, WorkOrderServiceClient } from '../transport/client';
import { batchReport, type ItemState } from './batchReport';
import * as asset from './asset';
import * as attachment from './attachment';
import * as checklist from './checklist';
import * as checklistResponse from './checklistResponse';
import * as invoice from './invoice';
import * as location from './location';
import type { WorkOrderServiceType } from './node.type';
import * as proposal from './proposal';
import * as provider from './provider';
import * as rejectionReason from './rejectionReason';
import * as subsidiary from './subsidiary';
import * as trade from './trade';
import * as workOrder from './workOrder';
import * as workOrderNote from './workOrderNote';
import type { OperationExecute, OperationMeta, OperationModule } from './operation';

/**
 * Resource -> operation -> its file (description, execute, meta); the type makes a missing or
 * unknown pair, or an operation file without `meta`, a compile error.
 */
type OperationMap = {
	[E in WorkOrderServiceType as E['resource']]: { [O in E['operation']]: OperationModule };
};

const operations: OperationMap = {
	asset,
	attachment,
	checklist,
	checklistResponse,
	invoice,
	location,
	proposal,
	provider,
	rejectionReason,
	subsidiary,
	trade,
	workOrderNote,
	workOrder,
};

function moduleOf(resource: string, operation: string): OperationModule | undefined {
	const group = (
		operations as Record<string, Record<string, OperationModule | undefined> | undefined>
	)[resource];
	return group && Object.prototype.hasOwnProperty.call(group, operation)
		? group[operation]
		: undefined;
}

function findOperation(
	ctx: IExecuteFunctions,
	resource: string,
	operation: string,
): OperationExecute {
	const module = moduleOf(resource, operation);
	if (typeof module?.execute !== 'function') {
		throw new NodeOperationError(
			ctx.getNode(),
			`The operation "${operation}" is not known for the resource "${resource}"`,
			{
				description: 'Open the node and choose a resource and an operation from the lists.',
			},
		);
	}
	// called by an AI agent (n8n's `<type>Tool` variant): answers a model can act on (actions/toolMode.ts)
	return ctx.getNode().type.endsWith('Tool')
		? forToolCalls(ctx, resource, operation, module)
		: module.execute;
}

/** The declaration of the operation item `i` runs (undefined when unknown: its own error says so). */
function metaOf(ctx: IExecuteFunctions, i: number): OperationMeta | undefined {
	return moduleOf(
		ctx.getNodeParameter('resource', i, '') as string,
		ctx.getNodeParameter('operation', i, '') as string,
	)?.meta;
}

/** The Concurrency when Request Options set none: 1 when any item's operation is not safe to repeat, else DEFAULT_CONCURRENCY. */
function defaultConcurrency(ctx: IExecuteFunctions, count: number): number {
	for (let i = 0; i < count; i++) if (metaOf(ctx, i)?.safeToRepeat === false) return 1;
	return DEFAULT_CONCURRENCY;
}

/** The error item of "Continue On Fail": the message, what to check, the HTTP status. */
function errorItem(error: unknown, i: number): INodeExecutionData {
	const json: IDataObject = { error: (error as Error).message };
	const description = (error as NodeApiError).description;
	if (typeof description === 'string' && description !== '') json.errorDescription = description;
	const httpCode = (error as NodeApiError).httpCode;
	if (typeof httpCode === 'string' && httpCode !== '') json.httpCode = httpCode;
	return { json, pairedItem: { item: i } };
}

function asNodeError(ctx: IExecuteFunctions, error: unknown, i: number): Error {
	if (error instanceof NodeApiError) {
		if (error.context.itemIndex === undefined) error.context.itemIndex = i;
		// Re-wrapping hands back the same error (n8n-workflow keeps one NodeApiError).
		return new NodeApiError(ctx.getNode(), error as unknown as JsonObject, { itemIndex: i });
	}
	if (error instanceof NodeOperationError && error.context.itemIndex === undefined) {
		error.context.itemIndex = i;
	}
	return new NodeOperationError(ctx.getNode(), error as Error, { itemIndex: i });
}

/** What became of a failed item, from what its requests did. */
function failedState(client: WorkOrderServiceClient, error: unknown, i: number): ItemState {
	const outcome = meaningOf(error)?.outcome ?? client.itemOutcome(i);
	if (outcome === 'recorded') return 'done';
	if (outcome === 'maybe') return 'maybe';
	if (outcome === 'answered') return 'notRecorded';
	return 'notSent';
}

/**
 * The error that stops the execution, with a report on the other items in its description (as
 * n8n shows and stores it): which the service recorded, which may have been, which were never
 * sent, and how to re-run safely.
 */
function stoppingError(
	ctx: IExecuteFunctions,
	client: WorkOrderServiceClient,
	failure: { index: number; error: unknown },
	states: ItemState[],
): Error {
	const error = asNodeError(ctx, failure.error, failure.index);
	if (states.length < 2) return error;
	states[failure.index] = failedState(client, failure.error, failure.index);
	const report = batchReport(states, failure.index, metaOf(ctx, failure.index)?.verb);
	const own = (error as NodeApiError).description;
	(error as NodeApiError).description = own ? `${own}\n\n${report}` : report;
	return error;
}

/**
 * The per-item loop. Items run up to Concurrency at a time (1 = strictly one after another; by
 * default 30 (DEFAULT_CONCURRENCY), or 1 for an operation whose `meta` says it is not safe to repeat); all
 * their requests share the execution's client and its lane in the application's request budget.
 * Every input item yields its records (in input order, paired to it) or one error. With
 * "Continue On Fail" a failing item becomes an error item and the others still run; without it,
 * no new item starts after a failure, the items already running finish, and the failure of the
 * lowest item is raised with a report on the others.
 */
export async function router(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
	const items = this.getInputData();
	const client = WorkOrderServiceClient.forNode(this, defaultConcurrency(this, items.length));
	const continueOnFail = this.continueOnFail();
	const perItem: INodeExecutionData[][] = new Array(items.length);
	const states: ItemState[] = new Array<ItemState>(items.length).fill('notSent');
	let failure: { index: number; error: unknown } | undefined;

	const runItem = async (i: number) => {
		try {
			const resource = this.getNodeParameter('resource', i) as string;
			const operation = this.getNodeParameter('operation', i) as string;
			const execute = findOperation(this, resource, operation);
			const records = await execute.call(this, i, client);
			const out: INodeExecutionData[] = new Array(records.length);
			for (let k = 0; k < records.length; k++) {
				const record = records[k];
				out[k] =
					record instanceof WithFile
						? { json: record.json, binary: record.binary, pairedItem: { item: i } }
						: { json: record, pairedItem: { item: i } };
			}
			perItem[i] = out;
			states[i] = 'done';
		} catch (error) {
			if (continueOnFail) {
				perItem[i] = [errorItem(error, i)];
				return;
			}
			states[i] = failedState(client, error, i);
			if (failure === undefined || i < failure.index) failure = { index: i, error };
		}
	};

	let next = 0;
	const lane = async () => {
		while (failure === undefined) {
			const i = next++;
			if (i >= items.length) return;
			await runItem(i);
		}
	};
	const lanes: Array<Promise<void>> = [];
	for (let k = 0; k < Math.min(client.settings.concurrency, items.length); k++) lanes.push(lane());
	await Promise.all(lanes);

	if (failure !== undefined) throw stoppingError(this, client, failure, states);
	const returnData: INodeExecutionData[] = [];
	// A loop, not push(...spread): a Return All can yield more items than a call's argument limit.
	for (const out of perItem) if (out) for (const item of out) returnData.push(item);
	return [returnData];
}
