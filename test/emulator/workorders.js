// @ts-check
'use strict';

/**
 * Work orders created and changed by tests while a trigger polls (README.md, "Work orders that
 * change"). Used by the Emulator methods createWorkOrder(s) / updateWorkOrder(s) /
 * setWorkOrderStatus, the control endpoints /__emulator/workorders, and the API handlers that
 * change a work order (check-in / check-out).
 */

const { WORK_ORDER_FIELDS } = require('./fixtures');
const { workOrderChanged } = require('./webhooks');

const DATE_FIELDS = ['CallDate', 'ScheduledDate', 'CreatedDate', 'UpdatedDate'];
const HOUR = 3600 * 1000;

/** An error the control endpoints answer with `status` (400 unless set). */
class WorkOrderError extends Error {
  /** @param {string} message @param {number} [status] */
  constructor(message, status = 400) {
    super(message);
    this.status = status;
  }
}

/** @type {Map<string, string>} lower-case name → field name (X and XDto both map to themselves) */
const FIELD_BY_LOWER = new Map(WORK_ORDER_FIELDS.map((f) => [f.toLowerCase(), f]));

/**
 * @typedef {import('./index').Emulator} Emulator
 * @typedef {{ fields: Record<string, any>, dates: Record<string, number | null>, status: { Primary?: string, Extended?: string | null } | undefined }} Normalized
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
    if (ticks === null) throw new WorkOrderError(`${name} must be an ISO 8601 date-time, epoch milliseconds or a Date (got '${v}')`);
    return Number(ticks / 10000n);
  }
  throw new WorkOrderError(`${name} must be an ISO 8601 date-time, epoch milliseconds or a Date`);
}

/** @param {any} v @param {string} name @returns {number} */
function intValue(v, name) {
  const n = typeof v === 'string' && /^\s*\d{1,10}\s*$/.test(v) ? Number(v) : typeof v === 'bigint' ? Number(v) : v;
  if (typeof n !== 'number' || !Number.isInteger(n) || n < 1 || n > 2147483647) {
    throw new WorkOrderError(`${name} must be a positive 32-bit integer (got ${String(v)})`);
  }
  return n;
}

/**
 * Validates a partial work order / a set of changes (field names case-insensitive).
 * @param {Emulator} emu @param {any} input @param {{ creating: boolean }} o
 * @returns {Normalized}
 */
function normalize(emu, input, o) {
  if (input === null || input === undefined) input = {};
  if (typeof input !== 'object' || Array.isArray(input)) throw new WorkOrderError('work order fields must be an object');
  /** @type {Normalized} */
  const out = { fields: {}, dates: {}, status: undefined };
  for (const [rawKey, value] of Object.entries(input)) {
    const key = FIELD_BY_LOWER.get(rawKey.toLowerCase());
    if (!key) throw new WorkOrderError(`unknown work order field '${rawKey}' (fields: ${WORK_ORDER_FIELDS.join(', ')})`);
    if (value === undefined) continue;
    const base = key.endsWith('Dto') ? key.slice(0, -3) : key;
    if (DATE_FIELDS.includes(base)) {
      if (base in out.dates) throw new WorkOrderError(`give ${base} or ${base}Dto, not both`);
      if (value === null) {
        if (base !== 'ScheduledDate') throw new WorkOrderError(`${base} cannot be null`);
        out.dates[base] = null;
      } else out.dates[base] = dateValue(emu, key, value);
      continue;
    }
    if (key === 'Id') {
      if (!o.creating) throw new WorkOrderError('Id cannot be changed');
      out.fields.Id = intValue(value, 'Id');
      continue;
    }
    if (key === 'Status') {
      if (typeof value === 'string') {
        out.status = { Primary: value };
      } else if (value && typeof value === 'object' && !Array.isArray(value)) {
        /** @type {{ Primary?: string, Extended?: string | null }} */
        const st = {};
        for (const [k, v] of Object.entries(value)) {
          const lk = k.toLowerCase();
          if (lk === 'primary') st.Primary = v;
          else if (lk === 'extended') st.Extended = v;
          else throw new WorkOrderError(`Status has Primary and Extended only (got '${k}')`);
        }
        out.status = st;
      } else throw new WorkOrderError('Status must be { Primary, Extended } or a string (the primary status)');
      if (out.status.Primary !== undefined && (typeof out.status.Primary !== 'string' || out.status.Primary.trim() === '')) {
        throw new WorkOrderError('Status.Primary must be a non-empty string');
      }
      if (out.status.Extended !== undefined && out.status.Extended !== null && typeof out.status.Extended !== 'string') {
        throw new WorkOrderError('Status.Extended must be a string or null');
      }
      continue;
    }
    if (['SubscriberId', 'ProviderId', 'LocationId'].includes(key)) {
      out.fields[key] = intValue(value, key);
      continue;
    }
    if (key === 'RecallWorkOrderId') {
      out.fields[key] = value === null ? null : intValue(value, key);
      continue;
    }
    out.fields[key] = value;
  }
  const f = out.fields;
  if (f.LocationId !== undefined && !emu.state.locations[f.LocationId]) throw new WorkOrderError(`unknown LocationId ${f.LocationId}`);
  if (f.ProviderId !== undefined && !emu.state.providers[f.ProviderId]) throw new WorkOrderError(`unknown ProviderId ${f.ProviderId}`);
  if (f.SubscriberId !== undefined && !emu.state.subscribers[f.SubscriberId]) throw new WorkOrderError(`unknown SubscriberId ${f.SubscriberId}`);
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
  const fieldsBefore = { Priority: wo.Priority, ScheduledDateDto: wo.ScheduledDateDto, ProviderId: wo.ProviderId };
  const changed = new Set(Object.keys(n.fields));
  Object.assign(wo, n.fields);
  if (n.fields.LocationId !== undefined) {
    const loc = emu.state.locations[wo.LocationId];
    if (n.fields.LocationName === undefined) wo.LocationName = loc.Name;
    if (n.fields.StoreId === undefined) wo.StoreId = loc.StoreId;
    if (n.fields.SubscriberId === undefined) wo.SubscriberId = loc.SubscriberId;
    changed.add('LocationName').add('StoreId');
  }
  if (n.fields.RecallWorkOrderId !== undefined && n.fields.IsRecall === undefined) wo.IsRecall = n.fields.RecallWorkOrderId !== null;
  if (n.status) {
    wo.Status = {
      Primary: n.status.Primary !== undefined ? n.status.Primary : wo.Status.Primary,
      Extended: n.status.Extended !== undefined ? n.status.Extended : wo.Status.Extended,
    };
    changed.add('Status');
  }
  const dates = { ...n.dates };
  if (dates.UpdatedDate === undefined) dates.UpdatedDate = o.now;
  for (const [name, given] of Object.entries(dates)) {
    const ms = given === null ? null : emu.writtenInstant(given);
    wo[name] = ms === null ? null : emu.time.local(ms);
    wo[`${name}Dto`] = ms === null ? null : emu.time.dto(ms);
    changed.add(name);
  }
  const after = { Primary: wo.Status.Primary, Extended: wo.Status.Extended };
  const statusChanged = o.kind === 'updated' && (before.Primary !== after.Primary || before.Extended !== after.Extended);
  emu.state.workOrderChanges.push({
    seq: emu.state.workOrderChanges.length + 1,
    kind: o.kind,
    workOrderId: wo.Id,
    source: o.source,
    at: wo.UpdatedDateDto,
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
  while (emu.state.workOrders[emu._ids.workOrder] || taken.has(emu._ids.workOrder)) emu._ids.workOrder++;
  return emu._ids.workOrder++;
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
    if (emu.state.workOrders[id] || taken.has(id)) throw new WorkOrderError(`work order ${id} already exists`, 409);
    taken.add(id);
  }
  const records = normalized.map((n) => {
    const id = n.fields.Id !== undefined ? n.fields.Id : nextId(emu, taken);
    taken.add(id);
    const locationId = n.fields.LocationId !== undefined ? n.fields.LocationId : 501;
    const loc = emu.state.locations[locationId];
    // one date given: the others follow it; none: now
    const given = (/** @type {string} */ k) => (n.dates[k] !== undefined && n.dates[k] !== null ? /** @type {number} */ (n.dates[k]) : undefined);
    const callMs = given('CallDate') ?? given('CreatedDate') ?? given('UpdatedDate') ?? now;
    const createdMs = given('CreatedDate') ?? callMs;
    const wo = {
      Id: id,
      Number: String(id),
      PurchaseNumber: `PO-${id}`,
      SubscriberId: loc.SubscriberId,
      ProviderId: loc.SubscriberId === 1001 ? 3001 : 3002,
      LocationId: loc.Id,
      LocationName: loc.Name,
      StoreId: loc.StoreId,
      Status: { Primary: 'OPEN', Extended: 'DISPATCH CONFIRMED' },
      Trade: 'HVAC',
      Category: 'REPAIR',
      Priority: 'P3 - Normal',
      Caller: 'Store Manager',
      Description: `New work order ${id}`,
      Nte: 500,
      Currency: 'USD',
      IsInvoiced: false,
      IsRecall: false,
      RecallWorkOrderId: null,
      CallDate: '',
      CallDateDto: '',
      ScheduledDate: /** @type {string | null} */ (''),
      ScheduledDateDto: /** @type {string | null} */ (''),
      CreatedDate: '',
      CreatedDateDto: '',
      UpdatedDate: '',
      UpdatedDateDto: '',
    };
    const dates = {
      CallDate: callMs,
      CreatedDate: createdMs,
      ScheduledDate: n.dates.ScheduledDate !== undefined ? n.dates.ScheduledDate : callMs + 48 * HOUR,
      UpdatedDate: n.dates.UpdatedDate !== undefined ? n.dates.UpdatedDate : createdMs,
    };
    const status = { Primary: 'OPEN', Extended: /** @type {string | null} */ ('DISPATCH CONFIRMED'), ...(n.status || {}) };
    if (n.status && n.status.Primary !== undefined && n.status.Extended === undefined) status.Extended = null;
    /** @type {Record<string, any>} */
    const fields = { ...n.fields, Id: id };
    return { wo, n: { fields, dates, status }, loc };
  });
  for (const { wo, n } of records) {
    if (n.fields.SubscriberId === undefined) n.fields.LocationId = wo.LocationId; // derive subscriber from the location
    emu.state.workOrders[wo.Id] = wo;
    apply(emu, wo, n, { now, source: o.source || 'emulator', kind: 'created' });
  }
  return records.map((r) => r.wo);
}

/**
 * Changes work orders (all or none). UpdatedDate becomes `now` (one instant for the whole batch)
 * unless the changes give UpdatedDate / UpdatedDateDto.
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
  for (const wo of records) apply(emu, wo, { fields: { ...n.fields }, dates: { ...n.dates }, status: n.status && { ...n.status } }, { now, source: o.source || 'emulator', kind: 'updated' });
  return records;
}

/**
 * Used by API handlers that change a work order (check-in / check-out).
 * @param {Emulator} emu @param {any} wo @param {any} changes @param {{ now: number, source: string, by?: any }} o
 */
function applyWorkOrderChanges(emu, wo, changes, o) {
  apply(emu, wo, normalize(emu, changes, { creating: false }), { ...o, kind: 'updated' });
}

module.exports = { createWorkOrders, updateWorkOrders, applyWorkOrderChanges, WorkOrderError, DATE_FIELDS };
