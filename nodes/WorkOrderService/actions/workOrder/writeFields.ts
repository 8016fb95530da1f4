import type { IDataObject, INodeProperties } from 'n8n-workflow';

import {
	invalid,
	isBlank,
	optionalDateTime,
	optionalText,
	type Check,
	type Field,
	type FieldSpec,
} from '../../helpers/validation';
import { ownRecord } from '../../helpers/values';

/**
 * What the work-order writes (create and the change calls of service-reference.md section 8)
 * share: the Actor field, the dropdown fields fed by the service's lists, a required date-time,
 * and the nesting of body keys written with a dot (`ContractInfo.TradeName`).
 */

/** The largest amount of money (NTE, price, taxes) the node sends. */
export const MONEY_MAX = 1_000_000_000;

/** The NTE (not-to-exceed amount): one label and placeholder for Create and Update NTE. */
export function nteProperty(description: string): INodeProperties {
	return {
		displayName: 'NTE',
		name: 'nte',
		type: 'string',
		default: '',
		placeholder: 'e.g. 750',
		description,
	};
}

/** Body field `Actor` of the change calls: the name the service records as the actor. */
export const actorField: FieldSpec = {
	property: {
		displayName: 'Actor',
		name: 'actor',
		type: 'string',
		default: '',
		placeholder: 'e.g. Building Management System',
		description:
			'Name the service records as the one who made the change (for example the system or person the workflow acts for)',
	},
	key: 'Actor',
	check: optionalText,
};

/**
 * A dropdown filled from one of the service's lists; its value is the name the service expects. It
 * starts empty without being flagged, and takes an expression instead of a choice.
 */
export function dynamicField(options: {
	displayName: string;
	name: string;
	method: string;
	what: string;
	required?: boolean;
	dependsOn?: string[];
}): INodeProperties {
	const field: INodeProperties = {
		displayName: options.displayName,
		name: options.name,
		type: 'options',
		typeOptions: {
			loadOptionsMethod: options.method,
			...(options.dependsOn ? { loadOptionsDependsOn: options.dependsOn } : {}),
		},
		default: '',
		// The editor flags a value missing from the loaded list ("The value ... is not supported!"),
		// the empty start value included; names from expressions or older lists are fine here.
		allowArbitraryValues: true,
		description: `${options.what}. Choose from the list, or specify an ID using an <a href="https://docs.n8n.io/code/expressions/">expression</a>.`,
	};
	if (options.required) field.required = true;
	return field;
}

/** A date-time that must be given (ISO 8601; sent as typed: without an offset the service reads it as its own local time). */
export const requiredDateTime: Check<string> = (node, itemIndex, field: Field, value) => {
	if (isBlank(value))
		throw invalid(node, itemIndex, field, 'must be a date-time, not empty', value);
	return optionalDateTime(node, itemIndex, field, value) as string;
};

/**
 * A body whose keys may hold dots: `{ 'ContractInfo.TradeName': 'HVAC' }` -> `{ ContractInfo:
 * { TradeName: 'HVAC' } }`. Keys are set as own properties (no prototype is ever touched).
 */
export function nest(flat: IDataObject): IDataObject {
	const root = ownRecord([]);
	for (const [key, value] of Object.entries(flat)) {
		const path = key.split('.');
		let target = root;
		for (const part of path.slice(0, -1)) {
			if (!Object.prototype.hasOwnProperty.call(target, part))
				Object.defineProperty(target, part, {
					value: ownRecord([]),
					enumerable: true,
					writable: true,
					configurable: true,
				});
			target = target[part] as IDataObject;
		}
		Object.defineProperty(target, path[path.length - 1], {
			value,
			enumerable: true,
			writable: true,
			configurable: true,
		});
	}
	return root;
}
