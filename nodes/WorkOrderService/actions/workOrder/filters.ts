import type { IExecuteFunctions, INodeProperties } from 'n8n-workflow';

import { dateTimeField, textField } from '../../helpers/fields';
import { serviceDateTime, userInstant } from '../../helpers/dateTime';
import { fieldOf, invalid, optionalText, type CollectionName } from '../../helpers/validation';
import { commaList, odataString } from '../../helpers/values';
import { workOrderSearchFilter } from '../../helpers/workOrderSearch';
import { tradeDropdown } from '../../helpers/places';

/**
 * The Filters of Work Order Get Many, as OData `$filter` clauses on the reference's work order
 * property paths: `Status/Primary`, `Status/Extended`, `Trade`, `Category`, `Priority`,
 * `LocationId`, `Location/StoreId`, date ranges on `UpdatedDate` / `CreatedDate` (literals in US
 * Eastern with their offset), a text search (any part of the number, location name or store
 * number), joined with `and`. Lists are comma-separated and match any of their values.
 */

interface FilterSpec {
	property: INodeProperties;
	clause: (ctx: IExecuteFunctions, i: number, value: unknown, label: string) => string | undefined;
}

function anyOf(path: string, literals: string[]): string | undefined {
	if (!literals.length) return undefined;
	const parts = literals.map((literal) => `${path} eq ${literal}`);
	return parts.length === 1 ? parts[0] : `(${parts.join(' or ')})`;
}

/** A text list filter on `path`. */
function textList(
	displayName: string,
	name: string,
	path: string,
	placeholder: string,
): FilterSpec {
	return {
		property: {
			displayName,
			name,
			type: 'string',
			default: '',
			placeholder: `e.g. ${placeholder}`,
			description: `Only work orders whose ${path} is one of these (comma-separated)`,
		},
		clause: (_ctx, _i, value) => anyOf(path, commaList(value).map(odataString)),
	};
}

/** A date bound on `path` (`ge` after, `lt` before): a user date-time as the service's local time with its offset. */
function dateBound(displayName: string, name: string, path: string, op: 'ge' | 'lt'): FilterSpec {
	return {
		property: dateTimeField(
			displayName,
			name,
			`Only work orders whose ${path} is ${op === 'ge' ? 'at or after' : 'before'} this time.`,
		),
		clause: (ctx, i, value, label) => {
			if (value === undefined || value === null || value === '') return undefined;
			const ms = userInstant(value, ctx.getTimezone());
			if (ms === undefined)
				throw invalid(
					ctx.getNode(),
					i,
					{ name: `filters.${name}`, label },
					'must be an ISO 8601 date-time such as 2026-05-01T09:30:00',
					value,
				);
			return `${path} ${op} ${serviceDateTime(ms)}`;
		},
	};
}

const FILTERS: FilterSpec[] = [
	{
		property: textField({
			displayName: 'Search',
			name: 'search',
			example: 'Dallas',
			description:
				'Text found in any part of the work order number, location name or store number; digits also find the work order ID',
		}),
		clause: (ctx, i, value, label) => {
			const text = optionalText(ctx.getNode(), i, { name: 'filters.search', label }, value);
			const filter = text === undefined ? undefined : workOrderSearchFilter(text);
			return filter === undefined ? undefined : `(${filter})`;
		},
	},
	textList('Primary Statuses', 'statuses', 'Status/Primary', 'OPEN, IN PROGRESS'),
	textList('Extended Statuses', 'extendedStatuses', 'Status/Extended', 'DISPATCH CONFIRMED'),
	{
		// a dropdown of the trades (at the location of Options > Location when one is chosen); a
		// comma-separated list typed by hand or from an expression (as saved before) still works
		property: tradeDropdown({
			name: 'trades',
			description:
				'Only work orders of these trades; several as a comma-separated list (typed or from an expression)',
			dependsOn: ['options.locationId.value'],
		}),
		clause: textList('Trades', 'trades', 'Trade', '').clause,
	},
	textList('Categories', 'categories', 'Category', 'REPAIR'),
	textList('Priorities', 'priorities', 'Priority', 'P3 - Normal'),
	textList('Store IDs', 'storeIds', 'Location/StoreId', 'S501, S502'),
	{
		property: {
			displayName: 'Location IDs',
			name: 'locationIds',
			type: 'string',
			default: '',
			placeholder: 'e.g. 501, 502',
			description: 'Only work orders of these locations (LocationId, comma-separated)',
		},
		clause: (ctx, i, value, label) => {
			const ids = commaList(value);
			for (const id of ids) {
				if (!/^\d{1,10}$/.test(id) || /^0+$/.test(id))
					throw invalid(
						ctx.getNode(),
						i,
						{ name: 'filters.locationIds', label },
						'must be positive whole numbers, comma-separated',
						id,
					);
			}
			return anyOf(
				'LocationId',
				ids.map((id) => id.replace(/^0+/, '')),
			);
		},
	},
	dateBound('Updated After', 'updatedAfter', 'UpdatedDate', 'ge'),
	dateBound('Updated Before', 'updatedBefore', 'UpdatedDate', 'lt'),
	dateBound('Created After', 'createdAfter', 'CreatedDate', 'ge'),
	dateBound('Created Before', 'createdBefore', 'CreatedDate', 'lt'),
];

export const workOrderFilterProperties: INodeProperties[] = FILTERS.map((f) => f.property);

/** The clauses of item i's Filters, in the order of the list above. */
export function workOrderFilterClauses(
	ctx: IExecuteFunctions,
	i: number,
	collection: CollectionName = 'filters',
): string[] {
	const values = (ctx.getNodeParameter(collection, i, {}) ?? {}) as Record<string, unknown>;
	const clauses: string[] = [];
	for (const spec of FILTERS) {
		const clause = spec.clause(
			ctx,
			i,
			values[spec.property.name],
			fieldOf(spec.property, collection).label,
		);
		if (clause !== undefined) clauses.push(clause);
	}
	return clauses;
}
