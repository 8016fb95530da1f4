// @ts-check
'use strict';

/**
 * The main API under {base_url}/v3 (base_url = origin + '/api').
 */

const crypto = require('node:crypto');
const {
  Reply,
  E,
  json,
  apiError,
  fail,
  empty,
  mediaType,
  noteRecord,
  prop,
  splitEmails,
  parse,
} = require('./http-util');
const { applyODataQuery, ODataError, compareValues, instantOf } = require('./odata');
const { WORK_ORDER_FIELDS } = require('./fixtures');
const { applyWorkOrderChanges } = require('./workorders');
const { UTC } = require('./service-time');
const events = require('./webhooks');
const { WEBHOOK_ROUTES } = require('./webhook-api');
const { PROPOSAL_ROUTES } = require('./api-proposals');
const { FILE_ROUTES, attachmentUri } = require('./api-files');

/**
 * @typedef {import('./index').Emulator} Emulator
 * @typedef {import('./index').RequestContext} RequestContext
 * @typedef {{ user: any, clientId: string, tokenKind: string, subscriberId: number | null, providerId: number | null, scope: string | null }} Principal
 * @typedef {(emu: Emulator, ctx: RequestContext, p: Principal, params: Record<string, any>) => import('./http-util').Response} Handler
 */

const MAX_INT64 = 9223372036854775807n;
const PAGE_CAP = 50;

// ---- helpers ---------------------------------------------------------------------------------

/** @param {Principal} p @param {any} wo */
function canSeeWo(p, wo) {
  return p.providerId !== null ? wo.ProviderId === p.providerId : wo.SubscriberId === p.subscriberId;
}

/** @param {Emulator} emu @param {Principal} p */
function visibleWorkOrders(emu, p) {
  const key = p.providerId !== null ? `provider:${p.providerId}` : `subscriber:${p.subscriberId}`;
  return emu.visibleWorkOrderList(key, (wo) => canSeeWo(p, wo));
}

/** @param {Emulator} emu @param {Principal} p @param {number} id */
function requireWo(emu, p, id) {
  const wo = emu.state.workOrders[id];
  if (!wo || !canSeeWo(p, wo)) fail(404, E.WO_NOT_FOUND, `Work order ${id} was not found`);
  return wo;
}

/** @param {Emulator} emu @param {any} note */
function noteVisible(emu, note) {
  const lag = emu.faults.replicaLagMs;
  return !lag || !note._createdAt || emu.now() - note._createdAt >= lag;
}

/** @param {Emulator} emu @param {number} woId */
function notesOf(emu, woId) {
  return (emu.state.notes[woId] || []).filter((n) => noteVisible(emu, n));
}

/** @param {Emulator} emu @param {number} woId @param {bigint} noteId */
function requireNote(emu, woId, noteId) {
  const note = notesOf(emu, woId).find((n) => n.Id === noteId);
  if (!note) fail(404, E.NOTE_NOT_FOUND, `Note ${noteId} of work order ${woId} was not found`);
  return note;
}

/** @param {any} a */
function publicAttachment(a) {
  return {
    Id: a.Id,
    WorkOrderId: a.WorkOrderId,
    NoteId: a.NoteId,
    CheckListResponseId: a.CheckListResponseId,
    Source: a.Source,
    FileName: a.FileName,
    ContentType: a.ContentType,
    Size: a.Size,
    DocumentPath: a.DocumentPath,
    ThumbnailPath: a.ThumbnailPath,
    HasThumbnail: a.HasThumbnail,
    UploadedBy: a.UploadedBy,
    DateCreated: a.DateCreated,
    DateCreatedDto: a.DateCreatedDto,
    Uri: a.Uri,
  };
}

/** @param {any} n */
function publicNote(n) {
  /** @type {Record<string, any>} */
  const out = {};
  for (const k of Object.keys(n)) {
    if (k.startsWith('_')) continue;
    out[k] = k === 'Attachments' ? n.Attachments.map(publicAttachment) : n[k];
  }
  return out;
}

/** @param {RequestContext} ctx @param {string} name */
function queryParam(ctx, name) {
  const lower = name.toLowerCase();
  for (const k of Object.keys(ctx.query)) {
    if (k.toLowerCase() === lower) {
      const v = ctx.query[k];
      return Array.isArray(v) ? v[v.length - 1] : v;
    }
  }
  return undefined;
}

/**
 * @param {RequestContext} ctx @param {string} name @param {number} dflt
 */
function positiveIntQuery(ctx, name, dflt) {
  const v = queryParam(ctx, name);
  if (v === undefined || v === '') return dflt;
  if (!/^\d{1,9}$/.test(v) || Number(v) < 1) fail(400, E.BAD_QUERY, `Query parameter ${name} must be a positive integer, got '${v}'`);
  return Number(v);
}

/**
 * JSON request body: Content-Type application/json, a JSON object.
 * @param {RequestContext} ctx
 * @param {{ required: boolean }} opts
 * @returns {Record<string, any>}
 */
function readJsonBody(ctx, opts) {
  const type = mediaType(ctx.headers['content-type']);
  const isJson = type === 'application/json' || type.endsWith('+json');
  if (type && !isJson) fail(415, E.CONTENT_TYPE, `Content-Type must be application/json (got ${type})`);
  const text = ctx.body.toString('utf8');
  if (text.trim() === '') {
    if (opts.required) fail(400, E.NO_BODY, 'A JSON object is required as the request body');
    return {};
  }
  if (!type) fail(415, E.CONTENT_TYPE, 'Content-Type must be application/json');
  let value;
  try {
    value = parse(text);
  } catch (e) {
    fail(400, E.BAD_JSON, `The request body is not valid JSON: ${e && /** @type {any} */ (e).message}`);
  }
  if (value === null || typeof value !== 'object' || Array.isArray(value)) {
    fail(400, E.INVALID_FIELD, 'The request body must be a JSON object');
  }
  return value;
}

/** @param {RequestContext} ctx */
function requireMultipart(ctx) {
  const type = mediaType(ctx.headers['content-type']);
  if (type !== 'multipart/form-data') {
    fail(415, E.CONTENT_TYPE, `Content-Type must be multipart/form-data with a boundary (got ${type || 'none'})`);
  }
  if (ctx.body.length === 0 || !ctx.multipart) fail(400, E.NO_BODY, 'The multipart request body is empty');
  if (ctx.multipart.error || !ctx.multipart.parts) fail(400, E.MULTIPART, `Malformed multipart body: ${ctx.multipart.error}`);
  return ctx.multipart.parts;
}

/**
 * Optional/required typed fields of a JSON object (case-insensitive names).
 * @param {Record<string, any>} body
 * @param {import('./service-time').ServiceTime} [time] reads date-times without an offset (default UTC)
 */
function fields(body, time) {
  /** @param {string} name */
  const get = (name) => {
    const v = prop(body, name);
    return v === null ? undefined : v;
  };
  return {
    get,
    /** @param {string} name @param {boolean} [required] @returns {string | undefined} */
    string(name, required = false) {
      const v = get(name);
      if (v === undefined) {
        if (required) fail(400, E.REQUIRED_FIELD, `${name} is required`);
        return undefined;
      }
      if (typeof v !== 'string') fail(400, E.INVALID_FIELD, `${name} must be a string`);
      return v;
    },
    /** @param {string} name @returns {boolean | undefined} */
    bool(name) {
      const v = get(name);
      if (v === undefined) return undefined;
      if (typeof v !== 'boolean') fail(400, E.INVALID_FIELD, `${name} must be true or false`);
      return v;
    },
    /** @param {string} name @param {boolean} [required] @returns {number | undefined} */
    int(name, required = false) {
      const v = get(name);
      if (v === undefined || v === '') {
        if (required) fail(400, E.REQUIRED_FIELD, `${name} is required (an integer)`);
        return undefined;
      }
      if (typeof v === 'number' && Number.isInteger(v) && Math.abs(v) <= 2147483647) return v;
      if (typeof v === 'string' && /^\s*-?\d{1,10}\s*$/.test(v) && Math.abs(Number(v)) <= 2147483647) return Number(v);
      if (typeof v === 'bigint' || (typeof v === 'number' && Number.isInteger(v))) {
        fail(400, E.INVALID_FIELD, `${name} is out of range for a 32-bit integer`);
      }
      return fail(400, E.INVALID_FIELD, `${name} must be an integer`);
    },
    /** @param {string} name @param {number} min @param {number} max @returns {number | undefined} */
    number(name, min, max) {
      const v = get(name);
      if (v === undefined) return undefined;
      const n = typeof v === 'number' ? v : typeof v === 'string' && v.trim() !== '' ? Number(v) : NaN;
      if (!Number.isFinite(n) || n < min || n > max) fail(400, E.INVALID_FIELD, `${name} must be a number between ${min} and ${max}`);
      return n;
    },
    /** @param {string} name @returns {string[] | undefined} */
    emails(name) {
      const v = get(name);
      if (v === undefined || v === '') return undefined;
      if (typeof v !== 'string') fail(400, E.INVALID_FIELD, `${name} must be a string`);
      const list = splitEmails(v);
      if (!list) fail(400, E.BAD_EMAIL, `${name} is not a valid e-mail address: '${v}'`);
      return list;
    },
    /** @param {string} name @returns {number | undefined} ms */
    date(name) {
      const v = get(name);
      if (v === undefined || v === '') return undefined;
      if (typeof v !== 'string') fail(400, E.INVALID_FIELD, `${name} must be an ISO 8601 date-time string`);
      const text = v.trim();
      const ticks = (time || UTC).parseTicks(text);
      if (ticks === null) fail(400, E.INVALID_FIELD, `${name} must be an ISO 8601 date-time, got '${v}'`);
      return Number(ticks / 10000n);
    },
  };
}

/** @param {{ filename: string | null, contentType: string | null }} f */
function isImage(f) {
  return /^image\//i.test(f.contentType || '') || /\.(jpe?g|png|gif|bmp|webp|heic|tiff?)$/i.test(f.filename || '');
}

/**
 * @param {Emulator} emu
 * @param {{ wo: any, noteId: bigint | null, checkListResponseId: number | null, source: string, file: import('./multipart').Part, user: any }} o
 */
function storeAttachment(emu, o) {
  const now = emu.now();
  const uuid = crypto.randomUUID();
  const image = isImage(o.file);
  const keep = emu.options.logBodies;
  const rec = {
    Id: emu._ids.attachment++,
    WorkOrderId: o.wo.Id,
    NoteId: o.noteId,
    CheckListResponseId: o.checkListResponseId,
    Source: o.source,
    FileName: o.file.filename || 'file',
    ContentType: o.file.contentType || 'application/octet-stream',
    Size: o.file.size,
    DocumentPath: `#workorders/${uuid}`,
    ThumbnailPath: image ? `#workorders/${uuid}-thumb` : null,
    HasThumbnail: image,
    UploadedBy: o.user.fullName,
    DateCreated: emu.time.local(now),
    DateCreatedDto: emu.time.dto(now),
    sha256: keep ? crypto.createHash('sha256').update(o.file.data).digest('hex') : null,
    data: keep ? o.file.data : undefined,
  };
  /** @type {any} */ (rec).Uri = attachmentUri(emu, rec);
  emu.state.attachments.push(rec);
  return rec;
}

/**
 * @param {Emulator} emu @param {any} wo @param {any} user @param {string} text @param {Record<string, any>} [extra]
 */
function addNote(emu, wo, user, text, extra = {}) {
  const now = emu.now();
  const note = noteRecord({ id: emu._ids.note++, workOrderId: wo.Id, text, at: now, createdBy: user.fullName, extra, createdAt: now, time: emu.time });
  (emu.state.notes[wo.Id] = emu.state.notes[wo.Id] || []).push(note);
  events.noteAdded(emu, wo, note, user);
  return note;
}

/**
 * @param {Emulator} emu @param {string} suffix
 */
function odataContext(emu, suffix) {
  return `${emu.baseUrl}/v3/odata/$metadata#${suffix}`;
}

/**
 * @param {Emulator} emu @param {any[]} items @param {RequestContext} ctx @param {string} context @param {string[]} properties
 * @param {(a: any, b: any) => number} [defaultOrder]
 */
function odataList(emu, items, ctx, context, properties, defaultOrder) {
  try {
    return json(200, applyODataQuery(items, ctx.query, { context, properties, defaultOrder, time: emu.time }));
  } catch (e) {
    if (e instanceof ODataError) fail(400, E.BAD_QUERY, e.message);
    throw e;
  }
}

const byId = (/** @type {any} */ a, /** @type {any} */ b) => compareValues(a.Id, b.Id);

const NOTE_PROPS = [
  'Id', 'WorkOrderId', 'NoteData', 'DateCreated', 'DateCreatedDto', 'CreatedBy', 'MailedTo', 'ActionRequired',
  'ScheduledDate', 'ScheduledDateDto', 'FollowUpDate', 'FollowUpDateDto', 'IsPinned', 'Visibility', 'NotifyFollowers',
  'DoNotSendEmail', 'ProposalId', 'Attachments',
];
const ATTACHMENT_PROPS = Object.keys(
  publicAttachment({}),
);
const CHECKIN_PROPS = [
  'Id', 'WorkOrderId', 'ActivityType', 'UserId', 'TechnicianId', 'ProviderId', 'Latitude', 'Longitude',
  'NumberOfTechnicians', 'Comment', 'CheckInId', 'ActivityDate', 'ActivityDateDto', 'Source',
];

/** @param {Emulator} _emu */
function woProps(_emu) {
  return WORK_ORDER_FIELDS;
}

// ---- handlers: work orders -------------------------------------------------------------------

/** @type {Handler} */
function listWorkOrders(emu, ctx, p) {
  const page = positiveIntQuery(ctx, 'page', 1);
  const pageSize = Math.min(positiveIntQuery(ctx, 'pageSize', PAGE_CAP), PAGE_CAP);
  const all = visibleWorkOrders(emu, p);
  return json(200, {
    WorkOrders: all.slice((page - 1) * pageSize, page * pageSize),
    Page: page,
    PageSize: pageSize,
    TotalCount: all.length,
    TotalPages: Math.ceil(all.length / pageSize),
  });
}

/** @type {Handler} */
function getWorkOrder(emu, ctx, p, params) {
  return json(200, requireWo(emu, p, params.woId));
}

/** @type {Handler} */
function odataWorkOrders(emu, ctx, p) {
  return odataList(emu, visibleWorkOrders(emu, p), ctx, odataContext(emu, 'WorkOrders'), woProps(emu), byId);
}

/** @type {Handler} */
function odataWorkOrder(emu, ctx, p, params) {
  return json(200, requireWo(emu, p, params.woId));
}

/**
 * @param {number} lat1 @param {number} lon1 @param {number} lat2 @param {number} lon2
 */
function distanceKm(lat1, lon1, lat2, lon2) {
  const r = (/** @type {number} */ d) => (d * Math.PI) / 180;
  const a = Math.sin(r(lat2 - lat1) / 2) ** 2 + Math.cos(r(lat1)) * Math.cos(r(lat2)) * Math.sin(r(lon2 - lon1) / 2) ** 2;
  return 6371 * 2 * Math.atan2(Math.sqrt(a), Math.sqrt(1 - a));
}

/** @type {Handler} */
function odataNearBy(emu, ctx, p, params) {
  /** @type {Record<string, number>} */
  const args = {};
  for (const part of String(params.args).split(',')) {
    if (part.trim() === '') continue;
    const m = /^\s*([A-Za-z]+)\s*=\s*(-?\d+(?:\.\d+)?)\s*$/.exec(part);
    if (!m) fail(400, E.BAD_PATH, `Service.NearBy: cannot parse argument '${part}'; expected latitude=<number>,longitude=<number>`);
    args[m[1].toLowerCase()] = Number(m[2]);
  }
  const { latitude, longitude } = args;
  if (latitude === undefined || longitude === undefined) fail(400, E.BAD_PATH, 'Service.NearBy requires latitude and longitude');
  if (latitude < -90 || latitude > 90 || longitude < -180 || longitude > 180) {
    fail(400, E.BAD_PATH, 'Service.NearBy: latitude must be within -90..90 and longitude within -180..180');
  }
  const radius = args.radius !== undefined ? args.radius : 40; // km (about 25 miles)
  const withDistance = visibleWorkOrders(emu, p)
    .map((wo) => {
      const loc = emu.state.locations[wo.LocationId];
      return { wo, d: distanceKm(latitude, longitude, loc.Latitude, loc.Longitude) };
    })
    .filter((x) => x.d <= radius)
    .sort((a, b) => a.d - b.d || a.wo.Id - b.wo.Id);
  return odataList(emu, withDistance.map((x) => x.wo), ctx, odataContext(emu, 'WorkOrders'), woProps(emu));
}

/** @param {Emulator} emu @param {Principal} p @param {number} locationId */
function requireLocation(emu, p, locationId) {
  const loc = emu.state.locations[locationId];
  const ok =
    loc &&
    (p.providerId !== null
      ? Object.values(emu.state.workOrders).some((wo) => wo.LocationId === loc.Id && wo.ProviderId === p.providerId)
      : loc.SubscriberId === p.subscriberId);
  if (!ok) fail(404, E.LOCATION_NOT_FOUND, `Location ${locationId} was not found`);
  return loc;
}

/** @type {Handler} */
function odataLocationWorkOrders(emu, ctx, p, params) {
  const loc = requireLocation(emu, p, params.locationId);
  const list = visibleWorkOrders(emu, p).filter((wo) => wo.LocationId === loc.Id);
  return odataList(emu, list, ctx, odataContext(emu, 'WorkOrders'), woProps(emu), byId);
}

/** @type {Handler} */
function odataDuplicates(emu, ctx, p, params) {
  const loc = requireLocation(emu, p, params.locationId);
  const open = visibleWorkOrders(emu, p).filter((wo) => wo.LocationId === loc.Id && wo.Status.Primary !== 'COMPLETED');
  /** @type {Map<string, any[]>} */
  const groups = new Map();
  for (const wo of open) {
    const key = `${wo.Trade}|${wo.Category}|${String(wo.Description).trim().toLowerCase()}`;
    groups.set(key, [...(groups.get(key) || []), wo]);
  }
  const dups = [...groups.values()].filter((g) => g.length > 1).flat();
  return odataList(emu, dups, ctx, odataContext(emu, 'WorkOrders'), woProps(emu), byId);
}

/** @type {Handler} */
function odataRecalls(emu, ctx, p, params) {
  const loc = requireLocation(emu, p, params.locationId);
  const list = visibleWorkOrders(emu, p).filter((wo) => wo.LocationId === loc.Id && wo.IsRecall);
  return odataList(emu, list, ctx, odataContext(emu, 'WorkOrders'), woProps(emu), byId);
}

// ---- handlers: notes -------------------------------------------------------------------------

/** @type {Handler} */
function listNotes(emu, ctx, p, params) {
  const wo = requireWo(emu, p, params.woId);
  let page = 1;
  let size = PAGE_CAP;
  const paging = queryParam(ctx, 'paging');
  if (paging !== undefined && paging !== '') {
    const m = /^(\d{1,6}):(\d{1,6})$/.exec(String(paging).trim());
    if (!m || Number(m[1]) < 1 || Number(m[2]) < 1) {
      fail(400, E.BAD_QUERY, `paging must be 'page:size' with positive integers, e.g. paging=1:25 (got '${paging}')`);
    }
    page = Number(m[1]);
    size = Math.min(Number(m[2]), PAGE_CAP);
  }
  const all = notesOf(emu, wo.Id)
    .slice()
    .sort((a, b) => compareValues(instantOf(b, 'DateCreated', emu.time), instantOf(a, 'DateCreated', emu.time)) || compareValues(b.Id, a.Id));
  return json(200, {
    Notes: all.slice((page - 1) * size, page * size).map(publicNote),
    AllNotesCount: all.length,
    Page: page,
    PageSize: size,
  });
}

/** @type {Handler} */
function createNote(emu, ctx, p, params) {
  const wo = requireWo(emu, p, params.woId);
  const body = readJsonBody(ctx, { required: true });
  const f = fields(body, emu.time);
  const text = f.string('NoteData', true);
  if (!text || text.trim() === '') fail(400, E.REQUIRED_FIELD, 'NoteData is required (the note text)');
  if (text.length > 8000) fail(400, E.INVALID_FIELD, 'NoteData must be at most 8000 characters');
  const mailedTo = f.emails('MailedTo');
  const actionRequired = f.bool('ActionRequired');
  const scheduled = f.date('ScheduledDate');
  const followUp = f.date('FollowUpDate');
  const visibility = f.int('Visibility');
  if (visibility !== undefined && (visibility < 0 || visibility > 2)) fail(400, E.INVALID_FIELD, 'Visibility must be 0, 1 or 2');
  const notifyFollowers = f.bool('NotifyFollowers');
  const doNotSendEmail = f.bool('DoNotSendEmail');
  const isPinned = f.bool('IsPinned');
  const note = addNote(emu, wo, p.user, text, {
    MailedTo: mailedTo ? mailedTo.join(';') : null,
    ActionRequired: !!actionRequired,
    ScheduledDate: scheduled !== undefined ? emu.time.local(scheduled) : null,
    ScheduledDateDto: scheduled !== undefined ? emu.time.dto(scheduled) : null,
    FollowUpDate: followUp !== undefined ? emu.time.local(followUp) : null,
    FollowUpDateDto: followUp !== undefined ? emu.time.dto(followUp) : null,
    IsPinned: !!isPinned,
    Visibility: visibility !== undefined ? visibility : 0,
    NotifyFollowers: !!notifyFollowers,
    DoNotSendEmail: !!doNotSendEmail,
  });
  if (!doNotSendEmail && (mailedTo || notifyFollowers)) {
    emu.state.notifications.push({
      type: 'note',
      workOrderId: wo.Id,
      noteId: note.Id,
      action: 'note',
      recipients: mailedTo || [],
      notifyFollowers: !!notifyFollowers,
      at: note.DateCreatedDto,
    });
  }
  return json(201, publicNote(note), { location: `${emu.baseUrl}/v3/odata/workorders(${wo.Id})/notes(${note.Id})` });
}

/** @type {Handler} */
function odataNotes(emu, ctx, p, params) {
  const wo = requireWo(emu, p, params.woId);
  return odataList(emu, notesOf(emu, wo.Id).map(publicNote), ctx, odataContext(emu, `WorkOrders(${wo.Id})/Notes`), NOTE_PROPS, byId);
}

/** @type {Handler} */
function odataNote(emu, ctx, p, params) {
  const wo = requireWo(emu, p, params.woId);
  return json(200, publicNote(requireNote(emu, wo.Id, params.noteId)));
}

/** @type {Handler} */
function createNoteAttachment(emu, ctx, p, params) {
  const wo = requireWo(emu, p, params.woId);
  const note = requireNote(emu, wo.Id, params.noteId);
  const parts = requireMultipart(ctx);
  const files = parts.filter((part) => part.name.toLowerCase() === 'file');
  if (files.length === 0) fail(400, E.MULTIPART, "The multipart part 'file' is required");
  for (const file of files) if (file.size === 0) fail(400, E.INVALID_FIELD, `The file '${file.filename || 'file'}' is empty`);
  const records = files.map((file) =>
    storeAttachment(emu, { wo, noteId: note.Id, checkListResponseId: null, source: 'Note', file, user: p.user }),
  );
  for (const record of records) note.Attachments.push(record);
  for (const record of records) events.attachmentAdded(emu, wo, record, p.user);
  return json(201, records.length === 1 ? publicAttachment(records[0]) : records.map(publicAttachment));
}

/** @type {Handler} */
function odataNoteAttachments(emu, ctx, p, params) {
  const wo = requireWo(emu, p, params.woId);
  const note = requireNote(emu, wo.Id, params.noteId);
  const list = emu.state.attachments.filter((a) => a.WorkOrderId === wo.Id && a.NoteId === note.Id).map(publicAttachment);
  return odataList(emu, list, ctx, odataContext(emu, `WorkOrders(${wo.Id})/Notes(${note.Id})/Attachments`), ATTACHMENT_PROPS, byId);
}

/** @type {Handler} */
function odataWoAttachments(emu, ctx, p, params) {
  const wo = requireWo(emu, p, params.woId);
  const list = emu.state.attachments.filter((a) => a.WorkOrderId === wo.Id).map(publicAttachment);
  return odataList(emu, list, ctx, odataContext(emu, `WorkOrders(${wo.Id})/Attachments`), ATTACHMENT_PROPS, byId);
}

// ---- handlers: check-in / check-out ------------------------------------------------------------

/** @param {'CheckIn' | 'CheckOut'} type @returns {Handler} */
function checkInOut(type) {
  return (emu, ctx, p, params) => {
    const wo = requireWo(emu, p, params.woId);
    const body = readJsonBody(ctx, { required: false });
    const f = fields(body);
    const latitude = f.number('Latitude', -90, 90);
    const longitude = f.number('Longitude', -180, 180);
    const userId = f.int('UserId');
    const technicianId = f.int('TechnicianId');
    const technicians = f.int('NumberOfTechnicians');
    if (technicians !== undefined && technicians < 1) fail(400, E.INVALID_FIELD, 'NumberOfTechnicians must be 1 or greater');
    const comment = f.string('Comment');
    const workCompleted = type === 'CheckOut' ? f.bool('WorkCompleted') : undefined;
    const tech = technicianId !== undefined ? technicianId : p.user.technicianId ?? null;
    if (tech !== null) {
      const t = emu.state.technicians[tech];
      if (!t || t.ProviderId !== wo.ProviderId) {
        fail(400, E.PROVIDER_MISMATCH, `TechnicianId ${tech} is not a technician of provider ${wo.ProviderId} assigned to work order ${wo.Id}`);
      }
    }
    const now = emu.now();
    let checkInId = null;
    if (type === 'CheckOut') {
      const ins = emu.state.checkIns.filter((c) => c.WorkOrderId === wo.Id);
      const lastIn = ins.filter((c) => c.ActivityType === 'CheckIn').pop();
      const lastOutOf = lastIn ? ins.find((c) => c.ActivityType === 'CheckOut' && c.CheckInId === lastIn.Id) : null;
      if (lastIn && !lastOutOf) checkInId = lastIn.Id;
    }
    const rec = {
      Id: emu._ids.checkIn++,
      WorkOrderId: wo.Id,
      ActivityType: type,
      UserId: userId !== undefined ? userId : p.user.userId,
      TechnicianId: tech,
      ProviderId: wo.ProviderId,
      Latitude: latitude !== undefined ? latitude : null,
      Longitude: longitude !== undefined ? longitude : null,
      NumberOfTechnicians: technicians !== undefined ? technicians : 1,
      Comment: comment !== undefined ? comment : null,
      CheckInId: checkInId,
      ActivityDate: emu.time.local(now),
      ActivityDateDto: emu.time.dto(now),
      Source: 'API',
    };
    emu.state.checkIns.push(rec);
    const status =
      type === 'CheckIn'
        ? { Primary: 'IN PROGRESS', Extended: 'ON SITE' }
        : workCompleted
          ? { Primary: 'COMPLETED', Extended: 'PENDING CONFIRMATION' }
          : { Primary: 'IN PROGRESS', Extended: 'INCOMPLETE' };
    applyWorkOrderChanges(emu, wo, { Status: status }, { now, source: `api:${type}`, by: p.user });
    events.checkedInOut(emu, type, wo, p.user);
    return json(201, rec);
  };
}

/** @type {Handler} */
function odataCheckIns(emu, ctx, p, params) {
  const wo = requireWo(emu, p, params.woId);
  const list = emu.state.checkIns.filter((c) => c.WorkOrderId === wo.Id);
  return odataList(emu, list, ctx, odataContext(emu, 'CheckInActivities'), CHECKIN_PROPS, byId);
}

// ---- handlers: checklist responses -------------------------------------------------------------

const ACK_WORDS = ['on', 'off', '1', '0', 'true', 'false', 'yes', 'no'];
const NUMERIC_RE = /^[+-]?(\d+(\.\d*)?|\.\d+)([eE][+-]?\d+)?$/;

/** @type {Handler} */
function postChecklistResponse(emu, ctx, p) {
  const parts = requireMultipart(ctx);
  const requestParts = parts.filter((part) => part.name.toLowerCase() === 'checklistresponserequest');
  if (requestParts.length === 0) fail(400, E.MULTIPART, "The multipart part 'CheckListResponseRequest' (a JSON object) is required");
  if (requestParts.length > 1) fail(400, E.MULTIPART, "Send exactly one 'CheckListResponseRequest' part: one request answers one question");
  const fileParts = parts.filter((part) => part.name.toLowerCase() === 'file');
  if (fileParts.length > 1) fail(400, E.MULTIPART, "Send at most one 'file' part");
  const file = fileParts[0] || null;
  let body;
  try {
    body = parse(requestParts[0].data.toString('utf8'));
  } catch (e) {
    fail(400, E.BAD_JSON, `CheckListResponseRequest is not valid JSON: ${e && /** @type {any} */ (e).message}`);
  }
  if (body === null || typeof body !== 'object' || Array.isArray(body)) fail(400, E.INVALID_FIELD, 'CheckListResponseRequest must be a JSON object');

  const f = fields(body);
  const questionId = /** @type {number} */ (f.int('CheckListQuestionID', true));
  const providerId = /** @type {number} */ (f.int('ProviderID', true));
  const technicianId = /** @type {number} */ (f.int('TechnicianID', true));
  const entityId = /** @type {number} */ (f.int('EntityID', true));
  const attempt = /** @type {number} */ (f.int('Attempt', true));
  if (attempt < 1) {
    fail(400, E.ATTEMPT_INVALID, `Attempt must be 1 or greater: it is the ordinal of the technician's on-site visit (got ${attempt})`);
  }
  // CheckListQuestionOptionID; the sample spelling CheckListQuestionOptionId is the same name case-insensitively
  const optionId = f.int('CheckListQuestionOptionID');

  const wo = requireWo(emu, p, entityId);
  const checklist = emu.state.checklists.find(
    (c) => c.SubscriberId === wo.SubscriberId && c.Trade === wo.Trade && c.Category === wo.Category,
  );
  if (!checklist) {
    fail(400, E.NO_CHECKLIST, `No checklist is configured for trade '${wo.Trade}' and category '${wo.Category}' of work order ${wo.Id}`);
  }
  if (!checklist.QuestionIds.includes(questionId)) {
    fail(400, E.QUESTION_NOT_IN_CHECKLIST, `Question ${questionId} is not part of the checklist for trade '${wo.Trade}' and category '${wo.Category}' of work order ${wo.Id}`);
  }
  const subscriber = emu.state.subscribers[wo.SubscriberId];
  const location = emu.state.locations[wo.LocationId];
  if (subscriber.ChecklistsPerLocation && !location.ChecklistsEnabled) {
    fail(400, E.LOCATION_DISABLED, `Checklists are not enabled for location ${location.Id} (${location.Name}) of work order ${wo.Id}`);
  }
  if (providerId !== wo.ProviderId) {
    fail(400, E.PROVIDER_MISMATCH, `ProviderID ${providerId} is not the provider assigned to work order ${wo.Id}`);
  }
  const tech = emu.state.technicians[technicianId];
  if (!tech || tech.ProviderId !== providerId) {
    fail(400, E.PROVIDER_MISMATCH, `TechnicianID ${technicianId} is not a technician of provider ${providerId}`);
  }

  const question = emu.state.questions[questionId];
  const rawAnswer = f.get('Answer');
  const rawFree = f.get('FreeTextAnswer');
  if (rawFree !== undefined && typeof rawFree !== 'string') fail(400, E.INVALID_FIELD, 'FreeTextAnswer must be a string');
  const freeText = rawFree === undefined || rawFree.trim() === '' ? null : rawFree;
  if (freeText !== null && freeText.length > 500) fail(400, E.TEXT_TOO_LONG, 'FreeTextAnswer must be at most 500 characters');
  const answerText = () => {
    if (rawAnswer === undefined) return null;
    if (typeof rawAnswer === 'string') return rawAnswer.trim() === '' ? null : rawAnswer;
    if (typeof rawAnswer === 'number' || typeof rawAnswer === 'bigint' || typeof rawAnswer === 'boolean') return String(rawAnswer);
    return fail(400, E.INVALID_FIELD, 'Answer must be a string');
  };
  const typeName = ['Acknowledgement', 'Selector', 'Text Entry', '', 'Numeric Input'][question.QuestionType];
  if (question.QuestionType !== 1 && freeText !== null) {
    fail(400, E.FREE_TEXT_NOT_ALLOWED, `FreeTextAnswer is only allowed for Selector questions; question ${questionId} is ${typeName}`);
  }

  /** @type {string} */
  let answer;
  /** @type {number | null} */
  let returnedOption = null;
  /** @type {string | null} */
  let returnedFree = null;
  switch (question.QuestionType) {
    case 0: {
      const a = answerText();
      if (a === null) fail(400, E.ANSWER_REQUIRED, `Answer is required for Acknowledgement question ${questionId}`);
      const word = a.trim().toLowerCase();
      if (!ACK_WORDS.includes(word)) {
        fail(400, E.ACK_INVALID, `Answer for Acknowledgement question ${questionId} must be one of ${ACK_WORDS.join(', ')} (got '${a}')`);
      }
      answer = word;
      break;
    }
    case 1: {
      if (optionId === undefined) fail(400, E.OPTION_REQUIRED, `CheckListQuestionOptionID is required for Selector question ${questionId}`);
      const option = question.Options.find((/** @type {any} */ o) => o.Id === optionId);
      if (!option) fail(400, E.OPTION_INVALID, `Option ${optionId} is not an option of question ${questionId}`);
      if (option.IsConditionalFollowUp && freeText === null) {
        fail(400, E.FREE_TEXT_REQUIRED, `FreeTextAnswer is required for option ${option.Id} ('${option.Label}'), which has IsConditionalFollowUp = true`);
      }
      if (!option.IsConditionalFollowUp && freeText !== null) {
        fail(400, E.FREE_TEXT_NOT_ALLOWED, `FreeTextAnswer is not allowed for option ${option.Id} ('${option.Label}'), which has IsConditionalFollowUp = false`);
      }
      answer = option.Label;
      returnedOption = option.Id;
      returnedFree = freeText;
      break;
    }
    case 2: {
      const a = answerText();
      if (a === null) fail(400, E.ANSWER_REQUIRED, `Answer is required for Text Entry question ${questionId}`);
      if (a.length > 500) fail(400, E.TEXT_TOO_LONG, `Answer for Text Entry question ${questionId} must be at most 500 characters (got ${a.length})`);
      answer = a.toLowerCase();
      break;
    }
    case 4: {
      const a = answerText();
      if (a === null) fail(400, E.ANSWER_REQUIRED, `Answer is required for Numeric Input question ${questionId}`);
      if (typeof rawAnswer === 'boolean' || !NUMERIC_RE.test(a.trim())) {
        fail(400, E.NUMERIC_INVALID, `Answer for Numeric Input question ${questionId} must be a number (got '${a}')`);
      }
      answer = a.trim().replace(/^\+/, '');
      break;
    }
    default:
      return fail(400, E.INVALID_FIELD, `Question ${questionId} has an unsupported QuestionType`);
  }

  if (question.PictureFlag === 2 && (!file || file.size === 0)) {
    fail(400, E.FILE_REQUIRED, `Question ${questionId} requires a picture (PictureFlag 2): send a non-empty 'file' part`);
  }

  const now = emu.now();
  const id = emu._ids.checklistResponse++;
  const response = {
    CheckListQuestionId: questionId,
    CheckListQuestionOptionId: returnedOption,
    ProviderId: providerId,
    TechnicianId: technicianId,
    Id: id,
    Answer: answer,
    FreeTextAnswer: returnedFree,
    EntityId: entityId,
    EntityTypeId: 0,
    Attempt: attempt,
    UpdatedDate: emu.time.local(now),
    UpdatedDateDto: emu.time.dto(now),
  };
  let picture = {
    Id: 0,
    CheckListResponseId: 0,
    DocumentName: /** @type {string | null} */ (null),
    DocumentPath: /** @type {string | null} */ (null),
    ThumbnailPath: /** @type {string | null} */ (null),
    HasThumbnail: /** @type {boolean | null} */ (null),
    UpdatedBy: null,
  };
  /** @type {any} */
  let stored = null;
  if (file && file.size > 0) {
    stored = storeAttachment(emu, { wo, noteId: null, checkListResponseId: id, source: 'CheckListResponse', file, user: p.user });
    picture = {
      Id: emu._ids.picture++,
      CheckListResponseId: id,
      DocumentName: stored.FileName,
      DocumentPath: stored.DocumentPath,
      ThumbnailPath: stored.ThumbnailPath,
      HasThumbnail: stored.HasThumbnail,
      UpdatedBy: null,
    };
  }
  const answeredBefore = emu.state.checklistResponses.some(
    (r) => r.workOrderId === wo.Id && r.questionId === questionId && r.response.Attempt === attempt,
  );
  emu.state.checklistResponses.push({
    Id: id,
    workOrderId: wo.Id,
    questionId,
    questionType: question.QuestionType,
    request: body,
    response,
    picture,
    file: stored
      ? { filename: stored.FileName, contentType: stored.ContentType, size: stored.Size, sha256: stored.sha256, data: stored.data }
      : null,
    username: p.user.username,
    clientId: p.clientId,
  });
  events.checklistResponse(emu, answeredBefore, wo, response, p.user);
  return json(201, { CheckListResponse: response, CheckListResponsePicture: picture });
}

// ---- handlers: proposals -----------------------------------------------------------------------

const PROPOSAL_ACTIONS = {
  open: { status: 'Open', verb: 'reopened' },
  onhold: { status: 'OnHold', verb: 'put on hold' },
  approve: { status: 'Approved', verb: 'approved' },
  reject: { status: 'Rejected', verb: 'rejected' },
};

/** @param {'open' | 'onhold' | 'approve' | 'reject'} action @returns {Handler} */
function proposalStatus(action) {
  return (emu, ctx, p, params) => {
    const body = readJsonBody(ctx, { required: true });
    const f = fields(body);
    const comments = f.string('Comments');
    const providerEmails = f.emails('ProviderEmail');
    const userEmails = f.emails('UserEmail');
    const reasonCode = f.int('RejectReasonCodeId');
    const sourceRaw = f.string('ActionSource');
    const reasonString = f.string('ReasonString');
    let actionSource = null;
    if (sourceRaw !== undefined) {
      actionSource = ['Standard', 'DecisionEngine'].find((s) => s.toLowerCase() === sourceRaw.trim().toLowerCase()) || null;
      if (!actionSource) fail(400, E.BAD_ACTION_SOURCE, `ActionSource must be Standard or DecisionEngine (got '${sourceRaw}')`);
    }
    let reason = null;
    if (action === 'reject' && reasonCode !== undefined) {
      reason = emu.state.rejectionReasons.find((r) => r.Id === reasonCode);
      if (!reason) fail(400, E.BAD_REJECT_REASON, `RejectReasonCodeId ${reasonCode} is not a known rejection reason (see GET /proposals/RejectionReasons)`);
    }
    let useAlerts = false;
    if (action === 'reject') {
      const flag = queryParam(ctx, 'useProposalAlertEmails');
      if (flag !== undefined && flag !== '') {
        const v = String(flag).toLowerCase();
        if (v !== 'true' && v !== 'false') fail(400, E.BAD_QUERY_FLAG, `useProposalAlertEmails must be true or false (got '${flag}')`);
        useAlerts = v === 'true';
      }
    }

    const proposal = emu.state.proposals[params.proposalId];
    const visible =
      proposal && (p.providerId !== null ? proposal.ProviderId === p.providerId : proposal.SubscriberId === p.subscriberId);
    if (!visible) fail(404, E.PROPOSAL_NOT_FOUND, `Proposal ${params.proposalId} was not found`);
    const wo = proposal.WorkOrderId !== null ? emu.state.workOrders[proposal.WorkOrderId] : null;

    if (action === 'approve') {
      if (!wo) fail(409, E.NO_WORK_ORDER, `Proposal ${proposal.Id} cannot be approved: no work order is linked to it`);
      if (wo.IsInvoiced) fail(409, E.WO_INVOICED, `Proposal ${proposal.Id} cannot be approved: work order ${wo.Id} is already invoiced`);
      const limit = p.user.approvalLimit || 0;
      if (proposal.Amount > limit) {
        fail(403, E.OVER_APPROVAL_LIMIT, `Proposal ${proposal.Id} cannot be approved: its amount ${proposal.Amount} ${proposal.Currency} exceeds your approval limit of ${limit} ${proposal.Currency}`);
      }
    }

    const now = emu.now();
    const target = PROPOSAL_ACTIONS[action];
    const from = proposal.Status;
    proposal.Status = target.status;
    if (actionSource) proposal.ActionSource = actionSource;
    if (action === 'reject') proposal.RejectReasonCodeId = reasonCode !== undefined ? reasonCode : null;
    proposal.UpdatedDate = emu.time.local(now);
    proposal.UpdatedDateDto = emu.time.dto(now);

    /** @type {any} */
    let note = null;
    const useReason = action === 'approve' && reasonString !== undefined && reasonString.trim() !== '';
    const useComments = comments !== undefined && comments.trim() !== '';
    if (wo && (useReason || useComments)) {
      let text = `Proposal ${proposal.Number} ${target.verb}.`;
      if (useReason) text += ` Reason: ${reasonString}`;
      if (action === 'reject' && reason) text += ` Reject reason: ${reason.Description}.`;
      if (useComments) text += ` Comments: ${comments}`;
      note = addNote(emu, wo, p.user, text, { ProposalId: proposal.Id });
    }

    const provider = emu.state.providers[proposal.ProviderId];
    const subscriber = emu.state.subscribers[proposal.SubscriberId];
    const providerRecipients = providerEmails || [provider.Email];
    let userRecipients = userEmails || [p.user.email];
    const alertsUsed = action === 'reject' && useAlerts && !providerEmails && !userEmails;
    if (alertsUsed) userRecipients = [...subscriber.ProposalAlertEmails];
    const notification = {
      type: 'proposal',
      proposalId: proposal.Id,
      action,
      status: target.status,
      recipients: [...new Set([...providerRecipients, ...userRecipients])],
      providerRecipients,
      userRecipients,
      useProposalAlertEmails: alertsUsed,
      at: emu.time.dto(now),
    };
    emu.state.notifications.push(notification);
    proposal.history.push({
      action,
      from,
      to: target.status,
      at: emu.time.dto(now),
      by: p.user.username,
      comments: comments ?? null,
      reasonString: reasonString ?? null,
      rejectReasonCodeId: action === 'reject' ? reasonCode ?? null : null,
      actionSource,
      providerEmail: providerEmails ? providerEmails.join(';') : null,
      userEmail: userEmails ? userEmails.join(';') : null,
      noteId: note ? note.Id : null,
      recipients: notification.recipients,
    });
    events.proposalEvent(emu, events.PROPOSAL_STATUS_EVENTS[target.status], proposal, p.user);
    return empty(204);
  };
}

/** @type {Handler} */
function rejectionReasons(emu) {
  return json(200, emu.state.rejectionReasons);
}

/** @type {Handler} */
function subsidiaries(emu, ctx, p) {
  const list = (p.user.children || []).map((/** @type {number} */ id) => {
    const s = emu.state.subscribers[id];
    return { Id: s.Id, Name: s.Name, ParentId: s.ParentId, IsActive: true };
  });
  return json(200, list);
}

// ---- routing ---------------------------------------------------------------------------------

/**
 * @typedef {{ kind: 'literal', value: string } | { kind: 'param', name: string } | { kind: 'call', prefix: string, name: string }} SegMatcher
 * @typedef {{ method: string, pattern: string, segs: SegMatcher[], handler: Handler, perm: string | null }} Route
 */

/** @param {string} pattern @returns {SegMatcher[]} */
function compile(pattern) {
  return pattern.split('/').map((seg) => {
    let m;
    if ((m = /^\{(\w+)\}$/.exec(seg))) return { kind: /** @type {const} */ ('param'), name: m[1] };
    if ((m = /^([\w.]+)\(\{(\w+)\}\)$/.exec(seg))) return { kind: /** @type {const} */ ('call'), prefix: m[1].toLowerCase(), name: m[2] };
    return { kind: /** @type {const} */ ('literal'), value: seg.toLowerCase() };
  });
}

/** @type {Route[]} */
const ROUTES = /** @type {Array<[string, string, Handler, string | null]>} */ ([
  ...require('./api-workorder-writes').ROUTES,
  ...require('./api-checklists').ROUTES,
  ['GET', 'workorders', listWorkOrders, 'workorders.read'],
  ['GET', 'workorders/{woId}', getWorkOrder, 'workorders.read'],
  ['GET', 'workorders/{woId}/notes', listNotes, 'workorders.read'],
  ['POST', 'workorders/{woId}/notes', createNote, 'notes.write'],
  ['POST', 'workorders/{woId}/notes/{noteId}/attachments', createNoteAttachment, 'notes.write'],
  ['POST', 'workorders/{woId}/universalCheckIn', checkInOut('CheckIn'), 'checkin'],
  ['POST', 'workorders/{woId}/universalCheckOut', checkInOut('CheckOut'), 'checkin'],
  ['GET', 'odata/workorders', odataWorkOrders, 'workorders.read'],
  ['GET', 'odata/workorders/Service.NearBy({args})', odataNearBy, 'workorders.read'],
  ['GET', 'odata/workorders({woId})', odataWorkOrder, 'workorders.read'],
  ['GET', 'odata/workorders({woId})/notes', odataNotes, 'workorders.read'],
  ['GET', 'odata/workorders({woId})/notes({noteId})', odataNote, 'workorders.read'],
  ['GET', 'odata/workorders({woId})/notes({noteId})/attachments', odataNoteAttachments, 'workorders.read'],
  ['GET', 'odata/workorders({woId})/attachments', odataWoAttachments, 'workorders.read'],
  ['GET', 'odata/workorders({woId})/Service.CheckInActivity()', odataCheckIns, 'workorders.read'],
  ['GET', 'odata/locations({locationId})/workorders', odataLocationWorkOrders, 'workorders.read'],
  ['GET', 'odata/locations({locationId})/workorders/Service.GetDuplicates()', odataDuplicates, 'workorders.read'],
  ['GET', 'odata/locations({locationId})/workorders/Service.GetRecalls()', odataRecalls, 'workorders.read'],
  ['POST', 'checklists/CheckListResponse', postChecklistResponse, 'checklists.respond'],
  ['GET', 'proposals/RejectionReasons', rejectionReasons, null],
  ['PUT', 'proposals/{proposalId}/open', proposalStatus('open'), 'proposals.status'],
  ['PUT', 'proposals/{proposalId}/onhold', proposalStatus('onhold'), 'proposals.status'],
  ['PUT', 'proposals/{proposalId}/approve', proposalStatus('approve'), 'proposals.status'],
  ['PUT', 'proposals/{proposalId}/reject', proposalStatus('reject'), 'proposals.status'],
  ['GET', 'subscribers/current/subsidiaries', subsidiaries, 'subsidiaries.read'],
  ...WEBHOOK_ROUTES,
  ...PROPOSAL_ROUTES,
  ...FILE_ROUTES,
]).map(([method, pattern, handler, perm]) => ({ method, pattern, segs: compile(pattern), handler, perm }));

/**
 * @param {SegMatcher[]} segs @param {string[]} path
 * @returns {Record<string, string> | null}
 */
function match(segs, path) {
  if (segs.length !== path.length) return null;
  /** @type {Record<string, string>} */
  const params = {};
  for (let i = 0; i < segs.length; i++) {
    const s = segs[i];
    const v = path[i];
    if (s.kind === 'literal') {
      if (v.toLowerCase() !== s.value) return null;
    } else if (s.kind === 'param') {
      if (v === '') return null;
      params[s.name] = v;
    } else {
      const lower = v.toLowerCase();
      if (!lower.startsWith(`${s.prefix}(`) || !v.endsWith(')')) return null;
      params[s.name] = v.slice(s.prefix.length + 1, -1);
    }
  }
  return params;
}

/** @param {string} name @param {string} raw */
function parseParam(name, raw) {
  if (name === 'args') return raw;
  const text = raw.trim();
  if (name === 'noteId') {
    if (!/^\d{1,19}$/.test(text)) fail(400, E.BAD_PATH, `noteId must be a non-negative 64-bit integer, got '${raw}'`);
    const v = BigInt(text);
    if (v > MAX_INT64) fail(400, E.BAD_PATH, `noteId ${raw} is out of the int64 range`);
    return v;
  }
  if (!/^\d{1,10}$/.test(text) || Number(text) > 2147483647) {
    fail(400, E.BAD_PATH, `${name} must be a positive 32-bit integer, got '${raw}'`);
  }
  return Number(text);
}

/**
 * @param {Emulator} emu @param {RequestContext} ctx @param {any} rec token record or undefined
 * @returns {Principal}
 */
function authenticate(emu, ctx, rec) {
  const header = ctx.headers.authorization;
  /** @param {number} code @param {string} msg @returns {never} */
  const deny = (code, msg) =>
    fail(401, E.SECURITY, msg, { extraCodes: [code], headers: { 'www-authenticate': 'Bearer realm="work-order-service", error="invalid_token"' } });
  if (!header) deny(E.NO_TOKEN, 'Authorization has been denied for this request: Authorization: Bearer <ACCESS_TOKEN> is required');
  if (!/^Bearer\s+\S+$/i.test(header)) deny(E.NO_TOKEN, 'Authorization has been denied for this request: the Authorization header must be "Bearer <ACCESS_TOKEN>"');
  if (!rec) deny(E.BAD_TOKEN, 'Authorization has been denied for this request: the access token is invalid');
  if (rec.revoked) deny(E.REVOKED_TOKEN, 'Authorization has been denied for this request: the access token has been revoked');
  if (emu.now() >= rec.expiresAt) deny(E.EXPIRED_TOKEN, 'Authorization has been denied for this request: the access token has expired');
  const user = emu.state.users[rec.username];
  return {
    user,
    clientId: rec.clientId,
    tokenKind: rec.kind,
    subscriberId: rec.subscriberId,
    providerId: user.kind === 'contractor' ? user.providerId : null,
    scope: rec.scope,
  };
}

/**
 * @param {Emulator} emu @param {RequestContext} ctx @param {string[]} rest segments after "api"
 */
function handleApi(emu, ctx, rest) {
  if (rest.length === 0 || rest[0].toLowerCase() !== 'v3') {
    return apiError(404, E.NO_ROUTE, `No resource matches ${ctx.method} ${ctx.path} (the API lives under /v3)`);
  }
  const segs = rest.slice(1);
  const header = ctx.headers.authorization || '';
  const bearer = /^Bearer\s+(\S+)$/i.exec(header);
  const rec = bearer ? emu._tokens.get(bearer[1]) : undefined;
  if (rec) {
    ctx.log.clientId = rec.clientId;
    ctx.log.username = rec.username;
    ctx.log.tokenKind = rec.kind;
    const throttled = emu._rateLimit(rec.clientId);
    if (throttled) {
      ctx.log.throttled = true;
      return throttled;
    }
  }
  /** @type {Route | null} */
  let route = null;
  /** @type {Record<string, string>} */
  let rawParams = {};
  const allowed = new Set();
  for (const r of ROUTES) {
    const m = match(r.segs, segs);
    if (!m) continue;
    if (r.method === ctx.method) {
      route = r;
      rawParams = m;
      break;
    }
    allowed.add(r.method);
  }
  if (!route) {
    if (allowed.size) {
      return apiError(405, E.METHOD_NOT_ALLOWED, `Method ${ctx.method} is not allowed on ${ctx.path}`, {
        headers: { allow: [...allowed].join(', ') },
      });
    }
    return apiError(404, E.NO_ROUTE, `No resource matches ${ctx.method} ${ctx.path}`);
  }
  const principal = authenticate(emu, ctx, rec);
  if (route.perm && !principal.user.permissions.includes(route.perm)) {
    fail(401, E.SECURITY, `The request was rejected by security permissions: user ${principal.user.username} lacks the permission '${route.perm}'`, {
      extraCodes: [E.NO_PERMISSION],
    });
  }
  /** @type {Record<string, any>} */
  const params = {};
  for (const [k, v] of Object.entries(rawParams)) params[k] = parseParam(k, v);
  return route.handler(emu, ctx, principal, params);
}

module.exports = { handleApi, ROUTES, publicNote, publicAttachment, Reply, storeAttachment };
