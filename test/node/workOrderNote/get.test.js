'use strict';
/**
 * workOrderNote.get: GET /odata/workorders({wo})/notes({id}) with the exact digits of an int64
 * note ID (2^31, 2^53 + 1, 2^63 - 1), IDs read back exact as text, bad IDs refused before any request.
 */
const {
	useEnvironment,
	items,
	expectBearer,
	expectGet,
	pairedIndexes,
	expectValidationError,
	expectApiError,
} = require('../helpers');
const notes = require('./notes');

const { WO, BIG31, BIG53, MAX64, nodeShape } = notes;

const env = useEnvironment();
const storedNote = (woId, id) => notes.storedNote(env, woId, id);

describe('workOrderNote.get', () => {
	test.each([
		[BIG31, BIG31],
		[BIG53, BIG53],
		[MAX64, MAX64],
		['15001', '15001'],
	])(
		'note %s: the path carries the exact digits, the Id comes back exact (as text)',
		async (id, expectedId) => {
			const r = await env.run({
				parameters: {
					resource: 'workOrderNote',
					operation: 'get',
					workOrderId: WO,
					noteId: id,
					simplify: false,
				},
			});
			expect(r.error).toBeUndefined();
			expect(r.api).toHaveLength(1);
			expectGet(r.api[0], { path: `/api/v3/odata/workorders(${WO})/notes(${id})` });
			expect(r.api[0].rawPath).toBe(`/api/v3/odata/workorders(${WO})/notes(${id})`);
			expectBearer(env, r.api[0]);
			expect(r.output).toHaveLength(1);
			expect(r.output[0].json.Id).toBe(expectedId);
			expect(r.output[0].json).toEqual(nodeShape(storedNote(WO, id)));
			expect(r.output[0].pairedItem).toEqual({ item: 0 });
		},
	);

	test('the answer is Note[] ({ value: [note] }, an array even for one note): the item is the note', async () => {
		const r = await env.run({
			parameters: { resource: 'workOrderNote', operation: 'get', workOrderId: WO, noteId: BIG53 },
		});
		const body = require('../helpers').responseJson(r.api[0]);
		expect(body.value).toHaveLength(1);
		expect(r.output.map((o) => o.json.Id)).toEqual([BIG53]);
		expect(r.output[0].json['@odata.context']).toBeUndefined();
	});

	test("Simplify (on by default): at most 10 of the note's fields, the most used first", async () => {
		const r = await env.run({
			parameters: { resource: 'workOrderNote', operation: 'get', workOrderId: WO, noteId: BIG53 },
		});
		expect(r.error).toBeUndefined();
		const whole = nodeShape(storedNote(WO, BIG53));
		const compact = [
			'Id',
			'NoteData',
			'DateCreated',
			'CreatedBy',
			'CompanyName',
			'NoteType',
			'ActionRequired',
			'FollowUpDate',
			'Visibility',
			'Attachments',
		].filter((k) => k in whole);
		expect(Object.keys(r.output[0].json)).toEqual(compact);
		expect(r.output[0].json).toEqual(Object.fromEntries(compact.map((k) => [k, whole[k]])));
		expect(Object.keys(whole).length).toBeGreaterThan(10);
	});

	test('IDs from a previous getAll output (all text) round-trip through get', async () => {
		const list = await env.run({
			parameters: {
				resource: 'workOrderNote',
				operation: 'getAll',
				workOrderId: WO,
				returnAll: true,
			},
		});
		const r = await env.run({
			parameters: {
				resource: 'workOrderNote',
				operation: 'get',
				workOrderId: WO,
				noteId: '={{ $json.Id }}',
			},
			items: list.output.map((o) => ({ json: o.json })),
		});
		expect(r.error).toBeUndefined();
		expect(r.api.map((q) => q.path)).toEqual(
			[MAX64, BIG53, BIG31, '15001'].map((id) => `/api/v3/odata/workorders(${WO})/notes(${id})`),
		);
		expect(r.output.map((o) => o.json)).toEqual(list.output.map((o) => o.json));
		expect(pairedIndexes(r.output)).toEqual([0, 1, 2, 3]);
	});

	test('an unknown note is a NodeApiError with the service message', async () => {
		const r = await env.run({
			parameters: {
				resource: 'workOrderNote',
				operation: 'get',
				workOrderId: WO,
				noteId: '9223372036854775806',
			},
		});
		expectApiError(r, {
			status: 404,
			serviceMessage: `Note 9223372036854775806 of work order ${WO} was not found`,
			code: 5003,
		});
	});

	const badIds = [
		['beyond int64', '9223372036854775808', /64-bit maximum/],
		['letters', '12a', /digits only/],
		['path injection', '1)/attachments?x=(1', /digits only/],
		['zero', '0', /1 or greater/],
		['negative', '-5', /digits only/],
		['a number beyond 2^53 (already lost digits)', '={{ 9007199254740993 }}', /lost digits/],
	];
	test.each(badIds)(
		'bad note ID (%s) is refused before any request',
		async (_name, noteId, problem) => {
			const r = await env.run({
				parameters: {
					resource: 'workOrderNote',
					operation: 'get',
					workOrderId: WO,
					noteId: `={{ $json.good ? "${BIG53}" : $json.bad }}`,
				},
				items: [
					{ json: { good: true } },
					{ json: { good: false, bad: noteId.startsWith('=') ? 9007199254740993 : noteId } },
				],
			});
			expectValidationError(r, { parameter: 'noteId', item: 1, problem });
			expect(r.api.map((q) => q.path)).toEqual([`/api/v3/odata/workorders(${WO})/notes(${BIG53})`]);
		},
	);

	test('Continue On Fail: a bad note ID yields an error item; the others succeed', async () => {
		const r = await env.run({
			parameters: {
				resource: 'workOrderNote',
				operation: 'get',
				workOrderId: WO,
				noteId: '={{ $json.id }}',
			},
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
