'use strict';
/**
 * workOrderNote.addAttachment: POST /workorders/{wo}/notes/{id}/attachments as multipart with the
 * reference's parts (AddAttachmentsRequest: a JSON array describing the file; file: the item's
 * binary), to int64 note IDs (2^31, 2^53 + 1, 2^63 - 1, a created note above 2^53). The 201 answer
 * has no documented body: the item says what was done, with the new attachment IDs when they came.
 */
const {
	useEnvironment,
	expectBearer,
	pairedIndexes,
	expectValidationError,
	expectApiError,
} = require('../helpers');
const notes = require('./notes');

const { WO, CREATE_WO, BIG31, BIG53, MAX64, attachmentOut, fileItem } = notes;

const env = useEnvironment();

describe('workOrderNote.addAttachment', () => {
	const PNG = Buffer.from([
		0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0x00, 0x00, 0x00, 0x0d, 0x2d, 0x2d, 0xff,
	]);

	test.each([
		[MAX64, MAX64],
		[BIG53, BIG53],
		[BIG31, BIG31],
	])(
		'to note %s: multipart file part, exact path, the attachment is the item',
		async (noteId, expectedNoteId) => {
			const r = await env.run({
				parameters: {
					resource: 'workOrderNote',
					operation: 'addAttachment',
					workOrderId: WO,
					noteId,
					binaryPropertyName: 'data',
				},
				items: [fileItem({}, 'data', PNG, 'gauge reading.png', 'image/png')],
			});
			expect(r.error).toBeUndefined();
			expect(r.api).toHaveLength(1);
			const q = r.api[0];
			expect(q.method).toBe('POST');
			expect(q.path).toBe(`/api/v3/workorders/${WO}/notes/${noteId}/attachments`);
			expect(q.rawPath).toBe(`/api/v3/workorders/${WO}/notes/${noteId}/attachments`);
			expect(q.query).toEqual({});
			expect(q.headers['content-type']).toMatch(/^multipart\/form-data; boundary=\S+$/);
			expectBearer(env, q);
			expect(q.parts.map((p) => p.name)).toEqual(['AddAttachmentsRequest', 'file']);
			expect(q.parts[0].json).toEqual([
				{ Name: 'gauge reading.png', Type: 'File', MediaType: 'image/png' },
			]);
			expect(q.parts[1]).toMatchObject({
				name: 'file',
				filename: 'gauge reading.png',
				contentType: 'image/png',
				size: PNG.length,
			});
			expect(Buffer.compare(q.parts[1].data, PNG)).toBe(0);
			expect(q.status).toBe(201);

			const stored = env.emulator.state.attachments.at(-1);
			expect(stored.NoteId).toBe(BigInt(noteId));
			expect(Buffer.compare(stored.data, PNG)).toBe(0);
			expect(r.output).toEqual([
				{
					json: {
						success: true,
						operation: 'addAttachment',
						workOrderId: WO,
						noteId: expectedNoteId,
						fileName: 'gauge reading.png',
						mimeType: 'image/png',
						fileSize: PNG.length,
						ids: [stored.Id],
					},
					pairedItem: { item: 0 },
				},
			]);
			expect(attachmentOut(env, stored)).toMatchObject({
				Name: 'gauge reading.png',
				NoteId: expectedNoteId,
			});
		},
	);

	test('the options describe the file in the AddAttachmentsRequest part', async () => {
		const r = await env.run({
			parameters: {
				resource: 'workOrderNote',
				operation: 'addAttachment',
				workOrderId: WO,
				noteId: BIG53,
				binaryPropertyName: 'data',
				additionalFields: {
					description: 'Nameplate photo',
					fileName: 'nameplate.png',
					visibility: 'notProvider',
					isInvoiceDigitalCopy: false,
				},
			},
			items: [fileItem({}, 'data', PNG, 'IMG_0001.png', 'image/png')],
		});
		expect(r.error).toBeUndefined();
		expect(r.api[0].parts[0]).toMatchObject({
			name: 'AddAttachmentsRequest',
			contentType: 'application/json',
		});
		expect(r.api[0].parts[0].json).toEqual([
			{
				Name: 'nameplate.png',
				Type: 'File',
				MediaType: 'image/png',
				Description: 'Nameplate photo',
				Visibility: 2,
				IsInvoiceDigitalCopy: false,
			},
		]);
		const stored = env.emulator.state.attachments.at(-1);
		expect(attachmentOut(env, stored)).toMatchObject({
			Name: 'nameplate.png',
			Description: 'Nameplate photo',
			Visibility: 2,
			NoteId: BIG53,
		});
	});

	test('the service answers nothing: the item says what was done, without IDs', async () => {
		env.emulator.setAnswers({ noteAttachmentsCreated: 'empty' });
		try {
			const r = await env.run({
				parameters: {
					resource: 'workOrderNote',
					operation: 'addAttachment',
					workOrderId: WO,
					noteId: BIG31,
					binaryPropertyName: 'data',
				},
				items: [fileItem({}, 'data', PNG, 'p.png', 'image/png')],
			});
			expect(r.api[0].status).toBe(201);
			expect(r.api[0].responseBody ?? '').toBe('');
			expect(r.output.map((o) => o.json)).toEqual([
				{
					success: true,
					operation: 'addAttachment',
					workOrderId: WO,
					noteId: BIG31,
					fileName: 'p.png',
					mimeType: 'image/png',
					fileSize: PNG.length,
				},
			]);
		} finally {
			env.emulator.setAnswers({ noteAttachmentsCreated: 'ids' });
		}
	});

	test('to the created note (ID > 2^53)', async () => {
		// a note created through the node, so that this file stands alone
		const created = await env.run({
			parameters: {
				resource: 'workOrderNote',
				operation: 'create',
				workOrderId: CREATE_WO,
				note: 'Just text',
			},
		});
		expect(created.error).toBeUndefined();
		const note = env.emulator.state.notes[CREATE_WO].find((n) => n.NoteData === 'Just text');
		expect(note.Id > 9007199254740992n).toBe(true);
		const noteId = note.Id.toString();
		const r = await env.run({
			parameters: {
				resource: 'workOrderNote',
				operation: 'addAttachment',
				workOrderId: CREATE_WO,
				noteId,
				binaryPropertyName: 'doc',
			},
			items: [fileItem({}, 'doc', Buffer.from('%PDF-1.7 quote'), 'quote.pdf', 'application/pdf')],
		});
		expect(r.error).toBeUndefined();
		expect(r.api[0].path).toBe(`/api/v3/workorders/${CREATE_WO}/notes/${noteId}/attachments`);
		expect(r.output[0].json).toMatchObject({ noteId, ids: [note.Attachments.at(-1).Id] });
		expect(note.Attachments.at(-1).FileName).toBe('quote.pdf');
	});

	test('several items with their own files -> one upload each; Continue On Fail with a missing binary', async () => {
		const a = Buffer.from('first file');
		const c = Buffer.from([0, 1, 2, 3, 254, 255]);
		const r = await env.run({
			parameters: {
				resource: 'workOrderNote',
				operation: 'addAttachment',
				workOrderId: WO,
				noteId: '={{ $json.note }}',
				binaryPropertyName: 'file',
			},
			items: [
				fileItem({ note: BIG31 }, 'file', a, 'a.txt', 'text/plain'),
				{ json: { note: BIG53 } },
				fileItem({ note: MAX64 }, 'file', c, 'c.bin', 'application/octet-stream'),
			],
			continueOnFail: true,
		});
		expect(r.result.status).toBe('success');
		expect(r.api.map((q) => q.path)).toEqual([
			`/api/v3/workorders/${WO}/notes/${BIG31}/attachments`,
			`/api/v3/workorders/${WO}/notes/${MAX64}/attachments`,
		]);
		expect(Buffer.compare(r.api[0].parts[1].data, a)).toBe(0);
		expect(Buffer.compare(r.api[1].parts[1].data, c)).toBe(0);
		expect(r.api[1].parts[1]).toMatchObject({
			filename: 'c.bin',
			contentType: 'application/octet-stream',
		});
		expect(pairedIndexes(r.output)).toEqual([0, 1, 2]);
		expect(r.output[0].json).toMatchObject({ success: true, noteId: BIG31 });
		expect(r.output[1].json.error).toContain(
			'Invalid Input Binary Field (parameter "binaryPropertyName") in item 1',
		);
		expect(r.output[2].json).toMatchObject({ success: true, noteId: MAX64 });
	});

	test.each([
		['bad note ID', { note: '9223372036854775808' }, 'noteId', /64-bit maximum/],
		['bad work order ID', { wo: 0 }, 'workOrderId', /1 or greater/],
		[
			'missing binary property',
			{ key: 'other' },
			'binaryPropertyName',
			/no binary property "data"/,
		],
		['empty file', { bytes: '' }, 'binaryPropertyName', /is empty \(0 bytes\)/],
	])('%s is refused before any request', async (_name, bad, parameter, problem) => {
		const good = { note: BIG53, wo: WO, key: 'data', bytes: 'abc' };
		const value = { ...good, ...bad };
		const r = await env.run({
			parameters: {
				resource: 'workOrderNote',
				operation: 'addAttachment',
				workOrderId: '={{ $json.wo }}',
				noteId: '={{ $json.note }}',
				binaryPropertyName: 'data',
			},
			items: [
				fileItem(good, good.key, Buffer.from(good.bytes), 'ok.txt', 'text/plain'),
				fileItem(value, value.key, Buffer.from(value.bytes), 'bad.txt', 'text/plain'),
			],
		});
		expectValidationError(r, { parameter, item: 1, problem });
		expect(r.api).toHaveLength(1);
		expect(r.api[0].parts[1].filename).toBe('ok.txt');
	});

	test('the service refusal for an unknown note is a NodeApiError', async () => {
		const r = await env.run({
			parameters: {
				resource: 'workOrderNote',
				operation: 'addAttachment',
				workOrderId: WO,
				noteId: '42',
				binaryPropertyName: 'data',
			},
			items: [fileItem({}, 'data', Buffer.from('x'), 'x.txt', 'text/plain')],
		});
		expect(r.api).toHaveLength(1);
		expectApiError(r, {
			status: 404,
			serviceMessage: `Note 42 of work order ${WO} was not found`,
			code: 5003,
		});
	});
});
