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

const EVENTS: EventDefinition[] = [
	{ value: 'WorkOrderCreated', name: 'Work Order Created', description: 'A new work order', object: 'workOrder' },
	{
		value: 'WorkOrderStatusChanged',
		name: 'Work Order Status Changed',
		description: 'The primary or extended status of a work order changed',
		object: 'workOrder',
	},
	{ value: 'WorkOrderNoteAdded', name: 'Work Order Note Added', description: 'A note was added to a work order', object: 'workOrder' },
	{
		value: 'WorkOrderAttachmentAdded',
		name: 'Work Order Attachment Added',
		description: 'A file was attached to a work order note',
		object: 'workOrder',
	},
	{ value: 'WorkOrderCheckIn', name: 'Work Order Checked In', description: 'A technician checked in on site', object: 'workOrder' },
	{ value: 'WorkOrderCheckOut', name: 'Work Order Checked Out', description: 'A technician checked out', object: 'workOrder' },
	{
		value: 'WorkOrderPriorityChanged',
		name: 'Work Order Priority Changed',
		description: 'The priority of a work order changed',
		object: 'workOrder',
	},
	{
		value: 'WorkOrderScheduledDateChanged',
		name: 'Work Order Scheduled Date Changed',
		description: 'The scheduled date of a work order changed',
		object: 'workOrder',
	},
	{
		value: 'WorkOrderProviderChanged',
		name: 'Work Order Provider Changed',
		description: 'A work order was assigned to another provider',
		object: 'workOrder',
	},
	{
		value: 'WorkOrderTechnicianAssigned',
		name: 'Work Order Technician Assigned',
		description: 'A technician was assigned to a work order',
		object: 'workOrder',
	},
	{ value: 'ProposalCreated', name: 'Proposal Created', description: 'A provider submitted a proposal', object: 'proposal' },
	{ value: 'ProposalOpen', name: 'Proposal Open', description: 'A proposal was (re)opened', object: 'proposal' },
	{ value: 'ProposalOnHold', name: 'Proposal On Hold', description: 'A proposal was put on hold', object: 'proposal' },
	{ value: 'ProposalApproved', name: 'Proposal Approved', description: 'A proposal was approved', object: 'proposal' },
	{ value: 'ProposalRejected', name: 'Proposal Rejected', description: 'A proposal was rejected', object: 'proposal' },
	{ value: 'ProposalVoided', name: 'Proposal Voided', description: 'A proposal was voided', object: 'proposal' },
	{
		value: 'CheckListResponseAdded',
		name: 'Checklist Response Added',
		description: 'A technician answered a checklist question',
		object: 'checklistResponse',
	},
	{
		value: 'CheckListResponseUpdated',
		name: 'Checklist Response Updated',
		description: 'A checklist answer was changed',
		object: 'checklistResponse',
	},
];

const BY_VALUE = new Map(EVENTS.map((e) => [e.value, e]));

/** The Events parameter's options, sorted by name (n8n's lint rule). */
export const EVENT_OPTIONS: INodePropertyOptions[] = EVENTS.map(({ name, value, description }) => ({ name, value, description })).sort(
	(a, b) => a.name.localeCompare(b.name),
);

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
