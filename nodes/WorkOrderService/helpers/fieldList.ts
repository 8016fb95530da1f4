import type { IDataObject, IExecuteFunctions, INode, INodeProperties } from 'n8n-workflow';

import { oneOf, optionalNumber, optionalText, requiredText, type Field } from './validation';

/**
 * Parameters as data. An operation lists its fields (the parameter the editor shows, the key its
 * value is sent under, the check it must pass) and `readFields` reads and checks them, in list
 * order, into the request's body and query. A field's displayName names it in every error.
 */

/** Checks one parameter value: what to send, or undefined for "not given" (nothing is sent). */
export type Check<T = unknown> = (node: INode, itemIndex: number, field: Field, value: unknown) => T;

export interface FieldSpec {
	/** The parameter as the editor shows it. */
	property: INodeProperties;
	/** The key the checked value is sent under: in the JSON body, or in the query with `in: 'query'`. */
	key: string;
	in?: 'query';
	check: Check;
	/** The name in error messages where it differs from the displayName ("... Name or ID"). */
	label?: string;
}

const COLLECTIONS = {
	additionalFields: { displayName: 'Additional Fields', placeholder: 'Add Field' },
	filters: { displayName: 'Filters', placeholder: 'Add Filter' },
	options: { displayName: 'Options', placeholder: 'Add Option' },
} as const;

export type CollectionName = keyof typeof COLLECTIONS;

/** The field (internal name, label) a parameter's errors name; inside a collection `collection.name`. */
export function fieldOf(property: INodeProperties, collection?: CollectionName, label?: string): Field {
	return {
		name: collection === undefined ? property.name : `${collection}.${property.name}`,
		label: label ?? property.displayName,
	};
}

/** The options set in a collection parameter (none set: an empty object). */
function collectionValues(ctx: IExecuteFunctions, itemIndex: number, collection?: CollectionName): IDataObject | undefined {
	return collection === undefined ? undefined : ((ctx.getNodeParameter(collection, itemIndex, {}) ?? {}) as IDataObject);
}

function valueOf(ctx: IExecuteFunctions, itemIndex: number, name: string, values: IDataObject | undefined): unknown {
	return values === undefined ? ctx.getNodeParameter(name, itemIndex, undefined) : values[name];
}

/** Reads and checks one parameter of item i, top level or inside a collection. */
export function readParameter<T>(
	ctx: IExecuteFunctions,
	itemIndex: number,
	property: INodeProperties,
	check: Check<T>,
	collection?: CollectionName,
): T {
	const value = valueOf(ctx, itemIndex, property.name, collectionValues(ctx, itemIndex, collection));
	return check(ctx.getNode(), itemIndex, fieldOf(property, collection), value);
}

/**
 * Reads and checks the fields of item i (top-level parameters, or the options of a collection) in
 * list order; every value that is given goes into the body or the query under its key.
 */
export function readFields(
	ctx: IExecuteFunctions,
	itemIndex: number,
	fields: FieldSpec[],
	collection?: CollectionName,
): { body: IDataObject; qs: IDataObject } {
	const node = ctx.getNode();
	const values = collectionValues(ctx, itemIndex, collection);
	const body: IDataObject = {};
	const qs: IDataObject = {};
	for (const { property, key, check, label, in: target } of fields) {
		const value = valueOf(ctx, itemIndex, property.name, values);
		const checked = check(node, itemIndex, fieldOf(property, collection, label), value);
		if (checked !== undefined) (target === 'query' ? qs : body)[key] = checked as IDataObject[string];
	}
	return { body, qs };
}

/** A collection parameter ("Additional Fields", "Options") holding these fields, sorted by name. */
export function collectionOf(name: CollectionName, fields: Array<FieldSpec | INodeProperties>): INodeProperties {
	const options = fields.map((f) => ('property' in f ? f.property : f));
	return {
		...COLLECTIONS[name],
		name,
		type: 'collection',
		default: {},
		options: options.sort((a, b) => a.displayName.localeCompare(b.displayName)),
	};
}

/* Checks that take a setting, in the shape of a Check. */

export const textUpTo = (maxLength: number): Check<string | undefined> => (node, itemIndex, field, value) =>
	optionalText(node, itemIndex, field, value, maxLength);

export const requiredTextUpTo = (maxLength: number): Check<string> => (node, itemIndex, field, value) =>
	requiredText(node, itemIndex, field, value, maxLength);

/** Optional text without surrounding spaces (OData clauses). */
export const trimmedText: Check<string | undefined> = (node, itemIndex, field, value) =>
	optionalText(node, itemIndex, field, value)?.trim();

export const numberBetween = (min: number, max: number, integer?: boolean): Check<number | undefined> =>
	(node, itemIndex, field, value) => optionalNumber(node, itemIndex, field, value, { min, max, integer });

export const oneOfValues = <T extends string>(allowed: readonly T[]): Check<T> => (node, itemIndex, field, value) =>
	oneOf(node, itemIndex, field, value, allowed);

/** As oneOfValues, but empty (or not set) means "not given". */
export const optionalOneOf = <T extends string>(allowed: readonly T[]): Check<T | undefined> =>
	(node, itemIndex, field, value) => (value === undefined || value === '' ? undefined : oneOf(node, itemIndex, field, value, allowed));
