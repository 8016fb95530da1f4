import type { IDataObject, IExecuteFunctions, INode, INodeProperties } from 'n8n-workflow';

import {
	fieldOf,
	invalid,
	isBlank,
	numberBetween,
	positiveInteger,
	type Check,
	type Field,
} from '../../helpers/validation';
import { dateTimeField, textField } from '../../helpers/fields';
import { commaList, odataString } from '../../helpers/values';
import { isKnownZone, parseDateTime, zonedWallTimeToInstant } from '../../helpers/dateTime';

/**
 * The Filters of Proposal → Get Many, as one OData `$filter` over the reference's `Proposal`
 * properties (section 1): `Status/Primary`, `Location/Id`, `Location/StoreId`, `WorkOrder/Id`,
 * `Provider/Id`, `Amount`, and the offset twins of the dates (`CreatedDate_dto`, `UpdatedDateDto`:
 * the reference advises against the plain dates). Date literals are instants with an explicit
 * offset (`2026-03-01T05:00:00.000Z`); a date given without an offset is read in the workflow's
 * time zone. Several values of one filter match any of them; different filters must all match.
 */

const idList = (displayName: string, name: string, example: string, what: string) =>
	textField({
		displayName,
		name,
		example,
		description: `Only proposals of these ${what}, comma-separated`,
	});

const dateField = dateTimeField;

export const filterProperties: INodeProperties[] = [
	{
		displayName: 'Primary Statuses',
		name: 'statuses',
		type: 'multiOptions',
		default: [],
		options: [
			{ name: 'Approved', value: 'Approved' },
			{ name: 'On Hold', value: 'OnHold' },
			{ name: 'Open', value: 'Open' },
			{ name: 'Rejected', value: 'Rejected' },
		],
		description: 'Only proposals in one of these primary statuses (Status/Primary)',
	},
	idList('Location IDs', 'locationIds', '501, 504', 'locations (Location/Id)'),
	idList(
		'Store IDs',
		'storeIds',
		'S501',
		"locations, by the client's store number (Location/StoreId)",
	),
	idList('Work Order IDs', 'workOrderIds', '90000006', 'work orders (WorkOrder/Id)'),
	idList('Provider IDs', 'providerIds', '3001', 'providers (Provider/Id)'),
	dateField(
		'Created After',
		'createdAfter',
		'Only proposals created at or after this time (CreatedDate_dto).',
	),
	dateField(
		'Created Before',
		'createdBefore',
		'Only proposals created before this time (CreatedDate_dto).',
	),
	dateField(
		'Updated After',
		'updatedAfter',
		'Only proposals changed at or after this time (UpdatedDateDto).',
	),
	dateField(
		'Updated Before',
		'updatedBefore',
		'Only proposals changed before this time (UpdatedDateDto).',
	),
	{
		displayName: 'Minimum Amount',
		name: 'minAmount',
		type: 'number',
		default: 0,
		typeOptions: { minValue: 0, numberPrecision: 2 },
		description: 'Only proposals whose amount is at least this (Amount)',
	},
	{
		displayName: 'Maximum Amount',
		name: 'maxAmount',
		type: 'number',
		default: 0,
		typeOptions: { minValue: 0, numberPrecision: 2 },
		description: 'Only proposals whose amount is at most this (Amount)',
	},
];

/** The values of the Filters, checked (IDs as numbers, dates as instants in ms). */
export interface ProposalFilters {
	statuses: string[];
	locationIds: number[];
	storeIds: string[];
	workOrderIds: number[];
	providerIds: number[];
	createdAfter?: number;
	createdBefore?: number;
	updatedAfter?: number;
	updatedBefore?: number;
	minAmount?: number;
	maxAmount?: number;
}

function property(name: string): INodeProperties {
	return filterProperties.find((p) => p.name === name) as INodeProperties;
}

function fieldNamed(name: string): Field {
	return fieldOf(property(name), 'filters');
}

const idsOf: Check<number[]> = (node, itemIndex, field, value) =>
	commaList(value).map((id) => positiveInteger(node, itemIndex, field, id));

const textsOf: Check<string[]> = (node, itemIndex, field, value) => {
	if (!isBlank(value) && typeof value !== 'string' && !Array.isArray(value))
		throw invalid(node, itemIndex, field, 'must be text', value);
	return commaList(value);
};

const statusesOf: Check<string[]> = (node, itemIndex, field, value) => {
	const list = Array.isArray(value)
		? value
				.map(String)
				.map((s) => s.trim())
				.filter(Boolean)
		: commaList(value);
	for (const status of list) {
		if (!/^[A-Za-z][A-Za-z ]{0,39}$/.test(status))
			throw invalid(node, itemIndex, field, 'must be status names such as Open or OnHold', status);
	}
	return list;
};

const amountOf: Check<number | undefined> = numberBetween(0, 1e12);

/** A date-time as an instant (ms): with its offset, or else as a wall time in `zone`. */
function instantOf(
	node: INode,
	itemIndex: number,
	field: Field,
	value: unknown,
	zone: string,
): number | undefined {
	if (isBlank(value)) return undefined;
	const text =
		typeof (value as { toISO?: unknown })?.toISO === 'function'
			? String((value as { toISO: () => string }).toISO())
			: value;
	const parsed =
		typeof text === 'string'
			? parseDateTime(text)
			: value instanceof Date
				? parseDateTime(value.toISOString())
				: undefined;
	if (!parsed)
		throw invalid(
			node,
			itemIndex,
			field,
			'must be a date-time such as 2026-05-01T09:30:00 or 2026-05-01T09:30:00-04:00',
			value,
		);
	if (parsed.offsetMinutes !== undefined) return parsed.wallMs - parsed.offsetMinutes * 60_000;
	return isKnownZone(zone) ? zonedWallTimeToInstant(parsed.wallMs, zone) : parsed.wallMs;
}

/** Reads and checks the Filters of item i, before any request. */
export function readProposalFilters(ctx: IExecuteFunctions, itemIndex: number): ProposalFilters {
	const node = ctx.getNode();
	const values = (ctx.getNodeParameter('filters', itemIndex, {}) ?? {}) as IDataObject;
	const read = <T>(name: string, check: Check<T>): T =>
		check(node, itemIndex, fieldNamed(name), values[name]);
	const zone = ctx.getTimezone();
	const date = (name: string) => instantOf(node, itemIndex, fieldNamed(name), values[name], zone);
	const filters: ProposalFilters = {
		statuses: read('statuses', statusesOf),
		locationIds: read('locationIds', idsOf),
		storeIds: read('storeIds', textsOf),
		workOrderIds: read('workOrderIds', idsOf),
		providerIds: read('providerIds', idsOf),
		createdAfter: date('createdAfter'),
		createdBefore: date('createdBefore'),
		updatedAfter: date('updatedAfter'),
		updatedBefore: date('updatedBefore'),
		minAmount: read('minAmount', amountOf),
		maxAmount: read('maxAmount', amountOf),
	};
	checkRanges(node, itemIndex, filters, values);
	return filters;
}

function checkRanges(
	node: INode,
	itemIndex: number,
	f: ProposalFilters,
	values: IDataObject,
): void {
	const refuse = (name: string, problem: string) =>
		invalid(node, itemIndex, fieldNamed(name), problem, values[name]);
	if (f.minAmount !== undefined && f.maxAmount !== undefined && f.maxAmount < f.minAmount)
		throw refuse('maxAmount', 'must not be below Minimum Amount');
	if (
		f.createdAfter !== undefined &&
		f.createdBefore !== undefined &&
		f.createdBefore <= f.createdAfter
	) {
		throw refuse('createdBefore', 'must be later than Created After');
	}
	if (
		f.updatedAfter !== undefined &&
		f.updatedBefore !== undefined &&
		f.updatedBefore <= f.updatedAfter
	) {
		throw refuse('updatedBefore', 'must be later than Updated After');
	}
}

/** An instant as an OData literal with an explicit offset (UTC, `Z`). */
function literalOf(ms: number): string {
	return new Date(ms).toISOString();
}

function anyOf(path: string, literals: string[]): string | undefined {
	if (literals.length === 0) return undefined;
	const clauses = literals.map((literal) => `${path} eq ${literal}`);
	return clauses.length === 1 ? clauses[0] : `(${clauses.join(' or ')})`;
}

/** The `$filter` for the Filters (and an own OData clause, ANDed in parentheses); undefined for none. */
export function proposalFilter(f: ProposalFilters, own?: string): string | undefined {
	const clauses = [
		anyOf('Status/Primary', f.statuses.map(odataString)),
		anyOf('Location/Id', f.locationIds.map(String)),
		anyOf('Location/StoreId', f.storeIds.map(odataString)),
		anyOf('WorkOrder/Id', f.workOrderIds.map(String)),
		anyOf('Provider/Id', f.providerIds.map(String)),
		f.createdAfter !== undefined ? `CreatedDate_dto ge ${literalOf(f.createdAfter)}` : undefined,
		f.createdBefore !== undefined ? `CreatedDate_dto lt ${literalOf(f.createdBefore)}` : undefined,
		f.updatedAfter !== undefined ? `UpdatedDateDto ge ${literalOf(f.updatedAfter)}` : undefined,
		f.updatedBefore !== undefined ? `UpdatedDateDto lt ${literalOf(f.updatedBefore)}` : undefined,
		f.minAmount !== undefined ? `Amount ge ${f.minAmount}` : undefined,
		f.maxAmount !== undefined ? `Amount le ${f.maxAmount}` : undefined,
		own !== undefined && own.trim() !== '' ? `(${own.trim()})` : undefined,
	].filter((c): c is string => c !== undefined);
	return clauses.length ? clauses.join(' and ') : undefined;
}
