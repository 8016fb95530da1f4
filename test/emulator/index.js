// @ts-check
'use strict';

/**
 * Local emulator of the Work Order Service REST API (see README.md beside this file).
 *
 *   const { startEmulator } = require('./test/emulator');
 *   const emu = await startEmulator({ port: 0 });
 *   // emu.baseUrl = http://127.0.0.1:PORT/api   (API under emu.baseUrl + '/v3/...')
 *   // emu.authUrl = http://127.0.0.1:PORT/auth  (/oauth/token, /oauth/authorize, /jwt/token)
 *   await emu.close();
 *
 * Plain Node 20, no dependencies.
 */

const http = require('node:http');
const crypto = require('node:crypto');
const { buildSeed } = require('./fixtures');
const { handleAuth } = require('./auth');
const { handleApi } = require('./api');
const { parseMultipart } = require('./multipart');
const { ServiceTime } = require('./service-time');
const { createWorkOrders, updateWorkOrders, WorkOrderError } = require('./workorders');
const {
	Webhooks,
	WebhookError,
	technicianAssigned,
	proposalEvent,
	PROPOSAL_STATUS_EVENTS,
} = require('./webhooks');
const {
	Reply,
	E,
	json,
	apiError,
	textResponse,
	mediaType,
	stringify,
	parse,
} = require('./http-util');
const { markIdOrdered } = require('./odata');
const { SERVICE_TIME_ZONE } = require('./fixtures');
const { timeIn, WORK_ORDER_DATES } = require('./wo-record');
const { storeNote } = require('./notes');
const places = require('./places');
const contract = require('../contract/observe');
const invoices = require('./invoices');

/**
 * @typedef {import('./http-util').Response} Response
 * @typedef {{
 *   seq: number, time: string, startedMs: number, method: string, rawPath: string, path: string, query: Record<string, any>,
 *   headers: Record<string, any>, body: any, rawBody: Buffer | undefined, bodySize: number,
 *   parts: any[] | undefined, status: number | null, clientId: string | null, username: string | null,
 *   tokenKind: string | null, injected?: boolean, dropped?: boolean, throttled?: boolean, error?: string,
 *   durationMs?: number, processedStatus?: number, responseHeaders?: Record<string, any>, responseBody?: string,
 *   bodyError?: string
 * }} LogEntry
 * @typedef {{
 *   req: import('node:http').IncomingMessage, method: string, rawPath: string, path: string, segments: string[],
 *   badPath: string | null, query: Record<string, any>, searchParams: URLSearchParams, headers: Record<string, any>,
 *   body: Buffer, multipart: { parts?: import('./multipart').Part[], error?: string } | null, log: LogEntry
 * }} RequestContext
 * @typedef {{ method?: string, path?: string | RegExp, status?: number, body?: any, contentType?: string,
 *   headers?: Record<string, string>, count?: number, afterProcessing?: boolean }} FaultSpec
 */

const DEFAULTS = {
	port: 0,
	host: '127.0.0.1',
	accessTokenTtl: 600,
	refreshTokenTtl: 30 * 86400,
	jwtTtl: 14400,
	logBodies: true,
	workOrderCount: 120,
	maxBodyBytes: 512 * 1024 * 1024,
	/** @type {string | number | undefined} IANA zone ('Europe/Berlin'), 'UTC' or a fixed offset ('+01:00'); default US Eastern (America/New_York) */
	serviceTimeZone: /** @type {string | number | undefined} */ (undefined),
	/** write the offset twins of work order dates (`X_DTO`) in the location's zone (true, default) or the service's */
	twinsInLocationZone: true,
	/** @type {Partial<ReturnType<typeof defaultAnswers>>} answers the reference documents without a body (setAnswers) */
	answers: {},
	/** @type {number | undefined} fixed offset of the service's local time in minutes (alternative to serviceTimeZone) */
	utcOffsetMinutes: /** @type {number | undefined} */ (undefined),
	/** the service clock runs this many ms ahead of real time (negative: behind) from the start */
	clockSkewMs: 0,
	/** precision of the dates the service writes, in ms: 1 (default) or 1000 (deployed instances: whole seconds) */
	datePrecisionMs: 1,
};

function defaultFaults() {
	return {
		latencyMs: 0,
		/** extra delay, uniformly random in [0, latencyJitterMs), added to latencyMs per request */
		latencyJitterMs: 0,
		/** @type {null | { limit: number, windowMs: number, status?: number, retryAfter?: 'seconds' | 'date' | 'none', retryAfterSeconds?: number }} */
		rateLimit: null,
		/** @type {null | { perUserMs: number, retryAfter?: 'seconds' | 'date' | 'none', retryAfterSeconds?: number }} */
		tokenRateLimit: null,
		badClientRedirect: false,
		/** hide notes created less than this many ms ago (emulator clock) from reads, like a lagging replica */
		replicaLagMs: 0,
	};
}

/**
 * How the emulator answers where the reference documents no body ("maybe the ID, maybe nothing"):
 *   noteCreated: 'id' (the new note ID as a bare int64), 'object' ({ "Id": n }), 'empty', 'location'
 *     (empty, with a Location header);
 *   noteAttachmentsCreated: 'ids' (a JSON array of the new attachment IDs) or 'empty'.
 */
function defaultAnswers() {
	return {
		/** @type {'id' | 'object' | 'empty' | 'location'} */
		noteCreated: 'id',
		/** @type {'ids' | 'empty'} */
		noteAttachmentsCreated: 'ids',
	};
}

const PARSE_LIMIT = 16 * 1024 * 1024;

class Emulator {
	/** @param {Partial<typeof DEFAULTS>} [options] */
	constructor(options = {}) {
		this.options = { ...DEFAULTS, ...options };
		if (this.options.serviceTimeZone !== undefined && this.options.utcOffsetMinutes !== undefined) {
			throw new Error('give serviceTimeZone or utcOffsetMinutes, not both');
		}
		/** the service's time zone: X = its local time without offset, XDto = with offset */
		this.time = new ServiceTime(
			this.options.utcOffsetMinutes !== undefined
				? this.options.utcOffsetMinutes
				: (this.options.serviceTimeZone ?? SERVICE_TIME_ZONE),
		);
		this.answers = defaultAnswers();
		this.setAnswers(this.options.answers || {});
		if (!Number.isFinite(Number(this.options.clockSkewMs || 0)))
			throw new Error(`clockSkewMs must be a number of milliseconds`);
		this._clockOffsetMs = Number(this.options.clockSkewMs || 0);
		this.datePrecisionMs = 1;
		this.setDatePrecision(this.options.datePrecisionMs);
		this.ttl = {
			access: this.options.accessTokenTtl,
			refresh: this.options.refreshTokenTtl,
			jwt: this.options.jwtTtl,
		};
		/** @type {LogEntry[]} */
		this.requests = [];
		this._seq = 0;
		const seed = buildSeed({
			workOrderCount: this.options.workOrderCount,
			now: this.writtenInstant(this.now()),
			time: this.time,
			twinsInLocationZone: this.options.twinsInLocationZone !== false,
		});
		this.state = seed.state;
		/** @type {any[] | null} every work order in Id order, kept until one is added or removed */
		this._workOrderList = null;
		/** @type {Map<string, any[]>} the work orders a principal sees, kept until a work order changes */
		this._visibleWorkOrders = new Map();
		/** the stored work orders without the proxy (enumerating through a proxy is slow) */
		this._workOrderStore = this.state.workOrders;
		this.state.workOrders = trackKeys(this.state.workOrders, () => {
			this._workOrderList = null;
			this._visibleWorkOrders.clear();
		});
		this.fixtures = seed.fixtures;
		this.faults = defaultFaults();
		/** @type {Map<string, any>} access tokens and JWTs */
		this._tokens = new Map();
		/** @type {Map<string, any>} refresh tokens (OAuth and JWT) */
		this._refresh = new Map();
		/** @type {Map<string, any>} */
		this._codes = new Map();
		/** @type {Map<string, string>} */
		this._sessions = new Map();
		/** @type {Map<string, number>} */
		this._tokenWindow = new Map();
		/** @type {Map<string, number[]>} */
		this._rate = new Map();
		/** @type {Array<FaultSpec & { kind: 'fail' | 'drop', remaining: number }>} */
		this._faultQueue = [];
		this._jwtSecret = crypto.randomBytes(32);
		this._ids = {
			checklistResponse: 5500001,
			picture: 7700001,
			attachment: 880101,
			checkIn: 770001,
			note: 9007199254741000n,
			workOrder: this.fixtures.workOrders.firstNewId,
		};
		/** @type {import('node:http').Server | null} */
		this.server = null;
		/** @type {Set<import('node:net').Socket>} */
		this._sockets = new Set();
		this.origin = '';
		this.baseUrl = '';
		this.authUrl = '';
		this.port = 0;
		/** @type {null | ((entry: LogEntry) => void)} called after each logged request was answered or dropped */
		this.onResponse = null;
		/** event notifications: webhooks, signing keys, deliveries (webhooks.js) */
		this.webhooks = new Webhooks(this);
		/** invoices (part C of the reference): invoices.js, routes in api-invoices.js */
		this.invoices = new invoices.Invoices(this);
		this.fixtures.invoices = { ...this.invoices.fixtures };
	}

	// ---- clock ---------------------------------------------------------------------------------

	/**
	 * The service clock in ms: real time plus clockSkewMs plus advanceTime offsets. Token expiry, rate
	 * windows, the Date header and every date the service writes (UpdatedDate, DateCreated, ...) use it.
	 */
	now() {
		return Date.now() + this._clockOffsetMs;
	}

	/** Moves the service clock forward (negative: back) by `seconds`. @param {number} seconds */
	advanceTime(seconds) {
		this._clockOffsetMs += seconds * 1000;
	}

	/** How far the service clock is ahead of real time (ms; negative = behind). */
	get clockSkewMs() {
		return this._clockOffsetMs;
	}

	/** Sets the service clock to real time + `ms` (absolute; advanceTime adds to it). @param {number} ms */
	setClockSkew(ms) {
		if (!Number.isFinite(ms)) throw new Error('setClockSkew(ms): ms must be a finite number');
		this._clockOffsetMs = ms;
	}

	/**
	 * Precision of the dates the service writes from now on (work orders' dates): 1 ms, or 1000 for
	 * whole seconds as deployed instances write them (two changes within one second then share one
	 * UpdatedDate). @param {number} ms a whole number from 1 to 60000
	 */
	setDatePrecision(ms) {
		if (!Number.isInteger(ms) || ms < 1 || ms > 60000)
			throw new Error(`datePrecisionMs must be a whole number of ms from 1 to 60000, got ${ms}`);
		this.datePrecisionMs = ms;
	}

	/** An instant as the service writes it: cut to the date precision. @param {number} ms */
	writtenInstant(ms) {
		const p = this.datePrecisionMs;
		return p > 1 ? ms - (((ms % p) + p) % p) : ms;
	}

	/**
	 * How dates are written: plain ones in the service's zone, the offset twins of a location's
	 * records in the location's zone (unless twinsInLocationZone is false), cut to the precision.
	 * @returns {import('./wo-record').Clock}
	 */
	get clock() {
		return {
			service: this.time,
			twin: (locationId) => this._twinTime(locationId),
			precision: (ms) => this.writtenInstant(ms),
		};
	}

	/** The zone the twins of a location's records are written in. @param {number} locationId */
	_twinTime(locationId) {
		const loc =
			this.options.twinsInLocationZone === false ? undefined : this.state.locations[locationId];
		return loc && loc.TimeZone ? timeIn(loc.TimeZone) : this.time;
	}

	/**
	 * How the answers the reference documents without a body come (see defaultAnswers): e.g.
	 * `setAnswers({ noteCreated: 'empty' })`. Returns the current switches.
	 * @param {Partial<ReturnType<typeof defaultAnswers>>} partial
	 */
	setAnswers(partial) {
		const allowed = {
			noteCreated: ['id', 'object', 'empty', 'location'],
			noteAttachmentsCreated: ['ids', 'empty'],
		};
		for (const [k, v] of Object.entries(partial || {})) {
			const values = /** @type {Record<string, string[]>} */ (allowed)[k];
			if (!values)
				throw new WorkOrderError(
					`unknown answer switch '${k}' (switches: ${Object.keys(allowed).join(', ')})`,
				);
			if (!values.includes(/** @type {any} */ (v)))
				throw new WorkOrderError(`${k} must be one of ${values.join(', ')}`);
			/** @type {any} */ (this.answers)[k] = v;
		}
		return { ...this.answers };
	}

	/** Name of the service's time zone ('UTC', 'Europe/Berlin', '+05:30'). */
	get serviceTimeZone() {
		return this.time.name;
	}

	/**
	 * Changes the service's time zone; every stored date (work orders, notes, attachments, check-ins,
	 * proposals, checklist responses) is rewritten for it from its instant (XDto).
	 * @param {string | number} zone IANA name, 'UTC', '+01:00', or minutes east of UTC
	 */
	setServiceTimeZone(zone) {
		const old = this.time;
		const next = new ServiceTime(zone);
		/** @param {string | null} text @returns {number | null} */
		const instant = (text) => {
			const ticks = typeof text === 'string' ? old.parseTicks(text) : null;
			return ticks === null ? null : Number(ticks / 10000n);
		};
		const s = this.state;
		this.time = next;
		for (const wo of Object.values(s.workOrders)) {
			for (const name of WORK_ORDER_DATES) {
				const ms = instant(wo[`${name}_DTO`] ?? wo[name]);
				if (ms === null) continue;
				wo[name] = next.local(ms);
				if (`${name}_DTO` in wo) wo[`${name}_DTO`] = this._twinTime(wo.LocationId).dto(ms);
			}
		}
		for (const list of Object.values(s.notes)) {
			for (const n of list) {
				n.DateCreated = next.local(n._at);
				for (const k of ['ScheduledDate', 'FollowUpDate']) {
					const ms = instant(n[k]);
					if (ms !== null) n[k] = next.local(ms);
				}
			}
		}
		for (const a of s.attachments) if (typeof a._at === 'number') a.TimeStamp = next.local(a._at);
		/** @param {any} obj (records that keep the `X` / `XDto` pair) */
		const rewrite = (obj) => {
			for (const key of Object.keys(obj || {})) {
				if (!key.endsWith('Dto') || typeof obj[key] !== 'string' || !(key.slice(0, -3) in obj))
					continue;
				const ms = instant(obj[key]);
				if (ms === null) continue;
				obj[key.slice(0, -3)] = next.local(ms);
				if (obj.EntityId === undefined) obj[key] = next.dto(ms);
			}
		};
		Object.values(s.proposals).forEach(rewrite);
		s.checklistResponses.forEach((r) => rewrite(r.response));
	}

	/** `X` (service local time, no offset) and `XDto` (with offset) of an instant. @param {number | Date | string} [at] default now() */
	formatDate(at) {
		const ms = at === undefined ? this.now() : this.parseDate(at);
		return {
			local: this.time.local(ms),
			dto: this.time.dto(ms),
			offset: this.time.offsetString(ms),
		};
	}

	/** Instant (ms) of epoch ms, a Date, or ISO 8601 text (no offset = the service's local time). @param {number | Date | string} value */
	parseDate(value) {
		if (value instanceof Date) return value.getTime();
		if (typeof value === 'number') return value;
		return this.time.parse(value);
	}

	// ---- work orders that change while a trigger polls -----------------------------------------

	/**
	 * Creates a work order; returns the stored record. Fields not given get defaults (README.md);
	 * dates not given are now() (CallDate = CreatedDate = UpdatedDate; ScheduledDate 48 h later).
	 * @param {Record<string, any>} [partial]
	 */
	createWorkOrder(partial = {}) {
		return createWorkOrders(this, [partial])[0];
	}

	/**
	 * Creates several work orders at one instant (all or none). @param {Array<Record<string, any>>} partials
	 */
	createWorkOrders(partials) {
		return createWorkOrders(this, partials);
	}

	/**
	 * Changes a work order; UpdatedDate becomes now() unless `changes` gives UpdatedDate(Dto).
	 * @param {number | string} id @param {Record<string, any>} [changes]
	 */
	updateWorkOrder(id, changes = {}) {
		return updateWorkOrders(this, [id], changes)[0];
	}

	/**
	 * Applies the same changes to several work orders at one instant (identical UpdatedDate).
	 * @param {Array<number | string>} ids @param {Record<string, any>} [changes]
	 */
	updateWorkOrders(ids, changes = {}) {
		return updateWorkOrders(this, ids, changes);
	}

	/**
	 * @param {number | string} id @param {string} primary
	 * @param {string | null} [extended] undefined keeps the current Extended status
	 * @param {Record<string, any>} [changes] more changes (e.g. { UpdatedDate })
	 */
	setWorkOrderStatus(id, primary, extended, changes = {}) {
		/** @type {Record<string, any>} */
		const status = { Primary: primary };
		if (extended !== undefined) status.Extended = extended;
		return updateWorkOrders(this, [id], { ...changes, Status: status })[0];
	}

	/** The stored work order (live object) or undefined. @param {number | string} id */
	workOrder(id) {
		return this.state.workOrders[Number(id)];
	}

	// ---- webhooks (event notifications) ---------------------------------------------------------

	/** Every delivery attempt so far (webhooks.js `Delivery`), in the order they ended. */
	get deliveries() {
		return this.webhooks.deliveries;
	}

	/**
	 * Delivery switches: `retryDelayMs`, `maxAttempts`, `timeoutMs`, `failureLimit`, `disableMs`,
	 * `signWithDecodedKey`, `deliverTwice`, `signature` ('valid' | 'wrong' | 'missing').
	 * @param {Record<string, any>} options
	 */
	setWebhookOptions(options) {
		return this.webhooks.setOptions(options);
	}

	/** Gives a user (key of fixtures.users or user name) the admin right for webhooks, or takes it. @param {string} who @param {boolean} admin */
	setWebhookAdmin(who, admin) {
		const user = this._user(who);
		user.webhookAdmin = !!admin;
		return user.webhookAdmin;
	}

	/** @param {string} who fixtures.users key or user name */
	_user(who) {
		const fixture = this.fixtures.users[who];
		const user = this.state.users[(fixture ? fixture.username : String(who)).toLowerCase()];
		if (!user) throw new WorkOrderError(`unknown user ${who}`, 404);
		return user;
	}

	/** Raises any event (as the service would) for the given accounts. @param {string} eventType @param {{ object: any, subscriberId?: number, providerId?: number, action?: string, type?: string }} e */
	emitWebhookEvent(eventType, e) {
		return this.webhooks.raise(eventType, e);
	}

	/** Waits until no delivery is in flight. */
	webhooksIdle() {
		return this.webhooks.idle();
	}

	/** Adds a note to a work order as `user` (fixtures.users key; default the subscriber); raises WorkOrderNoteAdded. @param {number} workOrderId @param {string} text @param {string} [who] */
	addNote(workOrderId, text, who = 'subscriber') {
		const wo = this.workOrder(workOrderId);
		if (!wo) throw new WorkOrderError(`work order ${workOrderId} does not exist`, 404);
		return storeNote(this, wo, this._user(who), text);
	}

	/**
	 * Writes a location note under a header (places.js): a new header raises
	 * LocationNoteHeaderCreated, a known one LocationNoteHeaderUpdated; both LocationNotesChanged.
	 * @param {number} locationId @param {string} header @param {string} value @param {string} [who] fixtures.users key
	 */
	writeLocationNote(locationId, header, value, who) {
		const loc = this.state.locations[Number(locationId)];
		if (!loc) throw new WorkOrderError(`location ${locationId} does not exist`, 404);
		if (typeof header !== 'string' || header.trim() === '')
			throw new WorkOrderError('header must be a non-empty text');
		return places.writeLocationNote(
			this,
			loc,
			header,
			String(value ?? ''),
			who ? this._user(who) : undefined,
		).note;
	}

	/** Removes a location note header (LocationNoteHeaderDeleted, LocationNotesChanged). @param {number} locationId @param {string} header */
	deleteLocationNote(locationId, header) {
		const loc = this.state.locations[Number(locationId)];
		if (!loc) throw new WorkOrderError(`location ${locationId} does not exist`, 404);
		return places.deleteLocationNote(this, loc, header);
	}

	/** Changes a location (Name, City, State, Latitude, Longitude); raises LocationUpdated. @param {number} locationId @param {Record<string, any>} changes */
	updateLocation(locationId, changes) {
		const loc = this.state.locations[Number(locationId)];
		if (!loc) throw new WorkOrderError(`location ${locationId} does not exist`, 404);
		try {
			return places.updateLocation(this, loc, changes);
		} catch (e) {
			throw new WorkOrderError(/** @type {Error} */ (e).message);
		}
	}

	/** Adds an asset at a location; raises AssetCreated. @param {{ LocationId: number } & Record<string, any>} partial */
	createAsset(partial) {
		try {
			return places.createAsset(this, partial);
		} catch (e) {
			throw new WorkOrderError(/** @type {Error} */ (e).message);
		}
	}

	/** Changes an asset (Trade, Type, Manufacturer, ModelNo, SerialNo, Tag, Area, Active, UsesRefrigerant); raises AssetUpdated. @param {number} assetId @param {Record<string, any>} [changes] */
	updateAsset(assetId, changes = {}) {
		const a = this.state.assets[Number(assetId)];
		if (!a) throw new WorkOrderError(`asset ${assetId} does not exist`, 404);
		try {
			return places.updateAsset(this, a, changes);
		} catch (e) {
			throw new WorkOrderError(/** @type {Error} */ (e).message);
		}
	}

	/** Raises WorkOrderTechnicianAssigned (the work order record has no technician field). @param {number} workOrderId @param {number} technicianId */
	assignTechnician(workOrderId, technicianId) {
		const wo = this.workOrder(workOrderId);
		if (!wo) throw new WorkOrderError(`work order ${workOrderId} does not exist`, 404);
		const tech = this.state.technicians[technicianId];
		if (!tech || tech.ProviderId !== wo.ProviderId)
			throw new WorkOrderError(
				`technician ${technicianId} does not work for provider ${wo.ProviderId}`,
			);
		technicianAssigned(this, wo, technicianId);
		return { workOrderId: wo.Id, technicianId };
	}

	/**
	 * Creates a proposal (status Open) for a work order; raises ProposalCreated.
	 * @param {{ WorkOrderId: number, Amount?: number, Description?: string, Id?: number }} partial
	 */
	createProposal(partial) {
		const wo = this.workOrder(partial.WorkOrderId);
		if (!wo) throw new WorkOrderError(`work order ${partial.WorkOrderId} does not exist`, 404);
		const ids = Object.keys(this.state.proposals).map(Number);
		const id = partial.Id ?? Math.max(...ids, 61000) + 1;
		if (this.state.proposals[id]) throw new WorkOrderError(`proposal ${id} already exists`, 409);
		const now = this.now();
		const proposal = {
			Id: id,
			Number: `P-${id}`,
			SubscriberId: wo.SubscriberId,
			ProviderId: wo.ProviderId,
			WorkOrderId: wo.Id,
			Amount: partial.Amount ?? 1000,
			Currency: 'USD',
			Description: partial.Description ?? `Proposal for work order ${wo.Id}`,
			Status: 'Open',
			RejectReasonCodeId: null,
			ActionSource: null,
			CreatedDate: this.time.local(now),
			CreatedDateDto: this.time.dto(now),
			history: [
				{ action: 'create', from: null, to: 'Open', at: this.time.dto(now), by: 'emulator' },
			],
		};
		this.state.proposals[id] = proposal;
		proposalEvent(this, 'ProposalCreated', proposal);
		return proposal;
	}

	/** Moves a proposal to a status (Open, OnHold, Approved, Rejected, Voided); raises its event. @param {number} id @param {string} status */
	setProposalStatus(id, status) {
		const proposal = this.state.proposals[Number(id)];
		if (!proposal) throw new WorkOrderError(`proposal ${id} does not exist`, 404);
		const event = /** @type {Record<string, string>} */ (PROPOSAL_STATUS_EVENTS)[status];
		if (!event)
			throw new WorkOrderError(
				`status must be one of ${Object.keys(PROPOSAL_STATUS_EVENTS).join(', ')}`,
			);
		const now = this.now();
		proposal.history.push({
			action: 'emulator',
			from: proposal.Status,
			to: status,
			at: this.time.dto(now),
			by: 'emulator',
		});
		proposal.Status = status;
		proposal.UpdatedDate = this.time.local(now);
		proposal.UpdatedDateDto = this.time.dto(now);
		proposalEvent(this, event, proposal);
		return proposal;
	}

	/**
	 * Every stored work order in Id order (the stored objects). Cached: enumerating an object with
	 * 50,000 integer keys on every page read is what made large tenants slow.
	 * @returns {any[]}
	 */
	workOrderList() {
		if (!this._workOrderList)
			this._workOrderList = markIdOrdered(Object.values(this._workOrderStore));
		return this._workOrderList;
	}

	/**
	 * The work orders `visible` lets through, in Id order (cached per `key` until a work order is
	 * created or changed; callers must not modify the list).
	 * @param {string} key @param {(wo: any) => boolean} visible
	 * @returns {any[]}
	 */
	visibleWorkOrderList(key, visible) {
		let list = this._visibleWorkOrders.get(key);
		if (!list) {
			list = markIdOrdered(this.workOrderList().filter(visible));
			this._visibleWorkOrders.set(key, list);
		}
		return list;
	}

	/** A work order was created or changed: cached lists are rebuilt on the next read. */
	_workOrdersChanged() {
		this._visibleWorkOrders.clear();
	}

	// ---- lifecycle -----------------------------------------------------------------------------

	async listen() {
		const server = http.createServer((req, res) => {
			this._handle(req, res).catch((err) => {
				try {
					if (!res.headersSent) {
						res.writeHead(500, { 'content-type': 'application/json' });
						res.end(
							JSON.stringify({
								ErrorCodes: [E.INTERNAL],
								ErrorCode: E.INTERNAL,
								ErrorMessage: String(err && err.message),
							}),
						);
					} else res.destroy();
				} catch {
					/* ignore */
				}
			});
		});
		server.on('connection', (socket) => {
			this._sockets.add(socket);
			socket.on('close', () => this._sockets.delete(socket));
		});
		server.on('clientError', (err, socket) => {
			if (socket.writable) socket.end('HTTP/1.1 400 Bad Request\r\nConnection: close\r\n\r\n');
			else socket.destroy();
		});
		this.server = server;
		await new Promise((resolve, reject) => {
			server.once('error', reject);
			server.listen(this.options.port, this.options.host, () => {
				server.off('error', reject);
				resolve(undefined);
			});
		});
		const addr = /** @type {import('node:net').AddressInfo} */ (server.address());
		this.port = addr.port;
		const host =
			this.options.host === '0.0.0.0' || this.options.host === '::'
				? '127.0.0.1'
				: this.options.host;
		this.origin = `http://${host.includes(':') ? `[${host}]` : host}:${addr.port}`;
		this.baseUrl = `${this.origin}/api`;
		this.authUrl = `${this.origin}/auth`;
		return this;
	}

	/** @returns {Promise<void>} */
	close() {
		this.webhooks.close();
		const server = this.server;
		if (!server) return Promise.resolve();
		this.server = null;
		return new Promise((resolve) => {
			server.close(() => resolve());
			if (typeof server.closeAllConnections === 'function') server.closeAllConnections();
			for (const s of this._sockets) s.destroy();
		});
	}

	// ---- request log ---------------------------------------------------------------------------

	clearRequests() {
		this.requests.length = 0;
	}

	/** Requests to the two token endpoints so far. */
	tokenRequests() {
		return this.requests.filter((r) => /^\/auth\/(oauth|jwt)\/token$/i.test(r.path));
	}

	// ---- faults --------------------------------------------------------------------------------

	/** @param {Partial<ReturnType<typeof defaultFaults>> & { failNext?: FaultSpec | FaultSpec[], dropNext?: FaultSpec | FaultSpec[] }} partial */
	setFaults(partial) {
		const { failNext, dropNext, ...rest } = partial || {};
		Object.assign(this.faults, rest);
		if (failNext) for (const f of [].concat(/** @type {any} */ (failNext))) this.failNext(f);
		if (dropNext) for (const f of [].concat(/** @type {any} */ (dropNext))) this.dropNext(f);
		return this.faults;
	}

	resetFaults() {
		this.faults = defaultFaults();
		this._faultQueue.length = 0;
		this._rate.clear();
		this._tokenWindow.clear();
	}

	/** Queue an injected response for the next matching request(s). @param {FaultSpec} spec */
	failNext(spec = {}) {
		this._faultQueue.push({
			...spec,
			kind: 'fail',
			remaining: spec.count === undefined ? 1 : spec.count,
		});
	}

	/** Destroy the socket of the next matching request(s) without a response. @param {FaultSpec} spec */
	dropNext(spec = {}) {
		this._faultQueue.push({
			...spec,
			kind: 'drop',
			remaining: spec.count === undefined ? 1 : spec.count,
		});
	}

	/**
	 * @param {RequestContext} ctx @param {boolean} afterProcessing
	 */
	_takeFault(ctx, afterProcessing) {
		for (let i = 0; i < this._faultQueue.length; i++) {
			const f = this._faultQueue[i];
			if (!!f.afterProcessing !== afterProcessing) continue;
			if (f.method && f.method.toUpperCase() !== ctx.method) continue;
			if (f.path !== undefined) {
				if (f.path instanceof RegExp) {
					if (!f.path.test(ctx.path) && !f.path.test(ctx.rawPath)) continue;
				} else if (!ctx.path.startsWith(f.path) && !ctx.rawPath.startsWith(f.path)) continue;
			}
			f.remaining--;
			if (f.remaining <= 0) this._faultQueue.splice(i, 1);
			return f;
		}
		return null;
	}

	/** @param {FaultSpec} f @returns {Response} */
	_injected(f) {
		const status = f.status || 500;
		/** @type {Record<string, string>} */
		const headers = {};
		let body = null;
		if (f.body === undefined || f.body === null) {
			body = null;
		} else if (Buffer.isBuffer(f.body)) {
			body = f.body;
		} else if (typeof f.body === 'string') {
			body = Buffer.from(f.body, 'utf8');
			headers['content-type'] = 'text/plain; charset=utf-8';
		} else {
			body = Buffer.from(stringify(f.body), 'utf8');
			headers['content-type'] = 'application/json; charset=utf-8';
		}
		if (f.contentType) headers['content-type'] = f.contentType;
		for (const [k, v] of Object.entries(f.headers || {})) headers[k.toLowerCase()] = v;
		return { status, headers, body };
	}

	/**
	 * @param {'seconds' | 'date' | 'none'} mode @param {number} seconds
	 * @returns {Record<string, string>}
	 */
	_retryAfterHeaders(mode, seconds) {
		if (mode === 'none') return {};
		if (mode === 'date')
			return { 'retry-after': new Date(this.now() + seconds * 1000).toUTCString() };
		return { 'retry-after': String(seconds) };
	}

	/**
	 * Per-client sliding window (faults.rateLimit). Returns a throttle response or null.
	 * @param {string} clientId
	 * @returns {Response | null}
	 */
	_rateLimit(clientId) {
		const cfg = this.faults.rateLimit;
		if (!cfg || !cfg.limit) return null;
		const windowMs = cfg.windowMs || 60000;
		const now = this.now();
		const list = (this._rate.get(clientId) || []).filter((t) => t > now - windowMs);
		this._rate.set(clientId, list);
		if (list.length >= cfg.limit) {
			const wait = Math.max(1, Math.ceil((list[0] + windowMs - now) / 1000));
			const seconds = cfg.retryAfterSeconds !== undefined ? cfg.retryAfterSeconds : wait;
			const status = cfg.status || 429;
			return apiError(
				status,
				E.THROTTLED,
				`Rate limit exceeded for client ${clientId}: ${cfg.limit} requests per ${windowMs} ms`,
				{
					headers: this._retryAfterHeaders(cfg.retryAfter || 'seconds', seconds),
				},
			);
		}
		list.push(now);
		return null;
	}

	// ---- tokens --------------------------------------------------------------------------------

	/** @param {{ access?: number, refresh?: number, jwt?: number }} ttl seconds */
	setTtl(ttl) {
		for (const k of /** @type {const} */ (['access', 'refresh', 'jwt']))
			if (ttl[k] !== undefined) this.ttl[k] = /** @type {number} */ (ttl[k]);
	}

	/** Every current access token and JWT is expired from now on (refresh tokens stay valid). */
	expireAccessTokens() {
		const now = this.now();
		for (const rec of this._tokens.values()) rec.expiresAt = Math.min(rec.expiresAt, now);
	}

	expireRefreshTokens() {
		const now = this.now();
		for (const rec of this._refresh.values()) rec.expiresAt = Math.min(rec.expiresAt, now);
	}

	/** Every current access token and JWT answers 401 from now on; refresh tokens stay valid. */
	revokeAccessTokens() {
		for (const rec of this._tokens.values()) rec.revoked = true;
	}

	/**
	 * @param {{ client: any, user: any, grant: string, subscriberId?: number | null, scope?: string | null }} o
	 */
	_issueOAuth(o) {
		const now = this.now();
		const user = o.user;
		let subscriberId =
			o.subscriberId !== undefined && o.subscriberId !== null
				? o.subscriberId
				: (user.subscriberId ?? null);
		let scope = o.scope !== undefined ? o.scope : null;
		if (scope === null && user.kind === 'universal') scope = 'universal';
		if (user.kind === 'contractor') subscriberId = null;
		const access = `at_${crypto.randomBytes(24).toString('hex')}`;
		const refresh = `rt_${crypto.randomBytes(24).toString('hex')}`;
		const rec = {
			kind: 'oauth',
			token: access,
			refreshToken: refresh,
			clientId: o.client.clientId,
			username: user.username,
			subscriberId,
			scope,
			grant: o.grant,
			issuedAt: now,
			expiresAt: now + this.ttl.access * 1000,
			revoked: false,
		};
		this._tokens.set(access, rec);
		this.state.tokens.push(rec);
		this._refresh.set(refresh, {
			kind: 'oauth-refresh',
			token: refresh,
			clientId: o.client.clientId,
			username: user.username,
			subscriberId,
			scope,
			issuedAt: now,
			expiresAt: now + this.ttl.refresh * 1000,
			used: false,
		});
		/** @type {Record<string, any>} */
		const body = {
			access_token: access,
			token_type: 'bearer',
			expires_in: this.ttl.access,
			refresh_token: refresh,
		};
		if (scope !== null) body.scope = scope;
		return body;
	}

	/** @param {{ client: any, user: any, grant: string }} o */
	_issueJwt(o) {
		const now = this.now();
		const user = o.user;
		const iat = Math.floor(now / 1000);
		const ttl = this.ttl.jwt;
		const b64 = (/** @type {any} */ v) => Buffer.from(JSON.stringify(v)).toString('base64url');
		const header = b64({ alg: 'HS256', typ: 'JWT' });
		const payload = b64({
			iss: this.authUrl,
			sub: user.username,
			uid: user.userId,
			cid: o.client.clientId,
			pid: user.providerId ?? null,
			sid: user.subscriberId ?? null,
			iat,
			exp: iat + ttl,
			jti: crypto.randomBytes(8).toString('hex'),
		});
		const sig = crypto
			.createHmac('sha256', this._jwtSecret)
			.update(`${header}.${payload}`)
			.digest('base64url');
		const access = `${header}.${payload}.${sig}`;
		const refresh = `jrt_${crypto.randomBytes(24).toString('hex')}`;
		const rec = {
			kind: 'jwt',
			token: access,
			refreshToken: refresh,
			clientId: o.client.clientId,
			username: user.username,
			subscriberId: user.kind === 'contractor' ? null : (user.subscriberId ?? null),
			scope: null,
			grant: o.grant,
			issuedAt: now,
			expiresAt: now + ttl * 1000,
			revoked: false,
		};
		this._tokens.set(access, rec);
		this.state.tokens.push(rec);
		this._refresh.set(refresh, {
			kind: 'jwt-refresh',
			token: refresh,
			clientId: o.client.clientId,
			username: user.username,
			issuedAt: now,
			expiresAt: now + this.ttl.refresh * 1000,
			used: false,
		});
		return { access_token: access, token_type: 'jwt', expires_in: ttl, refresh_token: refresh };
	}

	// ---- helpers for tests ---------------------------------------------------------------------

	/** @param {string} clientId @param {string} uri */
	addCallbackUri(clientId, uri) {
		const client = this.state.clients[clientId];
		if (!client) throw new Error(`unknown client ${clientId}`);
		if (!client.callbackUris.includes(uri)) client.callbackUris.push(uri);
	}

	/** Notes of a work order (the stored objects; Id is a BigInt). @param {number} workOrderId */
	notesOf(workOrderId) {
		return this.state.notes[workOrderId] || [];
	}

	// ---- pipeline ------------------------------------------------------------------------------

	/**
	 * @param {import('node:http').IncomingMessage} req
	 * @param {import('node:http').ServerResponse} res
	 */
	async _handle(req, res) {
		const started = Date.now();
		let url = req.url || '/';
		if (/^https?:\/\//i.test(url)) {
			const u = new URL(url);
			url = u.pathname + u.search;
		}
		const q = url.indexOf('?');
		const rawPath = q === -1 ? url : url.slice(0, q);
		const queryString = q === -1 ? '' : url.slice(q + 1);
		const searchParams = new URLSearchParams(queryString);
		/** @type {Record<string, any>} */
		const query = {};
		for (const [k, v] of searchParams) {
			if (k in query) query[k] = [].concat(query[k], /** @type {any} */ (v));
			else query[k] = v;
		}
		const { segments, badPath } = decodePath(rawPath);
		const path = badPath ? rawPath : `/${segments.join('/')}`;
		const method = (req.method || 'GET').toUpperCase();
		const control = /^\/__emulator(\/|$)/.test(rawPath);

		/** @type {LogEntry} */
		const log = {
			seq: 0,
			time: new Date(this.now()).toISOString(),
			startedMs: started,
			method,
			rawPath,
			path,
			query,
			headers: { ...req.headers },
			body: null,
			rawBody: undefined,
			bodySize: 0,
			parts: undefined,
			status: null,
			clientId: null,
			username: null,
			tokenKind: null,
		};
		if (!control) {
			log.seq = ++this._seq;
			this.requests.push(log);
		}

		let body;
		try {
			body = await readBody(req, this.options.maxBodyBytes);
		} catch (err) {
			if (err && /** @type {any} */ (err).code === 'TOO_LARGE') {
				const r = apiError(
					413,
					E.TOO_LARGE,
					`Request body exceeds ${this.options.maxBodyBytes} bytes`,
					{ headers: { connection: 'close' } },
				);
				this._send(res, r, log, started);
				return;
			}
			log.status = null;
			log.error = `request aborted: ${err && /** @type {any} */ (err).message}`;
			return;
		}
		log.bodySize = body.length;
		if (this.options.logBodies) log.rawBody = body;

		/** @type {RequestContext} */
		const ctx = {
			req,
			method,
			rawPath,
			path,
			segments,
			badPath,
			query,
			searchParams,
			headers: req.headers,
			body,
			multipart: null,
			log,
		};
		this._parseForLog(ctx);

		if (control) {
			let r;
			try {
				r = this._control(ctx);
			} catch (e) {
				const err = /** @type {any} */ (e);
				r =
					e instanceof Reply
						? e.response
						: json(
								err instanceof WorkOrderError || err instanceof WebhookError ? err.status : 400,
								{ error: String(err && err.message) },
							);
			}
			this._send(res, r, log, started);
			return;
		}

		const delay =
			this.faults.latencyMs +
			(this.faults.latencyJitterMs > 0 ? Math.random() * this.faults.latencyJitterMs : 0);
		if (delay > 0) await new Promise((r) => setTimeout(r, delay));

		const pre = this._takeFault(ctx, false);
		if (pre) {
			if (pre.kind === 'drop') {
				log.dropped = true;
				log.durationMs = Date.now() - started;
				req.socket.destroy();
				this._notify(log);
				return;
			}
			log.injected = true;
			this._send(res, this._injected(pre), log, started);
			return;
		}

		/** @type {Response} */
		let response;
		try {
			response = await this._route(ctx);
		} catch (e) {
			if (e instanceof Reply) response = e.response;
			else {
				log.error = e && /** @type {any} */ (e).stack ? /** @type {any} */ (e).stack : String(e);
				response = apiError(
					500,
					E.INTERNAL,
					`Internal emulator error: ${e && /** @type {any} */ (e).message}`,
				);
			}
		}

		const post = this._takeFault(ctx, true);
		if (post) {
			if (post.kind === 'drop') {
				log.dropped = true;
				log.processedStatus = response.status;
				log.durationMs = Date.now() - started;
				req.socket.destroy();
				this._notify(log);
				return;
			}
			log.injected = true;
			log.processedStatus = response.status;
			response = this._injected(post);
		}
		this._send(res, response, log, started);
	}

	/** @param {RequestContext} ctx */
	_parseForLog(ctx) {
		const { log, body } = ctx;
		const type = mediaType(ctx.headers['content-type']);
		if (body.length === 0) return;
		if (type === 'multipart/form-data') {
			try {
				const parts = parseMultipart(body, ctx.headers['content-type']);
				ctx.multipart = { parts };
				log.parts = parts.map((p) => {
					/** @type {Record<string, any>} */
					const entry = {
						name: p.name,
						filename: p.filename,
						contentType: p.contentType,
						size: p.size,
					};
					if (this.options.logBodies) entry.data = p.data;
					if (p.size < PARSE_LIMIT && (!p.filename || /json/i.test(p.contentType || ''))) {
						const text = p.data.toString('utf8');
						if (/^\s*[[{]/.test(text)) {
							try {
								entry.json = parse(text);
							} catch {
								/* not JSON */
							}
						}
						if (entry.json === undefined && !p.filename) entry.text = text;
					}
					return entry;
				});
			} catch (e) {
				ctx.multipart = { error: String(e && /** @type {any} */ (e).message) };
				log.parts = [];
				log.bodyError = ctx.multipart.error;
			}
			return;
		}
		if (body.length > PARSE_LIMIT) return;
		if (type === 'application/json' || type.endsWith('+json')) {
			try {
				log.body = parse(body.toString('utf8'));
			} catch (e) {
				log.bodyError = String(e && /** @type {any} */ (e).message);
			}
		} else if (type === 'application/x-www-form-urlencoded') {
			log.body = Object.fromEntries(new URLSearchParams(body.toString('utf8')));
		} else if (type.startsWith('text/') || type === '') {
			log.body = body.toString('utf8');
		}
	}

	/**
	 * @param {RequestContext} ctx
	 * @returns {Response}
	 */
	_route(ctx) {
		if (ctx.badPath) {
			return apiError(400, E.BAD_PATH, ctx.badPath);
		}
		const [first, ...rest] = ctx.segments;
		const top = (first || '').toLowerCase();
		if (top === 'auth') return handleAuth(this, ctx, rest);
		if (top === 'api') return handleApi(this, ctx, rest);
		if (top === '' && ctx.segments.length <= 1 && ctx.method === 'GET') {
			return json(200, {
				service: 'Work Order Service emulator',
				baseUrl: this.baseUrl,
				authUrl: this.authUrl,
				api: `${this.baseUrl}/v3`,
				tokenUrl: `${this.authUrl}/oauth/token`,
				authorizeUrl: `${this.authUrl}/oauth/authorize`,
				jwtTokenUrl: `${this.authUrl}/jwt/token`,
			});
		}
		return apiError(404, E.NO_ROUTE, `No resource matches ${ctx.method} ${ctx.path}`);
	}

	/**
	 * @param {import('node:http').ServerResponse} res @param {Response} r @param {LogEntry} log @param {number} started
	 */
	_send(res, r, log, started) {
		log.status = r.status;
		log.responseHeaders = r.headers;
		if (r.body && r.body.length < PARSE_LIMIT) log.responseBody = r.body.toString('utf8');
		log.durationMs = Date.now() - started;
		/** @type {Record<string, any>} */
		const headers = { date: new Date(this.now()).toUTCString(), ...r.headers };
		if (r.body && r.status !== 204 && r.status !== 304)
			headers['content-length'] = String(r.body.length);
		else if (r.status !== 204 && r.status !== 304) headers['content-length'] = '0';
		try {
			res.writeHead(r.status, headers);
			res.end(r.status === 204 || r.status === 304 ? undefined : r.body || undefined);
		} catch {
			res.destroy();
		}
		this._notify(log);
	}

	/** @param {LogEntry} log */
	_notify(log) {
		if (log.seq) contract.observe(log);
		if (!this.onResponse || !log.seq) return;
		try {
			this.onResponse(log);
		} catch {
			/* a listener's error must not break the server */
		}
	}

	_clockInfo() {
		const now = this.now();
		return {
			now: new Date(now).toISOString(),
			nowLocal: this.time.local(now),
			nowDto: this.time.dto(now),
			skewMs: this._clockOffsetMs,
			serviceTimeZone: this.time.name,
			utcOffset: this.time.offsetString(now),
			datePrecisionMs: this.datePrecisionMs,
		};
	}

	/**
	 * Control endpoints of the webhook part (README.md, "Webhooks"); null when `route` is not one.
	 * @param {string} route `METHOD path` (lower-case path) @param {() => any} bodyJson
	 * @returns {Response | null}
	 */
	_webhookControl(route, bodyJson) {
		const hooks = this.webhooks;
		let m;
		if ((m = /^POST __emulator\/workorders\/(\d+)\/notes$/.exec(route))) {
			const b = bodyJson();
			return json(201, this.addNote(Number(m[1]), String(b.text ?? b.NoteData ?? ''), b.user));
		}
		if ((m = /^POST __emulator\/workorders\/(\d+)\/technician$/.exec(route))) {
			return json(200, this.assignTechnician(Number(m[1]), Number(bodyJson().technicianId)));
		}
		if ((m = /^POST __emulator\/locations\/(\d+)\/notes$/.exec(route))) {
			const b = bodyJson();
			return json(201, this.writeLocationNote(Number(m[1]), b.header, b.value, b.user));
		}
		if ((m = /^PATCH __emulator\/assets\/(\d+)$/.exec(route))) {
			return json(200, this.updateAsset(Number(m[1]), bodyJson()));
		}
		if (route === 'POST __emulator/assets') return json(201, this.createAsset(bodyJson()));
		if ((m = /^POST __emulator\/proposals\/(\d+)\/status$/.exec(route))) {
			return json(200, this.setProposalStatus(Number(m[1]), bodyJson().status));
		}
		switch (route) {
			case 'POST __emulator/proposals':
				return json(201, this.createProposal(bodyJson()));
			case 'GET __emulator/webhooks':
				return json(200, [...hooks.hooks.values()]);
			case 'GET __emulator/webhooks/deliveries':
				return json(200, hooks.deliveries);
			case 'DELETE __emulator/webhooks/deliveries':
				hooks.deliveries.length = 0;
				return json(200, { ok: true });
			case 'GET __emulator/webhooks/events':
				return json(200, hooks.events);
			case 'POST __emulator/webhooks/events': {
				const b = bodyJson();
				return json(201, this.emitWebhookEvent(b.eventType, b));
			}
			case 'GET __emulator/webhooks/options':
				return json(200, hooks.options);
			case 'POST __emulator/webhooks/options':
				return json(200, this.setWebhookOptions(bodyJson()));
			case 'DELETE __emulator/webhooks/options':
				hooks.resetOptions();
				return json(200, hooks.options);
			case 'POST __emulator/webhooks/retry-now':
				return json(200, { retried: hooks.retryNow() });
			case 'POST __emulator/webhooks/admin': {
				const b = bodyJson();
				return json(200, { user: b.user, admin: this.setWebhookAdmin(b.user, b.admin) });
			}
			case 'POST __emulator/webhooks/rotate-key': {
				const b = bodyJson();
				return json(200, { account: b.account, rotated: !!hooks.rotateKey(String(b.account)) });
			}
			default:
				return null;
		}
	}

	/**
	 * Out-of-band control endpoints for runs where the emulator is in another process
	 * (npm run emulator). Not part of the service; never logged; faults do not apply.
	 * @param {RequestContext} ctx
	 * @returns {Response}
	 */
	_control(ctx) {
		const route = `${ctx.method} ${ctx.segments.join('/').toLowerCase()}`;
		const bodyJson = () => (ctx.body.length ? parse(ctx.body.toString('utf8')) : {});
		const hookRoute = this._webhookControl(route, bodyJson);
		if (hookRoute) return hookRoute;
		const invoiceRoute = invoices.control(this, route, bodyJson);
		if (invoiceRoute) return invoiceRoute;
		const woMatch = /^(GET|PATCH) __emulator\/workorders\/(\d+)$/.exec(route);
		if (woMatch) {
			if (woMatch[1] === 'PATCH') return json(200, this.updateWorkOrder(woMatch[2], bodyJson()));
			const wo = this.workOrder(woMatch[2]);
			return wo ? json(200, wo) : json(404, { error: `work order ${woMatch[2]} does not exist` });
		}
		switch (route) {
			case 'POST __emulator/workorders': {
				const b = bodyJson();
				return json(201, Array.isArray(b) ? this.createWorkOrders(b) : this.createWorkOrder(b));
			}
			case 'PATCH __emulator/workorders': {
				const b = bodyJson();
				if (!b || !Array.isArray(b.ids))
					throw new WorkOrderError(
						'PATCH /__emulator/workorders needs { "ids": [...], "changes": {...} }',
					);
				return json(200, this.updateWorkOrders(b.ids, b.changes || {}));
			}
			case 'GET __emulator/workorder-changes':
				return json(200, this.state.workOrderChanges);
			case 'GET __emulator/time':
				return json(200, this._clockInfo());
			case 'GET __emulator':
			case 'GET __emulator/fixtures':
				return json(200, this.fixtures);
			case 'GET __emulator/state':
				return json(200, publicState(this.state));
			case 'GET __emulator/requests':
				return json(200, this.requests);
			case 'DELETE __emulator/requests':
				this.clearRequests();
				return json(200, { ok: true });
			case 'POST __emulator/faults':
				return json(200, this.setFaults(bodyJson()));
			case 'DELETE __emulator/faults':
				this.resetFaults();
				return json(200, { ok: true });
			case 'POST __emulator/fail-next':
				this.failNext(bodyJson());
				return json(200, { ok: true });
			case 'POST __emulator/drop-next':
				this.dropNext(bodyJson());
				return json(200, { ok: true });
			case 'POST __emulator/time': {
				const b = bodyJson();
				if (b.serviceTimeZone !== undefined) this.setServiceTimeZone(b.serviceTimeZone);
				if (b.skewMs !== undefined) this.setClockSkew(Number(b.skewMs));
				if (b.advanceSeconds !== undefined) this.advanceTime(Number(b.advanceSeconds));
				if (b.datePrecisionMs !== undefined) this.setDatePrecision(Number(b.datePrecisionMs));
				return json(200, this._clockInfo());
			}
			case 'POST __emulator/tokens/expire-access':
				this.expireAccessTokens();
				return json(200, { ok: true });
			case 'POST __emulator/tokens/expire-refresh':
				this.expireRefreshTokens();
				return json(200, { ok: true });
			case 'POST __emulator/tokens/revoke-access':
				this.revokeAccessTokens();
				return json(200, { ok: true });
			case 'GET __emulator/answers':
				return json(200, this.answers);
			case 'POST __emulator/answers':
				return json(200, this.setAnswers(bodyJson()));
			case 'POST __emulator/ttl':
				this.setTtl(bodyJson());
				return json(200, this.ttl);
			default:
				return textResponse(404, `unknown control endpoint ${ctx.method} ${ctx.path}`);
		}
	}
}

/**
 * `target` behind a proxy that calls `onChange` when a key is added or removed.
 * @param {Record<string, any>} target @param {() => void} onChange
 */
function trackKeys(target, onChange) {
	return new Proxy(target, {
		set(t, key, value) {
			if (!Object.prototype.hasOwnProperty.call(t, key)) onChange();
			return Reflect.set(t, key, value);
		},
		defineProperty(t, key, descriptor) {
			if (!Object.prototype.hasOwnProperty.call(t, key)) onChange();
			return Reflect.defineProperty(t, key, descriptor);
		},
		deleteProperty(t, key) {
			onChange();
			return Reflect.deleteProperty(t, key);
		},
	});
}

/** @param {any} state */
function publicState(state) {
	const { users, ...rest } = state;
	return rest;
}

/**
 * Decodes a raw path per segment. An encoded slash, a NUL, "." or ".." (raw or encoded) is
 * refused so it can never reach another resource.
 * @param {string} rawPath
 * @returns {{ segments: string[], badPath: string | null }}
 */
function decodePath(rawPath) {
	const raw = rawPath.split('/');
	if (raw[0] === '') raw.shift();
	/** @type {string[]} */
	const segments = [];
	for (const s of raw) {
		let d;
		try {
			d = decodeURIComponent(s);
		} catch {
			return { segments: [], badPath: `Malformed percent-encoding in path segment '${s}'` };
		}
		if (d === '.' || d === '..' || d.includes('/') || d.includes('\\') || d.includes('\0')) {
			return { segments: [], badPath: `Path segment '${s}' is not allowed` };
		}
		segments.push(d);
	}
	// ignore one trailing slash
	if (segments.length > 1 && segments[segments.length - 1] === '') segments.pop();
	return { segments, badPath: null };
}

/**
 * Reads the whole body into one Buffer (preallocated from Content-Length when known).
 * @param {import('node:http').IncomingMessage} req @param {number} limit
 * @returns {Promise<Buffer>}
 */
function readBody(req, limit) {
	return new Promise((resolve, reject) => {
		const declared = Number(req.headers['content-length']);
		if (Number.isFinite(declared) && declared > limit) {
			req.resume();
			reject(Object.assign(new Error('too large'), { code: 'TOO_LARGE' }));
			return;
		}
		/** @type {Buffer | null} */
		let buf = Number.isFinite(declared) && declared > 0 ? Buffer.allocUnsafe(declared) : null;
		/** @type {Buffer[]} */
		const chunks = [];
		let size = 0;
		let done = false;
		req.on('data', (/** @type {Buffer} */ chunk) => {
			if (done) return;
			if (buf && size + chunk.length <= buf.length) {
				chunk.copy(buf, size);
			} else {
				if (buf) {
					chunks.push(buf.subarray(0, size));
					buf = null;
				}
				chunks.push(chunk);
			}
			size += chunk.length;
			if (size > limit) {
				done = true;
				reject(Object.assign(new Error('too large'), { code: 'TOO_LARGE' }));
			}
		});
		req.on('end', () => {
			if (done) return;
			done = true;
			resolve(buf ? buf.subarray(0, size) : Buffer.concat(chunks, size));
		});
		req.on('error', (err) => {
			if (done) return;
			done = true;
			reject(err);
		});
		req.on('close', () => {
			if (done) return;
			if (!req.complete) {
				done = true;
				reject(new Error('aborted'));
			}
		});
	});
}

/**
 * @param {Partial<typeof DEFAULTS>} [options]
 * @returns {Emulator} not yet listening: call `await emu.listen()`
 */
function createEmulator(options) {
	return new Emulator(options);
}

/**
 * @param {Partial<typeof DEFAULTS>} [options]
 * @returns {Promise<Emulator>} listening on options.port (0 = a free port) at options.host
 */
async function startEmulator(options) {
	const emu = new Emulator(options);
	await emu.listen();
	return emu;
}

invoices.install(Emulator);

module.exports = { startEmulator, createEmulator, Emulator, decodePath };
