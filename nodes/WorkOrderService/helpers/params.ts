import type { IExecuteFunctions } from 'n8n-workflow';

import { readLocatorId, type Field } from './validation';

export const WORK_ORDER_ID: Field = { name: 'workOrderId', label: 'Work Order ID' };

/** The work order of item i as a number (a resource locator, a plain number or a digit string). */
export function readWorkOrderId(ctx: IExecuteFunctions, itemIndex: number): number {
	return readLocatorId(ctx, itemIndex, WORK_ORDER_ID);
}
