import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { idField, limitField, returnAllField } from '../../helpers/fields';
import { optionalPositiveInteger, optionalText } from '../../helpers/validation';
import { readLimit } from '../../helpers/limit';
import { getODataList, type WorkOrderServiceClient } from '../../transport';

const properties: INodeProperties[] = [
	returnAllField,
	{ ...limitField, displayOptions: { show: { returnAll: [false] } } },
	{
		displayName: 'Options',
		name: 'options',
		type: 'collection',
		placeholder: 'Add Option',
		default: {},
		options: [
			{
				displayName: 'Filter',
				name: 'filter',
				type: 'string',
				default: '',
				placeholder: "Status/Primary eq 'OPEN'",
				description:
					'OData $filter expression, e.g. <code>LocationId eq 12</code>. The service lists the last 90 days unless the filter says otherwise.',
			},
			idField({
				displayName: 'Location ID',
				name: 'locationId',
				example: '501',
				description: 'Only work orders of this location. Leave empty for all locations.',
			}),
			{
				displayName: 'Order By',
				name: 'orderBy',
				type: 'string',
				default: '',
				placeholder: 'CreatedDate desc',
				description: 'OData $orderby expression',
			},
			{
				displayName: 'Select',
				name: 'select',
				type: 'string',
				default: '',
				placeholder: 'Number,Status,Trade',
				description: 'Comma-separated fields to return (OData $select)',
			},
		],
	},
];

export const description = updateDisplayOptions(
	{ show: { resource: ['workOrder'], operation: ['getAll'] } },
	properties,
);

export async function execute(this: IExecuteFunctions, i: number, client: WorkOrderServiceClient): Promise<IDataObject[]> {
	const node = this.getNode();
	const limit = readLimit(this, i);
	const options = (this.getNodeParameter('options', i, {}) ?? {}) as IDataObject;
	const option = (name: string, label: string) => ({ name: `options.${name}`, label });
	const qs: IDataObject = {};
	const filter = optionalText(node, i, option('filter', 'Filter'), options.filter);
	if (filter !== undefined && filter.trim() !== '') qs.$filter = filter.trim();
	const orderBy = optionalText(node, i, option('orderBy', 'Order By'), options.orderBy);
	if (orderBy !== undefined && orderBy.trim() !== '') qs.$orderby = orderBy.trim();
	const select = optionalText(node, i, option('select', 'Select'), options.select);
	if (select !== undefined && select.trim() !== '') qs.$select = select.trim();
	const locationId = optionalPositiveInteger(node, i, option('locationId', 'Location ID'), options.locationId);
	const path = locationId === undefined ? '/odata/workorders' : `/odata/locations(${locationId})/workorders`;
	return await getODataList(this, client, { path, qs, limit, itemIndex: i });
}
