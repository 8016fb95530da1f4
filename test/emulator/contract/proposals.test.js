'use strict';

/**
 * Proposal status changes (open, onhold, approve, reject): the approval refusals, the body and
 * its fields, the notes and notifications they write, and GET /proposals/RejectionReasons.
 * Every test starts a fresh emulator on a free port (./helpers.js) and talks to it over real HTTP.
 */

const {
  useEmulator,
  token,
  api,
  expectError,
} = require('./helpers');

/** @type {import('../index').Emulator} */
let emu;
/** @type {any} */
let fx;
useEmulator((e) => {
  emu = e;
  fx = e.fixtures;
});

describe('proposal status', () => {
  test('open, onhold, approve, reject from any state: 204 with no body; status and history updated', async () => {
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
      'Open', 'OnHold', 'Approved', 'Rejected', 'Open', 'Approved', 'Open',
    ]);
  });

  test('approve refused when the linked work order is invoiced (409, 4002)', async () => {
    const r = await api('PUT', `/proposals/${fx.proposals.invoiced}/approve`, { token: await token('manager'), json: {} });
    expectError(r, 409, 4002);
    expect(r.body.ErrorMessage).toMatch(/invoiced/);
    expect(emu.state.proposals[fx.proposals.invoiced].Status).toBe('Open');
    expect(emu.state.notifications).toHaveLength(0);
  });

  test('approve refused when no work order is linked (409, 4003)', async () => {
    const r = await api('PUT', `/proposals/${fx.proposals.noWorkOrder}/approve`, { token: await token('manager'), json: { Comments: 'x' } });
    expectError(r, 409, 4003);
    expect(r.body.ErrorMessage).toMatch(/no work order/);
    expect(emu.state.proposals[fx.proposals.noWorkOrder].Status).toBe('Open');
  });

  test('approve refused when the amount exceeds the approving user limit (403, 4004); a user with a higher limit may approve', async () => {
    const r = await api('PUT', `/proposals/${fx.proposals.overLimit}/approve`, { token: await token(), json: {} });
    expectError(r, 403, 4004);
    expect(r.body.ErrorMessage).toMatch(/approval limit/);
    expect(emu.state.proposals[fx.proposals.overLimit].Status).toBe('Open');
    const ok = await api('PUT', `/proposals/${fx.proposals.overLimit}/approve`, { token: await token('manager'), json: {} });
    expect(ok.status).toBe(204);
    expect(emu.state.proposals[fx.proposals.overLimit].Status).toBe('Approved');
  });

  test('the other moves are not refused for the invoiced / no-work-order proposals', async () => {
    const t = await token();
    expect((await api('PUT', `/proposals/${fx.proposals.invoiced}/reject`, { token: t, json: {} })).status).toBe(204);
    expect((await api('PUT', `/proposals/${fx.proposals.noWorkOrder}/onhold`, { token: t, json: { Comments: 'later' } })).status).toBe(204);
  });

  test('body: Content-Type application/json required (415), body required (400), bad JSON 400, non-object 400; {} is fine', async () => {
    const t = await token();
    const p = `/proposals/${fx.proposals.open}/onhold`;
    expectError(await api('PUT', p, { token: t, body: 'Comments=x', headers: { 'content-type': 'application/x-www-form-urlencoded' }, deliberate: 'a request the service refuses' }), 415, 2002);
    expectError(await api('PUT', p, { token: t, deliberate: 'a request the service refuses' }), 400, 2003);
    expectError(await api('PUT', p, { token: t, body: '', headers: { 'content-type': 'application/json' }, deliberate: 'a request the service refuses' }), 400, 2003);
    expectError(await api('PUT', p, { token: t, json: '{"Comments": ', deliberate: 'a request the service refuses' }), 400, 2001);
    expectError(await api('PUT', p, { token: t, json: '["x"]', deliberate: 'a request the service refuses' }), 400, 2006);
    expect(emu.state.proposals[fx.proposals.open].Status).toBe('Open');
    expect((await api('PUT', p, { token: t, json: {} })).status).toBe(204);
  });

  test('fields: e-mails validated, ActionSource Standard|DecisionEngine, RejectReasonCodeId must be a known code', async () => {
    const t = await token();
    const id = fx.proposals.open;
    expectError(await api('PUT', `/proposals/${id}/open`, { token: t, json: { ProviderEmail: 'not-an-email' } }), 400, 2010);
    expectError(await api('PUT', `/proposals/${id}/open`, { token: t, json: { UserEmail: 'a@b' } }), 400, 2010);
    expectError(await api('PUT', `/proposals/${id}/onhold`, { token: t, json: { ActionSource: 'Robot' }, deliberate: 'a request the service refuses' }), 400, 4006);
    expectError(await api('PUT', `/proposals/${id}/reject`, { token: t, json: { RejectReasonCodeId: 99 } }), 400, 4007);
    expectError(await api('PUT', `/proposals/${id}/reject`, { token: t, json: { RejectReasonCodeId: 'x' }, deliberate: 'a request the service refuses' }), 400, 2006);
    expect(emu.state.proposals[id].Status).toBe('Open');
    const ok = await api('PUT', `/proposals/${id}/reject`, { token: t, json: { RejectReasonCodeId: 1, ActionSource: 'DecisionEngine' } });
    expect(ok.status).toBe(204);
    expect(emu.state.proposals[id]).toMatchObject({ Status: 'Rejected', RejectReasonCodeId: 1, ActionSource: 'DecisionEngine' });
    expect(emu.state.proposals[id].history.at(-1)).toMatchObject({ action: 'reject', rejectReasonCodeId: 1, actionSource: 'DecisionEngine' });
  });

  test('Comments, and ReasonString on approve, are appended as notes of the work order with new int64 ids', async () => {
    const t = await token();
    const wo = fx.workOrders.proposal;
    const before = emu.notesOf(wo).length;
    expect((await api('PUT', `/proposals/${fx.proposals.open}/approve`, { token: t, json: { Comments: 'Go ahead', ReasonString: 'Within budget' } })).status).toBe(204);
    expect((await api('PUT', `/proposals/${fx.proposals.open}/onhold`, { token: t, json: { Comments: 'Wait for the landlord', ReasonString: 'ignored here' } })).status).toBe(204);
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
    await api('PUT', `/proposals/${fx.proposals.open}/open`, { token: t, json: { ProviderEmail: 'pm@acme.example', UserEmail: 'me@retail.example' } });
    expect(emu.state.notifications.at(-1)).toMatchObject({ action: 'open', recipients: ['pm@acme.example', 'me@retail.example'] });
    await api('PUT', `/proposals/${fx.proposals.otherProvider}/onhold`, { token: t, json: {} });
    expect(emu.state.notifications.at(-1).recipients).toEqual([fx.providers.other.email, fx.users.subscriber.email]);
  });

  test('reject with useProposalAlertEmails=true and no e-mails: every user of the proposal-alerts list is notified', async () => {
    const t = await token();
    const alerts = fx.subscribers.proposalAlertEmails[1001];
    expect((await api('PUT', `/proposals/${fx.proposals.open}/reject?useProposalAlertEmails=true`, { token: t, json: { RejectReasonCodeId: 2 } })).status).toBe(204);
    const n = emu.state.notifications.at(-1);
    expect(n).toMatchObject({ action: 'reject', useProposalAlertEmails: true });
    for (const a of alerts) expect(n.recipients).toContain(a);
    expect(n.recipients).not.toContain(fx.users.subscriber.email);
    // with an e-mail passed, the list is not used
    await api('PUT', `/proposals/${fx.proposals.onHold}/reject?useProposalAlertEmails=true`, { token: t, json: { UserEmail: 'one@retail.example' } });
    const m = emu.state.notifications.at(-1);
    expect(m.useProposalAlertEmails).toBe(false);
    expect(m.recipients).toEqual([fx.providers.main.email, 'one@retail.example']);
    // false: ignored
    await api('PUT', `/proposals/${fx.proposals.rejected}/reject?useProposalAlertEmails=false`, { token: t, json: {} });
    expect(emu.state.notifications.at(-1).recipients).toEqual([fx.providers.main.email, fx.users.subscriber.email]);
    expectError(await api('PUT', `/proposals/${fx.proposals.rejected}/reject?useProposalAlertEmails=maybe`, { token: t, json: {}, deliberate: 'a request the service refuses' }), 400, 4008);
  });

  test('useProposalAlertEmails is ignored on open, onhold and approve', async () => {
    const t = await token();
    const r = await api('PUT', `/proposals/${fx.proposals.open}/onhold?useProposalAlertEmails=true`, { token: t, json: {}, deliberate: 'a request the service refuses' });
    expect(r.status).toBe(204);
    expect(emu.state.notifications.at(-1)).toMatchObject({ useProposalAlertEmails: false, recipients: [fx.providers.main.email, fx.users.subscriber.email] });
    expect((await api('PUT', `/proposals/${fx.proposals.open}/approve?useProposalAlertEmails=maybe`, { token: t, json: {}, deliberate: 'a request the service refuses' })).status).toBe(204);
  });

  test('unknown proposal 404; a non-integer id 400; an unknown action 404', async () => {
    const t = await token();
    expectError(await api('PUT', '/proposals/12345/approve', { token: t, json: {} }), 404, 5004);
    expectError(await api('PUT', '/proposals/abc/approve', { token: t, json: {}, deliberate: 'a request the service refuses' }), 400, 2004);
    expectError(await api('PUT', `/proposals/${fx.proposals.open}/cancel`, { token: t, json: {}, deliberate: 'a request the service refuses' }), 404, 5000);
  });

  test('GET /proposals/RejectionReasons lists {Id, Code, Description}', async () => {
    const r = await api('GET', '/proposals/RejectionReasons', { token: await token() });
    expect(r.status).toBe(200);
    expect(r.body).toEqual(fx.rejectionReasons);
    expect(r.body[0]).toEqual({ Id: 1, Code: 'PRICE_TOO_HIGH', Description: 'Price is too high' });
  });
});

// =================================================================================================
