// @ts-check
'use strict';

/**
 * Notes and their attachments (service-reference.md sections 4 and 5): the reference's `Note`,
 * `NotesPage` and `Attachment`, the `CreateNoteRequest` body checked against the reference, the
 * multipart upload with its `AddAttachmentsRequest` descriptor part, and the answers the reference
 * documents without a body (201: "maybe the ID, maybe nothing"), chosen with `emu.setAnswers`.
 */

const { E, json, fail, empty, splitEmails, parse } = require('./http-util');
const {
	requireWo,
	notesOf,
	requireNote,
	queryParam,
	readBody,
	requireMultipart,
	odataContext,
	odataList,
	byId,
} = require('./api-util');
const { publicNote, publicAttachment, storeAttachment, storeNote } = require('./notes');
const { check } = require('../contract/schema');
const { compareValues } = require('./odata');
const events = require('./webhooks');

/**
 * @typedef {import('./api-util').Handler} Handler
 * @typedef {import('./index').Emulator} Emulator
 * @typedef {import('./index').RequestContext} RequestContext
 */

const NOTE_MAX_LENGTH = 8000;

/**
 * GET /workorders/{id}/notes[?paging=page:size]: the reference's NotesPage, newest first; `paging`
 * pages from 1, default 1:10 (at most 50 a page); a bad one is 400 (922).
 * @type {Handler}
 */
function listNotes(emu, ctx, p, params) {
	const wo = requireWo(emu, p, params.woId);
	let page = 1;
	let size = 10;
	const paging = queryParam(ctx, 'paging');
	if (paging !== undefined) {
		const m = /^(\d{1,6}):(\d{1,6})$/.exec(String(paging).trim());
		if (!m || Number(m[1]) < 1 || Number(m[2]) < 1) {
			fail(
				400,
				E.BAD_PAGING,
				`paging must be 'page:size' with positive integers, e.g. paging=1:25 (got '${paging}')`,
			);
		}
		page = Number(m[1]);
		size = Math.min(Number(m[2]), 50);
	}
	const all = notesOf(emu, wo.Id)
		.slice()
		.sort((a, b) => b._at - a._at || compareValues(b.Id, a.Id));
	return json(200, {
		Notes: all.slice((page - 1) * size, page * size).map((n) => publicNote(emu, n)),
		AllNotesCount: all.length,
		UserNotesCount: all.filter((n) => n.NoteType === 'UsersNote').length,
		SystemNotesCount: all.filter((n) => n.NoteType === 'SystemNote').length,
	});
}

/**
 * The fields of a CreateNoteRequest beyond the text, checked as the service does (503 bad data).
 * @param {Emulator} emu @param {any} wo @param {Record<string, any>} body
 */
function noteFields(emu, wo, body) {
	const mailedTo =
		typeof body.MailedTo === 'string' && body.MailedTo.trim() !== ''
			? splitEmails(body.MailedTo)
			: undefined;
	if (mailedTo === null)
		fail(400, E.BAD_DATA, `MailedTo is not a list of e-mail addresses: '${body.MailedTo}'`);
	if (
		body.Visibility !== undefined &&
		body.Visibility !== null &&
		(body.Visibility < 0 || body.Visibility > 3)
	) {
		fail(
			400,
			E.BAD_DATA,
			`Visibility must be 0 (all), 1 (not external subscriber), 2 (not provider) or 3 (subscriber only), got ${body.Visibility}`,
		);
	}
	/** @param {string} name */
	const date = (name) => {
		if (body[name] === undefined || body[name] === null) return null;
		const ticks = emu.time.parseTicks(String(body[name]).trim());
		if (ticks === null)
			fail(400, E.BAD_DATA, `${name} must be an ISO 8601 date-time, got '${body[name]}'`);
		return Number(/** @type {bigint} */ (ticks) / 10000n);
	};
	const scheduled = date('ScheduledDate');
	const followUp = date('FollowUpDate');
	const attachments = (body.AttachmentsIds || []).map((/** @type {any} */ id) => {
		const a = emu.state.attachments.find((x) => x.Id === Number(id) && x.WorkOrderId === wo.Id);
		if (!a)
			fail(400, E.BAD_DATA, `AttachmentsIds: ${id} is not an attachment of work order ${wo.Id}`);
		return a;
	});
	return { mailedTo, scheduled, followUp, attachments };
}

/**
 * The answer to POST notes, as `emu.answers.noteCreated` says: the new ID as a bare int64
 * ('id', default), `{ "Id": n }` ('object'), nothing ('empty'), or nothing with a Location header
 * ('location').
 * @param {Emulator} emu @param {any} wo @param {any} note
 */
function noteCreatedAnswer(emu, wo, note) {
	const location = `${emu.baseUrl}/v3/odata/workorders(${wo.Id})/notes(${note.Id})`;
	switch (emu.answers.noteCreated) {
		case 'object':
			return json(201, { Id: note.Id });
		case 'empty':
			return empty(201);
		case 'location':
			return empty(201, { location });
		default:
			return json(201, note.Id);
	}
}

/**
 * POST /workorders/{id}/notes with a CreateNoteRequest (`Note` required, not empty, at most 8000
 * characters); 201 without a documented body (see noteCreatedAnswer).
 * @type {Handler}
 */
function createNote(emu, ctx, p, params) {
	const wo = requireWo(emu, p, params.woId);
	const body = readBody(ctx, 'CreateNoteRequest');
	const text = String(body.Note);
	if (text.trim() === '') fail(400, E.BAD_DATA, 'Note must not be empty');
	if (text.length > NOTE_MAX_LENGTH)
		fail(400, E.BAD_DATA, `Note must be at most ${NOTE_MAX_LENGTH} characters`);
	const f = noteFields(emu, wo, body);
	const author =
		typeof body.Actor === 'string' && body.Actor.trim() !== ''
			? { ...p.user, fullName: body.Actor.trim() }
			: p.user;
	const note = storeNote(emu, wo, author, text, {
		MailedTo: f.mailedTo ? f.mailedTo.join(';') : null,
		ActionRequired: body.ActionRequired === true,
		ScheduledDate: f.scheduled === null ? null : emu.time.local(f.scheduled),
		FollowUpDate: f.followUp === null ? null : emu.time.local(f.followUp),
		Visibility: body.Visibility ?? 0,
		_notifyFollowers: body.NotifyFollowers === true,
		_doNotSendEmail: body.DoNotSendEmail === true,
		_isFollowUpDateChanged: body.IsFollowUpDateChanged === true,
		_actor: body.Actor ?? null,
	});
	for (const a of f.attachments) {
		a.NoteId = note.Id;
		note.Attachments.push(a);
	}
	if (body.DoNotSendEmail !== true && (f.mailedTo || body.NotifyFollowers === true)) {
		emu.state.notifications.push({
			type: 'note',
			workOrderId: wo.Id,
			noteId: note.Id,
			action: 'note',
			recipients: f.mailedTo || [],
			notifyFollowers: body.NotifyFollowers === true,
			at: emu.time.dto(note._at),
		});
	}
	return noteCreatedAnswer(emu, wo, note);
}

/** @type {Handler} */
function odataNotes(emu, ctx, p, params) {
	const wo = requireWo(emu, p, params.woId);
	const list = notesOf(emu, wo.Id).map((n) => publicNote(emu, n));
	return odataList(emu, list, ctx, odataContext(emu, `WorkOrders(${wo.Id})/Notes`), 'Note', byId);
}

/** GET /odata/workorders({id})/notes({noteId}): `Note[]`, an array even for one note (OData: `{ value: [note] }`). @type {Handler} */
function odataNote(emu, ctx, p, params) {
	const wo = requireWo(emu, p, params.woId);
	const note = requireNote(emu, wo.Id, params.noteId);
	return odataList(
		emu,
		[publicNote(emu, note)],
		ctx,
		odataContext(emu, `WorkOrders(${wo.Id})/Notes`),
		'Note',
		byId,
	);
}

/**
 * The `AddAttachmentsRequest` part of a note upload: a JSON array of AddAttachmentRequest (the
 * reference: a bare array for note files), one per file, in order; absent: none.
 * @param {import('./multipart').Part[]} parts
 * @returns {Record<string, any>[]}
 */
function attachmentDescriptors(parts) {
	const described = parts.filter((part) => part.name === 'AddAttachmentsRequest');
	if (described.length > 1) fail(400, E.BAD_DATA, "Send at most one 'AddAttachmentsRequest' part");
	if (!described.length) return [];
	let value;
	try {
		value = parse(described[0].data.toString('utf8'));
	} catch (e) {
		fail(
			400,
			E.BAD_DATA,
			`AddAttachmentsRequest is not valid JSON: ${/** @type {any} */ (e).message}`,
		);
	}
	const problems = check(
		{ type: 'array', items: { $ref: '#/definitions/AddAttachmentRequest' } },
		value,
		'AddAttachmentsRequest',
		{ mode: 'request' },
	);
	if (problems.length) fail(400, E.BAD_DATA, problems[0].message);
	return value;
}

/**
 * POST /workorders/{id}/notes/{noteId}/attachments, multipart: `file` (required, one or more) and
 * an optional `AddAttachmentsRequest` part describing them; 201 with the new attachment IDs
 * ('ids', default) or nothing ('empty'), as `emu.answers.noteAttachmentsCreated` says.
 * @type {Handler}
 */
function createNoteAttachment(emu, ctx, p, params) {
	const wo = requireWo(emu, p, params.woId);
	const note = requireNote(emu, wo.Id, params.noteId);
	const parts = requireMultipart(ctx);
	const unknown = parts.find(
		(part) => part.name !== 'file' && part.name !== 'AddAttachmentsRequest',
	);
	if (unknown)
		fail(
			400,
			E.BAD_DATA,
			`'${unknown.name}' is not a part of this upload (parts: AddAttachmentsRequest, file)`,
		);
	const descriptors = attachmentDescriptors(parts);
	const files = parts.filter((part) => part.name === 'file');
	if (files.length === 0) fail(400, E.BAD_DATA, "The multipart part 'file' is required");
	for (const file of files)
		if (file.size === 0) fail(400, E.BAD_DATA, `The file '${file.filename || 'file'}' is empty`);
	const records = files.map((file, i) =>
		storeAttachment(emu, {
			wo,
			noteId: note.Id,
			checkListResponseId: null,
			source: 'Note',
			file,
			user: p.user,
			descriptor: descriptors[i],
		}),
	);
	for (const record of records) note.Attachments.push(record);
	for (const record of records) events.attachmentAdded(emu, wo, record, p.user);
	return emu.answers.noteAttachmentsCreated === 'empty'
		? empty(201)
		: json(
				201,
				records.map((r) => r.Id),
			);
}

/** @type {Handler} */
function odataNoteAttachments(emu, ctx, p, params) {
	const wo = requireWo(emu, p, params.woId);
	const note = requireNote(emu, wo.Id, params.noteId);
	const list = emu.state.attachments
		.filter((a) => a.WorkOrderId === wo.Id && a.NoteId === note.Id)
		.map((a) => publicAttachment(emu, a));
	return odataList(
		emu,
		list,
		ctx,
		odataContext(emu, `WorkOrders(${wo.Id})/Notes(${note.Id})/Attachments`),
		'Attachment',
		byId,
	);
}

/** @type {Handler} */
function odataWoAttachments(emu, ctx, p, params) {
	const wo = requireWo(emu, p, params.woId);
	const list = emu.state.attachments
		.filter((a) => a.WorkOrderId === wo.Id)
		.map((a) => publicAttachment(emu, a));
	return odataList(
		emu,
		list,
		ctx,
		odataContext(emu, `WorkOrders(${wo.Id})/Attachments`),
		'Attachment',
		byId,
	);
}

module.exports = {
	listNotes,
	createNote,
	odataNotes,
	odataNote,
	createNoteAttachment,
	odataNoteAttachments,
	odataWoAttachments,
};
