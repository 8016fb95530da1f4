import type { IDataObject, INode } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import { commaList, odataString } from '../helpers/values';
import { WORK_ORDERS, statusKey, type WatchedObject } from './objects';

/**
 * The trigger's Filters as OData `$filter` clauses. Lists are comma-separated; values are quoted
 * OData strings (a quote doubled), IDs must be whole numbers. The service compares strings
 * without regard to case.
 */

export interface TriggerFilters {
	/** Clauses the service applies (ANDed). */
	clauses: string[];
	/** Primary statuses asked for (lower-cased for comparison); empty = any. */
	statuses: string[];
	/** The status clause alone (empty when no status is asked for). */
	statusClause: string;
}

function filterError(
	node: INode,
	label: string,
	name: string,
	problem: string,
): NodeOperationError {
	return new NodeOperationError(
		node,
		`Invalid ${label} (parameter "filters.${name}"): ${problem}`,
		{
			description: `Fix the "${label}" filter of the trigger. Nothing was sent to the service.`,
		},
	);
}

function anyOf(property: string, literals: string[]): string {
	const parts = literals.map((literal) => `${property} eq ${literal}`);
	return parts.length === 1 ? parts[0] : `(${parts.join(' or ')})`;
}

export function readFilters(
	node: INode,
	raw: IDataObject | undefined,
	object: WatchedObject = WORK_ORDERS,
): TriggerFilters {
	const filters = raw ?? {};
	const clauses: string[] = [];

	const locations = commaList(filters.locationIds);
	for (const id of locations) {
		if (!/^\d{1,18}$/.test(id) || /^0+$/.test(id)) {
			throw filterError(
				node,
				'Location IDs',
				'locationIds',
				`"${id}" is not a positive whole number`,
			);
		}
	}
	if (locations.length)
		clauses.push(
			anyOf(
				object.locationField,
				locations.map((id) => id.replace(/^0+/, '')),
			),
		);

	const statuses = commaList(filters.statuses);
	const statusClause = statuses.length ? anyOf(object.statusField, statuses.map(odataString)) : '';

	const trades = commaList(filters.trades);
	if (trades.length) clauses.push(anyOf('Trade', trades.map(odataString)));

	// invoices have no category (the option is hidden for them; a value kept from before is not sent)
	const categories = object.categories ? commaList(filters.categories) : [];
	if (categories.length) clauses.push(anyOf('Category', categories.map(odataString)));

	if (
		filters.filter !== undefined &&
		filters.filter !== null &&
		typeof filters.filter !== 'string'
	) {
		throw filterError(node, 'OData Filter', 'filter', 'must be text');
	}
	const custom = typeof filters.filter === 'string' ? filters.filter.trim() : '';
	if (custom !== '') {
		if (/\$filter\s*=/i.test(custom) || /[?&]\$/.test(custom)) {
			throw filterError(
				node,
				'OData Filter',
				'filter',
				'give the clause only, without "$filter=" or other query options',
			);
		}
		clauses.push(`(${custom})`);
	}

	return {
		clauses,
		statuses: statuses.map((s) => (object.textStatus ? statusKey(s) : s.toLowerCase())),
		statusClause,
	};
}

/** Clauses joined with `and` (undefined when there are none). */
export function joinClauses(clauses: string[]): string | undefined {
	const parts = clauses.filter((c) => c !== '');
	return parts.length ? parts.join(' and ') : undefined;
}

/**
 * Whether a record's primary status is one of `statuses` (any when empty), as the service compares
 * (invoices, `textStatus`: without case and spaces).
 */
export function matchesStatus(
	record: IDataObject,
	statuses: string[],
	textStatus = false,
): boolean {
	if (!statuses.length) return true;
	const status = record.Status as IDataObject | string | undefined | null;
	const primary = status && typeof status === 'object' ? status.Primary : status;
	if (typeof primary !== 'string') return false;
	return statuses.includes(textStatus ? statusKey(primary) : primary.toLowerCase());
}
