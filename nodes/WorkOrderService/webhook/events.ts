import type { INodePropertyOptions } from 'n8n-workflow';

/**
 * The service's event types this trigger offers, grouped by the object they concern: one
 * subscription per object is registered with the events chosen for it. The option values are
 * the service's own event type names (what `EventType` says in a delivery).
 */

export type EventObject = 'workOrder' | 'proposal' | 'checklistResponse';

interface EventDefinition {
	value: string;
	name: string;
	description: string;
	object: EventObject;
}

/** The events of one object: `[value, name, description]` each. */
function eventsOf(object: EventObject, rows: Array<[string, string, string]>): EventDefinition[] {
	return rows.map(([value, name, description]) => ({ value, name, description, object }));
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
		],
		['WorkOrderCheckIn', 'Work Order Checked In', 'A technician checked in on site'],
		['WorkOrderCheckOut', 'Work Order Checked Out', 'A technician checked out'],
		[
			'WorkOrderPriorityChanged',
			'Work Order Priority Changed',
			'The priority of a work order changed',
		],
		[
			'WorkOrderScheduledDateChanged',
			'Work Order Scheduled Date Changed',
			'The scheduled date of a work order changed',
		],
		[
			'WorkOrderProviderChanged',
			'Work Order Provider Changed',
			'A work order was assigned to another provider',
		],
		[
			'WorkOrderTechnicianAssigned',
			'Work Order Technician Assigned',
			'A technician was assigned to a work order',
		],
	]),
	...eventsOf('proposal', [
		['ProposalCreated', 'Proposal Created', 'A provider submitted a proposal'],
		['ProposalOpen', 'Proposal Open', 'A proposal was (re)opened'],
		['ProposalOnHold', 'Proposal On Hold', 'A proposal was put on hold'],
		['ProposalApproved', 'Proposal Approved', 'A proposal was approved'],
		['ProposalRejected', 'Proposal Rejected', 'A proposal was rejected'],
		['ProposalVoided', 'Proposal Voided', 'A proposal was voided'],
	]),
	...eventsOf('checklistResponse', [
		[
			'CheckListResponseAdded',
			'Checklist Response Added',
			'A technician answered a checklist question',
		],
		['CheckListResponseUpdated', 'Checklist Response Updated', 'A checklist answer was changed'],
	]),
];

const BY_VALUE = new Map(EVENTS.map((e) => [e.value, e]));

/** The Events parameter's options, sorted by name (n8n's lint rule). */
export const EVENT_OPTIONS: INodePropertyOptions[] = EVENTS.map(({ name, value, description }) => ({
	name,
	value,
	description,
})).sort((a, b) => a.name.localeCompare(b.name));

export const OBJECTS: EventObject[] = ['workOrder', 'proposal', 'checklistResponse'];

/** How a subscription for each object is named on the service. */
export const OBJECT_LABELS: Record<EventObject, string> = {
	workOrder: 'work orders',
	proposal: 'proposals',
	checklistResponse: 'checklist responses',
};

export function isKnownEvent(value: unknown): value is string {
	return typeof value === 'string' && BY_VALUE.has(value);
}

export function objectOf(event: string): EventObject | undefined {
	return BY_VALUE.get(event)?.object;
}

export function eventName(event: string): string {
	return BY_VALUE.get(event)?.name ?? event;
}
