// @ts-check
'use strict';

/**
 * The proposal reads of the service reference (section 1 and 5):
 *   GET /odata/proposals                            -> OData list of `Proposal`
 *   GET /odata/proposals({proposalId})/attachments  -> OData list of `Attachment`
 *
 * Each `Proposal` is built from the stored proposal (`state.proposals`: Id, Number, SubscriberId,
 * ProviderId, WorkOrderId, Amount, Description, Status, dates, history) and its work order (as
 * `GET /workorders/{id}` answers it), with every property of the reference's `Proposal`, nested as
 * there: `Status { Primary, Extended, ModifiedDate, ModifiedDate_dto, ModifiedBy }`, `WorkOrder` (the
 * whole work order), `Location`, `Provider`, `Subscriber`, `Trade`, `Currency`, `CreatedBy` and
 * `AssignedTo` (`UserInfo`), `AmountCategories`, `Attachments`; dates as the service writes them, a
 * plain local date and its twin with the offset (`CreatedDate` / `CreatedDate_dto`, `ScheduledDate` /
 * `ScheduledDateDto`, `UpdatedDate` / `UpdatedDateDto`); what the emulator has no data for is null
 * (an empty list for lists). `Status.Primary` is the stored status: `Open`, `OnHold`, `Approved`,
 * `Rejected`.
 *
 * OData: `$filter` over these properties (paths such as `Status/Primary`, `Location/Id`,
 * `WorkOrder/Id`, `Provider/Id`; the six date properties compare as instants, a literal without an
 * offset is the service's local time), `$orderby`, `$select` (top-level names), `$top`/`$skip` (50 a
 * page at most), `$count`. An unknown property: 400, as odata.js answers (the module works with
 * odata.js reading records by property names or by the reference's type). A caller
 * sees the proposals of its subscriber (subscriber users) or of its provider (contractors).
 * Voided proposals are not listed; a `$filter` with `Id eq N` that matches a voided proposal is
 * answered 400 (ErrorCode 4009): "The proposal list answers 400 when the proposal is void". The
 * 90-day default window of the service is not emulated (the fixtures are all recent).
 *
 * Rows for api.js's route table: [method, pattern, handler, permission].
 */

const http = require('./http-util');
const odata = require('./odata');
const files = require('./api-files');

const { json, fail, E, parse, Reply } = http;
const { applyODataQuery, parseFilter, compile, compareValues, ODataError } = odata;

/**
 * Whether odata.js reads records by the reference's type (`{ type: 'Proposal' }`: property paths,
 * date twins) rather than by a list of property names: the module adapts to either.
 */
const TYPED = 'FUNCTIONS' in odata;

/** A query the service cannot run: 400 with the OData error body where http-util has one. @param {string} message @returns {never} */
function queryRefused(message) {
	if (typeof (/** @type {any} */ (http).odataError) === 'function')
		throw new Reply(/** @type {any} */ (http).odataError(message));
	return fail(400, E.BAD_QUERY, message);
}

/**
 * @typedef {import('./index').Emulator} Emulator
 * @typedef {import('./index').RequestContext} RequestContext
 * @typedef {{ user: any, clientId: string, subscriberId: number | null, providerId: number | null }} Principal
 */

/** ErrorCode of "the proposal is void" (the emulator's own: the reference names none). */
const PROPOSAL_VOID = 4009;

/** Every property of the reference's `Proposal`, in its order. */
const PROPOSAL_PROPS = [
	'Id',
	'Number',
	'Description',
	'Description2',
	'Comments',
	'Location',
	'Provider',
	'Subscriber',
	'Trade',
	'WorkOrder',
	'Currency',
	'RFP',
	'CreatedDate',
	'CreatedDate_dto',
	'CreatedBy',
	'SubmittedTo',
	'Status',
	'Attachments',
	'AssignedTo',
	'ScheduledDate',
	'ScheduledDateDto',
	'AmountCategories',
	'UpdatedDate',
	'UpdatedDateDto',
	'Recommendation',
	'Amount',
	'AssignedFromLevel',
	'AssignedToLevel',
	'LevelsEscalateTo',
	'Actions',
	'MlpRecommendations',
	'MlpRecommendation',
	'CurrentProposalMlpRuleSetId',
	'CurrentProposalMlpRuleSetName',
	'CurrentProposalMlpLevelId',
	'CurrentProposalMlpLevelName',
	'PoNumber',
	'IsMlpLimitOverrun',
	'NextLevelEmpty',
	'Project',
];
const DATE_PROPS = new Set([
	'CreatedDate',
	'CreatedDate_dto',
	'ScheduledDate',
	'ScheduledDateDto',
	'UpdatedDate',
	'UpdatedDateDto',
]);
const ATTACHMENT_PROPS = ['Id', 'Description', 'Name', 'TimeStamp', 'Uri', 'NoteId', 'Visibility'];

const LOCATION_PROPS = [
	'Id',
	'SubscriberId',
	'SubscriberName',
	'StoreId',
	'Name',
	'ShortName',
	'Latitude',
	'Longitude',
	'Distance',
	'Radius',
	'LocationTypeId',
	'Address1',
	'Address2',
	'City',
	'State',
	'StateId',
	'Region',
	'District',
	'Zip',
	'Country',
	'CountryId',
	'ClosedDate',
	'OpenDate',
	'Status',
	'Email',
	'FaxNumber',
	'Phone',
	'Contact',
	'HasInventory',
	'SquareValue',
	'SquareMeasure',
	'TimeZoneInfoId',
	'TimeZoneShortDescription',
	'TimeZoneMsName',
	'TimeZoneIanaName',
	'TypeLabel',
	'Supplier',
	'CountyId',
	'Notes',
	'TimeShiftToEST',
	'AddressTypeId',
	'FormattedAddress',
	'LocationFormattedAddressTail',
];
const PROVIDER_PROPS = [
	'Phone',
	'FullName',
	'Address1',
	'Address2',
	'City',
	'State',
	'Zip',
	'Country',
	'MainContact',
	'DateCreated',
	'LastUserDate',
	'SuperUser',
	'WebSite',
	'Email',
	'TaxId',
	'Trade',
	'ProcessingEmail',
	'FaxNumber',
	'SuiteFloor',
	'MailInfo',
	'ImageFile',
	'ReturnMail',
	'MailFrequency',
	'FormId',
	'Pager',
	'NightRequest',
	'ShortFormatEmail',
	'LastTrainingDate',
	'LastTrainingDateStr',
	'IsInternal',
	'IsOnOffShoreFeatureEnabled',
	'Id',
	'Name',
	'DoNotDispatch',
];
const SUBSCRIBER_PROPS = [
	'Id',
	'ShortName',
	'Email',
	'Users',
	'PrimaryCurrency',
	'IsOutsourcedWorkOn',
	'Name',
	'Address1',
	'Address2',
	'Country',
	'State',
	'City',
	'Zip',
	'Phone',
	'Fax',
	'ContactName',
	'TimeFormat',
	'DateFormat',
	'DecimalSeparator',
];
const USD = {
	Id: 1,
	AlphabeticalCode: 'USD',
	DecimalCount: 2,
	Entity: 'UNITED STATES OF AMERICA',
	CurrencyName: 'US Dollar',
	NumericCode: '840',
	Rate: 1,
};
const TRADE_IDS = { HVAC: 1, PLUMBING: 2, ELECTRICAL: 3, REFRIGERATION: 4, DOORS: 5 };

/** An object with every listed property: the given values, null for the others. @param {string[]} props @param {Record<string, any>} values */
function full(props, values) {
	/** @type {Record<string, any>} */
	const out = {};
	for (const k of props) out[k] = values[k] === undefined ? null : values[k];
	return out;
}

/** @param {RequestContext} ctx @param {string} name */
function queryParam(ctx, name) {
	for (const k of Object.keys(ctx.query)) {
		if (k.toLowerCase() !== name) continue;
		const v = ctx.query[k];
		return Array.isArray(v) ? v[v.length - 1] : v;
	}
	return undefined;
}

/** @param {Principal} p @param {any} proposal */
function mayRead(p, proposal) {
	return (
		!!proposal &&
		(p.providerId !== null
			? proposal.ProviderId === p.providerId
			: proposal.SubscriberId === p.subscriberId)
	);
}

/**
 * The work order as `GET /workorders/{id}` answers it (so the proposal carries the same object the
 * work order read gives); null when there is none.
 * @param {Emulator} emu @param {Principal} p @param {number | null} id
 */
function workOrderView(emu, p, id) {
	if (id === null || id === undefined) return null;
	const { ROUTES } = require('./api');
	const route = ROUTES.find(
		(/** @type {any} */ r) => r.method === 'GET' && r.pattern === 'workorders/{woId}',
	);
	if (!route) return emu.state.workOrders[id] ?? null;
	try {
		const answer = route.handler(emu, /** @type {any} */ ({ query: {}, headers: {}, log: {} }), p, {
			woId: id,
		});
		return answer.status === 200 && answer.body ? parse(answer.body.toString('utf8')) : null;
	} catch (e) {
		if (e instanceof Reply) return null;
		throw e;
	}
}

/** A date pair { local, twin } from any stored form of an instant; nulls without one. @param {Emulator} emu @param {unknown} value */
function datePair(emu, value) {
	if (typeof value !== 'string' || value === '') return { local: null, dto: null };
	const { local, dto } = emu.formatDate(emu.parseDate(value));
	return { local, dto };
}

/** @param {Emulator} emu @param {any} wo @param {number | undefined} subscriberId */
function locationView(emu, wo, subscriberId) {
	if (wo && wo.Location && typeof wo.Location === 'object') return wo.Location;
	const loc = wo ? emu.state.locations[wo.LocationId] : undefined;
	if (!loc) return null;
	const sub = emu.state.subscribers[loc.SubscriberId ?? subscriberId];
	return full(LOCATION_PROPS, {
		...loc,
		SubscriberName: sub ? sub.Name : null,
		ShortName: loc.StoreId,
		Status: 'Open',
		TimeZoneIanaName: emu.serviceTimeZone,
		Notes: [],
	});
}

/** @param {any} user */
function userInfo(user) {
	return user
		? {
				Id: user.userId,
				UserName: user.username,
				FullName: user.fullName,
				Email: user.email,
				LevelInfo: null,
			}
		: null;
}

/** @param {Emulator} emu @param {any} stored */
function history(emu, stored) {
	const list = Array.isArray(stored.history) ? stored.history : [];
	const last = list[list.length - 1];
	const withComments = [...list]
		.reverse()
		.find((h) => typeof h.comments === 'string' && h.comments.trim() !== '');
	return { last, comments: withComments ? withComments.comments : null };
}

/** @param {number} amount */
function amountCategories(amount) {
	const labor = Math.round(amount * 40) / 100;
	return [
		{ Id: 1, Name: 'Labor', TotalCost: labor },
		{ Id: 2, Name: 'Materials', TotalCost: Math.round((amount - labor) * 100) / 100 },
	];
}

/** @param {Emulator} emu @param {any} stored @param {any} wo */
function parties(emu, stored, wo) {
	const provider = emu.state.providers[stored.ProviderId];
	const subscriber = emu.state.subscribers[stored.SubscriberId];
	const approver = Object.values(emu.state.users).find(
		(u) => u.kind === 'subscriber' && u.subscriberId === stored.SubscriberId && !u.universal,
	);
	const tradeName = wo ? (typeof wo.Trade === 'string' ? wo.Trade : wo.Trade?.Name) : null;
	return {
		Location: locationView(emu, wo, stored.SubscriberId),
		Provider: provider
			? full(PROVIDER_PROPS, {
					Id: provider.Id,
					Name: provider.Name,
					FullName: provider.Name,
					Email: provider.Email,
					IsInternal: false,
					DoNotDispatch: false,
				})
			: null,
		Subscriber: subscriber
			? full(SUBSCRIBER_PROPS, {
					Id: subscriber.Id,
					Name: subscriber.Name,
					ShortName: subscriber.Name,
					PrimaryCurrency: USD,
					IsOutsourcedWorkOn: false,
				})
			: null,
		Trade: tradeName
			? {
					Id: wo.TradeId ?? /** @type {Record<string, number>} */ (TRADE_IDS)[tradeName] ?? null,
					Name: tradeName,
					SubscriberId: stored.SubscriberId,
				}
			: null,
		CreatedBy: provider
			? {
					Id: 900000 + provider.Id,
					UserName: provider.Email,
					FullName: `${provider.Name} dispatch`,
					Email: provider.Email,
					LevelInfo: null,
				}
			: null,
		SubmittedTo: subscriber ? subscriber.Name : null,
		AssignedTo: userInfo(approver),
	};
}

/**
 * The reference's `Proposal` for a stored proposal, as principal `p` reads it.
 * @param {Emulator} emu @param {Principal} p @param {any} stored
 */
async function proposalView(emu, p, stored) {
	const wo = workOrderView(emu, p, stored.WorkOrderId);
	const created = datePair(emu, stored.CreatedDateDto ?? stored.CreatedDate);
	const updated = datePair(
		emu,
		stored.UpdatedDateDto ?? stored.UpdatedDate ?? stored.CreatedDateDto ?? stored.CreatedDate,
	);
	const scheduled = datePair(
		emu,
		wo ? (wo.ScheduledDate_DTO ?? wo.ScheduledDateDto ?? wo.ScheduledDate) : null,
	);
	const { last, comments } = history(emu, stored);
	const modified = last ? datePair(emu, last.at) : updated;
	const attachments = [];
	for (const rec of files.proposalFiles(emu, stored.Id))
		attachments.push(await files.proposalAttachment(emu, rec));
	return full(PROPOSAL_PROPS, {
		Id: stored.Id,
		Number: stored.Number,
		Description: stored.Description,
		Comments: comments,
		...parties(emu, stored, wo),
		WorkOrder: wo,
		Currency: USD,
		CreatedDate: created.local,
		CreatedDate_dto: created.dto,
		Status: {
			Primary: stored.Status,
			Extended: null,
			ModifiedDate: modified.local,
			ModifiedDate_dto: modified.dto,
			ModifiedBy: last ? last.by : null,
		},
		Attachments: attachments,
		ScheduledDate: scheduled.local,
		ScheduledDateDto: scheduled.dto,
		AmountCategories: amountCategories(Number(stored.Amount)),
		UpdatedDate: updated.local,
		UpdatedDateDto: updated.dto,
		Amount: stored.Amount,
		LevelsEscalateTo: [],
		Actions: [],
		MlpRecommendations: [],
		PoNumber: wo ? (wo.PurchaseNumber ?? null) : null,
		IsMlpLimitOverrun: false,
		NextLevelEmpty: false,
	});
}

/** The `$filter` as a predicate over proposals (dates as instants), or undefined. @param {Emulator} emu @param {RequestContext} ctx */
function proposalFilter(emu, ctx) {
	const text = queryParam(ctx, '$filter');
	if (text === undefined) return undefined;
	const env = TYPED
		? { type: 'Proposal', time: emu.time }
		: { properties: new Set(PROPOSAL_PROPS), dates: DATE_PROPS, time: emu.time };
	try {
		return {
			text: String(text),
			test: compile(parseFilter(String(text), emu.time), /** @type {any} */ (env)),
		};
	} catch (e) {
		if (e instanceof ODataError) queryRefused(e.message);
		throw e;
	}
}

/** The query the list is paged with: without `$filter` where it was applied already (odata.js by names). @param {RequestContext} ctx */
function pagingQuery(ctx) {
	return TYPED
		? ctx.query
		: Object.fromEntries(Object.entries(ctx.query).filter(([k]) => k.toLowerCase() !== '$filter'));
}

/**
 * An OData answer over the records of a reference type (`Proposal`, `Attachment`).
 * @param {Emulator} emu @param {any[]} items @param {Record<string, any>} query @param {string} context @param {string} type @param {string[]} properties
 */
function odataAnswer(emu, items, query, context, type, properties) {
	const opts = {
		context: `${emu.baseUrl}/v3/odata/$metadata#${context}`,
		defaultOrder: (/** @type {any} */ a, /** @type {any} */ b) => compareValues(a.Id, b.Id),
		time: emu.time,
	};
	try {
		return json(
			200,
			applyODataQuery(
				items,
				query,
				/** @type {any} */ (TYPED ? { ...opts, type } : { ...opts, properties }),
			),
		);
	} catch (e) {
		if (e instanceof ODataError) queryRefused(e.message);
		throw e;
	}
}

/**
 * GET /odata/proposals
 * @param {Emulator} emu @param {RequestContext} ctx @param {Principal} p
 */
async function listProposals(emu, ctx, p) {
	const filter = proposalFilter(emu, ctx);
	const visible = Object.values(emu.state.proposals)
		.filter((x) => mayRead(p, x))
		.sort((a, b) => a.Id - b.Id);
	const views = [];
	for (const stored of visible) views.push({ stored, view: await proposalView(emu, p, stored) });
	if (filter && /\bId\s+eq\b/i.test(filter.text)) {
		const voided = views.find((v) => v.stored.Status === 'Voided' && filter.test(v.view));
		if (voided) fail(400, PROPOSAL_VOID, `Proposal ${voided.stored.Id} is void`);
	}
	const listed = views
		.filter((v) => v.stored.Status !== 'Voided' && (TYPED || !filter || filter.test(v.view)))
		.map((v) => v.view);
	return odataAnswer(emu, listed, pagingQuery(ctx), 'Proposals', 'Proposal', PROPOSAL_PROPS);
}

/**
 * GET /odata/proposals({proposalId})/attachments
 * @param {Emulator} emu @param {RequestContext} ctx @param {Principal} p @param {{ proposalId: number }} params
 */
async function listProposalAttachments(emu, ctx, p, params) {
	const stored = emu.state.proposals[params.proposalId];
	if (!mayRead(p, stored))
		fail(404, E.PROPOSAL_NOT_FOUND, `Proposal ${params.proposalId} was not found`);
	const list = [];
	for (const rec of files.proposalFiles(emu, stored.Id))
		list.push(await files.proposalAttachment(emu, rec));
	return odataAnswer(
		emu,
		list,
		ctx.query,
		`Proposals(${stored.Id})/Attachments`,
		'Attachment',
		ATTACHMENT_PROPS,
	);
}

/** @type {Array<[string, string, (emu: Emulator, ctx: RequestContext, p: any, params: any) => any, string | null]>} */
const PROPOSAL_ROUTES = [
	['GET', 'odata/proposals', listProposals, null],
	['GET', 'odata/proposals({proposalId})/attachments', listProposalAttachments, null],
];

module.exports = { PROPOSAL_ROUTES, PROPOSAL_PROPS, ATTACHMENT_PROPS, PROPOSAL_VOID, proposalView };
