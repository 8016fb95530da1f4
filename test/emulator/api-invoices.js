// @ts-check
'use strict';

/**
 * The invoice routes of part C (service-reference-c.md "Invoices"), under /api/v3:
 *
 *   GET  /odata/invoices                         part C's Invoice[], OData; the last 90 days unless
 *                                                $filter names PostedDate; a PostedDate reach beyond
 *                                                365 days: 400 ErrorResponse
 *   GET  /invoices/{invoiceId}                   ApiGetInvoiceResponse (404 when unknown)
 *   PUT  /invoices/{invoiceId}/approve|reject|onhold   query approvalCode, comments, category (approve)
 *                                                / comments: 204; refusals 400 ErrorResponse
 *   GET  /invoices/{subscriberId}/InvoiceRejectionReasons | InvoiceRequirements
 *   POST /invoices/{invoiceId}/Payment · /invoices/Workorders/{trackingNumber}/Payment   204
 *   POST /invoices/Payments                      201 InvoicePaymentBulkResponse (per payment PaymentId
 *                                                or Error); 403 without the feature or the admin role
 *   GET  /invoices/{invoiceId}/discrepancy       RateDiscrepancy[]
 *   POST /invoices                               (contractor) CreateInvoiceRequest → 201
 *
 * Refusals are 400 `ErrorResponse` whose codes are names from part C's list:
 *   InvoiceDoesntExist   no such invoice, or not the caller's
 *   NotAllowed           a provider's user moving or paying; an invoice under multi-level approval
 *   InvoiceBatchUpdateInvalidInvoiceStatusError   the status does not allow the move or the payment
 *   InvalidNumberOfParameters   a required query value missing
 *   BadPaymentData       a payment without date, number or a positive amount within the balance
 *   InvalidTimeRangeActivity    a PostedDate filter reaching back more than 365 days
 *   InvalidSubscriberId  reasons/requirements of another subscriber
 *   FeatureIsOff (403)   bulk payments switched off for the account; NotAllowed (403) not an admin
 */

const { json, empty, fail: failNumeric, odataError, Reply } = require('./http-util');
const { queryParam, requirePermission, readBody, canSeeWo } = require('./api-util');
const { applyODataQuery, ODataError } = require('./odata');
const { make } = require('./objects');
const { C, unprefix } = require('./reference-c');
const { statusOf, DAY, round2 } = require('./invoices');

/**
 * @typedef {import('./index').Emulator} Emulator
 * @typedef {import('./index').RequestContext} RequestContext
 * @typedef {import('./api-util').Principal} Principal
 * @typedef {import('./api-util').Handler} Handler
 */

/**
 * A refusal with part C's code names.
 * @param {number} status @param {string} code @param {string} message @returns {never}
 */
function fail(status, code, message) {
	throw new Reply(
		json(status, { ErrorCodes: [code], ErrorCode: code, ErrorMessage: message, Data: null }),
	);
}

/** @param {Principal} p */
const isSubscriberUser = (p) =>
	p.providerId === null && (p.user.kind === 'subscriber' || p.user.kind === 'universal');

/** @param {Emulator} emu @param {Principal} p @param {any} inv */
function canSee(emu, p, inv) {
	const m = emu.invoices.meta.get(inv.Id);
	if (!m) return false;
	return p.providerId !== null ? m.providerId === p.providerId : m.subscriberId === p.subscriberId;
}

/** @param {Emulator} emu @param {Principal} p @param {number} id */
function requireInvoice(emu, p, id) {
	const inv = emu.invoices.store.get(id);
	if (!inv || !canSee(emu, p, inv)) fail(400, 'InvoiceDoesntExist', `Invoice ${id} was not found`);
	return inv;
}

// ---- reads ----------------------------------------------------------------------------------------

const POSTED_RE =
	/\bPostedDate\s+(eq|ne|gt|ge|lt|le)\s+(?:datetime(?:offset)?'|')?([0-9]{4}-[0-9]{2}-[0-9]{2}(?:T[0-9:.]+)?(?:Z|[+-][0-9]{2}:?[0-9]{2})?)/gi;

/** @type {Handler} */
function odataInvoices(emu, ctx, p) {
	const filter = queryParam(ctx, '$filter');
	const now = emu.now();
	const namesPosted = filter !== undefined && /\bPostedDate\b/.test(String(filter));
	if (namesPosted) {
		for (const m of String(filter).matchAll(POSTED_RE)) {
			let at;
			try {
				at = emu.time.parse(m[2].replace(' ', '+'));
			} catch {
				continue;
			}
			if (now - at > 365 * DAY) {
				fail(
					400,
					'InvalidTimeRangeActivity',
					`The distance between PostedDate and today may not exceed 365 days: ${m[2]} is ${Math.floor((now - at) / DAY)} days ago`,
				);
			}
		}
	}
	const from = now - (namesPosted ? 365 : 90) * DAY;
	const items = emu.invoices
		.list()
		.filter((inv) => canSee(emu, p, inv) && emu.invoices.meta.get(inv.Id).postedMs >= from);
	try {
		return json(
			200,
			applyODataQuery(items, ctx.query, {
				context: `${emu.baseUrl}/v3/odata/$metadata#Invoices`,
				type: C('Invoice'),
				time: emu.time,
			}),
		);
	} catch (e) {
		if (e instanceof ODataError) throw new Reply(odataError(unprefix(e.message)));
		throw e;
	}
}

/** `MM/dd/yyyy hh:mm tt` of a local date text. @param {string | null} text */
function display(text) {
	const m = text && /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})/.exec(text);
	if (!m) return null;
	const h = Number(m[4]);
	return `${m[2]}/${m[3]}/${m[1]} ${String(h % 12 === 0 ? 12 : h % 12).padStart(2, '0')}:${m[5]} ${h < 12 ? 'AM' : 'PM'}`;
}

/** The one-invoice answer: the Invoice fields plus IDs, display texts, reasons. @param {Emulator} emu @param {any} inv */
function invoiceResponse(emu, inv) {
	const m = emu.invoices.meta.get(inv.Id);
	const { Provider, Subscriber, Location, ...rest } = inv;
	const values = /** @type {Record<string, any>} */ ({});
	const target = require('../contract/reference').propertyNames(C('ApiGetInvoiceResponse'));
	for (const k of target) if (k in rest) values[k] = rest[k];
	return make(C('ApiGetInvoiceResponse'), {
		...values,
		ProviderId: m.providerId,
		SubscriberId: m.subscriberId,
		LocationId: m.locationId,
		InvoiceNumber: inv.Number,
		WithAutoApprovalCriteria: false,
		PostedDateStr: display(inv.PostedDate),
		InvoiceDateStr: display(inv.InvoiceDate),
		PaidDateStr: display(inv.PaidDate),
		StarredDateStr: display(inv.StarredDate),
		ApprovedDateStr: display(inv.ApprovedDate),
		TransferredDateStr: display(inv.TransferredDate),
		LastActionDateStr: display(inv.LastActionDate),
		StatusChangeDateStr: display(inv.StatusChangeDate),
		ProviderName: Provider ? Provider.Name : null,
		PreviousUpdated: inv.UpdatedDate,
		Discount: 0,
		SubscriberFee: 0,
		ProviderFee: 0,
		InPaymentManager: false,
		DiscountPercent: 0,
		EarlyPayFeePercent: 0,
		Labels: [],
		IsHideUsernameOnInvoice: false,
		IsInvoiceNegativeLineItemsEnabled: false,
		IsHolidayLaborRate: false,
		IsRestrictedForChanges: inv.Status === 'Paid' || inv.Status === 'Voided',
		DisputeReason: m.disputeReason,
		RejectionReasonDescription: inv.Status === 'Rejected' ? m.rejectionReason : null,
	});
}

/** @type {Handler} */
function getInvoice(emu, ctx, p, params) {
	const inv = emu.invoices.store.get(params.invoiceId);
	if (!inv || !canSee(emu, p, inv))
		fail(404, 'InvoiceDoesntExist', `Invoice ${params.invoiceId} was not found`);
	return json(200, invoiceResponse(emu, inv));
}

/** @type {Handler} */
function discrepancy(emu, ctx, p, params) {
	const inv = emu.invoices.store.get(params.invoiceId);
	if (!inv || !canSee(emu, p, inv))
		fail(404, 'InvoiceDoesntExist', `Invoice ${params.invoiceId} was not found`);
	const lines = (inv.Labors || []).filter((/** @type {any} */ l) => l.IsRateDiscrepancy);
	return json(
		200,
		lines.map((/** @type {any} */ l) =>
			make(C('RateDiscrepancy'), {
				SkillLevel: 1,
				SkillLevelName: 'Journeyman',
				LaborType: 1,
				LaborTypeName: 'Regular',
				HourlyRate: l.HourlyRate,
				AgreedRate: l.AgreedRate,
				NumOfTech: null,
				LaborHours: l.Hours,
				RateDiscrepancyReason: l.RateDiscrepancyReason,
			}),
		),
	);
}

/** The caller's own subscriber (or a child it is scoped to). @param {Principal} p @param {number} id */
function requireOwnSubscriber(p, id) {
	if (p.providerId !== null || p.subscriberId !== id)
		fail(400, 'InvalidSubscriberId', `Subscriber ${id} is not the subscriber of this user`);
}

/** @type {Handler} */
function rejectionReasons(emu, ctx, p, params) {
	requireOwnSubscriber(p, params.subscriberId);
	return json(200, emu.invoices.rejectionReasons[params.subscriberId] || []);
}

/** @type {Handler} */
function requirements(emu, ctx, p, params) {
	requireOwnSubscriber(p, params.subscriberId);
	return json(
		200,
		make(C('InvoiceSettingsGeneral'), {
			DaysBeforePostingDate: 0,
			MaxDaysAfterPostingDate: 365,
			RequireResolutionText: false,
			RequireApprovalText: false,
			IsInvoiceApprovalCommentFeatureEnabled: true,
			IsInvoiceNumberValidationFeatureEnabled: false,
			IsInvoiceNegativeFeatureEnabled: false,
			IsInvoiceZeroVATEU: false,
			AvailableTrades: 'HVAC,PLUMBING,ELECTRICAL,REFRIGERATION,DOORS,GENERAL MAINTENANCE',
			AvailableCategories: 'REPAIR,PREVENTIVE MAINTENANCE',
			LaborTradeIds: [],
			MaterialsTradeIds: [],
			TravelTradeIds: [],
			OtherTradeIds: [],
			LaborCategoryIds: [],
			MaterialsCategoryIds: [],
			TravelCategoryIds: [],
			OtherCategoryIds: [],
			NumberRequirementsModel: null,
			IsProviderAbleToAddSalesTax: true,
		}),
	);
}

// ---- moves ----------------------------------------------------------------------------------------

const MOVES = {
	approve: {
		to: 'Approved',
		from: ['Open', 'On Hold'],
		verb: 'approved',
		query: ['approvalCode', 'comments', 'category'],
	},
	reject: { to: 'Rejected', from: ['Open', 'On Hold'], verb: 'rejected', query: ['comments'] },
	onhold: { to: 'On Hold', from: ['Open'], verb: 'put on hold', query: ['comments'] },
};

/** @param {'approve' | 'reject' | 'onhold'} move @returns {Handler} */
function invoiceMove(move) {
	const spec = MOVES[move];
	return (emu, ctx, p, params) => {
		if (!isSubscriberUser(p))
			fail(
				400,
				'NotAllowed',
				`Only subscriber users may change the status of an invoice, and ${p.user.username} is a provider user`,
			);
		requirePermission(p, 'proposals.status');
		const missing = spec.query.filter((name) => queryParam(ctx, name) === undefined);
		if (missing.length)
			fail(
				400,
				'InvalidNumberOfParameters',
				`The query parameter${missing.length > 1 ? 's' : ''} ${missing.join(', ')} ${missing.length > 1 ? 'are' : 'is'} required`,
			);
		const inv = requireInvoice(emu, p, params.invoiceId);
		const meta = emu.invoices.meta.get(inv.Id);
		if (meta.mli)
			fail(
				400,
				'NotAllowed',
				`Invoice ${inv.Number} is under multi-level approval (MLI): it can be ${spec.verb} only by its approval levels in the service, not through the API`,
			);
		if (inv.Status === spec.to)
			fail(
				400,
				'InvoiceBatchUpdateInvalidInvoiceStatusError',
				`Invoice ${inv.Number} is already ${spec.verb === 'put on hold' ? 'on hold' : spec.verb}`,
			);
		if (!spec.from.includes(inv.Status))
			fail(
				400,
				'InvoiceBatchUpdateInvalidInvoiceStatusError',
				`Invoice ${inv.Number} cannot be ${spec.verb}: its status is ${inv.Status} (only ${spec.from.join(' or ')} invoices can be)`,
			);
		const comments = String(queryParam(ctx, 'comments') ?? '');
		const by = p.user.username;
		if (move === 'approve') {
			const code = String(queryParam(ctx, 'approvalCode') ?? '');
			if (code !== '') emu.invoices.setApprovalCode(inv, code, by);
		}
		emu.invoices.setStatus(inv, spec.to, by, { comments: comments === '' ? null : comments });
		return empty(204);
	};
}

// ---- payments -------------------------------------------------------------------------------------

/** @param {Principal} p */
function requirePayer(p) {
	if (!isSubscriberUser(p))
		fail(
			403,
			'NotAllowed',
			`Only subscriber users may record invoice payments, and ${p.user.username} is a provider user`,
		);
	requirePermission(p, 'proposals.status');
}

/**
 * The refusal of one payment, or null: the invoice must be the caller's and Approved; the payment
 * needs a date, a number and an amount above 0 and within the balance.
 * @param {Emulator} emu @param {Principal} p @param {any} inv @param {any} body
 * @returns {{ status: number, code: string, number: number, message: string } | { date: number, number: string, amount: number }}
 */
function checkPayment(emu, p, inv, body) {
	/** @param {string} code @param {number} n @param {string} message */
	const no = (code, n, message) => ({ status: 400, code, number: n, message });
	if (!inv || !canSee(emu, p, inv))
		return no('InvoiceDoesntExist', 502, `Invoice ${body && body.InvoiceId} was not found`);
	if (emu.invoices.meta.get(inv.Id).mli && inv.Status !== 'Approved')
		return no(
			'NotAllowed',
			504,
			`Invoice ${inv.Number} is under multi-level approval (MLI) and not approved`,
		);
	if (inv.Status !== 'Approved')
		return no(
			'InvoiceBatchUpdateInvalidInvoiceStatusError',
			504,
			`Invoice ${inv.Number} is ${inv.Status}: payments are recorded only for approved invoices`,
		);
	const dateText = body.PaymentDate;
	let date = NaN;
	if (typeof dateText === 'string' && dateText.trim() !== '') {
		try {
			date = emu.time.parse(dateText.trim());
		} catch {
			date = NaN;
		}
	}
	if (!Number.isFinite(date))
		return no(
			'BadPaymentData',
			503,
			`PaymentDate is required (an ISO 8601 date-time), got ${JSON.stringify(dateText ?? null)}`,
		);
	const number = typeof body.PaymentNumber === 'string' ? body.PaymentNumber.trim() : '';
	if (number === '') return no('BadPaymentData', 503, 'PaymentNumber is required');
	const amount = typeof body.PaymentAmount === 'number' ? body.PaymentAmount : NaN;
	if (!Number.isFinite(amount) || amount <= 0)
		return no(
			'BadPaymentData',
			503,
			`PaymentAmount must be a number above 0, got ${JSON.stringify(body.PaymentAmount ?? null)}`,
		);
	if (round2(amount) > round2(inv.InvoiceBalance) + 0.001)
		return no(
			'BadPaymentData',
			503,
			`PaymentAmount ${amount} exceeds the balance ${inv.InvoiceBalance} of invoice ${inv.Number}`,
		);
	return { date, number, amount };
}

/** @param {Emulator} emu @param {Principal} p @param {any} inv @param {any} body */
function payOne(emu, p, inv, body) {
	const r = checkPayment(emu, p, inv, body);
	if ('code' in r) fail(r.status, r.code, r.message);
	emu.invoices.addPayment(inv, r, p.user.username);
	return empty(204);
}

/** @type {Handler} */
function paymentByInvoice(emu, ctx, p, params) {
	requirePayer(p);
	const body = readBody(ctx, C('InvoicePaymentRequest'));
	const inv = requireInvoice(emu, p, params.invoiceId);
	return payOne(emu, p, inv, body);
}

/** @type {Handler} */
function paymentByWorkOrder(emu, ctx, p, params) {
	requirePayer(p);
	const body = readBody(ctx, C('InvoicePaymentRequest'));
	const wo = emu.state.workOrders[params.trackingNumber];
	if (!wo || !canSeeWo(p, wo))
		fail(400, 'WorkOrderNotFound', `Work order ${params.trackingNumber} was not found`);
	const invoices = emu.invoices
		.list()
		.filter((inv) => inv.WoTrackingNumber === wo.Id && canSee(emu, p, inv));
	if (invoices.length === 0) fail(400, 'InvoiceDoesntExist', `Work order ${wo.Id} has no invoice`);
	const approved = invoices.find((inv) => inv.Status === 'Approved');
	return payOne(emu, p, approved || invoices[invoices.length - 1], body);
}

/** @type {Handler} */
function bulkPayments(emu, ctx, p) {
	requirePayer(p);
	if (!emu.invoices.options.bulkPayments)
		fail(403, 'FeatureIsOff', 'Bulk invoice payments are not enabled for this account');
	if (!p.user.invoiceAdmin)
		fail(
			403,
			'NotAllowed',
			`User ${p.user.username} lacks the administrator role that bulk invoice payments need`,
		);
	const body = readBody(ctx, C('InvoicePaymentBulkRequest'));
	const list = Array.isArray(body.Payments) ? body.Payments : [];
	if (list.length === 0) fail(400, 'EmptyRequest', 'Payments is required: at least one payment');
	const max = emu.invoices.options.maxBulkPayments;
	if (list.length > max)
		fail(
			400,
			'InvoiceBatchUpdateLimitExceededError',
			`At most ${max} payments may be sent in one request (got ${list.length})`,
		);
	const answers = list.map((/** @type {any} */ item) => {
		const inv =
			typeof item.InvoiceId === 'number' ? emu.invoices.store.get(item.InvoiceId) : undefined;
		const r = checkPayment(emu, p, inv, item);
		const base = {
			PaymentDate: typeof item.PaymentDate === 'string' ? item.PaymentDate : null,
			InvoiceId: typeof item.InvoiceId === 'number' ? item.InvoiceId : null,
			PaymentNumber: typeof item.PaymentNumber === 'string' ? item.PaymentNumber : null,
			PaymentAmount: typeof item.PaymentAmount === 'number' ? item.PaymentAmount : null,
		};
		if ('code' in r)
			return make(C('AddInvoicePaymentResponse'), {
				...base,
				PaymentId: null,
				Error: make(C('ResponseError'), { Code: r.number, Message: r.message }),
			});
		const payment = emu.invoices.addPayment(inv, r, p.user.username);
		return make(C('AddInvoicePaymentResponse'), { ...base, PaymentId: payment.Id, Error: null });
	});
	return json(201, make(C('InvoicePaymentBulkResponse'), { Payments: answers }));
}

// ---- create (contractor) --------------------------------------------------------------------------

/** @type {Handler} */
function createInvoice(emu, ctx, p) {
	if (p.providerId === null)
		fail(
			400,
			'NotAllowed',
			`Only provider users post invoices, and ${p.user.username} is a subscriber user`,
		);
	const body = readBody(ctx, C('CreateInvoiceRequest'));
	const number = String(body.InvoiceNumber ?? '').trim();
	if (number === '') fail(400, 'InvalidInvoiceNumber', 'InvoiceNumber is required');
	const ident = String(body.WoIdentifier ?? '').trim();
	const wo = /^\d{1,10}$/.test(ident) ? emu.state.workOrders[Number(ident)] : undefined;
	if (!wo || !canSeeWo(p, wo))
		fail(
			400,
			'InvalidWoIdentifier',
			`Work order ${ident || '(empty)'} was not found among this provider's work orders`,
		);
	const dup = emu.invoices
		.list()
		.find(
			(inv) => emu.invoices.meta.get(inv.Id).providerId === p.providerId && inv.Number === number,
		);
	if (dup)
		fail(400, 'InvoiceExists', `Invoice number ${number} already exists (invoice ${dup.Id})`);
	const d = body.InvoiceAmountsDetails || {};
	const sum = (/** @type {any[] | undefined} */ list) =>
		(list || []).reduce((s, l) => s + (typeof l.Amount === 'number' ? l.Amount : 0), 0);
	const amounts = {
		labor: d.LaborAmount ?? sum(body.Labors),
		material: d.MaterialAmount ?? sum(body.Materials),
		travel: d.TravelAmount ?? sum(body.Travels),
		other: d.OtherAmount ?? sum(body.Others),
		tax: typeof body.InvoiceTax === 'number' ? body.InvoiceTax : 0,
	};
	const subtotal = round2(amounts.labor + amounts.material + amounts.travel + amounts.other);
	if (
		typeof body.InvoiceTotal === 'number' &&
		Math.abs(round2(subtotal + amounts.tax) - body.InvoiceTotal) > 0.011
	)
		fail(
			400,
			'InvoiceInconsistentAmounts',
			`InvoiceTotal ${body.InvoiceTotal} is not the sum of the amounts and the tax (${round2(subtotal + amounts.tax)})`,
		);
	let invoiceDateMs;
	const dateText = body.InvoiceDateDTO ?? body.InvoiceDate;
	if (typeof dateText === 'string' && dateText.trim() !== '') {
		try {
			invoiceDateMs = emu.time.parse(dateText.trim());
		} catch {
			fail(400, 'NotAllowed', `InvoiceDate must be an ISO 8601 date-time, got '${dateText}'`);
		}
	}
	const lineOf = (
		/** @type {string} */ def,
		/** @type {any[] | undefined} */ list,
		/** @type {number} */ id,
	) =>
		(list || []).map((l) =>
			make(C(def), { ...pick(def, l), Id: emu.invoices._ids.line++, InvoiceId: id }),
		);
	const id = emu.invoices._ids.invoice;
	const inv = emu.invoices._build(wo, {
		id,
		number,
		status: 'Open',
		amounts,
		invoiceDateMs,
		createdBy: p.user.username,
		description: typeof body.InvoiceText === 'string' ? body.InvoiceText : null,
		lines:
			body.Labors || body.Materials || body.Travels || body.Others
				? {
						Labors: lineOf('InvoiceLabor', body.Labors, id),
						Materials: lineOf('InvoiceMaterial', body.Materials, id),
						Travels: lineOf('InvoiceTravel', body.Travels, id),
						Others: lineOf('InvoiceOther', body.Others, id),
					}
				: undefined,
		raiseEvent: true,
	});
	if (typeof body.Terms === 'string') inv.Terms = body.Terms;
	const mode = emu.invoices.options.created;
	if (mode === 'empty') return empty(201);
	if (mode === 'id') return json(201, inv.Id);
	return json(201, { Id: inv.Id });
}

/** The properties of `l` that definition `def` of part C has. @param {string} def @param {any} l */
function pick(def, l) {
	const names = new Set(require('../contract/reference').propertyNames(C(def)));
	/** @type {Record<string, any>} */
	const out = {};
	for (const [k, v] of Object.entries(l || {})) if (names.has(k)) out[k] = v;
	return out;
}

/** Routes in the format of `ROUTES` in api.js (the literal `Payments`/`Workorders` paths before `{invoiceId}`). */
const INVOICE_ROUTES = /** @type {Array<[string, string, Handler, string | null]>} */ ([
	['GET', 'odata/invoices', odataInvoices, 'workorders.read'],
	['POST', 'invoices', createInvoice, null],
	['POST', 'invoices/Payments', bulkPayments, null],
	['POST', 'invoices/Workorders/{trackingNumber}/Payment', paymentByWorkOrder, null],
	['GET', 'invoices/{invoiceId}', getInvoice, 'workorders.read'],
	['PUT', 'invoices/{invoiceId}/approve', invoiceMove('approve'), null],
	['PUT', 'invoices/{invoiceId}/reject', invoiceMove('reject'), null],
	['PUT', 'invoices/{invoiceId}/onhold', invoiceMove('onhold'), null],
	['GET', 'invoices/{subscriberId}/InvoiceRejectionReasons', rejectionReasons, 'workorders.read'],
	['GET', 'invoices/{subscriberId}/InvoiceRequirements', requirements, 'workorders.read'],
	['POST', 'invoices/{invoiceId}/Payment', paymentByInvoice, null],
	['GET', 'invoices/{invoiceId}/discrepancy', discrepancy, 'workorders.read'],
]);

module.exports = { INVOICE_ROUTES, invoiceResponse, MOVES, failNumeric, statusOf };
