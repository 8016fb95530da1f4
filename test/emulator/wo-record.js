// @ts-check
'use strict';

/**
 * A work order as the emulator stores it: the reference's `WorkOrder` object itself (every
 * property, nested `Location`, `Subscriber`, `Provider`, `Currency`, `Status { Primary, Extended,
 * CanCreateInvoice }`, `Notes { Last, Count { Total, Own } }`, `Attachments { Count }`), so that
 * answers and OData paths (`Location/Name`, `Status/Primary`) read it as it is. Two shortcuts the
 * emulator's own code uses are non-enumerable getters (never sent): `SubscriberId`, `ProviderId`.
 *
 * Dates: each `X` is the service's local time without offset (US Eastern by default), its twin
 * `X_DTO` the same instant with its offset, written in the location's time zone (the reference:
 * "the twin may be in the location's zone"). `EstimatedCompletionDate` has no twin.
 */

const { make, usd, locationObject, subscriberObject, providerObject } = require('./objects');
const { ServiceTime } = require('./service-time');

/** Dates of a work order with an `_DTO` twin. */
const TWINNED_DATES = [
	'CallDate',
	'CreatedDate',
	'UpdatedDate',
	'ScheduledDate',
	'CompletedDate',
	'ExpirationDate',
	'ReassignDate',
	'OriginalEta',
];
/** Every date of a work order (the twinned ones and EstimatedCompletionDate). */
const WORK_ORDER_DATES = [...TWINNED_DATES, 'EstimatedCompletionDate'];

/** @type {Map<string, ServiceTime>} */
const zones = new Map();

/** The ServiceTime of an IANA zone (cached). @param {string} zone */
function timeIn(zone) {
	let t = zones.get(zone);
	if (!t) {
		t = new ServiceTime(zone);
		zones.set(zone, t);
	}
	return t;
}

/**
 * How the emulator writes dates: `service` is its own zone (plain dates); `twin(locationId)` the
 * zone twins of that location's records are written in.
 * @typedef {{ service: ServiceTime, twin: (locationId: number) => ServiceTime, precision: (ms: number) => number }} Clock
 */

/**
 * The public objects of the fixtures' locations, subscribers and providers (one object per Id,
 * shared by every work order that refers to it).
 * @param {any} state
 */
function publicObjects(state) {
	if (!state.objects) {
		state.objects = { locations: {}, subscribers: {}, providers: {} };
		for (const loc of Object.values(state.locations)) {
			state.objects.locations[loc.Id] = locationObject({
				...loc,
				SubscriberName: state.subscribers[loc.SubscriberId]?.Name,
			});
		}
		for (const s of Object.values(state.subscribers))
			state.objects.subscribers[s.Id] = subscriberObject(s);
		for (const p of Object.values(state.providers))
			state.objects.providers[p.Id] = providerObject(p);
	}
	return state.objects;
}

/**
 * Writes date `name` of a work order: plain in the service's zone, the twin in the location's.
 * @param {Clock} clock @param {any} wo @param {string} name @param {number | null} ms
 */
function writeDate(clock, wo, name, ms) {
	const at = ms === null ? null : clock.precision(ms);
	wo[name] = at === null ? null : clock.service.local(at);
	if (TWINNED_DATES.includes(name))
		wo[`${name}_DTO`] = at === null ? null : clock.twin(wo.LocationId).dto(at);
}

/**
 * The prototype of stored work orders: two shortcuts the emulator's own code (and tests) read,
 * never sent (JSON takes own properties only).
 */
class StoredWorkOrder {
	/** @returns {number | null} */
	get SubscriberId() {
		return /** @type {any} */ (this).Subscriber ? /** @type {any} */ (this).Subscriber.Id : null;
	}

	/** @returns {number | null} */
	get ProviderId() {
		return /** @type {any} */ (this).Provider ? /** @type {any} */ (this).Provider.Id : null;
	}
}

/** @param {any} wo a plain WorkOrder object @returns {any} the same with the shortcuts */
function addShortcuts(wo) {
	return Object.setPrototypeOf(wo, StoredWorkOrder.prototype);
}

/**
 * A new work order record.
 * @param {any} state @param {Clock} clock
 * @param {{ id: number, locationId: number, subscriberId: number, providerId: number, status: { Primary: string, Extended: string | null },
 *   trade: string, category: string, priority?: string, caller?: string, description: string, nte: number, invoiced?: boolean,
 *   recallOf?: number | null, number?: string, purchaseNumber?: string, dates: Record<string, number | null> }} spec
 */
function workOrderRecord(state, clock, spec) {
	const objects = publicObjects(state);
	const tradeIds = { HVAC: 11, PLUMBING: 12, ELECTRICAL: 13, REFRIGERATION: 14, DOORS: 15 };
	const categoryIds = { 'PREVENTIVE MAINTENANCE': 21, REPAIR: 22, MAINTENANCE: 23 };
	const wo = make(
		'WorkOrder',
		{
			Id: spec.id,
			Number: spec.number ?? String(spec.id),
			PurchaseNumber: spec.purchaseNumber ?? `PO-${spec.id}`,
			Subscriber: objects.subscribers[spec.subscriberId],
			Provider: objects.providers[spec.providerId],
			Location: objects.locations[spec.locationId],
			LocationId: spec.locationId,
			Status: {
				Primary: spec.status.Primary,
				Extended: spec.status.Extended,
				CanCreateInvoice: spec.status.Primary === 'COMPLETED' && !spec.invoiced,
			},
			Caller: spec.caller ?? 'Store Manager',
			CreatedBy: spec.caller ?? 'Store Manager',
			Priority: spec.priority ?? 'P3 - Normal',
			Trade: spec.trade,
			TradeId: /** @type {Record<string, number>} */ (tradeIds)[spec.trade] ?? null,
			Description: spec.description,
			Category: spec.category,
			CategoryId: /** @type {Record<string, number>} */ (categoryIds)[spec.category] ?? null,
			Nte: spec.nte,
			Tax: 0,
			Tax2: 0,
			Price: 0,
			Currency: usd(),
			ProblemCode: null,
			Resolution: null,
			Assets: [],
			AssetCount: 0,
			Attachments: { Count: { Total: 0, Own: 0 } },
			Notes: { Last: null, Count: { Total: 0, Own: 0 } },
			LinkedWorkOrders: [],
			LinkedInWorkOrders: [],
			IsCheckInDenied: false,
			RecallWorkOrder: spec.recallOf ?? null,
			IsInvoiced: !!spec.invoiced,
			IsExpired: false,
			IsEnabledForMobile: true,
			HasWorkActivity: false,
			Source: 'API',
			AutoComplete: false,
			AutoInvoice: false,
			Labels: [],
		},
		StoredWorkOrder,
	);
	for (const name of WORK_ORDER_DATES) {
		const ms = spec.dates[name];
		if (ms !== undefined && ms !== null) writeDate(clock, wo, name, ms); // the others are null already
	}
	return wo;
}

/**
 * The stored note records of a work order as its `Notes` summary: the newest note (a
 * `NoteSummary`) and the counts (`Own`: the notes people wrote, not the system).
 * @param {any} wo @param {any[]} notes the work order's notes (public Note objects with `_at`)
 */
function refreshNotesSummary(wo, notes) {
	const newest = notes.reduce(
		(/** @type {any} */ a, /** @type {any} */ n) =>
			!a || n._at > a._at || (n._at === a._at && n.Id > a.Id) ? n : a,
		null,
	);
	wo.Notes = {
		Last: newest
			? make('NoteSummary', {
					Id: newest.Id,
					Number: newest.Number,
					NoteData: newest.NoteData,
					DateCreated: newest.DateCreated,
					ActionRequired: newest.ActionRequired,
					MailedTo: newest.MailedTo,
					CreatedBy: newest.CreatedBy,
				})
			: null,
		Count: {
			Total: notes.length,
			Own: notes.filter((/** @type {any} */ n) => n.NoteType === 'UsersNote').length,
		},
	};
}

/** @param {any} wo @param {number} total */
function refreshAttachmentsSummary(wo, total) {
	wo.Attachments = { Count: { Total: total, Own: total } };
}

module.exports = {
	TWINNED_DATES,
	WORK_ORDER_DATES,
	timeIn,
	publicObjects,
	writeDate,
	workOrderRecord,
	addShortcuts,
	refreshNotesSummary,
	refreshAttachmentsSummary,
};
