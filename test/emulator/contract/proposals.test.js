'use strict';

/**
 * Proposal status changes (open, onhold, approve, reject) as the service's reference has them
 * (service-reference.md section 1, conflict #12): 204 without a body; every refusal a 400 with
 * ErrorResponse and the reference's code (401 not a subscriber user, 502 no such proposal, 503 an
 * empty request / bad data / an approval-level user / already in that status / approve without a
 * work order or with an invoiced one, 100 approve over the user's limit), nothing changed by it;
 * the notes and notifications a move writes, and GET /proposals/RejectionReasons.
 * Every test starts a fresh emulator on a free port (./helpers.js) and talks to it over real HTTP.
 */

const { useEmulator, token, jwtLogin, api, expectError } = require('./helpers');

/** @type {import('../index').Emulator} */
let emu;
/** @type {any} */
let fx;
useEmulator((e) => {
	emu = e;
	fx = e.fixtures;
});

/** What a refused move must leave untouched: status, history, notes, notifications. */
function snapshot(/** @type {number} */ id) {
	const stored = emu.state.proposals[id];
	const wo = stored.WorkOrderId;
	return {
		status: stored.Status,
		history: stored.history.length,
		notes: wo === null ? 0 : emu.notesOf(wo).length,
		notifications: emu.state.notifications.length,
	};
}

/** Every refusal of a move: 400 with ErrorResponse, the reference's code, the service's words; nothing changed. */
function expectRefused(
	/** @type {any} */ r,
	/** @type {number} */ code,
	/** @type {RegExp} */ words,
	/** @type {number} */ id,
	/** @type {any} */ before,
) {
	expectError(r, 400, code);
	expect(Object.keys(r.body).sort()).toEqual(['Data', 'ErrorCode', 'ErrorCodes', 'ErrorMessage']);
	expect(r.body.ErrorCode).toBe(code);
	expect(r.body.ErrorCodes).toEqual([code]);
	expect(r.body.ErrorMessage).toMatch(words);
	expect(r.text).not.toBe('');
	expect(snapshot(id)).toEqual(before);
}

describe('proposal status', () => {
	test('open, onhold, approve, reject from any other state: 204 with no body; status and history updated', async () => {
		const t = await token();
		const id = fx.proposals.open;
		for (const [action, status] of [
			['onhold', 'OnHold'],
			['approve', 'Approved'],
			['reject', 'Rejected'],
			['open', 'Open'],
			['approve', 'Approved'],
			['open', 'Open'],
		]) {
			const r = await api('PUT', `/proposals/${id}/${action}`, { token: t, json: {} });
			expect([action, r.status, r.text]).toEqual([action, 204, '']);
			expect(emu.state.proposals[id].Status).toBe(status);
		}
		expect(emu.state.proposals[id].history.map((/** @type {any} */ h) => h.to)).toEqual([
			'Open',
			'OnHold',
			'Approved',
			'Rejected',
			'Open',
			'Approved',
			'Open',
		]);
	});

	test.each([
		['open', 'open', /^Proposal 61001 is already open$/],
		['onhold', 'onHold', /^Proposal 61002 is already on hold$/],
		['approve', 'approved', /^Proposal 61006 is already approved$/],
		['reject', 'rejected', /^Proposal 61007 is already rejected$/],
	])(
		'a move to the status the proposal already has (%s) is refused: 400, code 503 "already ..."',
		async (action, key, words) => {
			const id = fx.proposals[key];
			const before = snapshot(id);
			const r = await api('PUT', `/proposals/${id}/${action}`, {
				token: await token('manager'),
				json: { Comments: 'again' },
			});
			expectRefused(r, 503, words, id, before);
		},
	);

	test('approve refused when the linked work order is invoiced: 400, code 503', async () => {
		const id = fx.proposals.invoiced;
		const before = snapshot(id);
		const r = await api('PUT', `/proposals/${id}/approve`, {
			token: await token('manager'),
			json: { Comments: 'x' },
		});
		expectRefused(r, 503, /work order 90000007 is already invoiced/, id, before);
	});

	test('approve refused when no work order is linked: 400, code 503', async () => {
		const id = fx.proposals.noWorkOrder;
		const before = snapshot(id);
		const r = await api('PUT', `/proposals/${id}/approve`, {
			token: await token('manager'),
			json: { Comments: 'x' },
		});
		expectRefused(r, 503, /no work order is linked/, id, before);
	});

	test("approve refused when the amount exceeds the user's approval limit: 400, code 100", async () => {
		const id = fx.proposals.overLimit;
		const before = snapshot(id);
		const r = await api('PUT', `/proposals/${id}/approve`, { token: await token(), json: {} });
		expectRefused(
			r,
			100,
			/its amount 7500 USD exceeds your approval limit of 5000 USD/,
			id,
			before,
		);
	});

	test('a user whose approval limit covers the amount may approve it', async () => {
		const ok = await api('PUT', `/proposals/${fx.proposals.overLimit}/approve`, {
			token: await token('manager'),
			json: {},
		});
		expect(ok.status).toBe(204);
		expect(emu.state.proposals[fx.proposals.overLimit].Status).toBe('Approved');
	});

	test('the other moves are not refused for the invoiced / no-work-order proposals', async () => {
		const t = await token();
		expect(
			(await api('PUT', `/proposals/${fx.proposals.invoiced}/reject`, { token: t, json: {} }))
				.status,
		).toBe(204);
		expect(
			(
				await api('PUT', `/proposals/${fx.proposals.noWorkOrder}/onhold`, {
					token: t,
					json: { Comments: 'later' },
				})
			).status,
		).toBe(204);
	});

	test.each([
		['open', 'onHold'],
		['onhold', 'open'],
		['approve', 'open'],
		['reject', 'open'],
	])(
		'an approval-level (MLP) user may not move a proposal (%s): 400, code 503',
		async (action, key) => {
			const id = fx.proposals[key];
			const before = snapshot(id);
			const r = await api('PUT', `/proposals/${id}/${action}`, {
				token: await token('approvalLevel'),
				json: {},
			});
			expectRefused(r, 503, /approval-level \(MLP\) user/, id, before);
		},
	);

	test('only subscriber users: a provider user (contractor JWT or OAuth token) gets 400, code 401', async () => {
		const id = fx.proposals.open;
		const before = snapshot(id);
		const viaJwt = await api('PUT', `/proposals/${id}/onhold`, {
			token: (await jwtLogin()).access_token,
			json: {},
		});
		expectRefused(
			viaJwt,
			401,
			/only subscriber users may change the status of a proposal/,
			id,
			before,
		);
		const viaOAuth = await api('PUT', `/proposals/${id}/approve`, {
			token: await token('contractor'),
			json: {},
		});
		expectRefused(viaOAuth, 401, /demo\.contractor is a provider user/, id, before);
	});

	test('an unknown proposal: 400, code 502', async () => {
		const r = await api('PUT', '/proposals/12345/approve', { token: await token(), json: {} });
		expectError(r, 400, 502);
		expect(r.body.ErrorMessage).toBe('Proposal 12345 was not found');
	});

	test("another subscriber's proposal is no proposal of this user: 400, code 502", async () => {
		const id = fx.proposals.child2001;
		const before = snapshot(id);
		const r = await api('PUT', `/proposals/${id}/onhold`, { token: await token(), json: {} });
		expectRefused(r, 502, /^Proposal 62001 was not found$/, id, before);
	});

	test.each([
		['no body', {}],
		['an empty body', { body: '', headers: { 'content-type': 'application/json' } }],
		['a JSON null', { json: 'null' }],
		['JSON that does not parse', { json: '{"Comments": ' }],
		['a JSON array', { json: '["x"]' }],
	])('an empty request (%s) is refused: 400, code 503', async (_name, o) => {
		const id = fx.proposals.open;
		const before = snapshot(id);
		const r = await api('PUT', `/proposals/${id}/onhold`, {
			token: await token(),
			deliberate: 'a request the service refuses',
			...o,
		});
		expectRefused(r, 503, /The request is empty/, id, before);
	});

	test('{} is a request with no field set: accepted', async () => {
		expect(
			(
				await api('PUT', `/proposals/${fx.proposals.open}/onhold`, {
					token: await token(),
					json: {},
				})
			).status,
		).toBe(204);
	});

	test('a body that is not JSON (form-encoded) is refused with 415', async () => {
		const r = await api('PUT', `/proposals/${fx.proposals.open}/onhold`, {
			token: await token(),
			body: 'Comments=x',
			headers: { 'content-type': 'application/x-www-form-urlencoded' },
			deliberate: 'a request the service refuses',
		});
		expectError(r, 415, 2002);
		expect(emu.state.proposals[fx.proposals.open].Status).toBe('Open');
	});

	test.each([
		[
			'ProviderEmail not an e-mail',
			'open',
			{ ProviderEmail: 'not-an-email' },
			/ProviderEmail is not a valid e-mail address/,
			false,
		],
		[
			'UserEmail not an e-mail',
			'onhold',
			{ UserEmail: 'a@b' },
			/UserEmail is not a valid e-mail address/,
			false,
		],
		[
			'ActionSource not Standard|DecisionEngine',
			'onhold',
			{ ActionSource: 'Robot' },
			/ActionSource must be Standard or DecisionEngine/,
			true,
		],
		[
			'RejectReasonCodeId not a known code',
			'reject',
			{ RejectReasonCodeId: 99 },
			/RejectReasonCodeId 99 is not a known rejection reason/,
			false,
		],
		[
			'RejectReasonCodeId not an integer',
			'reject',
			{ RejectReasonCodeId: 'x' },
			/RejectReasonCodeId must be an integer/,
			true,
		],
	])(
		'bad data in the request (%s): 400, code 503',
		async (_name, action, json, words, deliberate) => {
			const id = fx.proposals.open;
			const before = snapshot(id);
			const r = await api('PUT', `/proposals/${id}/${action}`, {
				token: await token(),
				json,
				...(deliberate ? { deliberate: 'a request the service refuses' } : {}),
			});
			expectRefused(r, 503, words, id, before);
		},
	);

	test('a known RejectReasonCodeId and ActionSource are recorded', async () => {
		const id = fx.proposals.open;
		const ok = await api('PUT', `/proposals/${id}/reject`, {
			token: await token(),
			json: { RejectReasonCodeId: 1, ActionSource: 'DecisionEngine' },
		});
		expect(ok.status).toBe(204);
		expect(emu.state.proposals[id]).toMatchObject({
			Status: 'Rejected',
			RejectReasonCodeId: 1,
			ActionSource: 'DecisionEngine',
		});
		expect(emu.state.proposals[id].history.at(-1)).toMatchObject({
			action: 'reject',
			rejectReasonCodeId: 1,
			actionSource: 'DecisionEngine',
		});
	});

	test("the reference's own name Comment is read like the contract's Comments", async () => {
		const wo = fx.workOrders.proposal;
		const r = await api('PUT', `/proposals/${fx.proposals.open}/onhold`, {
			token: await token(),
			json: { Comment: 'Landlord first' },
		});
		expect(r.status).toBe(204);
		expect(emu.notesOf(wo).at(-1).NoteData).toBe(
			'Proposal P-61001 put on hold. Comments: Landlord first',
		);
	});

	test('the refusals are checked in order: provider user, request, proposal, MLP user, status, approve rules', async () => {
		const contractor = (await jwtLogin()).access_token;
		// a provider user is refused before the body is read
		expectError(
			await api('PUT', '/proposals/12345/approve', {
				token: contractor,
				deliberate: 'a request the service refuses',
			}),
			400,
			401,
		);
		// an empty request before the proposal is looked up
		expectError(
			await api('PUT', '/proposals/12345/approve', {
				token: await token(),
				deliberate: 'a request the service refuses',
			}),
			400,
			503,
		);
		// an approval-level user before the status: "MLP user", not "already open"
		const mlp = await api('PUT', `/proposals/${fx.proposals.open}/open`, {
			token: await token('approvalLevel'),
			json: {},
		});
		expect(mlp.body.ErrorMessage).toMatch(/approval-level/);
		// the status before the approve rules: "already approved", not "over the limit"
		await emu.setProposalStatus(fx.proposals.overLimit, 'Approved');
		const again = await api('PUT', `/proposals/${fx.proposals.overLimit}/approve`, {
			token: await token(),
			json: {},
		});
		expectError(again, 400, 503);
		expect(again.body.ErrorMessage).toBe('Proposal 61005 is already approved');
	});

	test('Comments, and ReasonString on approve, are appended as notes of the work order with new int64 ids', async () => {
		const t = await token();
		const wo = fx.workOrders.proposal;
		const before = emu.notesOf(wo).length;
		expect(
			(
				await api('PUT', `/proposals/${fx.proposals.open}/approve`, {
					token: t,
					json: { Comments: 'Go ahead', ReasonString: 'Within budget' },
				})
			).status,
		).toBe(204);
		expect(
			(
				await api('PUT', `/proposals/${fx.proposals.open}/onhold`, {
					token: t,
					json: { Comments: 'Wait for the landlord', ReasonString: 'ignored here' },
				})
			).status,
		).toBe(204);
		const notes = emu.notesOf(wo);
		expect(notes).toHaveLength(before + 2);
		const [n1, n2] = notes.slice(-2);
		expect(n1.NoteData).toMatch(/approved/);
		expect(n1.NoteData).toContain('Within budget');
		expect(n1.NoteData).toContain('Go ahead');
		expect(n2.NoteData).toContain('Wait for the landlord');
		expect(n2.NoteData).not.toContain('ignored here');
		expect(typeof n1.Id).toBe('bigint');
		expect(n1.Id > 2n ** 53n).toBe(true);
		expect(n2.Id > n1.Id).toBe(true);
		const list = await api('GET', `/workorders/${wo}/notes`, { token: t });
		expect(list.text).toContain(`"Id":${n2.Id}`);
	});

	test('notifications: defaults are the provider e-mail and the current user e-mail; ProviderEmail/UserEmail override', async () => {
		const t = await token();
		await api('PUT', `/proposals/${fx.proposals.open}/onhold`, { token: t, json: {} });
		expect(emu.state.notifications.at(-1)).toMatchObject({
			proposalId: fx.proposals.open,
			action: 'onhold',
			recipients: [fx.providers.main.email, fx.users.subscriber.email],
		});
		await api('PUT', `/proposals/${fx.proposals.open}/open`, {
			token: t,
			json: { ProviderEmail: 'pm@acme.example', UserEmail: 'me@retail.example' },
		});
		expect(emu.state.notifications.at(-1)).toMatchObject({
			action: 'open',
			recipients: ['pm@acme.example', 'me@retail.example'],
		});
		await api('PUT', `/proposals/${fx.proposals.otherProvider}/onhold`, { token: t, json: {} });
		expect(emu.state.notifications.at(-1).recipients).toEqual([
			fx.providers.other.email,
			fx.users.subscriber.email,
		]);
	});

	test('reject with useProposalAlertEmails=true and no e-mails: every user of the proposal-alerts list is notified', async () => {
		const t = await token();
		const alerts = fx.subscribers.proposalAlertEmails[1001];
		expect(
			(
				await api('PUT', `/proposals/${fx.proposals.open}/reject?useProposalAlertEmails=true`, {
					token: t,
					json: { RejectReasonCodeId: 2 },
				})
			).status,
		).toBe(204);
		const n = emu.state.notifications.at(-1);
		expect(n).toMatchObject({ action: 'reject', useProposalAlertEmails: true });
		for (const a of alerts) expect(n.recipients).toContain(a);
		expect(n.recipients).not.toContain(fx.users.subscriber.email);
		// with an e-mail passed, the list is not used
		await api('PUT', `/proposals/${fx.proposals.onHold}/reject?useProposalAlertEmails=true`, {
			token: t,
			json: { UserEmail: 'one@retail.example' },
		});
		const m = emu.state.notifications.at(-1);
		expect(m.useProposalAlertEmails).toBe(false);
		expect(m.recipients).toEqual([fx.providers.main.email, 'one@retail.example']);
		// false: ignored
		await api('PUT', `/proposals/${fx.proposals.invoiced}/reject?useProposalAlertEmails=false`, {
			token: t,
			json: {},
		});
		expect(emu.state.notifications.at(-1).recipients).toEqual([
			fx.providers.main.email,
			fx.users.subscriber.email,
		]);
	});

	test('reject with useProposalAlertEmails neither true nor false: 400, code 503', async () => {
		const id = fx.proposals.open;
		const before = snapshot(id);
		const r = await api('PUT', `/proposals/${id}/reject?useProposalAlertEmails=maybe`, {
			token: await token(),
			json: {},
			deliberate: 'a request the service refuses',
		});
		expectRefused(
			r,
			503,
			/useProposalAlertEmails must be true or false \(got 'maybe'\)/,
			id,
			before,
		);
	});

	test('useProposalAlertEmails is ignored on open, onhold and approve', async () => {
		const t = await token();
		const r = await api(
			'PUT',
			`/proposals/${fx.proposals.open}/onhold?useProposalAlertEmails=true`,
			{ token: t, json: {}, deliberate: 'a request the service refuses' },
		);
		expect(r.status).toBe(204);
		expect(emu.state.notifications.at(-1)).toMatchObject({
			useProposalAlertEmails: false,
			recipients: [fx.providers.main.email, fx.users.subscriber.email],
		});
		expect(
			(
				await api('PUT', `/proposals/${fx.proposals.open}/approve?useProposalAlertEmails=maybe`, {
					token: t,
					json: {},
					deliberate: 'a request the service refuses',
				})
			).status,
		).toBe(204);
	});

	test('a non-integer id 400; an unknown action 404 (no such route)', async () => {
		const t = await token();
		expectError(
			await api('PUT', '/proposals/abc/approve', {
				token: t,
				json: {},
				deliberate: 'a request the service refuses',
			}),
			400,
			2004,
		);
		expectError(
			await api('PUT', `/proposals/${fx.proposals.open}/cancel`, {
				token: t,
				json: {},
				deliberate: 'a request the service refuses',
			}),
			404,
			5000,
		);
	});

	test('GET /proposals/RejectionReasons lists {Id, Code, Description}', async () => {
		const r = await api('GET', '/proposals/RejectionReasons', { token: await token() });
		expect(r.status).toBe(200);
		expect(r.body).toEqual(fx.rejectionReasons);
		expect(r.body[0]).toEqual({ Id: 1, Code: 'PRICE_TOO_HIGH', Description: 'Price is too high' });
	});
});

// =================================================================================================
