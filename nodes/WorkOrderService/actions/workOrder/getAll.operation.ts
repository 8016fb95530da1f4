import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { returnAllOrLimitFields } from '../../helpers/fields';
import { locationLocator, readPlaceId } from '../../helpers/places';
import { collectionOf, readFields, trimmedText, type FieldSpec } from '../../helpers/validation';
import { readLimit } from '../../helpers/limit';
import { simplifyProperty, simplifyWorkOrders } from '../../helpers/simplify';
import { workOrderFilterClauses, workOrderFilterProperties } from '../../helpers/workOrderFilters';
import { ODATA_LIST, readList } from '../../transport/paging';
import type { WorkOrderServiceClient } from '../../transport/client';
import type { OperationMeta } from '../operation';

/** Options sent as OData query options, in the order they are checked. */
const queryOptions: FieldSpec[] = [
	{
		property: {
			displayName: 'OData Filter',
			name: 'filter',
			type: 'string',
			default: '',
			placeholder: "Status/Primary eq 'OPEN' and Location/StoreId eq 'S501'",
			description:
				"More of the OData $filter, ANDed with the Filters, on the work order's properties (e.g. <code>LocationId eq 501</code>, <code>Location/Name</code>, <code>Status/Primary</code>). The service lists the last 90 days unless the filter says otherwise.",
		},
		key: '$filter',
		in: 'query',
		check: trimmedText,
	},
	{
		property: {
			displayName: 'Order By',
			name: 'orderBy',
			type: 'string',
			default: '',
			placeholder: 'UpdatedDate desc',
			description: "OData $orderby expression on the work order's properties",
		},
		key: '$orderby',
		in: 'query',
		check: trimmedText,
	},
	{
		property: {
			displayName: 'Select',
			name: 'select',
			type: 'string',
			default: '',
			placeholder: 'e.g. Number,Trade,Status,Location',
			description: 'Comma-separated properties to return (OData $select)',
		},
		key: '$select',
		in: 'query',
		check: trimmedText,
	},
];

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
		simplifyProperty,
		collectionOf('options', [...queryOptions, locationIdProperty]),
	],
);

/** GET /odata/workorders (or /odata/locations({id})/workorders), page by page; the Filters and the OData Filter ANDed. */
export async function execute(
	this: IExecuteFunctions,
	i: number,
	client: WorkOrderServiceClient,
): Promise<IDataObject[]> {
	const limit = readLimit(this, i);
	const clauses = workOrderFilterClauses(this, i);
	const { qs } = readFields(this, i, queryOptions, 'options');
	if (qs.$filter !== undefined)
		clauses.push(clauses.length ? `(${String(qs.$filter)})` : String(qs.$filter));
	if (clauses.length) qs.$filter = clauses.join(' and ');
	const locationId = readPlaceId(this, i, locationIdProperty, {
		required: false,
		collection: 'options',
		label: 'Location ID',
	});
	const path =
		locationId === undefined ? '/odata/workorders' : `/odata/locations(${locationId})/workorders`;
	const records = await readList(this, client, ODATA_LIST, { path, qs, limit, itemIndex: i });
	// Fields chosen with Select are returned as chosen.
	return simplifyWorkOrders(this, i, records, qs.$select === undefined);
}
