// @ts-check
'use strict';

/**
 * Invoices as part C of the reference describes them (../contract/service-reference-c.json,
 * service-reference-c.md "Invoices"): the stored record IS part C's `Invoice` (every property, nulls
 * included), one per work order of the fixtures and for any work order a test names; what the
 * service keeps beside it (subscriber, provider, location, multi-level approval, the instant it was
 * posted and changed) sits in `emu.invoiceMeta` by Id, never in the answer.
 *
 * Statuses (text, as the invoice events name them): Open, Approved, On Hold, Reviewed (multi-level
 * approval under way), Rejected, Voided, Paid, Disputed. Dates are the service's local time (US
 * Eastern) without an offset, as `UpdatedDate` of part C: no `_DTO` twin.
 *
 * Emulator methods (installed on the Emulator class by `install`): `invoice(id)`,
 * `createInvoice(partial)`, `createInvoices(count | partials, options?)`, `setInvoiceStatus(id,
 * status)`, `setInvoiceApprovalCode(id, code)`, `starInvoice(id, starred)`, `setInvoiceOptions(o)`,
 * `setInvoiceAdmin(user, bool)`, `invoiceList()`. Each change raises its invoice event.
 */

const { make } = require('./objects');
const { C } = require('./reference-c');
const { markIdOrdered } = require('./odata');
const { EVENT_TYPES } = require('./webhooks');

/**
 * @typedef {import('./index').Emulator} Emulator
 * @typedef {{ subscriberId: number, providerId: number, locationId: number, mli: boolean,
 *   postedMs: number, updatedMs: number, approvedBy: string | null, rejectionReason: string | null,
 *   disputeReason: string | null, createdBy: string | null }} InvoiceMeta
 */

const STATUSES = [
	'Open',
	'Approved',
	'On Hold',
	'Reviewed',
	'Rejected',
	'Voided',
	'Paid',
	'Disputed',
];

/** Status → the event the service sends when an invoice reaches it. */
const STATUS_EVENTS = {
	Open: 'InvoiceOpen',
	Approved: 'InvoiceApproved',
	'On Hold': 'InvoiceOnHold',
	Reviewed: 'InvoiceReviewed',
	Rejected: 'InvoiceRejected',
	Voided: 'InvoiceVoided',
	Paid: 'InvoicePaid',
	Disputed: 'InvoiceDisputed',
};

/** The 12 invoice events (webhooks.md): the webhook service's list. */
const INVOICE_EVENTS = EVENT_TYPES.invoice;

/** Compare statuses without case and spaces ("OnHold" = "On Hold"). @param {string} s */
function statusOf(s) {
	if (STATUSES.includes(s)) return s;
	const key = String(s || '')
		.replace(/\s+/g, '')
		.toLowerCase();
	return STATUSES.find((x) => x.replace(/\s+/g, '').toLowerCase() === key);
}

const DAY = 24 * 3600 * 1000;
const FIRST_ID = 71001;
const FIRST_PAYMENT_ID = 5100001;
const TAX_RATE = 0.0825;

const round2 = (/** @type {number} */ n) => Math.round(n * 100) / 100;

function defaultOptions() {
	return {
		/** the account's feature switch for bulk payments (POST /invoices/Payments); off: 403 */
		bulkPayments: true,
		/** at most this many payments in one bulk request (more: 400) */
		maxBulkPayments: 500,
		/** what POST /invoices answers (201): 'object' ({ "Id": n }), 'id' (the bare number) or 'empty' */
		created: /** @type {'object' | 'id' | 'empty'} */ ('object'),
	};
}

/** Rejection reasons per subscriber (InvoiceRejectionReasonResponse). */
const REJECTION_REASONS = {
	1001: [
		[1, 'Work order is not invoiceable', 'WorkOrderNotInvoiceable', false],
		[2, 'Invoice requires correction', 'InvoiceRequiresCorrection', false],
		[3, 'Rates do not match the agreement', 'Custom', false],
		[4, 'Duplicate invoice', 'Custom', true],
		[5, 'Other', 'Other', false],
	],
	2001: [
		[11, 'Missing sign-off sheet', 'Custom', false],
		[12, 'Other', 'Other', false],
	],
	2002: [[21, 'Other', 'Other', false]],
	2000: [[31, 'Other', 'Other', false]],
};

/** The named fixture invoices: key → [id, status, work order key or id, days ago posted, extra]. */
const NAMED = /** @type {Array<[string, string, number, number, Record<string, any>]>} */ ([
	['open', 'Open', 1, 2, {}],
	['openOverNte', 'Open', 2, 3, { overNte: true }],
	['onHold', 'On Hold', 3, 5, {}],
	['approved', 'Approved', 4, 6, {}],
	['approvedSecond', 'Approved', 5, 7, {}],
	['approvedThird', 'Approved', 6, 8, {}],
	['reviewed', 'Reviewed', 7, 4, { mli: true }],
	['mliOpen', 'Open', 8, 3, { mli: true }],
	['rejected', 'Rejected', 10, 9, {}],
	['voided', 'Voided', 11, 10, {}],
	['paid', 'Paid', 12, 20, {}],
	['disputed', 'Disputed', 13, 2, {}],
	['mismatchedRates', 'Open', 14, 1, { mismatched: true }],
	['approvedOld', 'Approved', 15, 120, {}],
	['veryOld', 'Approved', 1, 400, {}],
	['otherProvider', 'Open', 9, 3, {}],
]);

/**
 * @param {Emulator} emu
 */
class Invoices {
	/** @param {Emulator} emu */
	constructor(emu) {
		this.emu = emu;
		/** @type {Map<number, any>} by Id: part C's Invoice */
		this.store = new Map();
		/** @type {Map<number, InvoiceMeta>} */
		this.meta = new Map();
		/** @type {any[] | null} */
		this._list = null;
		this.options = defaultOptions();
		this._ids = { invoice: FIRST_ID, payment: FIRST_PAYMENT_ID, line: 910001, history: 1 };
		this.rejectionReasons = Object.fromEntries(
			Object.entries(REJECTION_REASONS).map(([sub, list]) => [
				sub,
				list.map(([Id, Description, ReasonType, Retired]) =>
					make(C('InvoiceRejectionReasonResponse'), {
						Id,
						SubscriberId: Number(sub),
						Description,
						ReasonType,
						Retired,
					}),
				),
			]),
		);
		/** @type {Record<string, number>} */
		this.fixtures = {};
		// the administrator role bulk payments need: the subscriber and the manager have it
		for (const u of Object.values(emu.state.users)) {
			if (u.invoiceAdmin === undefined)
				u.invoiceAdmin = u.username === 'demo.subscriber' || u.username === 'demo.manager';
		}
		this._seed();
	}

	_seed() {
		const emu = this.emu;
		const wos = emu.fixtures.workOrders;
		const count = wos.mainCount;
		const now = emu.now();
		const woAt = (/** @type {number} */ k) => wos.mainFirst + ((k - 1) % count);
		for (const [key, status, k, days, extra] of NAMED) {
			const woId = key === 'otherProvider' ? wos.otherProvider : woAt(k);
			const inv = this._build(emu.state.workOrders[woId], {
				status,
				postedMs: now - days * DAY - 3600 * 1000,
				...extra,
			});
			this.fixtures[key] = inv.Id;
		}
		// the rest of the main subscriber's work orders: one invoice each for every third, statuses in turn
		let n = 0;
		for (let k = 16; k <= Math.min(count, 60); k += 3) {
			const woId = woAt(k);
			const wo = emu.state.workOrders[woId];
			if (!wo || wo.ProviderId === 3002) continue;
			this._build(wo, {
				status: ['Open', 'Approved', 'On Hold', 'Paid', 'Rejected'][n % 5],
				postedMs: now - ((n * 7) % 80) * DAY - 7200 * 1000,
			});
			n++;
		}
		const child = emu.fixtures.workOrders.child2001;
		if (child && child[0]) {
			const inv = this._build(emu.state.workOrders[child[0]], {
				status: 'Open',
				postedMs: now - 2 * DAY,
			});
			this.fixtures.child2001 = inv.Id;
		}
		this.fixtures.firstNewId = this._ids.invoice;
	}

	/**
	 * The nested Provider, Subscriber, Location and Currency of part C, one object per record, shared
	 * by the invoices (never changed in place).
	 * @param {'provider' | 'subscriber' | 'location' | 'currency'} kind @param {any} rec
	 */
	_shared(kind, rec) {
		if (!rec) return null;
		if (!this._objects) this._objects = new Map();
		const key = `${kind}:${rec.Id ?? ''}`;
		let hit = this._objects.get(key);
		if (hit) return hit;
		const emu = this.emu;
		if (kind === 'provider')
			hit = make(C('Provider'), {
				Id: rec.Id,
				Name: rec.Name,
				FullName: rec.Name,
				Email: rec.Email,
				Country: 'USA',
				IsInternal: false,
				IsOnOffShoreFeatureEnabled: false,
				DoNotDispatch: false,
			});
		else if (kind === 'subscriber')
			hit = make(C('Subscriber'), { Id: rec.Id, Name: rec.Name, ShortName: rec.Name });
		else if (kind === 'location') {
			const sub = emu.state.subscribers[rec.SubscriberId];
			hit = make(C('Location'), {
				Id: rec.Id,
				SubscriberId: rec.SubscriberId,
				SubscriberName: sub ? sub.Name : null,
				StoreId: rec.StoreId,
				Name: rec.Name,
				ShortName: rec.StoreId,
				Latitude: rec.Latitude ?? null,
				Longitude: rec.Longitude ?? null,
				City: rec.City,
				State: rec.State,
				Country: 'USA',
				Status: 'Open',
				TimeZoneIanaName: rec.TimeZone || 'America/New_York',
			});
		} else
			hit = make(C('Currency'), {
				Id: 1,
				AlphabeticalCode: 'USD',
				DecimalCount: 2,
				Entity: 'UNITED STATES OF AMERICA',
				CurrencyName: 'US Dollar',
				NumericCode: '840',
				Rate: 1,
			});
		this._objects.set(key, hit);
		return hit;
	}

	/**
	 * The service's local time of an instant (as `emu.time.local`), its offset looked up once per hour
	 * (20,000 invoices spread over weeks are built in a fraction of the time).
	 * @param {number} ms
	 */
	local(ms) {
		const time = this.emu.time;
		if (this._offTime !== time) {
			this._offTime = time;
			/** @type {Map<number, number | null>} */
			this._off = new Map();
		}
		const off = /** @type {Map<number, number | null>} */ (this._off);
		const h = Math.floor(ms / 3600000);
		let minutes = off.get(h);
		if (minutes === undefined) {
			const a = time.offsetMinutes(h * 3600000);
			minutes = a === time.offsetMinutes(h * 3600000 + 3599999) ? a : null;
			off.set(h, minutes);
		}
		if (minutes === null) return time.local(ms);
		return new Date(ms + minutes * 60000).toISOString().replace('Z', '');
	}

	/** Every stored invoice in Id order (cached until one is added). */
	list() {
		if (!this._list) this._list = markIdOrdered([...this.store.values()]);
		return this._list;
	}

	/**
	 * Builds and stores an invoice for a work order.
	 * @param {any} wo the stored work order
	 * @param {{ status?: string, postedMs?: number, overNte?: boolean, mli?: boolean, mismatched?: boolean,
	 *   id?: number, number?: string, amounts?: { labor?: number, material?: number, travel?: number, other?: number, tax?: number },
	 *   invoiceDateMs?: number, createdBy?: string | null, description?: string | null, lines?: any, raiseEvent?: boolean }} o
	 */
	_build(wo, o = {}) {
		const emu = this.emu;
		if (!wo) throw new Error('no such work order');
		const id = o.id ?? this._ids.invoice++;
		if (o.id !== undefined && o.id >= this._ids.invoice) this._ids.invoice = o.id + 1;
		if (this.store.has(id)) throw new Error(`invoice ${id} already exists`);
		const status = statusOf(o.status || 'Open');
		if (!status) throw new Error(`status must be one of ${STATUSES.join(', ')}`);
		const nte = Number(wo.Nte) || 1000;
		const target = o.overNte ? nte * 1.4 : nte * (0.55 + ((id * 37) % 30) / 100);
		const a = o.amounts || {
			labor: round2(target * 0.5),
			material: round2(target * 0.3),
			travel: round2(target * 0.05),
			other: 0,
		};
		const labor = round2(a.labor || 0);
		const material = round2(a.material || 0);
		const travel = round2(a.travel || 0);
		const other = round2(a.other || 0);
		const subtotal = round2(labor + material + travel + other);
		const tax =
			a.tax !== undefined ? round2(a.tax) : o.amounts ? 0 : round2((labor + material) * TAX_RATE);
		const total = round2(subtotal + tax);
		const postedMs = emu.writtenInstant(o.postedMs ?? emu.now());
		/** @type {Map<number, string>} */
		const texts = new Map();
		const local = (/** @type {number} */ ms) => {
			let t = texts.get(ms);
			if (t === undefined) texts.set(ms, (t = this.local(ms)));
			return t;
		};
		const sub = emu.state.subscribers[wo.SubscriberId];
		const provider = emu.state.providers[wo.ProviderId];
		const loc = emu.state.locations[wo.LocationId];
		const line = () => this._ids.line++;
		const lines = o.lines || {
			Labors: labor
				? [
						make(C('InvoiceLabor'), {
							Id: line(),
							InvoiceId: id,
							HourlyRate: o.mismatched ? 95 : 85,
							Hours: round2(labor / (o.mismatched ? 95 : 85)),
							Amount: labor,
							IsOffShore: false,
							CityPerformed: loc ? loc.City : null,
							AgreedRate: 85,
							RateDiscrepancyReason: o.mismatched ? 'After-hours call' : null,
							IsRateDiscrepancy: !!o.mismatched,
							isNontaxableVATEU: false,
						}),
					]
				: [],
			Materials: material
				? [
						make(C('InvoiceMaterial'), {
							Id: line(),
							InvoiceId: id,
							Description: `${wo.Trade} parts`,
							PartNum: `P-${wo.Id % 1000}`,
							UnitPrice: material,
							PartName: `${wo.Trade} part`,
							Quantity: 1,
							Amount: material,
							IsMarkUpDiscrepancy: false,
							IsPartPriceDiscrepancy: false,
							IsRateDiscrepancy: false,
							isNontaxableVATEU: false,
						}),
					]
				: [],
			Travels: travel
				? [
						make(C('InvoiceTravel'), {
							Id: line(),
							InvoiceId: id,
							Description: 'Trip charge',
							UnitPrice: travel,
							Quantity: 1,
							Amount: travel,
							IsOffShore: false,
							isNontaxableVATEU: false,
						}),
					]
				: [],
			Others: other
				? [
						make(C('InvoiceOther'), {
							Id: line(),
							InvoiceId: id,
							Description: 'Other charges',
							Type: 'Other',
							Amount: other,
							Quantity: 1,
							UnitPrice: other,
							IsUnitPriceDiscrepancy: false,
							isNontaxableVATEU: false,
						}),
					]
				: [],
		};
		const paid = status === 'Paid';
		const approved = status === 'Approved' || paid;
		const by = o.createdBy ?? (provider ? provider.Name : null);
		const inv = make(C('Invoice'), {
			Provider: this._shared('provider', provider),
			Subscriber: this._shared('subscriber', sub),
			Location: this._shared('location', loc),
			Id: id,
			Number: o.number ?? `INV-${id}`,
			InvoiceTax: tax,
			PostedTaxRate: o.amounts ? 0 : TAX_RATE * 100,
			InvoiceTotal: total,
			InvoiceBalance: paid ? 0 : total,
			Currency: this._shared('currency', {}),
			ApprovedDate: approved ? local(postedMs + DAY) : null,
			ApprovalCode: approved ? `AC-${wo.Id % 10000}` : null,
			PostedDate: local(postedMs),
			PostedBy: by,
			Subtotal: subtotal,
			Status: status,
			Trade: wo.Trade,
			InvoiceAmountsDetails: make(C('InvoiceAmountsDetails'), {
				LaborAmount: labor,
				MaterialAmount: material,
				TravelAmount: travel,
				FreightAmount: 0,
				OtherAmount: other,
			}),
			InvoiceTaxesDetails: make(C('InvoiceTaxesDetails'), {
				LaborTax: round2(labor * (o.amounts ? 0 : TAX_RATE)),
				MaterialTax: round2(material * (o.amounts ? 0 : TAX_RATE)),
				TravelTax: 0,
				FreightTax: 0,
				OtherTax: 0,
			}),
			...lines,
			TaxApprovalCodeGroups: [],
			Tax2ApprovalCodeGroups: [],
			FreightApprovalCodeGroups: [],
			WithMismatchedRates: !!o.mismatched,
			IsOutsourced: false,
			IsStarred: false,
			IsTransferred: false,
			Description: o.description ?? `${wo.Trade} ${wo.Category}: ${wo.Description}`,
			InvoiceDate: local(o.invoiceDateMs ?? postedMs),
			LaborTaxIncluded: false,
			TravelTaxIncluded: false,
			MaterialsTaxIncluded: false,
			FreightTaxIncluded: false,
			OtherTaxIncluded: false,
			IsExists: true,
			StatusChangeDate: local(approved ? postedMs + DAY : postedMs),
			StatusChangeUser: by,
			IsDuplicate: false,
			WoTrackingNumber: wo.Id,
			Terms: 'Net 30',
			PaidDate: paid ? local(postedMs + 2 * DAY) : null,
			LastActionDate: local(approved ? postedMs + DAY : postedMs),
			UpdatedDate: local(paid ? postedMs + 2 * DAY : approved ? postedMs + DAY : postedMs),
			StatusHistoryShort: [],
			WoAssignedTo: provider ? provider.Name : null,
			ApprovalCodes: [],
			IsChargesApprovalCodesDefault: true,
			Payments: paid
				? [
						make(C('InvoicePaymentResponse'), {
							Id: this._ids.payment++,
							PaymentDate: local(postedMs + 2 * DAY),
							PaidBy: 'demo.manager',
							PaymentNumber: `CHK-${id}`,
							PaymentAmount: total,
						}),
					]
				: [],
			StoredFeatures: [],
		});
		this._history(inv, 'Open', by, postedMs, local(postedMs));
		if (status !== 'Open')
			this._history(inv, status, 'emulator', postedMs + DAY, local(postedMs + DAY));
		this.store.set(id, inv);
		this.meta.set(id, {
			subscriberId: wo.SubscriberId,
			providerId: wo.ProviderId,
			locationId: wo.LocationId,
			mli: !!o.mli || status === 'Reviewed',
			postedMs,
			updatedMs: paid ? postedMs + 2 * DAY : approved ? postedMs + DAY : postedMs,
			approvedBy: null,
			rejectionReason: status === 'Rejected' ? 'Invoice requires correction' : null,
			disputeReason: status === 'Disputed' ? 'Sales tax could not be verified' : null,
			createdBy: by,
		});
		this._list = null;
		if (o.raiseEvent) this.event('InvoiceCreated', inv);
		return inv;
	}

	/** @param {any} inv @param {string} status @param {string | null} by @param {number} ms @param {string} [text] */
	_history(inv, status, by, ms, text) {
		inv.StatusHistoryShort.push(
			make(C('StatusHistoryShort'), {
				CreatedBy: by,
				CreatedById: null,
				Status: status,
				InvId: inv.Id,
				ActionDate: text ?? this.local(ms),
			}),
		);
	}

	/**
	 * A change written now: UpdatedDate, LastActionDate (and the status' own dates).
	 * @param {any} inv @param {string | null} by
	 */
	touch(inv, by) {
		const emu = this.emu;
		const ms = emu.writtenInstant(emu.now());
		inv.UpdatedDate = emu.time.local(ms);
		inv.LastActionDate = inv.UpdatedDate;
		/** @type {InvoiceMeta} */ (this.meta.get(inv.Id)).updatedMs = ms;
		return ms;
	}

	/**
	 * Moves an invoice to a status (the service's own change, or a user's), with its history and event.
	 * @param {any} inv @param {string} status @param {string | null} by @param {{ comments?: string | null }} [o]
	 */
	setStatus(inv, status, by, o = {}) {
		const s = statusOf(status);
		if (!s) throw new Error(`status must be one of ${STATUSES.join(', ')}`);
		const ms = this.touch(inv, by);
		const local = this.emu.time.local(ms);
		inv.Status = s;
		inv.StatusChangeDate = local;
		inv.StatusChangeUser = by;
		if (o.comments !== undefined) inv.Comments = o.comments;
		if (s === 'Approved') inv.ApprovedDate = local;
		if (s === 'Paid') {
			inv.PaidDate = local;
			inv.InvoiceBalance = 0;
		}
		const m = /** @type {InvoiceMeta} */ (this.meta.get(inv.Id));
		if (s === 'Reviewed') m.mli = true;
		if (s === 'Rejected') m.rejectionReason = o.comments ?? m.rejectionReason;
		if (s === 'Disputed') m.disputeReason = m.disputeReason ?? 'Sales tax could not be verified';
		this._history(inv, s, by, ms);
		this.event(/** @type {Record<string, string>} */ (STATUS_EVENTS)[s], inv, by);
		return inv;
	}

	/** @param {any} inv @param {string | null} code @param {string | null} by */
	setApprovalCode(inv, code, by) {
		if ((inv.ApprovalCode ?? '') === (code ?? '')) return inv;
		this.touch(inv, by);
		inv.ApprovalCode = code;
		this.event('InvoiceApprovalCodeChanged', inv, by);
		return inv;
	}

	/** @param {any} inv @param {boolean} starred @param {string | null} by */
	star(inv, starred, by) {
		if (inv.IsStarred === !!starred) return inv;
		const ms = this.touch(inv, by);
		inv.IsStarred = !!starred;
		inv.StarredBy = starred ? by : null;
		inv.StarredDate = starred ? this.emu.time.local(ms) : null;
		this.event(starred ? 'InvoiceStarAdded' : 'InvoiceStarRemoved', inv, by);
		return inv;
	}

	/**
	 * Records a payment (the caller checked the rules); a balance paid in full makes the invoice Paid.
	 * @param {any} inv @param {{ date: number, number: string, amount: number }} p @param {string} by
	 */
	addPayment(inv, p, by) {
		const payment = make(C('InvoicePaymentResponse'), {
			Id: this._ids.payment++,
			PaymentDate: this.emu.time.local(p.date),
			PaidBy: by,
			PaymentNumber: p.number,
			PaymentAmount: round2(p.amount),
		});
		inv.Payments.push(payment);
		inv.InvoiceBalance = round2(inv.InvoiceBalance - p.amount);
		if (inv.InvoiceBalance <= 0.004) {
			inv.InvoiceBalance = 0;
			this.setStatus(inv, 'Paid', by);
		} else this.touch(inv, by);
		return payment;
	}

	/**
	 * The invoice in events (webhooks.md "Invoice"): Id, Number, WoTrackingNumber, SubscriberId,
	 * ProviderId, LocationId, Status, InvoiceTotal, Currency, Trade, ApprovalCode, PostedDate,
	 * UpdatedDate, UpdatedBy.
	 * @param {any} inv @param {string | null} [by]
	 */
	eventObject(inv, by) {
		const m = /** @type {InvoiceMeta} */ (this.meta.get(inv.Id));
		const user = by ? this.emu.state.users[String(by).toLowerCase()] : null;
		return {
			Id: inv.Id,
			Number: inv.Number,
			WoTrackingNumber: inv.WoTrackingNumber,
			SubscriberId: m.subscriberId,
			ProviderId: m.providerId,
			LocationId: m.locationId,
			Status: inv.Status,
			InvoiceTotal: inv.InvoiceTotal,
			InvoiceBalance: inv.InvoiceBalance,
			Currency: inv.Currency ? inv.Currency.AlphabeticalCode : null,
			Trade: inv.Trade,
			ApprovalCode: inv.ApprovalCode,
			IsStarred: inv.IsStarred,
			PostedDate: inv.PostedDate,
			UpdatedDate: inv.UpdatedDate,
			UpdatedDate_DTO: this.emu.time.dto(m.updatedMs),
			UpdatedBy: user
				? { Id: user.userId, UserName: user.username, FullName: user.fullName, Email: user.email }
				: { Id: 0, UserName: by || 'emulator', FullName: 'Work Order Service', Email: null },
		};
	}

	/** @param {string} type @param {any} inv @param {string | null} [by] */
	event(type, inv, by) {
		const emu = this.emu;
		if (!emu.webhooks) return;
		const m = /** @type {InvoiceMeta} */ (this.meta.get(inv.Id));
		emu.webhooks.raise(type, {
			object: this.eventObject(inv, by),
			subscriberId: m.subscriberId,
			providerId: m.providerId,
			action: type === 'InvoiceCreated' ? 'NEW' : 'UPDATE',
			type: 'GenericRootNotification',
		});
	}
}

/** @param {Emulator} emu @param {number | string} id */
function requireInvoice(emu, id) {
	const inv = emu.invoices.store.get(Number(id));
	if (!inv) throw new (require('./workorders').WorkOrderError)(`invoice ${id} does not exist`, 404);
	return inv;
}

/**
 * Adds the invoice methods to the Emulator class.
 * @param {any} Emulator
 */
function install(Emulator) {
	Object.assign(Emulator.prototype, {
		/** The stored invoice (part C's Invoice, live) or undefined. @param {number | string} id */
		invoice(id) {
			return this.invoices.store.get(Number(id));
		},
		/** Every stored invoice in Id order (do not modify the array). */
		invoiceList() {
			return this.invoices.list();
		},
		/**
		 * An invoice for a work order (status Open unless given), as if its provider had posted it;
		 * raises InvoiceCreated.
		 * @param {{ WorkOrderId: number, Status?: string, Id?: number, Number?: string, PostedDate?: string | number,
		 *   Mli?: boolean, OverNte?: boolean, Amounts?: any }} partial
		 */
		createInvoice(partial) {
			const wo = this.workOrder(partial.WorkOrderId);
			if (!wo)
				throw new (require('./workorders').WorkOrderError)(
					`work order ${partial.WorkOrderId} does not exist`,
					404,
				);
			return this.invoices._build(wo, {
				id: partial.Id,
				number: partial.Number,
				status: partial.Status,
				postedMs: partial.PostedDate !== undefined ? this.parseDate(partial.PostedDate) : undefined,
				mli: partial.Mli,
				overNte: partial.OverNte,
				amounts: partial.Amounts,
				raiseEvent: true,
			});
		},
		/**
		 * Many invoices at once (no events): `count` invoices over the main subscriber's work orders, or the
		 * given partials. Options: `status` (default: statuses in turn), `spreadDays` (PostedDate spread
		 * evenly over the last N days, default 60), `events` (raise InvoiceCreated for each; default false).
		 * 20,000 take well under a second or two.
		 * @param {number | any[]} what @param {{ status?: string, spreadDays?: number, events?: boolean }} [o]
		 */
		createInvoices(what, o = {}) {
			const inv = this.invoices;
			const list = this.workOrderList().filter(
				(/** @type {any} */ w) => w.SubscriberId === this.fixtures.subscribers.main,
			);
			const partials = Array.isArray(what)
				? what
				: Array.from({ length: Number(what) }, (_, i) => ({
						WorkOrderId: list[i % list.length].Id,
					}));
			const now = this.now();
			const spread = (o.spreadDays ?? 60) * DAY;
			const cycle = ['Open', 'Approved', 'On Hold', 'Paid', 'Rejected'];
			const out = partials.map((p, i) => {
				const wo = this.workOrder(p.WorkOrderId);
				return inv._build(wo, {
					id: p.Id,
					number: p.Number,
					status: p.Status ?? o.status ?? cycle[i % cycle.length],
					postedMs:
						p.PostedDate !== undefined
							? this.parseDate(p.PostedDate)
							: now - Math.floor((spread * (partials.length - i)) / (partials.length + 1)),
					mli: p.Mli,
					overNte: p.OverNte,
					amounts: p.Amounts,
					raiseEvent: !!o.events,
				});
			});
			return out;
		},
		/** Moves an invoice to a status as the service would (its event). @param {number | string} id @param {string} status */
		setInvoiceStatus(id, status) {
			return this.invoices.setStatus(requireInvoice(this, id), status, 'emulator');
		},
		/** @param {number | string} id @param {string | null} code */
		setInvoiceApprovalCode(id, code) {
			return this.invoices.setApprovalCode(requireInvoice(this, id), code, 'emulator');
		},
		/** @param {number | string} id @param {boolean} starred */
		starInvoice(id, starred) {
			return this.invoices.star(requireInvoice(this, id), starred, 'emulator');
		},
		/** Puts an invoice under multi-level approval (MLI) or takes it out. @param {number | string} id @param {boolean} mli */
		setInvoiceMli(id, mli) {
			requireInvoice(this, id);
			/** @type {InvoiceMeta} */ (this.invoices.meta.get(Number(id))).mli = !!mli;
		},
		/** `bulkPayments` (feature switch), `maxBulkPayments`, `created`. @param {Record<string, any>} o */
		setInvoiceOptions(o) {
			Object.assign(this.invoices.options, o);
			return { ...this.invoices.options };
		},
		/** A user's administrator role for bulk payments. @param {string} who @param {boolean} admin */
		setInvoiceAdmin(who, admin) {
			const user = this._user(who);
			user.invoiceAdmin = !!admin;
			return user.invoiceAdmin;
		},
	});
}

/**
 * Control routes (`/__emulator/invoices...`) for an emulator in another process.
 * @param {Emulator} emu @param {string} route @param {() => any} body
 */
function control(emu, route, body) {
	const { json } = require('./http-util');
	let m;
	if ((m = /^POST __emulator\/invoices\/(\d+)\/status$/.exec(route)))
		return json(200, emu.setInvoiceStatus(Number(m[1]), body().status));
	if ((m = /^POST __emulator\/invoices\/(\d+)\/star$/.exec(route)))
		return json(200, emu.starInvoice(Number(m[1]), body().starred !== false));
	if ((m = /^POST __emulator\/invoices\/(\d+)\/approval-code$/.exec(route)))
		return json(200, emu.setInvoiceApprovalCode(Number(m[1]), body().code ?? null));
	if ((m = /^GET __emulator\/invoices\/(\d+)$/.exec(route))) {
		const inv = emu.invoice(Number(m[1]));
		return inv ? json(200, inv) : json(404, { error: `invoice ${m[1]} does not exist` });
	}
	switch (route) {
		case 'POST __emulator/invoices': {
			const b = body();
			if (Array.isArray(b)) return json(201, emu.createInvoices(b).length);
			if (b && b.count !== undefined)
				return json(201, { created: emu.createInvoices(Number(b.count), b).length });
			return json(201, emu.createInvoice(b));
		}
		case 'POST __emulator/invoices/options':
			return json(200, emu.setInvoiceOptions(body()));
		case 'POST __emulator/invoices/admin': {
			const b = body();
			return json(200, { user: b.user, admin: emu.setInvoiceAdmin(b.user, b.admin) });
		}
		default:
			return null;
	}
}

module.exports = {
	Invoices,
	install,
	control,
	statusOf,
	STATUSES,
	STATUS_EVENTS,
	INVOICE_EVENTS,
	DAY,
	round2,
};
