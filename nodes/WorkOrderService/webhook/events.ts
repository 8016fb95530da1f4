import type { INodePropertyOptions } from 'n8n-workflow';

/**
 * The service's event types this trigger offers (../shared/spec/webhooks.md: every family the
 * package subscribes to), grouped by the object they concern: one subscription per object is
 * registered with the events chosen for it. The option values are the service's own event type
 * names (what `EventType` says in a delivery); the names start with their family (Work Order,
 * Proposal, Invoice, Checklist, Location, Asset), so that the list, sorted by name as n8n's own
 * triggers with many events sort it (Stripe, GitHub), shows each family together. Events the
 * service marks "preview" (delivery not assured) say so in their name and description.
 */

export type EventObject =
	| 'workOrder'
	| 'technician'
	| 'proposal'
	| 'invoice'
	| 'checklistResponse'
	| 'checklist'
	| 'location'
	| 'asset';

interface EventDefinition {
	value: string;
	name: string;
	description: string;
	object: EventObject;
	preview: boolean;
}

const PREVIEW_NOTE = ' (preview event of the service: delivery not assured)';

/** The events of one object: `[value, name, description, preview?]` each. */
function eventsOf(
	object: EventObject,
	rows: Array<[string, string, string, boolean?]>,
): EventDefinition[] {
	return rows.map(([value, name, description, preview = false]) => ({
		value,
		name: preview ? `${name} (Preview)` : name,
		description: preview ? `${description}${PREVIEW_NOTE}` : description,
		object,
		preview,
	}));
}

const EVENTS: EventDefinition[] = [
	...eventsOf('workOrder', [
		['WorkOrderCreated', 'Work Order Created', 'A new work order'],
		[
			'WorkOrderStatusChanged',
			'Work Order Status Changed',
			'The primary or extended status of a work order changed',
		],
		['WorkOrderNoteAdded', 'Work Order Note Added', 'A note was added to a work order'],
		[
			'WorkOrderAttachmentAdded',
			'Work Order Attachment Added',
			'A file was attached to a work order note',
			true,
		],
		['WorkOrderCheckIn', 'Work Order Checked In', 'A technician checked in on site'],
		['WorkOrderCheckOut', 'Work Order Checked Out', 'A technician checked out'],
		[
			'WorkOrderPriorityChanged',
			'Work Order Priority Changed',
			'The priority of a work order changed',
			true,
		],
		[
			'WorkOrderScheduledDateChanged',
			'Work Order Scheduled Date Changed',
			'The scheduled date of a work order changed',
			true,
		],
		[
			'WorkOrderProviderChanged',
			'Work Order Provider Changed',
			'A work order was assigned to another provider',
		],
		[
			'WorkOrderTradeChanged',
			'Work Order Trade Changed',
			'The trade of a work order changed',
			true,
		],
		['WorkOrderNteChanged', 'Work Order NTE Changed', 'The not-to-exceed amount changed', true],
		[
			'WorkOrderCategoryChanged',
			'Work Order Category Changed',
			'The category of a work order changed',
			true,
		],
		[
			'WorkOrderDescriptionChanged',
			'Work Order Description Changed',
			'The description of a work order changed',
		],
		['WorkOrderLinksAdded', 'Work Order Links Added', 'A work order was linked to others'],
		['WorkOrderLinksDeleted', 'Work Order Links Deleted', 'A link between work orders was removed'],
		['WorkOrderLabelAdded', 'Work Order Label Added', 'A label was put on a work order'],
		['WorkOrderLabelDeleted', 'Work Order Label Deleted', 'A label was taken off a work order'],
		[
			'WorkOrderResolutionCreated',
			'Work Order Resolution Created',
			'A resolution was recorded for a work order',
		],
		[
			'WorkOrderResolutionUpdated',
			'Work Order Resolution Updated',
			'The resolution of a work order changed',
		],
	]),
	// the service takes no trade or category rule for these: a subscription of their own
	...eventsOf('technician', [
		[
			'WorkOrderTechnicianAssigned',
			'Work Order Technician Assigned',
			'A technician was assigned to a work order (the Trades and Categories rules do not apply)',
		],
		[
			'WorkOrderTechnicianUnassigned',
			'Work Order Technician Unassigned',
			'A technician was taken off a work order (the Trades and Categories rules do not apply)',
		],
		[
			'WorkOrderTechnicianAccepted',
			'Work Order Technician Accepted',
			'A technician accepted a work order (the Trades and Categories rules do not apply)',
		],
	]),
	...eventsOf('proposal', [
		['ProposalCreated', 'Proposal Created', 'A provider submitted a proposal'],
		['ProposalOpen', 'Proposal Open', 'A proposal was (re)opened'],
		['ProposalOnHold', 'Proposal On Hold', 'A proposal was put on hold'],
		[
			'ProposalReviewed',
			'Proposal Reviewed',
			'A proposal was reviewed (multi-level approval under way)',
		],
		['ProposalApproved', 'Proposal Approved', 'A proposal was approved'],
		['ProposalRejected', 'Proposal Rejected', 'A proposal was rejected'],
		['ProposalVoided', 'Proposal Voided', 'A proposal was voided'],
		['ProposalScheduled', 'Proposal Scheduled', 'A proposal was scheduled'],
		['ProposalUserAssigned', 'Proposal User Assigned', 'A user was assigned to a proposal'],
		[
			'ProposalWorkOrderAssigned',
			'Proposal Work Order Assigned',
			'A proposal was linked to a work order',
		],
		['ProposalAttachmentAdded', 'Proposal Attachment Added', 'A file was attached to a proposal'],
	]),
	...eventsOf('invoice', [
		['InvoiceCreated', 'Invoice Created', 'A provider submitted an invoice'],
		['InvoiceOpen', 'Invoice Open', 'An invoice was (re)opened'],
		['InvoiceApproved', 'Invoice Approved', 'An invoice was approved'],
		['InvoiceOnHold', 'Invoice On Hold', 'An invoice was put on hold'],
		[
			'InvoiceReviewed',
			'Invoice Reviewed',
			'An invoice was reviewed (multi-level approval under way)',
		],
		['InvoiceRejected', 'Invoice Rejected', 'An invoice was rejected'],
		[
			'InvoiceApprovalCodeChanged',
			'Invoice Approval Code Changed',
			'The approval code of an invoice changed',
		],
		['InvoiceVoided', 'Invoice Voided', 'An invoice was voided'],
		['InvoicePaid', 'Invoice Paid', 'A payment settled an invoice'],
		[
			'InvoiceDisputed',
			'Invoice Disputed',
			'An invoice is disputed (its sales tax was not verified)',
		],
		['InvoiceStarAdded', 'Invoice Star Added', 'An invoice was starred'],
		['InvoiceStarRemoved', 'Invoice Star Removed', 'An invoice was unstarred'],
	]),
	...eventsOf('checklistResponse', [
		[
			'CheckListResponseAdded',
			'Checklist Response Added',
			'A technician answered a checklist question',
		],
		['CheckListResponseUpdated', 'Checklist Response Updated', 'A checklist answer was changed'],
	]),
	...eventsOf('checklist', [
		['CheckListCreated', 'Checklist Created', 'A checklist was created'],
		['CheckListUpdated', 'Checklist Updated', 'A checklist was changed'],
		['CheckListDeleted', 'Checklist Deleted', 'A checklist was deleted'],
	]),
	...eventsOf('location', [
		['LocationCreated', 'Location Created', 'A new location (store, site)'],
		['LocationUpdated', 'Location Updated', 'A location changed'],
		['LocationDeleted', 'Location Deleted', 'A location was deleted'],
		['LocationNotesChanged', 'Location Notes Changed', 'The notes of a location changed'],
		[
			'LocationNoteHeaderCreated',
			'Location Note Header Created',
			'A note header (a titled note) was added to a location',
		],
		[
			'LocationNoteHeaderUpdated',
			'Location Note Header Updated',
			'A note header of a location changed',
		],
		[
			'LocationNoteHeaderDeleted',
			'Location Note Header Deleted',
			'A note header of a location was deleted',
		],
	]),
	...eventsOf('asset', [
		['AssetCreated', 'Asset Created', 'A new asset (equipment) at a location'],
		['AssetUpdated', 'Asset Updated', 'An asset changed'],
	]),
];

const BY_VALUE = new Map(EVENTS.map((e) => [e.value, e]));

/** Names some of the service's public lists give an event: accepted when receiving. */
const ALIASES: Record<string, string> = {
	WorOrderAttachmentAdded: 'WorkOrderAttachmentAdded',
};

/** The Events parameter's options, sorted by name (n8n's lint rule): each family together. */
export const EVENT_OPTIONS: INodePropertyOptions[] = EVENTS.map(({ name, value, description }) => ({
	name,
	value,
	description,
})).sort((a, b) => a.name.localeCompare(b.name));

/** The objects in the order their subscriptions are registered. */
export const OBJECTS: EventObject[] = [
	'workOrder',
	'technician',
	'proposal',
	'invoice',
	'checklistResponse',
	'checklist',
	'location',
	'asset',
];

/** How a subscription for each object is named on the service. */
export const OBJECT_LABELS: Record<EventObject, string> = {
	workOrder: 'work orders',
	technician: 'work order technicians',
	proposal: 'proposals',
	invoice: 'invoices',
	checklistResponse: 'checklist responses',
	checklist: 'checklists',
	location: 'locations',
	asset: 'assets',
};

/**
 * The rules that apply to each object's subscription (the fields its events carry): the
 * technician events take no trade or category rule (the service), the work-order statuses apply
 * to work-order events only; invoices and assets carry a Trade but no Category; checklists and
 * locations neither.
 */
export const OBJECT_RULES: Record<
	EventObject,
	{ trades: boolean; categories: boolean; statuses: boolean }
> = {
	workOrder: { trades: true, categories: true, statuses: true },
	technician: { trades: false, categories: false, statuses: true },
	proposal: { trades: true, categories: true, statuses: false },
	invoice: { trades: true, categories: false, statuses: false },
	checklistResponse: { trades: true, categories: true, statuses: false },
	checklist: { trades: false, categories: false, statuses: false },
	location: { trades: false, categories: false, statuses: false },
	asset: { trades: true, categories: false, statuses: false },
};

export function isKnownEvent(value: unknown): value is string {
	return typeof value === 'string' && BY_VALUE.has(value);
}

/** The event type a delivery names, with the service's other spellings read as the offered one. */
export function canonicalEvent(eventType: string): string {
	return ALIASES[eventType] ?? eventType;
}

export function objectOf(event: string): EventObject | undefined {
	return BY_VALUE.get(canonicalEvent(event))?.object;
}

export function eventName(event: string): string {
	return BY_VALUE.get(canonicalEvent(event))?.name ?? event;
}

export function isPreviewEvent(event: string): boolean {
	return BY_VALUE.get(canonicalEvent(event))?.preview === true;
}

/** Every event type offered, with its object (the emulator's and the tests' view). */
export const EVENT_TYPES: ReadonlyArray<{ value: string; object: EventObject; preview: boolean }> =
	EVENTS.map(({ value, object, preview }) => ({ value, object, preview }));
