import type { IExecuteFunctions } from 'n8n-workflow';

import { fieldOf, positiveInteger } from './validation';
import { limitField } from './fields';

/** Reads "Return All" / "Limit": undefined means every record. */
export function readLimit(ctx: IExecuteFunctions, itemIndex: number): number | undefined {
	const returnAll = ctx.getNodeParameter('returnAll', itemIndex, false) as boolean;
	if (returnAll) return undefined;
	return positiveInteger(
		ctx.getNode(),
		itemIndex,
		fieldOf(limitField),
		ctx.getNodeParameter(limitField.name, itemIndex, 50),
	);
}
