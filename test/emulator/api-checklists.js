// @ts-check
'use strict';

/**
 * Checklists (service-reference.md section 3): the questions of the checklists that match a work
 * order or filters (GET /checklists/detail), a work order's stored answers
 * (GET /workorders/{workOrderId}/checklists-responses) and a change to one answer
 * (PUT /checklists/{checkListResponseId}/CheckListResponse, multipart). Routes in the format of
 * api.js ROUTES, spread in there.
 *
 * Questions are answered with the reference's enum names (QuestionType `CheckBox`, `RadioButton`,
 * `TextEntry`, `TriState`, `NumericInput`; PictureFlag `Optional`, `No`, `Required`) unless
 * `setChecklistEnumForm(emu, 'numbers')` asks for the contract's numbers (conflicts 9 and 10);
 * an option's label is its `Answer` (conflict 11). The emulator's stored questions and answers are
 * read in either shape (fixture `Text`/`Options[].Label` or the reference's `Question`/
 * `CheckListQuestionOptions[].Answer`).
 */

const { fail, json, prop } = require('./http-util');
const events = require('./webhooks');
const S = require('./api-shapes');
const { TRADES, CATEGORIES } = require('./api-workorder-writes');

const { CODE, badData } = S;

const QUESTION_TYPES = ['CheckBox', 'RadioButton', 'TextEntry', 'TriState', 'NumericInput'];
const PICTURE_FLAGS = ['Optional', 'No', 'Required'];
const ACK_WORDS = ['on', 'off', '1', '0', 'true', 'false', 'yes', 'no'];
/** When the fixture checklists were set up (they have no twins: plain service-local dates). */
const CHECKLIST_CREATED = '2026-01-05T09:00:00';

/** @type {WeakMap<object, 'names' | 'numbers'>} */
const enumForms = new WeakMap();

/**
 * How GET /checklists/detail and the responses list write QuestionType and PictureFlag: the
 * reference's names (default) or the contract's numbers.
 * @param {object} emu @param {'names' | 'numbers'} form
 */
function setChecklistEnumForm(emu, form) {
	if (form !== 'names' && form !== 'numbers') throw new Error("form must be 'names' or 'numbers'");
	enumForms.set(emu, form);
}

/** @param {unknown} v @param {string[]} names a number, or the index of a name */
function enumNumber(v, names) {
	if (typeof v === 'number') return v;
	const k = names.findIndex((n) => n.toLowerCase() === String(v).toLowerCase());
	return k === -1 ? -1 : k;
}

/**
 * A stored question in one shape: `type` 0, 1, 2, 4 (3 = TriState, unknown to the contract),
 * `pictureFlag` 0-2, options with their labels.
 * @param {any} q
 */
function questionView(q) {
	const options = /** @type {any[]} */ (q.CheckListQuestionOptions ?? q.Options ?? []);
	return {
		Id: q.Id,
		text: q.Question ?? q.Text,
		type: enumNumber(q.QuestionType, QUESTION_TYPES),
		pictureFlag: enumNumber(q.PictureFlag, PICTURE_FLAGS),
		answerRequired: q.AnswerRequired ?? true,
		options: options.map((o, k) => ({
			Id: o.Id,
			label: o.Answer ?? o.Label,
			followUp: !!o.IsConditionalFollowUp,
			sequence: o.Sequence ?? k + 1,
		})),
	};
}

/** @param {object} emu @param {number} n @param {string[]} names */
const enumOut = (emu, n, names) => (enumForms.get(emu) === 'numbers' ? n : (names[n] ?? null));

/** @param {any} checklist */
const checklistName = (checklist) =>
	checklist.ChecklistName ?? checklist.Name ?? `${checklist.Trade} ${checklist.Category}`;

/** CheckListQuestion. @param {import('./index').Emulator} emu @param {any} q @param {any} checklist */
function questionOut(emu, q, checklist) {
	const v = questionView(q);
	return {
		Id: v.Id,
		CheckListId: checklist.Id,
		Question: v.text,
		ShortDescription: null,
		AnswerRequired: v.answerRequired,
		PictureFlag: enumOut(emu, v.pictureFlag, PICTURE_FLAGS),
		Sequence: null,
		QuestionType: enumOut(emu, v.type, QUESTION_TYPES),
		CheckListQuestionOptions: v.options.map((o) => ({
			Id: o.Id,
			Answer: o.label,
			Sequence: o.sequence,
			IsConditionalFollowUp: o.followUp,
		})),
		AnswerCanPersist: false,
		CheckListTimingType: v.type === 0 ? 'CheckIn' : 'CheckOut',
	};
}

/** CheckList. @param {import('./index').Emulator} emu @param {any} checklist */
function checklistOut(emu, checklist) {
	const created = emu.formatDate(CHECKLIST_CREATED).local;
	return {
		ChecklistName: checklistName(checklist),
		Id: checklist.Id,
		IsActive: true,
		CreatedDate: created,
		UpdatedDate: created,
		CreatedBy: 1,
		UpdatedBy: 1,
		Questions: checklist.QuestionIds.map((/** @type {number} */ id) =>
			questionOut(emu, emu.state.questions[id], checklist),
		),
	};
}

/** The checklist of a work order's subscriber, trade and category. @param {import('./index').Emulator} emu @param {any} wo */
function checklistOf(emu, wo) {
	return emu.state.checklists.find(
		(c) =>
			c.SubscriberId === S.subscriberOf(wo) && c.Trade === wo.Trade && c.Category === wo.Category,
	);
}

/** Whether the location's checklists are on (subscribers with per-location checklists). @param {import('./index').Emulator} emu @param {number} subscriberId @param {any} location */
function locationEnabled(emu, subscriberId, location) {
	const subscriber = emu.state.subscribers[subscriberId];
	return !(
		subscriber &&
		subscriber.ChecklistsPerLocation &&
		location &&
		!location.ChecklistsEnabled
	);
}

/** One value of a filter pair (`tradeid` or `tradeName`); both is a 400 (503). @param {import('./index').RequestContext} ctx @param {string} idName @param {string} textName */
function pair(ctx, idName, textName) {
	const id = S.intQuery(ctx, idName);
	const text = S.query(ctx, textName);
	if (id !== undefined && text !== undefined && text !== '')
		badData(`Give ${idName} or ${textName}, not both`);
	return { id, text: text === '' ? undefined : text };
}

/** @param {{ id?: number, text?: string }} f @param {Array<{ Id: number, Name: string }>} list @param {string} value */
function matches(f, list, value) {
	if (f.id !== undefined) return list.find((x) => x.Id === f.id)?.Name === value;
	if (f.text !== undefined) return f.text.toLowerCase() === String(value).toLowerCase();
	return true;
}

/** The checklists the filters of GET /checklists/detail select. @param {import('./index').Emulator} emu @param {import('./index').RequestContext} ctx @param {import('./api').Principal} p */
function selectChecklists(emu, ctx, p) {
	const [trade, category, checklist, location] = [
		pair(ctx, 'tradeid', 'tradeName'),
		pair(ctx, 'categoryid', 'categoryName'),
		pair(ctx, 'checklistid', 'checkListName'),
		pair(ctx, 'locationId', 'storeId'),
	];
	const subscriberId = S.subscriberFor(ctx, p);
	const own = emu.state.checklists.filter((c) => c.SubscriberId === subscriberId);
	if (checklist.id !== undefined || checklist.text !== undefined) {
		return own.filter((c) =>
			checklist.id !== undefined
				? c.Id === checklist.id
				: checklistName(c).toLowerCase() === String(checklist.text).toLowerCase(),
		);
	}
	const workOrderId = S.intQuery(ctx, 'workOrderId');
	if (workOrderId !== undefined) {
		const wo =
			emu.workOrder(workOrderId) ||
			fail(400, CODE.NOT_FOUND, `Work order ${workOrderId} was not found`);
		if (!S.canSee(p, wo) || S.subscriberOf(wo) !== subscriberId)
			fail(403, CODE.NO_ACCESS, `No access to work order ${workOrderId}`);
		if (!locationEnabled(emu, subscriberId, emu.state.locations[S.locationIdOf(wo)])) return [];
		const of = checklistOf(emu, wo);
		return of ? [of] : [];
	}
	const loc =
		location.id !== undefined || location.text !== undefined
			? Object.values(emu.state.locations).find(
					(l) =>
						l.SubscriberId === subscriberId &&
						(location.id !== undefined
							? l.Id === location.id
							: String(l.StoreId).toLowerCase() === String(location.text).toLowerCase()),
				)
			: undefined;
	if (
		(location.id !== undefined || location.text !== undefined) &&
		(!loc || !locationEnabled(emu, subscriberId, loc))
	)
		return [];
	return own.filter(
		(c) => matches(trade, TRADES, c.Trade) && matches(category, CATEGORIES, c.Category),
	);
}

/** @type {import('./api').Handler} */
function checklistDetail(emu, ctx, p) {
	return json(200, {
		CheckListDetails: selectChecklists(emu, ctx, p).map((c) => checklistOut(emu, c)),
	});
}

// ---- stored answers -----------------------------------------------------------------------------

/** "05/01/2026 09:30 AM" from a plain local date-time. @param {string} local */
function displayText(local) {
	const m = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})/.exec(local);
	if (!m) return local;
	const hour = Number(m[4]);
	return `${m[2]}/${m[3]}/${m[1]} ${String(hour % 12 || 12).padStart(2, '0')}:${m[5]} ${hour < 12 ? 'AM' : 'PM'}`;
}

/** @param {any} entry */
const workOrderIdOf = (entry) => entry.workOrderId ?? entry.response?.EntityId;
/** @param {any} entry */
const picturesOf = (entry) =>
	/** @type {any[]} */ (entry.pictures ?? [entry.picture].filter((x) => x && x.Id));

/** CheckListResponseDetail. @param {import('./index').Emulator} emu @param {any} entry @param {any} wo @param {number} latest */
function responseDetail(emu, entry, wo, latest) {
	const r = entry.response;
	const checklist = checklistOf(emu, wo) ?? { Id: null, Trade: wo.Trade, Category: wo.Category };
	const question = emu.state.questions[r.CheckListQuestionId];
	const option = questionView(question).options.find((o) => o.Id === r.CheckListQuestionOptionId);
	return {
		Pictures: picturesOf(entry).map((x) => ({ ...x })),
		Question: {
			...questionOut(emu, question, checklist),
			CheckListCreatedDate: emu.formatDate(CHECKLIST_CREATED).local,
			CheckListName: checklistName(checklist),
		},
		QuestionOption: option
			? {
					Id: option.Id,
					Answer: option.label,
					Sequence: option.sequence,
					IsConditionalFollowUp: option.followUp,
				}
			: null,
		IsCurrentChecklist: r.Attempt === latest,
		IsFrequencyChecklist: false,
		Id: r.Id,
		Answer: r.Answer,
		FreeTextAnswer: r.FreeTextAnswer,
		EntityId: r.EntityId,
		EntityTypeId: r.EntityTypeId ?? 0,
		Attempt: r.Attempt,
		ProviderId: r.ProviderId,
		TechnicianId: r.TechnicianId,
		UpdatedDate: r.UpdatedDate,
		UpdatedDateStr: r.UpdatedDateStr ?? displayText(r.UpdatedDate),
		UpdatedDateDto: r.UpdatedDateDto,
	};
}

/** @type {import('./api').Handler} */
function workOrderResponses(emu, ctx, p, params) {
	const wo = S.workOrderFor(emu, p, params.woId);
	const all = S.boolQuery(ctx, 'getAll') === true;
	const entries = emu.state.checklistResponses.filter((e) => workOrderIdOf(e) === wo.Id);
	const latest = Math.max(0, ...entries.map((e) => e.response.Attempt));
	const chosen = all ? entries : entries.filter((e) => e.response.Attempt === latest);
	return json(200, { Responses: chosen.map((e) => responseDetail(emu, e, wo, latest)) });
}

// ---- changing an answer -------------------------------------------------------------------------

/** @param {unknown} v */
function answerText(v) {
	if (v === undefined || v === null) return null;
	if (typeof v === 'string') return v.trim() === '' ? null : v;
	if (typeof v === 'number' || typeof v === 'bigint' || typeof v === 'boolean') return String(v);
	return badData('Answer must be a string or a number');
}

/** The stored answer of a Selector question: the option's label (and its comment). @param {ReturnType<typeof questionView>} q @param {Record<string, any>} request @param {string | null} free */
function selectorAnswer(q, request, free) {
	const optionId = prop(request, 'CheckListQuestionOptionID');
	if (optionId === undefined || optionId === null)
		badData(`CheckListQuestionOptionID is required for Selector question ${q.Id}`);
	const option =
		q.options.find((o) => o.Id === optionId) ||
		badData(`Option ${optionId} is not an option of question ${q.Id}`);
	if (option.followUp && free === null)
		badData(`FreeTextAnswer (a comment) is required for option ${option.Id}`);
	if (!option.followUp && free !== null)
		badData(`FreeTextAnswer is not allowed for option ${option.Id}`);
	return { Answer: option.label, CheckListQuestionOptionId: option.Id, FreeTextAnswer: free };
}

/** Answer, option and comment as stored, by the question's type. @param {ReturnType<typeof questionView>} q @param {Record<string, any>} request */
function storedAnswer(q, request) {
	const rawFree = prop(request, 'FreeTextAnswer');
	const free = typeof rawFree === 'string' && rawFree.trim() !== '' ? rawFree : null;
	if (q.type === 1) return selectorAnswer(q, request, free);
	if (free !== null)
		badData(`FreeTextAnswer is only allowed for Selector questions; question ${q.Id} is not one`);
	const a = answerText(prop(request, 'Answer'));
	if (a === null) badData(`Answer is required for question ${q.Id}`);
	if (q.type === 0 && !ACK_WORDS.includes(a.trim().toLowerCase()))
		badData(`Answer for question ${q.Id} must be one of ${ACK_WORDS.join(', ')} (got '${a}')`);
	if (q.type === 2 && a.length > 500)
		badData(`Answer for question ${q.Id} must be at most 500 characters`);
	if (q.type === 4 && !/^\s*[+-]?(\d+(\.\d*)?|\.\d+)([eE][+-]?\d+)?\s*$/.test(a))
		badData(`Answer for question ${q.Id} must be a number (got '${a}')`);
	if (![0, 2, 4].includes(q.type))
		badData(`Question ${q.Id} has a question type the service cannot answer`);
	const text =
		q.type === 0
			? a.trim().toLowerCase()
			: q.type === 2
				? a.toLowerCase()
				: a.trim().replace(/^\+/, '');
	return { Answer: text, CheckListQuestionOptionId: null, FreeTextAnswer: null };
}

/** Checks the request of a change against the stored answer it changes. @param {import('./index').Emulator} emu @param {any} entry @param {any} wo @param {Record<string, any>} request */
function changedAnswer(emu, entry, wo, request) {
	const r = entry.response;
	if (prop(request, 'EntityID') !== r.EntityId)
		badData(`EntityID must be ${r.EntityId}, the work order of checklist response ${r.Id}`);
	if (prop(request, 'CheckListQuestionID') !== r.CheckListQuestionId)
		badData(
			`CheckListQuestionID must be ${r.CheckListQuestionId}, the question of checklist response ${r.Id}`,
		);
	if (prop(request, 'Attempt') < 1) badData('Attempt must be 1 or greater');
	const providerId = prop(request, 'ProviderID');
	if (providerId !== S.providerOf(wo))
		badData(`ProviderID ${providerId} is not the provider of work order ${wo.Id}`);
	const tech = emu.state.technicians[prop(request, 'TechnicianID')];
	if (!tech || tech.ProviderId !== providerId)
		badData(
			`TechnicianID ${prop(request, 'TechnicianID')} is not a technician of provider ${providerId}`,
		);
	return storedAnswer(questionView(emu.state.questions[r.CheckListQuestionId]), request);
}

/** The parts of the PUT: picture ID (text), request (JSON), file. @param {import('./index').RequestContext} ctx */
function updateParts(ctx) {
	const parts = S.multipartParts(ctx);
	const one = (/** @type {string} */ name) => {
		const found = parts.filter((x) => x.name.toLowerCase() === name.toLowerCase());
		if (found.length > 1) badData(`Send at most one '${name}' part`);
		return found[0];
	};
	const idPart = one('CheckListResponsePictureId');
	const requestPart = one('CheckListResponseRequest');
	const file = one('file');
	if (!idPart && !requestPart && !file)
		badData('Nothing to change: send CheckListResponseRequest, a file or both');
	const idText = idPart ? idPart.data.toString('utf8').trim() : '';
	if (idPart && !/^\d{1,10}$/.test(idText))
		badData(`CheckListResponsePictureId must be an integer, got '${idText}'`);
	if (file && file.size === 0) badData('The file is empty');
	return {
		pictureId: idPart ? Number(idText) : undefined,
		request: requestPart ? S.jsonPart(requestPart, S.CHECKLIST_RESPONSE_REQUEST) : undefined,
		file,
	};
}

/** Stores the new file as a picture of the answer (replacing `pictureId`'s). @param {import('./index').Emulator} emu @param {any} entry @param {any} wo @param {any} file @param {number | undefined} pictureId @param {any} user */
function storePicture(emu, entry, wo, file, pictureId, user) {
	const pictures = picturesOf(entry);
	const { storeAttachment } = require('./notes');
	const stored = storeAttachment(emu, {
		wo,
		noteId: null,
		checkListResponseId: entry.Id,
		source: 'CheckListResponse',
		file,
		user,
	});
	const picture = {
		Id: pictureId ?? emu._ids.picture++,
		CheckListResponseId: entry.Id,
		DocumentName: stored.FileName,
		DocumentPath: stored.DocumentPath,
		ThumbnailPath: stored.ThumbnailPath,
		HasThumbnail: stored.HasThumbnail,
		UpdatedBy: user.userId,
	};
	entry.pictures = [...pictures.filter((x) => x.Id !== picture.Id), picture];
	return picture;
}

/** @type {import('./api').Handler} */
function updateResponse(emu, ctx, p, params) {
	const entry =
		emu.state.checklistResponses.find((e) => e.Id === params.responseId) ||
		fail(400, CODE.NOT_FOUND, `Checklist response ${params.responseId} was not found`);
	const wo = S.workOrderFor(emu, p, workOrderIdOf(entry));
	const { pictureId, request, file } = updateParts(ctx);
	if (pictureId !== undefined && !picturesOf(entry).some((x) => x.Id === pictureId))
		badData(`Picture ${pictureId} is not a picture of checklist response ${entry.Id}`);
	const question = questionView(emu.state.questions[entry.response.CheckListQuestionId]);
	if (question.pictureFlag === 2 && !file && picturesOf(entry).length === 0)
		badData(`Question ${question.Id} requires a picture: send a 'file' part`);
	const answer = request ? changedAnswer(emu, entry, wo, request) : {};
	const at = emu.formatDate();
	entry.response = {
		...entry.response,
		...answer,
		...(request
			? {
					ProviderId: prop(request, 'ProviderID'),
					TechnicianId: prop(request, 'TechnicianID'),
					Attempt: prop(request, 'Attempt'),
				}
			: {}),
		UpdatedDate: at.local,
		UpdatedDateStr: displayText(at.local),
		UpdatedDateDto: at.dto,
	};
	if (request) entry.request = request;
	const picture = file
		? storePicture(emu, entry, wo, file, pictureId, p.user)
		: {
				Id: 0,
				CheckListResponseId: 0,
				DocumentName: null,
				DocumentPath: null,
				ThumbnailPath: null,
				HasThumbnail: null,
				UpdatedBy: null,
			};
	events.checklistResponse(emu, true, wo, entry.response, p.user);
	return json(200, { CheckListResponse: entry.response, CheckListResponsePicture: picture });
}

const ROUTES = [
	['GET', 'checklists/detail', checklistDetail, 'workorders.read'],
	['PUT', 'checklists/{responseId}/CheckListResponse', updateResponse, 'checklists.respond'],
	['GET', 'workorders/{woId}/checklists-responses', workOrderResponses, 'workorders.read'],
];

module.exports = { ROUTES, setChecklistEnumForm, questionView };
