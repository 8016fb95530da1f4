'use strict';
/**
 * workOrderNote.getAll / get / create / addAttachment / getAttachments, with the int64 note-ID
 * round trip (2^31, 2^53 + 1, 2^63 - 1 and created IDs above 2^53).
 */
const {
	useEnvironment,
	items,
	expectBearer,
	expectGet,
	expectJsonRequest,
	pairedIndexes,
	expectValidationError,
	expectApiError,
	responseJson,
} = require('./helpers');

const env = useEnvironment();

const WO = 90000005; // fixtures.notes.workOrderId
const PAGED_WO = 90000003; // gets 60 extra notes for the paging tests
const CREATE_WO = 90000002;
const BIG31 = '2147483648';
const BIG53 = '9007199254740993';
const MAX64 = '9223372036854775807';

/**
 * A value the emulator sent as the node's lossless parser reads it: integers beyond 2^53 as exact
 * strings, safe integers as numbers (the emulator's lossless parser gives BigInt for the former).
 */
function parsedShape(value) {
	if (typeof value === 'bigint') return Number.isSafeInteger(Number(value)) ? Number(value) : value.toString();
	if (Array.isArray(value)) return value.map(parsedShape);
	if (value && typeof value === 'object') {
		const out = {};
		for (const [k, v] of Object.entries(value)) out[k] = parsedShape(v);
		return out;
	}
	return value;
}

/** A note ID as the node emits it: always a decimal string, whatever its size. */
const idText = (id) => (id === null || id === undefined ? id : String(id));

/**
 * What the node emits for a note record the emulator sent: the note's Id and every NoteId (its
 * attachments') as decimal strings, every other field as parsed.
 */
function nodeShape(note) {
	const out = parsedShape(note);
	out.Id = idText(note.Id);
	if (Array.isArray(out.Attachments)) out.Attachments = out.Attachments.map((a) => ({ ...a, NoteId: idText(a.NoteId) }));
	return out;
}

/** The emulator's stored note, in its public (wire) shape. */
function storedNote(woId, id) {
	const note = env.emulator.state.notes[woId].find((n) => n.Id === BigInt(id));
	expect(note).toBeDefined();
	const { _createdAt, ...rest } = note;
	return { ...rest, Attachments: rest.Attachments.map(({ sha256, data, ...a }) => a) };
}

function attachmentOut(a) {
	const { sha256, data, ...rest } = a;
	return { ...parsedShape(rest), NoteId: idText(rest.NoteId) };
}

function fileItem(json, key, data, fileName, mimeType) {
	return { json, binary: { [key]: { base64: data.toString('base64'), fileName, mimeType } } };
}

const INJECTED = [];
beforeAll(() => {
	// 60 more notes on one work order, so that Return All needs two pages of 50.
	const template = env.emulator.state.notes[WO][0];
	const now = Date.now();
	env.emulator.state.notes[PAGED_WO] = [];
	for (let k = 1; k <= 60; k++) {
		const id = k % 2 ? 9007199254800000n + BigInt(k) : 3000000000n + BigInt(k);
		const at = now - k * 3600 * 1000;
		const note = {
			...template,
			Id: id,
			WorkOrderId: PAGED_WO,
			NoteData: `Paged note ${k}`,
			DateCreated: new Date(at).toISOString().replace('Z', ''),
			DateCreatedDto: new Date(at).toISOString().replace('Z', '+00:00'),
			Attachments: [],
			_createdAt: 0,
		};
		env.emulator.state.notes[PAGED_WO].push(note);
		INJECTED.push(id); // newest first: k = 1 is the newest
	}
});

describe('workOrderNote.getAll', () => {
	test('lists the notes of a work order: { Notes, AllNotesCount } split into items, IDs exact', async () => {
		const r = await env.run({ parameters: { resource: 'workOrderNote', operation: 'getAll', workOrderId: WO, returnAll: true } });
		expect(r.error).toBeUndefined();
		expect(r.api).toHaveLength(1);
		expectGet(r.api[0], { path: `/api/v3/workorders/${WO}/notes`, query: { paging: '1:50' } });
		expectBearer(env, r.api[0]);
		const body = responseJson(r.api[0]);
		expect(body.AllNotesCount).toBe(4);
		// every note ID is a decimal string, below 2^53 as well as above: one type for the field
		expect(r.output.map((o) => o.json.Id)).toEqual([MAX64, BIG53, BIG31, '15001']);
		expect(r.output.map((o) => o.json)).toEqual(body.Notes.map(nodeShape));
		expect(r.output.map((o) => o.json)).toEqual([MAX64, BIG53, BIG31, '15001'].map((id) => nodeShape(storedNote(WO, id))));
		expect(pairedIndexes(r.output)).toEqual([0, 0, 0, 0]);
	});

	test('Return All across pages: paging=1:50 then 2:50 (the emulator\'s page:size convention)', async () => {
		const r = await env.run({ parameters: { resource: 'workOrderNote', operation: 'getAll', workOrderId: PAGED_WO, returnAll: true } });
		expect(r.error).toBeUndefined();
		expect(r.api.map((q) => q.query)).toEqual([{ paging: '1:50' }, { paging: '2:50' }]);
		r.api.forEach((q) => expectGet(q, { path: `/api/v3/workorders/${PAGED_WO}/notes`, query: q.query }));
		const pages = r.api.map(responseJson);
		expect(pages.map((p) => [p.Page, p.PageSize, p.Notes.length, p.AllNotesCount])).toEqual([
			[1, 50, 50, 60],
			[2, 50, 10, 60],
		]);
		expect(r.output).toHaveLength(60);
		expect(r.output.map((o) => o.json.Id)).toEqual(INJECTED.map(idText));
		expect(r.output.map((o) => o.json.NoteData)).toEqual(INJECTED.map((_, k) => `Paged note ${k + 1}`));
		// one type across items: 9007199254800001 (> 2^53) and 3000000002 (< 2^53) are both strings
		expect(r.output[0].json.Id).toBe('9007199254800001');
		expect(r.output[1].json.Id).toBe('3000000002');
		expect(r.output.every((o) => typeof o.json.Id === 'string')).toBe(true);
	});

	test('Limit 55: two pages, 55 items', async () => {
		const r = await env.run({ parameters: { resource: 'workOrderNote', operation: 'getAll', workOrderId: PAGED_WO, returnAll: false, limit: 55 } });
		expect(r.error).toBeUndefined();
		expect(r.api.map((q) => q.query)).toEqual([{ paging: '1:50' }, { paging: '2:50' }]);
		expect(r.output.map((o) => o.json.Id)).toEqual(INJECTED.slice(0, 55).map(idText));
	});

	test('Limit 3: one page, first 3 items', async () => {
		const r = await env.run({ parameters: { resource: 'workOrderNote', operation: 'getAll', workOrderId: PAGED_WO, limit: 3 } });
		expect(r.api).toHaveLength(1);
		expect(r.api[0].query).toEqual({ paging: '1:50' });
		expect(r.output.map((o) => o.json.Id)).toEqual(INJECTED.slice(0, 3).map(idText));
	});

	test('bad Limit is refused before any request, naming the parameter and the item', async () => {
		const r = await env.run({
			parameters: { resource: 'workOrderNote', operation: 'getAll', workOrderId: WO, limit: '={{ $json.n }}' },
			items: items({ n: 1 }, { n: 0 }),
		});
		expectValidationError(r, { parameter: 'limit', item: 1, problem: /1 or greater/ });
		expect(r.api.map((q) => q.query)).toEqual([{ paging: '1:50' }]);
	});

	test('several input items and Continue On Fail: per-item lists, a bad work order ID is an error item', async () => {
		const r = await env.run({
			parameters: { resource: 'workOrderNote', operation: 'getAll', workOrderId: '={{ $json.wo }}', limit: 2 },
			items: items({ wo: WO }, { wo: 'x' }, { wo: 90000001 }, { wo: 12345 }),
			continueOnFail: true,
		});
		expect(r.result.status).toBe('success');
		expect(r.api.map((q) => q.path)).toEqual([
			`/api/v3/workorders/${WO}/notes`,
			'/api/v3/workorders/90000001/notes',
			'/api/v3/workorders/12345/notes',
		]);
		expect(pairedIndexes(r.output)).toEqual([0, 0, 1, 2, 3]);
		expect(r.output.map((o) => o.json.Id ?? null)).toEqual([MAX64, BIG53, null, '15002', null]);
		expect(r.output[2].json.error).toContain('Invalid Work Order ID (parameter "workOrderId") in item 1');
		expect(r.output[4].json.error).toContain('Work order 12345 was not found');
	});
});

describe('workOrderNote.get', () => {
	test.each([
		[BIG31, BIG31],
		[BIG53, BIG53],
		[MAX64, MAX64],
		['15001', '15001'],
	])('note %s: the path carries the exact digits, the Id comes back exact (as text)', async (id, expectedId) => {
		const r = await env.run({ parameters: { resource: 'workOrderNote', operation: 'get', workOrderId: WO, noteId: id } });
		expect(r.error).toBeUndefined();
		expect(r.api).toHaveLength(1);
		expectGet(r.api[0], { path: `/api/v3/odata/workorders(${WO})/notes(${id})` });
		expect(r.api[0].rawPath).toBe(`/api/v3/odata/workorders(${WO})/notes(${id})`);
		expectBearer(env, r.api[0]);
		expect(r.output).toHaveLength(1);
		expect(r.output[0].json.Id).toBe(expectedId);
		expect(r.output[0].json).toEqual(nodeShape(storedNote(WO, id)));
		expect(r.output[0].pairedItem).toEqual({ item: 0 });
	});

	test('IDs from a previous getAll output (all text) round-trip through get', async () => {
		const list = await env.run({ parameters: { resource: 'workOrderNote', operation: 'getAll', workOrderId: WO, returnAll: true } });
		const r = await env.run({
			parameters: { resource: 'workOrderNote', operation: 'get', workOrderId: '={{ $json.WorkOrderId }}', noteId: '={{ $json.Id }}' },
			items: list.output.map((o) => ({ json: o.json })),
		});
		expect(r.error).toBeUndefined();
		expect(r.api.map((q) => q.path)).toEqual([MAX64, BIG53, BIG31, '15001'].map((id) => `/api/v3/odata/workorders(${WO})/notes(${id})`));
		expect(r.output.map((o) => o.json)).toEqual(list.output.map((o) => o.json));
		expect(pairedIndexes(r.output)).toEqual([0, 1, 2, 3]);
	});

	test('an unknown note is a NodeApiError with the service message', async () => {
		const r = await env.run({ parameters: { resource: 'workOrderNote', operation: 'get', workOrderId: WO, noteId: '9223372036854775806' } });
		expectApiError(r, { status: 404, serviceMessage: `Note 9223372036854775806 of work order ${WO} was not found`, code: 5003 });
	});

	const badIds = [
		['beyond int64', '9223372036854775808', /64-bit maximum/],
		['letters', '12a', /digits only/],
		['path injection', '1)/attachments?x=(1', /digits only/],
		['zero', '0', /1 or greater/],
		['negative', '-5', /digits only/],
		['a number beyond 2^53 (already lost digits)', '={{ 9007199254740993 }}', /lost digits/],
	];
	test.each(badIds)('bad note ID (%s) is refused before any request', async (_name, noteId, problem) => {
		const r = await env.run({
			parameters: { resource: 'workOrderNote', operation: 'get', workOrderId: WO, noteId: `={{ $json.good ? "${BIG53}" : $json.bad }}` },
			items: [{ json: { good: true } }, { json: { good: false, bad: noteId.startsWith('=') ? 9007199254740993 : noteId } }],
		});
		expectValidationError(r, { parameter: 'noteId', item: 1, problem });
		expect(r.api.map((q) => q.path)).toEqual([`/api/v3/odata/workorders(${WO})/notes(${BIG53})`]);
	});

	test('Continue On Fail: a bad note ID yields an error item; the others succeed', async () => {
		const r = await env.run({
			parameters: { resource: 'workOrderNote', operation: 'get', workOrderId: WO, noteId: '={{ $json.id }}' },
			items: items({ id: MAX64 }, { id: '9223372036854775808' }, { id: BIG31 }),
			continueOnFail: true,
		});
		expect(r.api).toHaveLength(2);
		expect(pairedIndexes(r.output)).toEqual([0, 1, 2]);
		expect(r.output[0].json.Id).toBe(MAX64);
		expect(r.output[1].json.error).toContain('Invalid Note ID (parameter "noteId") in item 1');
		expect(r.output[2].json.Id).toBe(BIG31);
	});
});

describe('workOrderNote.create', () => {
	let createdId;

	test('POST NoteData with every optional field; the 201 note is the item, its new ID (> 2^53) exact', async () => {
		const before = env.emulator.state.notifications.length;
		const r = await env.run({
			parameters: {
				resource: 'workOrderNote',
				operation: 'create',
				workOrderId: CREATE_WO,
				note: 'Parts arrive Tuesday. Please confirm access.',
				additionalFields: {
					mailedTo: 'ops@demo-retail.example; tech.lead@acme-fs.example',
					actionRequired: true,
					notifyFollowers: true,
					doNotSendEmail: false,
					isPinned: true,
					scheduledDate: '2026-06-01T08:00:00Z',
					followUpDate: '2026-06-03T08:00:00.000Z',
					visibility: 1,
				},
			},
		});
		expect(r.error).toBeUndefined();
		expect(r.api).toHaveLength(1);
		expectJsonRequest(r.api[0], {
			method: 'POST',
			path: `/api/v3/workorders/${CREATE_WO}/notes`,
			body: {
				NoteData: 'Parts arrive Tuesday. Please confirm access.',
				MailedTo: 'ops@demo-retail.example;tech.lead@acme-fs.example',
				ActionRequired: true,
				NotifyFollowers: true,
				DoNotSendEmail: false,
				IsPinned: true,
				ScheduledDate: '2026-06-01T08:00:00Z',
				FollowUpDate: '2026-06-03T08:00:00.000Z',
				Visibility: 1,
			},
		});
		expectBearer(env, r.api[0]);
		expect(r.api[0].status).toBe(201);
		const stored = env.emulator.state.notes[CREATE_WO].at(-1);
		expect(stored.Id > 9007199254740992n).toBe(true);
		expect(r.output).toHaveLength(1);
		expect(r.output[0].pairedItem).toEqual({ item: 0 });
		createdId = r.output[0].json.Id;
		expect(createdId).toBe(stored.Id.toString());
		expect(r.output[0].json).toEqual(nodeShape(storedNote(CREATE_WO, createdId)));
		expect(r.output[0].json).toMatchObject({
			WorkOrderId: CREATE_WO,
			NoteData: 'Parts arrive Tuesday. Please confirm access.',
			MailedTo: 'ops@demo-retail.example;tech.lead@acme-fs.example',
			ActionRequired: true,
			IsPinned: true,
			Visibility: 1,
			NotifyFollowers: true,
			ScheduledDateDto: '2026-06-01T08:00:00.000+00:00',
		});
		expect(env.emulator.state.notifications.slice(before)).toEqual([
			expect.objectContaining({
				type: 'note',
				workOrderId: CREATE_WO,
				noteId: stored.Id,
				recipients: ['ops@demo-retail.example', 'tech.lead@acme-fs.example'],
				notifyFollowers: true,
			}),
		]);
	});

	test('the created note (ID > 2^53) reads back through get with the exact digits', async () => {
		expect(typeof createdId).toBe('string');
		const r = await env.run({ parameters: { resource: 'workOrderNote', operation: 'get', workOrderId: CREATE_WO, noteId: createdId } });
		expect(r.error).toBeUndefined();
		expect(r.api[0].path).toBe(`/api/v3/odata/workorders(${CREATE_WO})/notes(${createdId})`);
		expect(r.output[0].json.Id).toBe(createdId);
		expect(r.output[0].json.NoteData).toBe('Parts arrive Tuesday. Please confirm access.');
	});

	test('only the note text: body { NoteData }', async () => {
		const r = await env.run({ parameters: { resource: 'workOrderNote', operation: 'create', workOrderId: CREATE_WO, note: 'Just text' } });
		expect(r.error).toBeUndefined();
		expectJsonRequest(r.api[0], { method: 'POST', path: `/api/v3/workorders/${CREATE_WO}/notes`, body: { NoteData: 'Just text' } });
		expect(typeof r.output[0].json.Id).toBe('string');
		expect(BigInt(r.output[0].json.Id)).toBe(env.emulator.state.notes[CREATE_WO].at(-1).Id);
	});

	test('several items -> one POST each, distinct exact IDs; Continue On Fail with a bad e-mail', async () => {
		const r = await env.run({
			parameters: {
				resource: 'workOrderNote',
				operation: 'create',
				workOrderId: CREATE_WO,
				note: '={{ $json.text }}',
				additionalFields: { mailedTo: '={{ $json.to }}' },
			},
			items: items({ text: 'one', to: 'a@demo-retail.example' }, { text: 'two', to: 'not an e-mail' }, { text: 'three', to: '' }),
			continueOnFail: true,
		});
		expect(r.result.status).toBe('success');
		expect(r.api.map((q) => q.body)).toEqual([{ NoteData: 'one', MailedTo: 'a@demo-retail.example' }, { NoteData: 'three' }]);
		expect(pairedIndexes(r.output)).toEqual([0, 1, 2]);
		expect(r.output[1].json.error).toContain('Invalid Mailed To (parameter "additionalFields.mailedTo") in item 1');
		const stored = env.emulator.state.notes[CREATE_WO].slice(-2).map((n) => n.Id.toString());
		expect([r.output[0].json.Id, r.output[2].json.Id]).toEqual(stored);
	});

	test.each([
		['empty note', { note: '' }, 'note', /must not be empty/],
		['bad work order ID', { wo: -1 }, 'workOrderId', /1 or greater/],
		['bad e-mail among several', { to: 'ok@demo-retail.example;bad@' }, 'additionalFields.mailedTo', /e-mail address/],
		['bad date', { date: '01/06/2026' }, 'additionalFields.scheduledDate', /ISO 8601/],
		['negative visibility', { vis: -1 }, 'additionalFields.visibility', /must be from 0 to 2147483647/],
		['non-boolean flag', { pin: 'yes' }, 'additionalFields.isPinned', /true or false/],
	])('%s is refused before any request', async (_name, bad, parameter, problem) => {
		const good = { note: 'fine', wo: CREATE_WO, to: '', date: '', vis: 0, pin: false };
		const r = await env.run({
			parameters: {
				resource: 'workOrderNote',
				operation: 'create',
				workOrderId: '={{ $json.wo }}',
				note: '={{ $json.note }}',
				additionalFields: {
					mailedTo: '={{ $json.to }}',
					scheduledDate: '={{ $json.date }}',
					visibility: '={{ $json.vis }}',
					isPinned: '={{ $json.pin }}',
				},
			},
			items: items(good, { ...good, ...bad }),
		});
		expectValidationError(r, { parameter, item: 1, problem });
		expect(r.api).toHaveLength(1);
		expect(r.api[0].body).toEqual({ NoteData: 'fine', IsPinned: false, Visibility: 0 });
	});
});

describe('workOrderNote.addAttachment', () => {
	const PNG = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0x00, 0x00, 0x00, 0x0d, 0x2d, 0x2d, 0xff]);

	test.each([
		[MAX64, MAX64],
		[BIG53, BIG53],
		[BIG31, BIG31],
	])('to note %s: multipart file part, exact path, the attachment is the item', async (noteId, expectedNoteId) => {
		const r = await env.run({
			parameters: { resource: 'workOrderNote', operation: 'addAttachment', workOrderId: WO, noteId, binaryPropertyName: 'data' },
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
		expect(q.parts).toHaveLength(1);
		expect(q.parts[0]).toMatchObject({ name: 'file', filename: 'gauge reading.png', contentType: 'image/png', size: PNG.length });
		expect(Buffer.compare(q.parts[0].data, PNG)).toBe(0);
		expect(q.status).toBe(201);

		const stored = env.emulator.state.attachments.at(-1);
		expect(stored.NoteId).toBe(BigInt(noteId));
		expect(Buffer.compare(stored.data, PNG)).toBe(0);
		expect(r.output).toEqual([{ json: attachmentOut(stored), pairedItem: { item: 0 } }]);
		expect(r.output[0].json.NoteId).toBe(expectedNoteId);
		expect(r.output[0].json).toMatchObject({ WorkOrderId: WO, FileName: 'gauge reading.png', ContentType: 'image/png', Size: PNG.length });
	});

	test('to the created note (ID > 2^53)', async () => {
		const note = env.emulator.state.notes[CREATE_WO].find((n) => n.NoteData === 'Just text');
		const noteId = note.Id.toString();
		const r = await env.run({
			parameters: { resource: 'workOrderNote', operation: 'addAttachment', workOrderId: CREATE_WO, noteId, binaryPropertyName: 'doc' },
			items: [fileItem({}, 'doc', Buffer.from('%PDF-1.7 quote'), 'quote.pdf', 'application/pdf')],
		});
		expect(r.error).toBeUndefined();
		expect(r.api[0].path).toBe(`/api/v3/workorders/${CREATE_WO}/notes/${noteId}/attachments`);
		expect(r.output[0].json.NoteId).toBe(noteId);
		expect(note.Attachments.at(-1).FileName).toBe('quote.pdf');
	});

	test('several items with their own files -> one upload each; Continue On Fail with a missing binary', async () => {
		const a = Buffer.from('first file');
		const c = Buffer.from([0, 1, 2, 3, 254, 255]);
		const r = await env.run({
			parameters: { resource: 'workOrderNote', operation: 'addAttachment', workOrderId: WO, noteId: '={{ $json.note }}', binaryPropertyName: 'file' },
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
		expect(Buffer.compare(r.api[0].parts[0].data, a)).toBe(0);
		expect(Buffer.compare(r.api[1].parts[0].data, c)).toBe(0);
		expect(r.api[1].parts[0]).toMatchObject({ filename: 'c.bin', contentType: 'application/octet-stream' });
		expect(pairedIndexes(r.output)).toEqual([0, 1, 2]);
		expect(r.output[0].json).toMatchObject({ FileName: 'a.txt', NoteId: BIG31 });
		expect(r.output[1].json.error).toContain('Invalid Input Binary Field (parameter "binaryPropertyName") in item 1');
		expect(r.output[2].json).toMatchObject({ FileName: 'c.bin', NoteId: MAX64 });
	});

	test.each([
		['bad note ID', { note: '9223372036854775808' }, 'noteId', /64-bit maximum/],
		['bad work order ID', { wo: 0 }, 'workOrderId', /1 or greater/],
		['missing binary property', { key: 'other' }, 'binaryPropertyName', /no binary property "data"/],
		['empty file', { bytes: '' }, 'binaryPropertyName', /is empty \(0 bytes\)/],
	])('%s is refused before any request', async (_name, bad, parameter, problem) => {
		const good = { note: BIG53, wo: WO, key: 'data', bytes: 'abc' };
		const value = { ...good, ...bad };
		const r = await env.run({
			parameters: { resource: 'workOrderNote', operation: 'addAttachment', workOrderId: '={{ $json.wo }}', noteId: '={{ $json.note }}', binaryPropertyName: 'data' },
			items: [
				fileItem(good, good.key, Buffer.from(good.bytes), 'ok.txt', 'text/plain'),
				fileItem(value, value.key, Buffer.from(value.bytes), 'bad.txt', 'text/plain'),
			],
		});
		expectValidationError(r, { parameter, item: 1, problem });
		expect(r.api).toHaveLength(1);
		expect(r.api[0].parts[0].filename).toBe('ok.txt');
	});

	test('the service refusal for an unknown note is a NodeApiError', async () => {
		const r = await env.run({
			parameters: { resource: 'workOrderNote', operation: 'addAttachment', workOrderId: WO, noteId: '42', binaryPropertyName: 'data' },
			items: [fileItem({}, 'data', Buffer.from('x'), 'x.txt', 'text/plain')],
		});
		expect(r.api).toHaveLength(1);
		expectApiError(r, { status: 404, serviceMessage: `Note 42 of work order ${WO} was not found`, code: 5003 });
	});
});

describe('workOrderNote.getAttachments', () => {
	test('of a note: OData list of that note\'s attachments, IDs exact', async () => {
		const r = await env.run({
			parameters: { resource: 'workOrderNote', operation: 'getAttachments', workOrderId: WO, noteId: BIG53, returnAll: true },
		});
		expect(r.error).toBeUndefined();
		expect(r.api).toHaveLength(1);
		expectGet(r.api[0], {
			path: `/api/v3/odata/workorders(${WO})/notes(${BIG53})/attachments`,
			query: { $top: '50', $skip: '0', $count: 'true' },
		});
		expectBearer(env, r.api[0]);
		const expected = env.emulator.state.attachments
			.filter((a) => a.WorkOrderId === WO && a.NoteId === BigInt(BIG53))
			.sort((a, b) => a.Id - b.Id)
			.map(attachmentOut);
		expect(expected.length).toBeGreaterThanOrEqual(2); // the fixture's capacitor.jpg + the one added above
		expect(expected[0].FileName).toBe('capacitor.jpg');
		expect(r.output.map((o) => o.json)).toEqual(expected);
		expect(r.output.every((o) => o.json.NoteId === BIG53)).toBe(true);
		expect(new Set(pairedIndexes(r.output))).toEqual(new Set([0]));
	});

	test('of the whole work order (Note ID empty)', async () => {
		const r = await env.run({
			parameters: { resource: 'workOrderNote', operation: 'getAttachments', workOrderId: WO, noteId: '', returnAll: true },
		});
		expect(r.error).toBeUndefined();
		expectGet(r.api[0], { path: `/api/v3/odata/workorders(${WO})/attachments`, query: { $top: '50', $skip: '0', $count: 'true' } });
		const expected = env.emulator.state.attachments.filter((a) => a.WorkOrderId === WO).sort((a, b) => a.Id - b.Id).map(attachmentOut);
		expect(r.output.map((o) => o.json)).toEqual(expected);
		expect(new Set(r.output.map((o) => o.json.NoteId))).toEqual(new Set([BIG53, MAX64, BIG31]));
	});

	test('Limit 1: $top 1', async () => {
		const r = await env.run({
			parameters: { resource: 'workOrderNote', operation: 'getAttachments', workOrderId: WO, returnAll: false, limit: 1 },
		});
		expect(r.api.map((q) => q.query)).toEqual([{ $top: '1', $skip: '0', $count: 'true' }]);
		expect(r.output.map((o) => o.json.Id)).toEqual([880001]);
	});

	test('several items, Continue On Fail: a bad note ID is an error item', async () => {
		const r = await env.run({
			parameters: { resource: 'workOrderNote', operation: 'getAttachments', workOrderId: WO, noteId: '={{ $json.note }}', limit: 1 },
			items: items({ note: BIG53 }, { note: 'abc' }, { note: MAX64 }),
			continueOnFail: true,
		});
		expect(r.api.map((q) => q.path)).toEqual([
			`/api/v3/odata/workorders(${WO})/notes(${BIG53})/attachments`,
			`/api/v3/odata/workorders(${WO})/notes(${MAX64})/attachments`,
		]);
		expect(pairedIndexes(r.output)).toEqual([0, 1, 2]);
		expect(r.output[0].json.NoteId).toBe(BIG53);
		expect(r.output[1].json.error).toContain('Invalid Note ID (parameter "noteId") in item 1');
		expect(r.output[2].json.NoteId).toBe(MAX64);
	});

	test('bad note ID is refused before any request', async () => {
		const r = await env.run({
			parameters: { resource: 'workOrderNote', operation: 'getAttachments', workOrderId: WO, noteId: '99999999999999999999', returnAll: true },
		});
		expectValidationError(r, { parameter: 'noteId', item: 0, problem: /64-bit maximum/ });
		expect(r.api).toHaveLength(0);
	});
});
