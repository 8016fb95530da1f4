import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { limitField, returnAllField } from '../../helpers/fields';
import { readLimit } from '../../helpers/limit';
import { apiRequest } from '../../transport';
import { toRecords } from '../../transport/paging';

/** A "Get Many" over an unpaged list endpoint: one output item per record, Return All / Limit. */
export function simpleListOperation(resource: string, path: string) {
	const description: INodeProperties[] = updateDisplayOptions(
		{ show: { resource: [resource], operation: ['getAll'] } },
		[returnAllField, { ...limitField, displayOptions: { show: { returnAll: [false] } } }],
	);

	async function execute(this: IExecuteFunctions, i: number): Promise<IDataObject[]> {
		const limit = readLimit(this, i);
		const response = await apiRequest.call(this, { method: 'GET', path, itemIndex: i });
		const records = toRecords(response.body);
		return limit === undefined ? records : records.slice(0, limit);
	}

	return { description, execute };
}
