'use strict';
/**
 * checklistResponse.submit through n8n-core against the emulator: the multipart request
 * (CheckListResponseRequest JSON part + optional file part), the 201 body as the output item,
 * the service's refusals as NodeApiError, and validation before any request.
 */
const { NodeApiError } = require('n8n-workflow');
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

const WO = 90000001; // fixtures.workOrders.checklist (HVAC PM checklist, location with checklists enabled)
const PROVIDER = 3001;
const TECH = 4001;
// Bytes that would break a text-based multipart builder: NUL, CR LF, "--", high bytes.
const PHOTO = Buffer.from([
	0xff, 0xd8, 0xff, 0xe0, 0x00, 0x10, 0x0d, 0x0a, 0x2d, 0x2d, 0x4a, 0x46, 0x49, 0x46, 0x00, 0x80,
	0xfe, 0xff, 0xd9,
]);

function base(parameters) {
	return {
		resource: 'checklistResponse',
		operation: 'submit',
		workOrderId: WO,
		providerId: PROVIDER,
		technicianId: TECH,
		attempt: 1,
		...parameters,
	};
}

function photoItem(
	json = {},
	key = 'photo',
	file = { data: PHOTO, fileName: 'nameplate.jpg', mimeType: 'image/jpeg' },
) {
	return {
		json,
		binary: {
			[key]: {
				base64: file.data.toString('base64'),
				fileName: file.fileName,
				mimeType: file.mimeType,
			},
		},
	};
}

/** The single logged multipart request, its parts, and the parsed CheckListResponseRequest JSON. */
function multipartOf(request) {
	expect(request.method).toBe('POST');
	expect(request.path).toBe('/api/v3/checklists/CheckListResponse');
	expect(request.query).toEqual({});
	expect(request.headers['content-type']).toMatch(/^multipart\/form-data; boundary=\S+$/);
	const requestPart = request.parts.find((p) => p.name === 'CheckListResponseRequest');
	expect(requestPart).toBeDefined();
	expect(requestPart.filename).toBeNull();
	expect(requestPart.contentType).toBe('application/json');
	// the JSON text itself, not only what the lossless parser made of it
	const json = JSON.parse(requestPart.data.toString('utf8'));
	expect(requestPart.json).toEqual(json);
	return { parts: request.parts, json };
}

describe('checklistResponse.submit: one answer of each question type', () => {
	test('acknowledgement with a boolean from an expression ({{ true }}) and a photo from a binary property', async () => {
		const r = await env.run({
			parameters: base({
				questionId: env.fixtures.questions.acknowledgement,
				questionType: 'acknowledgement',
				answer: '={{ true }}',
				binaryPropertyName: 'photo',
			}),
			items: [photoItem({ note: 'first' })],
		});
		expect(r.error).toBeUndefined();
		expect(r.result.status).toBe('success');
		expect(r.api).toHaveLength(1);
		const request = r.api[0];
		expectBearer(env, request);
		const { parts, json } = multipartOf(request);
		expect(parts.map((p) => p.name)).toEqual(['CheckListResponseRequest', 'file']);
		expect(json).toEqual({
			CheckListQuestionID: 9101,
			Answer: 'true',
			ProviderID: PROVIDER,
			TechnicianID: TECH,
			EntityID: WO,
			Attempt: 1,
		});
		const file = parts[1];
		expect(file.filename).toBe('nameplate.jpg');
		expect(file.contentType).toBe('image/jpeg');
		expect(file.size).toBe(PHOTO.length);
		expect(Buffer.compare(file.data, PHOTO)).toBe(0);

		// the emulator stored exactly these bytes
		const stored = env.emulator.state.checklistResponses.at(-1);
		expect(Buffer.compare(stored.file.data, PHOTO)).toBe(0);
		expect(stored.response.Answer).toBe('true');

		// one item in, one item out: the write's keys, then the 201 body with both objects
		expect(request.status).toBe(201);
		expect(r.output).toHaveLength(1);
		expect(r.output[0].pairedItem).toEqual({ item: 0 });
		expect(r.output[0].json).toEqual({
			success: true,
			operation: 'submit',
			workOrderId: WO,
			...responseJson(request),
		});
		expect(Object.keys(r.output[0].json).slice(0, 3)).toEqual([
			'success',
			'operation',
			'workOrderId',
		]);
		const { CheckListResponse, CheckListResponsePicture } = r.output[0].json;
		expect(CheckListResponse).toMatchObject({
			CheckListQuestionId: 9101,
			CheckListQuestionOptionId: null,
			ProviderId: PROVIDER,
			TechnicianId: TECH,
			Answer: 'true',
			FreeTextAnswer: null,
			EntityId: WO,
			Attempt: 1,
			Id: stored.Id,
		});
		expect(CheckListResponsePicture).toMatchObject({
			CheckListResponseId: stored.Id,
			DocumentName: 'nameplate.jpg',
			HasThumbnail: true,
		});
		expect(CheckListResponsePicture.Id).toBeGreaterThan(0);
		expect(CheckListResponsePicture.DocumentPath).toMatch(/^#workorders\//);
		expect(Object.keys(r.output[0].json).sort()).toEqual([
			'CheckListResponse',
			'CheckListResponsePicture',
			'operation',
			'success',
			'workOrderId',
		]);
	});

	test('acknowledgement word from the dropdown is sent as is', async () => {
		const r = await env.run({
			parameters: base({ questionId: 9101, questionType: 'acknowledgement', answer: 'no' }),
		});
		expect(r.result.status).toBe('success');
		const { parts, json } = multipartOf(r.api[0]);
		expect(parts.map((p) => p.name)).toEqual(['CheckListResponseRequest']);
		expect(json.Answer).toBe('no');
		expect(json).not.toHaveProperty('CheckListQuestionOptionID');
		expect(json).not.toHaveProperty('FreeTextAnswer');
		expect(r.output[0].json.CheckListResponsePicture).toEqual({
			Id: 0,
			CheckListResponseId: 0,
			DocumentName: null,
			DocumentPath: null,
			ThumbnailPath: null,
			HasThumbnail: null,
			UpdatedBy: null,
		});
	});

	test.each([
		['={{ false }}', 'false'],
		['={{ 1 }}', '1'],
		['={{ 0 }}', '0'],
		['={{ "ON" }}', 'on'],
		['={{ " Off " }}', 'off'],
	])('acknowledgement from the expression %s is sent as "%s"', async (answer, sent) => {
		const r = await env.run({
			parameters: base({ questionId: 9101, questionType: 'acknowledgement', answer }),
		});
		expect(r.error).toBeUndefined();
		expect(multipartOf(r.api[0]).json.Answer).toBe(sent);
		expect(r.output[0].json.CheckListResponse.Answer).toBe(sent);
	});

	test('a non-ASCII file name reaches the service intact', async () => {
		const r = await env.run({
			parameters: base({
				questionId: 9101,
				questionType: 'acknowledgement',
				answer: 'yes',
				binaryPropertyName: 'photo',
			}),
			items: [
				photoItem({}, 'photo', {
					data: PHOTO,
					fileName: 'Typenschild Kälte 2.jpg',
					mimeType: 'image/jpeg',
				}),
			],
		});
		expect(r.error).toBeUndefined();
		const file = r.api[0].parts.find((p) => p.name === 'file');
		expect(file.filename).toBe('Typenschild Kälte 2.jpg');
		expect(Buffer.compare(file.data, PHOTO)).toBe(0);
		expect(r.output[0].json.CheckListResponsePicture.DocumentName).toBe('Typenschild Kälte 2.jpg');
	});

	test('selector with optionId and the conditional follow-up freeTextAnswer', async () => {
		const { questionId, optionId } = env.fixtures.questions.selectorConditional;
		const r = await env.run({
			parameters: base({
				questionId,
				questionType: 'selector',
				optionId,
				freeTextAnswer: 'Fan bearing noisy, replace next visit',
			}),
		});
		expect(r.error).toBeUndefined();
		expect(r.api).toHaveLength(1);
		const { parts, json } = multipartOf(r.api[0]);
		expect(parts).toHaveLength(1);
		expect(json).toEqual({
			CheckListQuestionID: 9102,
			CheckListQuestionOptionID: 91022,
			FreeTextAnswer: 'Fan bearing noisy, replace next visit',
			ProviderID: PROVIDER,
			TechnicianID: TECH,
			EntityID: WO,
			Attempt: 1,
		});
		expect(json).not.toHaveProperty('Answer');
		expect(r.output).toHaveLength(1);
		expect(r.output[0].json.CheckListResponse).toMatchObject({
			CheckListQuestionId: 9102,
			CheckListQuestionOptionId: 91022,
			Answer: 'Needs repair',
			FreeTextAnswer: 'Fan bearing noisy, replace next visit',
		});
		expect(r.output[0].pairedItem).toEqual({ item: 0 });
	});

	test('selector option without follow-up: no FreeTextAnswer is sent when left empty', async () => {
		const { questionId, optionId, label } = env.fixtures.questions.selectorPlain;
		const r = await env.run({
			parameters: base({ questionId, questionType: 'selector', optionId, freeTextAnswer: '' }),
		});
		expect(r.error).toBeUndefined();
		const { json } = multipartOf(r.api[0]);
		expect(json).not.toHaveProperty('FreeTextAnswer');
		expect(json.CheckListQuestionOptionID).toBe(optionId);
		expect(r.output[0].json.CheckListResponse.Answer).toBe(label);
	});

	test('textEntry', async () => {
		const text = 'Replaced filters; Coil Cleaned. 500 chars max ✓';
		const r = await env.run({
			parameters: base({
				questionId: env.fixtures.questions.textEntry,
				questionType: 'textEntry',
				answer: text,
				attempt: 2,
			}),
		});
		expect(r.error).toBeUndefined();
		const { json } = multipartOf(r.api[0]);
		expect(json).toEqual({
			CheckListQuestionID: 9103,
			Answer: text,
			ProviderID: PROVIDER,
			TechnicianID: TECH,
			EntityID: WO,
			Attempt: 2,
		});
		expect(r.output[0].json.CheckListResponse).toMatchObject({
			Answer: text.toLowerCase(),
			Attempt: 2,
		});
	});

	test('textEntry of exactly 500 characters is accepted', async () => {
		const r = await env.run({
			parameters: base({ questionId: 9103, questionType: 'textEntry', answer: 'x'.repeat(500) }),
		});
		expect(r.error).toBeUndefined();
		expect(multipartOf(r.api[0]).json.Answer).toHaveLength(500);
	});

	test('numericInput is sent as a JSON number', async () => {
		const r = await env.run({
			parameters: base({
				questionId: env.fixtures.questions.numericInput,
				questionType: 'numericInput',
				answer: 55.5,
			}),
		});
		expect(r.error).toBeUndefined();
		const text = r.api[0].parts[0].data.toString('utf8');
		expect(text).toContain('"Answer":55.5');
		const { json } = multipartOf(r.api[0]);
		expect(json.Answer).toBe(55.5);
		expect(r.output[0].json.CheckListResponse.Answer).toBe('55.5');
	});

	test('numericInput from an expression returning numeric text', async () => {
		const r = await env.run({
			parameters: base({
				questionId: 9104,
				questionType: 'numericInput',
				answer: '={{ $json.reading }}',
			}),
			items: items({ reading: '-12.25' }),
		});
		expect(r.error).toBeUndefined();
		expect(multipartOf(r.api[0]).json.Answer).toBe(-12.25);
		expect(r.output[0].json.CheckListResponse.Answer).toBe('-12.25');
	});

	test('a PDF is accepted as the file; file name and type travel in the part', async () => {
		const pdf = Buffer.from('%PDF-1.4\n%\xe2\xe3\xcf\xd3\n1 0 obj\n<<>>\nendobj\n', 'latin1');
		const r = await env.run({
			parameters: base({
				questionId: 9104,
				questionType: 'numericInput',
				answer: 68,
				binaryPropertyName: 'report',
			}),
			items: [
				photoItem({}, 'report', {
					data: pdf,
					fileName: 'readings report.pdf',
					mimeType: 'application/pdf',
				}),
			],
		});
		expect(r.error).toBeUndefined();
		const file = r.api[0].parts.find((p) => p.name === 'file');
		expect(file.filename).toBe('readings report.pdf');
		expect(file.contentType).toBe('application/pdf');
		expect(Buffer.compare(file.data, pdf)).toBe(0);
		expect(r.output[0].json.CheckListResponsePicture.DocumentName).toBe('readings report.pdf');
	});
});

describe('checklistResponse.submit: IDs as the editor and expressions give them', () => {
	test('IDs typed as text (the fields are text) are sent as JSON numbers', async () => {
		const r = await env.run({
			parameters: base({
				workOrderId: { __rl: true, mode: 'id', value: String(WO) },
				questionId: '9102',
				questionType: 'selector',
				optionId: ' 91021 ',
				providerId: '3001',
				technicianId: '4001',
			}),
		});
		expect(r.error).toBeUndefined();
		expect(multipartOf(r.api[0]).json).toEqual({
			CheckListQuestionID: 9102,
			CheckListQuestionOptionID: 91021,
			ProviderID: 3001,
			TechnicianID: 4001,
			EntityID: WO,
			Attempt: 1,
		});
	});

	test('IDs mapped from the items as digit strings or numbers are sent as JSON numbers', async () => {
		const r = await env.run({
			parameters: base({
				workOrderId: { __rl: true, mode: 'id', value: '={{ $json.wo }}' },
				questionId: '={{ $json.q }}',
				questionType: 'textEntry',
				answer: 'ok',
				providerId: '={{ $json.provider }}',
				technicianId: '={{ $json.tech }}',
			}),
			items: items(
				{ wo: String(WO), q: '9103', provider: '3001', tech: 4001 },
				{ wo: WO, q: 9103, provider: 3001, tech: '4001' },
			),
		});
		expect(r.error).toBeUndefined();
		const sent = r.api.map((q) => multipartOf(q).json);
		for (const json of sent) {
			expect(json).toMatchObject({
				CheckListQuestionID: 9103,
				ProviderID: 3001,
				TechnicianID: 4001,
				EntityID: WO,
			});
		}
	});

	test.each([
		['Question', { questionId: '' }],
		['Provider', { providerId: '' }],
		['Technician ID', { technicianId: '' }],
		['Option', { questionType: 'selector', questionId: 9102, optionId: '' }],
	])(
		'%s left empty: n8n itself refuses to run the node, nothing is sent',
		async (label, fields) => {
			env.emulator.clearRequests();
			const run = env.run({
				parameters: base({ questionId: 9103, questionType: 'textEntry', answer: 'ok', ...fields }),
			});
			await expect(run).rejects.toThrow(`Parameter "${label}" is required`);
			expect(env.emulator.requests.filter((q) => q.path.startsWith('/api/'))).toHaveLength(0);
		},
	);
});

describe('checklistResponse.submit: picture-required question', () => {
	test('with a photo it is accepted', async () => {
		const r = await env.run({
			parameters: base({
				questionId: env.fixtures.questions.pictureRequired,
				questionType: 'acknowledgement',
				answer: 'yes',
				binaryPropertyName: 'photo',
			}),
			items: [photoItem()],
		});
		expect(r.error).toBeUndefined();
		expect(r.output[0].json.CheckListResponsePicture.DocumentName).toBe('nameplate.jpg');
	});

	test("without a file the service's refusal surfaces as a NodeApiError carrying its ErrorMessage", async () => {
		const r = await env.run({
			parameters: base({ questionId: 9105, questionType: 'acknowledgement', answer: 'yes' }),
		});
		expect(r.api).toHaveLength(1); // a POST is never sent twice
		expect(r.api[0].status).toBe(400);
		expect(r.api[0].parts.map((p) => p.name)).toEqual(['CheckListResponseRequest']);
		expectApiError(r, {
			status: 400,
			serviceMessage:
				"Question 9105 requires a picture (PictureFlag 2): send a non-empty 'file' part",
			code: 3010,
		});
		expect(r.output).toEqual([]);
	});
});

describe('checklistResponse.submit: items', () => {
	test('several input items -> one request and one paired output per item', async () => {
		const r = await env.run({
			parameters: base({
				questionId: 9103,
				questionType: 'textEntry',
				answer: '={{ $json.text }}',
				attempt: '={{ $json.attempt }}',
			}),
			items: items(
				{ text: 'First visit', attempt: 1 },
				{ text: 'Second visit', attempt: 2 },
				{ text: 'Third visit', attempt: 3 },
			),
		});
		expect(r.error).toBeUndefined();
		expect(r.api).toHaveLength(3);
		expect(r.api.map((q) => multipartOf(q).json)).toEqual([
			expect.objectContaining({ Answer: 'First visit', Attempt: 1 }),
			expect.objectContaining({ Answer: 'Second visit', Attempt: 2 }),
			expect.objectContaining({ Answer: 'Third visit', Attempt: 3 }),
		]);
		expect(r.output).toHaveLength(3);
		expect(pairedIndexes(r.output)).toEqual([0, 1, 2]);
		expect(r.output.map((o) => o.json.CheckListResponse.Answer)).toEqual([
			'first visit',
			'second visit',
			'third visit',
		]);
		const ids = r.output.map((o) => o.json.CheckListResponse.Id);
		expect(new Set(ids).size).toBe(3);
	});

	test('Continue On Fail: a bad item (501 characters) yields { json: { error } } with no request; the others succeed', async () => {
		const r = await env.run({
			parameters: base({
				questionId: 9103,
				questionType: 'textEntry',
				answer: '={{ $json.text }}',
			}),
			items: items({ text: 'ok one' }, { text: 'y'.repeat(501) }, { text: 'ok two' }),
			continueOnFail: true,
		});
		expect(r.result.status).toBe('success');
		expect(r.api).toHaveLength(2);
		expect(r.api.map((q) => multipartOf(q).json.Answer)).toEqual(['ok one', 'ok two']);
		expect(r.output).toHaveLength(3);
		expect(pairedIndexes(r.output)).toEqual([0, 1, 2]);
		expect(r.output[0].json.CheckListResponse.Answer).toBe('ok one');
		expect(r.output[2].json.CheckListResponse.Answer).toBe('ok two');
		expect(r.output[1].json.error).toEqual(
			expect.stringContaining('(parameter "answer") in item 1'),
		);
		expect(r.output[1].json.error).toMatch(/501 characters/);
		expect(r.output[1].json).not.toHaveProperty('CheckListResponse');
	});

	test('Continue On Fail: a refused item (picture required) becomes an error item, the others succeed', async () => {
		const r = await env.run({
			parameters: base({
				questionId: '={{ $json.q }}',
				questionType: 'acknowledgement',
				answer: 'yes',
			}),
			items: items({ q: 9101 }, { q: 9105 }, { q: 9101 }),
			continueOnFail: true,
		});
		expect(r.result.status).toBe('success');
		expect(r.api.map((q) => q.status)).toEqual([201, 400, 201]);
		expect(pairedIndexes(r.output)).toEqual([0, 1, 2]);
		expect(r.output[1].json.error).toContain('requires a picture (PictureFlag 2)');
		expect(r.output[1].json.httpCode).toBe('400');
		expect(r.output[0].json.CheckListResponse.CheckListQuestionId).toBe(9101);
		expect(r.output[2].json.CheckListResponse.CheckListQuestionId).toBe(9101);
	});
});

describe('checklistResponse.submit: validation before any request', () => {
	// Each case: item 0 is good (its request is sent), item 1 is bad (no request, run fails naming it).
	const good = { wo: WO, q: 9103, type: 'textEntry', answer: 'fine', option: 0, attempt: 1 };
	const cases = [
		['bad work order ID (0)', { wo: 0 }, 'workOrderId', /1 or greater/],
		['bad work order ID (text)', { wo: 'WO-1' }, 'workOrderId', /positive whole number/],
		['bad question ID (fraction)', { q: 9103.5 }, 'questionId', /positive whole number/],
		[
			'501-character text answer',
			{ answer: 'z'.repeat(501) },
			'answer',
			/501 characters long, at most 500/,
		],
		['missing text answer', { answer: '' }, 'answer', /must not be empty/],
		['missing text answer (whitespace)', { answer: '   ' }, 'answer', /must not be empty/],
		[
			'non-numeric number',
			{ type: 'numericInput', q: 9104, answer: 'twelve' },
			'answer',
			/finite number/,
		],
		[
			'unknown acknowledgement word',
			{ type: 'acknowledgement', q: 9101, answer: 'maybe' },
			'answer',
			/must be one of on, off, 1, 0, true, false, yes, no/,
		],
		[
			'missing acknowledgement answer',
			{ type: 'acknowledgement', q: 9101, answer: '' },
			'answer',
			/must be one of/,
		],
		[
			'selector without optionId',
			{ type: 'selector', q: 9102, option: '' },
			'optionId',
			/positive whole number/,
		],
		[
			'selector with optionId 0',
			{ type: 'selector', q: 9102, option: 0 },
			'optionId',
			/1 or greater/,
		],
		[
			'unknown question type',
			{ type: 'dropdown' },
			'questionType',
			/must be one of acknowledgement, selector, textEntry, numericInput/,
		],
		['attempt 0', { attempt: 0 }, 'attempt', /1 or greater/],
	];
	test.each(cases)('%s', async (_name, bad, parameter, problem) => {
		const r = await env.run({
			parameters: base({
				workOrderId: '={{ $json.wo }}',
				questionId: '={{ $json.q }}',
				questionType: '={{ $json.type }}',
				answer: '={{ $json.answer }}',
				optionId: '={{ $json.option }}',
				attempt: '={{ $json.attempt }}',
			}),
			items: items(good, { ...good, ...bad }),
		});
		expectValidationError(r, { parameter, item: 1, problem });
		expect(r.api).toHaveLength(1); // item 0 only
		expect(multipartOf(r.api[0]).json.Answer).toBe('fine');
		expect(r.output).toEqual([]);
	});

	test('501-character free text on a selector is refused', async () => {
		const r = await env.run({
			parameters: base({
				questionId: 9102,
				questionType: 'selector',
				optionId: 91022,
				freeTextAnswer: 'f'.repeat(501),
			}),
		});
		expectValidationError(r, { parameter: 'freeTextAnswer', item: 0, problem: /501 characters/ });
		expect(r.api).toHaveLength(0);
	});

	test('a binary property the item does not have', async () => {
		const r = await env.run({
			parameters: base({
				questionId: 9101,
				questionType: 'acknowledgement',
				answer: 'yes',
				binaryPropertyName: 'picture',
			}),
			items: [photoItem({}, 'photo')],
		});
		expectValidationError(r, {
			parameter: 'binaryPropertyName',
			item: 0,
			problem: /no binary property "picture"/,
		});
		expect(r.error.description).toContain('photo');
		expect(r.api).toHaveLength(0);
	});

	test('a file that is neither an image nor a PDF', async () => {
		const r = await env.run({
			parameters: base({
				questionId: 9101,
				questionType: 'acknowledgement',
				answer: 'yes',
				binaryPropertyName: 'photo',
			}),
			items: [
				photoItem({}, 'photo', {
					data: Buffer.from('hello'),
					fileName: 'notes.txt',
					mimeType: 'text/plain',
				}),
			],
		});
		expectValidationError(r, {
			parameter: 'binaryPropertyName',
			item: 0,
			problem: /image or a PDF/,
		});
		expect(r.api).toHaveLength(0);
	});

	test('the error is a NodeOperationError, not an API error, and says nothing was sent', async () => {
		const r = await env.run({
			// an expression: a literal empty required parameter is already refused by n8n itself
			parameters: base({
				questionId: 9103,
				questionType: 'textEntry',
				answer: '={{ $json.missing }}',
			}),
		});
		expectValidationError(r, { parameter: 'answer', item: 0, problem: /must not be empty/ });
		expect(r.error).not.toBeInstanceOf(NodeApiError);
		expect(r.error.description).toMatch(/Nothing was sent to the service/);
		expect(env.emulator.requests).toHaveLength(0);
	});
});
