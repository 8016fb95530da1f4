// @ts-check
'use strict';

/**
 * The main API under {base_url}/v3 (base_url = origin + '/api').
 */

const { Reply, E, json, apiError, fail, parse } = require('./http-util');
const { requireWo, requireMultipart, fields, requirePermission } = require('./api-util');
const { storeAttachment, storeNote } = require('./notes');
const events = require('./webhooks');
const { WEBHOOK_ROUTES } = require('./webhook-api');
const W = require('./api-workorders');
const N = require('./api-notes');
const C = require('./api-checkins');
const { PROPOSAL_ROUTES } = require('./api-proposals');
const { PROPOSAL_MOVE_ROUTES } = require('./api-proposal-moves');
const { FILE_ROUTES } = require('./api-files');
const { INVOICE_ROUTES } = require('./api-invoices');
const { PLACE_ROUTES } = require('./api-places');

/**
 * @typedef {import('./index').Emulator} Emulator
 * @typedef {import('./index').RequestContext} RequestContext
 * @typedef {import('./api-util').Principal} Principal
 * @typedef {import('./api-util').Handler} Handler
 */

const MAX_INT64 = 9223372036854775807n;

/**
 * `UpdatedDateStr`: the date as the service displays it, in the location's zone
 * ("03/29/2026 01:30 AM").
 * @param {import('./service-time').ServiceTime} zone @param {number} ms
 */
function displayDate(zone, ms) {
	const m = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})/.exec(zone.local(ms));
	if (!m) return zone.local(ms);
	const h = Number(m[4]);
	return `${m[2]}/${m[3]}/${m[1]} ${String(h % 12 === 0 ? 12 : h % 12).padStart(2, '0')}:${m[5]} ${h < 12 ? 'AM' : 'PM'}`;
}

/**
 * @param {Emulator} emu @param {any} wo @param {any} user @param {string} text @param {Record<string, any>} [extra]
 */
function addNote(emu, wo, user, text, extra = {}) {
	return storeNote(emu, wo, user, text, extra);
}

// ---- handlers: checklist responses -------------------------------------------------------------

const ACK_WORDS = ['on', 'off', '1', '0', 'true', 'false', 'yes', 'no'];
const NUMERIC_RE = /^[+-]?(\d+(\.\d*)?|\.\d+)([eE][+-]?\d+)?$/;

/** @type {Handler} */
function postChecklistResponse(emu, ctx, p) {
	const parts = requireMultipart(ctx);
	const requestParts = parts.filter(
		(part) => part.name.toLowerCase() === 'checklistresponserequest',
	);
	if (requestParts.length === 0)
		fail(
			400,
			E.MULTIPART,
			"The multipart part 'CheckListResponseRequest' (a JSON object) is required",
		);
	if (requestParts.length > 1)
		fail(
			400,
			E.MULTIPART,
			"Send exactly one 'CheckListResponseRequest' part: one request answers one question",
		);
	const fileParts = parts.filter((part) => part.name.toLowerCase() === 'file');
	if (fileParts.length > 1) fail(400, E.MULTIPART, "Send at most one 'file' part");
	const file = fileParts[0] || null;
	let body;
	try {
		body = parse(requestParts[0].data.toString('utf8'));
	} catch (e) {
		fail(
			400,
			E.BAD_JSON,
			`CheckListResponseRequest is not valid JSON: ${e && /** @type {any} */ (e).message}`,
		);
	}
	if (body === null || typeof body !== 'object' || Array.isArray(body))
		fail(400, E.INVALID_FIELD, 'CheckListResponseRequest must be a JSON object');

	const f = fields(body);
	const questionId = /** @type {number} */ (f.int('CheckListQuestionID', true));
	const providerId = /** @type {number} */ (f.int('ProviderID', true));
	const technicianId = /** @type {number} */ (f.int('TechnicianID', true));
	const entityId = /** @type {number} */ (f.int('EntityID', true));
	const attempt = /** @type {number} */ (f.int('Attempt', true));
	if (attempt < 1) {
		fail(
			400,
			E.ATTEMPT_INVALID,
			`Attempt must be 1 or greater: it is the ordinal of the technician's on-site visit (got ${attempt})`,
		);
	}
	// CheckListQuestionOptionID; the sample spelling CheckListQuestionOptionId is the same name case-insensitively
	const optionId = f.int('CheckListQuestionOptionID');

	const wo = requireWo(emu, p, entityId);
	const checklist = emu.state.checklists.find(
		(c) => c.SubscriberId === wo.SubscriberId && c.Trade === wo.Trade && c.Category === wo.Category,
	);
	if (!checklist) {
		fail(
			400,
			E.NO_CHECKLIST,
			`No checklist is configured for trade '${wo.Trade}' and category '${wo.Category}' of work order ${wo.Id}`,
		);
	}
	if (!checklist.QuestionIds.includes(questionId)) {
		fail(
			400,
			E.QUESTION_NOT_IN_CHECKLIST,
			`Question ${questionId} is not part of the checklist for trade '${wo.Trade}' and category '${wo.Category}' of work order ${wo.Id}`,
		);
	}
	const subscriber = emu.state.subscribers[wo.SubscriberId];
	const location = emu.state.locations[wo.LocationId];
	if (subscriber.ChecklistsPerLocation && !location.ChecklistsEnabled) {
		fail(
			400,
			E.LOCATION_DISABLED,
			`Checklists are not enabled for location ${location.Id} (${location.Name}) of work order ${wo.Id}`,
		);
	}
	if (providerId !== wo.ProviderId) {
		fail(
			400,
			E.PROVIDER_MISMATCH,
			`ProviderID ${providerId} is not the provider assigned to work order ${wo.Id}`,
		);
	}
	const tech = emu.state.technicians[technicianId];
	if (!tech || tech.ProviderId !== providerId) {
		fail(
			400,
			E.PROVIDER_MISMATCH,
			`TechnicianID ${technicianId} is not a technician of provider ${providerId}`,
		);
	}

	const question = emu.state.questions[questionId];
	const rawAnswer = f.get('Answer');
	const rawFree = f.get('FreeTextAnswer');
	if (rawFree !== undefined && typeof rawFree !== 'string')
		fail(400, E.INVALID_FIELD, 'FreeTextAnswer must be a string');
	const freeText = rawFree === undefined || rawFree.trim() === '' ? null : rawFree;
	if (freeText !== null && freeText.length > 500)
		fail(400, E.TEXT_TOO_LONG, 'FreeTextAnswer must be at most 500 characters');
	const answerText = () => {
		if (rawAnswer === undefined) return null;
		if (typeof rawAnswer === 'string') return rawAnswer.trim() === '' ? null : rawAnswer;
		if (
			typeof rawAnswer === 'number' ||
			typeof rawAnswer === 'bigint' ||
			typeof rawAnswer === 'boolean'
		)
			return String(rawAnswer);
		return fail(400, E.INVALID_FIELD, 'Answer must be a string');
	};
	const typeName = ['Acknowledgement', 'Selector', 'Text Entry', '', 'Numeric Input'][
		question.QuestionType
	];
	if (question.QuestionType !== 1 && freeText !== null) {
		fail(
			400,
			E.FREE_TEXT_NOT_ALLOWED,
			`FreeTextAnswer is only allowed for Selector questions; question ${questionId} is ${typeName}`,
		);
	}

	/** @type {string} */
	let answer;
	/** @type {number | null} */
	let returnedOption = null;
	/** @type {string | null} */
	let returnedFree = null;
	switch (question.QuestionType) {
		case 0: {
			const a = answerText();
			if (a === null)
				fail(
					400,
					E.ANSWER_REQUIRED,
					`Answer is required for Acknowledgement question ${questionId}`,
				);
			const word = a.trim().toLowerCase();
			if (!ACK_WORDS.includes(word)) {
				fail(
					400,
					E.ACK_INVALID,
					`Answer for Acknowledgement question ${questionId} must be one of ${ACK_WORDS.join(', ')} (got '${a}')`,
				);
			}
			answer = word;
			break;
		}
		case 1: {
			if (optionId === undefined)
				fail(
					400,
					E.OPTION_REQUIRED,
					`CheckListQuestionOptionID is required for Selector question ${questionId}`,
				);
			const option = question.Options.find((/** @type {any} */ o) => o.Id === optionId);
			if (!option)
				fail(
					400,
					E.OPTION_INVALID,
					`Option ${optionId} is not an option of question ${questionId}`,
				);
			if (option.IsConditionalFollowUp && freeText === null) {
				fail(
					400,
					E.FREE_TEXT_REQUIRED,
					`FreeTextAnswer is required for option ${option.Id} ('${option.Label}'), which has IsConditionalFollowUp = true`,
				);
			}
			if (!option.IsConditionalFollowUp && freeText !== null) {
				fail(
					400,
					E.FREE_TEXT_NOT_ALLOWED,
					`FreeTextAnswer is not allowed for option ${option.Id} ('${option.Label}'), which has IsConditionalFollowUp = false`,
				);
			}
			answer = option.Label;
			returnedOption = option.Id;
			returnedFree = freeText;
			break;
		}
		case 2: {
			const a = answerText();
			if (a === null)
				fail(400, E.ANSWER_REQUIRED, `Answer is required for Text Entry question ${questionId}`);
			if (a.length > 500)
				fail(
					400,
					E.TEXT_TOO_LONG,
					`Answer for Text Entry question ${questionId} must be at most 500 characters (got ${a.length})`,
				);
			answer = a.toLowerCase();
			break;
		}
		case 4: {
			const a = answerText();
			if (a === null)
				fail(400, E.ANSWER_REQUIRED, `Answer is required for Numeric Input question ${questionId}`);
			if (typeof rawAnswer === 'boolean' || !NUMERIC_RE.test(a.trim())) {
				fail(
					400,
					E.NUMERIC_INVALID,
					`Answer for Numeric Input question ${questionId} must be a number (got '${a}')`,
				);
			}
			answer = a.trim().replace(/^\+/, '');
			break;
		}
		default:
			return fail(400, E.INVALID_FIELD, `Question ${questionId} has an unsupported QuestionType`);
	}

	if (question.PictureFlag === 2 && (!file || file.size === 0)) {
		fail(
			400,
			E.FILE_REQUIRED,
			`Question ${questionId} requires a picture (PictureFlag 2): send a non-empty 'file' part`,
		);
	}

	const now = emu.now();
	const id = emu._ids.checklistResponse++;
	const response = {
		CheckListQuestionId: questionId,
		CheckListQuestionOptionId: returnedOption,
		ProviderId: providerId,
		TechnicianId: technicianId,
		Id: id,
		Answer: answer,
		FreeTextAnswer: returnedFree,
		EntityId: entityId,
		EntityTypeId: 0,
		Attempt: attempt,
		UpdatedDate: emu.time.local(now),
		UpdatedDateStr: displayDate(emu.clock.twin(wo.LocationId), now),
		UpdatedDateDto: emu.clock.twin(wo.LocationId).dto(now),
	};
	let picture = {
		Id: 0,
		CheckListResponseId: 0,
		DocumentName: /** @type {string | null} */ (null),
		DocumentPath: /** @type {string | null} */ (null),
		ThumbnailPath: /** @type {string | null} */ (null),
		HasThumbnail: /** @type {boolean | null} */ (null),
		UpdatedBy: null,
	};
	/** @type {any} */
	let stored = null;
	if (file && file.size > 0) {
		stored = storeAttachment(emu, {
			wo,
			noteId: null,
			checkListResponseId: id,
			source: 'CheckListResponse',
			file,
			user: p.user,
		});
		picture = {
			Id: emu._ids.picture++,
			CheckListResponseId: id,
			DocumentName: stored.FileName,
			DocumentPath: stored.DocumentPath,
			ThumbnailPath: stored.ThumbnailPath,
			HasThumbnail: stored.HasThumbnail,
			UpdatedBy: p.user.userId,
		};
	}
	const answeredBefore = emu.state.checklistResponses.some(
		(r) => r.workOrderId === wo.Id && r.questionId === questionId && r.response.Attempt === attempt,
	);
	emu.state.checklistResponses.push({
		Id: id,
		workOrderId: wo.Id,
		questionId,
		questionType: question.QuestionType,
		request: body,
		response,
		picture,
		file: stored
			? {
					filename: stored.FileName,
					contentType: stored.ContentType,
					size: stored.Size,
					sha256: stored.sha256,
					data: stored.data,
				}
			: null,
		username: p.user.username,
		clientId: p.clientId,
	});
	events.checklistResponse(emu, answeredBefore, wo, response, p.user);
	return json(201, { CheckListResponse: response, CheckListResponsePicture: picture });
}

// ---- handlers: proposal reads ------------------------------------------------------------------

/** @type {Handler} */
function rejectionReasons(emu) {
	return json(200, emu.state.rejectionReasons);
}

/** @type {Handler} */
function subsidiaries(emu, ctx, p) {
	const list = (p.user.children || []).map((/** @type {number} */ id) => {
		const s = emu.state.subscribers[id];
		return { Id: s.Id, Name: s.Name, ParentId: s.ParentId, IsActive: true };
	});
	return json(200, list);
}

// ---- routing ---------------------------------------------------------------------------------

/**
 * @typedef {{ kind: 'literal', value: string } | { kind: 'param', name: string } | { kind: 'call', prefix: string, name: string }} SegMatcher
 * @typedef {{ method: string, pattern: string, segs: SegMatcher[], handler: Handler, perm: string | null }} Route
 */

/** @param {string} pattern @returns {SegMatcher[]} */
function compile(pattern) {
	return pattern.split('/').map((seg) => {
		let m;
		if ((m = /^\{(\w+)\}$/.exec(seg))) return { kind: /** @type {const} */ ('param'), name: m[1] };
		if ((m = /^([\w.]+)\(\{(\w+)\}\)$/.exec(seg)))
			return { kind: /** @type {const} */ ('call'), prefix: m[1].toLowerCase(), name: m[2] };
		return { kind: /** @type {const} */ ('literal'), value: seg.toLowerCase() };
	});
}

/** @type {Route[]} */
const ROUTES = /** @type {Array<[string, string, Handler, string | null]>} */ ([
	...require('./api-workorder-writes').ROUTES,
	...require('./api-checklists').ROUTES,
	['GET', 'workorders', W.listWorkOrders, 'workorders.read'],
	['GET', 'workorders/{woId}', W.getWorkOrder, 'workorders.read'],
	['GET', 'workorders/{woId}/notes', N.listNotes, 'workorders.read'],
	['POST', 'workorders/{woId}/notes', N.createNote, 'notes.write'],
	['POST', 'workorders/{woId}/notes/{noteId}/attachments', N.createNoteAttachment, 'notes.write'],
	['POST', 'workorders/{woId}/universalCheckIn', C.checkIn, 'checkin'],
	['POST', 'workorders/{woId}/universalCheckOut', C.checkOut, 'checkin'],
	['GET', 'odata/workorders', W.odataWorkOrders, 'workorders.read'],
	['GET', 'odata/workorders/Service.NearBy({args})', W.odataNearBy, 'workorders.read'],
	['GET', 'odata/workorders({woId})', W.odataWorkOrder, 'workorders.read'],
	['GET', 'odata/workorders({woId})/notes', N.odataNotes, 'workorders.read'],
	['GET', 'odata/workorders({woId})/notes({noteId})', N.odataNote, 'workorders.read'],
	[
		'GET',
		'odata/workorders({woId})/notes({noteId})/attachments',
		N.odataNoteAttachments,
		'workorders.read',
	],
	['GET', 'odata/workorders({woId})/attachments', N.odataWoAttachments, 'workorders.read'],
	['GET', 'odata/workorders({woId})/Service.CheckInActivity()', C.odataCheckIns, 'workorders.read'],
	['GET', 'odata/locations({locationId})/workorders', W.odataLocationWorkOrders, 'workorders.read'],
	[
		'GET',
		'odata/locations({locationId})/workorders/Service.GetDuplicates()',
		W.odataDuplicates,
		'workorders.read',
	],
	[
		'GET',
		'odata/locations({locationId})/workorders/Service.GetRecalls()',
		W.odataRecalls,
		'workorders.read',
	],
	['POST', 'checklists/CheckListResponse', postChecklistResponse, 'checklists.respond'],
	['GET', 'proposals/RejectionReasons', rejectionReasons, null],
	...PROPOSAL_MOVE_ROUTES,
	['GET', 'subscribers/current/subsidiaries', subsidiaries, 'subsidiaries.read'],
	...WEBHOOK_ROUTES,
	...PROPOSAL_ROUTES,
	...FILE_ROUTES,
	...INVOICE_ROUTES,
	...PLACE_ROUTES,
]).map(([method, pattern, handler, perm]) => ({
	method,
	pattern,
	segs: compile(pattern),
	handler,
	perm,
}));

/**
 * @param {SegMatcher[]} segs @param {string[]} path
 * @returns {Record<string, string> | null}
 */
function match(segs, path) {
	if (segs.length !== path.length) return null;
	/** @type {Record<string, string>} */
	const params = {};
	for (let i = 0; i < segs.length; i++) {
		const s = segs[i];
		const v = path[i];
		if (s.kind === 'literal') {
			if (v.toLowerCase() !== s.value) return null;
		} else if (s.kind === 'param') {
			if (v === '') return null;
			params[s.name] = v;
		} else {
			const lower = v.toLowerCase();
			if (!lower.startsWith(`${s.prefix}(`) || !v.endsWith(')')) return null;
			params[s.name] = v.slice(s.prefix.length + 1, -1);
		}
	}
	return params;
}

/** @param {string} name @param {string} raw */
function parseParam(name, raw) {
	if (name === 'args') return raw;
	const text = raw.trim();
	if (name === 'noteId') {
		if (!/^\d{1,19}$/.test(text))
			fail(400, E.BAD_PATH, `noteId must be a non-negative 64-bit integer, got '${raw}'`);
		const v = BigInt(text);
		if (v > MAX_INT64) fail(400, E.BAD_PATH, `noteId ${raw} is out of the int64 range`);
		return v;
	}
	if (!/^\d{1,10}$/.test(text) || Number(text) > 2147483647) {
		fail(400, E.BAD_PATH, `${name} must be a positive 32-bit integer, got '${raw}'`);
	}
	return Number(text);
}

/**
 * @param {Emulator} emu @param {RequestContext} ctx @param {any} rec token record or undefined
 * @returns {Principal}
 */
function authenticate(emu, ctx, rec) {
	const header = ctx.headers.authorization;
	/** @param {number} code @param {string} msg @returns {never} */
	const deny = (code, msg) =>
		fail(401, E.SECURITY, msg, {
			extraCodes: [code],
			headers: { 'www-authenticate': 'Bearer realm="work-order-service", error="invalid_token"' },
		});
	if (!header)
		deny(
			E.NO_TOKEN,
			'Authorization has been denied for this request: Authorization: Bearer <ACCESS_TOKEN> is required',
		);
	if (!/^Bearer\s+\S+$/i.test(header))
		deny(
			E.NO_TOKEN,
			'Authorization has been denied for this request: the Authorization header must be "Bearer <ACCESS_TOKEN>"',
		);
	if (!rec)
		deny(
			E.BAD_TOKEN,
			'Authorization has been denied for this request: the access token is invalid',
		);
	if (rec.revoked)
		deny(
			E.REVOKED_TOKEN,
			'Authorization has been denied for this request: the access token has been revoked',
		);
	if (emu.now() >= rec.expiresAt)
		deny(
			E.EXPIRED_TOKEN,
			'Authorization has been denied for this request: the access token has expired',
		);
	const user = emu.state.users[rec.username];
	return {
		user,
		clientId: rec.clientId,
		tokenKind: rec.kind,
		subscriberId: rec.subscriberId,
		providerId: user.kind === 'contractor' ? user.providerId : null,
		scope: rec.scope,
	};
}

/**
 * @param {Emulator} emu @param {RequestContext} ctx @param {string[]} rest segments after "api"
 */
function handleApi(emu, ctx, rest) {
	if (rest.length === 0 || rest[0].toLowerCase() !== 'v3') {
		return apiError(
			404,
			E.NO_ROUTE,
			`No resource matches ${ctx.method} ${ctx.path} (the API lives under /v3)`,
		);
	}
	const segs = rest.slice(1);
	const header = ctx.headers.authorization || '';
	const bearer = /^Bearer\s+(\S+)$/i.exec(header);
	const rec = bearer ? emu._tokens.get(bearer[1]) : undefined;
	if (rec) {
		ctx.log.clientId = rec.clientId;
		ctx.log.username = rec.username;
		ctx.log.tokenKind = rec.kind;
		const throttled = emu._rateLimit(rec.clientId);
		if (throttled) {
			ctx.log.throttled = true;
			return throttled;
		}
	}
	/** @type {Route | null} */
	let route = null;
	/** @type {Record<string, string>} */
	let rawParams = {};
	const allowed = new Set();
	for (const r of ROUTES) {
		const m = match(r.segs, segs);
		if (!m) continue;
		if (r.method === ctx.method) {
			route = r;
			rawParams = m;
			break;
		}
		allowed.add(r.method);
	}
	if (!route) {
		if (allowed.size) {
			return apiError(
				405,
				E.METHOD_NOT_ALLOWED,
				`Method ${ctx.method} is not allowed on ${ctx.path}`,
				{
					headers: { allow: [...allowed].join(', ') },
				},
			);
		}
		return apiError(404, E.NO_ROUTE, `No resource matches ${ctx.method} ${ctx.path}`);
	}
	const principal = authenticate(emu, ctx, rec);
	if (route.perm) requirePermission(principal, route.perm);
	/** @type {Record<string, any>} */
	const params = {};
	for (const [k, v] of Object.entries(rawParams)) params[k] = parseParam(k, v);
	return route.handler(emu, ctx, principal, params);
}

module.exports = { handleApi, ROUTES, addNote, Reply };
