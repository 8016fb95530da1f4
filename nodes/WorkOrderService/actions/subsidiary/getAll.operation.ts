import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { returnAllOrLimitFields } from '../../helpers/fields';
import { readLimit } from '../../helpers/limit';
import { WHOLE_LIST, readList } from '../../transport/paging';
import type { WorkOrderServiceClient } from '../../transport/client';
import type { OperationMeta } from '../operation';

export const meta: OperationMeta = { safeToRepeat: true };

export const description = updateDisplayOptions(
	{ show: { resource: ['subsidiary'], operation: ['getAll'] } },
	returnAllOrLimitFields,
);

/** GET /subscribers/current/subsidiaries: one unpaged list, one item per record. */
export async function execute(
	this: IExecuteFunctions,
	i: number,
	client: WorkOrderServiceClient,
): Promise<IDataObject[]> {
	const limit = readLimit(this, i);
	return await readList(this, client, WHOLE_LIST, {
		path: '/subscribers/current/subsidiaries',
		limit,
		itemIndex: i,
	});
}
