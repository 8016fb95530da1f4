// @ts-check
'use strict';

const { stringify, stringifyFast, parse, JsonSyntaxError } = require('./lossless-json');

/**
 * @typedef {{ status: number, headers: Record<string, string | string[]>, body: Buffer | null }} Response
 */

/** Thrown by handlers to answer at once with a prepared response. */
class Reply extends Error {
	/** @param {Response} response */
	constructor(response) {
		super(`reply ${response.status}`);
		this.response = response;
	}
}

/** Error codes used in `{ ErrorCodes, ErrorCode, ErrorMessage }` bodies (see README.md). */
const E = {
	SECURITY: 1010, // every 401 carries this first: "rejected by security permissions"
	NO_TOKEN: 1001,
	BAD_TOKEN: 1002,
	EXPIRED_TOKEN: 1003,
	REVOKED_TOKEN: 1004,
	NO_PERMISSION: 1011,
	BAD_JSON: 2001,
	CONTENT_TYPE: 2002,
	NO_BODY: 2003,
	BAD_PATH: 2004,
	MULTIPART: 2005,
	INVALID_FIELD: 2006,
	REQUIRED_FIELD: 2007,
	BAD_QUERY: 2008,
	TOO_LARGE: 2009,
	BAD_EMAIL: 2010,
	QUESTION_NOT_IN_CHECKLIST: 3001,
	OPTION_REQUIRED: 3002,
	OPTION_INVALID: 3003,
	FREE_TEXT_REQUIRED: 3004,
	FREE_TEXT_NOT_ALLOWED: 3005,
	ANSWER_REQUIRED: 3006,
	ACK_INVALID: 3007,
	TEXT_TOO_LONG: 3008,
	NUMERIC_INVALID: 3009,
	FILE_REQUIRED: 3010,
	NO_CHECKLIST: 3012,
	LOCATION_DISABLED: 3013,
	ATTEMPT_INVALID: 3014,
	PROVIDER_MISMATCH: 3015,
	NO_ROUTE: 5000,
	METHOD_NOT_ALLOWED: 5001,
	WO_NOT_FOUND: 5002,
	NOTE_NOT_FOUND: 5003,
	PROPOSAL_NOT_FOUND: 5004,
	LOCATION_NOT_FOUND: 5005,
	THROTTLED: 6001,
	INTERNAL: 9000,
	// the reference's own codes (service-reference.md), used where it names one
	NO_LOCATION_ACCESS: 100,
	OVER_APPROVAL_LIMIT: 100, // approve: the amount is above the user's approval limit
	INVALID_SUBSCRIBER: 401, // proposal moves: the caller is not a subscriber user
	REF_NOT_FOUND: 502,
	BAD_DATA: 503,
	REFUSED: 504,
	BAD_LOCATION_ID: 601,
	UNKNOWN_STORE_ID: 606,
	BAD_EXTENDED_STATUS: 904,
	WO_ID_NOT_POSITIVE: 917,
	WO_COMPLETED: 921,
	BAD_PAGING: 922,
	WO_INVOICED_CHECK: 924,
};

/**
 * @param {number} status
 * @param {any} value
 * @param {Record<string, string>} [headers]
 * @returns {Response}
 */
function json(status, value, headers = {}) {
	return {
		status,
		headers: { 'content-type': 'application/json; charset=utf-8', ...headers },
		body: Buffer.from(stringifyFast(value), 'utf8'),
	};
}

/**
 * @param {number} status
 * @param {number} code
 * @param {string} message
 * @param {{ extraCodes?: number[], headers?: Record<string, string> }} [opts]
 */
function apiError(status, code, message, opts = {}) {
	return json(
		status,
		{
			ErrorCodes: [code, ...(opts.extraCodes || [])],
			ErrorCode: code,
			ErrorMessage: message,
			Data: null,
		},
		opts.headers || {},
	);
}

/**
 * An OData error (ASP.NET OData): `{ "error": { "code", "message", "details" } }`, what the
 * service answers to a query it cannot run (an unknown property, a syntax error).
 * @param {string} message
 */
function odataError(message) {
	return json(400, {
		error: {
			code: '',
			message: `The query specified in the URI is not valid. ${message}`,
			details: [],
		},
	});
}

/**
 * @param {number} status @param {number} code @param {string} message
 * @param {{ extraCodes?: number[], headers?: Record<string, string> }} [opts]
 * @returns {never}
 */
function fail(status, code, message, opts) {
	throw new Reply(apiError(status, code, message, opts));
}

/**
 * @param {number} status @param {string} error @param {string} description @param {Record<string, string>} [headers]
 */
function oauthError(status, error, description, headers = {}) {
	return json(
		status,
		{ error, error_description: description },
		{ 'cache-control': 'no-store', pragma: 'no-cache', ...headers },
	);
}

/** @param {number} status @param {string} html @param {Record<string, string>} [headers] */
function htmlResponse(status, html, headers = {}) {
	return {
		status,
		headers: { 'content-type': 'text/html; charset=utf-8', ...headers },
		body: Buffer.from(html, 'utf8'),
	};
}

/** @param {number} status @param {string} text @param {Record<string, string>} [headers] */
function textResponse(status, text, headers = {}) {
	return {
		status,
		headers: { 'content-type': 'text/plain; charset=utf-8', ...headers },
		body: Buffer.from(text, 'utf8'),
	};
}

/** @param {number} status @param {Record<string, string>} [headers] @returns {Response} */
function empty(status, headers = {}) {
	return { status, headers: { ...headers }, body: null };
}

/** @param {string} location @param {Record<string, string | string[]>} [headers] @returns {Response} */
function redirect(location, headers = {}) {
	return {
		status: 302,
		headers: { location, 'content-type': 'text/html; charset=utf-8', ...headers },
		body: Buffer.from(
			`<html><body>Redirecting to <a href="${escapeHtml(location)}">${escapeHtml(location)}</a></body></html>`,
		),
	};
}

/** @param {string} s */
function escapeHtml(s) {
	return String(s).replace(
		/[&<>"']/g,
		(c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c] || c,
	);
}

/** @param {string | undefined} contentType media type, lower-cased, without parameters */
function mediaType(contentType) {
	return (contentType || '').split(';')[0].trim().toLowerCase();
}

/** UTC `X` form (the service's own zone is applied by service-time.js). @param {number} ms */
function isoLocal(ms) {
	return new Date(ms).toISOString().replace('Z', '');
}
/** @param {number} ms */
function isoOffset(ms) {
	return new Date(ms).toISOString().replace('Z', '+00:00');
}

/**
 * A work-order note as the emulator stores it: the reference's `Note` (Id, Number, NoteData,
 * DateCreated, ScheduledDate, FollowUpDate, ActionRequired, MailedTo, CreatedBy, CompanyName,
 * Attachments, Visibility, NoteType, IsAttachmentNote; dates in the service's local time, no twin)
 * plus the emulator's own fields, prefixed `_` and never sent: `_workOrderId`, `_at` (the instant
 * of DateCreated), `_createdAt` (replica lag), `_proposalId`, `_notifyFollowers`,
 * `_doNotSendEmail`, `_actor`. `Id` is a BigInt; `Attachments` holds the stored attachment records.
 * @param {{ id: bigint, number: number, workOrderId: number, text: string, at: number, createdBy: string, companyName?: string | null,
 *   extra?: Record<string, any>, createdAt: number, time?: { local: (ms: number) => string }, system?: boolean }} n
 *   `time`: the service time zone (default UTC)
 */
function noteRecord({
	id,
	number,
	workOrderId,
	text,
	at,
	createdBy,
	companyName = null,
	extra = {},
	createdAt,
	time,
	system = false,
}) {
	return {
		Id: id,
		Number: number,
		NoteData: text,
		DateCreated: time ? time.local(at) : isoLocal(at),
		ScheduledDate: null,
		FollowUpDate: null,
		ActionRequired: false,
		MailedTo: null,
		CreatedBy: createdBy,
		CompanyName: companyName,
		Attachments: [],
		Visibility: 0,
		NoteType: system ? 'SystemNote' : 'UsersNote',
		IsAttachmentNote: false,
		...extra,
		_workOrderId: workOrderId,
		_at: at,
		_createdAt: createdAt,
	};
}

/**
 * Case-insensitive property lookup (the deployed service binds JSON case-insensitively).
 * @param {Record<string, any>} obj
 * @param {string} name
 */
function prop(obj, name) {
	if (Object.prototype.hasOwnProperty.call(obj, name)) return obj[name];
	const lower = name.toLowerCase();
	for (const k of Object.keys(obj)) if (k.toLowerCase() === lower) return obj[k];
	return undefined;
}

const EMAIL_RE = /^[^\s@;,<>()]+@[^\s@;,<>()]+\.[^\s@;,<>()]+$/;

/**
 * Splits a semicolon/comma separated list of e-mail addresses; returns null when one is invalid.
 * @param {string} value
 * @returns {string[] | null}
 */
function splitEmails(value) {
	const list = value
		.split(/[;,]/)
		.map((s) => s.trim())
		.filter(Boolean);
	if (list.length === 0) return null;
	return list.every((e) => EMAIL_RE.test(e)) ? list : null;
}

module.exports = {
	Reply,
	E,
	json,
	apiError,
	odataError,
	fail,
	oauthError,
	htmlResponse,
	textResponse,
	empty,
	redirect,
	escapeHtml,
	mediaType,
	isoLocal,
	isoOffset,
	noteRecord,
	prop,
	splitEmails,
	EMAIL_RE,
	stringify,
	parse,
	JsonSyntaxError,
};
