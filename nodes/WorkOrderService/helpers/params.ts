import type { IExecuteFunctions } from 'n8n-workflow';

import { positiveInteger, type Field } from './validation';

export const WORK_ORDER_ID: Field = { name: 'workOrderId', label: 'Work Order ID' };

/**
 * The work order of item i as a number. The parameter is a resource locator (From List / By ID:
 * `{ __rl, mode, value }`), but workflows saved before it was one hold a plain number there, and
 * expressions may return a number or a string of digits: all of them are accepted, nothing else.
 */
export function readWorkOrderId(ctx: IExecuteFunctions, itemIndex: number): number {
	let value: unknown = ctx.getNodeParameter(WORK_ORDER_ID.name, itemIndex, undefined, { extractValue: true });
	if (value !== null && typeof value === 'object' && '__rl' in value && 'value' in value) {
		value = (value as { value: unknown }).value;
	}
	return positiveInteger(ctx.getNode(), itemIndex, WORK_ORDER_ID, value);
}
