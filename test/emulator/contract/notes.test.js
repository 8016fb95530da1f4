'use strict';

/**
 * Work order notes with int64 IDs (REST and OData, paging, create, replica lag) and note
 * attachments (multipart upload with its AddAttachmentsRequest part, lists per note and per work
 * order, errors), as the reference has them: NotesPage, Note, Attachment (with Uri), the
 * CreateNoteRequest body, answers without a documented body (201, "maybe the ID, maybe nothing").
 * Every test starts a fresh emulator on a free port (./helpers.js) and talks to it over real HTTP.
 */

const { useEmulator, token, api, expectError } = require('./helpers');
const { propertyNames } = require('../../contract/reference');

/** @type {import('../index').Emulator} */
let emu;
/** @type {any} */
let fx;
useEmulator((e) => {
	emu = e;
	fx = e.fixtures;
});

describe('work order notes (int64 ids)', () => {
	test('GET /workorders/{id}/notes: the NotesPage; ids above 2^31, 2^53 and the int64 maximum as exact literals', async () => {
		const r = await api('GET', `/workorders/${fx.notes.workOrderId}/notes`, {
			token: await token(),
		});
		expect(r.status).toBe(200);
		for (const id of [fx.notes.big31, fx.notes.big53, fx.notes.max64]) {
			expect(r.text).toContain(`"Id":${id},`);
			expect(r.text).not.toContain(`"${id}"`);
		}
		expect(Object.keys(r.body)).toEqual([
			'Notes',
			'AllNotesCount',
			'UserNotesCount',
			'SystemNotesCount',
		]);
		expect(r.body).toMatchObject({ AllNotesCount: 4, UserNotesCount: 4, SystemNotesCount: 0 });
		expect(r.body.Notes).toHaveLength(4);
		expect(Object.keys(r.body.Notes[0])).toEqual(propertyNames('Note'));
		// newest first; DateCreated is the service's local time without an offset (no twin)
		expect(r.body.Notes[0].DateCreated).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}$/);
		expect(r.body.Notes.map((/** @type {any} */ n) => n.Number)).toEqual([4, 3, 2, 1]);
	});

	test('paging=page:size (default 1:10) pages the notes list; a malformed paging value is 400 (922)', async () => {
		const t = await token();
		const p1 = await api('GET', `/workorders/${fx.notes.workOrderId}/notes?paging=1:3`, {
			token: t,
		});
		const p2 = await api('GET', `/workorders/${fx.notes.workOrderId}/notes?paging=2:3`, {
			token: t,
		});
		expect(p1.body.Notes).toHaveLength(3);
		expect(p2.body.Notes).toHaveLength(1);
		expect(p1.body.AllNotesCount).toBe(4);
		expect(p2.body.AllNotesCount).toBe(4);
		expectError(
			await api('GET', `/workorders/${fx.notes.workOrderId}/notes?paging=first`, { token: t }),
			400,
			922,
		);
	});

	test('POST /workorders/{id}/notes: a CreateNoteRequest (Note required); 201 with the new ID (above 2^53) as the only body', async () => {
		const t = await token();
		const wo = fx.notes.workOrderId;
		const why = 'a CreateNoteRequest the service refuses';
		const post = (/** @type {any} */ json) =>
			api('POST', `/workorders/${wo}/notes`, { token: t, json, deliberate: why });
		expectError(await post({}), 400, 503);
		expectError(await post({ Note: '   ' }), 400, 503);
		expectError(await post({ Note: 5 }), 400, 503);
		expectError(await post({ NoteData: 'the reading name' }), 400, 503);
		expectError(await post({ Note: 'x', IsPinned: true }), 400, 503);
		expectError(await post({ Note: 'x', ActionRequired: 'yes' }), 400, 503);
		expectError(await post({ Note: 'x', MailedTo: 'a@b.example;broken' }), 400, 503);
		expectError(await post({ Note: 'x', ScheduledDate: 'tomorrow' }), 400, 503);
		expectError(await post({ Note: 'x', Visibility: 4 }), 400, 503);
		expectError(await post({ Note: 'x', AttachmentsIds: [424242] }), 400, 503);
		const r = await api('POST', `/workorders/${wo}/notes`, {
			token: t,
			json: {
				Note: 'Please call before arrival',
				MailedTo: 'a@shop.example; b@shop.example',
				ActionRequired: true,
				ScheduledDate: '2030-01-02T10:00:00Z',
				FollowUpDate: '2030-01-05T00:00:00',
				IsFollowUpDateChanged: true,
				AttachmentsIds: [fx.notes.attachmentId],
				Visibility: 3,
				NotifyFollowers: true,
				DoNotSendEmail: false,
				Actor: 'Front desk',
			},
		});
		expect(r.status).toBe(201);
		expect(r.text).toBe('9007199254741000');
		const stored = emu.notesOf(wo).at(-1);
		expect(stored).toMatchObject({
			Id: 9007199254741000n,
			Number: 5,
			NoteData: 'Please call before arrival',
			MailedTo: 'a@shop.example;b@shop.example',
			ActionRequired: true,
			ScheduledDate: '2030-01-02T05:00:00.000', // US Eastern
			FollowUpDate: '2030-01-05T00:00:00.000',
			Visibility: 3,
			CreatedBy: 'Front desk',
			NoteType: 'UsersNote',
		});
		expect(stored.Attachments.map((/** @type {any} */ a) => a.Id)).toEqual([fx.notes.attachmentId]);
		expect(emu.workOrder(wo).Notes).toMatchObject({
			Last: { Id: 9007199254741000n, NoteData: 'Please call before arrival' },
			Count: { Total: 5, Own: 5 },
		});
		expect(emu.state.notifications.at(-1)).toMatchObject({
			type: 'note',
			recipients: ['a@shop.example', 'b@shop.example'],
		});
		const next = await api('POST', `/workorders/${wo}/notes`, {
			token: t,
			json: { Note: 'second', DoNotSendEmail: true, MailedTo: 'c@shop.example' },
		});
		expect(next.text).toBe('9007199254741001');
		expect(emu.state.notifications).toHaveLength(1);
		const list = await api('GET', `/workorders/${wo}/notes?paging=1:1`, { token: t });
		expect(list.text).toContain('"Id":9007199254741001');
		expect(list.body.AllNotesCount).toBe(6);
	});

	test.each([
		['object', (/** @type {any} */ r) => expect(r.text).toBe('{"Id":9007199254741000}')],
		[
			'empty',
			(/** @type {any} */ r) => expect([r.text, r.headers.get('location')]).toEqual(['', null]),
		],
		[
			'location',
			(/** @type {any} */ r) =>
				expect([r.text, r.headers.get('location')]).toEqual([
					'',
					`${emu.baseUrl}/v3/odata/workorders(${fx.notes.workOrderId})/notes(9007199254741000)`,
				]),
		],
	])(
		'setAnswers({ noteCreated: %j }): the other answers the reference allows',
		async (answer, expectAnswer) => {
			emu.setAnswers({ noteCreated: /** @type {any} */ (answer) });
			const r = await api('POST', `/workorders/${fx.notes.workOrderId}/notes`, {
				token: await token(),
				json: { Note: 'x' },
			});
			expect(r.status).toBe(201);
			expectAnswer(r);
			expect(() => emu.setAnswers({ noteCreated: /** @type {any} */ ('maybe') })).toThrow(
				/one of id, object, empty, location/,
			);
		},
	);

	test('incoming JSON bodies are parsed without losing digits (BigInt in the request log)', async () => {
		const t = await token();
		await api('POST', `/workorders/${fx.notes.workOrderId}/notes`, {
			token: t,
			json: '{"Note":"reply","AttachmentsIds":[9223372036854775807]}',
			deliberate: 'an attachment ID beyond int32',
		});
		expect(emu.requests.at(-1).body.AttachmentsIds[0]).toBe(9223372036854775807n);
	});

	test('OData notes list and single note by int64 id (an array even for one note); ids beyond int64 are 400, unknown ids 404', async () => {
		const t = await token();
		const wo = fx.notes.workOrderId;
		const list = await api('GET', `/odata/workorders(${wo})/notes`, { token: t });
		expect(list.status).toBe(200);
		expect(list.text).toContain(
			`"@odata.context":"${emu.baseUrl}/v3/odata/$metadata#WorkOrders(${wo})/Notes"`,
		);
		expect(list.text).toContain(`"Id":${fx.notes.max64}`);
		expect(list.body.value).toHaveLength(4);
		const one = await api('GET', `/odata/workorders(${wo})/notes(${fx.notes.max64})`, { token: t });
		expect(one.status).toBe(200);
		expect(one.text).toMatch(new RegExp(`"value":\\[\\{"Id":${fx.notes.max64},"Number":4,`));
		expect(one.body.value).toHaveLength(1);
		const big53 = await api('GET', `/odata/workorders(${wo})/notes(${fx.notes.big53})`, {
			token: t,
		});
		expect(big53.text).toContain(`"Id":${fx.notes.big53},`);
		expect(big53.text).toContain(`"NoteId":${fx.notes.big53},`);
		const why = 'a note ID the service refuses';
		expectError(
			await api('GET', `/odata/workorders(${wo})/notes(9223372036854775808)`, {
				token: t,
				deliberate: why,
			}),
			400,
			2004,
		);
		expectError(
			await api('GET', `/odata/workorders(${wo})/notes(9007199254740992)`, { token: t }),
			404,
			5003,
		);
		expectError(
			await api('GET', `/odata/workorders(${wo})/notes(abc)`, { token: t, deliberate: why }),
			400,
			2004,
		);
		const filtered = await api(
			'GET',
			`/odata/workorders(${wo})/notes?$filter=Id eq ${fx.notes.big53}`,
			{ token: t },
		);
		expect(filtered.body.value).toHaveLength(1);
		expect(filtered.text).toContain(`"Id":${fx.notes.big53}`);
		const since = await api(
			'GET',
			`/odata/workorders(${wo})/notes?${new URLSearchParams({ $filter: `DateCreated ge ${emu.formatDate(emu.now() - 45 * 3600e3).dto}`, $orderby: 'DateCreated desc' })}`,
			{ token: t },
		);
		expect([...since.text.matchAll(/"Id":(\d+),"Number"/g)].map((m) => m[1])).toEqual([
			fx.notes.max64,
			fx.notes.big53,
		]);
	});

	test('replicaLagMs: a note created a moment ago is not readable yet', async () => {
		emu.setFaults({ replicaLagMs: 30000 });
		emu.setAnswers({ noteCreated: 'object' });
		const t = await token();
		const r = await api('POST', `/workorders/${fx.workOrders.checklist}/notes`, {
			token: t,
			json: { Note: 'fresh' },
		});
		expect(r.status).toBe(201);
		const id = /"Id":(\d+)/.exec(r.text)?.[1];
		expectError(
			await api('GET', `/odata/workorders(${fx.workOrders.checklist})/notes(${id})`, { token: t }),
			404,
			5003,
		);
		emu.advanceTime(31);
		const t2 = await token();
		expect(
			(
				await api('GET', `/odata/workorders(${fx.workOrders.checklist})/notes(${id})`, {
					token: t2,
				})
			).status,
		).toBe(200);
	});
});

describe('note attachments', () => {
	test('POST multipart (AddAttachmentsRequest + file) → 201 with the new IDs; the Attachment is listed per note and per work order; bytes stored', async () => {
		const t = await token();
		const wo = fx.notes.workOrderId;
		const noteId = fx.notes.max64;
		const fd = new FormData();
		const bytes = Buffer.from('%PDF-1.7 invoice');
		fd.append(
			'AddAttachmentsRequest',
			new Blob(
				[
					JSON.stringify([
						{
							Name: 'Invoice 42.pdf',
							Description: 'Parts invoice',
							Type: 'File',
							MediaType: 'application/pdf',
							Visibility: 2,
						},
					]),
				],
				{ type: 'application/json' },
			),
		);
		fd.append('file', new Blob([bytes], { type: 'application/pdf' }), 'invoice.pdf');
		const r = await api('POST', `/workorders/${wo}/notes/${noteId}/attachments`, {
			token: t,
			body: fd,
		});
		expect(r.status).toBe(201);
		const stored = emu.state.attachments.at(-1);
		expect(r.body).toEqual([stored.Id]);
		expect(stored).toMatchObject({
			FileName: 'Invoice 42.pdf',
			Description: 'Parts invoice',
			Visibility: 2,
			Size: bytes.length,
			ContentType: 'application/pdf',
			NoteId: BigInt(noteId),
		});
		expect(Buffer.compare(stored.data, bytes)).toBe(0);
		const perNote = await api('GET', `/odata/workorders(${wo})/notes(${noteId})/attachments`, {
			token: t,
		});
		expect(perNote.text).toContain(`"NoteId":${noteId},`);
		expect(perNote.body.value).toEqual([
			{
				Id: stored.Id,
				Description: 'Parts invoice',
				Name: 'Invoice 42.pdf',
				TimeStamp: expect.stringMatching(/^\d{4}-\d\d-\d\dT[\d:.]+$/),
				Uri: `${emu.baseUrl}/v3/files/attachments/${stored.Id}/Invoice%2042.pdf`,
				NoteId: expect.anything(),
				Visibility: 2,
			},
		]);
		const perWo = await api('GET', `/odata/workorders(${wo})/attachments?$count=true`, {
			token: t,
		});
		expect(perWo.body['@odata.count']).toBe(2); // fixture attachment + this one
		const note = await api('GET', `/odata/workorders(${wo})/notes(${noteId})`, { token: t });
		expect(note.body.value[0].Attachments.map((/** @type {any} */ a) => a.Name)).toEqual([
			'Invoice 42.pdf',
		]);
		expect(emu.workOrder(wo).Attachments).toEqual({ Count: { Total: 2, Own: 2 } });
	});

	test('without a descriptor the file keeps its name; setAnswers({ noteAttachmentsCreated: "empty" }) answers 201 without a body', async () => {
		const t = await token();
		emu.setAnswers({ noteAttachmentsCreated: 'empty' });
		const fd = new FormData();
		fd.append('file', new Blob([Buffer.from('x')], { type: 'text/plain' }), 'x.txt');
		const r = await api(
			'POST',
			`/workorders/${fx.notes.workOrderId}/notes/${fx.notes.big31}/attachments`,
			{ token: t, body: fd },
		);
		expect([r.status, r.text]).toEqual([201, '']);
		expect(emu.state.attachments.at(-1)).toMatchObject({
			FileName: 'x.txt',
			Description: null,
			Visibility: null,
		});
	});

	test('attachment errors: missing file part 400, a bad descriptor 400, not multipart 415, unknown note 404, unknown work order 404', async () => {
		const t = await token();
		const wo = fx.notes.workOrderId;
		const why = 'an upload the service refuses';
		const form = (/** @type {Record<string, any>} */ parts) => {
			const fd = new FormData();
			for (const [name, value] of Object.entries(parts)) {
				if (name === 'file') fd.append(name, value, 'x.bin');
				else fd.append(name, value);
			}
			return fd;
		};
		expectError(
			await api('POST', `/workorders/${wo}/notes/${fx.notes.big31}/attachments`, {
				token: t,
				body: form({ other: 'x' }),
				deliberate: why,
			}),
			400,
			503,
		);
		expectError(
			await api('POST', `/workorders/${wo}/notes/${fx.notes.big31}/attachments`, {
				token: t,
				body: form({ AddAttachmentsRequest: '[]' }),
				deliberate: why,
			}),
			400,
			503,
		);
		expectError(
			await api('POST', `/workorders/${wo}/notes/${fx.notes.big31}/attachments`, {
				token: t,
				body: form({ AddAttachmentsRequest: '{"Name":"x"}', file: new Blob(['x']) }),
				deliberate: why,
			}),
			400,
			503,
		);
		expectError(
			await api('POST', `/workorders/${wo}/notes/${fx.notes.big31}/attachments`, {
				token: t,
				body: form({ AddAttachmentsRequest: '[{"Type":"Photo"}]', file: new Blob(['x']) }),
				deliberate: why,
			}),
			400,
			503,
		);
		expectError(
			await api('POST', `/workorders/${wo}/notes/${fx.notes.big31}/attachments`, {
				token: t,
				json: {},
				deliberate: why,
			}),
			415,
			2002,
		);
		expectError(
			await api('POST', `/workorders/${wo}/notes/123/attachments`, {
				token: t,
				body: form({ file: new Blob(['x']) }),
			}),
			404,
			5003,
		);
		expectError(
			await api('POST', `/workorders/99999999/notes/1/attachments`, {
				token: t,
				body: form({ file: new Blob(['x']) }),
			}),
			404,
			5002,
		);
		expect(emu.state.attachments).toHaveLength(1);
	});
});
