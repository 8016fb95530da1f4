import type { IExecuteFunctions } from 'n8n-workflow';

import { positiveInteger } from './validation';

/** Reads "Return All" / "Limit": undefined means every record. */
export function readLimit(ctx: IExecuteFunctions, itemIndex: number): number | undefined {
	const returnAll = ctx.getNodeParameter('returnAll', itemIndex, false) as boolean;
	if (returnAll) return undefined;
	return positiveInteger(ctx.getNode(), itemIndex, { name: 'limit', label: 'Limit' }, ctx.getNodeParameter('limit', itemIndex, 50));
}
