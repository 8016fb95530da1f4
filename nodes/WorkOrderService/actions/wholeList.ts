import type { INodeProperties } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { returnAllOrLimitFields } from '../helpers/fields';
import { readLimit } from '../helpers/limit';
import { WHOLE_LIST, readList } from '../transport/paging';

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
