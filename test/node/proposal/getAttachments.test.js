'use strict';
/**
 * proposal.getAttachments: GET /odata/proposals({id})/attachments, paged; one item per Attachment
 * record as the service sent it (its Uri downloads the file: test/node/attachment/download.test.js).
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
const { served } = require('./proposals');
const { ATTACHMENT_PROPS } = require('../../emulator/api-proposals');

const env = useEnvironment();
const rl = (mode, value) => ({ __rl: true, mode, value });
const getAttachments = (proposalId, extra = {}) =>
	env.run({
		parameters: {
			resource: 'proposal',
			operation: 'getAttachments',
			proposalId,
			returnAll: true,
			...extra,
		},
	});

describe('proposal.getAttachments', () => {
	test('GET /odata/proposals(61001)/attachments; the items are the Attachment records as served (Uri, no note)', async () => {
		const r = await getAttachments(rl('list', '61001'));
		expect(r.error).toBeUndefined();
		expect(r.api).toHaveLength(1);
		expectGet(r.api[0], {
			path: '/api/v3/odata/proposals(61001)/attachments',
			query: { $top: '50', $skip: '0', $count: 'true' },
		});
		expectBearer(env, r.api[0]);
		expect(r.output.map((o) => o.json)).toEqual(served(r.api[0]).value);
		expect(r.output.map((o) => o.json.Name)).toEqual([
			'P-61001-quote.pdf',
			'compressor-nameplate.jpg',
		]);
		for (const { json } of r.output) {
			expect(Object.keys(json)).toEqual(ATTACHMENT_PROPS);
			expect(json.NoteId).toBeNull();
			expect(json.Uri).toBe(`${env.emulator.baseUrl}/v3/files/${json.Id}`);
		}
		expect(pairedIndexes(r.output)).toEqual([0, 0]);
	});

	test('Limit 1 asks for one', async () => {
		const r = await getAttachments(rl('id', '61001'), { returnAll: false, limit: 1 });
		expect(r.api.map((q) => q.query)).toEqual([{ $top: '1', $skip: '0', $count: 'true' }]);
		expect(r.output.map((o) => o.json.Name)).toEqual(['P-61001-quote.pdf']);
	});

	test("a proposal without files gives no items; an unknown one the service's 404", async () => {
		const none = await getAttachments(rl('id', '61003'));
		expect(none.error).toBeUndefined();
		expect(none.output).toEqual([]);
		const unknown = await getAttachments(rl('id', '69999'));
		expectApiError(unknown, { status: 404, serviceMessage: 'Proposal 69999 was not found' });
	});

	test('bad ID refused before any request; with Continue On Fail the other items still run', async () => {
		const bad = await getAttachments(rl('id', '={{ -1 }}'));
		expectValidationError(bad, { parameter: 'proposalId', item: 0, problem: /1 or greater/ });
		expect(bad.api).toHaveLength(0);
		const r = await env.run({
			parameters: {
				resource: 'proposal',
				operation: 'getAttachments',
				proposalId: rl('id', '={{ $json.id }}'),
				returnAll: true,
			},
			items: items({ id: 61004 }, { id: 'abc' }, { id: 61005 }),
			continueOnFail: true,
		});
		expect(r.api.map((q) => q.path)).toEqual([
			'/api/v3/odata/proposals(61004)/attachments',
			'/api/v3/odata/proposals(61005)/attachments',
		]);
		expect(pairedIndexes(r.output)).toEqual([0, 1, 2]);
		expect(r.output.map((o) => o.json.Name ?? o.json.error)).toEqual([
			'led-retrofit-scope.txt',
			expect.stringContaining('Invalid Proposal ID (parameter "proposalId") in item 1'),
			'rooftop-unit.jpg',
		]);
	});
});
