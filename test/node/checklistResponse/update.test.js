'use strict';
/**
 * checklistResponse.update: PUT /checklists/{checkListResponseId}/CheckListResponse as multipart
 * (service-reference.md section 3): the CheckListResponseRequest JSON part with the contract's
 * names, the optional `CheckListResponsePictureId` text part and `file`; the 200
 * CheckListResponseResult as the item; the service's refusals; validation; Continue On Fail.
 */
const {
	useEnvironment,
	items,
	expectBearer,
	pairedIndexes,
	expectValidationError,
	expectApiError,
	responseJson,
} = require('../helpers');

const env = useEnvironment();

const WO = 90000001;
const answeredBy = { workOrderId: WO, providerId: 3001, technicianId: 4001, attempt: 1 };
const PHOTO = Buffer.from([0xff, 0xd8, 0x0d, 0x0a, 0x2d, 0x2d, 0x00, 0xff, 0xd9]);
const NEW_PHOTO = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0x2d, 0x2d]);

const photoItem = (data, fileName, mimeType, json = {}) => ({
	json,
	binary: { photo: { base64: data.toString('base64'), fileName, mimeType } },
});

async function submit(parameters, input) {
	const r = await env.run({
		parameters: {
			resource: 'checklistResponse',
			operation: 'submit',
			...answeredBy,
			...parameters,
		},
		items: input,
	});
	expect(r.error).toBeUndefined();
	return r.output[0].json;
}

const update = (id, parameters) => ({
	resource: 'checklistResponse',
	operation: 'update',
	checkListResponseId: String(id),
	...answeredBy,
	...parameters,
});

function partsOf(request) {
	expect(request.headers['content-type']).toMatch(/^multipart\/form-data; boundary=\S+$/);
	return Object.fromEntries(request.parts.map((p) => [p.name, p]));
}

describe('checklistResponse.update', () => {
	test("a new text answer: one JSON part with the contract's names; the 200 result is the item; the stored answer changes", async () => {
		const { CheckListResponse: stored } = await submit({
			questionId: 9103,
			questionType: 'textEntry',
			answer: 'Filters dusty',
		});
		const events = env.emulator.webhooks.events.length;
		const r = await env.run({
			parameters: update(stored.Id, {
				questionId: 9103,
				questionType: 'textEntry',
				answer: 'Filters replaced, coil cleaned',
			}),
		});
		expect(r.error).toBeUndefined();
		const q = r.api[0];
		expect(q.method).toBe('PUT');
		expect(q.path).toBe(`/api/v3/checklists/${stored.Id}/CheckListResponse`);
		expectBearer(env, q);
		const parts = partsOf(q);
		expect(Object.keys(parts)).toEqual(['CheckListResponseRequest']);
		expect(parts.CheckListResponseRequest.contentType).toBe('application/json');
		expect(JSON.parse(parts.CheckListResponseRequest.data.toString('utf8'))).toEqual({
			CheckListQuestionID: 9103,
			Answer: 'Filters replaced, coil cleaned',
			ProviderID: 3001,
			TechnicianID: 4001,
			Attempt: 1,
			EntityID: WO,
		});
		expect(q.status).toBe(200);
		expect(r.output).toEqual([
			{
				json: {
					success: true,
					operation: 'update',
					checkListResponseId: stored.Id,
					workOrderId: WO,
					...responseJson(q),
				},
				pairedItem: { item: 0 },
			},
		]);
		expect(r.output[0].json.CheckListResponse).toMatchObject({
			Id: stored.Id,
			Answer: 'filters replaced, coil cleaned',
			CheckListQuestionId: 9103,
		});
		expect(r.output[0].json.CheckListResponsePicture).toMatchObject({ Id: 0, DocumentName: null });
		expect(
			env.emulator.state.checklistResponses.find((e) => e.Id === stored.Id).response.Answer,
		).toBe('filters replaced, coil cleaned');
		expect(
			env.emulator.webhooks.events.slice(events).map((e) => [e.eventType, e.object.Id]),
		).toEqual([['CheckListResponseUpdated', stored.Id]]);
	});

	test('a photo that replaces the stored picture: picture ID as a text part, the file after the request', async () => {
		const submitted = await submit(
			{
				questionId: 9105,
				questionType: 'acknowledgement',
				answer: 'yes',
				binaryPropertyName: 'photo',
			},
			[photoItem(PHOTO, 'nameplate.jpg', 'image/jpeg')],
		);
		const pictureId = submitted.CheckListResponsePicture.Id;
		const r = await env.run({
			parameters: update(submitted.CheckListResponse.Id, {
				questionId: 9105,
				questionType: 'acknowledgement',
				answer: 'yes',
				pictureId: String(pictureId),
				binaryPropertyName: 'photo',
			}),
			items: [photoItem(NEW_PHOTO, 'nameplate-2.png', 'image/png')],
		});
		expect(r.error).toBeUndefined();
		const parts = partsOf(r.api[0]);
		expect(r.api[0].parts.map((p) => p.name)).toEqual([
			'CheckListResponsePictureId',
			'CheckListResponseRequest',
			'file',
		]);
		expect(parts.CheckListResponsePictureId.data.toString('utf8')).toBe(String(pictureId));
		expect(parts.CheckListResponsePictureId.filename).toBeNull();
		expect(parts.file).toMatchObject({
			filename: 'nameplate-2.png',
			contentType: 'image/png',
			size: NEW_PHOTO.length,
		});
		expect(Buffer.compare(parts.file.data, NEW_PHOTO)).toBe(0);
		expect(r.output[0].json.CheckListResponsePicture).toMatchObject({
			Id: pictureId,
			CheckListResponseId: submitted.CheckListResponse.Id,
			DocumentName: 'nameplate-2.png',
		});
		const listed = await env.run({
			parameters: { resource: 'workOrder', operation: 'getChecklistResponses', workOrderId: WO },
		});
		const answer = listed.output.find((o) => o.json.Id === submitted.CheckListResponse.Id).json;
		expect(answer.Pictures.map((p) => [p.Id, p.DocumentName])).toEqual([
			[pictureId, 'nameplate-2.png'],
		]);
	});

	test('a selector answer: the option ID and its comment', async () => {
		const { CheckListResponse: stored } = await submit({
			questionId: 9102,
			questionType: 'selector',
			optionId: 91021,
		});
		const r = await env.run({
			parameters: update(stored.Id, {
				questionId: 9102,
				questionType: 'selector',
				optionId: { __rl: true, mode: 'id', value: '91022' },
				freeTextAnswer: 'Belt cracked',
			}),
		});
		expect(r.error).toBeUndefined();
		expect(partsOf(r.api[0]).CheckListResponseRequest.json).toMatchObject({
			CheckListQuestionOptionID: 91022,
			FreeTextAnswer: 'Belt cracked',
		});
		expect(r.output[0].json.CheckListResponse).toMatchObject({
			Answer: 'Needs repair',
			CheckListQuestionOptionId: 91022,
			FreeTextAnswer: 'Belt cracked',
		});
	});

	test.each([
		['no such answer', () => 799999, {}, 'Checklist response 799999 was not found', 502],
		[
			'a picture of another answer',
			(id) => id,
			{ pictureId: '4242' },
			'Picture 4242 is not a picture of checklist response',
			503,
		],
		[
			"another question than the stored answer's",
			(id) => id,
			{ questionType: 'selector', questionId: 9102, optionId: 91021 },
			'CheckListQuestionID must be 9103, the question of checklist response',
			503,
		],
		[
			"another provider than the work order's",
			(id) => id,
			{ providerId: 3002, technicianId: 4101 },
			'ProviderID 3002 is not the provider of work order',
			503,
		],
	])(
		'%s: the service refuses (NodeApiError with its code)',
		async (_name, idOf, extra, message, code) => {
			const { CheckListResponse: stored } = await submit({
				questionId: 9103,
				questionType: 'textEntry',
				answer: 'first',
			});
			const r = await env.run({
				parameters: update(idOf(stored.Id), {
					questionId: 9103,
					questionType: 'textEntry',
					answer: 'second',
					...extra,
				}),
			});
			expect(r.api).toHaveLength(1);
			expectApiError(r, { status: 400, serviceMessage: message, code });
		},
	);

	test('Continue On Fail: a bad answer ID is an error item, the other answers change', async () => {
		const { CheckListResponse: a } = await submit({
			questionId: 9103,
			questionType: 'textEntry',
			answer: 'a',
		});
		const { CheckListResponse: b } = await submit({
			questionId: 9103,
			questionType: 'textEntry',
			answer: 'b',
		});
		const r = await env.run({
			parameters: {
				...update('={{ $json.id }}', {
					questionId: 9103,
					questionType: 'textEntry',
					answer: '={{ $json.text }}',
				}),
				checkListResponseId: '={{ $json.id }}',
			},
			items: items({ id: a.Id, text: 'A2' }, { id: 'x', text: 'never' }, { id: b.Id, text: 'B2' }),
			continueOnFail: true,
		});
		expect(r.api.map((q) => q.path)).toEqual([
			`/api/v3/checklists/${a.Id}/CheckListResponse`,
			`/api/v3/checklists/${b.Id}/CheckListResponse`,
		]);
		expect(pairedIndexes(r.output)).toEqual([0, 1, 2]);
		expect(r.output[1].json.error).toContain(
			'Invalid Checklist Response ID (parameter "checkListResponseId") in item 1',
		);
		expect(r.output.map((o) => o.json.CheckListResponse?.Answer)).toEqual(['a2', undefined, 'b2']);
	});

	test.each([
		[
			'answer ID 0 (expression)',
			{ checkListResponseId: '={{ 0 }}' },
			'checkListResponseId',
			/1 or greater/,
		],
		['picture ID not a number', { pictureId: 'first' }, 'pictureId', /positive whole number/],
		['text over 500 characters', { answer: 'x'.repeat(501) }, 'answer', /at most 500/],
	])('%s is refused before any request', async (_name, parameters, parameter, problem) => {
		const r = await env.run({
			parameters: {
				...update(700001, { questionId: 9103, questionType: 'textEntry', answer: 'ok' }),
				...parameters,
			},
		});
		expectValidationError(r, { parameter, item: 0, problem });
		expect(r.api).toHaveLength(0);
	});
});
