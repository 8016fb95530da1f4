// @ts-check
'use strict';

/**
 * Check-in and check-out (service-reference.md section 6): `CheckInRequest` / `CheckOutRequest`
 * checked against the reference and its rules, `CheckInOutResponse { MechanicId }`, and the
 * activity list (`CheckInActivity`, OData).
 *
 * Rules (each refusal 400 with the reference's code): WorkTypeId 1 = repair (default), 2 = travel,
 * others custom; the position (Latitude and Longitude) is needed for a repair check-in, and for a
 * repair or travel check-out unless ActionStatus is Cancel (503); never both SignatureAttachmentId
 * and UnableObtainSignatureNoteId (503); Resolution, PrimaryStatus and ExtendedStatus on a repair
 * check-out only, Resolution not on Cancel (503); ExtendedStatus needs a PrimaryStatus that
 * changes the status (904); CheckInTime / CheckOutTime in UTC or with an offset, within 24 hours
 * of now (503), a check-out not before its check-in (503); a check-out needs an open check-in of
 * the same user (503); a completed work order takes no check-in (921), an invoiced one neither
 * (924); the signature attachment and note must belong to the work order (503).
 */

const { E, json, fail } = require('./http-util');
const { requireWo, readBody, odataContext, odataList, byId } = require('./api-util');
const { applyWorkOrderChanges } = require('./workorders');
const { make, userInfo } = require('./objects');
const { publicAttachment } = require('./notes');
const events = require('./webhooks');

/**
 * @typedef {import('./api-util').Handler} Handler
 * @typedef {import('./index').Emulator} Emulator
 */

const DAY = 24 * 3600 * 1000;
const REPAIR = 1;
const TRAVEL = 2;

/** PrimaryStatus of a check-out → the work order's status (null: unchanged). */
const CHECK_OUT_STATUS = {
	NoStatusChange: null,
	InProgress: { Primary: 'IN PROGRESS', Extended: 'INCOMPLETE' },
	Completed: { Primary: 'COMPLETED', Extended: 'PENDING CONFIRMATION' },
	WaitingForQuote: { Primary: 'IN PROGRESS', Extended: 'WAITING FOR QUOTE' },
	PartsOnOrder: { Primary: 'IN PROGRESS', Extended: 'PARTS ON ORDER' },
	Incomplete: { Primary: 'IN PROGRESS', Extended: 'INCOMPLETE' },
};
const PRIMARY_BY_NUMBER = Object.keys(CHECK_OUT_STATUS);

/** @param {number} workType */
function workTypeName(workType) {
	return workType === REPAIR ? 'Repair' : workType === TRAVEL ? 'Travel' : `Custom ${workType}`;
}

/**
 * The time a technician gives (CheckInTime / CheckOutTime): UTC or with an offset, near now.
 * @param {Emulator} emu @param {string} name @param {any} value @returns {number} ms
 */
function activityTime(emu, name, value) {
	const now = emu.now();
	if (value === undefined || value === null) return now;
	const text = String(value).trim();
	if (!/(Z|[+-]\d{2}:?\d{2})$/i.test(text))
		fail(400, E.BAD_DATA, `${name} must be in UTC or carry an offset (got '${text}')`);
	const ticks = emu.time.parseTicks(text);
	if (ticks === null)
		fail(400, E.BAD_DATA, `${name} must be an ISO 8601 date-time (got '${text}')`);
	const ms = Number(/** @type {bigint} */ (ticks) / 10000n);
	if (Math.abs(ms - now) > DAY)
		fail(400, E.BAD_DATA, `${name} ${text} is too far from now: give a time within 24 hours`);
	return ms;
}

/** The user a check-in is for: UserId (a known user) or the caller. @param {Emulator} emu @param {any} body @param {any} caller */
function activityUser(emu, body, caller) {
	if (body.UserId === undefined || body.UserId === null) return caller;
	const user = Object.values(emu.state.users).find((u) => u.userId === Number(body.UserId));
	if (!user) fail(400, E.BAD_DATA, `UserId ${body.UserId} is not a user of this service`);
	return user;
}

/** @param {any} body @param {boolean} needed @param {string} why */
function position(body, needed, why) {
	const has =
		body.Latitude !== undefined &&
		body.Latitude !== null &&
		body.Longitude !== undefined &&
		body.Longitude !== null;
	if (!has) {
		if (needed) fail(400, E.BAD_DATA, `Latitude and Longitude are required ${why}`);
		return null;
	}
	if (Math.abs(body.Latitude) > 90 || Math.abs(body.Longitude) > 180)
		fail(400, E.BAD_DATA, 'Latitude must be within -90..90 and Longitude within -180..180');
	return { latitude: Number(body.Latitude), longitude: Number(body.Longitude) };
}

/** The common part of both: work type, user, technicians, the work order's state. @param {Emulator} emu @param {any} wo @param {any} body @param {any} caller */
function common(emu, wo, body, caller) {
	const workType = body.WorkTypeId ?? REPAIR;
	if (workType < 1)
		fail(
			400,
			E.BAD_DATA,
			`WorkTypeId must be 1 (repair), 2 (travel) or a custom work type, got ${workType}`,
		);
	if (body.TechsCount !== undefined && body.TechsCount !== null && body.TechsCount < 1)
		fail(400, E.BAD_DATA, 'TechsCount must be 1 or more');
	if (wo.IsInvoiced) fail(400, E.WO_INVOICED_CHECK, `Work order ${wo.Id} is invoiced`);
	return { workType, user: activityUser(emu, body, caller), techs: body.TechsCount ?? 1 };
}

/** The open check-in of `user` on the work order (none checked out after it). @param {Emulator} emu @param {any} wo @param {any} user */
function openCheckIn(emu, wo, user) {
	const mine = emu.state.checkIns.filter(
		(c) => c.WorkOrderId === wo.Id && c.UserId === user.userId,
	);
	const lastIn = mine.filter((c) => c.Kind === 'CheckIn').pop();
	if (!lastIn) return null;
	return mine.some(
		(c) => c.Kind === 'CheckOut' && c.CheckInId === lastIn.Id && c.ActionStatus !== 'Cancel',
	)
		? null
		: lastIn;
}

/**
 * Stores the activity, changes the work order (its status when `status`, else its UpdatedDate),
 * raises the event, answers `{ MechanicId }`.
 * @param {Emulator} emu @param {any} wo @param {any} rec @param {{ Primary: string, Extended: string | null } | null} status @param {any} caller @param {Record<string, any>} [changes]
 */
function record(emu, wo, rec, status, caller, changes = {}) {
	emu.state.checkIns.push(rec);
	applyWorkOrderChanges(emu, wo, status ? { ...changes, Status: status } : changes, {
		now: emu.now(),
		source: `api:${rec.Kind}`,
		by: caller,
	});
	rec.StatusChangedTo = status ? { ...wo.Status } : null;
	events.checkedInOut(emu, rec.Kind, wo, caller);
	return json(200, make('CheckInOutResponse', { MechanicId: rec.Id }));
}

/** POST /workorders/{id}/universalCheckIn. @type {Handler} */
function checkIn(emu, ctx, p, params) {
	const wo = requireWo(emu, p, params.woId);
	const body = readBody(ctx, 'CheckInRequest');
	const { workType, user, techs } = common(emu, wo, body, p.user);
	if (wo.Status.Primary === 'COMPLETED')
		fail(400, E.WO_COMPLETED, `Work order ${wo.Id} is completed`);
	const at = position(
		body,
		workType === REPAIR,
		'for a repair check-in (WorkTypeId 1, the default)',
	);
	const rec = {
		Id: emu._ids.checkIn++,
		WorkOrderId: wo.Id,
		Kind: 'CheckIn',
		WorkTypeId: workType,
		UserId: user.userId,
		TechsCount: techs,
		Position: at,
		At: activityTime(emu, 'CheckInTime', body.CheckInTime),
		Actor: body.Actor ?? null,
		CheckInId: null,
		ActionStatus: null,
	};
	const status =
		workType === REPAIR
			? { Primary: 'IN PROGRESS', Extended: 'ON SITE' }
			: workType === TRAVEL
				? { Primary: 'IN PROGRESS', Extended: 'EN ROUTE' }
				: null;
	return record(emu, wo, rec, status, p.user);
}

/**
 * The check-out rules on the body (see the top of this file).
 * @param {Emulator} emu @param {any} wo @param {any} body @param {number} workType
 */
function checkOutRules(emu, wo, body, workType) {
	const cancel = body.ActionStatus === 'Cancel' || body.ActionStatus === 1;
	const given = (/** @type {string} */ k) => body[k] !== undefined && body[k] !== null;
	if (given('SignatureAttachmentId') && given('UnableObtainSignatureNoteId')) {
		fail(400, E.BAD_DATA, 'Send SignatureAttachmentId or UnableObtainSignatureNoteId, never both');
	}
	if (given('Resolution') && (workType !== REPAIR || cancel))
		fail(400, E.BAD_DATA, 'Resolution is for a repair check-out that is not a Cancel');
	const primary =
		typeof body.PrimaryStatus === 'number'
			? PRIMARY_BY_NUMBER[body.PrimaryStatus]
			: body.PrimaryStatus;
	if ((given('PrimaryStatus') || given('ExtendedStatus')) && workType !== REPAIR)
		fail(400, E.BAD_DATA, 'PrimaryStatus and ExtendedStatus are for a repair check-out');
	if (given('ExtendedStatus') && (!primary || primary === 'NoStatusChange')) {
		fail(
			400,
			E.BAD_EXTENDED_STATUS,
			'ExtendedStatus needs a PrimaryStatus that changes the status',
		);
	}
	if (
		given('SignatureAttachmentId') &&
		!emu.state.attachments.some(
			(a) => a.Id === Number(body.SignatureAttachmentId) && a.WorkOrderId === wo.Id,
		)
	) {
		fail(
			400,
			E.BAD_DATA,
			`SignatureAttachmentId ${body.SignatureAttachmentId} is not an attachment of work order ${wo.Id}`,
		);
	}
	if (
		given('UnableObtainSignatureNoteId') &&
		!(emu.state.notes[wo.Id] || []).some(
			(n) => String(n.Id) === String(body.UnableObtainSignatureNoteId),
		)
	) {
		fail(
			400,
			E.BAD_DATA,
			`UnableObtainSignatureNoteId ${body.UnableObtainSignatureNoteId} is not a note of work order ${wo.Id}`,
		);
	}
	/** @type {{ Primary: string, Extended: string | null } | null} */
	let status = cancel || !primary ? null : /** @type {any} */ (CHECK_OUT_STATUS[primary] ?? null);
	if (status && given('ExtendedStatus'))
		status = { ...status, Extended: String(body.ExtendedStatus) };
	return { cancel, status };
}

/** POST /workorders/{id}/universalCheckOut. @type {Handler} */
function checkOut(emu, ctx, p, params) {
	const wo = requireWo(emu, p, params.woId);
	const body = readBody(ctx, 'CheckOutRequest');
	const { workType, user, techs } = common(emu, wo, body, p.user);
	const { cancel, status } = checkOutRules(emu, wo, body, workType);
	const at = position(
		body,
		!cancel && (workType === REPAIR || workType === TRAVEL),
		'for a repair or travel check-out (not on Cancel)',
	);
	const open = openCheckIn(emu, wo, user);
	if (!open)
		fail(
			400,
			E.BAD_DATA,
			`User ${user.userId} has no check-in on work order ${wo.Id} to check out of`,
		);
	const when = activityTime(emu, 'CheckOutTime', body.CheckOutTime);
	if (when < open.At) fail(400, E.BAD_DATA, 'CheckOutTime is before the check-in: too early');
	const rec = {
		Id: emu._ids.checkIn++,
		WorkOrderId: wo.Id,
		Kind: 'CheckOut',
		WorkTypeId: workType,
		UserId: user.userId,
		TechsCount: techs,
		Position: at,
		At: when,
		Actor: body.Actor ?? null,
		CheckInId: open.Id,
		ActionStatus: cancel ? 'Cancel' : 'Complete',
		Resolution: body.Resolution ?? null,
		SignatureAttachmentId: body.SignatureAttachmentId ?? null,
		UnableObtainSignatureNoteId: body.UnableObtainSignatureNoteId ?? null,
	};
	return record(
		emu,
		wo,
		rec,
		status,
		p.user,
		body.Resolution !== undefined && body.Resolution !== null
			? { Resolution: String(body.Resolution) }
			: {},
	);
}

/**
 * The reference's CheckInActivity of a stored activity.
 * @param {Emulator} emu @param {any} wo @param {any} c
 */
function activityObject(emu, wo, c) {
	const user = Object.values(emu.state.users).find((u) => u.userId === c.UserId);
	const signature = c.SignatureAttachmentId
		? emu.state.attachments.find((a) => a.Id === Number(c.SignatureAttachmentId))
		: null;
	const note = c.UnableObtainSignatureNoteId
		? (emu.state.notes[wo.Id] || []).find(
				(n) => String(n.Id) === String(c.UnableObtainSignatureNoteId),
			)
		: null;
	return make('CheckInActivity', {
		Id: c.Id,
		Date: emu.time.local(c.At),
		Dto: emu.clock.twin(wo.LocationId).dto(c.At),
		User: user ? userInfo(user) : null,
		Action:
			c.Kind === 'CheckIn'
				? 'Check In'
				: c.ActionStatus === 'Cancel'
					? 'Check Out (Cancel)'
					: 'Check Out',
		StatusChangedTo: c.StatusChangedTo ?? null,
		WorkType: workTypeName(c.WorkTypeId),
		StatusNew: c.StatusChangedTo ? c.StatusChangedTo.Primary : null,
		CheckInOutType: c.Position ? 'Gps' : 'Common',
		SignatureAttachmentId: signature ? signature.Id : null,
		SignatureAttachmentName: signature ? signature.FileName : null,
		SignatureAttachmentFullName: signature ? publicAttachment(emu, signature).Uri : null,
		UnableObtainSignatureNoteId: note ? note.Id : null,
		UnableObtainSignatureNote: note ? note.NoteData : null,
	});
}

/** GET /odata/workorders({id})/Service.CheckInActivity(). @type {Handler} */
function odataCheckIns(emu, ctx, p, params) {
	const wo = requireWo(emu, p, params.woId);
	const list = emu.state.checkIns
		.filter((c) => c.WorkOrderId === wo.Id)
		.map((c) => activityObject(emu, wo, c));
	return odataList(emu, list, ctx, odataContext(emu, 'CheckInActivities'), 'CheckInActivity', byId);
}

module.exports = { checkIn, checkOut, odataCheckIns, activityObject, CHECK_OUT_STATUS };
