'use strict';

/**
 * Invoices as part C of the reference has them (service-reference-c.md "Invoices",
 * service-reference-c.json): the records (part C's `Invoice` / `ApiGetInvoiceResponse`, every
 * property, nulls included; plain dates in US Eastern local time), the OData list with its 90-day
 * default and 365-day reach, the moves with their values in the query string and their refusals
 * (400 ErrorResponse with part C's code names), rejection reasons per subscriber, requirements,
 * payments only for approved invoices (one, by work order, in bulk with per-payment refusals; 403
 * without the feature or the admin role), rate discrepancies, the contractor's POST /invoices, the
 * invoice events, and 20,000 invoices at once. Every test starts a fresh emulator (./helpers.js).
 */

const http = require('node:http');
const { useEmulator, token, jwtLogin, api } = require('./helpers');
const { RAW } = require('../reference-c');
const { INVOICE_EVENTS } = require('../invoices');

/** @type {import('../index').Emulator} */
let emu;
/** @type {any} */
let fx;
useEmulator((e) => {
	emu = e;
	fx = e.fixtures;
});

const DAY = 86400000;
const props = (/** @type {string} */ name) => Object.keys(RAW.definitions[name].properties);

/** A refusal: status, ErrorResponse with part C's code name, the service's words. */
function expectRefusal(
	/** @type {any} */ r,
	/** @type {number} */ status,
	/** @type {string} */ code,
	/** @type {RegExp} */ words,
) {
	expect(r.status).toBe(status);
	expect(Object.keys(r.body).sort()).toEqual(['Data', 'ErrorCode', 'ErrorCodes', 'ErrorMessage']);
	expect(r.body.ErrorCode).toBe(code);
	expect(r.body.ErrorCodes).toEqual([code]);
	expect(r.body.ErrorMessage).toMatch(words);
}

/** @param {string} t @param {Record<string, string | number>} q */
function list(t, q = {}) {
	const qs = Object.entries(q)
		.map(([k, v]) => `${k}=${encodeURIComponent(String(v))}`)
		.join('&');
	return api('GET', `/odata/invoices${qs ? `?${qs}` : ''}`, { token: t });
}

/** A local date text n days ago (US Eastern). @param {number} days */
const daysAgo = (days) => emu.time.local(emu.now() - days * DAY).slice(0, 19);

describe('the records', () => {
	test('GET /odata/invoices: part C Invoice records, every property in order, nulls included; work order, location, provider, subscriber consistent', async () => {
		const t = await token();
		const r = await list(t, { $top: 50 });
		expect(r.status).toBe(200);
		expect(r.body.value.length).toBeGreaterThan(10);
		for (const inv of r.body.value) {
			expect(Object.keys(inv)).toEqual(props('Invoice'));
			const wo = emu.workOrder(inv.WoTrackingNumber);
			expect(wo).toBeDefined();
			expect(inv.Location.Id).toBe(wo.LocationId);
			expect(inv.Provider.Id).toBe(wo.ProviderId);
			expect(inv.Subscriber.Id).toBe(1001);
			expect(inv.Trade).toBe(wo.Trade);
			expect([
				'Open',
				'Approved',
				'On Hold',
				'Reviewed',
				'Rejected',
				'Voided',
				'Paid',
				'Disputed',
			]).toContain(inv.Status);
			expect(inv.PostedDate).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}$/);
			expect(inv.InvoiceTotal).toBeCloseTo(inv.Subtotal + inv.InvoiceTax, 2);
		}
		const statuses = new Set(r.body.value.map((/** @type {any} */ i) => i.Status));
		for (const s of [
			'Open',
			'Approved',
			'On Hold',
			'Reviewed',
			'Rejected',
			'Voided',
			'Paid',
			'Disputed',
		])
			expect(statuses).toContain(s);
		// plain dates are US Eastern local time
		const inv = emu.invoice(fx.invoices.open);
		expect(inv.PostedDate).toBe(emu.time.local(emu.invoices.meta.get(inv.Id).postedMs));
	});

	test("GET /invoices/{id}: ApiGetInvoiceResponse with IDs, display texts, payments; unknown or another subscriber's: 404", async () => {
		const t = await token();
		const r = await api('GET', `/invoices/${fx.invoices.paid}`, { token: t });
		expect(r.status).toBe(200);
		expect(Object.keys(r.body)).toEqual(props('ApiGetInvoiceResponse'));
		expect(r.body).toMatchObject({
			Id: fx.invoices.paid,
			SubscriberId: 1001,
			ProviderId: 3001,
			Status: 'Paid',
			InvoiceBalance: 0,
			InvoiceNumber: `INV-${fx.invoices.paid}`,
		});
		expect(r.body.Payments).toHaveLength(1);
		expect(r.body.PostedDateStr).toMatch(/^\d{2}\/\d{2}\/\d{4} \d{2}:\d{2} [AP]M$/);
		expect((await api('GET', '/invoices/79999999', { token: t })).status).toBe(404);
		expect((await api('GET', `/invoices/${fx.invoices.child2001}`, { token: t })).status).toBe(404);
		const rejected = await api('GET', `/invoices/${fx.invoices.rejected}`, { token: t });
		expect(rejected.body.RejectionReasonDescription).toEqual(expect.any(String));
	});

	test("a contractor sees its own provider's invoices only", async () => {
		const t = (await jwtLogin()).access_token;
		const r = await list(t, { $top: 50 });
		expect(r.status).toBe(200);
		expect(r.body.value.every((/** @type {any} */ i) => i.Provider.Id === 3001)).toBe(true);
		expect(r.body.value.map((/** @type {any} */ i) => i.Id)).not.toContain(
			fx.invoices.otherProvider,
		);
	});
});

describe('the OData list', () => {
	test('the last 90 days unless $filter names PostedDate', async () => {
		const t = await token();
		const ids = async (/** @type {any} */ q) =>
			(await list(t, { $top: 50, ...q })).body.value.map((/** @type {any} */ i) => i.Id);
		expect(await ids({})).not.toContain(fx.invoices.approvedOld);
		expect(await ids({ $filter: `Status eq 'Approved'` })).not.toContain(fx.invoices.approvedOld);
		const withPosted = await ids({ $filter: `PostedDate ge ${daysAgo(200)}` });
		expect(withPosted).toContain(fx.invoices.approvedOld);
		expect(withPosted).not.toContain(fx.invoices.veryOld);
	});

	test('a PostedDate reaching back more than 365 days: 400 ErrorResponse', async () => {
		const t = await token();
		const r = await list(t, { $filter: `PostedDate ge ${daysAgo(400)}` });
		expectRefusal(r, 400, 'InvalidTimeRangeActivity', /365 days/);
		const ok = await list(t, { $filter: `PostedDate ge ${daysAgo(364)}` });
		expect(ok.status).toBe(200);
	});

	test('$filter, $orderby, $select, $top, $skip, $count; an unknown property: the OData error', async () => {
		const t = await token();
		const r = await list(t, {
			$filter: `Status eq 'Approved' and InvoiceTotal gt 10 and Location/Id eq 501`,
			$orderby: 'InvoiceTotal desc',
			$select: 'Id,InvoiceTotal,Status,Location/Id',
			$count: 'true',
		});
		expect(r.status).toBe(200);
		expect(r.body['@odata.count']).toBe(r.body.value.length);
		for (const i of r.body.value) {
			expect(Object.keys(i).sort()).toEqual(['Id', 'InvoiceTotal', 'Location', 'Status']);
			expect(i.Status).toBe('Approved');
		}
		const totals = r.body.value.map((/** @type {any} */ i) => i.InvoiceTotal);
		expect(totals).toEqual([...totals].sort((a, b) => b - a));
		const page = await list(t, { $top: 3, $skip: 2, $orderby: 'Id' });
		const all = await list(t, { $orderby: 'Id' });
		expect(page.body.value.map((/** @type {any} */ i) => i.Id)).toEqual(
			all.body.value.slice(2, 5).map((/** @type {any} */ i) => i.Id),
		);
		const bad = await api('GET', `/odata/invoices?$filter=${encodeURIComponent('Foo eq 1')}`, {
			token: t,
			deliberate: 'an unknown property',
		});
		expect(bad.status).toBe(400);
		expect(bad.body.error.message).toMatch(
			/Could not find a property named 'Foo' on type 'Invoice'/,
		);
	});

	test('UpdatedDate compares as US Eastern local time', async () => {
		const t = await token();
		const id = fx.invoices.open;
		emu.advanceTime(60);
		emu.setInvoiceStatus(id, 'On Hold');
		const since = emu.time.dto(emu.now() - 30000);
		const r = await list(t, { $filter: `UpdatedDate ge ${since}` });
		expect(r.body.value.map((/** @type {any} */ i) => i.Id)).toEqual([id]);
	});
});

describe('approve, reject, put on hold', () => {
	test('values in the query string; 204 without a body; status, approval code, comments, history, events', async () => {
		const t = await token();
		const id = fx.invoices.open;
		const r = await api(
			'PUT',
			`/invoices/${id}/approve?approvalCode=GL-5500&comments=${encodeURIComponent('Within NTE')}&category=REPAIR`,
			{ token: t },
		);
		expect(r.status).toBe(204);
		expect(r.text).toBe('');
		const inv = emu.invoice(id);
		expect(inv).toMatchObject({
			Status: 'Approved',
			ApprovalCode: 'GL-5500',
			Comments: 'Within NTE',
		});
		expect(inv.StatusHistoryShort.at(-1)).toMatchObject({
			Status: 'Approved',
			CreatedBy: 'demo.subscriber',
		});
		const types = emu.webhooks.events.map((e) => e.eventType);
		expect(types).toEqual(['InvoiceApprovalCodeChanged', 'InvoiceApproved']);
		const hold = await api(
			'PUT',
			`/invoices/${fx.invoices.openOverNte}/onhold?comments=over%20NTE`,
			{ token: t },
		);
		expect(hold.status).toBe(204);
		expect(emu.invoice(fx.invoices.openOverNte).Status).toBe('On Hold');
		const rej = await api('PUT', `/invoices/${fx.invoices.onHold}/reject?comments=Duplicate`, {
			token: t,
		});
		expect(rej.status).toBe(204);
		expect(emu.invoice(fx.invoices.onHold).Status).toBe('Rejected');
		const one = await api('GET', `/invoices/${fx.invoices.onHold}`, { token: t });
		expect(one.body.RejectionReasonDescription).toBe('Duplicate');
	});

	test('refusals: MLI, a status that does not allow it, already there, missing query values, unknown invoice, a provider user; nothing changes', async () => {
		const t = await token();
		const before = emu.invoice(fx.invoices.mliOpen).Status;
		expectRefusal(
			await api(
				'PUT',
				`/invoices/${fx.invoices.mliOpen}/approve?approvalCode=&comments=&category=`,
				{ token: t },
			),
			400,
			'NotAllowed',
			/multi-level approval/,
		);
		expectRefusal(
			await api('PUT', `/invoices/${fx.invoices.reviewed}/onhold?comments=x`, { token: t }),
			400,
			'NotAllowed',
			/multi-level approval/,
		);
		expectRefusal(
			await api('PUT', `/invoices/${fx.invoices.paid}/reject?comments=x`, { token: t }),
			400,
			'InvoiceBatchUpdateInvalidInvoiceStatusError',
			/cannot be rejected: its status is Paid/,
		);
		expectRefusal(
			await api(
				'PUT',
				`/invoices/${fx.invoices.approved}/approve?approvalCode=&comments=&category=`,
				{ token: t },
			),
			400,
			'InvoiceBatchUpdateInvalidInvoiceStatusError',
			/already approved/,
		);
		expectRefusal(
			await api('PUT', `/invoices/${fx.invoices.open}/approve?comments=x`, {
				token: t,
				deliberate: 'approvalCode and category missing',
			}),
			400,
			'InvalidNumberOfParameters',
			/approvalCode, category are required/,
		);
		expectRefusal(
			await api('PUT', `/invoices/79999999/onhold?comments=x`, { token: t }),
			400,
			'InvoiceDoesntExist',
			/not found/,
		);
		const c = (await jwtLogin()).access_token;
		expectRefusal(
			await api('PUT', `/invoices/${fx.invoices.open}/onhold?comments=x`, { token: c }),
			400,
			'NotAllowed',
			/provider user/,
		);
		expect(emu.invoice(fx.invoices.mliOpen).Status).toBe(before);
		expect(emu.invoice(fx.invoices.open).Status).toBe('Open');
		expect(emu.webhooks.events).toHaveLength(0);
	});

	test('rejection reasons and requirements per subscriber; another subscriber: 400', async () => {
		const t = await token();
		const r = await api('GET', '/invoices/1001/InvoiceRejectionReasons', { token: t });
		expect(r.status).toBe(200);
		expect(r.body.length).toBeGreaterThan(2);
		for (const x of r.body) expect(Object.keys(x)).toEqual(props('InvoiceRejectionReasonResponse'));
		expect(r.body.some((/** @type {any} */ x) => x.Retired)).toBe(true);
		expectRefusal(
			await api('GET', '/invoices/2001/InvoiceRejectionReasons', { token: t }),
			400,
			'InvalidSubscriberId',
			/2001/,
		);
		const q = await api('GET', '/invoices/1001/InvoiceRequirements', { token: t });
		expect(Object.keys(q.body)).toEqual(props('InvoiceSettingsGeneral'));
	});
});

describe('payments', () => {
	const pay = (/** @type {any} */ extra = {}) => ({
		PaymentDate: '2026-03-02T10:00:00-05:00',
		PaymentNumber: 'CHK-1',
		PaymentAmount: 10,
		...extra,
	});

	test('one payment for an approved invoice: 204; the balance falls; paid in full: Paid and InvoicePaid', async () => {
		const t = await token();
		const id = fx.invoices.approved;
		const total = emu.invoice(id).InvoiceTotal;
		const r = await api('POST', `/invoices/${id}/Payment`, { token: t, json: pay() });
		expect(r.status).toBe(204);
		expect(emu.invoice(id).InvoiceBalance).toBeCloseTo(total - 10, 2);
		expect(emu.invoice(id).Payments.at(-1)).toMatchObject({
			PaymentNumber: 'CHK-1',
			PaymentAmount: 10,
		});
		const rest = Math.round((total - 10) * 100) / 100;
		const r2 = await api('POST', `/invoices/${id}/Payment`, {
			token: t,
			json: pay({ PaymentNumber: 'CHK-2', PaymentAmount: rest }),
		});
		expect(r2.status).toBe(204);
		expect(emu.invoice(id)).toMatchObject({ Status: 'Paid', InvoiceBalance: 0 });
		expect(emu.webhooks.events.map((e) => e.eventType)).toEqual(['InvoicePaid']);
	});

	test('refused: not approved, over the balance, no number; a provider user: 403', async () => {
		const t = await token();
		expectRefusal(
			await api('POST', `/invoices/${fx.invoices.open}/Payment`, { token: t, json: pay() }),
			400,
			'InvoiceBatchUpdateInvalidInvoiceStatusError',
			/only for approved invoices/,
		);
		expectRefusal(
			await api('POST', `/invoices/${fx.invoices.approved}/Payment`, {
				token: t,
				json: pay({ PaymentAmount: 1e7 }),
			}),
			400,
			'BadPaymentData',
			/exceeds the balance/,
		);
		expectRefusal(
			await api('POST', `/invoices/${fx.invoices.approved}/Payment`, {
				token: t,
				json: pay({ PaymentNumber: '' }),
			}),
			400,
			'BadPaymentData',
			/PaymentNumber is required/,
		);
		const c = (await jwtLogin()).access_token;
		expectRefusal(
			await api('POST', `/invoices/${fx.invoices.approved}/Payment`, { token: c, json: pay() }),
			403,
			'NotAllowed',
			/provider user/,
		);
		expect(emu.invoice(fx.invoices.approved).Payments).toHaveLength(0);
	});

	test('by work order tracking number: its approved invoice', async () => {
		const t = await token();
		const inv = emu.invoice(fx.invoices.approvedSecond);
		const r = await api('POST', `/invoices/Workorders/${inv.WoTrackingNumber}/Payment`, {
			token: t,
			json: pay(),
		});
		expect(r.status).toBe(204);
		expect(inv.Payments).toHaveLength(1);
	});

	test('bulk: 201 with one answer per payment, PaymentId or Error; some recorded, others refused', async () => {
		const t = await token();
		const r = await api('POST', '/invoices/Payments', {
			token: t,
			json: {
				Payments: [
					{ InvoiceId: fx.invoices.approved, ...pay({ PaymentNumber: 'B-1' }) },
					{ InvoiceId: fx.invoices.open, ...pay({ PaymentNumber: 'B-2' }) },
					{ InvoiceId: 79999999, ...pay({ PaymentNumber: 'B-3' }) },
					{ InvoiceId: fx.invoices.approvedSecond, ...pay({ PaymentNumber: 'B-4' }) },
				],
			},
		});
		expect(r.status).toBe(201);
		expect(Object.keys(r.body)).toEqual(['Payments']);
		const [a, b, c, d] = r.body.Payments;
		for (const x of r.body.Payments)
			expect(Object.keys(x)).toEqual(props('AddInvoicePaymentResponse'));
		expect(a).toMatchObject({
			InvoiceId: fx.invoices.approved,
			PaymentNumber: 'B-1',
			Error: null,
			PaymentId: expect.any(Number),
		});
		expect(b).toMatchObject({
			PaymentId: null,
			Error: { Code: 504, Message: expect.stringMatching(/only for approved/) },
		});
		expect(c.Error.Message).toMatch(/not found/);
		expect(d.PaymentId).toEqual(expect.any(Number));
		expect(emu.invoice(fx.invoices.approved).Payments.map((/** @type {any} */ p) => p.Id)).toEqual([
			a.PaymentId,
		]);
	});

	test('bulk: 403 without the feature or without the admin role; over the limit 400', async () => {
		const body = { Payments: [{ InvoiceId: fx.invoices.approved, ...pay() }] };
		const viewerless = await token('approvalLevel');
		expectRefusal(
			await api('POST', '/invoices/Payments', { token: viewerless, json: body }),
			403,
			'NotAllowed',
			/administrator role/,
		);
		const t = await token();
		emu.setInvoiceOptions({ bulkPayments: false });
		expectRefusal(
			await api('POST', '/invoices/Payments', { token: t, json: body }),
			403,
			'FeatureIsOff',
			/not enabled/,
		);
		emu.setInvoiceOptions({ bulkPayments: true, maxBulkPayments: 2 });
		const three = { Payments: [body.Payments[0], body.Payments[0], body.Payments[0]] };
		expectRefusal(
			await api('POST', '/invoices/Payments', { token: t, json: three }),
			400,
			'InvoiceBatchUpdateLimitExceededError',
			/At most 2/,
		);
		expect(emu.invoice(fx.invoices.approved).Payments).toHaveLength(0);
	});
});

describe('discrepancy, create', () => {
	test('GET /invoices/{id}/discrepancy: the labor lines whose rate differs', async () => {
		const t = await token();
		const r = await api('GET', `/invoices/${fx.invoices.mismatchedRates}/discrepancy`, {
			token: t,
		});
		expect(r.status).toBe(200);
		expect(r.body).toHaveLength(1);
		expect(Object.keys(r.body[0])).toEqual(props('RateDiscrepancy'));
		expect(r.body[0]).toMatchObject({ HourlyRate: 95, AgreedRate: 85 });
		expect(
			(await api('GET', `/invoices/${fx.invoices.open}/discrepancy`, { token: t })).body,
		).toEqual([]);
	});

	test('POST /invoices (contractor JWT): 201 with the new Id, status Open, InvoiceCreated; refusals', async () => {
		const c = (await jwtLogin()).access_token;
		const wo = fx.workOrders.checklist;
		const req = {
			InvoiceNumber: 'ACME-1001',
			WoIdentifier: String(wo),
			InvoiceDate: '2026-03-01T09:00:00',
			InvoiceAmountsDetails: {
				LaborAmount: 200,
				MaterialAmount: 100,
				TravelAmount: 25,
				FreightAmount: 0,
				OtherAmount: 0,
			},
			InvoiceTax: 24.75,
			InvoiceTotal: 349.75,
			Labors: [{ HourlyRate: 100, Hours: 2, Amount: 200 }],
		};
		const r = await api('POST', '/invoices', { token: c, json: req });
		expect(r.status).toBe(201);
		const inv = emu.invoice(r.body.Id);
		expect(inv).toMatchObject({
			Number: 'ACME-1001',
			WoTrackingNumber: wo,
			Status: 'Open',
			InvoiceTotal: 349.75,
			Subtotal: 325,
		});
		expect(inv.Labors[0]).toMatchObject({
			HourlyRate: 100,
			Hours: 2,
			Amount: 200,
			InvoiceId: inv.Id,
		});
		expect(emu.webhooks.events.map((e) => e.eventType)).toEqual(['InvoiceCreated']);
		expectRefusal(
			await api('POST', '/invoices', { token: c, json: req }),
			400,
			'InvoiceExists',
			/already exists/,
		);
		expectRefusal(
			await api('POST', '/invoices', {
				token: c,
				json: { ...req, InvoiceNumber: 'X2', WoIdentifier: String(fx.workOrders.otherProvider) },
			}),
			400,
			'InvalidWoIdentifier',
			/not found/,
		);
		expectRefusal(
			await api('POST', '/invoices', {
				token: c,
				json: { ...req, InvoiceNumber: 'X3', InvoiceTotal: 1 },
			}),
			400,
			'InvoiceInconsistentAmounts',
			/not the sum/,
		);
		const s = await token();
		expectRefusal(
			await api('POST', '/invoices', { token: s, json: { ...req, InvoiceNumber: 'X4' } }),
			400,
			'NotAllowed',
			/subscriber user/,
		);
	});
});

describe('events and scale', () => {
	test('the 12 invoice events are known to subscriptions and delivered signed to a webhook', async () => {
		const t = await token('manager');
		const got = /** @type {any[]} */ ([]);
		const server = http.createServer((req, res) => {
			let b = '';
			req.on('data', (c) => (b += c));
			req.on('end', () => {
				got.push(JSON.parse(b));
				res.end();
			});
		});
		await new Promise((r) => server.listen(0, '127.0.0.1', () => r(undefined)));
		const port = /** @type {any} */ (server.address()).port;
		const created = await api('POST', '/NotificationWebHooks', {
			token: t,
			json: {
				Name: 'invoices',
				Url: `http://127.0.0.1:${port}/hook`,
				Enabled: true,
				Subscriptions: [{ Name: 'all invoice events', EventTypes: INVOICE_EVENTS }],
			},
		});
		expect(created.status).toBe(201);
		const inv = emu.createInvoice({ WorkOrderId: fx.workOrders.checklist });
		emu.setInvoiceStatus(inv.Id, 'Reviewed');
		emu.setInvoiceStatus(inv.Id, 'Approved');
		emu.setInvoiceApprovalCode(inv.Id, 'GL-1');
		emu.starInvoice(inv.Id, true);
		emu.starInvoice(inv.Id, false);
		emu.setInvoiceStatus(inv.Id, 'Disputed');
		emu.setInvoiceStatus(inv.Id, 'Voided');
		emu.setInvoiceStatus(inv.Id, 'Open');
		emu.setInvoiceStatus(inv.Id, 'Rejected');
		emu.setInvoiceStatus(inv.Id, 'On Hold');
		emu.setInvoiceStatus(inv.Id, 'Paid');
		await emu.webhooksIdle();
		server.close();
		expect(got.map((b) => b.EventType).sort()).toEqual([...INVOICE_EVENTS].sort());
		expect(got[0]).toMatchObject({
			EventType: 'InvoiceCreated',
			Action: 'NEW',
			Type: 'GenericRootNotification',
			Object: {
				Id: inv.Id,
				WoTrackingNumber: fx.workOrders.checklist,
				SubscriberId: 1001,
				ProviderId: 3001,
				Status: 'Open',
			},
		});
	});

	test('20,000 invoices at once; the list pages over them', async () => {
		const before = emu.invoiceList().length;
		const made = emu.createInvoices(20000, { spreadDays: 80 });
		expect(made).toHaveLength(20000);
		expect(emu.invoiceList()).toHaveLength(before + 20000);
		expect(emu.webhooks.events).toHaveLength(0);
		const t = await token();
		const r = await list(t, { $count: 'true', $top: 50, $orderby: 'UpdatedDate asc' });
		expect(r.status).toBe(200);
		expect(r.body['@odata.count']).toBeGreaterThan(20000);
		expect(r.body.value).toHaveLength(50);
	});
});
