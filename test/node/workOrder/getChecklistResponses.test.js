'use strict';
/**
 * workOrder.getChecklistResponses: GET /workorders/{workOrderId}/checklists-responses
 * (service-reference.md section 3): one item per stored answer as the service sends it
 * (CheckListResponseDetail: question, option, pictures); `getAll=true` only when asked; refusals;
 * validation.
 */
const {
	useEnvironment,
	items,
	expectBearer,
	expectGet,
	expectValidationError,
	expectApiError,
	responseJson,
} = require('../helpers');
const { setChecklistEnumForm } = require('../../emulator/api-checklists');

const env = useEnvironment();

const WO = 90000001; // HVAC PM checklist (questions 9101-9105)

/** Answers one question through the node (Submit). */
async function submit(questionId, questionType, answer, attempt, extra = {}) {
	const r = await env.run({
		parameters: {
			resource: 'checklistResponse',
			operation: 'submit',
			workOrderId: WO,
			questionId,
			questionType,
			providerId: 3001,
			technicianId: 4001,
			attempt,
			...answer,
			...extra,
		},
	});
	expect(r.error).toBeUndefined();
	return r.output[0].json.CheckListResponse;
}

describe('workOrder.getChecklistResponses', () => {
	let first;
	let second;
	let selector;
	beforeAll(async () => {
		first = await submit(9103, 'textEntry', { answer: 'Filters were dusty' }, 1);
		second = await submit(9103, 'textEntry', { answer: 'Filters replaced' }, 2);
		selector = await submit(9102, 'selector', { optionId: 91022, freeTextAnswer: 'Belt worn' }, 2);
	});

	test("the current visit's answers, one item each, as the service sends them; no getAll sent", async () => {
		const r = await env.run({
			parameters: { resource: 'workOrder', operation: 'getChecklistResponses', workOrderId: WO },
		});
		expect(r.error).toBeUndefined();
		expectGet(r.api[0], { path: `/api/v3/workorders/${WO}/checklists-responses` });
		expectBearer(env, r.api[0]);
		const { Responses } = responseJson(r.api[0]);
		expect(r.output.map((o) => o.json)).toEqual(JSON.parse(JSON.stringify(Responses)));
		expect(r.output.map((o) => o.json.Id)).toEqual([second.Id, selector.Id]);
		const answer = r.output[1].json;
		expect(answer).toMatchObject({
			Answer: 'Needs repair',
			FreeTextAnswer: 'Belt worn',
			Attempt: 2,
			IsCurrentChecklist: true,
			EntityId: WO,
		});
		expect(answer.QuestionOption).toMatchObject({
			Id: 91022,
			Answer: 'Needs repair',
			IsConditionalFollowUp: true,
		});
		expect(answer.Question).toMatchObject({
			Id: 9102,
			QuestionType: 'RadioButton',
			CheckListName: expect.any(String),
		});
		expect(answer.UpdatedDateDto).toMatch(/[+-]\d\d:\d\d$/);
		expect(r.output.every((o) => o.pairedItem.item === 0)).toBe(true);
	});

	test('Include Completed Checklists: getAll=true, the earlier visit too', async () => {
		const r = await env.run({
			parameters: {
				resource: 'workOrder',
				operation: 'getChecklistResponses',
				workOrderId: WO,
				includeCompletedChecklists: true,
			},
		});
		expectGet(r.api[0], {
			path: `/api/v3/workorders/${WO}/checklists-responses`,
			query: { getAll: 'true' },
		});
		expect(r.output.map((o) => o.json.Id)).toEqual([first.Id, second.Id, selector.Id]);
		expect(r.output[0].json.IsCurrentChecklist).toBe(false);
	});

	test("question types as the contract's numbers are passed through as the service sent them", async () => {
		setChecklistEnumForm(env.emulator, 'numbers');
		try {
			const r = await env.run({
				parameters: { resource: 'workOrder', operation: 'getChecklistResponses', workOrderId: WO },
			});
			expect(r.output[1].json.Question.QuestionType).toBe(1);
		} finally {
			setChecklistEnumForm(env.emulator, 'names');
		}
	});

	test('a work order without answers gives no items; one the user may not see is refused; Continue On Fail', async () => {
		const r = await env.run({
			parameters: {
				resource: 'workOrder',
				operation: 'getChecklistResponses',
				workOrderId: '={{ $json.wo }}',
			},
			items: items({ wo: 90000003 }, { wo: 92001001 }, { wo: WO }),
			continueOnFail: true,
		});
		expect(r.api.map((q) => q.status)).toEqual([200, 400, 200]);
		expect(r.output.map((o) => o.pairedItem.item)).toEqual([1, 2, 2]);
		expect(r.output[0].json.error).toContain('No access to the location of work order 92001001');
	});

	test("no such work order: a NodeApiError with the service's code", async () => {
		const r = await env.run({
			parameters: {
				resource: 'workOrder',
				operation: 'getChecklistResponses',
				workOrderId: 91999999,
			},
		});
		expectApiError(r, {
			status: 400,
			serviceMessage: 'Work order 91999999 was not found',
			code: 502,
		});
	});

	test('a bad work order ID is refused before any request', async () => {
		const r = await env.run({
			parameters: {
				resource: 'workOrder',
				operation: 'getChecklistResponses',
				workOrderId: '={{ -3 }}',
			},
		});
		expectValidationError(r, { parameter: 'workOrderId', item: 0, problem: /1 or greater/ });
		expect(r.api).toHaveLength(0);
	});
});
