'use strict';
/**
 * checklist.getQuestions: GET /checklists/detail (service-reference.md section 3) for a work order
 * or by filters; Simplify (default) gives one item per question in the Submit parameters' terms
 * (questionId, questionType, options with optionId), read from the reference's enum names as from
 * the contract's numbers (conflicts 9-11); Simplify off gives the checklists as sent. Provider
 * users: the subscriber is read from the work order. Refusals and validation.
 */
const {
	useEnvironment,
	items,
	expectBearer,
	expectGet,
	expectValidationError,
	expectApiError,
	responseJson,
	support,
} = require('../helpers');
const { setChecklistEnumForm } = require('../../emulator/api-checklists');

const env = useEnvironment();

const WO = 90000001;
const run = (parameters, extra = {}) =>
	env.run({
		parameters: { resource: 'checklist', operation: 'getQuestions', ...parameters },
		...extra,
	});

const HVAC_PM = [
	{ questionId: 9101, questionType: 'acknowledgement', pictureFlag: 'notRequired', options: [] },
	{
		questionId: 9102,
		questionType: 'selector',
		pictureFlag: 'optional',
		options: [
			{ optionId: 91021, label: 'Good', asksForComment: false },
			{ optionId: 91022, label: 'Needs repair', asksForComment: true },
			{ optionId: 91023, label: 'Replaced', asksForComment: false },
		],
	},
	{ questionId: 9103, questionType: 'textEntry', pictureFlag: 'optional', options: [] },
	{ questionId: 9104, questionType: 'numericInput', pictureFlag: 'notRequired', options: [] },
	{ questionId: 9105, questionType: 'acknowledgement', pictureFlag: 'required', options: [] },
];

describe('checklist.getQuestions', () => {
	test("the work order's checklist: one item per question with its type, picture rule and options", async () => {
		const r = await run({ workOrderId: { __rl: true, mode: 'list', value: String(WO) } });
		expect(r.error).toBeUndefined();
		expect(r.api).toHaveLength(1);
		expectGet(r.api[0], { path: '/api/v3/checklists/detail', query: { workOrderId: String(WO) } });
		expectBearer(env, r.api[0]);
		const sent = responseJson(r.api[0]).CheckListDetails;
		expect(sent.map((c) => c.Id)).toEqual([801]);
		expect(r.output.map((o) => o.json)).toEqual(
			HVAC_PM.map((q) => ({
				workOrderId: WO,
				checklistId: 801,
				checklistName: sent[0].ChecklistName,
				question:
					env.emulator.state.questions[q.questionId].Question ??
					env.emulator.state.questions[q.questionId].Text,
				answerRequired: true,
				timing: expect.any(String),
				...q,
			})),
		);
		expect(r.output.every((o) => o.pairedItem.item === 0)).toBe(true);
	});

	test("the same questions when the service writes the contract's numbers instead of the reference's names", async () => {
		setChecklistEnumForm(env.emulator, 'numbers');
		try {
			const r = await run({ workOrderId: WO });
			expect(responseJson(r.api[0]).CheckListDetails[0].Questions[1]).toMatchObject({
				QuestionType: 1,
				PictureFlag: 0,
			});
			expect(
				r.output.map((o) => [o.json.questionId, o.json.questionType, o.json.pictureFlag]),
			).toEqual(HVAC_PM.map((q) => [q.questionId, q.questionType, q.pictureFlag]));
		} finally {
			setChecklistEnumForm(env.emulator, 'names');
		}
	});

	test('a question type the contract leaves undefined (3, TriState) is "unknown", not guessed', async () => {
		const { questions, checklists } = env.emulator.state;
		questions[9106] = {
			Id: 9106,
			Text: 'Damper position',
			QuestionType: 3,
			PictureFlag: 1,
			Options: [],
		};
		checklists.find((c) => c.Id === 802).QuestionIds.push(9106);
		try {
			const r = await run({ workOrderId: 90000004 });
			expect(r.output.map((o) => [o.json.questionId, o.json.questionType])).toEqual([
				[9201, 'acknowledgement'],
				[9106, 'unknown'],
			]);
		} finally {
			checklists.find((c) => c.Id === 802).QuestionIds.pop();
			delete questions[9106];
		}
	});

	test('Simplify off: the checklists as the service sent them', async () => {
		const r = await run({ workOrderId: WO, simplify: false });
		expect(r.output.map((o) => o.json)).toEqual(
			JSON.parse(JSON.stringify(responseJson(r.api[0]).CheckListDetails)),
		);
		expect(r.output[0].json.Questions).toHaveLength(5);
	});

	test("without a work order, by trade and category filters (sent under the reference's names)", async () => {
		const r = await run({
			workOrderId: { __rl: true, mode: 'id', value: '' },
			options: { tradeName: 'ELECTRICAL', categoryId: '11' },
		});
		expect(r.error).toBeUndefined();
		expectGet(r.api[0], {
			path: '/api/v3/checklists/detail',
			query: { tradeName: 'ELECTRICAL', categoryid: '11' },
		});
		expect(r.output.map((o) => [o.json.checklistId, o.json.questionId])).toEqual([[802, 9201]]);
	});

	test('a work order whose location has checklists off: no items', async () => {
		const r = await run({ workOrderId: 90000002 });
		expect(r.error).toBeUndefined();
		expect(responseJson(r.api[0])).toEqual({ CheckListDetails: [] });
		expect(r.output).toEqual([]);
	});

	test('a contractor credential: the subscriber is read from the work order first, then sent', async () => {
		env.harness.credentials.set('contractor-1', {
			name: 'Emulator contractor',
			type: 'workOrderServiceContractorApi',
			data: support.contractorCredential(env.emulator),
		});
		const r = await env.run({
			authentication: 'contractor',
			credentialId: 'contractor-1',
			parameters: { resource: 'checklist', operation: 'getQuestions', workOrderId: WO },
		});
		expect(r.error).toBeUndefined();
		expect(r.api.map((q) => `${q.method} ${q.path} ${JSON.stringify(q.query)}`)).toEqual([
			`GET /api/v3/workorders/${WO} {}`,
			`GET /api/v3/checklists/detail {"workOrderId":"${WO}","subscriberId":"1001"}`,
		]);
		expect(r.output).toHaveLength(5);
	});

	test('a work order of another subscriber: the service refuses (403, code 100); Continue On Fail', async () => {
		const r = await run(
			{ workOrderId: '={{ $json.wo }}' },
			{ items: items({ wo: 92001001 }, { wo: 90000004 }), continueOnFail: true },
		);
		expect(r.api.map((q) => q.status)).toEqual([403, 200]);
		expect(r.output[0].json).toMatchObject({
			error: expect.stringContaining('No access to work order 92001001'),
			httpCode: '403',
		});
		expect(r.output.slice(1).map((o) => [o.pairedItem.item, o.json.questionId])).toEqual([
			[1, 9201],
		]);
	});

	test("an unknown work order: a NodeApiError with the service's code", async () => {
		const r = await run({ workOrderId: 91999999 });
		expectApiError(r, {
			status: 400,
			serviceMessage: 'Work order 91999999 was not found',
			code: 502,
		});
	});

	test.each([
		[
			'both trade ID and trade name',
			{ tradeId: '1', tradeName: 'HVAC' },
			'options.tradeName',
			/either it or the Trade ID, not both/,
		],
		[
			'both location ID and store number',
			{ locationId: '501', storeId: 'S501' },
			'options.storeId',
			/not both/,
		],
		['a checklist ID of 0', { checklistId: '0' }, 'options.checklistId', /1 or greater/],
	])('%s is refused before any request', async (_name, options, parameter, problem) => {
		const r = await run({ workOrderId: WO, options });
		expectValidationError(r, { parameter, item: 0, problem });
		expect(r.api).toHaveLength(0);
	});
});
