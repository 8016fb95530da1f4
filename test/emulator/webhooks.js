// @ts-check
'use strict';

/**
 * Event notifications (webhooks) of the emulated service: the contract of
 * ../../../shared/spec/webhooks.md, with the emulator's readings where it is open (README.md,
 * "Webhooks").
 *
 * - Management API under /api/v3: /NotificationWebHooks (CRUD with the limits), the signing key
 *   (/NotificationSubscriptions/SigningKey, GET and PUT = rotate) and the test endpoint
 *   (/test/webhooks/notifications). Admin-only (403, ErrorCode 4030) where the spec says so.
 * - Delivery: every change made through the API or the emulator's methods / control endpoints
 *   (work orders, notes, attachments, check-in/out, proposals, checklist responses) becomes an
 *   event; each enabled webhook of the record's subscriber or provider account with a
 *   subscription for that event type (and matching rules) gets one signed POST. A failure (no 2xx
 *   within 5 s) is re-sent 3 more times, `retryDelayMs` apart; 1,000 consecutive failures disable
 *   the webhook for 12 hours, a second run of 1,000 until re-enabled with PUT.
 *
 * Plain Node 20, no dependencies.
 */

const crypto = require('node:crypto');
const http = require('node:http');
const https = require('node:https');
const { stringify } = require('./lossless-json');

/** Event types of the contract (this package's), by the object they concern. */
const EVENT_TYPES = {
	workOrder: [
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
	],
	proposal: [
		'ProposalCreated',
		'ProposalOpen',
		'ProposalOnHold',
		'ProposalApproved',
		'ProposalRejected',
		'ProposalVoided',
	],
	checklist: ['CheckListResponseAdded', 'CheckListResponseUpdated'],
};

/** Event types the service knows but the package does not use (accepted in subscriptions). */
const OTHER_EVENT_TYPES = [
	'InvoiceCreated',
	'InvoiceStatusChanged',
	'LocationCreated',
	'LocationUpdated',
	'LocationDeleted',
	'LocationNotesChanged',
	'LocationNoteHeaderCreated',
	'LocationNoteHeaderUpdated',
	'LocationNoteHeaderDeleted',
	'AssetCreated',
	'AssetUpdated',
	'WorkOrderInvoiced',
	'WorkOrderRecallCreated',
];

const KNOWN_EVENT_TYPES = new Set([...Object.values(EVENT_TYPES).flat(), ...OTHER_EVENT_TYPES]);

/** Proposal status (as stored) → its event. */
const PROPOSAL_STATUS_EVENTS = {
	Open: 'ProposalOpen',
	OnHold: 'ProposalOnHold',
	Approved: 'ProposalApproved',
	Rejected: 'ProposalRejected',
	Voided: 'ProposalVoided',
};

/** Error codes of this part (besides the main API's). */
const WE = {
	UNKNOWN_WEBHOOK: 502,
	TEST_DELIVERY_FAILED: 503,
	NOT_ADMIN: 4030,
	WEBHOOK_LIMIT: 4031,
	UNKNOWN_EVENT_TYPE: 4032,
	SUBSCRIPTION_COUNT: 4033,
};

const MAX_WEBHOOKS = 20;
const MAX_SUBSCRIPTIONS = 20;
const HOUR = 3600 * 1000;

function defaultOptions() {
	return {
		/** delay between a failed attempt and the next one (the service: 5 minutes) */
		retryDelayMs: 5 * 60 * 1000,
		/** attempts in all: the first one and 3 re-sends */
		maxAttempts: 4,
		/** how long a receiver may take to answer */
		timeoutMs: 5000,
		/** consecutive failures that disable a webhook */
		failureLimit: 1000,
		/** how long the first disabling lasts (emulator clock) */
		disableMs: 12 * HOUR,
		/** sign with the base64-decoded key instead of the key string's UTF-8 bytes (the other reading) */
		signWithDecodedKey: false,
		/** deliver every event twice (two identical POSTs), as a service that re-sends after a lost answer */
		deliverTwice: false,
		/** 'valid' | 'wrong' (signed with another key) | 'missing' (no Sign-Data header) */
		signature: 'valid',
	};
}

/** The system user that changes made through the emulator's methods are attributed to. */
const SYSTEM_USER = {
	Id: 0,
	UserName: 'emulator',
	FullName: 'Work Order Service',
	Email: 'noreply@work-order-service.example',
};

/** @param {any} user */
function userRef(user) {
	if (!user) return { ...SYSTEM_USER };
	return { Id: user.userId, UserName: user.username, FullName: user.fullName, Email: user.email };
}

/** A new signing key: 32 random bytes as base64 (so that both key readings differ). */
function newKey() {
	return crypto.randomBytes(32).toString('base64');
}

/**
 * `Sign-Data` for a body: base64 HMAC-SHA256 of the raw bytes with the key string's UTF-8 bytes,
 * or (the other reading) with the base64-decoded key.
 * @param {string} key @param {Buffer} body @param {boolean} [decoded]
 */
function sign(key, body, decoded = false) {
	const keyBytes = decoded ? Buffer.from(key, 'base64') : Buffer.from(key, 'utf8');
	return crypto.createHmac('sha256', keyBytes).update(body).digest('base64');
}

class WebhookError extends Error {
	/** @param {number} status @param {number} code @param {string} message */
	constructor(status, code, message) {
		super(message);
		this.status = status;
		this.code = code;
	}
}

/**
 * @typedef {import('./index').Emulator} Emulator
 * @typedef {{ Id: number, Name: string, EventTypes: string[], Rules: { Trades: string[], Categories: string[], Statuses: string[] } | null }} Subscription
 * @typedef {{ Id: number, account: string, Name: string, Description: string | null, Url: string, Enabled: boolean,
 *   Subscriptions: Subscription[], consecutiveFailures: number, disabledRuns: number, disabledUntil: number | null, createdBy: string }} Webhook
 * @typedef {{ seq: number, eventSeq: number, webhookId: number | null, account: string, url: string, eventType: string,
 *   action: string, attempt: number, copy: number, body: string, headers: Record<string, string>, status: number | null,
 *   error: string | null, ok: boolean, durationMs: number, at: string, test: boolean }} Delivery
 * @typedef {{ seq: number, eventType: string, action: string, type: string, object: any, accounts: string[], at: string }} EventRecord
 */

class Webhooks {
	/** @param {Emulator} emu */
	constructor(emu) {
		this.emu = emu;
		/** @type {Map<number, Webhook>} */
		this.hooks = new Map();
		/** @type {Map<string, string>} account → signing key */
		this.keys = new Map();
		/** @type {Delivery[]} every attempt, in the order they ended */
		this.deliveries = [];
		/** @type {EventRecord[]} every event raised (also when no webhook wanted it) */
		this.events = [];
		this.options = defaultOptions();
		this._ids = { webhook: 7001, subscription: 71001, delivery: 0, event: 0 };
		/** @type {Set<Promise<any>>} attempts in flight */
		this._inFlight = new Set();
		/** @type {Map<NodeJS.Timeout, () => void>} scheduled re-sends */
		this._retries = new Map();
		this.closed = false;
		/** @type {null | ((delivery: Delivery) => void)} called after each delivery attempt ended */
		this.onDelivery = null;
	}

	/** @param {Delivery} delivery */
	_log(delivery) {
		this.deliveries.push(delivery);
		try {
			this.onDelivery?.(delivery);
		} catch {
			/* a listener's error must not break deliveries */
		}
	}

	// ---- options ---------------------------------------------------------------------------------

	/** @param {Partial<ReturnType<typeof defaultOptions>>} partial */
	setOptions(partial = {}) {
		for (const [k, v] of Object.entries(partial || {})) {
			if (!(k in this.options))
				throw new WebhookError(
					400,
					2006,
					`unknown webhook option '${k}' (options: ${Object.keys(this.options).join(', ')})`,
				);
			if (k === 'signature' && !['valid', 'wrong', 'missing'].includes(/** @type {any} */ (v))) {
				throw new WebhookError(400, 2006, "signature must be 'valid', 'wrong' or 'missing'");
			}
			/** @type {any} */ (this.options)[k] = v;
		}
		return { ...this.options };
	}

	resetOptions() {
		this.options = defaultOptions();
	}

	// ---- accounts, admin rights, keys -------------------------------------------------------------

	/** The account of an API caller: its provider (contractor) or its (scoped) subscriber. @param {any} p principal */
	accountOf(p) {
		return p.providerId !== null ? `provider:${p.providerId}` : `subscriber:${p.subscriberId}`;
	}

	/** @param {any} p principal */
	requireAdmin(p) {
		if (p.user.webhookAdmin) return;
		const role =
			p.providerId !== null
				? 'the "Provider Automation Admin" access level'
				: 'the "Super Admin" secondary role';
		throw new WebhookError(
			403,
			WE.NOT_ADMIN,
			`Managing event notifications requires ${role}; user ${p.user.username} does not have it`,
		);
	}

	/** The account's signing key (created on first use). @param {string} account */
	keyOf(account) {
		let key = this.keys.get(account);
		if (!key) {
			key = newKey();
			this.keys.set(account, key);
		}
		return key;
	}

	/** A new key for the account; the old one stops at once. @param {string} account */
	rotateKey(account) {
		const key = newKey();
		this.keys.set(account, key);
		return key;
	}

	// ---- management --------------------------------------------------------------------------------

	/** @param {string} account */
	listOf(account) {
		return [...this.hooks.values()].filter((h) => h.account === account);
	}

	/** @param {Webhook} h */
	publicWebhook(h) {
		this._reenableIfDue(h);
		return {
			Id: h.Id,
			Name: h.Name,
			Description: h.Description,
			Url: h.Url,
			Enabled: h.Enabled,
			// the reference's WebHook also has ResetOptions (a boolean without text): kept as PUT sent it
			ResetOptions: h.ResetOptions === true,
			Subscriptions: h.Subscriptions.map((s) => ({
				Id: s.Id,
				Name: s.Name,
				EventTypes: [...s.EventTypes],
				Rules: s.Rules
					? {
							Trades: [...s.Rules.Trades],
							Categories: [...s.Rules.Categories],
							Statuses: [...s.Rules.Statuses],
						}
					: null,
			})),
		};
	}

	/** @param {string} account @param {any} id */
	find(account, id) {
		const h = this.hooks.get(Number(id));
		if (!h || h.account !== account || !/^\d{1,10}$/.test(String(id))) {
			throw new WebhookError(400, WE.UNKNOWN_WEBHOOK, `Webhook ${id} was not found`);
		}
		return h;
	}

	/**
	 * Validates a webhook body (POST, or PUT with `existing`).
	 * @param {any} body @param {Webhook | null} existing
	 */
	validate(body, existing) {
		const get = (/** @type {string} */ name) => {
			for (const k of Object.keys(body))
				if (k.toLowerCase() === name.toLowerCase()) return body[k] === null ? undefined : body[k];
			return undefined;
		};
		const name = get('Name');
		if (typeof name !== 'string' || name.trim() === '')
			throw new WebhookError(400, 2007, 'Name is required');
		const url = get('Url');
		if (typeof url !== 'string' || url.trim() === '')
			throw new WebhookError(400, 2007, 'Url is required');
		let parsed;
		try {
			parsed = new URL(url);
		} catch {
			parsed = null;
		}
		if (!parsed || !/^https?:$/.test(parsed.protocol))
			throw new WebhookError(400, 2006, `Url must be an absolute http(s) URL (got '${url}')`);
		const description = get('Description');
		if (description !== undefined && typeof description !== 'string')
			throw new WebhookError(400, 2006, 'Description must be a string');
		const enabled = get('Enabled');
		if (enabled !== undefined && typeof enabled !== 'boolean')
			throw new WebhookError(400, 2006, 'Enabled must be true or false');
		const subs = get('Subscriptions');
		if (!Array.isArray(subs) || subs.length < 1 || subs.length > MAX_SUBSCRIPTIONS) {
			throw new WebhookError(
				400,
				WE.SUBSCRIPTION_COUNT,
				`A webhook holds 1 to ${MAX_SUBSCRIPTIONS} subscriptions (got ${Array.isArray(subs) ? subs.length : 'none'})`,
			);
		}
		/** @type {Array<{ Id: number | null, Name: string, EventTypes: string[], Rules: Subscription['Rules'] }>} */
		const subscriptions = subs.map((s, i) => {
			if (!s || typeof s !== 'object' || Array.isArray(s))
				throw new WebhookError(400, 2006, `Subscriptions[${i}] must be an object`);
			const sget = (/** @type {string} */ n) => {
				for (const k of Object.keys(s))
					if (k.toLowerCase() === n.toLowerCase()) return s[k] === null ? undefined : s[k];
				return undefined;
			};
			const sName = sget('Name');
			if (typeof sName !== 'string' || sName.trim() === '')
				throw new WebhookError(400, 2007, `Subscriptions[${i}].Name is required`);
			const types = sget('EventTypes');
			if (!Array.isArray(types) || types.length === 0)
				throw new WebhookError(
					400,
					2007,
					`Subscriptions[${i}].EventTypes must be a non-empty array`,
				);
			for (const t of types) {
				if (typeof t !== 'string' || !KNOWN_EVENT_TYPES.has(t)) {
					throw new WebhookError(
						400,
						WE.UNKNOWN_EVENT_TYPE,
						`Subscriptions[${i}].EventTypes: unknown event type '${String(t)}'`,
					);
				}
			}
			const rulesRaw = sget('Rules');
			/** @type {Subscription['Rules']} */
			let rules = null;
			if (rulesRaw !== undefined) {
				if (typeof rulesRaw !== 'object' || Array.isArray(rulesRaw))
					throw new WebhookError(400, 2006, `Subscriptions[${i}].Rules must be an object`);
				const list = (/** @type {string} */ n) => {
					let v;
					for (const k of Object.keys(rulesRaw))
						if (k.toLowerCase() === n.toLowerCase()) v = rulesRaw[k];
					if (v === undefined || v === null) return [];
					if (!Array.isArray(v) || v.some((x) => typeof x !== 'string'))
						throw new WebhookError(
							400,
							2006,
							`Subscriptions[${i}].Rules.${n} must be an array of strings`,
						);
					return [...v];
				};
				rules = {
					Trades: list('Trades'),
					Categories: list('Categories'),
					Statuses: list('Statuses'),
				};
			}
			const idRaw = sget('Id');
			let id = null;
			if (idRaw !== undefined) {
				if (!existing)
					throw new WebhookError(
						400,
						2006,
						`Subscriptions[${i}].Id must not be given when creating a webhook`,
					);
				id = Number(idRaw);
				if (!existing.Subscriptions.some((x) => x.Id === id)) {
					throw new WebhookError(
						400,
						2006,
						`Subscriptions[${i}].Id ${idRaw} is not a subscription of webhook ${existing.Id}`,
					);
				}
			}
			return { Id: id, Name: sName, EventTypes: [...new Set(types)], Rules: rules };
		});
		return {
			Name: name,
			Url: url,
			Description: description ?? null,
			Enabled: enabled === true,
			subscriptions,
		};
	}

	/** POST /NotificationWebHooks. @param {any} p principal @param {any} body */
	create(p, body) {
		this.requireAdmin(p);
		const account = this.accountOf(p);
		const v = this.validate(body, null);
		if (this.listOf(account).length >= MAX_WEBHOOKS) {
			throw new WebhookError(
				400,
				WE.WEBHOOK_LIMIT,
				`The account already has ${MAX_WEBHOOKS} webhooks, the most it may have; delete one first`,
			);
		}
		/** @type {Webhook} */
		const hook = {
			Id: this._ids.webhook++,
			account,
			Name: v.Name,
			Description: v.Description,
			Url: v.Url,
			Enabled: v.Enabled,
			Subscriptions: v.subscriptions.map((s) => ({
				Id: this._ids.subscription++,
				Name: s.Name,
				EventTypes: s.EventTypes,
				Rules: s.Rules,
			})),
			consecutiveFailures: 0,
			disabledRuns: 0,
			disabledUntil: null,
			createdBy: p.user.username,
		};
		this.hooks.set(hook.Id, hook);
		return { Id: hook.Id, SubscriptionsResponses: hook.Subscriptions.map((s) => s.Id) };
	}

	/**
	 * PUT /NotificationWebHooks/{id}: the whole webhook. Subscriptions with an Id are updated, those
	 * without are added, and the webhook's subscriptions not listed are removed. Enabled absent =
	 * false (as on creation); Enabled true also ends a disabling.
	 * @param {any} p @param {any} id @param {any} body
	 */
	update(p, id, body) {
		this.requireAdmin(p);
		const hook = this.find(this.accountOf(p), id);
		const v = this.validate(body, hook);
		hook.Name = v.Name;
		hook.Url = v.Url;
		hook.Description = v.Description;
		hook.Enabled = v.Enabled;
		const reset = Object.keys(body || {}).find((k) => k.toLowerCase() === 'resetoptions');
		if (reset !== undefined && typeof body[reset] !== 'boolean' && body[reset] !== null)
			throw new WebhookError(400, 2006, 'ResetOptions must be true or false');
		hook.ResetOptions = reset !== undefined && body[reset] === true;
		if (v.Enabled) {
			hook.consecutiveFailures = 0;
			hook.disabledRuns = 0;
			hook.disabledUntil = null;
		}
		hook.Subscriptions = v.subscriptions.map((s) => ({
			Id: s.Id ?? this._ids.subscription++,
			Name: s.Name,
			EventTypes: s.EventTypes,
			Rules: s.Rules,
		}));
	}

	/** DELETE /NotificationWebHooks/{id}. @param {any} p @param {any} id */
	remove(p, id) {
		this.requireAdmin(p);
		const hook = this.find(this.accountOf(p), id);
		this.hooks.delete(hook.Id);
	}

	/** @param {Webhook} h */
	_reenableIfDue(h) {
		if (!h.Enabled && h.disabledUntil !== null && this.emu.now() >= h.disabledUntil) {
			h.Enabled = true;
			h.disabledUntil = null;
			h.consecutiveFailures = 0;
		}
	}

	// ---- events ------------------------------------------------------------------------------------

	/**
	 * Raises an event: every enabled webhook of the accounts with a subscription for the type whose
	 * rules match gets one delivery (two with deliverTwice).
	 * @param {string} eventType
	 * @param {{ object: any, subscriberId?: number | null, providerId?: number | null, action?: string, type?: string }} e
	 */
	raise(eventType, e) {
		const accounts = [];
		if (e.subscriberId !== undefined && e.subscriberId !== null)
			accounts.push(`subscriber:${e.subscriberId}`);
		if (e.providerId !== undefined && e.providerId !== null)
			accounts.push(`provider:${e.providerId}`);
		const action =
			e.action ?? (/Created$|Added$|^WorkOrderCheck/.test(eventType) ? 'NEW' : 'UPDATE');
		const type =
			e.type ??
			(eventType.startsWith('WorkOrder') ? 'WoRootNotification' : 'GenericRootNotification');
		/** @type {EventRecord} */
		const record = {
			seq: ++this._ids.event,
			eventType,
			action,
			type,
			object: e.object,
			accounts,
			at: new Date(this.emu.now()).toISOString(),
		};
		this.events.push(record);
		if (this.closed || this.hooks.size === 0) return record;
		const body = Buffer.from(
			stringify({ EventType: eventType, Object: e.object, Action: action, Type: type, Version: 1 }),
			'utf8',
		);
		for (const hook of this.hooks.values()) {
			if (!accounts.includes(hook.account)) continue;
			this._reenableIfDue(hook);
			if (!hook.Enabled) continue;
			if (
				!hook.Subscriptions.some(
					(s) => s.EventTypes.includes(eventType) && rulesMatch(s.Rules, e.object),
				)
			)
				continue;
			const copies = this.options.deliverTwice ? 2 : 1;
			for (let copy = 1; copy <= copies; copy++)
				this._attempt(hook.Id, { record, body, attempt: 1, copy });
		}
		return record;
	}

	/**
	 * One delivery attempt (asynchronous); a failure schedules the next one.
	 * @param {number} webhookId
	 * @param {{ record: EventRecord, body: Buffer, attempt: number, copy: number }} d
	 */
	_attempt(webhookId, d) {
		const hook = this.hooks.get(webhookId);
		if (!hook || this.closed) return;
		this._reenableIfDue(hook);
		if (!hook.Enabled) return;
		const key = this.keyOf(hook.account);
		const headers = this._signedHeaders(key, d.body);
		const started = Date.now();
		const promise = post(hook.Url, d.body, headers, this.options.timeoutMs).then((outcome) => {
			const ok = outcome.status !== null && outcome.status >= 200 && outcome.status < 300;
			this._log({
				seq: ++this._ids.delivery,
				eventSeq: d.record.seq,
				webhookId,
				account: hook.account,
				url: hook.Url,
				eventType: d.record.eventType,
				action: d.record.action,
				attempt: d.attempt,
				copy: d.copy,
				body: d.body.toString('utf8'),
				headers,
				status: outcome.status,
				error: outcome.error,
				ok,
				durationMs: Date.now() - started,
				at: new Date(this.emu.now()).toISOString(),
				test: false,
			});
			const current = this.hooks.get(webhookId);
			if (!current) return;
			if (ok) {
				current.consecutiveFailures = 0;
				return;
			}
			current.consecutiveFailures++;
			if (current.consecutiveFailures >= this.options.failureLimit) {
				current.consecutiveFailures = 0;
				current.disabledRuns++;
				current.Enabled = false;
				current.disabledUntil =
					current.disabledRuns === 1 ? this.emu.now() + this.options.disableMs : null;
			}
			if (d.attempt < this.options.maxAttempts)
				this._schedule(webhookId, { ...d, attempt: d.attempt + 1 });
		});
		this._inFlight.add(promise);
		promise.finally(() => this._inFlight.delete(promise));
	}

	/** @param {string} key @param {Buffer} body */
	_signedHeaders(key, body) {
		/** @type {Record<string, string>} */
		const headers = {
			'content-type': 'application/json; charset=utf-8',
			'sign-type': 'HMACSHA256',
		};
		const o = this.options;
		if (o.signature === 'missing') return headers;
		headers['sign-data'] =
			o.signature === 'wrong' ? sign(newKey(), body) : sign(key, body, o.signWithDecodedKey);
		return headers;
	}

	/** @param {number} webhookId @param {{ record: EventRecord, body: Buffer, attempt: number, copy: number }} d */
	_schedule(webhookId, d) {
		const run = () => {
			this._retries.delete(timer);
			this._attempt(webhookId, d);
		};
		const timer = setTimeout(run, Math.max(0, this.options.retryDelayMs));
		timer.unref();
		this._retries.set(timer, run);
	}

	/** Runs every scheduled re-send now (instead of waiting retryDelayMs). Returns how many. */
	retryNow() {
		const runs = [...this._retries.entries()];
		for (const [timer] of runs) clearTimeout(timer);
		this._retries.clear();
		for (const [, run] of runs) run();
		return runs.length;
	}

	/** Re-sends waiting for their delay. */
	get pendingRetries() {
		return this._retries.size;
	}

	/** Resolves when no attempt is in flight (scheduled re-sends are not waited for). */
	async idle() {
		while (this._inFlight.size) await Promise.allSettled([...this._inFlight]);
	}

	/**
	 * POST /test/webhooks/notifications: one test WorkOrderCreated (Object.Source "WebhookTest")
	 * to `url`, signed with the caller account's key; no re-sends. Resolves with the attempt.
	 * @param {any} p principal @param {string} url
	 */
	async sendTest(p, url) {
		const account = this.accountOf(p);
		const wo = Object.values(this.emu.state.workOrders).find((w) =>
			p.providerId !== null ? w.ProviderId === p.providerId : w.SubscriberId === p.subscriberId,
		);
		const object = wo
			? { ...workOrderObject(this.emu, wo, p.user), Source: 'WebhookTest' }
			: {
					Id: 0,
					SubscriberId: p.subscriberId,
					ProviderId: p.providerId,
					Source: 'WebhookTest',
					UpdatedBy: userRef(p.user),
				};
		/** @type {EventRecord} */
		const record = {
			seq: ++this._ids.event,
			eventType: 'WorkOrderCreated',
			action: 'NEW',
			type: 'WoRootNotification',
			object,
			accounts: [account],
			at: new Date(this.emu.now()).toISOString(),
		};
		this.events.push(record);
		const body = Buffer.from(
			stringify({
				EventType: 'WorkOrderCreated',
				Object: object,
				Action: 'NEW',
				Type: 'WoRootNotification',
				Version: 1,
			}),
			'utf8',
		);
		const headers = this._signedHeaders(this.keyOf(account), body);
		const started = Date.now();
		const outcome = await post(url, body, headers, this.options.timeoutMs);
		const ok = outcome.status !== null && outcome.status >= 200 && outcome.status < 300;
		/** @type {Delivery} */
		const delivery = {
			seq: ++this._ids.delivery,
			eventSeq: record.seq,
			webhookId: null,
			account,
			url,
			eventType: 'WorkOrderCreated',
			action: 'NEW',
			attempt: 1,
			copy: 1,
			body: body.toString('utf8'),
			headers,
			status: outcome.status,
			error: outcome.error,
			ok,
			durationMs: Date.now() - started,
			at: new Date(this.emu.now()).toISOString(),
			test: true,
		};
		this._log(delivery);
		return delivery;
	}

	close() {
		this.closed = true;
		for (const timer of this._retries.keys()) clearTimeout(timer);
		this._retries.clear();
	}
}

/**
 * Rules: each non-empty list restricts (case-insensitive): Trades → Object.Trade, Categories →
 * Object.Category, Statuses → Object.Status.Primary (work orders) or Object.Status (proposals).
 * An object without the field does not match a non-empty list.
 * @param {Subscription['Rules']} rules @param {any} object
 */
function rulesMatch(rules, object) {
	if (!rules) return true;
	const has = (/** @type {string[]} */ list, /** @type {any} */ value) =>
		list.length === 0 ||
		(typeof value === 'string' && list.some((x) => x.toLowerCase() === value.toLowerCase()));
	const status =
		object && object.Status && typeof object.Status === 'object'
			? object.Status.Primary
			: object && object.Status;
	return (
		has(rules.Trades, object && object.Trade) &&
		has(rules.Categories, object && object.Category) &&
		has(rules.Statuses, status)
	);
}

/**
 * POSTs a body; resolves { status, error } (never rejects). No answer within timeoutMs = failure.
 * @param {string} url @param {Buffer} body @param {Record<string, string>} headers @param {number} timeoutMs
 * @returns {Promise<{ status: number | null, error: string | null }>}
 */
function post(url, body, headers, timeoutMs) {
	return new Promise((resolve) => {
		let settled = false;
		const done = (/** @type {number | null} */ status, /** @type {string | null} */ error) => {
			if (settled) return;
			settled = true;
			clearTimeout(timer);
			resolve({ status, error });
		};
		/** @type {import('node:http').ClientRequest} */
		let req;
		const timer = setTimeout(() => {
			done(null, `no answer within ${timeoutMs} ms`);
			req?.destroy();
		}, timeoutMs);
		try {
			const u = new URL(url);
			const lib = u.protocol === 'https:' ? https : http;
			req = lib.request(
				u,
				{
					method: 'POST',
					headers: { ...headers, 'content-length': String(body.length) },
					agent: false,
				},
				(res) => {
					res.resume();
					res.on('end', () => done(res.statusCode ?? null, null));
					res.on('error', (err) => done(res.statusCode ?? null, String(err.message)));
				},
			);
			req.on('error', (err) => done(null, String(err.message)));
			req.end(body);
		} catch (err) {
			done(null, String(/** @type {any} */ (err).message));
		}
	});
}

// ---- event objects ------------------------------------------------------------------------------

/**
 * A work order as events carry it (webhooks.md "Objects in events": `_DTO` twins, UpdatedBy,
 * provider and location names).
 * @param {Emulator} emu @param {any} wo @param {any} [user] @param {{ notes?: any[], attachments?: any[] }} [extra]
 */
function workOrderObject(emu, wo, user, extra = {}) {
	return {
		Id: wo.Id,
		Number: wo.Number,
		PurchaseNumber: wo.PurchaseNumber,
		SubscriberId: wo.SubscriberId,
		ProviderId: wo.ProviderId,
		ProviderName: wo.Provider ? wo.Provider.Name : null,
		LocationId: wo.LocationId,
		LocationName: wo.Location ? wo.Location.Name : null,
		LocationStoreId: wo.Location ? wo.Location.StoreId : null,
		Status: { Primary: wo.Status.Primary, Extended: wo.Status.Extended },
		Priority: wo.Priority,
		Trade: wo.Trade,
		Category: wo.Category,
		Description: wo.Description,
		Caller: wo.Caller,
		Nte: wo.Nte,
		CallDate: wo.CallDate,
		CallDate_DTO: wo.CallDate_DTO,
		ScheduledDate: wo.ScheduledDate,
		ScheduledDate_DTO: wo.ScheduledDate_DTO,
		UpdatedDate: wo.UpdatedDate,
		UpdatedDate_DTO: wo.UpdatedDate_DTO,
		UpdatedBy: userRef(user),
		Notes: extra.notes || [],
		Attachments: extra.attachments || [],
	};
}

/** The few fields some events carry (check-in / check-out). @param {any} wo @param {any} [user] */
function shortWorkOrderObject(wo, user) {
	return {
		Id: wo.Id,
		SubscriberId: wo.SubscriberId,
		ProviderId: wo.ProviderId,
		LocationId: wo.LocationId,
		Trade: wo.Trade,
		Category: wo.Category,
		UpdatedBy: userRef(user),
		UpdatedDate_DTO: wo.UpdatedDate_DTO,
	};
}

/** A note as events carry it: the reference's Note (Id stays a BigInt: written as an int64 literal). @param {Emulator} emu @param {any} n */
function noteObject(emu, n) {
	return require('./notes').publicNote(emu, n);
}

/** @param {Emulator} emu @param {any} a */
function attachmentObject(emu, a) {
	return require('./notes').publicAttachment(emu, a);
}

/** @param {Emulator} emu @param {any} proposal @param {any} [user] */
function proposalObject(emu, proposal, user) {
	const wo = proposal.WorkOrderId !== null ? emu.state.workOrders[proposal.WorkOrderId] : null;
	return {
		Id: proposal.Id,
		Number: proposal.Number,
		WorkOrderId: proposal.WorkOrderId,
		WorkOrderNumber: wo ? wo.Number : null,
		SubscriberId: proposal.SubscriberId,
		ProviderId: proposal.ProviderId,
		LocationId: wo ? wo.LocationId : null,
		Status: proposal.Status,
		Amount: proposal.Amount,
		Description: proposal.Description,
		Trade: wo ? wo.Trade : null,
		Category: wo ? wo.Category : null,
		UpdatedBy: userRef(user),
	};
}

// ---- raising events from the emulator's changes ------------------------------------------------

/**
 * Events of one work-order change (workorders.js apply): Created, or the field events for what
 * changed (status, priority, scheduled date, provider). Other field changes raise no event.
 * @param {Emulator} emu @param {any} wo
 * @param {{ kind: 'created' | 'updated', statusChanged: boolean, before: Record<string, any>, by?: any }} c
 */
function workOrderChanged(emu, wo, c) {
	const hooks = emu.webhooks;
	if (!hooks) return;
	const raise = (/** @type {string} */ type) =>
		hooks.raise(type, {
			object: workOrderObject(emu, wo, c.by),
			subscriberId: wo.SubscriberId,
			providerId: wo.ProviderId,
		});
	if (c.kind === 'created') {
		raise('WorkOrderCreated');
		return;
	}
	if (c.statusChanged) raise('WorkOrderStatusChanged');
	if (c.before.Priority !== wo.Priority) raise('WorkOrderPriorityChanged');
	if (c.before.ScheduledDate_DTO !== wo.ScheduledDate_DTO) raise('WorkOrderScheduledDateChanged');
	if (c.before.ProviderId !== wo.ProviderId) {
		hooks.raise('WorkOrderProviderChanged', {
			object: workOrderObject(emu, wo, c.by),
			subscriberId: wo.SubscriberId,
			providerId: wo.ProviderId,
		});
		// the provider that lost the work order is told too
		hooks.raise('WorkOrderProviderChanged', {
			object: workOrderObject(emu, wo, c.by),
			providerId: c.before.ProviderId,
		});
	}
}

/** @param {Emulator} emu @param {any} wo @param {any} note @param {any} [user] */
function noteAdded(emu, wo, note, user) {
	if (!emu.webhooks) return;
	emu.webhooks.raise('WorkOrderNoteAdded', {
		object: workOrderObject(emu, wo, user, { notes: [noteObject(emu, note)] }),
		subscriberId: wo.SubscriberId,
		providerId: wo.ProviderId,
	});
}

/** @param {Emulator} emu @param {any} wo @param {any} attachment @param {any} [user] */
function attachmentAdded(emu, wo, attachment, user) {
	if (!emu.webhooks) return;
	emu.webhooks.raise('WorkOrderAttachmentAdded', {
		object: workOrderObject(emu, wo, user, { attachments: [attachmentObject(emu, attachment)] }),
		subscriberId: wo.SubscriberId,
		providerId: wo.ProviderId,
	});
}

/** @param {Emulator} emu @param {'CheckIn' | 'CheckOut'} type @param {any} wo @param {any} [user] */
function checkedInOut(emu, type, wo, user) {
	if (!emu.webhooks) return;
	emu.webhooks.raise(`WorkOrder${type}`, {
		object: shortWorkOrderObject(wo, user),
		subscriberId: wo.SubscriberId,
		providerId: wo.ProviderId,
	});
}

/** @param {Emulator} emu @param {any} wo @param {number} technicianId @param {any} [user] */
function technicianAssigned(emu, wo, technicianId, user) {
	if (!emu.webhooks) return;
	const tech = emu.state.technicians[technicianId];
	emu.webhooks.raise('WorkOrderTechnicianAssigned', {
		object: {
			...workOrderObject(emu, wo, user),
			TechnicianId: technicianId,
			TechnicianName: tech ? tech.Name : null,
		},
		subscriberId: wo.SubscriberId,
		providerId: wo.ProviderId,
	});
}

/** @param {Emulator} emu @param {string} eventType @param {any} proposal @param {any} [user] */
function proposalEvent(emu, eventType, proposal, user) {
	if (!emu.webhooks) return;
	emu.webhooks.raise(eventType, {
		object: proposalObject(emu, proposal, user),
		subscriberId: proposal.SubscriberId,
		providerId: proposal.ProviderId,
	});
}

/**
 * @param {Emulator} emu @param {boolean} updated @param {any} wo @param {any} response the CheckListResponse
 * @param {any} [user]
 */
function checklistResponse(emu, updated, wo, response, user) {
	if (!emu.webhooks) return;
	emu.webhooks.raise(updated ? 'CheckListResponseUpdated' : 'CheckListResponseAdded', {
		object: {
			Id: response.Id,
			WorkOrderId: wo.Id,
			CheckListQuestionId: response.CheckListQuestionId,
			CheckListQuestionOptionId: response.CheckListQuestionOptionId,
			Answer: response.Answer,
			FreeTextAnswer: response.FreeTextAnswer,
			Attempt: response.Attempt,
			TechnicianId: response.TechnicianId,
			SubscriberId: wo.SubscriberId,
			ProviderId: wo.ProviderId,
			LocationId: wo.LocationId,
			Trade: wo.Trade,
			Category: wo.Category,
			UpdatedBy: userRef(user),
			UpdatedDate_DTO: response.UpdatedDateDto,
		},
		subscriberId: wo.SubscriberId,
		providerId: wo.ProviderId,
		action: updated ? 'UPDATE' : 'NEW',
	});
}

module.exports = {
	Webhooks,
	WebhookError,
	WE,
	EVENT_TYPES,
	KNOWN_EVENT_TYPES,
	PROPOSAL_STATUS_EVENTS,
	MAX_WEBHOOKS,
	SYSTEM_USER,
	sign,
	rulesMatch,
	workOrderObject,
	noteObject,
	proposalObject,
	workOrderChanged,
	noteAdded,
	attachmentAdded,
	checkedInOut,
	technicianAssigned,
	proposalEvent,
	checklistResponse,
};
