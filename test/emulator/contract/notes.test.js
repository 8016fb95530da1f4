'use strict';

/**
 * Work order notes with int64 IDs (REST and OData, paging, create, replica lag) and note
 * attachments (multipart upload, lists per note and per work order, errors).
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

describe('work order notes (int64 ids)', () => {
  test('GET /workorders/{id}/notes: {Notes, AllNotesCount}; ids above 2^31, 2^53 and the int64 maximum as exact literals', async () => {
    const r = await api('GET', `/workorders/${fx.notes.workOrderId}/notes`, { token: await token() });
    expect(r.status).toBe(200);
    for (const id of [fx.notes.big31, fx.notes.big53, fx.notes.max64]) {
      expect(r.text).toContain(`"Id":${id},`);
      expect(r.text).not.toContain(`"${id}"`);
    }
    expect(r.body.AllNotesCount).toBe(4);
    expect(r.body.Notes).toHaveLength(4);
    expect(Object.keys(r.body.Notes[0])).toEqual(
      expect.arrayContaining(['Id', 'NoteData', 'DateCreated', 'DateCreatedDto', 'CreatedBy', 'MailedTo', 'ActionRequired', 'ScheduledDate', 'FollowUpDate', 'IsPinned', 'Visibility', 'Attachments']),
    );
  });

  test('paging=page:size pages the notes list; a malformed paging value is 400', async () => {
    const t = await token();
    const p1 = await api('GET', `/workorders/${fx.notes.workOrderId}/notes?paging=1:3`, { token: t });
    const p2 = await api('GET', `/workorders/${fx.notes.workOrderId}/notes?paging=2:3`, { token: t });
    expect(p1.body.Notes).toHaveLength(3);
    expect(p2.body.Notes).toHaveLength(1);
    expect(p1.body.AllNotesCount).toBe(4);
    expect(p2.body.AllNotesCount).toBe(4);
    expectError(await api('GET', `/workorders/${fx.notes.workOrderId}/notes?paging=first`, { token: t }), 400, 2008);
  });

  test('POST /workorders/{id}/notes: NoteData required; optional fields stored; 201 with the note and an id above 2^53', async () => {
    const t = await token();
    const wo = fx.notes.workOrderId;
    expectError(await api('POST', `/workorders/${wo}/notes`, { token: t, json: {} }), 400, 2007);
    expectError(await api('POST', `/workorders/${wo}/notes`, { token: t, json: { NoteData: '   ' } }), 400, 2007);
    expectError(await api('POST', `/workorders/${wo}/notes`, { token: t, json: { NoteData: 5 } }), 400, 2006);
    expectError(await api('POST', `/workorders/${wo}/notes`, { token: t, json: { NoteData: 'x', IsPinned: 'yes' } }), 400, 2006);
    expectError(await api('POST', `/workorders/${wo}/notes`, { token: t, json: { NoteData: 'x', MailedTo: 'a@b.example;broken' } }), 400, 2010);
    expectError(await api('POST', `/workorders/${wo}/notes`, { token: t, json: { NoteData: 'x', ScheduledDate: 'tomorrow' } }), 400, 2006);
    const r = await api('POST', `/workorders/${wo}/notes`, {
      token: t,
      json: {
        NoteData: 'Please call before arrival',
        MailedTo: 'a@shop.example; b@shop.example',
        ActionRequired: true,
        ScheduledDate: '2030-01-02T10:00:00Z',
        FollowUpDate: '2030-01-05T00:00:00',
        Visibility: 1,
        NotifyFollowers: true,
        DoNotSendEmail: false,
        IsPinned: true,
      },
    });
    expect(r.status).toBe(201);
    expect(r.text).toMatch(/^\{"Id":9007199254741000,/);
    expect(r.body).toMatchObject({
      WorkOrderId: wo,
      NoteData: 'Please call before arrival',
      MailedTo: 'a@shop.example;b@shop.example',
      ActionRequired: true,
      ScheduledDate: '2030-01-02T10:00:00.000',
      ScheduledDateDto: '2030-01-02T10:00:00.000+00:00',
      FollowUpDate: '2030-01-05T00:00:00.000',
      Visibility: 1,
      IsPinned: true,
      CreatedBy: 'Sam Subscriber',
    });
    expect(r.headers.get('location')).toContain(`notes(9007199254741000)`);
    expect(emu.state.notifications.at(-1)).toMatchObject({ type: 'note', recipients: ['a@shop.example', 'b@shop.example'] });
    const next = await api('POST', `/workorders/${wo}/notes`, { token: t, json: { NoteData: 'second', DoNotSendEmail: true, MailedTo: 'c@shop.example' } });
    expect(next.text).toMatch(/^\{"Id":9007199254741001,/);
    expect(emu.state.notifications).toHaveLength(1);
    const list = await api('GET', `/workorders/${wo}/notes?paging=1:1`, { token: t });
    expect(list.text).toContain('"Id":9007199254741001');
    expect(list.body.AllNotesCount).toBe(6);
  });

  test('incoming JSON bodies are parsed without losing digits (BigInt in the request log)', async () => {
    const t = await token();
    await api('POST', `/workorders/${fx.notes.workOrderId}/notes`, { token: t, json: '{"NoteData":"reply","ReplyToNoteId":9223372036854775807}' });
    expect(emu.requests.at(-1).body.ReplyToNoteId).toBe(9223372036854775807n);
  });

  test('OData notes list and single note by int64 id; ids beyond int64 are 400, unknown ids 404', async () => {
    const t = await token();
    const wo = fx.notes.workOrderId;
    const list = await api('GET', `/odata/workorders(${wo})/notes`, { token: t });
    expect(list.status).toBe(200);
    expect(list.text).toContain(`"@odata.context":"${emu.baseUrl}/v3/odata/$metadata#WorkOrders(${wo})/Notes"`);
    expect(list.text).toContain(`"Id":${fx.notes.max64}`);
    expect(list.body.value).toHaveLength(4);
    const one = await api('GET', `/odata/workorders(${wo})/notes(${fx.notes.max64})`, { token: t });
    expect(one.status).toBe(200);
    expect(one.text).toMatch(new RegExp(`^\\{"Id":${fx.notes.max64},"WorkOrderId":${wo},`));
    const big53 = await api('GET', `/odata/workorders(${wo})/notes(${fx.notes.big53})`, { token: t });
    expect(big53.text).toContain(`"Id":${fx.notes.big53},`);
    expect(big53.text).toContain(`"NoteId":${fx.notes.big53},`);
    expectError(await api('GET', `/odata/workorders(${wo})/notes(9223372036854775808)`, { token: t }), 400, 2004);
    expectError(await api('GET', `/odata/workorders(${wo})/notes(9007199254740992)`, { token: t }), 404, 5003);
    expectError(await api('GET', `/odata/workorders(${wo})/notes(abc)`, { token: t }), 400, 2004);
    const filtered = await api('GET', `/odata/workorders(${wo})/notes?$filter=Id eq ${fx.notes.big53}`, { token: t });
    expect(filtered.body.value).toHaveLength(1);
    expect(filtered.text).toContain(`"Id":${fx.notes.big53}`);
  });

  test('replicaLagMs: a note created a moment ago is not readable yet', async () => {
    emu.setFaults({ replicaLagMs: 30000 });
    const t = await token();
    const r = await api('POST', `/workorders/${fx.workOrders.checklist}/notes`, { token: t, json: { NoteData: 'fresh' } });
    expect(r.status).toBe(201);
    const id = /"Id":(\d+)/.exec(r.text)?.[1];
    expectError(await api('GET', `/odata/workorders(${fx.workOrders.checklist})/notes(${id})`, { token: t }), 404, 5003);
    emu.advanceTime(31);
    const t2 = await token();
    expect((await api('GET', `/odata/workorders(${fx.workOrders.checklist})/notes(${id})`, { token: t2 })).status).toBe(200);
  });
});


describe('note attachments', () => {
  test('POST multipart file → 201 attachment record; listed per note and per work order; bytes stored', async () => {
    const t = await token();
    const wo = fx.notes.workOrderId;
    const noteId = fx.notes.max64;
    const fd = new FormData();
    const bytes = Buffer.from('%PDF-1.7 invoice');
    fd.append('file', new Blob([bytes], { type: 'application/pdf' }), 'invoice.pdf');
    const r = await api('POST', `/workorders/${wo}/notes/${noteId}/attachments`, { token: t, body: fd });
    expect(r.status).toBe(201);
    expect(r.text).toContain(`"NoteId":${noteId},`);
    expect(r.body).toMatchObject({
      Id: expect.any(Number),
      WorkOrderId: wo,
      FileName: 'invoice.pdf',
      ContentType: 'application/pdf',
      Size: bytes.length,
      DocumentPath: expect.stringMatching(/^#workorders\//),
      HasThumbnail: false,
    });
    const stored = emu.state.attachments.at(-1);
    expect(stored).toMatchObject({ FileName: 'invoice.pdf', Size: bytes.length, ContentType: 'application/pdf', NoteId: BigInt(noteId) });
    expect(Buffer.compare(stored.data, bytes)).toBe(0);
    const perNote = await api('GET', `/odata/workorders(${wo})/notes(${noteId})/attachments`, { token: t });
    expect(perNote.body.value.map((/** @type {any} */ a) => a.Id)).toEqual([r.body.Id]);
    const perWo = await api('GET', `/odata/workorders(${wo})/attachments?$count=true`, { token: t });
    expect(perWo.body['@odata.count']).toBe(2); // fixture attachment + this one
    const note = await api('GET', `/odata/workorders(${wo})/notes(${noteId})`, { token: t });
    expect(note.body.Attachments.map((/** @type {any} */ a) => a.FileName)).toEqual(['invoice.pdf']);
  });

  test('attachment errors: missing file part 400, not multipart 415, unknown note 404, unknown work order 404', async () => {
    const t = await token();
    const wo = fx.notes.workOrderId;
    const fd = new FormData();
    fd.append('other', 'x');
    expectError(await api('POST', `/workorders/${wo}/notes/${fx.notes.big31}/attachments`, { token: t, body: fd }), 400, 2005);
    expectError(await api('POST', `/workorders/${wo}/notes/${fx.notes.big31}/attachments`, { token: t, json: {} }), 415, 2002);
    const f2 = new FormData();
    f2.append('file', new Blob([Buffer.from('x')]), 'x.bin');
    expectError(await api('POST', `/workorders/${wo}/notes/123/attachments`, { token: t, body: f2 }), 404, 5003);
    const f3 = new FormData();
    f3.append('file', new Blob([Buffer.from('x')]), 'x.bin');
    expectError(await api('POST', `/workorders/99999999/notes/1/attachments`, { token: t, body: f3 }), 404, 5002);
    expect(emu.state.attachments).toHaveLength(1);
  });
});

// =================================================================================================
