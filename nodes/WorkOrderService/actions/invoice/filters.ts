import type { IExecuteFunctions, INodeProperties } from 'n8n-workflow';

import { serviceDateTime, userInstant } from '../../helpers/dateTime';
import { textField } from '../../helpers/fields';
import { invalid, numberBetween, type Check } from '../../helpers/validation';
import { odataString } from '../../helpers/values';
import { tradeDropdown } from '../../helpers/places';
import {
	allOf,
	anyOf,
	checkOrder,
	dateCheck,
	filterReader,
	idsOf,
	statusList,
	textsOf,
} from '../filters';

import { DEFAULT_DAYS, INVOICE_STATUSES, MAX_DAYS } from './fields';

/**
 * The Filters of Invoice → Get Many, as one OData `$filter` over part C's `Invoice`: `Status`,
 * `Location/Id`, `Location/StoreId`, `Provider/Id`, `WoTrackingNumber`, `Trade`, `PostedDate`,
 * `UpdatedDate`, `InvoiceTotal`. Invoice dates have no offset twin: they are US Eastern local time,
 * so date literals are sent as US Eastern time with its offset (`2026-03-01T00:00:00.000-05:00`).
 * A date given without an offset is read in the workflow's time zone. The service answers only the
 * invoices posted in the last 90 days unless the filter names PostedDate, and reaches back 365 days
 * at most: a Posted After beyond that is refused here, before any request.
 */

const DAY_MS = 86_400_000;

const idList = (displayName: string, name: string, example: string, what: string) =>
	textField({
		displayName,
		name,
		example,
		description: `Only invoices of these ${what}, comma-separated`,
	});

const dateField = (displayName: string, name: string, description: string): INodeProperties => ({
	displayName,
	name,
	type: 'dateTime',
	default: '',
	description: `${description} Without an offset the date is read in the workflow's time zone`,
});

export const filterProperties: INodeProperties[] = [
	{
		displayName: 'Primary Statuses',
		name: 'statuses',
		type: 'multiOptions',
		default: [],
		options: INVOICE_STATUSES.map((s) => ({ name: s, value: s })),
		description:
			'Only invoices in one of these statuses (Status; an invoice has only this one, named as the primary status of work orders and proposals and in the polling trigger)',
	},
	idList('Location IDs', 'locationIds', '501, 504', 'locations (Location/Id)'),
	idList(
		'Store IDs',
		'storeIds',
		'S501',
		"locations, by the client's store number (Location/StoreId)",
	),
	idList('Provider IDs', 'providerIds', '3001', 'providers (Provider/Id)'),
	idList('Work Order IDs', 'workOrderIds', '90000001', 'work orders (WoTrackingNumber)'),
	// the work orders' Trades filter: a dropdown of the trades; several as a comma-separated list
	tradeDropdown({
		name: 'trades',
		description:
			'Only invoices of these trades (Trade); several as a comma-separated list (typed or from an expression)',
	}),
	dateField(
		'Posted After',
		'postedAfter',
		`Only invoices posted at or after this time (PostedDate). The service lists the last ${DEFAULT_DAYS} days unless a Posted filter is given, and reaches back ${MAX_DAYS} days at most: an earlier date is refused before the request.`,
	),
	dateField(
		'Posted Before',
		'postedBefore',
		`Only invoices posted before this time (PostedDate). With it, the service lists up to ${MAX_DAYS} days back instead of ${DEFAULT_DAYS}.`,
	),
	dateField(
		'Updated After',
		'updatedAfter',
		`Only invoices changed at or after this time (UpdatedDate). Without a Posted filter only invoices posted in the last ${DEFAULT_DAYS} days are searched.`,
	),
	dateField(
		'Updated Before',
		'updatedBefore',
		'Only invoices changed before this time (UpdatedDate).',
	),
	{
		displayName: 'Minimum Total',
		name: 'minTotal',
		type: 'number',
		default: 0,
		typeOptions: { minValue: 0, numberPrecision: 2 },
		description: 'Only invoices whose total is at least this (InvoiceTotal)',
	},
	{
		displayName: 'Maximum Total',
		name: 'maxTotal',
		type: 'number',
		default: 0,
		typeOptions: { minValue: 0, numberPrecision: 2 },
		description: 'Only invoices whose total is at most this (InvoiceTotal)',
	},
];

export interface InvoiceFilters {
	statuses: string[];
	locationIds: number[];
	storeIds: string[];
	providerIds: number[];
	workOrderIds: number[];
	trades: string[];
	postedAfter?: number;
	postedBefore?: number;
	updatedAfter?: number;
	updatedBefore?: number;
	minTotal?: number;
	maxTotal?: number;
}

const statusesOf: Check<string[]> = (node, itemIndex, field, value) => {
	const list = statusList(value);
	const key = (s: string) => s.replace(/\s+/g, '').toLowerCase();
	return list.map((status) => {
		const known = INVOICE_STATUSES.find((s) => key(s) === key(status));
		if (!known)
			throw invalid(
				node,
				itemIndex,
				field,
				`must be statuses among ${INVOICE_STATUSES.join(', ')}`,
				status,
			);
		return known;
	});
};

const totalOf: Check<number | undefined> = numberBetween(0, 1e12);

/** Reads and checks the Filters of item i, before any request (`now`: the instant the 365 days count from). */
export function readInvoiceFilters(
	ctx: IExecuteFunctions,
	itemIndex: number,
	now = Date.now(),
): InvoiceFilters {
	const { values, read, refuse } = filterReader(ctx, itemIndex, filterProperties);
	const dateOf = dateCheck(userInstant, ctx.getTimezone());
	const date = (name: string) => read(name, dateOf);
	const f: InvoiceFilters = {
		statuses: read('statuses', statusesOf),
		locationIds: read('locationIds', idsOf),
		storeIds: read('storeIds', textsOf),
		providerIds: read('providerIds', idsOf),
		workOrderIds: read('workOrderIds', idsOf),
		trades: read('trades', textsOf),
		postedAfter: date('postedAfter'),
		postedBefore: date('postedBefore'),
		updatedAfter: date('updatedAfter'),
		updatedBefore: date('updatedBefore'),
		minTotal: values.minTotal === 0 ? undefined : read('minTotal', totalOf),
		maxTotal: values.maxTotal === 0 ? undefined : read('maxTotal', totalOf),
	};
	if (f.postedAfter !== undefined && now - f.postedAfter > MAX_DAYS * DAY_MS)
		throw refuse(
			'postedAfter',
			`is ${Math.floor((now - f.postedAfter) / DAY_MS)} days ago: the service reaches back ${MAX_DAYS} days at most`,
			`The service answers only invoices posted within the last ${MAX_DAYS} days and refuses a PostedDate filter reaching further. Set Posted After to a date within the last ${MAX_DAYS} days. Nothing was sent to the service for this item.`,
		);
	if (f.minTotal !== undefined && f.maxTotal !== undefined && f.maxTotal < f.minTotal)
		throw refuse('maxTotal', 'must not be below Minimum Total');
	checkOrder(refuse, f.postedAfter, f.postedBefore, 'postedBefore', 'Posted After');
	checkOrder(refuse, f.updatedAfter, f.updatedBefore, 'updatedBefore', 'Updated After');
	return f;
}

/** The `$filter` for the Filters (and an own OData clause, ANDed in parentheses); undefined for none. */
export function invoiceFilter(f: InvoiceFilters, own?: string): string | undefined {
	const at = serviceDateTime;
	return allOf(
		[
			anyOf('Status', f.statuses.map(odataString)),
			anyOf('Location/Id', f.locationIds.map(String)),
			anyOf('Location/StoreId', f.storeIds.map(odataString)),
			anyOf('Provider/Id', f.providerIds.map(String)),
			anyOf('WoTrackingNumber', f.workOrderIds.map(String)),
			anyOf('Trade', f.trades.map(odataString)),
			f.postedAfter !== undefined ? `PostedDate ge ${at(f.postedAfter)}` : undefined,
			f.postedBefore !== undefined ? `PostedDate lt ${at(f.postedBefore)}` : undefined,
			f.updatedAfter !== undefined ? `UpdatedDate ge ${at(f.updatedAfter)}` : undefined,
			f.updatedBefore !== undefined ? `UpdatedDate lt ${at(f.updatedBefore)}` : undefined,
			f.minTotal !== undefined ? `InvoiceTotal ge ${f.minTotal}` : undefined,
			f.maxTotal !== undefined ? `InvoiceTotal le ${f.maxTotal}` : undefined,
		],
		own,
	);
}
