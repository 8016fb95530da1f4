import type { IDataObject, IExecuteFunctions, INode, INodeProperties } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import { withMeaning } from './errorMeaning';

/**
 * Input checks that run before any request is sent. Each failure is a NodeOperationError that
 * names the parameter (display name and internal name) and the item, and says what to fix.
 */

export const INT64_MAX = '9223372036854775807';
const WHOLE_NUMBER = 'a whole number of 1 or more';
const INT32_MAX = 2147483647;
const INT32_RULE = `a whole number from 1 to ${INT32_MAX}`;
const INT64_RULE = `a whole number from 1 to ${INT64_MAX}, given as a string of digits`;
export const TEXT_ANSWER_MAX_LENGTH = 500;

export interface Field {
	/** Internal parameter name, e.g. `workOrderId` or `additionalFields.userEmail`. */
	name: string;
	/** Name shown in the UI, e.g. `Work Order ID`. */
	label: string;
}

function show(value: unknown): string {
	if (value === undefined) return 'nothing';
	if (value === null) return 'null';
	if (typeof value === 'number') {
		if (Number.isNaN(value)) return 'NaN';
		if (!Number.isFinite(value)) return value > 0 ? 'Infinity' : '-Infinity';
		return String(value);
	}
	if (typeof value === 'string') {
		const text = value.length > 60 ? `${value.slice(0, 57)}...` : value;
		return `"${text}"`;
	}
	if (typeof value === 'boolean') return String(value);
	try {
		const json = JSON.stringify(value);
		return json.length > 60 ? `${json.slice(0, 57)}...` : json;
	} catch {
		return typeof value;
	}
}

export function invalid(
	node: INode,
	itemIndex: number,
	field: Field,
	problem: string,
	value: unknown,
	hint?: string,
	rule?: string,
) {
	const shown = show(value);
	const error = new NodeOperationError(
		node,
		`Invalid ${field.label} (parameter "${field.name}") in item ${itemIndex}: ${problem}, got ${shown}`,
		{
			itemIndex,
			description:
				hint ??
				`Fix the "${field.label}" parameter for item ${itemIndex}. Nothing was sent to the service for this item.`,
		},
	);
	const input = { field: { name: field.name, label: field.label }, problem, shown, rule };
	return withMeaning(error, { kind: 'validation', outcome: 'notSent', input });
}

/** Nothing given: undefined, null, or text that is empty or only spaces. */
export function isBlank(value: unknown): boolean {
	return (
		value === undefined || value === null || (typeof value === 'string' && value.trim() === '')
	);
}

/**
 * A positive whole number in the service's 32-bit range, 1 to 2147483647 (IDs, attempt numbers,
 * counts: every one the reference types int32), given as a number or as a string of digits (parameters are text; expressions return either). Nothing is ever
 * clamped or rounded: 0, negatives, fractions and anything but digits are refused.
 */
export function positiveInteger(
	node: INode,
	itemIndex: number,
	field: Field,
	value: unknown,
): number {
	const refuse = (problem: string, rule = WHOLE_NUMBER) =>
		invalid(node, itemIndex, field, problem, value, undefined, rule);
	if (isBlank(value)) throw refuse('must be a positive whole number, not empty');
	let n: number | undefined;
	if (typeof value === 'number') n = value;
	else if (typeof value === 'string' && /^\s*\d+\s*$/.test(value)) n = Number(value.trim());
	else if (typeof value === 'bigint') n = Number(value);
	if (n === undefined || !Number.isFinite(n) || !Number.isInteger(n)) {
		throw refuse('must be a positive whole number');
	}
	if (n < 1) throw refuse('must be 1 or greater');
	// the service's IDs, counts and ordinals are int32 (service-reference.md); note IDs have int64Id
	if (n > INT32_MAX)
		throw refuse(`is too large (at most ${INT32_MAX}, the service's 32-bit range)`, INT32_RULE);
	return n;
}

/** As positiveInteger, but an empty field (or null/undefined from an expression) means "not given". */
export function optionalPositiveInteger(
	node: INode,
	itemIndex: number,
	field: Field,
	value: unknown,
): number | undefined {
	if (isBlank(value)) return undefined;
	return positiveInteger(node, itemIndex, field, value);
}

/**
 * A 64-bit ID (note numbers), kept as exact decimal digits: 1 to 9223372036854775807.
 * A number beyond 2^53 has already lost digits, so it is refused with advice to pass a string.
 */
export function int64Id(node: INode, itemIndex: number, field: Field, value: unknown): string {
	const refuse = (problem: string, hint?: string) =>
		invalid(node, itemIndex, field, problem, value, hint, INT64_RULE);
	if (isBlank(value)) throw refuse('must be a positive whole number, not empty');
	let text: string | undefined;
	if (typeof value === 'string') text = value.trim();
	else if (typeof value === 'bigint') text = value.toString();
	else if (typeof value === 'number') {
		if (!Number.isFinite(value) || !Number.isInteger(value)) {
			throw refuse('must be a positive whole number');
		}
		if (!Number.isSafeInteger(value)) {
			throw refuse(
				'is a number beyond 2^53 that has already lost digits',
				`Pass the ${field.label} as a string of digits (e.g. from the "Id" field of a previous node, which this node keeps exact).`,
			);
		}
		text = String(value);
	}
	if (text === undefined || !/^\d+$/.test(text)) {
		throw refuse('must be a positive whole number (digits only)');
	}
	const digits = text.replace(/^0+(?=\d)/, '');
	if (digits === '0') throw refuse('must be 1 or greater');
	if (
		digits.length > INT64_MAX.length ||
		(digits.length === INT64_MAX.length && digits > INT64_MAX)
	) {
		throw refuse(`is beyond the 64-bit maximum ${INT64_MAX}`);
	}
	return digits;
}

/** As int64Id, but an empty field (or null/undefined from an expression) means "not given". */
export function optionalInt64Id(
	node: INode,
	itemIndex: number,
	field: Field,
	value: unknown,
): string | undefined {
	return isBlank(value) ? undefined : int64Id(node, itemIndex, field, value);
}

const EMAIL =
	/^[A-Za-z0-9.!#$%&'*+/=?^_`{|}~-]+@[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?(?:\.[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?)+$/;

export function optionalEmail(
	node: INode,
	itemIndex: number,
	field: Field,
	value: unknown,
): string | undefined {
	if (value === undefined || value === null || value === '') return undefined;
	if (typeof value !== 'string')
		throw invalid(node, itemIndex, field, 'must be an e-mail address', value);
	const text = value.trim();
	if (text.length > 254 || !EMAIL.test(text) || text.includes('..')) {
		throw invalid(node, itemIndex, field, 'must be an e-mail address like name@example.com', value);
	}
	return text;
}

/** E-mail addresses separated by semicolons or commas, each checked; sent joined by semicolons. */
export function optionalEmailList(
	node: INode,
	itemIndex: number,
	field: Field,
	value: unknown,
): string | undefined {
	const text = optionalText(node, itemIndex, field, value);
	if (text === undefined) return undefined;
	const addresses = text
		.split(/[;,]/)
		.map((a) => a.trim())
		.filter((a) => a !== '');
	for (const address of addresses) optionalEmail(node, itemIndex, field, address);
	return addresses.length ? addresses.join(';') : undefined;
}

export function oneOf<T extends string>(
	node: INode,
	itemIndex: number,
	field: Field,
	value: unknown,
	allowed: readonly T[],
): T {
	if (typeof value === 'string' && (allowed as readonly string[]).includes(value))
		return value as T;
	throw invalid(node, itemIndex, field, `must be one of ${allowed.join(', ')}`, value);
}

export function optionalText(
	node: INode,
	itemIndex: number,
	field: Field,
	value: unknown,
	maxLength?: number,
): string | undefined {
	if (value === undefined || value === null) return undefined;
	if (typeof value !== 'string' && typeof value !== 'number') {
		throw invalid(node, itemIndex, field, 'must be text', value);
	}
	const text = String(value);
	// Blank text means "not given", as the service treats it.
	if (text.trim() === '') return undefined;
	if (maxLength !== undefined && text.length > maxLength) {
		throw invalid(
			node,
			itemIndex,
			field,
			`is ${text.length} characters long, at most ${maxLength} are allowed`,
			`${text.slice(0, 20)}...`,
		);
	}
	return text;
}

export function requiredText(
	node: INode,
	itemIndex: number,
	field: Field,
	value: unknown,
	maxLength?: number,
): string {
	const text = optionalText(node, itemIndex, field, value, maxLength);
	if (text === undefined || text.trim() === '')
		throw invalid(node, itemIndex, field, 'must not be empty', value);
	return text;
}

export function optionalBoolean(
	node: INode,
	itemIndex: number,
	field: Field,
	value: unknown,
): boolean | undefined {
	if (value === undefined || value === null || value === '') return undefined;
	if (typeof value === 'boolean') return value;
	if (value === 'true') return true;
	if (value === 'false') return false;
	throw invalid(node, itemIndex, field, 'must be true or false', value);
}

/** A date-time the service can read: ISO 8601 (n8n's date pickers and Luxon produce it). */
export function optionalDateTime(
	node: INode,
	itemIndex: number,
	field: Field,
	value: unknown,
): string | undefined {
	if (value === undefined || value === null || value === '') return undefined;
	const iso =
		value instanceof Date
			? value.toISOString()
			: typeof (value as { toISO?: unknown })?.toISO === 'function'
				? String((value as { toISO: () => string }).toISO())
				: value;
	const match =
		typeof iso === 'string'
			? /^(\d{4})-(\d{2})-(\d{2})(?:[T ](\d{2}):(\d{2})(?::(\d{2})(?:\.\d+)?)?(?:Z|[+-]\d{2}:?\d{2})?)?$/.exec(
					iso.trim(),
				)
			: null;
	const [year, month, day, hour = '0', minute = '0', second = '0'] = match
		? match.slice(1).map((p) => p ?? undefined)
		: [];
	const calendar = match
		? new Date(Date.UTC(Number(year), Number(month) - 1, Number(day)))
		: undefined;
	const realDay =
		calendar !== undefined &&
		calendar.getUTCFullYear() === Number(year) &&
		calendar.getUTCMonth() === Number(month) - 1 &&
		calendar.getUTCDate() === Number(day) &&
		Number(hour) < 24 &&
		Number(minute) < 60 &&
		Number(second) < 60;
	if (!realDay || typeof iso !== 'string') {
		throw invalid(
			node,
			itemIndex,
			field,
			'must be a real ISO 8601 date-time such as 2026-05-01T09:30:00Z',
			value,
		);
	}
	return iso.trim();
}

/** Acknowledgement answers the service accepts (spec 2.2); booleans from expressions map to true/false. */
export const ACKNOWLEDGEMENT_WORDS = ['on', 'off', '1', '0', 'true', 'false', 'yes', 'no'] as const;

export function acknowledgementAnswer(
	node: INode,
	itemIndex: number,
	field: Field,
	value: unknown,
): string {
	if (typeof value === 'boolean') return value ? 'true' : 'false';
	if (value === 1 || value === 0) return String(value);
	if (typeof value === 'string') {
		const word = value.trim().toLowerCase();
		if ((ACKNOWLEDGEMENT_WORDS as readonly string[]).includes(word)) return word;
	}
	throw invalid(
		node,
		itemIndex,
		field,
		`must be one of ${ACKNOWLEDGEMENT_WORDS.join(', ')} (or a boolean)`,
		value,
	);
}

/** A finite number, given as a number or as numeric text; returned as a JSON number. */
export function numericAnswer(
	node: INode,
	itemIndex: number,
	field: Field,
	value: unknown,
): number {
	let n: number | undefined;
	if (typeof value === 'number') n = value;
	else if (typeof value === 'string' && DECIMAL.test(value)) n = Number(value);
	if (n === undefined || !Number.isFinite(n)) {
		throw invalid(node, itemIndex, field, 'must be a finite number', value);
	}
	return n;
}

const DECIMAL = /^\s*[-+]?(\d+\.?\d*|\.\d+)([eE][-+]?\d+)?\s*$/;

/**
 * An optional number within bounds, as a JSON number or decimal text (no hex, no booleans, no
 * arrays). Blank means "not given".
 */
export function optionalNumber(
	node: INode,
	itemIndex: number,
	field: Field,
	value: unknown,
	rules: { min: number; max: number; integer?: boolean },
): number | undefined {
	if (value === undefined || value === null || (typeof value === 'string' && value.trim() === ''))
		return undefined;
	let n: number | undefined;
	if (typeof value === 'number') n = value;
	else if (typeof value === 'string' && DECIMAL.test(value)) n = Number(value);
	const range = `from ${rules.min} to ${rules.max}`;
	if (n === undefined || !Number.isFinite(n) || (rules.integer && !Number.isInteger(n))) {
		throw invalid(
			node,
			itemIndex,
			field,
			`must be ${rules.integer ? 'a whole number' : 'a number'} ${range}`,
			value,
		);
	}
	if (n < rules.min || n > rules.max)
		throw invalid(node, itemIndex, field, `must be ${range}`, value);
	return n;
}

/** MIME type syntax: type/subtype with optional parameters. */
export function isMimeType(value: string): boolean {
	return /^[a-z0-9][a-z0-9!#$&^_.+-]*\/[a-z0-9][a-z0-9!#$&^_.+-]*(\s*;.*)?$/i.test(value.trim());
}

/** Encodes one path segment; nothing a user types can add a segment or climb out of the path. */
export function pathSegment(value: string | number): string {
	return encodeURIComponent(String(value));
}

/**
 * An ID parameter of item i that is a resource locator (From List / By ID: `{ __rl, mode, value }`)
 * as a number. Workflows saved before it was one hold a plain number there, and expressions may
 * return a number or a string of digits: all of them are accepted, nothing else.
 */
export function readLocatorId(ctx: IExecuteFunctions, itemIndex: number, field: Field): number {
	let value: unknown = ctx.getNodeParameter(field.name, itemIndex, undefined, {
		extractValue: true,
	});
	if (value !== null && typeof value === 'object' && '__rl' in value && 'value' in value)
		value = (value as { value: unknown }).value;
	return positiveInteger(ctx.getNode(), itemIndex, field, value);
}

/* ---------------------------------------------------------------- parameters as data */

/**
 * Parameters as data. An operation lists its fields (the parameter the editor shows, the key its
 * value is sent under, the check it must pass) and `readFields` reads and checks them, in list
 * order, into the request's body and query. A field's displayName names it in every error.
 */

/** Checks one parameter value: what to send, or undefined for "not given" (nothing is sent). */
export type Check<T = unknown> = (
	node: INode,
	itemIndex: number,
	field: Field,
	value: unknown,
) => T;

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
export function fieldOf(
	property: INodeProperties,
	collection?: CollectionName,
	label?: string,
): Field {
	return {
		name: collection === undefined ? property.name : `${collection}.${property.name}`,
		label: label ?? property.displayName,
	};
}

/** The options set in a collection parameter (none set: an empty object). */
function collectionValues(
	ctx: IExecuteFunctions,
	itemIndex: number,
	collection?: CollectionName,
): IDataObject | undefined {
	return collection === undefined
		? undefined
		: ((ctx.getNodeParameter(collection, itemIndex, {}) ?? {}) as IDataObject);
}

function valueOf(
	ctx: IExecuteFunctions,
	itemIndex: number,
	name: string,
	values: IDataObject | undefined,
): unknown {
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
	const value = valueOf(
		ctx,
		itemIndex,
		property.name,
		collectionValues(ctx, itemIndex, collection),
	);
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
		if (checked !== undefined)
			(target === 'query' ? qs : body)[key] = checked as IDataObject[string];
	}
	return { body, qs };
}

/** A collection parameter ("Additional Fields", "Options") holding these fields, sorted by name. */
export function collectionOf(
	name: CollectionName,
	fields: Array<FieldSpec | INodeProperties>,
): INodeProperties {
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

export const textUpTo =
	(maxLength: number): Check<string | undefined> =>
	(node, itemIndex, field, value) =>
		optionalText(node, itemIndex, field, value, maxLength);

export const requiredTextUpTo =
	(maxLength: number): Check<string> =>
	(node, itemIndex, field, value) =>
		requiredText(node, itemIndex, field, value, maxLength);

/** Optional text without surrounding spaces (OData clauses). */
export const trimmedText: Check<string | undefined> = (node, itemIndex, field, value) =>
	optionalText(node, itemIndex, field, value)?.trim();

export const numberBetween =
	(min: number, max: number, integer?: boolean): Check<number | undefined> =>
	(node, itemIndex, field, value) =>
		optionalNumber(node, itemIndex, field, value, { min, max, integer });

export const oneOfValues =
	<T extends string>(allowed: readonly T[]): Check<T> =>
	(node, itemIndex, field, value) =>
		oneOf(node, itemIndex, field, value, allowed);

/** As oneOfValues, but empty (or not set) means "not given". */
export const optionalOneOf =
	<T extends string>(allowed: readonly T[]): Check<T | undefined> =>
	(node, itemIndex, field, value) =>
		value === undefined || value === '' ? undefined : oneOf(node, itemIndex, field, value, allowed);
