import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { returnAllOrLimitFields, textField } from '../../helpers/fields';
import { locationSearchFilter, simplifyLocations } from '../../helpers/places';
import { simplifyProperty } from '../../helpers/simplify';
import { collectionOf, fieldOf, optionalText } from '../../helpers/validation';
import { commaList, odataString } from '../../helpers/values';
import type { OperationMeta } from '../operation';
import { odataGetMany } from '../wholeList';

export const meta: OperationMeta = { safeToRepeat: true };

/** A comma-separated list filter on a location property (any of the values; the service compares text without regard to case). */
const listFilter = (displayName: string, name: string, path: string, placeholder: string) => ({
	property: {
		displayName,
		name,
		type: 'string',
		default: '',
		placeholder,
		description: `Only locations whose ${path} is one of these (comma-separated)`,
	} as INodeProperties,
	clause: (value: unknown) => {
		const values = commaList(value).map(odataString);
		if (!values.length) return undefined;
		const parts = values.map((v) => `${path} eq ${v}`);
		return parts.length === 1 ? parts[0] : `(${parts.join(' or ')})`;
	},
});

const searchProperty: INodeProperties = textField({
	displayName: 'Search',
	name: 'search',
	example: 'Dallas',
	description:
		'Text found in any part of the location name or store number; digits also find the location ID',
});

const FILTERS = [
	listFilter('City', 'city', 'City', 'Dallas, Austin'),
	listFilter('State', 'state', 'State', 'TX'),
	listFilter('Region', 'region', 'Region', 'Southwest'),
	listFilter('District', 'district', 'District', 'North Texas'),
];

export const description = updateDisplayOptions(
	{ show: { resource: ['location'], operation: ['getAll'] } },
	[
		...returnAllOrLimitFields,
		collectionOf('filters', [searchProperty, ...FILTERS.map((f) => f.property)]),
		simplifyProperty,
	],
);

/** The $filter of item i's Filters (undefined: none). */
function filterOf(ctx: IExecuteFunctions, i: number): string | undefined {
	const values = (ctx.getNodeParameter('filters', i, {}) ?? {}) as IDataObject;
	const clauses: string[] = [];
	const search = optionalText(
		ctx.getNode(),
		i,
		fieldOf(searchProperty, 'filters'),
		values.search,
		100,
	);
	const searched = search === undefined ? undefined : locationSearchFilter(search);
	if (searched !== undefined) clauses.push(`(${searched})`);
	for (const f of FILTERS) {
		const value = values[f.property.name];
		if (value !== undefined && value !== null && typeof value !== 'string')
			optionalText(ctx.getNode(), i, fieldOf(f.property, 'filters'), value);
		const clause = f.clause(value);
		if (clause !== undefined) clauses.push(clause);
	}
	return clauses.length ? clauses.join(' and ') : undefined;
}

/** GET /odata/locations, page by page, the Filters as $filter. */
export const execute = odataGetMany((ctx, i) => {
	const filter = filterOf(ctx, i);
	return { path: '/odata/locations', qs: filter === undefined ? {} : { $filter: filter } };
}, simplifyLocations);
