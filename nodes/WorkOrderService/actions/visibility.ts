import type { INodePropertyOptions } from 'n8n-workflow';

import { invalid, type Check, type FieldSpec } from '../helpers/validation';

/**
 * Visibility, one scale for notes and files (service-reference.md sections 4 and 5): 1 not
 * external subscriber users, 2 not the provider, 3 the subscriber only; a note also takes 0,
 * everyone (`all`). Its default, `default`, sends nothing (the service decides). Same name, label,
 * values and default wherever the field stands.
 */

const SCALE = { notExternalSubscriber: 1, notProvider: 2, subscriberOnly: 3 } as const;

const SCALE_OPTIONS: INodePropertyOptions[] = [
	{
		name: 'Not External Subscriber',
		value: 'notExternalSubscriber',
		description: 'Hidden from external subscriber users (1)',
	},
	{ name: 'Not Provider', value: 'notProvider', description: 'Hidden from the provider (2)' },
	{
		name: 'Subscriber Only',
		value: 'subscriberOnly',
		description: 'Only the subscriber sees it (3)',
	},
];

const DEFAULT: INodePropertyOptions = {
	name: 'Default',
	value: 'default',
	description: 'Send none: the service decides',
};
const ALL: INodePropertyOptions = {
	name: 'All',
	value: 'all',
	description: 'Everyone on the work order (0)',
};

/**
 * The Visibility field of a note or a file: Default (the first choice and the default: nothing is
 * sent, the service decides), for a note also All (0), then the scale 1 to 3.
 */
export function visibilityField(what: 'note' | 'file'): FieldSpec {
	const note = what === 'note';
	const lowest = note ? 0 : 1;
	const values: Record<string, number | undefined> = {
		default: undefined,
		...(note ? { all: 0 } : {}),
		...SCALE,
	};
	const check: Check<number | undefined> = (node, itemIndex, field, value) => {
		if (value === undefined || value === null || value === '') return undefined;
		if (typeof value === 'string' && Object.prototype.hasOwnProperty.call(values, value))
			return values[value];
		const digits =
			typeof value === 'number' || typeof value === 'string' ? String(value).trim() : '';
		if (new RegExp(`^[${lowest}-3]$`).test(digits)) return Number(digits);
		const names = Object.keys(values);
		const listed = `${names.slice(0, -1).join(', ')} or ${names[names.length - 1]}`;
		throw invalid(node, itemIndex, field, `must be ${listed} (or ${lowest} to 3)`, value);
	};
	return {
		property: {
			displayName: 'Visibility',
			name: 'visibility',
			type: 'options',
			default: 'default',
			options: [DEFAULT, ...(note ? [ALL] : []), ...SCALE_OPTIONS],
			description: `Who may see the ${what} (Visibility)`,
		},
		key: 'Visibility',
		check,
	};
}
