import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';

import {
	fieldOf,
	invalid,
	isBlank,
	positiveInteger,
	type Check,
	type Field,
} from '../helpers/validation';
import { commaList } from '../helpers/values';

/**
 * What the Filters of the Get Many operations that build one OData `$filter` share (Invoice and
 * Proposal: actions/invoice/filters.ts, actions/proposal/filters.ts): reading and checking the
 * values of the `filters` collection, and joining the clauses. Each resource feeds its own
 * properties, paths and date literals.
 */

/** Comma-separated IDs, each a positive whole number. */
export const idsOf: Check<number[]> = (node, itemIndex, field, value) =>
	commaList(value).map((id) => positiveInteger(node, itemIndex, field, id));

/** Comma-separated texts (or a list). */
export const textsOf: Check<string[]> = (node, itemIndex, field, value) => {
	if (!isBlank(value) && typeof value !== 'string' && !Array.isArray(value))
		throw invalid(node, itemIndex, field, 'must be text', value);
	return commaList(value);
};

/** The statuses chosen (a multi-options list, or comma-separated text from an expression). */
export function statusList(value: unknown): string[] {
	return Array.isArray(value)
		? value
				.map(String)
				.map((s) => s.trim())
				.filter(Boolean)
		: commaList(value);
}

/** A date-time filter as an instant (ms), `toInstant` reading it in the workflow's time zone. */
export function dateCheck(
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

/** Reads the Filters of item i, each value by its property's name, and refuses one by name. */
export function filterReader(
	ctx: IExecuteFunctions,
	itemIndex: number,
	properties: INodeProperties[],
) {
	const node = ctx.getNode();
	const values = (ctx.getNodeParameter('filters', itemIndex, {}) ?? {}) as IDataObject;
	const fieldNamed = (name: string): Field =>
		fieldOf(properties.find((p) => p.name === name) as INodeProperties, 'filters');
	return {
		values,
		read: <T>(name: string, check: Check<T>): T =>
			check(node, itemIndex, fieldNamed(name), values[name]),
		refuse: (name: string, problem: string, hint?: string) =>
			invalid(node, itemIndex, fieldNamed(name), problem, values[name], hint),
	};
}

/** Refuses a range whose end (`beforeName`) is not later than its start (named `afterLabel`). */
export function checkOrder(
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

/** The clauses ANDed (and an own OData clause, in parentheses); undefined for none. */
export function allOf(clauses: Array<string | undefined>, own?: string): string | undefined {
	const all = [...clauses, own !== undefined && own.trim() !== '' ? `(${own.trim()})` : undefined];
	const given = all.filter((c): c is string => c !== undefined);
	return given.length ? given.join(' and ') : undefined;
}
