import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { odataQueryOptions, returnAllOrLimitFields } from '../../helpers/fields';
import { collectionOf, readFields } from '../../helpers/validation';
import type { WorkOrderServiceClient } from '../../transport/client';

import { filterProperties, proposalFilter, readProposalFilters } from './filters';
import { PROPOSAL_OUTPUT } from './simplify';
import { outputProperties, shapeOutput } from '../../helpers/simplify';
import type { OperationMeta } from '../operation';
import { readODataList, withFilter } from '../wholeList';

export const meta: OperationMeta = { safeToRepeat: true };

/** OData options beside the Filters, in the order they are checked. */
const queryOptions = odataQueryOptions('proposal', {
	filter: "Trade/Name eq 'HVAC'",
	orderBy: 'CreatedDate_dto desc',
	select: 'Number,Amount,Status',
});

export const description = updateDisplayOptions(
	{ show: { resource: ['proposal'], operation: ['getAll'] } },
	[
		...returnAllOrLimitFields,
		...outputProperties(PROPOSAL_OUTPUT),
		collectionOf('filters', filterProperties),
		collectionOf('options', queryOptions),
	],
);

/**
 * GET /odata/proposals, page by page ($top/$skip, 50 a page), with the Filters as one $filter.
 * The service lists the last 90 days unless a date filter says otherwise (365 days at most).
 */
export async function execute(
	this: IExecuteFunctions,
	i: number,
	client: WorkOrderServiceClient,
): Promise<IDataObject[]> {
	const proposals = await readODataList(this, i, client, () => {
		const filters = readProposalFilters(this, i);
		const { qs } = readFields(this, i, queryOptions, 'options');
		return {
			path: '/odata/proposals',
			qs: withFilter(qs, proposalFilter(filters, qs.$filter as string | undefined)),
		};
	});
	return shapeOutput(this, i, proposals, PROPOSAL_OUTPUT);
}
