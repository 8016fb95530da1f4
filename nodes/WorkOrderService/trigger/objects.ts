import { filterLiteral } from './time';

/**
 * What the polling trigger watches: work orders or invoices. Both are OData lists of the service
 * (`/odata/workorders`, `/odata/invoices`, part C of the reference) read the same way (docs/trigger.md);
 * they differ in their dates and in the invoice list's reach:
 *
 * - Work orders date with twins (`UpdatedDate_DTO`, `CallDate_DTO`: the instant with its offset);
 *   a work order is created at its CallDate; its Status is `{ Primary, Extended }`.
 * - Invoices have plain dates only (`UpdatedDate`, `PostedDate`: US Eastern local time, no twin), so
 *   an invoice dated in the hour the November fall-back repeats reads two ways (`plainDates`, see
 *   time.ts `wallSafeFrom`); an invoice is created when it is posted (`PostedDate`); its Status is
 *   text (compared without case and spaces, as part C says). The list answers only invoices posted
 *   in the last 90 days unless `$filter` names `PostedDate`, and reaches back at most 365 days: every
 *   read names `PostedDate ge <365 days back>` (`reach`), so that an invoice posted long ago but
 *   updated now is still seen.
 */

export type ObjectKind = 'workOrder' | 'invoice';
export type DateField = 'CallDate' | 'UpdatedDate' | 'PostedDate' | 'CreatedDate';

export interface WatchedObject {
	kind: ObjectKind;
	path: string;
	/** 'work order' / 'invoice', for messages. */
	label: string;
	/** The date a record is created at (the Created event's cursor). */
	createdField: DateField;
	/** The dates that say a record existed before T0, first found wins. */
	existedFields: DateField[];
	/** The fields the status read selects. */
	baselineSelect: string;
	/** Dates without offset twins: read as US Eastern wall time, ambiguous in the fall-back hour. */
	plainDates: boolean;
	/** Statuses are text compared without case and spaces (invoices), not `{ Primary, Extended }`. */
	textStatus: boolean;
	/** The clause(s) every read carries because of the list's reach, for the service's clock `nowMs`. */
	reach: (nowMs: number) => string[];
	/** The field a Location IDs filter compares. */
	locationField: string;
	/** The field a status filter compares. */
	statusField: string;
	/** Whether the Categories filter applies. */
	categories: boolean;
}

const DAY_MS = 86_400_000;
/** How far back the invoice list reaches when the filter names PostedDate (part C: 365 days at most). */
export const INVOICE_REACH_DAYS = 365;
/**
 * Kept from the limit: a day, for a service clock that moved ahead of n8n's since the last poll
 * measured it (and a service that counts days by date).
 */
const REACH_MARGIN_MS = DAY_MS;

/** The invoice list's reach: invoices posted within the last 365 days (less a day). */
export function invoiceReachClause(nowMs: number): string {
	return `PostedDate ge ${filterLiteral(nowMs - INVOICE_REACH_DAYS * DAY_MS + REACH_MARGIN_MS)}`;
}

export const WORK_ORDERS: WatchedObject = {
	kind: 'workOrder',
	path: '/odata/workorders',
	label: 'work order',
	createdField: 'CallDate',
	existedFields: ['CreatedDate', 'CallDate'],
	baselineSelect: 'Id,Status,UpdatedDate,UpdatedDate_DTO',
	plainDates: false,
	textStatus: false,
	reach: () => [],
	locationField: 'LocationId',
	statusField: 'Status/Primary',
	categories: true,
};

export const INVOICES: WatchedObject = {
	kind: 'invoice',
	path: '/odata/invoices',
	label: 'invoice',
	createdField: 'PostedDate',
	existedFields: ['PostedDate'],
	baselineSelect: 'Id,Status,UpdatedDate,PostedDate',
	plainDates: true,
	textStatus: true,
	reach: (nowMs) => [invoiceReachClause(nowMs)],
	locationField: 'Location/Id',
	statusField: 'Status',
	categories: false,
};

/** A status text as part C compares it: without case and spaces ("On Hold" = "onhold"). */
export function statusKey(text: string): string {
	return text.toLowerCase().replace(/\s+/g, '');
}
