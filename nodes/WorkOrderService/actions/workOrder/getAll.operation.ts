import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { idField, returnAllOrLimitFields } from '../../helpers/fields';
import { collectionOf, readFields, readParameter, trimmedText, type FieldSpec } from '../../helpers/fieldList';
import { readLimit } from '../../helpers/limit';
import { optionalPositiveInteger } from '../../helpers/validation';
import { ODATA_LIST, readList, type WorkOrderServiceClient } from '../../transport';
import type { OperationMeta } from '../operation';

/** Options sent as OData query options, in the order they are checked. */
const queryOptions: FieldSpec[] = [
	{
		property: {
			displayName: 'Filter',
			name: 'filter',
			type: 'string',
			default: '',
			placeholder: "Status/Primary eq 'OPEN'",
			description:
				'OData $filter expression, e.g. <code>LocationId eq 12</code>. The service lists the last 90 days unless the filter says otherwise.',
		},
		key: '$filter', in: 'query', check: trimmedText,
	},
	{
		property: {
			displayName: 'Order By',
			name: 'orderBy',
			type: 'string',
			default: '',
			placeholder: 'CreatedDate desc',
			description: 'OData $orderby expression',
		},
		key: '$orderby', in: 'query', check: trimmedText,
	},
	{
		property: {
			displayName: 'Select',
			name: 'select',
			type: 'string',
			default: '',
			placeholder: 'Number,Status,Trade',
			description: 'Comma-separated fields to return (OData $select)',
		},
		key: '$select', in: 'query', check: trimmedText,
	},
];

/** Chooses the path: the work orders of one location. */
const locationIdProperty = idField({
	displayName: 'Location ID',
	name: 'locationId',
	example: '501',
	description: 'Only work orders of this location. Leave empty for all locations.',
});

export const meta: OperationMeta = { safeToRepeat: true };

export const description = updateDisplayOptions({ show: { resource: ['workOrder'], operation: ['getAll'] } }, [
	...returnAllOrLimitFields,
	collectionOf('options', [...queryOptions, locationIdProperty]),
]);

/** GET /odata/workorders (or /odata/locations({id})/workorders), page by page. */
export async function execute(this: IExecuteFunctions, i: number, client: WorkOrderServiceClient): Promise<IDataObject[]> {
	const limit = readLimit(this, i);
	const { qs } = readFields(this, i, queryOptions, 'options');
	const locationId = readParameter(this, i, locationIdProperty, optionalPositiveInteger, 'options');
	const path = locationId === undefined ? '/odata/workorders' : `/odata/locations(${locationId})/workorders`;
	return await readList(this, client, ODATA_LIST, { path, qs, limit, itemIndex: i });
}
