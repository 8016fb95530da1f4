import type { IDataObject, IExecuteFunctions, INodeExecutionData, JsonObject } from 'n8n-workflow';
import { NodeApiError, NodeOperationError } from 'n8n-workflow';

import * as checklistResponse from './checklistResponse';
import type { WorkOrderServiceType } from './node.type';
import * as proposal from './proposal';
import * as rejectionReason from './rejectionReason';
import * as subsidiary from './subsidiary';
import * as workOrder from './workOrder';
import * as workOrderNote from './workOrderNote';

type Operation = (this: IExecuteFunctions, i: number) => Promise<IDataObject[]>;

/** Resource -> operation -> execute; the type makes a missing or unknown pair a compile error. */
type OperationMap = {
	[E in WorkOrderServiceType as E['resource']]: { [O in E['operation']]: Operation };
};

const operations: OperationMap = {
	checklistResponse: { submit: checklistResponse.submit.execute },
	proposal: {
		approve: proposal.approve.execute,
		putOnHold: proposal.putOnHold.execute,
		reject: proposal.reject.execute,
		reopen: proposal.reopen.execute,
	},
	rejectionReason: { getAll: rejectionReason.getAll.execute },
	subsidiary: { getAll: subsidiary.getAll.execute },
	workOrderNote: {
		addAttachment: workOrderNote.addAttachment.execute,
		create: workOrderNote.create.execute,
		get: workOrderNote.get.execute,
		getAll: workOrderNote.getAll.execute,
		getAttachments: workOrderNote.getAttachments.execute,
	},
	workOrder: {
		checkIn: workOrder.checkIn.execute,
		checkOut: workOrder.checkOut.execute,
		get: workOrder.get.execute,
		getAll: workOrder.getAll.execute,
	},
};

function findOperation(ctx: IExecuteFunctions, resource: string, operation: string): Operation {
	const group = (operations as Record<string, Record<string, Operation | undefined> | undefined>)[resource];
	const execute = group && Object.prototype.hasOwnProperty.call(group, operation) ? group[operation] : undefined;
	if (typeof execute !== 'function') {
		throw new NodeOperationError(ctx.getNode(), `The operation "${operation}" is not known for the resource "${resource}"`, {
			description: 'Open the node and choose a resource and an operation from the lists.',
		});
	}
	return execute;
}

/**
 * The per-item loop: every input item yields its records (paired to it) or one error. With
 * "Continue On Fail" a failing item becomes an error item and the others still run.
 */
export async function router(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
	const items = this.getInputData();
	const returnData: INodeExecutionData[] = [];

	for (let i = 0; i < items.length; i++) {
		try {
			const resource = this.getNodeParameter('resource', i) as string;
			const operation = this.getNodeParameter('operation', i) as string;
			const execute = findOperation(this, resource, operation);
			const records = await execute.call(this, i);
			const paired = this.helpers.constructExecutionMetaData(this.helpers.returnJsonArray(records), {
				itemData: { item: i },
			});
			// A loop, not push(...spread): a Return All can yield more items than a call's argument limit.
			for (const item of paired) returnData.push(item);
		} catch (error) {
			if (this.continueOnFail()) {
				const json: IDataObject = { error: (error as Error).message };
				const description = (error as NodeApiError).description;
				if (typeof description === 'string' && description !== '') json.errorDescription = description;
				const httpCode = (error as NodeApiError).httpCode;
				if (typeof httpCode === 'string' && httpCode !== '') json.httpCode = httpCode;
				returnData.push({ json, pairedItem: { item: i } });
				continue;
			}
			if (error instanceof NodeApiError) {
				if (error.context.itemIndex === undefined) error.context.itemIndex = i;
				// Re-wrapping hands back the same error (n8n-workflow keeps one NodeApiError).
				throw new NodeApiError(this.getNode(), error as unknown as JsonObject, { itemIndex: i });
			}
			if (error instanceof NodeOperationError && error.context.itemIndex === undefined) {
				error.context.itemIndex = i;
			}
			throw new NodeOperationError(this.getNode(), error as Error, { itemIndex: i });
		}
	}
	return [returnData];
}
