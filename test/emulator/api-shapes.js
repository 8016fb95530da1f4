// @ts-check
'use strict';

/**
 * Request shapes of the work-order writes and checklist calls (service-reference.json, issue 27),
 * and the small readers the route modules api-workorder-writes.js and api-checklists.js share:
 * a mini schema check that refuses what the service refuses (an unknown field, a wrong type, a
 * missing required field) with an ErrorResponse (400, code 503 "bad data"), query and body
 * readers, and tolerant accessors of a stored work order (flat `SubscriberId` or nested
 * `Subscriber.Id`, `UpdatedDateDto` or `UpdatedDate_DTO`), so the routes read the emulator's
 * records whichever shape they are stored in.
 */

const { fail, mediaType, parse, prop } = require('./http-util');

/** The reference's numeric error codes (ErrorResponse.ErrorCode). */
const CODE = {
	NO_ACCESS: 100,
	BAD_SUBSCRIBER: 401,
	NOT_FOUND: 502,
	BAD_DATA: 503,
	NO_PROVIDER: 100,
	NO_CONTRACT: 301,
	BAD_LOCATION: 600,
	BAD_STORE: 603,
	NO_TRADE: 700,
	BAD_TRADE: 702,
	NO_DESCRIPTION: 902,
	NO_PROBLEM_CODE: 903,
	BAD_STATUS: 904,
	BAD_NTE: 905,
	BAD_DATE: 908,
	DATE_OUT_OF_RANGE: 909,
	NO_CATEGORY: 910,
	BAD_CATEGORY: 911,
	NO_PRIORITY: 912,
	BAD_PRIORITY: 913,
	INVOICED: 921,
	DECLINE_REASON_REQUIRED: 9001,
	BAD_DECLINE_REASON: 9002,
};

/**
 * @typedef {'string' | 'int' | 'number' | 'bool' | 'date' | 'any' | { object: Schema } | { array: Schema | 'string' | 'int' }} FieldType
 * @typedef {{ fields: Record<string, FieldType>, required?: string[] }} Schema
 */

/** @type {Schema} */
const ADD_ATTACHMENT_REQUEST = {
	fields: {
		Name: 'string',
		Description: 'string',
		Path: 'string',
		Type: 'string',
		MediaType: 'string',
		Visibility: 'int',
		IsInvoiceDigitalCopy: 'bool',
	},
};

/** @type {Schema} */
const CREATE_WO_REQUEST = {
	required: ['ContractInfo', 'Category', 'Priority', 'CallDate', 'Description', 'ProblemCode'],
	fields: {
		Number: 'string',
		PurchaseNumber: 'string',
		HasTruncatedDescription: 'bool',
		Comment: 'string',
		SetupId: 'int',
		AssetId: 'int',
		ReplaceAsset: 'bool',
		CallerName: 'string',
		Category: 'string',
		CategoryId: 'int',
		Priority: 'string',
		Nte: 'number',
		CallDate: 'string',
		ScheduledDate: 'string',
		CompletedDate: 'string',
		ProblemSource: 'string',
		Description: 'string',
		ProblemCode: 'string',
		RecallWorkOrder: 'int',
		ServiceNowId: 'string',
		CurrencyId: 'int',
		FollowupWorkOrder: 'int',
		ApprovalCode: 'string',
		IgnoreAttachmentsRequiredFlag: 'bool',
		ApiRequest: 'bool',
		IssueListHeaderId: 'int',
		ProposedNte: 'number',
		NotifyProvider: 'bool',
		IsDashboardRequest: 'bool',
		FloorPlansImagePath: 'string',
		ProjectId: 'int',
		WeatherTypeId: 'int',
		LabelId: 'int',
		AdditionalApprovalCodes: 'any',
		Materials: { array: { fields: {} } },
		MaterialsUsed: { array: { fields: {} } },
		ContractInfo: {
			object: {
				fields: {
					SubscriberId: 'int',
					LocationId: 'int',
					StoreId: 'string',
					ProviderId: 'int',
					TradeName: 'string',
				},
			},
		},
		IssueRequestInfo: {
			object: {
				required: ['AreaId'],
				fields: {
					AreaId: 'int',
					ExtendedAreaName: 'string',
					ProblemType: 'string',
					AssetType: 'string',
				},
			},
		},
		DispatchSettingsInfo: {
			object: {
				fields: {
					NotificationDisabled: 'bool',
					EmailHeader: 'string',
					SendAlertToFM: 'bool',
					ShowLastServiceCall: 'bool',
					IsTest: 'bool',
					CcRecipients: 'string',
					InvalidRecipients: 'string',
				},
			},
		},
		Status: {
			object: {
				required: ['Primary', 'Extended'],
				fields: { Primary: 'string', Extended: 'string', PrimaryStatusValue: 'string' },
			},
		},
		ExtendedInfo: {
			object: {
				fields: {
					ExpirationDate: 'date',
					GracePeriod: 'int',
					Tax: 'number',
					Tax2: 'number',
					Tax2Type: 'string',
					Price: 'number',
					AutoInvoice: 'bool',
					CallerIdMatch: 'bool',
					AutoComplete: 'bool',
					AutoDispatch: 'bool',
				},
			},
		},
		Attachments: { array: ADD_ATTACHMENT_REQUEST },
		AdditionalFields: { array: { fields: { Name: 'string', Value: 'string' } } },
	},
};

/** @type {Schema} */
const CHANGE_WO_STATUS_REQUEST = {
	required: ['Status'],
	fields: {
		Status: {
			object: {
				required: ['Primary', 'Extended'],
				fields: { Primary: 'string', Extended: 'string', PrimaryStatus: 'string' },
			},
		},
		Note: 'string',
		Actor: 'string',
		DeclineReasonId: 'int',
		CustomDeclineReason: 'string',
	},
};

/** @type {Schema} */
const CHANGE_WO_VALUE_REQUEST = {
	required: ['Value'],
	fields: { Value: 'string', Actor: 'string' },
};

/** @type {Schema} */
const CHANGE_WO_NTE_REQUEST = {
	fields: {
		Details: {
			object: { fields: { Tax: 'number', Tax2: 'number', Price: 'number', Tax2Type: 'string' } },
		},
		CurrencyId: 'int',
		Value: 'string',
		ProviderEmail: 'string',
		Actor: 'string',
	},
};

/** @type {Schema} */
const ADD_ATTACHMENTS_REQUEST = {
	required: ['Attachments'],
	fields: { Attachments: { array: ADD_ATTACHMENT_REQUEST } },
};

/**
 * CheckListResponseRequest as the contract names it (conflict 2: names match without case; the
 * contract's required fields; `Answer` may be a number, conflict 5).
 * @type {Schema}
 */
const CHECKLIST_RESPONSE_REQUEST = {
	required: ['CheckListQuestionID', 'EntityID', 'ProviderID', 'TechnicianID', 'Attempt'],
	fields: {
		CheckListQuestionID: 'int',
		CheckListQuestionOptionID: 'int',
		Answer: 'any',
		FreeTextAnswer: 'string',
		EntityID: 'int',
		EntityTypeId: 'int',
		ProviderID: 'int',
		TechnicianID: 'int',
		AuthUserId: 'int',
		Attempt: 'int',
	},
};

/** @param {string} message @returns {never} */
function badData(message) {
	return fail(400, CODE.BAD_DATA, message);
}

/** @param {unknown} v */
const isInt32 = (v) => typeof v === 'number' && Number.isInteger(v) && Math.abs(v) <= 2147483647;

/** @param {unknown} value @param {FieldType} type @param {string} path */
function checkType(value, type, path) {
	if (value === null || type === 'any') return;
	if (type === 'string' && typeof value !== 'string') badData(`${path} must be a string`);
	if (
		(type === 'int' && !isInt32(value)) ||
		(type === 'number' && (typeof value !== 'number' || !Number.isFinite(value)))
	) {
		badData(`${path} must be ${type === 'int' ? 'a 32-bit integer' : 'a number'}`);
	}
	if (type === 'bool' && typeof value !== 'boolean') badData(`${path} must be true or false`);
	if (type === 'date' && (typeof value !== 'string' || !/^\d{4}-\d{2}-\d{2}/.test(value)))
		badData(`${path} must be an ISO 8601 date-time`);
	if (typeof type !== 'object') return;
	if ('object' in type) return void checkObject(value, type.object, path);
	if (!Array.isArray(value)) badData(`${path} must be an array`);
	value.forEach((v, i) =>
		typeof type.array === 'string'
			? checkType(v, type.array, `${path}[${i}]`)
			: checkObject(v, type.array, `${path}[${i}]`),
	);
}

/**
 * Checks an object against a schema: no unknown field (names compared without case), required
 * fields present (not null), types as declared. Returns the object.
 * @param {unknown} value @param {Schema} schema @param {string} path
 * @returns {Record<string, any>}
 */
function checkObject(value, schema, path) {
	if (value === null || typeof value !== 'object' || Array.isArray(value))
		return badData(`${path} must be a JSON object`);
	const names = Object.keys(schema.fields);
	for (const key of Object.keys(value)) {
		if (!names.some((n) => n.toLowerCase() === key.toLowerCase()))
			badData(`${path} has an unknown field '${key}'`);
	}
	for (const name of schema.required || []) {
		const v = prop(value, name);
		if (v === undefined || v === null) badData(`${path}.${name} is required`);
	}
	for (const name of names) {
		const v = prop(value, name);
		if (v !== undefined) checkType(v, schema.fields[name], `${path}.${name}`);
	}
	return /** @type {Record<string, any>} */ (value);
}

/**
 * The JSON body (application/json, an object); an empty body is refused (503).
 * @param {import('./index').RequestContext} ctx @param {Schema} schema @param {string} name
 */
function jsonBody(ctx, schema, name) {
	const type = mediaType(ctx.headers['content-type']);
	if (type && type !== 'application/json' && !type.endsWith('+json'))
		fail(415, 2002, `Content-Type must be application/json (got ${type})`);
	const text = ctx.body.toString('utf8');
	if (text.trim() === '') badData(`The request body (${name}) is empty`);
	let value;
	try {
		value = parse(text);
	} catch (e) {
		badData(`The request body is not valid JSON: ${/** @type {Error} */ (e).message}`);
	}
	return checkObject(value, schema, name);
}

/** The parts of a multipart/form-data request (415 for another type). @param {import('./index').RequestContext} ctx */
function multipartParts(ctx) {
	const type = mediaType(ctx.headers['content-type']);
	if (type !== 'multipart/form-data')
		fail(
			415,
			2002,
			`Content-Type must be multipart/form-data with a boundary (got ${type || 'none'})`,
		);
	if (!ctx.multipart || ctx.multipart.error || !ctx.multipart.parts)
		badData(`Malformed multipart body: ${ctx.multipart?.error ?? 'empty'}`);
	return /** @type {import('./multipart').Part[]} */ (ctx.multipart.parts);
}

/** A JSON part checked against a schema. @param {import('./multipart').Part} part @param {Schema} schema */
function jsonPart(part, schema) {
	let value;
	try {
		value = parse(part.data.toString('utf8'));
	} catch (e) {
		badData(`The part '${part.name}' is not valid JSON: ${/** @type {Error} */ (e).message}`);
	}
	return checkObject(value, schema, part.name);
}

/** A query parameter by name (without case); the last of repeated ones. @param {import('./index').RequestContext} ctx @param {string} name */
function query(ctx, name) {
	const key = Object.keys(ctx.query).find((k) => k.toLowerCase() === name.toLowerCase());
	if (key === undefined) return undefined;
	const v = ctx.query[key];
	return Array.isArray(v) ? v[v.length - 1] : v;
}

/** An int32 query parameter, or undefined. @param {import('./index').RequestContext} ctx @param {string} name */
function intQuery(ctx, name) {
	const v = query(ctx, name);
	if (v === undefined || v === '') return undefined;
	if (!/^-?\d{1,10}$/.test(v) || !isInt32(Number(v)))
		badData(`Query parameter ${name} must be a 32-bit integer, got '${v}'`);
	return Number(v);
}

/** A boolean query parameter, or undefined. @param {import('./index').RequestContext} ctx @param {string} name */
function boolQuery(ctx, name) {
	const v = query(ctx, name);
	if (v === undefined || v === '') return undefined;
	if (!/^(true|false)$/i.test(v))
		badData(`Query parameter ${name} must be true or false, got '${v}'`);
	return v.toLowerCase() === 'true';
}

/* ---- a stored work order, flat or nested ---- */

/** @param {any} wo */
const subscriberOf = (wo) => wo.SubscriberId ?? wo.Subscriber?.Id;
/** @param {any} wo */
const providerOf = (wo) => wo.ProviderId ?? wo.Provider?.Id;
/** @param {any} wo */
const locationIdOf = (wo) => wo.LocationId ?? wo.Location?.Id;
/** The offset twin of a date of a work order (`X_DTO`, or `XDto`), else the plain date. @param {any} wo @param {string} name */
const twinOf = (wo, name) => wo[`${name}_DTO`] ?? wo[`${name}Dto`] ?? wo[name];

/** @param {import('./api').Principal} p @param {any} wo */
function canSee(p, wo) {
	return p.providerId !== null
		? providerOf(wo) === p.providerId
		: subscriberOf(wo) === p.subscriberId;
}

/**
 * The work order a change names: 400 with 502 when there is none, 400 with 100 when this user
 * may not see it (no location access).
 * @param {import('./index').Emulator} emu @param {import('./api').Principal} p @param {number} id
 */
function workOrderFor(emu, p, id) {
	const wo = emu.workOrder(id);
	if (!wo) fail(400, CODE.NOT_FOUND, `Work order ${id} was not found`);
	if (!canSee(p, wo)) fail(400, CODE.NO_ACCESS, `No access to the location of work order ${id}`);
	return wo;
}

/**
 * The subscriber a list is read for: the user's own; a provider user must name one (`subscriberId`).
 * @param {import('./index').RequestContext} ctx @param {import('./api').Principal} p
 */
function subscriberFor(ctx, p) {
	const asked = intQuery(ctx, 'subscriberId');
	if (p.providerId !== null) {
		if (asked === undefined) badData('subscriberId is required for provider users');
		return asked;
	}
	if (asked !== undefined && asked !== p.subscriberId)
		fail(400, CODE.BAD_SUBSCRIBER, `Subscriber ${asked} is not the subscriber of this user`);
	return /** @type {number} */ (p.subscriberId);
}

module.exports = {
	CODE,
	CREATE_WO_REQUEST,
	CHANGE_WO_STATUS_REQUEST,
	CHANGE_WO_VALUE_REQUEST,
	CHANGE_WO_NTE_REQUEST,
	ADD_ATTACHMENTS_REQUEST,
	CHECKLIST_RESPONSE_REQUEST,
	badData,
	checkObject,
	jsonBody,
	jsonPart,
	multipartParts,
	query,
	intQuery,
	boolQuery,
	subscriberOf,
	providerOf,
	locationIdOf,
	twinOf,
	canSee,
	workOrderFor,
	subscriberFor,
};
