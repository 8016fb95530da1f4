'use strict';
/**
 * workOrderNote.getAttachments: the OData list of a note's attachments, or of the whole work order
 * when Note ID is empty; IDs exact, Limit, bad note IDs refused before any request.
 */
const {
	useEnvironment,
	items,
	expectBearer,
	expectGet,
	pairedIndexes,
	expectValidationError,
} = require('../helpers');
const notes = require('./notes');

const { WO, BIG31, BIG53, MAX64, attachmentOut, fileItem } = notes;

const env = useEnvironment();

// Attachments on three notes of the work order (the fixture has one, capacitor.jpg, on the 2^53 + 1
// note), uploaded through the node so that this file stands alone.
beforeAll(async () => {
	const r = await env.run({
		parameters: {
			resource: 'workOrderNote',
			operation: 'addAttachment',
			workOrderId: WO,
			noteId: '={{ $json.note }}',
			binaryPropertyName: 'data',
		},
		items: [MAX64, BIG53, BIG31].map((note) =>
			fileItem(
				{ note },
				'data',
				Buffer.from(`file for note ${note}`),
				`note-${note}.txt`,
				'text/plain',
			),
		),
	});
	expect(r.error).toBeUndefined();
	expect(r.api.map((q) => q.status)).toEqual([201, 201, 201]);
	expect(r.output.map((o) => o.json.operation)).toEqual([
		'addAttachment',
		'addAttachment',
		'addAttachment',
	]);
});

describe('workOrderNote.getAttachments', () => {
	test("of a note: OData list of that note's attachments, IDs exact", async () => {
		const r = await env.run({
			parameters: {
				resource: 'workOrderNote',
				operation: 'getAttachments',
				workOrderId: WO,
				noteId: BIG53,
				returnAll: true,
			},
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
			.map((a) => attachmentOut(env, a));
		expect(expected.length).toBeGreaterThanOrEqual(2); // the fixture's capacitor.jpg + the one added above
		expect(expected[0].Name).toBe('capacitor.jpg');
		expect(Object.keys(r.output[0].json)).toEqual([
			'Id',
			'Description',
			'Name',
			'TimeStamp',
			'Uri',
			'NoteId',
			'Visibility',
		]);
		expect(r.output.map((o) => o.json)).toEqual(expected);
		expect(r.output.every((o) => o.json.NoteId === BIG53)).toBe(true);
		expect(new Set(pairedIndexes(r.output))).toEqual(new Set([0]));
	});

	test('of the whole work order (Note ID empty)', async () => {
		const r = await env.run({
			parameters: {
				resource: 'workOrderNote',
				operation: 'getAttachments',
				workOrderId: WO,
				noteId: '',
				returnAll: true,
			},
		});
		expect(r.error).toBeUndefined();
		expectGet(r.api[0], {
			path: `/api/v3/odata/workorders(${WO})/attachments`,
			query: { $top: '50', $skip: '0', $count: 'true' },
		});
		const expected = env.emulator.state.attachments
			.filter((a) => a.WorkOrderId === WO)
			.sort((a, b) => a.Id - b.Id)
			.map((a) => attachmentOut(env, a));
		expect(r.output.map((o) => o.json)).toEqual(expected);
		expect(new Set(r.output.map((o) => o.json.NoteId))).toEqual(new Set([BIG53, MAX64, BIG31]));
	});

	test('Limit 1: $top 1', async () => {
		const r = await env.run({
			parameters: {
				resource: 'workOrderNote',
				operation: 'getAttachments',
				workOrderId: WO,
				returnAll: false,
				limit: 1,
			},
		});
		expect(r.api.map((q) => q.query)).toEqual([{ $top: '1', $skip: '0', $count: 'true' }]);
		expect(r.output.map((o) => o.json.Id)).toEqual([880001]);
	});

	test('several items, Continue On Fail: a bad note ID is an error item', async () => {
		const r = await env.run({
			parameters: {
				resource: 'workOrderNote',
				operation: 'getAttachments',
				workOrderId: WO,
				noteId: '={{ $json.note }}',
				limit: 1,
			},
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
			parameters: {
				resource: 'workOrderNote',
				operation: 'getAttachments',
				workOrderId: WO,
				noteId: '99999999999999999999',
				returnAll: true,
			},
		});
		expectValidationError(r, { parameter: 'noteId', item: 0, problem: /64-bit maximum/ });
		expect(r.api).toHaveLength(0);
	});
});
