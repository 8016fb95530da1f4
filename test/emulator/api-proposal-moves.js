// @ts-check
'use strict';

/**
 * The four proposal moves, PUT /proposals/{proposalId}/open | onhold | approve | reject, as the
 * service's reference (v3, service-reference.md section 1 and conflict #12) has them: 204 without a
 * body; every refusal a 400 with `ErrorResponse` and the reference's code:
 *   401  the caller is not a subscriber user (a provider's user or technician)
 *   502  no such proposal (or not one of the caller's subscriber)
 *   503  an empty request; bad data in it; an approval-level (MLP) user; the proposal already has
 *        the target status; approve: no work order linked, or it is invoiced
 *   100  approve: the amount is above the user's approval limit
 * A refused move changes nothing: no state, note, notification or event.
 */

const { E, fail, empty, parse, Reply, mediaType } = require('./http-util');
const { queryParam, fields, requirePermission } = require('./api-util');
const { storeNote } = require('./notes');
const events = require('./webhooks');

/**
 * @typedef {import('./index').Emulator} Emulator
 * @typedef {import('./index').RequestContext} RequestContext
 * @typedef {import('./api-util').Principal} Principal
 * @typedef {import('./api-util').Handler} Handler
 * @typedef {'open' | 'onhold' | 'approve' | 'reject'} Move
 * @typedef {{ comments?: string, providerEmails?: string[], userEmails?: string[], reasonCode?: number,
 *   reason: any, actionSource: string | null, reasonString?: string, useAlerts: boolean }} MoveRequest
 */

/** The status each move sets, the words of its note, and how "already" reads. */
const MOVES = {
	open: { status: 'Open', verb: 'reopened', already: 'open' },
	onhold: { status: 'OnHold', verb: 'put on hold', already: 'on hold' },
	approve: { status: 'Approved', verb: 'approved', already: 'approved' },
	reject: { status: 'Rejected', verb: 'rejected', already: 'rejected' },
};

/** @param {string} message @returns {never} */
function badData(message) {
	return fail(400, E.BAD_DATA, message);
}

/**
 * Runs a reader whose refusals (400 with the emulator's own codes) the service words as bad data
 * (503): the reference names no other code for these calls.
 * @template T @param {() => T} read @returns {T}
 */
function asBadData(read) {
	try {
		return read();
	} catch (e) {
		if (e instanceof Reply && e.response.status === 400 && e.response.body) {
			badData(String(parse(e.response.body.toString('utf8')).ErrorMessage));
		}
		throw e;
	}
}

/**
 * The body, a JSON object. Missing, `null`, not JSON or not an object: the service's model is
 * empty, which it refuses as 503. (`{}` is a request with no field set: fine.)
 * @param {RequestContext} ctx @returns {Record<string, any>}
 */
function readMoveBody(ctx) {
	const type = mediaType(ctx.headers['content-type']);
	const text = ctx.body.toString('utf8');
	if (type && type !== 'application/json' && !type.endsWith('+json')) {
		fail(415, E.CONTENT_TYPE, `Content-Type must be application/json (got ${type})`);
	}
	if (!type && text.trim() !== '')
		fail(415, E.CONTENT_TYPE, 'Content-Type must be application/json');
	let value = null;
	try {
		value = text.trim() === '' ? null : parse(text);
	} catch {
		value = null;
	}
	if (value === null || typeof value !== 'object' || Array.isArray(value)) {
		badData(
			'The request is empty: a ProposalStatusRequest JSON object is required as the body ({} when no field is set)',
		);
	}
	return value;
}

/**
 * The request's fields (names without regard to case; the contract's `Comments` or the
 * reference's `Comment`), each checked; a bad one is bad data (503).
 * @param {Emulator} emu @param {RequestContext} ctx @param {Move} move @returns {MoveRequest}
 */
function readMoveRequest(emu, ctx, move) {
	const body = readMoveBody(ctx);
	return asBadData(() => {
		const f = fields(body);
		const request = {
			comments: f.string('Comments') ?? f.string('Comment'),
			providerEmails: f.emails('ProviderEmail'),
			userEmails: f.emails('UserEmail'),
			reasonCode: f.int('RejectReasonCodeId'),
			reasonString: f.string('ReasonString'),
			actionSource: actionSourceOf(f.string('ActionSource')),
			reason: /** @type {any} */ (null),
			useAlerts: move === 'reject' && alertFlag(ctx),
		};
		if (move === 'reject' && request.reasonCode !== undefined) {
			request.reason = emu.state.rejectionReasons.find((r) => r.Id === request.reasonCode);
			if (!request.reason)
				badData(
					`RejectReasonCodeId ${request.reasonCode} is not a known rejection reason (see GET /proposals/RejectionReasons)`,
				);
		}
		return request;
	});
}

/** @param {string | undefined} raw @returns {string | null} */
function actionSourceOf(raw) {
	if (raw === undefined) return null;
	const known = ['Standard', 'DecisionEngine'].find(
		(s) => s.toLowerCase() === raw.trim().toLowerCase(),
	);
	return known || badData(`ActionSource must be Standard or DecisionEngine (got '${raw}')`);
}

/** `useProposalAlertEmails` (reject only): true, false or absent. @param {RequestContext} ctx */
function alertFlag(ctx) {
	const flag = queryParam(ctx, 'useProposalAlertEmails');
	if (flag === undefined || flag === '') return false;
	const v = String(flag).toLowerCase();
	if (v !== 'true' && v !== 'false')
		badData(`useProposalAlertEmails must be true or false (got '${flag}')`);
	return v === 'true';
}

/**
 * Only subscriber users may move proposals: a provider's user gets 400 with code 401; a
 * subscriber user without the permission the 401 every route gives.
 * @param {Principal} p
 */
function requireSubscriberUser(p) {
	if (p.providerId !== null || (p.user.kind !== 'subscriber' && p.user.kind !== 'universal')) {
		fail(
			400,
			E.INVALID_SUBSCRIBER,
			`Invalid subscriber: only subscriber users may change the status of a proposal, and ${p.user.username} is a provider user`,
		);
	}
	requirePermission(p, 'proposals.status');
}

/** @param {Emulator} emu @param {Principal} p @param {number} id */
function requireProposal(emu, p, id) {
	const proposal = emu.state.proposals[id];
	if (!proposal || proposal.SubscriberId !== p.subscriberId)
		fail(400, E.REF_NOT_FOUND, `Proposal ${id} was not found`);
	return proposal;
}

/**
 * The refusals that depend on the user and the proposal, in the order the service checks them.
 * @param {Emulator} emu @param {Principal} p @param {any} proposal @param {Move} move
 * @returns {any} the linked work order, or null
 */
function refuseMove(emu, p, proposal, move) {
	if (p.user.approvalLevel) {
		badData(
			`User ${p.user.username} is an approval-level (MLP) user: proposal status changes are not available to approval-level users through the API`,
		);
	}
	if (proposal.Status === MOVES[move].status)
		badData(`Proposal ${proposal.Id} is already ${MOVES[move].already}`);
	const wo =
		proposal.WorkOrderId !== null ? emu.state.workOrders[proposal.WorkOrderId] || null : null;
	if (move !== 'approve') return wo;
	if (!wo) badData(`Proposal ${proposal.Id} cannot be approved: no work order is linked to it`);
	if (wo.IsInvoiced)
		badData(`Proposal ${proposal.Id} cannot be approved: work order ${wo.Id} is already invoiced`);
	const limit = p.user.approvalLimit || 0;
	if (proposal.Amount > limit) {
		fail(
			400,
			E.OVER_APPROVAL_LIMIT,
			`Proposal ${proposal.Id} cannot be approved: its amount ${proposal.Amount} ${proposal.Currency} exceeds your approval limit of ${limit} ${proposal.Currency}`,
		);
	}
	return wo;
}

/**
 * The note a move adds to the work order when Comments (or, on approve, ReasonString) is given.
 * @param {Emulator} emu @param {Principal} p @param {any} proposal @param {any} wo @param {Move} move @param {MoveRequest} r
 */
function moveNote(emu, p, proposal, wo, move, r) {
	const useReason =
		move === 'approve' && r.reasonString !== undefined && r.reasonString.trim() !== '';
	const useComments = r.comments !== undefined && r.comments.trim() !== '';
	if (!wo || !(useReason || useComments)) return null;
	let text = `Proposal ${proposal.Number} ${MOVES[move].verb}.`;
	if (useReason) text += ` Reason: ${r.reasonString}`;
	if (move === 'reject' && r.reason) text += ` Reject reason: ${r.reason.Description}.`;
	if (useComments) text += ` Comments: ${r.comments}`;
	return storeNote(emu, wo, p.user, text, { _proposalId: proposal.Id });
}

/**
 * Who is told: the provider side (ProviderEmail or the provider's e-mail) and the user side
 * (UserEmail or the caller's; on reject with useProposalAlertEmails=true and neither given, the
 * subscriber's proposal-alert list).
 * @param {Emulator} emu @param {Principal} p @param {any} proposal @param {Move} move @param {MoveRequest} r @param {number} now
 */
function notify(emu, p, proposal, move, r, now) {
	const provider = emu.state.providers[proposal.ProviderId];
	const subscriber = emu.state.subscribers[proposal.SubscriberId];
	const providerRecipients = r.providerEmails || [provider.Email];
	const alertsUsed = move === 'reject' && r.useAlerts && !r.providerEmails && !r.userEmails;
	const userRecipients = alertsUsed
		? [...subscriber.ProposalAlertEmails]
		: r.userEmails || [p.user.email];
	const notification = {
		type: 'proposal',
		proposalId: proposal.Id,
		action: move,
		status: MOVES[move].status,
		recipients: [...new Set([...providerRecipients, ...userRecipients])],
		providerRecipients,
		userRecipients,
		useProposalAlertEmails: alertsUsed,
		at: emu.time.dto(now),
	};
	emu.state.notifications.push(notification);
	return notification;
}

/**
 * The move done: status, its date, note, notification, history, webhook event.
 * @param {Emulator} emu @param {Principal} p @param {any} proposal @param {any} wo @param {Move} move @param {MoveRequest} r
 */
function applyMove(emu, p, proposal, wo, move, r) {
	const now = emu.now();
	const from = proposal.Status;
	proposal.Status = MOVES[move].status;
	if (r.actionSource) proposal.ActionSource = r.actionSource;
	if (move === 'reject')
		proposal.RejectReasonCodeId = r.reasonCode !== undefined ? r.reasonCode : null;
	proposal.UpdatedDate = emu.time.local(now);
	proposal.UpdatedDateDto = emu.time.dto(now);
	const note = moveNote(emu, p, proposal, wo, move, r);
	const notification = notify(emu, p, proposal, move, r, now);
	proposal.history.push({
		action: move,
		from,
		to: proposal.Status,
		at: emu.time.dto(now),
		by: p.user.username,
		comments: r.comments ?? null,
		reasonString: r.reasonString ?? null,
		rejectReasonCodeId: move === 'reject' ? (r.reasonCode ?? null) : null,
		actionSource: r.actionSource,
		providerEmail: r.providerEmails ? r.providerEmails.join(';') : null,
		userEmail: r.userEmails ? r.userEmails.join(';') : null,
		noteId: note ? note.Id : null,
		recipients: notification.recipients,
	});
	events.proposalEvent(emu, events.PROPOSAL_STATUS_EVENTS[proposal.Status], proposal, p.user);
}

/** @param {Move} move @returns {Handler} */
function proposalMove(move) {
	return (emu, ctx, p, params) => {
		requireSubscriberUser(p);
		const request = readMoveRequest(emu, ctx, move);
		const proposal = requireProposal(emu, p, params.proposalId);
		const wo = refuseMove(emu, p, proposal, move);
		applyMove(emu, p, proposal, wo, move, request);
		return empty(204);
	};
}

/** Routes in the format of `ROUTES` in api.js (permission checked in the handler, after the caller's kind). */
const PROPOSAL_MOVE_ROUTES = /** @type {Array<[string, string, Handler, string | null]>} */ ([
	['PUT', 'proposals/{proposalId}/open', proposalMove('open'), null],
	['PUT', 'proposals/{proposalId}/onhold', proposalMove('onhold'), null],
	['PUT', 'proposals/{proposalId}/approve', proposalMove('approve'), null],
	['PUT', 'proposals/{proposalId}/reject', proposalMove('reject'), null],
]);

module.exports = { PROPOSAL_MOVE_ROUTES, MOVES };
