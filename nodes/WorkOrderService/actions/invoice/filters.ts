import type { IExecuteFunctions, INodeProperties } from 'n8n-workflow';

import { serviceDateTime, userInstant } from '../../helpers/dateTime';
import { numberBetween, type Check } from '../../helpers/validation';
import { odataString } from '../../helpers/values';
import { tradeDropdown } from '../../helpers/places';
import { allOf, anyOf, dateRange, filterFields, filterReader, placeClauses } from '../filters';

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

const fields = filterFields('invoice');

const dateField = (displayName: string, name: string, description: string): INodeProperties => ({
	displayName,
	name,
	type: 'dateTime',
	default: '',
	description: `${description} Without an offset the date is read in the workflow's time zone`,
});

export const filterProperties: INodeProperties[] = [
	fields.statuses(
		INVOICE_STATUSES.map((s) => ({ name: s, value: s })),
		'Only invoices in one of these statuses (Status; an invoice has only this one, named as the primary status of work orders and proposals and in the polling trigger)',
	),
	...fields.places,
	fields.idList('Provider IDs', 'providerIds', '3001', 'providers (Provider/Id)'),
	fields.idList('Work Order IDs', 'workOrderIds', '90000001', 'work orders (WoTrackingNumber)'),
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
	...fields.range('Total', 'InvoiceTotal'),
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

const totalOf: Check<number | undefined> = numberBetween(0, 1e12);

/** Reads and checks the Filters of item i, before any request (`now`: the instant the 365 days count from). */
export function readInvoiceFilters(
	ctx: IExecuteFunctions,
	itemIndex: number,
	now = Date.now(),
): InvoiceFilters {
	const { values, read, refuse, ids, texts, date, statuses, order } = filterReader(
		ctx,
		itemIndex,
		filterProperties,
		userInstant,
	);
	const key = (s: string) => s.replace(/\s+/g, '').toLowerCase();
	const f: InvoiceFilters = {
		statuses: statuses(
			'statuses',
			(status) => INVOICE_STATUSES.find((s) => key(s) === key(status)),
			`must be statuses among ${INVOICE_STATUSES.join(', ')}`,
		),
		locationIds: ids('locationIds'),
		storeIds: texts('storeIds'),
		providerIds: ids('providerIds'),
		workOrderIds: ids('workOrderIds'),
		trades: texts('trades'),
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
	order(f.postedAfter, f.postedBefore, 'postedBefore', 'Posted After');
	order(f.updatedAfter, f.updatedBefore, 'updatedBefore', 'Updated After');
	return f;
}

/** The `$filter` for the Filters (and an own OData clause, ANDed in parentheses); undefined for none. */
export function invoiceFilter(f: InvoiceFilters, own?: string): string | undefined {
	return allOf(
		[
			...placeClauses('Status', f),
			anyOf('Provider/Id', f.providerIds.map(String)),
			anyOf('WoTrackingNumber', f.workOrderIds.map(String)),
			anyOf('Trade', f.trades.map(odataString)),
			...dateRange('PostedDate', f.postedAfter, f.postedBefore, serviceDateTime),
			...dateRange('UpdatedDate', f.updatedAfter, f.updatedBefore, serviceDateTime),
			f.minTotal !== undefined ? `InvoiceTotal ge ${f.minTotal}` : undefined,
			f.maxTotal !== undefined ? `InvoiceTotal le ${f.maxTotal}` : undefined,
		],
		own,
	);
}
