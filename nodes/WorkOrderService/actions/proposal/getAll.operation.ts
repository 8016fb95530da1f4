import { updateDisplayOptions } from 'n8n-workflow';

import { odataQueryOptions, returnAllOrLimitFields } from '../../helpers/fields';
import { collectionOf } from '../../helpers/validation';

import { filterProperties, proposalFilter, readProposalFilters } from './filters';
import { PROPOSAL_OUTPUT } from './simplify';
import { outputProperties, shapeOutput } from '../../helpers/simplify';
import type { OperationMeta } from '../operation';
import { filteredQuery, odataGetMany } from '../wholeList';

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
export const execute = odataGetMany(
	filteredQuery('/odata/proposals', queryOptions, readProposalFilters, proposalFilter),
	(ctx, i, proposals) => shapeOutput(ctx, i, proposals, PROPOSAL_OUTPUT),
);
