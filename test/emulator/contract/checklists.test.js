'use strict';

/**
 * The emulator's checklist reads and the change of an answer against service-reference.md section
 * 3 (routes of ../api-checklists.js): GET /checklists/detail and its filters, GET
 * /workorders/{workOrderId}/checklists-responses, PUT /checklists/{id}/CheckListResponse; the
 * answers with every property of the reference's objects, the enum names (or the contract's
 * numbers), the refusals with the reference's codes. Several requests here are deliberately
 * invalid (that is what they test).
 */

const { useEmulator, token, jwtLogin, api, answer, submit, expectError } = require('./helpers');
const { setChecklistEnumForm } = require('../api-checklists');

/** @type {import('../index').Emulator} */
let emu;
useEmulator((e) => {
	emu = e;
});

const CHECKLIST_KEYS = [
	'ChecklistName',
	'CreatedBy',
	'CreatedDate',
	'Id',
	'IsActive',
	'Questions',
	'UpdatedBy',
	'UpdatedDate',
];
const QUESTION_KEYS = [
	'AnswerCanPersist',
	'AnswerRequired',
	'CheckListId',
	'CheckListQuestionOptions',
	'CheckListTimingType',
	'Id',
	'PictureFlag',
	'Question',
	'QuestionType',
	'Sequence',
	'ShortDescription',
];

describe('GET /checklists/detail', () => {
	test("for a work order: its checklist with every property, QuestionType and PictureFlag as the reference's names", async () => {
		const r = await api('GET', '/checklists/detail?workOrderId=90000001', { token: await token() });
		expect(r.status).toBe(200);
		expect(Object.keys(r.body)).toEqual(['CheckListDetails']);
		const [checklist] = r.body.CheckListDetails;
		expect(Object.keys(checklist).sort()).toEqual(CHECKLIST_KEYS);
		expect(checklist.CreatedDate).not.toMatch(/[+-]\d\d:\d\d$|Z$/); // a plain date, no twin
		expect(Object.keys(checklist.Questions[0]).sort()).toEqual(QUESTION_KEYS);
		expect(
			checklist.Questions.map((/** @type {any} */ q) => [q.Id, q.QuestionType, q.PictureFlag]),
		).toEqual([
			[9101, 'CheckBox', 'No'],
			[9102, 'RadioButton', 'Optional'],
			[9103, 'TextEntry', 'Optional'],
			[9104, 'NumericInput', 'No'],
			[9105, 'CheckBox', 'Required'],
		]);
		expect(checklist.Questions[1].CheckListQuestionOptions[1]).toEqual({
			Id: 91022,
			Answer: 'Needs repair',
			Sequence: 2,
			IsConditionalFollowUp: true,
		});
	});

	test('with setChecklistEnumForm(emu, "numbers") the contract\'s numbers', async () => {
		setChecklistEnumForm(emu, 'numbers');
		const r = await api('GET', '/checklists/detail?workOrderId=90000001', { token: await token() });
		expect(
			r.body.CheckListDetails[0].Questions.map((/** @type {any} */ q) => [
				q.QuestionType,
				q.PictureFlag,
			]),
		).toEqual([
			[0, 1],
			[1, 0],
			[2, 0],
			[4, 1],
			[0, 2],
		]);
	});

	test.each([
		['tradeName=hvac', [801]],
		['tradeid=3', [802]],
		['categoryName=REPAIR', [802]],
		['checklistid=802&tradeName=HVAC', [802]],
		['checkListName=ELECTRICAL%20REPAIR', [802]],
		['locationId=503', []],
		['storeId=S501&categoryid=12', [801]],
		['', [801, 802]],
	])('filters %s -> checklists %j', async (query, ids) => {
		const r = await api('GET', `/checklists/detail?${query}`, { token: await token() });
		expect(r.body.CheckListDetails.map((/** @type {any} */ c) => c.Id)).toEqual(ids);
	});

	test("refusals: both of a pair (503), a provider without subscriberId (503), someone else's work order (403, 100), none (502)", async () => {
		const t = await token();
		expectError(
			await api('GET', '/checklists/detail?tradeid=1&tradeName=HVAC', { token: t }),
			400,
			503,
		);
		expectError(
			await api('GET', '/checklists/detail?locationId=501&storeId=S501', { token: t }),
			400,
			503,
		);
		expectError(
			await api('GET', '/checklists/detail?workOrderId=92001001', { token: t }),
			403,
			100,
		);
		expectError(
			await api('GET', '/checklists/detail?workOrderId=91999999', { token: t }),
			400,
			502,
		);
		const jwt = (await jwtLogin()).access_token;
		expectError(
			await api('GET', '/checklists/detail?workOrderId=90000001', { token: jwt }),
			400,
			503,
		);
		const ok = await api('GET', '/checklists/detail?workOrderId=90000001&subscriberId=1001', {
			token: jwt,
		});
		expect(ok.body.CheckListDetails.map((/** @type {any} */ c) => c.Id)).toEqual([801]);
	});
});

describe('GET /workorders/{workOrderId}/checklists-responses and PUT /checklists/{id}/CheckListResponse', () => {
	test('the stored answers as CheckListResponseDetail; getAll adds earlier visits', async () => {
		const t = await token();
		const a = await submit(
			t,
			answer({ CheckListQuestionID: 9103, Answer: 'first visit', Attempt: 1 }),
		);
		const b = await submit(
			t,
			answer({ CheckListQuestionID: 9103, Answer: 'second visit', Attempt: 2 }),
		);
		const current = await api('GET', '/workorders/90000001/checklists-responses', { token: t });
		expect(current.body.Responses.map((/** @type {any} */ x) => x.Id)).toEqual([
			b.body.CheckListResponse.Id,
		]);
		const detail = current.body.Responses[0];
		expect(Object.keys(detail).sort()).toEqual([
			'Answer',
			'Attempt',
			'EntityId',
			'EntityTypeId',
			'FreeTextAnswer',
			'Id',
			'IsCurrentChecklist',
			'IsFrequencyChecklist',
			'Pictures',
			'ProviderId',
			'Question',
			'QuestionOption',
			'TechnicianId',
			'UpdatedDate',
			'UpdatedDateDto',
			'UpdatedDateStr',
		]);
		expect(Object.keys(detail.Question).sort()).toEqual(
			[...QUESTION_KEYS, 'CheckListCreatedDate', 'CheckListName'].sort(),
		);
		expect(detail.UpdatedDateStr).toMatch(/^\d\d\/\d\d\/\d{4} \d\d:\d\d [AP]M$/);
		const all = await api('GET', '/workorders/90000001/checklists-responses?getAll=true', {
			token: t,
		});
		expect(all.body.Responses.map((/** @type {any} */ x) => [x.Id, x.IsCurrentChecklist])).toEqual([
			[a.body.CheckListResponse.Id, false],
			[b.body.CheckListResponse.Id, true],
		]);
		expectError(
			await api('GET', '/workorders/90000001/checklists-responses?getAll=yes', {
				token: t,
				deliberate: 'getAll is no boolean',
			}),
			400,
			503,
		);
	});

	test('a change of the answer: 200 CheckListResponseResult; the stored answer and its dates change', async () => {
		const t = await token();
		const made = await submit(
			t,
			answer({ CheckListQuestionID: 9102, CheckListQuestionOptionID: 91021 }),
		);
		const id = made.body.CheckListResponse.Id;
		const fd = new FormData();
		fd.append(
			'CheckListResponseRequest',
			JSON.stringify(
				answer({
					CheckListQuestionID: 9102,
					CheckListQuestionOptionId: 91022,
					FreeTextAnswer: 'Belt worn',
				}),
			),
		);
		const r = await api('PUT', `/checklists/${id}/CheckListResponse`, { token: t, body: fd });
		expect(r.status).toBe(200);
		expect(Object.keys(r.body)).toEqual(['CheckListResponse', 'CheckListResponsePicture']);
		expect(r.body.CheckListResponse).toMatchObject({
			Id: id,
			Answer: 'Needs repair',
			CheckListQuestionOptionId: 91022,
			FreeTextAnswer: 'Belt worn',
		});
		expect(r.body.CheckListResponse.UpdatedDateStr).toEqual(expect.any(String));
		expect(emu.webhooks.events.at(-1)).toMatchObject({
			eventType: 'CheckListResponseUpdated',
			action: 'UPDATE',
		});
	});

	test.each([
		['nothing to change', () => new FormData(), 503, /Nothing to change/],
		[
			'a picture ID that is no number',
			() => {
				const fd = new FormData();
				fd.append('CheckListResponsePictureId', 'abc');
				return fd;
			},
			503,
			/must be an integer/,
		],
		[
			'an unknown field in the request',
			() => {
				const fd = new FormData();
				fd.append(
					'CheckListResponseRequest',
					JSON.stringify(answer({ CheckListQuestionID: 9103, Answer: 'x', Colour: 'red' })),
				);
				return fd;
			},
			503,
			/unknown field 'Colour'/,
		],
		[
			'no Attempt (the contract requires it)',
			() => {
				const fd = new FormData();
				fd.append(
					'CheckListResponseRequest',
					JSON.stringify(answer({ CheckListQuestionID: 9103, Answer: 'x', Attempt: undefined })),
				);
				return fd;
			},
			503,
			/Attempt is required/,
		],
	])('refuses %s', async (_name, build, code, message) => {
		const t = await token();
		const made = await submit(t, answer({ CheckListQuestionID: 9103, Answer: 'first' }));
		const r = await api('PUT', `/checklists/${made.body.CheckListResponse.Id}/CheckListResponse`, {
			token: t,
			body: build(),
			deliberate: _name,
		});
		expectError(r, 400, code);
		expect(r.body.ErrorMessage).toMatch(message);
	});

	test('an unknown answer is 502; a read-only user lacks the permission (401)', async () => {
		const fd = new FormData();
		fd.append(
			'CheckListResponseRequest',
			JSON.stringify(answer({ CheckListQuestionID: 9103, Answer: 'x' })),
		);
		expectError(
			await api('PUT', '/checklists/799999/CheckListResponse', { token: await token(), body: fd }),
			400,
			502,
		);
		expectError(
			await api('PUT', '/checklists/799999/CheckListResponse', {
				token: await token('viewer'),
				body: fd,
			}),
			401,
		);
	});
});
