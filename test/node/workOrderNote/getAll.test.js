'use strict';
/**
 * workOrderNote.getAll: the notes of a work order ({ Notes, AllNotesCount } split into items),
 * paging=page:size across pages, Limit, note IDs exact as decimal strings (2^31, 2^53 + 1, 2^63 - 1).
 */
const {
	useEnvironment,
	items,
	expectBearer,
	expectGet,
	pairedIndexes,
	expectValidationError,
	responseJson,
} = require('../helpers');
const notes = require('./notes');

const { WO, PAGED_WO, BIG31, BIG53, MAX64, idText, nodeShape } = notes;

const env = useEnvironment();
const storedNote = (woId, id) => notes.storedNote(env, woId, id);

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
			Number: k,
			NoteData: `Paged note ${k}`,
			DateCreated: env.emulator.time.local(at),
			Attachments: [],
			_workOrderId: PAGED_WO,
			_at: at,
			_createdAt: 0,
		};
		env.emulator.state.notes[PAGED_WO].push(note);
		INJECTED.push(id); // newest first: k = 1 is the newest
	}
});

describe('workOrderNote.getAll', () => {
	test('lists the notes of a work order: the NotesPage { Notes, AllNotesCount, ... } split into items, IDs exact', async () => {
		const r = await env.run({
			parameters: {
				resource: 'workOrderNote',
				operation: 'getAll',
				workOrderId: WO,
				returnAll: true,
				simplify: false,
			},
		});
		expect(r.error).toBeUndefined();
		expect(r.api).toHaveLength(1);
		expectGet(r.api[0], { path: `/api/v3/workorders/${WO}/notes`, query: { paging: '1:50' } });
		expectBearer(env, r.api[0]);
		const body = responseJson(r.api[0]);
		expect(Object.keys(body)).toEqual([
			'Notes',
			'AllNotesCount',
			'UserNotesCount',
			'SystemNotesCount',
		]);
		expect(body.AllNotesCount).toBe(4);
		// every note ID is a decimal string, below 2^53 as well as above: one type for the field
		expect(r.output.map((o) => o.json.Id)).toEqual([MAX64, BIG53, BIG31, '15001']);
		expect(r.output.map((o) => o.json)).toEqual(body.Notes.map(nodeShape));
		expect(r.output.map((o) => o.json)).toEqual(
			[MAX64, BIG53, BIG31, '15001'].map((id) => nodeShape(storedNote(WO, id))),
		);
		expect(pairedIndexes(r.output)).toEqual([0, 0, 0, 0]);
	});

	test("Return All across pages: paging=1:50 then 2:50 (the emulator's page:size convention)", async () => {
		const r = await env.run({
			parameters: {
				resource: 'workOrderNote',
				operation: 'getAll',
				workOrderId: PAGED_WO,
				returnAll: true,
			},
		});
		expect(r.error).toBeUndefined();
		expect(r.api.map((q) => q.query)).toEqual([{ paging: '1:50' }, { paging: '2:50' }]);
		r.api.forEach((q) =>
			expectGet(q, { path: `/api/v3/workorders/${PAGED_WO}/notes`, query: q.query }),
		);
		const pages = r.api.map(responseJson);
		expect(pages.map((p) => [p.Notes.length, p.AllNotesCount])).toEqual([
			[50, 60],
			[10, 60],
		]);
		expect(r.output).toHaveLength(60);
		expect(r.output.map((o) => o.json.Id)).toEqual(INJECTED.map(idText));
		expect(r.output.map((o) => o.json.NoteData)).toEqual(
			INJECTED.map((_, k) => `Paged note ${k + 1}`),
		);
		// one type across items: 9007199254800001 (> 2^53) and 3000000002 (< 2^53) are both strings
		expect(r.output[0].json.Id).toBe('9007199254800001');
		expect(r.output[1].json.Id).toBe('3000000002');
		expect(r.output.every((o) => typeof o.json.Id === 'string')).toBe(true);
	});

	test('Limit 55: two pages, 55 items', async () => {
		const r = await env.run({
			parameters: {
				resource: 'workOrderNote',
				operation: 'getAll',
				workOrderId: PAGED_WO,
				returnAll: false,
				limit: 55,
			},
		});
		expect(r.error).toBeUndefined();
		expect(r.api.map((q) => q.query)).toEqual([{ paging: '1:50' }, { paging: '2:50' }]);
		expect(r.output.map((o) => o.json.Id)).toEqual(INJECTED.slice(0, 55).map(idText));
	});

	test('Limit 3: one page, first 3 items', async () => {
		const r = await env.run({
			parameters: {
				resource: 'workOrderNote',
				operation: 'getAll',
				workOrderId: PAGED_WO,
				limit: 3,
			},
		});
		expect(r.api).toHaveLength(1);
		expect(r.api[0].query).toEqual({ paging: '1:50' });
		expect(r.output.map((o) => o.json.Id)).toEqual(INJECTED.slice(0, 3).map(idText));
	});

	test('bad Limit is refused before any request, naming the parameter and the item', async () => {
		const r = await env.run({
			parameters: {
				resource: 'workOrderNote',
				operation: 'getAll',
				workOrderId: WO,
				limit: '={{ $json.n }}',
			},
			items: items({ n: 1 }, { n: 0 }),
		});
		expectValidationError(r, { parameter: 'limit', item: 1, problem: /1 or greater/ });
		expect(r.api.map((q) => q.query)).toEqual([{ paging: '1:50' }]);
	});

	test('several input items and Continue On Fail: per-item lists, a bad work order ID is an error item', async () => {
		const r = await env.run({
			parameters: {
				resource: 'workOrderNote',
				operation: 'getAll',
				workOrderId: '={{ $json.wo }}',
				limit: 2,
			},
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
		expect(r.output[2].json.error).toContain(
			'Invalid Work Order ID (parameter "workOrderId") in item 1',
		);
		expect(r.output[4].json.error).toContain('Work order 12345 was not found');
	});

	test("the notes are the reference's Note objects: DateCreated in US Eastern local time, no offset twin", async () => {
		const r = await env.run({
			parameters: {
				resource: 'workOrderNote',
				operation: 'getAll',
				workOrderId: WO,
				limit: 1,
				simplify: false,
			},
		});
		const note = r.output[0].json;
		expect(Object.keys(note)).toEqual([
			'Id',
			'Number',
			'NoteData',
			'DateCreated',
			'ScheduledDate',
			'FollowUpDate',
			'ActionRequired',
			'MailedTo',
			'CreatedBy',
			'CompanyName',
			'Attachments',
			'Visibility',
			'NoteType',
			'IsAttachmentNote',
		]);
		const stored = env.emulator.state.notes[WO].find((n) => n.Id === BigInt(note.Id));
		expect(note.DateCreated).toBe(env.emulator.formatDate(stored._at).local);
		expect(note.DateCreated).not.toMatch(/Z|[+-]\d{2}:\d{2}$/);
	});
});
