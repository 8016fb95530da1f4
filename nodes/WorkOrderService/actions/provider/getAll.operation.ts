import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { returnAllOrLimitFields } from '../../helpers/fields';
import { readLimit } from '../../helpers/limit';
import { tradeDropdown } from '../../helpers/places';
import { readParameter, requiredTextUpTo } from '../../helpers/validation';
import { WHOLE_LIST, readList } from '../../transport/paging';
import type { WorkOrderServiceClient } from '../../transport/client';
import type { OperationMeta } from '../operation';

export const meta: OperationMeta = { safeToRepeat: true };

const tradeField = tradeDropdown({
	name: 'trade',
	description: 'The trade whose providers to list',
	required: true,
});

export const description = updateDisplayOptions(
	{ show: { resource: ['provider'], operation: ['getAll'] } },
	[tradeField, ...returnAllOrLimitFields],
);

/** GET /providers/getbytrade?trade=NAME: one item per `ProviderInfo` (Id, Name, DoNotDispatch). */
export async function execute(
	this: IExecuteFunctions,
	i: number,
	client: WorkOrderServiceClient,
): Promise<IDataObject[]> {
	const trade = readParameter(this, i, tradeField, requiredTextUpTo(100)).trim();
	const limit = readLimit(this, i);
	return await readList(this, client, WHOLE_LIST, {
		path: '/providers/getbytrade',
		qs: { trade },
		limit,
		itemIndex: i,
	});
}
