import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { returnAllOrLimitFields } from '../helpers/fields';
import { readLimit } from '../helpers/limit';
import { ODATA_LIST, WHOLE_LIST, readList } from '../transport/paging';
import type { WorkOrderServiceClient } from '../transport/client';

import type { OperationModule } from './operation';

/**
 * The resources that are one unpaged list the service answers whole (Rejection Reason,
 * Subsidiary): their only operation, Get Many, is the same code on another path; each resource's
 * files name the resource and nothing else.
 */
const WHOLE_LISTS = {
	rejectionReason: {
		path: '/proposals/RejectionReasons',
		description: 'List the rejection reason codes valid for rejecting a proposal',
		action: 'Get many rejection reasons',
	},
	subsidiary: {
		path: '/subscribers/current/subsidiaries',
		description:
			"List the child subscribers of the current subscriber (their IDs go into the credential's Child Subscriber ID; needs the right to list them)",
		action: 'Get many subsidiaries',
	},
} as const;

type WholeListResource = keyof typeof WHOLE_LISTS;

/** Get Many of a whole-list resource: GET its path, one item per record, Return All or Limit. */
export function wholeListOperation(resource: WholeListResource): OperationModule {
	const { path } = WHOLE_LISTS[resource];
	return {
		meta: { safeToRepeat: true },
		description: updateDisplayOptions(
			{ show: { resource: [resource], operation: ['getAll'] } },
			returnAllOrLimitFields,
		),
		async execute(i, client) {
			const limit = readLimit(this, i);
			return await readList(this, client, WHOLE_LIST, { path, limit, itemIndex: i });
		},
	};
}

/** The resource's Operation parameter (Get Many only) and Get Many's parameters. */
export function wholeListDescription(
	resource: WholeListResource,
	getAll: Pick<OperationModule, 'description'>,
): INodeProperties[] {
	const { description, action } = WHOLE_LISTS[resource];
	return [
		{
			displayName: 'Operation',
			name: 'operation',
			type: 'options',
			noDataExpression: true,
			displayOptions: { show: { resource: [resource] } },
			options: [{ name: 'Get Many', value: 'getAll', description, action }],
			default: 'getAll',
		},
		...getAll.description,
	];
}

/**
 * The head of a paged OData Get Many (Invoice, Proposal, Location, Work Order): Return All or Limit
 * read first, then `query` reads the item's Filters and Options into the path and query string,
 * then the pages are read ($top/$skip) up to the limit.
 */
export async function readODataList(
	ctx: IExecuteFunctions,
	i: number,
	client: WorkOrderServiceClient,
	query: () => { path: string; qs: IDataObject },
): Promise<IDataObject[]> {
	const limit = readLimit(ctx, i);
	const { path, qs } = query();
	return await readList(ctx, client, ODATA_LIST, { path, qs, limit, itemIndex: i });
}

/** The query string with `filter` as its `$filter` (none when undefined). */
export function withFilter(qs: IDataObject, filter: string | undefined): IDataObject {
	if (filter === undefined) delete qs.$filter;
	else qs.$filter = filter;
	return qs;
}
