import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';

import {
	fieldOf,
	invalid,
	isBlank,
	positiveInteger,
	type Check,
	type Field,
} from '../helpers/validation';
import { commaList, odataString } from '../helpers/values';
import { textField } from '../helpers/fields';

/**
 * What the Filters of the Get Many operations that build one OData `$filter` share (Invoice and
 * Proposal: actions/invoice/filters.ts, actions/proposal/filters.ts): reading and checking the
 * values of the `filters` collection, and joining the clauses. Each resource feeds its own
 * properties, paths and date literals.
 */

/** Comma-separated IDs, each a positive whole number. */
const idsOf: Check<number[]> = (node, itemIndex, field, value) =>
	commaList(value).map((id) => positiveInteger(node, itemIndex, field, id));

/** Comma-separated texts (or a list). */
const textsOf: Check<string[]> = (node, itemIndex, field, value) => {
	if (!isBlank(value) && typeof value !== 'string' && !Array.isArray(value))
		throw invalid(node, itemIndex, field, 'must be text', value);
	return commaList(value);
};

/** The statuses chosen (a multi-options list, or comma-separated text from an expression). */
function statusList(value: unknown): string[] {
	return Array.isArray(value)
		? value
				.map(String)
				.map((s) => s.trim())
				.filter(Boolean)
		: commaList(value);
}

/** A date-time filter as an instant (ms), `toInstant` reading it in the workflow's time zone. */
function dateCheck(
	toInstant: (value: unknown, zone: string) => number | undefined,
	zone: string,
): Check<number | undefined> {
	return (node, itemIndex, field, value) => {
		if (isBlank(value)) return undefined;
		const ms = toInstant(value, zone);
		if (ms === undefined)
			throw invalid(
				node,
				itemIndex,
				field,
				'must be a date-time such as 2026-05-01T09:30:00 or 2026-05-01T09:30:00-04:00',
				value,
			);
		return ms;
	};
}

/**
 * Reads the Filters of item i, each value by its property's name (`read` with a check; `ids`,
 * `texts`, `date` with `toInstant` in the workflow's time zone), and refuses one by name.
 */
export function filterReader(
	ctx: IExecuteFunctions,
	itemIndex: number,
	properties: INodeProperties[],
	toInstant: (value: unknown, zone: string) => number | undefined,
) {
	const node = ctx.getNode();
	const values = (ctx.getNodeParameter('filters', itemIndex, {}) ?? {}) as IDataObject;
	const fieldNamed = (name: string): Field =>
		fieldOf(properties.find((p) => p.name === name) as INodeProperties, 'filters');
	const read = <T>(name: string, check: Check<T>): T =>
		check(node, itemIndex, fieldNamed(name), values[name]);
	const refuse = (name: string, problem: string, hint?: string) =>
		invalid(node, itemIndex, fieldNamed(name), problem, values[name], hint);
	const dateOf = dateCheck(toInstant, ctx.getTimezone());
	return {
		values,
		read,
		refuse,
		ids: (name: string) => read(name, idsOf),
		texts: (name: string) => read(name, textsOf),
		date: (name: string) => read(name, dateOf),
		/** The statuses chosen, each one checked (and named as it is known) by `each`. */
		statuses: (name: string, each: (status: string) => string | undefined, problem: string) =>
			read(name, (n, i, field, value) =>
				statusList(value).map((status) => {
					const known = each(status);
					if (known === undefined) throw invalid(n, i, field, problem, status);
					return known;
				}),
			),
		/** Refuses a range whose end (`beforeName`) is not later than its start (`afterLabel`). */
		order: (
			after: number | undefined,
			before: number | undefined,
			beforeName: string,
			afterLabel: string,
		) => checkOrder(refuse, after, before, beforeName, afterLabel),
	};
}

/**
 * The Filters' parameters both resources have, worded for `noun` ('invoice' | 'proposal'): ID
 * lists, the primary statuses, a minimum and maximum of an amount.
 */
export function filterFields(noun: string) {
	const idList = (displayName: string, name: string, example: string, what: string) =>
		textField({
			displayName,
			name,
			example,
			description: `Only ${noun}s of these ${what}, comma-separated`,
		});
	const bound = (word: string, path: string, which: 'min' | 'max'): INodeProperties => ({
		displayName: `${which === 'min' ? 'Minimum' : 'Maximum'} ${word}`,
		name: `${which}${word}`,
		type: 'number',
		default: 0,
		typeOptions: { minValue: 0, numberPrecision: 2 },
		description: `Only ${noun}s whose ${word.toLowerCase()} is at ${which === 'min' ? 'least' : 'most'} this (${path})`,
	});
	return {
		idList,
		/** Location IDs and Store IDs. */
		places: [
			idList('Location IDs', 'locationIds', '501, 504', 'locations (Location/Id)'),
			idList(
				'Store IDs',
				'storeIds',
				'S501',
				"locations, by the client's store number (Location/StoreId)",
			),
		],
		statuses: (
			options: Array<{ name: string; value: string }>,
			description: string,
		): INodeProperties => ({
			displayName: 'Primary Statuses',
			name: 'statuses',
			type: 'multiOptions',
			default: [],
			options,
			description,
		}),
		/** Minimum and Maximum `word` (e.g. Total: minTotal, maxTotal) over the OData `path`. */
		range: (word: string, path: string) => [bound(word, path, 'min'), bound(word, path, 'max')],
	};
}

function checkOrder(
	refuse: (name: string, problem: string) => Error,
	after: number | undefined,
	before: number | undefined,
	beforeName: string,
	afterLabel: string,
): void {
	if (after !== undefined && before !== undefined && before <= after)
		throw refuse(beforeName, `must be later than ${afterLabel}`);
}

/** `path eq` any of the literals; undefined for none. */
export function anyOf(path: string, literals: string[]): string | undefined {
	if (literals.length === 0) return undefined;
	const clauses = literals.map((literal) => `${path} eq ${literal}`);
	return clauses.length === 1 ? clauses[0] : `(${clauses.join(' or ')})`;
}

/** The clauses of the statuses (at `statusPath`), locations and store numbers. */
export function placeClauses(
	statusPath: string,
	f: { statuses: string[]; locationIds: number[]; storeIds: string[] },
): Array<string | undefined> {
	return [
		anyOf(statusPath, f.statuses.map(odataString)),
		anyOf('Location/Id', f.locationIds.map(String)),
		anyOf('Location/StoreId', f.storeIds.map(odataString)),
	];
}

/** `path ge` the start and `path lt` the end of a date range, as `literal`s; undefined for none. */
export function dateRange(
	path: string,
	after: number | undefined,
	before: number | undefined,
	literal: (ms: number) => string,
): Array<string | undefined> {
	return [
		after !== undefined ? `${path} ge ${literal(after)}` : undefined,
		before !== undefined ? `${path} lt ${literal(before)}` : undefined,
	];
}

/** The clauses ANDed (and an own OData clause, in parentheses); undefined for none. */
export function allOf(clauses: Array<string | undefined>, own?: string): string | undefined {
	const all = [...clauses, own !== undefined && own.trim() !== '' ? `(${own.trim()})` : undefined];
	const given = all.filter((c): c is string => c !== undefined);
	return given.length ? given.join(' and ') : undefined;
}
