'use strict';
/**
 * workOrderNote.create: POST /workorders/{id}/notes with the reference's CreateNoteRequest (`Note`
 * and the real options: Visibility 0-3 by name, MailedTo, ActionRequired, ScheduledDate,
 * FollowUpDate with an explicit offset, NotifyFollowers, DoNotSendEmail, AttachmentsIds, Actor).
 * The service answers 201 without a documented body ("maybe the new note ID, maybe nothing"): the
 * item says what was done, with the ID (exact, as text) when one came, whatever form it came in.
 */
const {
	useEnvironment,
	items,
	expectBearer,
	expectJsonRequest,
	pairedIndexes,
	expectValidationError,
} = require('../helpers');
const notes = require('./notes');

const { CREATE_WO, WO } = notes;

const env = useEnvironment();
const storedNote = (woId, id) => notes.storedNote(env, woId, id);

afterEach(() => env.emulator.setAnswers({ noteCreated: 'id' }));

describe('workOrderNote.create', () => {
	let createdId;

	test('POST Note with every option; the 201 answer (the new ID, > 2^53) becomes { success, operation, workOrderId, id }', async () => {
		const before = env.emulator.state.notifications.length;
		const r = await env.run({
			parameters: {
				resource: 'workOrderNote',
				operation: 'create',
				workOrderId: WO,
				note: 'Parts arrive Tuesday. Please confirm access.',
				additionalFields: {
					visibility: 'notProvider',
					mailedTo: 'ops@demo-retail.example; tech.lead@acme-fs.example',
					actionRequired: true,
					notifyFollowers: true,
					doNotSendEmail: false,
					scheduledDate: '2026-06-01T08:00:00Z',
					followUpDate: '2026-11-01T01:30:00-05:00',
					attachmentIds: String(env.fixtures.notes.attachmentId),
					actor: 'Dispatch Bot',
				},
			},
		});
		expect(r.error).toBeUndefined();
		expect(r.api).toHaveLength(1);
		expectJsonRequest(r.api[0], {
			method: 'POST',
			path: `/api/v3/workorders/${WO}/notes`,
			body: {
				Note: 'Parts arrive Tuesday. Please confirm access.',
				Visibility: 2,
				MailedTo: 'ops@demo-retail.example;tech.lead@acme-fs.example',
				ActionRequired: true,
				// dates go out as the service's local time (US Eastern) with an explicit offset
				ScheduledDate: '2026-06-01T04:00:00.000-04:00',
				FollowUpDate: '2026-11-01T01:30:00.000-05:00',
				NotifyFollowers: true,
				DoNotSendEmail: false,
				AttachmentsIds: [env.fixtures.notes.attachmentId],
				Actor: 'Dispatch Bot',
			},
		});
		expectBearer(env, r.api[0]);
		expect(r.api[0].status).toBe(201);
		const stored = env.emulator.state.notes[WO].at(-1);
		expect(stored.Id > 9007199254740992n).toBe(true);
		expect(r.api[0].responseBody).toBe(stored.Id.toString());
		createdId = stored.Id.toString();
		expect(r.output).toEqual([
			{
				json: { success: true, operation: 'create', workOrderId: WO, id: createdId },
				pairedItem: { item: 0 },
			},
		]);
		expect(storedNote(WO, createdId)).toMatchObject({
			NoteData: 'Parts arrive Tuesday. Please confirm access.',
			MailedTo: 'ops@demo-retail.example;tech.lead@acme-fs.example',
			ActionRequired: true,
			Visibility: 2,
			CreatedBy: 'Dispatch Bot',
			ScheduledDate: '2026-06-01T04:00:00.000',
			FollowUpDate: '2026-11-01T01:30:00.000',
		});
		expect(storedNote(WO, createdId).Attachments.map((a) => a.Id)).toEqual([
			env.fixtures.notes.attachmentId,
		]);
		expect(env.emulator.state.notifications.slice(before)).toEqual([
			expect.objectContaining({
				type: 'note',
				workOrderId: WO,
				noteId: stored.Id,
				recipients: ['ops@demo-retail.example', 'tech.lead@acme-fs.example'],
				notifyFollowers: true,
			}),
		]);
	});

	test('the created note (ID > 2^53) reads back through get with the exact digits', async () => {
		expect(typeof createdId).toBe('string');
		const r = await env.run({
			parameters: {
				resource: 'workOrderNote',
				operation: 'get',
				workOrderId: WO,
				noteId: createdId,
			},
		});
		expect(r.error).toBeUndefined();
		expect(r.api[0].path).toBe(`/api/v3/odata/workorders(${WO})/notes(${createdId})`);
		expect(r.output[0].json.Id).toBe(createdId);
		expect(r.output[0].json.NoteData).toBe('Parts arrive Tuesday. Please confirm access.');
	});

	test('only the note text: body { Note }', async () => {
		const r = await env.run({
			parameters: {
				resource: 'workOrderNote',
				operation: 'create',
				workOrderId: CREATE_WO,
				note: 'Just text',
			},
		});
		expect(r.error).toBeUndefined();
		expectJsonRequest(r.api[0], {
			method: 'POST',
			path: `/api/v3/workorders/${CREATE_WO}/notes`,
			body: { Note: 'Just text' },
		});
		expect(r.output[0].json).toEqual({
			success: true,
			operation: 'create',
			workOrderId: CREATE_WO,
			id: env.emulator.state.notes[CREATE_WO].at(-1).Id.toString(),
		});
	});

	test.each([
		['{ "Id": n }', 'object', (id) => ({ id })],
		[
			'a Location header only',
			'location',
			(id) => ({ id, location: expect.stringMatching(new RegExp(`/notes\\(${id}\\)$`)) }),
		],
		['nothing', 'empty', () => ({})],
	])(
		'the service answers %s: the item says what was done, with the ID when one came',
		async (_name, answer, idPart) => {
			env.emulator.setAnswers({ noteCreated: answer });
			const r = await env.run({
				parameters: {
					resource: 'workOrderNote',
					operation: 'create',
					workOrderId: CREATE_WO,
					note: `answer ${answer}`,
				},
			});
			expect(r.error).toBeUndefined();
			expect(r.api[0].status).toBe(201);
			const id = env.emulator.state.notes[CREATE_WO].at(-1).Id.toString();
			if (answer === 'location')
				expect(r.api[0].responseHeaders.location).toContain(`notes(${id})`);
			if (answer !== 'object') expect(r.api[0].responseBody ?? '').toBe('');
			expect(r.output).toEqual([
				{
					json: { success: true, operation: 'create', workOrderId: CREATE_WO, ...idPart(id) },
					pairedItem: { item: 0 },
				},
			]);
		},
	);

	test('several items -> one POST each; Continue On Fail with a bad e-mail keeps every item', async () => {
		const r = await env.run({
			parameters: {
				resource: 'workOrderNote',
				operation: 'create',
				workOrderId: CREATE_WO,
				note: '={{ $json.text }}',
				additionalFields: { mailedTo: '={{ $json.to }}' },
			},
			items: items(
				{ text: 'one', to: 'a@demo-retail.example' },
				{ text: 'two', to: 'not an e-mail' },
				{ text: 'three', to: '' },
			),
			continueOnFail: true,
		});
		expect(r.result.status).toBe('success');
		expect(r.api.map((q) => q.body)).toEqual([
			{ Note: 'one', MailedTo: 'a@demo-retail.example' },
			{ Note: 'three' },
		]);
		expect(pairedIndexes(r.output)).toEqual([0, 1, 2]);
		expect(r.output[1].json.error).toContain(
			'Invalid Mailed To (parameter "additionalFields.mailedTo") in item 1',
		);
		const stored = env.emulator.state.notes[CREATE_WO].slice(-2).map((n) => n.Id.toString());
		expect([r.output[0].json.id, r.output[2].json.id]).toEqual(stored);
	});

	test.each([
		['empty note', { note: '' }, 'note', /must not be empty/],
		['bad work order ID', { wo: -1 }, 'workOrderId', /1 or greater/],
		[
			'bad e-mail among several',
			{ to: 'ok@demo-retail.example;bad@' },
			'additionalFields.mailedTo',
			/e-mail address/,
		],
		['bad date', { date: '01/06/2026' }, 'additionalFields.scheduledDate', /ISO 8601/],
		[
			'visibility out of the scale',
			{ vis: 7 },
			'additionalFields.visibility',
			/all, notExternalSubscriber, notProvider or subscriberOnly/,
		],
		['non-boolean flag', { flag: 'yes' }, 'additionalFields.actionRequired', /true or false/],
		[
			'attachment ID not a number',
			{ att: '880001, x' },
			'additionalFields.attachmentIds',
			/positive whole number/,
		],
	])('%s is refused before any request', async (_name, bad, parameter, problem) => {
		const good = {
			note: 'fine',
			wo: CREATE_WO,
			to: '',
			date: '',
			vis: 'subscriberOnly',
			flag: false,
			att: '',
		};
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
					actionRequired: '={{ $json.flag }}',
					attachmentIds: '={{ $json.att }}',
				},
			},
			items: items(good, { ...good, ...bad }),
		});
		expectValidationError(r, { parameter, item: 1, problem });
		expect(r.api).toHaveLength(1);
		expect(r.api[0].body).toEqual({ Note: 'fine', Visibility: 3, ActionRequired: false });
	});

	test('a date without an offset is a wall time in the workflow time zone, sent with its offset', async () => {
		const r = await env.run({
			parameters: {
				resource: 'workOrderNote',
				operation: 'create',
				workOrderId: CREATE_WO,
				note: 'follow up',
				additionalFields: { followUpDate: '2026-03-08T03:30:00' },
			},
		});
		expect(r.error).toBeUndefined();
		// the harness runs workflows in America/New_York: 03:30 on the spring-forward day is EDT
		expect(r.api[0].body.FollowUpDate).toBe('2026-03-08T03:30:00.000-04:00');
	});

	test('the emulator refuses the old body { NoteData } as the service would (400, code 503 bad data)', async () => {
		const r = await env.run({
			parameters: {
				resource: 'workOrderNote',
				operation: 'create',
				workOrderId: CREATE_WO,
				note: '   x',
			},
		});
		expect(r.error).toBeUndefined();
		const refused = await fetch(`${env.emulator.baseUrl}/v3/workorders/${CREATE_WO}/notes`, {
			method: 'POST',
			headers: {
				authorization: r.api[0].headers.authorization,
				'content-type': 'application/json',
				'x-contract-deliberate': 'NoteData is not a CreateNoteRequest field',
			},
			body: JSON.stringify({ NoteData: 'old field name' }),
		});
		expect(refused.status).toBe(400);
		expect(await refused.json()).toMatchObject({
			ErrorCode: 503,
			ErrorMessage: expect.stringContaining('NoteData'),
		});
	});
});
