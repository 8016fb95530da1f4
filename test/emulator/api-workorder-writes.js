// @ts-check
'use strict';

/**
 * Work orders: creating and changing (service-reference.md section 8), the work order's own
 * attachments (section 5) and the lists behind the node's dropdowns: statuses, categories,
 * priorities. Routes in the format of api.js ROUTES, spread in there.
 *
 * Work orders are created and changed only through the emulator's methods (createWorkOrder,
 * updateWorkOrder, setWorkOrderStatus, addNote), which store them in the emulator's shape and
 * raise the webhook events (WorkOrderCreated, WorkOrderStatusChanged, WorkOrderPriorityChanged,
 * WorkOrderScheduledDateChanged). Refusals are ErrorResponse bodies with the reference's codes
 * (400 with 502 no work order, 503 bad data, 904 bad status, 908 bad date, 913 unknown priority,
 * 905 bad NTE, 921 invoiced, 9001/9002 decline reason, ...).
 */

const { fail, json, empty, prop } = require('./http-util');
const events = require('./webhooks');
const S = require('./api-shapes');
const places = require('./places');

const { CODE, badData } = S;

/** Statuses of every subscriber (StatusOption): primary key, name, extended statuses. */
const STATUSES = [
	{
		Id: 'Open',
		Name: 'OPEN',
		Extended: [
			'DISPATCH CONFIRMED',
			'PARTS ON ORDER',
			'PROPOSAL SUBMITTED',
			'UNASSIGNED',
			'DECLINED',
		],
	},
	{
		Id: 'InProgress',
		Name: 'IN PROGRESS',
		Extended: ['ON SITE', 'INCOMPLETE', 'WAITING FOR QUOTE', 'PARTS ON ORDER'],
	},
	{
		Id: 'Completed',
		Name: 'COMPLETED',
		Extended: ['PENDING CONFIRMATION', 'CONFIRMED', 'INVOICED'],
	},
	{ Id: 'Incomplete', Name: 'INCOMPLETE', Extended: ['RETURN VISIT NEEDED'] },
];
/** Extended statuses that ask for a resolution text (StatusConstraints). */
const RESOLUTION_REQUIRED = new Set(['PENDING CONFIRMATION', 'CONFIRMED']);

const CATEGORIES = [
	{ Id: 11, Name: 'REPAIR' },
	{ Id: 12, Name: 'PREVENTIVE MAINTENANCE' },
	{ Id: 13, Name: 'MAINTENANCE' },
	{ Id: 14, Name: 'EMERGENCY', PrimaryCategoryID: 11, PrimaryCategoryName: 'REPAIR' },
	{ Id: 15, Name: 'INSTALLATION' },
];

const PRIORITIES = [
	{
		Id: 21,
		Name: 'P1 - Emergency',
		Eta: '4 hours',
		hours: 4,
		SkipNights: false,
		SkipWeekends: false,
		IsSelectable: true,
	},
	{
		Id: 22,
		Name: 'P2 - Urgent',
		Eta: '24 hours',
		hours: 24,
		SkipNights: false,
		SkipWeekends: false,
		IsSelectable: true,
	},
	{
		Id: 23,
		Name: 'P3 - Normal',
		Eta: '48 hours',
		hours: 48,
		SkipNights: true,
		SkipWeekends: true,
		IsSelectable: true,
	},
	{
		Id: 24,
		Name: 'P4 - Low',
		Eta: '7 days',
		hours: 168,
		SkipNights: true,
		SkipWeekends: true,
		IsSelectable: true,
	},
	{
		Id: 25,
		Name: 'P5 - Planned',
		Eta: '30 days',
		hours: 720,
		SkipNights: true,
		SkipWeekends: true,
		IsSelectable: false,
	},
];

/** Trades of every subscriber (no list call exists in the reference; checklists filter by trade ID). */
const TRADES = [
	{ Id: 1, Name: 'HVAC' },
	{ Id: 2, Name: 'PLUMBING' },
	{ Id: 3, Name: 'ELECTRICAL' },
	{ Id: 4, Name: 'REFRIGERATION' },
	{ Id: 5, Name: 'DOORS' },
	{ Id: 6, Name: 'GENERAL MAINTENANCE' },
];

/** Decline reasons for OPEN / DECLINED (DeclineReasonId); `custom`: CustomDeclineReason allowed. */
const DECLINE_REASONS = [
	{ Id: 1, Name: 'Not our trade', custom: false },
	{ Id: 2, Name: 'Outside our service area', custom: false },
	{ Id: 3, Name: 'Other', custom: true },
];

const NTE_LIMIT = 100000;
const CURRENCIES = new Set([1, 2, 3]);

/** @param {Array<{ Name: string }>} list @param {unknown} name */
const byName = (list, name) =>
	typeof name === 'string'
		? list.find((x) => x.Name.toLowerCase() === name.trim().toLowerCase())
		: undefined;

/** Work order fields every shape of the emulator has (used when it lists none). */
const SURE_FIELDS = [
	'LocationId',
	'Trade',
	'Category',
	'Priority',
	'Description',
	'Caller',
	'Nte',
	'Number',
	'PurchaseNumber',
	'CallDate',
	'ScheduledDate',
	'Status',
];

/**
 * The fields `emu.createWorkOrder` / `updateWorkOrder` know (the emulator's work-order fields,
 * compared without case); the others are left out, so these routes follow the stored shape.
 * @param {Record<string, any>} fields
 */
function storable(fields) {
	const listed = require('./fixtures').WORK_ORDER_FIELDS;
	const known = Array.isArray(listed) ? listed : SURE_FIELDS;
	const names = new Set(known.map((k) => String(k).toLowerCase()));
	return Object.fromEntries(
		Object.entries(fields).filter(([k, v]) => v !== undefined && names.has(k.toLowerCase())),
	);
}

/** @param {any} wo */
function refuseInvoiced(wo) {
	if (wo.IsInvoiced)
		fail(400, CODE.INVOICED, `Work order ${wo.Id} is invoiced and cannot be changed`);
}

/** @param {import('./index').Emulator} emu @param {string} text @param {number} code @param {string} name */
function parseDateOr(emu, text, code, name) {
	try {
		return emu.parseDate(text.trim());
	} catch {
		return fail(400, code, `${name} is not a valid date-time: '${text}'`);
	}
}

// ---- create -------------------------------------------------------------------------------------

/** The subscriber of a new work order: the subscriber user's own; a provider user names it. @param {import('./api').Principal} p @param {any} contract */
function newSubscriber(p, contract) {
	const given = prop(contract, 'SubscriberId');
	if (p.providerId !== null) {
		if (given === undefined || given === null)
			badData('ContractInfo.SubscriberId is required for provider users');
		return given;
	}
	if (given !== undefined && given !== null && given !== p.subscriberId)
		fail(400, CODE.BAD_SUBSCRIBER, `Subscriber ${given} is not the subscriber of this user`);
	return p.subscriberId;
}

/** ContractInfo.LocationId, or StoreId in its place. @param {import('./index').Emulator} emu @param {number} subscriberId @param {any} contract */
function newLocation(emu, subscriberId, contract) {
	const id = prop(contract, 'LocationId');
	const storeId = prop(contract, 'StoreId');
	const locations = Object.values(emu.state.locations).filter(
		(l) => l.SubscriberId === subscriberId,
	);
	if (id !== undefined && id !== null) {
		const loc = locations.find((l) => l.Id === id);
		return (
			loc ||
			fail(400, CODE.BAD_LOCATION, `Location ${id} is not a location of subscriber ${subscriberId}`)
		);
	}
	if (typeof storeId !== 'string' || storeId.trim() === '')
		return badData('ContractInfo.LocationId (or StoreId) is required');
	const loc = locations.find(
		(l) => String(l.StoreId).toLowerCase() === storeId.trim().toLowerCase(),
	);
	return (
		loc ||
		fail(400, CODE.BAD_STORE, `Store ${storeId} is not a store of subscriber ${subscriberId}`)
	);
}

/**
 * ContractInfo.TradeName and ProviderId: a trade of the subscriber (702 otherwise) that the location
 * has (702), a provider of that trade (100 unknown provider; 301 no contract for the trade, or a
 * provider marked Do Not Dispatch). Without a ProviderId the service finds one (the emulator's
 * default provider, a provider of every seeded trade).
 * @param {import('./index').Emulator} emu @param {number} subscriberId @param {any} location @param {any} contract
 */
function newTradeAndProvider(emu, subscriberId, location, contract) {
	const tradeName = prop(contract, 'TradeName');
	if (typeof tradeName !== 'string' || tradeName.trim() === '')
		fail(400, CODE.NO_TRADE, 'ContractInfo.TradeName is required');
	const trade =
		places.tradeNamed(emu.state, subscriberId, tradeName) ||
		fail(400, CODE.BAD_TRADE, `Trade '${tradeName}' is not a trade of this subscriber`);
	if (!places.hasTrade(emu.state, location.Id, trade.Name))
		fail(
			400,
			CODE.BAD_TRADE,
			`Trade '${trade.Name}' is not a trade of location ${location.Id} (${location.Name})`,
		);
	const providerId = prop(contract, 'ProviderId');
	if (providerId !== undefined && providerId !== null) {
		const provider = emu.state.providers[providerId];
		if (!provider) fail(400, CODE.NO_PROVIDER, `Provider ${providerId} was not found`);
		if (!places.providersOf(emu.state, subscriberId, trade.Name).includes(providerId))
			fail(
				400,
				CODE.NO_CONTRACT,
				`Provider ${providerId} (${provider.Name}) has no contract for trade '${trade.Name}'`,
			);
		if (provider.DoNotDispatch)
			fail(
				400,
				CODE.NO_CONTRACT,
				`Provider ${providerId} (${provider.Name}) is marked Do Not Dispatch`,
			);
	}
	return { trade: trade.Name, providerId: providerId ?? undefined };
}

/**
 * AssetId of a new work order: an asset of the subscriber (else 400 AssetDoesntExist) at the
 * location and of the trade (else 400 AssetLocationTradeDoesntCorrespondToWO).
 * @param {import('./index').Emulator} emu @param {number} subscriberId @param {any} location @param {string} trade @param {unknown} id
 */
function newAsset(emu, subscriberId, location, trade, id) {
	if (id === undefined || id === null) return undefined;
	const asset = emu.state.assets[/** @type {number} */ (id)];
	if (!asset || asset.SubscriberId !== subscriberId)
		fail(400, /** @type {any} */ ('AssetDoesntExist'), `Asset ${id} was not found`);
	if (asset.LocationId !== location.Id || asset.Trade.toLowerCase() !== trade.toLowerCase())
		fail(
			400,
			/** @type {any} */ ('AssetLocationTradeDoesntCorrespondToWO'),
			`Asset ${asset.Id} (${asset.Trade} at location ${asset.LocationId}) does not match the work order (${trade} at location ${location.Id})`,
		);
	return asset;
}

/** Category, Priority, Description, ProblemCode of a new work order. @param {Record<string, any>} body */
function newTexts(body) {
	const text = (/** @type {string} */ name) => {
		const v = prop(body, name);
		return typeof v === 'string' && v.trim() !== '' ? v.trim() : undefined;
	};
	const category = text('Category') ?? fail(400, CODE.NO_CATEGORY, 'Category is required');
	const priority = text('Priority') ?? fail(400, CODE.NO_PRIORITY, 'Priority is required');
	return {
		Category: (
			byName(CATEGORIES, category) ||
			fail(400, CODE.BAD_CATEGORY, `Category '${category}' is not valid for this subscriber`)
		).Name,
		Priority: (
			byName(
				PRIORITIES.filter((x) => x.IsSelectable),
				priority,
			) || fail(400, CODE.BAD_PRIORITY, `Priority '${priority}' is not valid for this subscriber`)
		).Name,
		Description:
			text('Description') ??
			fail(400, CODE.NO_DESCRIPTION, 'Description is required and must not be empty'),
		ProblemCode: text('ProblemCode') ?? fail(400, CODE.NO_PROBLEM_CODE, 'ProblemCode is required'),
	};
}

/** CallDate, ScheduledDate, Nte, Status of a new work order. @param {import('./index').Emulator} emu @param {Record<string, any>} body */
function newDatesAndMoney(emu, body) {
	const callMs = parseDateOr(emu, String(prop(body, 'CallDate')), CODE.BAD_DATA, 'CallDate');
	const scheduled = prop(body, 'ScheduledDate');
	const scheduledMs =
		typeof scheduled === 'string' && scheduled.trim() !== ''
			? parseDateOr(emu, scheduled, CODE.BAD_DATE, 'ScheduledDate')
			: undefined;
	if (scheduledMs !== undefined && scheduledMs < callMs)
		fail(400, CODE.DATE_OUT_OF_RANGE, 'ScheduledDate must be after CallDate');
	const nte = prop(body, 'Nte');
	if (nte !== undefined && nte !== null && (nte < 0 || nte > NTE_LIMIT))
		fail(400, CODE.BAD_NTE, `Nte must be from 0 to ${NTE_LIMIT}`);
	const status = prop(body, 'Status');
	let Status;
	if (status) {
		const option = STATUSES.find(
			(s) => s.Id.toLowerCase() === String(prop(status, 'Primary')).toLowerCase(),
		);
		if (!option)
			fail(
				400,
				CODE.BAD_STATUS,
				`Status.Primary must be one of ${STATUSES.map((s) => s.Id).join(', ')}`,
			);
		Status = { Primary: option.Name, Extended: extendedOf(option, prop(status, 'Extended')) };
	}
	return { CallDate: callMs, ScheduledDate: scheduledMs, Nte: nte ?? undefined, Status };
}

/** @type {import('./api').Handler} */
function createWorkOrder(emu, ctx, p) {
	const body = S.jsonBody(ctx, S.CREATE_WO_REQUEST, 'CreateWoRequest');
	const contract = prop(body, 'ContractInfo');
	const subscriberId = newSubscriber(p, contract);
	const location = newLocation(emu, subscriberId, contract);
	const { trade, providerId } = newTradeAndProvider(emu, subscriberId, location, contract);
	const partial = {
		LocationId: location.Id,
		// the provider as the emulator's shape names it: flat, or nested as in the reference's WorkOrder
		ProviderId: providerId,
		Provider: providerId === undefined ? undefined : { Id: providerId },
		Trade: trade,
		...newTexts(body),
		...newDatesAndMoney(emu, body),
		Caller: prop(body, 'CallerName') ?? undefined,
		Number: prop(body, 'Number') ?? undefined,
		PurchaseNumber: prop(body, 'PurchaseNumber') ?? undefined,
	};
	const asset = newAsset(emu, subscriberId, location, trade, prop(body, 'AssetId'));
	const wo = emu.createWorkOrder(storable(partial));
	if (asset) {
		asset.WorkOrderIds.push(wo.Id);
		wo.Asset = places.workOrderAsset(emu, asset);
		wo.Assets = [wo.Asset];
		wo.AssetCount = 1;
	}
	return json(201, { id: wo.Id }, { location: `${emu.baseUrl}/v3/workorders/${wo.Id}` });
}

// ---- changes ------------------------------------------------------------------------------------

/** @param {{ Name: string, Extended: string[] }} option @param {unknown} extended */
function extendedOf(option, extended) {
	if (extended === undefined || extended === null || String(extended).trim() === '') return null;
	const match = option.Extended.find(
		(e) => e.toLowerCase() === String(extended).trim().toLowerCase(),
	);
	return (
		match ?? fail(400, CODE.BAD_STATUS, `'${extended}' is not an extended status of ${option.Name}`)
	);
}

/** The decline reason a move to DECLINED needs (9001 missing, 9002 unknown or no own text allowed). @param {Record<string, any>} body */
function declineText(body) {
	const id = prop(body, 'DeclineReasonId');
	const custom = prop(body, 'CustomDeclineReason');
	if (id === undefined || id === null)
		return fail(
			400,
			CODE.DECLINE_REASON_REQUIRED,
			'DeclineReasonId is required to decline a work order',
		);
	const reason =
		DECLINE_REASONS.find((r) => r.Id === id) ||
		fail(400, CODE.BAD_DECLINE_REASON, `DeclineReasonId ${id} is not a decline reason`);
	if (custom && !reason.custom)
		fail(400, CODE.BAD_DECLINE_REASON, `Decline reason ${id} does not allow a custom text`);
	return ` Decline reason: ${custom || reason.Name}.`;
}

/** @type {import('./api').Handler} */
function changeStatus(emu, ctx, p, params) {
	const wo = S.workOrderFor(emu, p, params.woId);
	const body = S.jsonBody(ctx, S.CHANGE_WO_STATUS_REQUEST, 'ChangeWoStatusRequest');
	refuseInvoiced(wo);
	const status = prop(body, 'Status');
	const primary = String(prop(status, 'Primary')).trim().toLowerCase();
	const option = STATUSES.find(
		(s) => s.Name.toLowerCase() === primary || s.Id.toLowerCase() === primary,
	);
	if (!option)
		fail(400, CODE.BAD_STATUS, `'${prop(status, 'Primary')}' is not a work order status`);
	const extended = extendedOf(option, prop(status, 'Extended'));
	const decline = extended === 'DECLINED' ? declineText(body) : '';
	const before = `${wo.Status.Primary}${wo.Status.Extended ? ` / ${wo.Status.Extended}` : ''}`;
	emu.setWorkOrderStatus(wo.Id, option.Name, extended);
	const actor = prop(body, 'Actor');
	const note = prop(body, 'Note');
	const result = `Status changed from ${before} to ${option.Name}${extended ? ` / ${extended}` : ''}${actor ? ` by ${actor}` : ''}.${decline}${note ? ` ${note}` : ''}`;
	emu.addNote(wo.Id, result, p.user.username);
	return json(200, { result, id: wo.Id });
}

/** @type {import('./api').Handler} */
function changeScheduledDate(emu, ctx, p, params) {
	const wo = S.workOrderFor(emu, p, params.woId);
	const body = S.jsonBody(ctx, S.CHANGE_WO_VALUE_REQUEST, 'ChangeWoValueRequest');
	const reason = S.intQuery(ctx, 'rescheduleReasonCode');
	if (reason !== undefined && reason < 1) badData('rescheduleReasonCode must be 1 or greater');
	refuseInvoiced(wo);
	const value = String(prop(body, 'Value'));
	const ms = parseDateOr(emu, value, CODE.BAD_DATE, 'Value (the scheduled date)');
	const callDate = S.twinOf(wo, 'CallDate');
	if (callDate && ms < emu.parseDate(callDate))
		fail(400, CODE.BAD_DATE, 'The scheduled date must not be before the call date');
	emu.updateWorkOrder(wo.Id, { ScheduledDate: ms });
	return json(200, { id: wo.Id });
}

/** @type {import('./api').Handler} */
function changePriority(emu, ctx, p, params) {
	const wo = S.workOrderFor(emu, p, params.woId);
	const body = S.jsonBody(ctx, S.CHANGE_WO_VALUE_REQUEST, 'ChangeWoValueRequest');
	refuseInvoiced(wo);
	const value = String(prop(body, 'Value')).trim();
	if (value.length < 1 || value.length > 100)
		fail(400, CODE.BAD_PRIORITY, 'The priority must be 1 to 100 characters long');
	const priority =
		byName(
			PRIORITIES.filter((x) => x.IsSelectable),
			value,
		) || fail(400, CODE.BAD_PRIORITY, `Priority '${value}' is not known`);
	emu.updateWorkOrder(wo.Id, { Priority: priority.Name });
	return json(200, { id: wo.Id });
}

/** The new NTE from Value (a decimal text) or from Details (price plus taxes). @param {Record<string, any>} body */
function nteOf(body) {
	const value = prop(body, 'Value');
	const details = prop(body, 'Details');
	if (typeof value === 'string' && value.trim() !== '') {
		if (!/^\s*\d+(\.\d+)?\s*$/.test(value))
			fail(400, CODE.BAD_NTE, `The NTE '${value}' is not a number`);
		return Number(value);
	}
	if (details) return ['Price', 'Tax', 'Tax2'].reduce((sum, k) => sum + (prop(details, k) ?? 0), 0);
	return badData('Value or Details is required');
}

/** @type {import('./api').Handler} */
function changeNte(emu, ctx, p, params) {
	const wo = S.workOrderFor(emu, p, params.woId);
	const body = S.jsonBody(ctx, S.CHANGE_WO_NTE_REQUEST, 'ChangeWoNteRequest');
	refuseInvoiced(wo);
	const nte = nteOf(body);
	if (nte < 0 || nte > NTE_LIMIT)
		fail(400, CODE.BAD_NTE, `The NTE ${nte} is over the limit of ${NTE_LIMIT}`);
	const currency = prop(body, 'CurrencyId');
	if (currency !== undefined && currency !== null && !CURRENCIES.has(currency))
		badData(`CurrencyId ${currency} is not a currency`);
	const details = prop(body, 'Details') || {};
	emu.updateWorkOrder(
		wo.Id,
		storable({
			Nte: nte,
			Price: prop(details, 'Price'),
			Tax: prop(details, 'Tax'),
			Tax2: prop(details, 'Tax2'),
		}),
	);
	return json(200, { id: wo.Id });
}

// ---- the work order's own files -----------------------------------------------------------------

/** @type {import('./api').Handler} */
function addWorkOrderAttachments(emu, ctx, p, params) {
	const wo = S.workOrderFor(emu, p, params.woId);
	const parts = S.multipartParts(ctx);
	const descriptors = parts.filter((part) => part.name.toLowerCase() === 'addattachmentsrequest');
	if (descriptors.length > 1) badData("Send at most one 'AddAttachmentsRequest' part");
	const described = descriptors.length
		? S.jsonPart(descriptors[0], S.ADD_ATTACHMENTS_REQUEST).Attachments
		: [];
	const files = parts.filter((part) => part.name.toLowerCase() === 'file');
	if (files.length === 0) badData("The multipart part 'file' is required");
	for (const file of files)
		if (file.size === 0) badData(`The file '${file.filename || 'file'}' is empty`);
	const { storeAttachment } = require('./notes');
	files.forEach((file, k) => {
		const record = storeAttachment(emu, {
			wo,
			noteId: null,
			checkListResponseId: null,
			source: 'WorkOrder',
			file,
			user: p.user,
		});
		const d = described[k] || {};
		if (prop(d, 'Name')) record.FileName = prop(d, 'Name');
		Object.assign(record, {
			Description: prop(d, 'Description') ?? null,
			Visibility: prop(d, 'Visibility') ?? null,
			Actor: S.query(ctx, 'actor') ?? null,
		});
		events.attachmentAdded(emu, wo, record, p.user);
	});
	return empty(201);
}

// ---- lists --------------------------------------------------------------------------------------

/** @type {import('./api').Handler} */
function statuses(emu, ctx, p) {
	S.subscriberFor(ctx, p);
	S.intQuery(ctx, 'tradeId');
	const list = STATUSES.map((s) => ({
		Id: s.Id,
		Name: s.Name,
		Extended: [...s.Extended],
		ExtendedStatuses: s.Extended.map((name, k) => ({ Id: k + 1, Name: name })),
		Constraints: s.Extended.map((name) => ({
			Extended: name,
			IsResolutionTextRequired: RESOLUTION_REQUIRED.has(name) ? 1 : 0,
			IsShippingInfoRequired: 0,
			IsResolutionCodesRequired: 0,
			IsScheduledDateRequired: name === 'DISPATCH CONFIRMED' ? 1 : 0,
			AskForReviews: name === 'CONFIRMED',
		})),
	}));
	return json(200, list);
}

/** @type {import('./api').Handler} */
function categories(emu, ctx, p) {
	const subscriberId = S.subscriberFor(ctx, p);
	const sort = S.query(ctx, 'sortExpr');
	const m = /^\s*(Id|Name)(\s+(asc|desc))?\s*$/i.exec(sort ?? 'Name');
	if (!m)
		badData(`sortExpr must be Id or Name, optionally followed by asc or desc (got '${sort}')`);
	const key = m[1].toLowerCase() === 'id' ? 'Id' : 'Name';
	const list = CATEGORIES.map((c) => ({
		Id: c.Id,
		SubscriberId: subscriberId,
		Name: c.Name,
		HasDependency: false,
		PrimaryCategoryID: c.PrimaryCategoryID ?? null,
		PrimaryCategoryName: c.PrimaryCategoryName ?? null,
	})).sort((a, b) => (a[key] < b[key] ? -1 : a[key] > b[key] ? 1 : 0));
	return json(200, m[3] && m[3].toLowerCase() === 'desc' ? list.reverse() : list);
}

/** @type {import('./api').Handler} */
function priorities(emu, ctx, p) {
	const subscriberId = S.subscriberFor(ctx, p);
	const list = PRIORITIES.map((x) => {
		const due = emu.formatDate(emu.now() + x.hours * 3600 * 1000);
		return {
			Id: x.Id,
			Name: x.Name,
			SubscriberId: subscriberId,
			Eta: x.Eta,
			SkipNights: x.SkipNights,
			SkipWeekends: x.SkipWeekends,
			LocationId: null,
			Trade: null,
			ScheduledDate: due.local,
			ScheduledDate_DTO: due.dto,
			IsSelectable: x.IsSelectable,
		};
	});
	return json(200, list);
}

/** Literal paths first: api.js spreads these before `workorders/{woId}`. */
const ROUTES = [
	['GET', 'workorders/statuses', statuses, 'workorders.read'],
	['GET', 'workorders/categories', categories, 'workorders.read'],
	['GET', 'workorders/priorities', priorities, 'workorders.read'],
	['POST', 'workorders', createWorkOrder, 'notes.write'],
	['PUT', 'workorders/{woId}/status', changeStatus, 'notes.write'],
	['PUT', 'workorders/{woId}/scheduledate', changeScheduledDate, 'notes.write'],
	['PUT', 'workorders/{woId}/priority', changePriority, 'notes.write'],
	['PUT', 'workorders/{woId}/nte', changeNte, 'notes.write'],
	['POST', 'workorders/{woId}/attachments', addWorkOrderAttachments, 'notes.write'],
];

module.exports = { ROUTES, STATUSES, CATEGORIES, PRIORITIES, TRADES, DECLINE_REASONS };
