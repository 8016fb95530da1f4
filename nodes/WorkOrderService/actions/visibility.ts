import type { INodeProperties, INodePropertyOptions } from 'n8n-workflow';

import { invalid, type Check, type FieldSpec } from '../helpers/validation';

/**
 * Visibility, one scale for notes and files (service-reference.md sections 4 and 5): 1 not
 * external subscriber users, 2 not the provider, 3 the subscriber only. A note also takes 0,
 * everyone (`all`); a file's descriptor takes no 0, its first choice sends nothing (`default`: the
 * service decides). Same values, labels and descriptions wherever the field stands.
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

const FIRST = {
	all: {
		option: { name: 'All', value: 'all', description: 'Everyone on the work order (0)' },
		number: 0,
	},
	default: {
		option: { name: 'Default', value: 'default', description: 'Send none: the service decides' },
		number: undefined,
	},
} as const;

/** The Visibility field: `all` (0) for a note, `default` (nothing sent) for a file's descriptor. */
export function visibilityField(first: keyof typeof FIRST, what: 'note' | 'file'): FieldSpec {
	const { option, number } = FIRST[first];
	const lowest = number ?? 1;
	const values: Record<string, number | undefined> = { [option.value]: number, ...SCALE };
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
	const property: INodeProperties = {
		displayName: 'Visibility',
		name: 'visibility',
		type: 'options',
		default: '',
		options: [option, ...SCALE_OPTIONS],
		description: `Who may see the ${what} (Visibility)`,
	};
	property.default = option.value;
	return { property, key: 'Visibility', check };
}
