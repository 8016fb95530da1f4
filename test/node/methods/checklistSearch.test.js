'use strict';
/**
 * Submit's Question and Option "From List" (listSearch through n8n-core's LoadOptionsContext):
 * the questions of the chosen work order's checklist (GET /checklists/detail?workOrderId=...),
 * the options of the chosen selector question; an empty list and no request before a work order
 * or question is chosen (or while it is an expression); the values picked run the node.
 */
const { useEnvironment, expectBearer, listSearch, responseJson } = require('../helpers');

const env = useEnvironment();

const WO = 90000001;
const rl = (mode, value) => ({ __rl: true, mode, value });
const api = () => env.emulator.requests.filter((q) => q.path.startsWith('/api/'));
const SUBMIT = {
	resource: 'checklistResponse',
	operation: 'submit',
	questionType: 'selector',
	providerId: '3001',
	technicianId: '4001',
	attempt: 1,
};

describe("Submit: Question and Option from the work order's checklist", () => {
	test("Question: the checklist's questions with their type (and a required photo), value the question ID", async () => {
		const found = await listSearch(
			env,
			'searchChecklistQuestions',
			{ ...SUBMIT, workOrderId: rl('list', String(WO)) },
			'questionId',
		);
		expect(api().map((q) => `${q.method} ${q.path} ${JSON.stringify(q.query)}`)).toEqual([
			`GET /api/v3/checklists/detail {"workOrderId":"${WO}"}`,
		]);
		expectBearer(env, api()[0]);
		const questions = responseJson(api()[0]).CheckListDetails[0].Questions;
		expect(found.results.map((x) => x.value)).toEqual(questions.map((q) => String(q.Id)));
		expect(found.results[0]).toEqual({
			name: `${questions[0].Question} (Acknowledgement)`,
			value: '9101',
		});
		expect(found.results[1].name).toBe(`${questions[1].Question} (Selector)`);
		expect(found.results[4].name).toBe(
			`${questions[4].Question} (Acknowledgement, photo required)`,
		);
	});

	test('Question: the search box narrows the list by question text or ID', async () => {
		const found = await listSearch(
			env,
			'searchChecklistQuestions',
			{ ...SUBMIT, workOrderId: rl('id', String(WO)) },
			'questionId',
			'TEMPERATURE',
		);
		expect(found.results.map((x) => x.value)).toEqual(['9104']);
	});

	test('Option: the options of the chosen question, one that asks for a comment says so', async () => {
		const found = await listSearch(
			env,
			'searchChecklistOptions',
			{ ...SUBMIT, workOrderId: rl('list', String(WO)), questionId: rl('list', '9102') },
			'optionId',
		);
		expect(found.results).toEqual([
			{ name: 'Good', value: '91021' },
			{ name: 'Needs repair (asks for a comment)', value: '91022' },
			{ name: 'Replaced', value: '91023' },
		]);
	});

	test.each([
		['Question, no work order chosen', 'searchChecklistQuestions', { workOrderId: rl('list', '') }],
		[
			'Question, the work order an expression',
			'searchChecklistQuestions',
			{ workOrderId: rl('id', '={{ $json.wo }}') },
		],
		[
			'Option, no question chosen',
			'searchChecklistOptions',
			{ workOrderId: rl('list', String(WO)), questionId: rl('list', '') },
		],
	])('%s: an empty list, no request, no error', async (_name, method, parameters) => {
		env.emulator.clearRequests();
		expect(await listSearch(env, method, { ...SUBMIT, ...parameters }, 'questionId')).toEqual({
			results: [],
		});
		expect(api()).toEqual([]);
	});

	test('the values picked from the lists run Submit: the IDs in CheckListResponseRequest', async () => {
		const question = (
			await listSearch(
				env,
				'searchChecklistQuestions',
				{ ...SUBMIT, workOrderId: rl('list', String(WO)) },
				'questionId',
			)
		).results[1];
		const option = (
			await listSearch(
				env,
				'searchChecklistOptions',
				{ ...SUBMIT, workOrderId: rl('list', String(WO)), questionId: rl('list', question.value) },
				'optionId',
			)
		).results[2];
		const r = await env.run({
			parameters: {
				...SUBMIT,
				workOrderId: rl('list', String(WO)),
				questionId: { ...rl('list', question.value), cachedResultName: question.name },
				optionId: { ...rl('list', option.value), cachedResultName: option.name },
			},
		});
		expect(r.error).toBeUndefined();
		const part = r.api[0].parts.find((p) => p.name === 'CheckListResponseRequest');
		expect(part.json).toMatchObject({
			CheckListQuestionID: 9102,
			CheckListQuestionOptionID: 91023,
			EntityID: WO,
		});
		expect(r.output[0].json.CheckListResponse.Answer).toBe('Replaced');
	});
});
