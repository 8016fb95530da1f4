import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';

import { compactRecord } from './simplify';
import { type CollectionName, fieldOf, invalid, isBlank, positiveInteger } from './validation';
import { odataString } from './values';

/**
 * Locations, assets and trades as parameters (service-reference-c.md, "Locations, assets, trades,
 * providers"): the Location picker (From List with a search on name and store number, By ID), the
 * Asset picker (the assets at the chosen location), the Trade and Provider dropdowns, and reading
 * the values they hold. Saved workflows that hold a plain number or a digit string where a picker
 * now is keep working: every reader here takes the picker's `{ __rl, mode, value }`, a number or
 * a string of digits.
 */

/** The ID regex of a By ID mode: empty is left to "required", anything typed must be digits (not 0). */
const ID_REGEX = '^\\s*([0-9]*[1-9][0-9]*)?\\s*$';

/** The hint under a Location list. */
export const LOCATION_SEARCH_HINT =
	'Type part of the name or the store number (digits also find the location ID)';

/** A Location picker (From List, By ID). */
export function locationLocator(options: {
	name: string;
	description: string;
	required?: boolean;
	displayName?: string;
	/** Whether a third mode takes the client's store number (StoreId) in the ID's place. */
	byStoreNumber?: boolean;
}): INodeProperties {
	const field: INodeProperties = {
		displayName: options.displayName ?? 'Location',
		name: options.name,
		type: 'resourceLocator',
		default: { mode: 'list', value: '' },
		description: options.description,
		modes: [
			{
				displayName: 'From List',
				name: 'list',
				type: 'list',
				placeholder: 'Select a location...',
				hint: LOCATION_SEARCH_HINT,
				typeOptions: { searchListMethod: 'searchLocations', searchable: true },
			},
			{
				displayName: 'By ID',
				name: 'id',
				type: 'string',
				placeholder: 'e.g. 501',
				validation: [
					{
						type: 'regex',
						properties: {
							regex: ID_REGEX,
							errorMessage: 'Not a location ID: enter digits only, e.g. 501',
						},
					},
				],
			},
			...(options.byStoreNumber
				? [
						{
							displayName: 'By Store Number',
							name: 'storeId',
							type: 'string' as const,
							placeholder: 'e.g. S501',
						},
					]
				: []),
		],
	};
	if (options.required) field.required = true;
	return field;
}

/** An Asset picker: From List (the assets at the chosen location, or at the work order's), By ID. */
export function assetLocator(description: string): INodeProperties {
	return {
		displayName: 'Asset',
		name: 'assetId',
		type: 'resourceLocator',
		default: { mode: 'list', value: '' },
		required: true,
		description,
		modes: [
			{
				displayName: 'From List',
				name: 'list',
				type: 'list',
				placeholder: 'Select an asset...',
				hint: "The assets at the chosen location (for Attach: at the work order's location, of its trade)",
				typeOptions: { searchListMethod: 'searchAssets', searchable: true },
			},
			{
				displayName: 'By ID',
				name: 'id',
				type: 'string',
				placeholder: 'e.g. 50101',
				validation: [
					{
						type: 'regex',
						properties: {
							regex: ID_REGEX,
							errorMessage: 'Not an asset ID: enter digits only, e.g. 50101',
						},
					},
				],
			},
		],
	};
}

/**
 * A Trade dropdown: the trades at the chosen location (all the subscriber's trades while none is
 * chosen); its value is the trade's name, as the service takes it. Starts empty without being
 * flagged and takes an expression, or a name typed by hand.
 */
export function tradeDropdown(options: {
	name: string;
	description: string;
	required?: boolean;
	dependsOn?: string[];
}): INodeProperties {
	const field: INodeProperties = {
		displayName: 'Trade Name or ID',
		name: options.name,
		type: 'options',
		typeOptions: {
			loadOptionsMethod: 'getTrades',
			...(options.dependsOn ? { loadOptionsDependsOn: options.dependsOn } : {}),
		},
		default: '',
		allowArbitraryValues: true,
		description: `${options.description}. Choose from the list, or specify an ID using an <a href="https://docs.n8n.io/code/expressions/">expression</a>.`,
	};
	if (options.required) field.required = true;
	return field;
}

/** The value a picker or a plain parameter holds: `{ mode, value }` of a resource locator, else the value itself. */
export function locatorValue(raw: unknown): { mode: string; value: unknown } {
	if (raw !== null && typeof raw === 'object' && 'value' in raw) {
		const mode = (raw as { mode?: unknown }).mode;
		return {
			mode: typeof mode === 'string' ? mode : 'id',
			value: (raw as { value: unknown }).value,
		};
	}
	return { mode: 'id', value: raw };
}

/** A location (or asset) ID of item i, from a picker or a plain value; undefined when empty and not required. */
export function readPlaceId(
	ctx: IExecuteFunctions,
	i: number,
	property: INodeProperties,
	options: { required: boolean; collection?: CollectionName; label?: string },
): number | undefined {
	const raw =
		options.collection === undefined
			? ctx.getNodeParameter(property.name, i, undefined)
			: ((ctx.getNodeParameter(options.collection, i, {}) ?? {}) as IDataObject)[property.name];
	const { value } = locatorValue(raw);
	const field = fieldOf(property, options.collection, options.label);
	if (isBlank(value)) {
		if (!options.required) return undefined;
		throw invalid(
			ctx.getNode(),
			i,
			field,
			'must be chosen from the list or given by its ID',
			value,
		);
	}
	return positiveInteger(ctx.getNode(), i, field, value);
}

/** OData `$filter` of a location search: any part of the name or store number; digits also the ID. */
export function locationSearchFilter(search: string): string | undefined {
	const text = search.trim();
	if (text === '') return undefined;
	const parts = [`contains(Name,${odataString(text)})`, `contains(StoreId,${odataString(text)})`];
	if (/^\d{1,10}$/.test(text) && Number(text) >= 1 && Number(text) <= 2147483647)
		parts.push(`Id eq ${Number(text)}`);
	return parts.join(' or ');
}

/** What a location list shows: `S501 · Store #501 Dallas Downtown (Dallas, TX)`. */
export function locationListName(record: IDataObject): string {
	const text = (v: unknown) => (typeof v === 'string' && v.trim() !== '' ? v.trim() : undefined);
	const store = text(record.StoreId);
	const name = text(record.Name) ?? text(record.ShortName) ?? `Location ${String(record.Id)}`;
	const where = [text(record.City), text(record.State)].filter(Boolean).join(', ');
	return `${store ? `${store} · ` : ''}${name}${where ? ` (${where})` : ''}`;
}

/** What an asset list shows: `WIF-501-1 · Walk-in Freezer (REFRIGERATION, Kolpak KF7-0810-CR)`. */
export function assetListName(record: IDataObject): string {
	const text = (v: unknown) => (typeof v === 'string' && v.trim() !== '' ? v.trim() : undefined);
	const tag = text(record.Tag) ?? text(record.AssetTag);
	const kind = text(record.Type) ?? text(record.Description) ?? `Asset ${String(record.Id)}`;
	const more = [
		text(record.Trade),
		[text(record.Manufacturer), text(record.ModelNo)].filter(Boolean).join(' '),
	]
		.filter(Boolean)
		.join(', ');
	return `${tag ? `${tag} · ` : ''}${kind}${more ? ` (${more})` : ''}`;
}

/** The compact location of Simplify: where it is and how it is known. */
export const LOCATION_COMPACT: Record<string, readonly string[] | undefined> = {
	Id: undefined,
	StoreId: undefined,
	Name: undefined,
	ShortName: undefined,
	Status: undefined,
	Address1: undefined,
	Address2: undefined,
	City: undefined,
	State: undefined,
	Zip: undefined,
	Country: undefined,
	Region: undefined,
	District: undefined,
	Phone: undefined,
	Latitude: undefined,
	Longitude: undefined,
	TimeZoneIanaName: undefined,
};

/** Locations as the item shows them: compact with Simplify (on by default), else as sent. */
export function simplifyLocations(
	ctx: IExecuteFunctions,
	i: number,
	records: IDataObject[],
): IDataObject[] {
	const simplify = ctx.getNodeParameter('simplify', i, true) as boolean;
	return simplify ? records.map((r) => compactRecord(r, LOCATION_COMPACT)) : records;
}
