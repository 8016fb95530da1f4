import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { limitField, returnAllField } from '../../helpers/fields';
import { readLimit } from '../../helpers/limit';
import { toRecords, type WorkOrderServiceClient } from '../../transport';

/** A "Get Many" over an unpaged list endpoint: one output item per record, Return All / Limit. */
export function simpleListOperation(resource: string, path: string) {
	const description: INodeProperties[] = updateDisplayOptions(
		{ show: { resource: [resource], operation: ['getAll'] } },
		[returnAllField, { ...limitField, displayOptions: { show: { returnAll: [false] } } }],
	);

	async function execute(this: IExecuteFunctions, i: number, client: WorkOrderServiceClient): Promise<IDataObject[]> {
		const limit = readLimit(this, i);
		const records = toRecords(await client.request({ method: 'GET', path, itemIndex: i }));
		return limit === undefined ? records : records.slice(0, limit);
	}

	return { description, execute };
}
