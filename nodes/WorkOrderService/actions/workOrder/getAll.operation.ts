import { updateDisplayOptions } from 'n8n-workflow';

import { odataQueryOptions, returnAllOrLimitFields } from '../../helpers/fields';
import { locationLocator, readPlaceId } from '../../helpers/places';
import { collectionOf, readFields } from '../../helpers/validation';
import { outputProperties, shapeOutput } from '../../helpers/simplify';
import { workOrderFilterClauses, workOrderFilterProperties } from './filters';
import type { OperationMeta } from '../operation';

import { WORK_ORDER_OUTPUT } from './simplify';
import { odataGetMany } from '../wholeList';

/** Options sent as OData query options, in the order they are checked. */
const queryOptions = odataQueryOptions(
	'work order',
	{
		filter: "Status/Primary eq 'OPEN' and Location/StoreId eq 'S501'",
		orderBy: 'UpdatedDate desc',
		select: 'Number,Trade,Status,Location',
	},
	'. The service lists the last 90 days unless the filter says otherwise.',
);

/** Chooses the path: the work orders of one location. */
const locationIdProperty = locationLocator({
	name: 'locationId',
	displayName: 'Location',
	description:
		'Only work orders of this location (read from /odata/locations({ID})/workorders). Leave empty for all locations.',
});

export const meta: OperationMeta = { safeToRepeat: true };

export const description = updateDisplayOptions(
	{ show: { resource: ['workOrder'], operation: ['getAll'] } },
	[
		...returnAllOrLimitFields,
		collectionOf('filters', workOrderFilterProperties),
		...outputProperties(WORK_ORDER_OUTPUT),
		collectionOf('options', [...queryOptions, locationIdProperty]),
	],
);

/** GET /odata/workorders (or /odata/locations({id})/workorders), page by page; the Filters and the OData Filter ANDed. */
export const execute = odataGetMany(
	(ctx, i) => {
		const clauses = workOrderFilterClauses(ctx, i);
		const { qs } = readFields(ctx, i, queryOptions, 'options');
		if (qs.$filter !== undefined)
			clauses.push(clauses.length ? `(${String(qs.$filter)})` : String(qs.$filter));
		if (clauses.length) qs.$filter = clauses.join(' and ');
		const locationId = readPlaceId(ctx, i, locationIdProperty, {
			required: false,
			collection: 'options',
			label: 'Location ID',
		});
		const path =
			locationId === undefined ? '/odata/workorders' : `/odata/locations(${locationId})/workorders`;
		return { path, qs };
	},
	// Fields chosen with Select are returned as chosen.
	(ctx, i, records, qs) =>
		shapeOutput(ctx, i, records, WORK_ORDER_OUTPUT, qs.$select === undefined),
);
