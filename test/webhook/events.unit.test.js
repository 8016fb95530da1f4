'use strict';
/**
 * The webhook trigger's events (webhook/events, compiled, from dist/): every family of
 * webhooks.md (22 work-order events, 11 proposal, 12 invoice, 5 checklist, 7 location, 2 asset),
 * each with its object; the option list sorted by name keeps each family together; the service's
 * preview events are marked; the rules each object's subscription takes.
 */
const { ROOT } = require('../support');

const events = require(`${ROOT}/dist/nodes/WorkOrderService/webhook/events.js`);

const FAMILIES = [
	['Work Order', 22],
	['Proposal', 11],
	['Invoice', 12],
	['Checklist', 5],
	['Location', 7],
	['Asset', 2],
];
const PREVIEW = [
	'WorkOrderAttachmentAdded',
	'WorkOrderPriorityChanged',
	'WorkOrderScheduledDateChanged',
	'WorkOrderTradeChanged',
	'WorkOrderNteChanged',
	'WorkOrderCategoryChanged',
];

describe('events', () => {
	test('the 59 events of webhooks.md, each with its object; the option list is sorted by name and each family is together', () => {
		const values = events.EVENT_OPTIONS.map((o) => o.value);
		expect(values).toHaveLength(59);
		expect(new Set(values).size).toBe(59);
		const count = (...objects) => values.filter((v) => objects.includes(events.objectOf(v))).length;
		expect(count('workOrder', 'technician')).toBe(22);
		expect(count('technician')).toBe(3);
		expect(count('proposal')).toBe(11);
		expect(count('invoice')).toBe(12);
		expect(count('checklistResponse')).toBe(2);
		expect(count('checklist')).toBe(3);
		expect(count('location')).toBe(7);
		expect(count('asset')).toBe(2);
		const names = events.EVENT_OPTIONS.map((o) => o.name);
		expect(names).toEqual([...names].sort((a, b) => a.localeCompare(b)));
		// each family is one run of the sorted list, its names prefixed by the family
		const familyOf = (name) => FAMILIES.find(([f]) => name.startsWith(`${f} `))?.[0];
		expect(names.every((n) => familyOf(n) !== undefined)).toBe(true);
		const runs = names.map(familyOf).filter((f, i, all) => i === 0 || all[i - 1] !== f);
		expect(runs.sort()).toEqual(FAMILIES.map(([f]) => f).sort());
		for (const [family, n] of FAMILIES)
			expect(names.filter((name) => familyOf(name) === family)).toHaveLength(n);
		// the 18 of the first version keep their values (saved workflows)
		for (const old of [
			'WorkOrderCreated',
			'WorkOrderStatusChanged',
			'WorkOrderNoteAdded',
			'WorkOrderAttachmentAdded',
			'WorkOrderCheckIn',
			'WorkOrderCheckOut',
			'WorkOrderPriorityChanged',
			'WorkOrderScheduledDateChanged',
			'WorkOrderProviderChanged',
			'WorkOrderTechnicianAssigned',
			'ProposalCreated',
			'ProposalOpen',
			'ProposalOnHold',
			'ProposalApproved',
			'ProposalRejected',
			'ProposalVoided',
			'CheckListResponseAdded',
			'CheckListResponseUpdated',
		])
			expect(values).toContain(old);
	});

	test('the preview events (and only they) say so: "(Preview)" in the name, "delivery not assured" in the description', () => {
		const preview = events.EVENT_OPTIONS.filter((o) => o.name.endsWith('(Preview)'));
		expect(preview.map((o) => o.value).sort()).toEqual([...PREVIEW].sort());
		expect(preview.every((o) => /delivery not assured/.test(o.description))).toBe(true);
		const others = events.EVENT_OPTIONS.filter((o) => !PREVIEW.includes(o.value));
		expect(others.some((o) => /preview|not assured/i.test(`${o.name} ${o.description}`))).toBe(
			false,
		);
		expect(PREVIEW.every((v) => events.isPreviewEvent(v))).toBe(true);
	});

	test('"WorOrderAttachmentAdded", as some lists spell it, is read as WorkOrderAttachmentAdded', () => {
		expect(events.canonicalEvent('WorOrderAttachmentAdded')).toBe('WorkOrderAttachmentAdded');
		expect(events.objectOf('WorOrderAttachmentAdded')).toBe('workOrder');
		expect(events.isKnownEvent('WorOrderAttachmentAdded')).toBe(false); // not offered twice
	});

	test('technician events take no trade or category rule; statuses only for work-order events', () => {
		expect(events.OBJECT_RULES.technician).toEqual({
			trades: false,
			categories: false,
			statuses: true,
		});
		expect(events.OBJECT_RULES.workOrder).toEqual({
			trades: true,
			categories: true,
			statuses: true,
		});
		for (const object of [
			'proposal',
			'invoice',
			'checklistResponse',
			'checklist',
			'location',
			'asset',
		])
			expect(events.OBJECT_RULES[object].statuses).toBe(false);
		expect(events.OBJECTS).toHaveLength(8);
	});
});
