'use strict';
/**
 * workOrderNote.create: POST /workorders/{id}/notes with NoteData and the optional fields; the 201
 * note is the item, its new ID (above 2^53) exact as text and readable back through get.
 */
const { useEnvironment, items, expectBearer, expectJsonRequest, pairedIndexes, expectValidationError } = require('../helpers');
const notes = require('./notes');

const { CREATE_WO, nodeShape } = notes;

const env = useEnvironment();
const storedNote = (woId, id) => notes.storedNote(env, woId, id);

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
