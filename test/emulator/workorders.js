// @ts-check
'use strict';

/**
 * Work orders created and changed by tests while a trigger polls (README.md, "Work orders that
 * change"). Used by the Emulator methods createWorkOrder(s) / updateWorkOrder(s) /
 * setWorkOrderStatus, the control endpoints /__emulator/workorders, and the API handlers that
 * change a work order (check-in / check-out).
 *
 * Fields are the reference's (`WorkOrder`, matched without regard to case), with a few shortcuts:
 * `LocationId` (or `Location: { Id }`) brings the location's object, `SubscriberId` /
 * `Subscriber: { Id }` and `ProviderId` / `Provider: { Id }` theirs; a date is given as `X` or
 * as its twin `X_DTO` (the older spelling `XDto` is read as the twin too); `Status` as
 * `{ Primary, Extended, CanCreateInvoice }` or a string (the primary status).
 */

const { WORK_ORDER_FIELDS } = require('./fixtures');
const { workOrderChanged } = require('./webhooks');
const {
	WORK_ORDER_DATES,
	TWINNED_DATES,
	workOrderRecord,
	writeDate,
	publicObjects,
} = require('./wo-record');
const { propertySchema } = require('../contract/reference');
const { check } = require('../contract/schema');
const { usd } = require('./objects');

const HOUR = 3600 * 1000;
/** The dates the emulator's own code and older tests name (kept for them). */
const DATE_FIELDS = WORK_ORDER_DATES;

/** An error the control endpoints answer with `status` (400 unless set). */
class WorkOrderError extends Error {
	/** @param {string} message @param {number} [status] */
	constructor(message, status = 400) {
		super(message);
		this.status = status;
	}
}

/** Fields set through their own rules, not as plain values. */
const DERIVED = new Set([
	'Id',
	'Status',
	'Location',
	'LocationId',
	'Subscriber',
	'Provider',
	'Currency',
	'Notes',
	'Attachments',
]);

/** @type {Map<string, string>} lower-case name → field (reference names, twins, shortcuts and older spellings) */
const FIELD_BY_LOWER = new Map();
for (const f of WORK_ORDER_FIELDS) FIELD_BY_LOWER.set(f.toLowerCase(), f);
for (const f of TWINNED_DATES) FIELD_BY_LOWER.set(`${f}dto`.toLowerCase(), `${f}_DTO`);
for (const [alias, f] of [
	['SubscriberId', 'SubscriberId'],
	['ProviderId', 'ProviderId'],
	['RecallWorkOrderId', 'RecallWorkOrder'],
])
	FIELD_BY_LOWER.set(alias.toLowerCase(), f);

/**
 * @typedef {import('./index').Emulator} Emulator
 * @typedef {{ fields: Record<string, any>, dates: Record<string, number | null>,
 *   status: { Primary?: string, Extended?: string | null, CanCreateInvoice?: boolean } | undefined }} Normalized
 */

/**
 * A date value given by a test: epoch ms, a Date, or ISO 8601 text (no offset = local time of the
 * service).
 * @param {Emulator} emu @param {string} name @param {any} v
 * @returns {number}
 */
function dateValue(emu, name, v) {
	if (v instanceof Date) {
		if (Number.isNaN(v.getTime())) throw new WorkOrderError(`${name}: invalid Date`);
		return v.getTime();
	}
	if (typeof v === 'number') {
		if (!Number.isFinite(v)) throw new WorkOrderError(`${name}: invalid epoch milliseconds ${v}`);
		return Math.trunc(v);
	}
	if (typeof v === 'string') {
		const ticks = emu.time.parseTicks(v);
		if (ticks === null)
			throw new WorkOrderError(
				`${name} must be an ISO 8601 date-time, epoch milliseconds or a Date (got '${v}')`,
			);
		return Number(ticks / 10000n);
	}
	throw new WorkOrderError(`${name} must be an ISO 8601 date-time, epoch milliseconds or a Date`);
}

/** @param {any} v @param {string} name @returns {number} */
function intValue(v, name) {
	const n =
		typeof v === 'string' && /^\s*\d{1,10}\s*$/.test(v)
			? Number(v)
			: typeof v === 'bigint'
				? Number(v)
				: v;
	if (typeof n !== 'number' || !Number.isInteger(n) || n < 1 || n > 2147483647) {
		throw new WorkOrderError(`${name} must be a positive 32-bit integer (got ${String(v)})`);
	}
	return n;
}

/** The Id of `{ Id }` or of a plain id. @param {any} v @param {string} name */
function idOf(v, name) {
	if (v && typeof v === 'object' && !Array.isArray(v)) {
		const key = Object.keys(v).find((k) => k.toLowerCase() === 'id');
		if (!key) throw new WorkOrderError(`${name} must be given as { Id } (or ${name}Id)`);
		return intValue(v[key], `${name}.Id`);
	}
	return intValue(v, name);
}

/** @param {any} value @returns {{ Primary?: string, Extended?: string | null, CanCreateInvoice?: boolean }} */
function statusValue(value) {
	/** @type {{ Primary?: string, Extended?: string | null, CanCreateInvoice?: boolean }} */
	const st = {};
	if (typeof value === 'string') st.Primary = value;
	else if (value && typeof value === 'object' && !Array.isArray(value)) {
		for (const [k, v] of Object.entries(value)) {
			const lk = k.toLowerCase();
			if (lk === 'primary') st.Primary = v;
			else if (lk === 'extended') st.Extended = v;
			else if (lk === 'cancreateinvoice') st.CanCreateInvoice = !!v;
			else
				throw new WorkOrderError(
					`Status has Primary, Extended and CanCreateInvoice only (got '${k}')`,
				);
		}
	} else
		throw new WorkOrderError(
			'Status must be { Primary, Extended } or a string (the primary status)',
		);
	if (st.Primary !== undefined && (typeof st.Primary !== 'string' || st.Primary.trim() === '')) {
		throw new WorkOrderError('Status.Primary must be a non-empty string');
	}
	if (st.Extended !== undefined && st.Extended !== null && typeof st.Extended !== 'string') {
		throw new WorkOrderError('Status.Extended must be a string or null');
	}
	return st;
}

/**
 * One field of the input, into `out` (dates, status, ids and the plain values checked against the
 * reference's type).
 * @param {Emulator} emu @param {Normalized} out @param {string} key @param {any} value @param {{ creating: boolean }} o
 */
function normalizeField(emu, out, key, value, o) {
	const base = key.endsWith('_DTO') ? key.slice(0, -4) : key;
	if (WORK_ORDER_DATES.includes(base)) {
		if (base in out.dates) throw new WorkOrderError(`give ${base} or ${base}_DTO, not both`);
		if (value === null) {
			if (['CallDate', 'CreatedDate', 'UpdatedDate'].includes(base))
				throw new WorkOrderError(`${base} cannot be null`);
			out.dates[base] = null;
		} else out.dates[base] = dateValue(emu, key, value);
		return;
	}
	switch (key) {
		case 'Id':
			if (!o.creating) throw new WorkOrderError('Id cannot be changed');
			out.fields.Id = intValue(value, 'Id');
			return;
		case 'Status':
			out.status = statusValue(value);
			return;
		case 'Location':
		case 'LocationId':
			out.fields.LocationId = idOf(value, 'Location');
			return;
		case 'Subscriber':
		case 'SubscriberId':
			out.fields.SubscriberId = idOf(value, 'Subscriber');
			return;
		case 'Provider':
		case 'ProviderId':
			out.fields.ProviderId = idOf(value, 'Provider');
			return;
		case 'Currency':
			if (value !== 'USD' && !(value && typeof value === 'object'))
				throw new WorkOrderError("Currency must be 'USD' or a Currency object");
			out.fields.Currency = value === 'USD' ? usd() : value;
			return;
		case 'Notes':
		case 'Attachments':
			throw new WorkOrderError(
				`${key} is a summary the emulator keeps: add notes and attachments instead`,
			);
		default: {
			const problems = check(/** @type {any} */ (propertySchema('WorkOrder', key)), value, key, {
				mode: 'request',
			});
			if (problems.length) throw new WorkOrderError(problems[0].message);
			out.fields[key] = value;
		}
	}
}

/**
 * Validates a partial work order / a set of changes (field names case-insensitive).
 * @param {Emulator} emu @param {any} input @param {{ creating: boolean }} o
 * @returns {Normalized}
 */
function normalize(emu, input, o) {
	if (input === null || input === undefined) input = {};
	if (typeof input !== 'object' || Array.isArray(input))
		throw new WorkOrderError('work order fields must be an object');
	/** @type {Normalized} */
	const out = { fields: {}, dates: {}, status: undefined };
	for (const [rawKey, value] of Object.entries(input)) {
		const key = FIELD_BY_LOWER.get(rawKey.toLowerCase());
		if (!key)
			throw new WorkOrderError(
				`unknown work order field '${rawKey}' (the reference's WorkOrder fields: ${WORK_ORDER_FIELDS.join(', ')}; shortcuts SubscriberId, ProviderId)`,
			);
		if (value === undefined) continue;
		normalizeField(emu, out, key, value, o);
	}
	const f = out.fields;
	if (f.LocationId !== undefined && !emu.state.locations[f.LocationId])
		throw new WorkOrderError(`unknown LocationId ${f.LocationId}`);
	if (f.ProviderId !== undefined && !emu.state.providers[f.ProviderId])
		throw new WorkOrderError(`unknown ProviderId ${f.ProviderId}`);
	if (f.SubscriberId !== undefined && !emu.state.subscribers[f.SubscriberId])
		throw new WorkOrderError(`unknown SubscriberId ${f.SubscriberId}`);
	return out;
}

/** The instants of a work order's dates (null: none). @param {Emulator} emu @param {any} wo */
function instantsOf(emu, wo) {
	/** @type {Record<string, number | null>} */
	const out = {};
	for (const name of WORK_ORDER_DATES) {
		const text = wo[`${name}_DTO`] ?? wo[name];
		out[name] =
			typeof text === 'string'
				? Number(/** @type {bigint} */ (emu.time.parseTicks(text)) / 10000n)
				: null;
	}
	return out;
}

/**
 * Applies normalized changes to a record (in place) and records the change.
 * @param {Emulator} emu @param {any} wo @param {Normalized} n
 * @param {{ now: number, source: string, kind: 'created' | 'updated', by?: any }} o  `by`: the API user (events' UpdatedBy)
 */
function apply(emu, wo, n, o) {
	emu._workOrdersChanged();
	const before = { Primary: wo.Status.Primary, Extended: wo.Status.Extended };
	const fieldsBefore = {
		Priority: wo.Priority,
		ScheduledDate_DTO: wo.ScheduledDate_DTO,
		ProviderId: wo.ProviderId,
	};
	// a new location rewrites the twins in its zone: their instants, read before anything changes
	const instants =
		n.fields.LocationId !== undefined && n.fields.LocationId !== wo.LocationId
			? instantsOf(emu, wo)
			: null;
	const changed = new Set(Object.keys(n.fields));
	const objects = publicObjects(emu.state);
	const { LocationId, SubscriberId, ProviderId, ...plain } = n.fields;
	Object.assign(wo, plain);
	if (LocationId !== undefined) {
		wo.LocationId = LocationId;
		wo.Location = objects.locations[LocationId];
		if (SubscriberId === undefined) wo.Subscriber = objects.subscribers[wo.Location.SubscriberId];
		changed.add('Location');
		// the twins are written in the location's zone
		if (instants)
			for (const name of WORK_ORDER_DATES)
				if (!(name in n.dates)) writeDate(emu.clock, wo, name, instants[name]);
	}
	if (SubscriberId !== undefined) wo.Subscriber = objects.subscribers[SubscriberId];
	if (ProviderId !== undefined) wo.Provider = objects.providers[ProviderId];
	if (n.status) {
		wo.Status = {
			Primary: n.status.Primary !== undefined ? n.status.Primary : wo.Status.Primary,
			Extended: n.status.Extended !== undefined ? n.status.Extended : wo.Status.Extended,
			CanCreateInvoice:
				n.status.CanCreateInvoice !== undefined
					? n.status.CanCreateInvoice
					: wo.Status.CanCreateInvoice,
		};
		changed.add('Status');
	}
	const dates = { ...n.dates };
	if (dates.UpdatedDate === undefined) dates.UpdatedDate = o.now;
	for (const [name, given] of Object.entries(dates)) {
		writeDate(emu.clock, wo, name, given);
		changed.add(name);
	}
	const after = { Primary: wo.Status.Primary, Extended: wo.Status.Extended };
	const statusChanged =
		o.kind === 'updated' &&
		(before.Primary !== after.Primary || before.Extended !== after.Extended);
	emu.state.workOrderChanges.push({
		seq: emu.state.workOrderChanges.length + 1,
		kind: o.kind,
		workOrderId: wo.Id,
		source: o.source,
		at: wo.UpdatedDate_DTO,
		fields: [...changed],
		statusBefore: o.kind === 'created' ? null : before,
		statusAfter: after,
		primaryStatusChanged: o.kind === 'updated' && before.Primary !== after.Primary,
		statusChanged,
	});
	workOrderChanged(emu, wo, { kind: o.kind, statusChanged, before: fieldsBefore, by: o.by });
}

/** @param {Emulator} emu @param {Set<number>} taken */
function nextId(emu, taken) {
	while (emu.state.workOrders[emu._ids.workOrder] || taken.has(emu._ids.workOrder))
		emu._ids.workOrder++;
	return emu._ids.workOrder++;
}

/**
 * The record of one new work order (not stored yet) and the changes `apply` writes into it.
 * @param {Emulator} emu @param {Normalized} n @param {number} id @param {number} now
 */
function newRecord(emu, n, id, now) {
	const locationId = n.fields.LocationId !== undefined ? n.fields.LocationId : 501;
	const loc = emu.state.locations[locationId];
	const subscriberId = n.fields.SubscriberId ?? loc.SubscriberId;
	// one date given: the others follow it; none: now
	const given = (/** @type {string} */ k) =>
		n.dates[k] !== undefined && n.dates[k] !== null
			? /** @type {number} */ (n.dates[k])
			: undefined;
	const callMs = given('CallDate') ?? given('CreatedDate') ?? given('UpdatedDate') ?? now;
	const createdMs = given('CreatedDate') ?? callMs;
	const wo = workOrderRecord(emu.state, emu.clock, {
		id,
		locationId,
		subscriberId,
		providerId: n.fields.ProviderId ?? (subscriberId === 1001 ? 3001 : 3002),
		status: { Primary: 'OPEN', Extended: 'DISPATCH CONFIRMED' },
		trade: 'HVAC',
		category: 'REPAIR',
		description: `New work order ${id}`,
		nte: 500,
		dates: {},
	});
	const dates = {
		...n.dates,
		CallDate: callMs,
		CreatedDate: createdMs,
		ScheduledDate: n.dates.ScheduledDate !== undefined ? n.dates.ScheduledDate : callMs + 48 * HOUR,
		UpdatedDate: n.dates.UpdatedDate !== undefined ? n.dates.UpdatedDate : createdMs,
	};
	const status = {
		Primary: 'OPEN',
		Extended: /** @type {string | null} */ ('DISPATCH CONFIRMED'),
		...(n.status || {}),
	};
	if (n.status && n.status.Primary !== undefined && n.status.Extended === undefined)
		status.Extended = null;
	return { wo, n: { fields: { ...n.fields, Id: id }, dates, status } };
}

/**
 * Creates work orders (all or none). Dates: CallDate = given CallDate ?? CreatedDate ?? UpdatedDate ??
 * now (one instant for the whole batch); CreatedDate and UpdatedDate default to CallDate;
 * ScheduledDate to CallDate + 48 h.
 * @param {Emulator} emu @param {any[]} partials @param {{ source?: string }} [o]
 * @returns {any[]} the stored records
 */
function createWorkOrders(emu, partials, o = {}) {
	if (!Array.isArray(partials)) throw new WorkOrderError('expected an array of work orders');
	const now = emu.now();
	const normalized = partials.map((p) => normalize(emu, p, { creating: true }));
	/** @type {Set<number>} */
	const taken = new Set();
	for (const n of normalized) {
		const id = n.fields.Id;
		if (id === undefined) continue;
		if (emu.state.workOrders[id] || taken.has(id))
			throw new WorkOrderError(`work order ${id} already exists`, 409);
		taken.add(id);
	}
	const records = normalized.map((n) => {
		const id = n.fields.Id !== undefined ? n.fields.Id : nextId(emu, taken);
		taken.add(id);
		return newRecord(emu, n, id, now);
	});
	for (const { wo, n } of records) {
		emu.state.workOrders[wo.Id] = wo;
		apply(emu, wo, n, { now, source: o.source || 'emulator', kind: 'created' });
	}
	return records.map((r) => r.wo);
}

/**
 * Changes work orders (all or none). UpdatedDate becomes `now` (one instant for the whole batch)
 * unless the changes give UpdatedDate / UpdatedDate_DTO.
 * @param {Emulator} emu @param {any[]} ids @param {any} changes @param {{ source?: string }} [o]
 * @returns {any[]}
 */
function updateWorkOrders(emu, ids, changes, o = {}) {
	if (!Array.isArray(ids)) throw new WorkOrderError('expected an array of work order ids');
	const n = normalize(emu, changes, { creating: false });
	const records = ids.map((raw) => {
		const id = intValue(raw, 'work order id');
		const wo = emu.state.workOrders[id];
		if (!wo) throw new WorkOrderError(`work order ${id} does not exist`, 404);
		return wo;
	});
	const now = emu.now();
	for (const wo of records)
		apply(
			emu,
			wo,
			{ fields: { ...n.fields }, dates: { ...n.dates }, status: n.status && { ...n.status } },
			{ now, source: o.source || 'emulator', kind: 'updated' },
		);
	return records;
}

/**
 * Used by API handlers that change a work order (check-in / check-out).
 * @param {Emulator} emu @param {any} wo @param {any} changes @param {{ now: number, source: string, by?: any }} o
 */
function applyWorkOrderChanges(emu, wo, changes, o) {
	apply(emu, wo, normalize(emu, changes, { creating: false }), { ...o, kind: 'updated' });
}

module.exports = {
	createWorkOrders,
	updateWorkOrders,
	applyWorkOrderChanges,
	WorkOrderError,
	DATE_FIELDS,
	DERIVED,
	instantsOf,
};
