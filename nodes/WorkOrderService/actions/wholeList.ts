import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { returnAllOrLimitFields } from '../helpers/fields';
import { readLimit } from '../helpers/limit';
import { readFields, type FieldSpec } from '../helpers/validation';
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

/** The Operation parameter of a resource whose only operation is Get Many, then Get Many's parameters. */
export function getManyOnlyDescription(
	resource: string,
	operation: { description: string; action: string },
	getAll: Pick<OperationModule, 'description'>,
): INodeProperties[] {
	const { description, action } = operation;
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

/** The resource's Operation parameter (Get Many only) and Get Many's parameters. */
export function wholeListDescription(
	resource: WholeListResource,
	getAll: Pick<OperationModule, 'description'>,
): INodeProperties[] {
	return getManyOnlyDescription(resource, WHOLE_LISTS[resource], getAll);
}

/** Where a paged OData Get Many reads, from the item's Filters and Options. */
type ListQuery = (ctx: IExecuteFunctions, i: number) => { path: string; qs: IDataObject };

/**
 * The `execute` of a paged OData Get Many (Invoice, Proposal, Location, Work Order): Return All or
 * Limit read first, then `query` reads the item's Filters and Options into the path and query
 * string, the pages are read ($top/$skip) up to the limit, and `output` shapes the records.
 */
export function odataGetMany(
	query: ListQuery,
	output: (
		ctx: IExecuteFunctions,
		i: number,
		records: IDataObject[],
		qs: IDataObject,
	) => IDataObject[],
) {
	return async function execute(
		this: IExecuteFunctions,
		i: number,
		client: WorkOrderServiceClient,
	): Promise<IDataObject[]> {
		const limit = readLimit(this, i);
		const { path, qs } = query(this, i);
		const records = await readList(this, client, ODATA_LIST, { path, qs, limit, itemIndex: i });
		return output(this, i, records, qs);
	};
}

/**
 * The query of a Get Many whose Filters become one `$filter` (the Options' own OData Filter ANDed
 * in by `filterOf`): the Filters are checked first, then the Options.
 */
export function filteredQuery<F>(
	path: string,
	options: FieldSpec[],
	readFilters: (ctx: IExecuteFunctions, i: number) => F,
	filterOf: (filters: F, own?: string) => string | undefined,
): ListQuery {
	return (ctx, i) => {
		const filters = readFilters(ctx, i);
		const { qs } = readFields(ctx, i, options, 'options');
		const filter = filterOf(filters, qs.$filter as string | undefined);
		if (filter === undefined) delete qs.$filter;
		else qs.$filter = filter;
		return { path, qs };
	};
}
