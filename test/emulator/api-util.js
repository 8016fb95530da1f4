// @ts-check
'use strict';

/**
 * What the handlers of the main API (api.js and the api-*.js route modules) share: who may see a
 * work order, reading query parameters and bodies, checking a body against the reference, OData
 * answers.
 */

const {
	E,
	json,
	fail,
	mediaType,
	prop,
	splitEmails,
	parse,
	odataError,
	Reply,
} = require('./http-util');
const { applyODataQuery, ODataError, compareValues } = require('./odata');
const { UTC } = require('./service-time');
const { check } = require('../contract/schema');
const { definitions } = require('../contract/reference');

/**
 * @typedef {import('./index').Emulator} Emulator
 * @typedef {import('./index').RequestContext} RequestContext
 * @typedef {{ user: any, clientId: string, tokenKind: string, subscriberId: number | null, providerId: number | null, scope: string | null }} Principal
 * @typedef {(emu: Emulator, ctx: RequestContext, p: Principal, params: Record<string, any>) => import('./http-util').Response} Handler
 */

const PAGE_CAP = 50;

/** @param {Principal} p @param {any} wo */
function canSeeWo(p, wo) {
	return p.providerId !== null
		? wo.ProviderId === p.providerId
		: wo.SubscriberId === p.subscriberId;
}

/**
 * The permission a route needs: a user without it gets 401 (1010 "rejected by security
 * permissions", then 1011).
 * @param {Principal} p @param {string} perm
 */
function requirePermission(p, perm) {
	if (!p.user.permissions.includes(perm)) {
		fail(
			401,
			E.SECURITY,
			`The request was rejected by security permissions: user ${p.user.username} lacks the permission '${perm}'`,
			{
				extraCodes: [E.NO_PERMISSION],
			},
		);
	}
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
	if (!/^\d{1,9}$/.test(v) || Number(v) < 1)
		fail(400, E.BAD_QUERY, `Query parameter ${name} must be a positive integer, got '${v}'`);
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
	if (type && !isJson)
		fail(415, E.CONTENT_TYPE, `Content-Type must be application/json (got ${type})`);
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
		fail(
			400,
			E.BAD_JSON,
			`The request body is not valid JSON: ${e && /** @type {any} */ (e).message}`,
		);
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
		fail(
			415,
			E.CONTENT_TYPE,
			`Content-Type must be multipart/form-data with a boundary (got ${type || 'none'})`,
		);
	}
	if (ctx.body.length === 0 || !ctx.multipart)
		fail(400, E.NO_BODY, 'The multipart request body is empty');
	if (ctx.multipart.error || !ctx.multipart.parts)
		fail(400, E.MULTIPART, `Malformed multipart body: ${ctx.multipart.error}`);
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
			if (
				typeof v === 'string' &&
				/^\s*-?\d{1,10}\s*$/.test(v) &&
				Math.abs(Number(v)) <= 2147483647
			)
				return Number(v);
			if (typeof v === 'bigint' || (typeof v === 'number' && Number.isInteger(v))) {
				fail(400, E.INVALID_FIELD, `${name} is out of range for a 32-bit integer`);
			}
			return fail(400, E.INVALID_FIELD, `${name} must be an integer`);
		},
		/** @param {string} name @param {number} min @param {number} max @returns {number | undefined} */
		number(name, min, max) {
			const v = get(name);
			if (v === undefined) return undefined;
			const n =
				typeof v === 'number' ? v : typeof v === 'string' && v.trim() !== '' ? Number(v) : NaN;
			if (!Number.isFinite(n) || n < min || n > max)
				fail(400, E.INVALID_FIELD, `${name} must be a number between ${min} and ${max}`);
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
			if (typeof v !== 'string')
				fail(400, E.INVALID_FIELD, `${name} must be an ISO 8601 date-time string`);
			const text = v.trim();
			const ticks = (time || UTC).parseTicks(text);
			if (ticks === null)
				fail(400, E.INVALID_FIELD, `${name} must be an ISO 8601 date-time, got '${v}'`);
			return Number(ticks / 10000n);
		},
	};
}

/**
 * A JSON body checked against a request definition of the reference (`CreateNoteRequest`, ...):
 * a missing required field, a value of the wrong type or a field the definition does not have is
 * refused with 400 and the reference's code 503 (bad data), naming the field. (The service ignores
 * a field it does not know; the emulator refuses it so that a test sees it.)
 * @param {RequestContext} ctx @param {string} definition @param {{ required: boolean }} [o]
 * @returns {Record<string, any>}
 */
function readBody(ctx, definition, o = { required: true }) {
	if (ctx.body.toString('utf8').trim() === '' && o.required) {
		fail(400, E.BAD_DATA, `A JSON ${definition} is required as the request body`);
	}
	const body = readJsonBody(ctx, { required: o.required });
	const problems = check({ $ref: `#/definitions/${definition}` }, body, 'body', {
		mode: 'request',
	});
	if (problems.length) {
		const first = problems[0];
		fail(
			400,
			E.BAD_DATA,
			`${first.message}${problems.length > 1 ? ` (and ${problems.length - 1} more)` : ''}`,
		);
	}
	if (!definitions[definition]) throw new Error(`no definition ${definition}`);
	return body;
}

/** @param {Emulator} emu @param {string} suffix */
function odataContext(emu, suffix) {
	return `${emu.baseUrl}/v3/odata/$metadata#${suffix}`;
}

/**
 * An OData list of records of the reference's `type`; a query the service could not run is a 400
 * with the OData error body.
 * @param {Emulator} emu @param {any[]} items @param {RequestContext} ctx @param {string} context @param {string} type
 * @param {(a: any, b: any) => number} [defaultOrder]
 */
function odataList(emu, items, ctx, context, type, defaultOrder) {
	try {
		return json(
			200,
			applyODataQuery(items, ctx.query, { context, type, defaultOrder, time: emu.time }),
		);
	} catch (e) {
		if (e instanceof ODataError) throw new Reply(odataError(e.message));
		throw e;
	}
}

const byId = (/** @type {any} */ a, /** @type {any} */ b) => compareValues(a.Id, b.Id);

module.exports = {
	PAGE_CAP,
	canSeeWo,
	requirePermission,
	visibleWorkOrders,
	requireWo,
	noteVisible,
	notesOf,
	requireNote,
	queryParam,
	positiveIntQuery,
	readJsonBody,
	readBody,
	requireMultipart,
	fields,
	odataContext,
	odataList,
	byId,
};
