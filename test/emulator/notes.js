// @ts-check
'use strict';

/**
 * Notes and attachments: how the emulator stores them and the reference's objects it answers with
 * (`Note`, `Attachment`). Used by the API handlers (api.js), the emulator's methods (addNote) and
 * the events (webhooks.js).
 */

const crypto = require('node:crypto');
const { noteRecord } = require('./http-util');
const { make } = require('./objects');
const { refreshNotesSummary, refreshAttachmentsSummary } = require('./wo-record');
const events = require('./webhooks');

/** @typedef {import('./index').Emulator} Emulator */

/**
 * Where an attachment can be downloaded from (`Attachment.Uri`). The reference gives no path for
 * it; the emulator serves the file's bytes there (api-files.js, when present, may answer it).
 * @param {Emulator} emu @param {any} a the stored attachment
 */
function attachmentUri(emu, a) {
	return `${emu.baseUrl}/v3/files/attachments/${a.Id}/${encodeURIComponent(a.FileName || 'file')}`;
}

/**
 * The reference's `Attachment`: Id, Description, Name, TimeStamp (service local time, no twin),
 * Uri, NoteId (null for work order files), Visibility.
 * @param {Emulator} emu @param {any} a the stored attachment
 */
function publicAttachment(emu, a) {
	return make('Attachment', {
		Id: a.Id,
		Description: a.Description ?? null,
		Name: a.FileName,
		TimeStamp: a.TimeStamp,
		Uri: attachmentUri(emu, a),
		NoteId: a.NoteId ?? null,
		Visibility: a.Visibility ?? null,
	});
}

/** The reference's `Note` of a stored note (its `_` fields left out). @param {Emulator} emu @param {any} n */
function publicNote(emu, n) {
	/** @type {Record<string, any>} */
	const out = {};
	for (const k of Object.keys(n)) {
		if (k.startsWith('_')) continue;
		out[k] =
			k === 'Attachments'
				? n.Attachments.map((/** @type {any} */ a) => publicAttachment(emu, a))
				: n[k];
	}
	return out;
}

/** @param {{ filename: string | null, contentType: string | null }} f */
function isImage(f) {
	return (
		/^image\//i.test(f.contentType || '') ||
		/\.(jpe?g|png|gif|bmp|webp|heic|tiff?)$/i.test(f.filename || '')
	);
}

/**
 * Stores an uploaded file.
 * @param {Emulator} emu
 * @param {{ wo: any, noteId: bigint | null, checkListResponseId: number | null, source: string, file: import('./multipart').Part, user: any,
 *   descriptor?: Record<string, any> }} o  `descriptor`: the file's AddAttachmentRequest (Name, Description, Visibility, ...)
 */
function storeAttachment(emu, o) {
	const now = emu.now();
	const uuid = crypto.randomUUID();
	const image = isImage(o.file);
	const keep = emu.options.logBodies;
	const d = o.descriptor || {};
	const rec = {
		Id: emu._ids.attachment++,
		WorkOrderId: o.wo.Id,
		NoteId: o.noteId,
		CheckListResponseId: o.checkListResponseId,
		Source: o.source,
		FileName:
			(typeof d.Name === 'string' && d.Name.trim() !== '' ? d.Name : o.file.filename) || 'file',
		Description: typeof d.Description === 'string' ? d.Description : null,
		Visibility: typeof d.Visibility === 'number' ? d.Visibility : null,
		IsInvoiceDigitalCopy: d.IsInvoiceDigitalCopy === true,
		ContentType:
			(typeof d.MediaType === 'string' && d.MediaType) ||
			o.file.contentType ||
			'application/octet-stream',
		Size: o.file.size,
		DocumentPath: `#workorders/${uuid}`,
		ThumbnailPath: image ? `#workorders/${uuid}-thumb` : null,
		HasThumbnail: image,
		UploadedBy: o.user.fullName,
		TimeStamp: emu.time.local(now),
		_at: now,
		sha256: keep ? crypto.createHash('sha256').update(o.file.data).digest('hex') : null,
		data: keep ? o.file.data : undefined,
	};
	emu.state.attachments.push(rec);
	refreshAttachmentsSummary(
		o.wo,
		emu.state.attachments.filter((a) => a.WorkOrderId === o.wo.Id).length,
	);
	return rec;
}

/**
 * Stores a note written by `user` now, keeps the work order's `Notes` summary, raises
 * WorkOrderNoteAdded.
 * @param {Emulator} emu @param {any} wo @param {any} user @param {string} text @param {Record<string, any>} [extra] Note fields and `_` fields
 */
function storeNote(emu, wo, user, text, extra = {}) {
	const now = emu.now();
	const list = (emu.state.notes[wo.Id] = emu.state.notes[wo.Id] || []);
	const company =
		user.kind === 'contractor'
			? emu.state.providers[user.providerId]?.Name
			: emu.state.subscribers[user.subscriberId]?.Name;
	const note = noteRecord({
		id: emu._ids.note++,
		number: list.length + 1,
		workOrderId: wo.Id,
		text,
		at: now,
		createdBy: user.fullName,
		companyName: company ?? null,
		extra,
		createdAt: now,
		time: emu.time,
		system: user.username === 'emulator',
	});
	list.push(note);
	refreshNotesSummary(wo, list);
	events.noteAdded(emu, wo, note, user);
	return note;
}

module.exports = {
	attachmentUri,
	publicAttachment,
	publicNote,
	storeAttachment,
	storeNote,
	isImage,
};
