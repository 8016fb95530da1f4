import type { IExecuteFunctions, INodeProperties } from 'n8n-workflow';

import { numberBetween, type Check } from '../../helpers/validation';
import { dateTimeField } from '../../helpers/fields';
import { isKnownZone, parseDateTime, zonedWallTimeToInstant } from '../../helpers/dateTime';
import { allOf, anyOf, dateRange, filterFields, filterReader, placeClauses } from '../filters';

/**
 * The Filters of Proposal → Get Many, as one OData `$filter` over the reference's `Proposal`
 * properties (section 1): `Status/Primary`, `Location/Id`, `Location/StoreId`, `WorkOrder/Id`,
 * `Provider/Id`, `Amount`, and the offset twins of the dates (`CreatedDate_dto`, `UpdatedDateDto`:
 * the reference advises against the plain dates). Date literals are instants with an explicit
 * offset (`2026-03-01T05:00:00.000Z`); a date given without an offset is read in the workflow's
 * time zone. Several values of one filter match any of them; different filters must all match.
 */

const fields = filterFields('proposal');

const dateField = dateTimeField;

export const filterProperties: INodeProperties[] = [
	fields.statuses(
		[
			{ name: 'Approved', value: 'Approved' },
			{ name: 'On Hold', value: 'OnHold' },
			{ name: 'Open', value: 'Open' },
			{ name: 'Rejected', value: 'Rejected' },
		],
		'Only proposals in one of these primary statuses (Status/Primary)',
	),
	...fields.places,
	fields.idList('Work Order IDs', 'workOrderIds', '90000006', 'work orders (WorkOrder/Id)'),
	fields.idList('Provider IDs', 'providerIds', '3001', 'providers (Provider/Id)'),
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
	...fields.range('Amount', 'Amount'),
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

const amountOf: Check<number | undefined> = numberBetween(0, 1e12);

/** A date-time as an instant (ms): with its offset, or else as a wall time in `zone`. */
function instantOf(value: unknown, zone: string): number | undefined {
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
	if (!parsed) return undefined;
	if (parsed.offsetMinutes !== undefined) return parsed.wallMs - parsed.offsetMinutes * 60_000;
	return isKnownZone(zone) ? zonedWallTimeToInstant(parsed.wallMs, zone) : parsed.wallMs;
}

/** Reads and checks the Filters of item i, before any request. */
export function readProposalFilters(ctx: IExecuteFunctions, itemIndex: number): ProposalFilters {
	const { read, refuse, ids, texts, date, statuses, order } = filterReader(
		ctx,
		itemIndex,
		filterProperties,
		instantOf,
	);
	const f: ProposalFilters = {
		statuses: statuses(
			'statuses',
			(status) => (/^[A-Za-z][A-Za-z ]{0,39}$/.test(status) ? status : undefined),
			'must be status names such as Open or OnHold',
		),
		locationIds: ids('locationIds'),
		storeIds: texts('storeIds'),
		workOrderIds: ids('workOrderIds'),
		providerIds: ids('providerIds'),
		createdAfter: date('createdAfter'),
		createdBefore: date('createdBefore'),
		updatedAfter: date('updatedAfter'),
		updatedBefore: date('updatedBefore'),
		minAmount: read('minAmount', amountOf),
		maxAmount: read('maxAmount', amountOf),
	};
	if (f.minAmount !== undefined && f.maxAmount !== undefined && f.maxAmount < f.minAmount)
		throw refuse('maxAmount', 'must not be below Minimum Amount');
	order(f.createdAfter, f.createdBefore, 'createdBefore', 'Created After');
	order(f.updatedAfter, f.updatedBefore, 'updatedBefore', 'Updated After');
	return f;
}

/** An instant as an OData literal with an explicit offset (UTC, `Z`). */
function literalOf(ms: number): string {
	return new Date(ms).toISOString();
}

/** The `$filter` for the Filters (and an own OData clause, ANDed in parentheses); undefined for none. */
export function proposalFilter(f: ProposalFilters, own?: string): string | undefined {
	return allOf(
		[
			...placeClauses('Status/Primary', f),
			anyOf('WorkOrder/Id', f.workOrderIds.map(String)),
			anyOf('Provider/Id', f.providerIds.map(String)),
			...dateRange('CreatedDate_dto', f.createdAfter, f.createdBefore, literalOf),
			...dateRange('UpdatedDateDto', f.updatedAfter, f.updatedBefore, literalOf),
			f.minAmount !== undefined ? `Amount ge ${f.minAmount}` : undefined,
			f.maxAmount !== undefined ? `Amount le ${f.maxAmount}` : undefined,
		],
		own,
	);
}
