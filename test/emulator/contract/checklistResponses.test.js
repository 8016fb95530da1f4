'use strict';

/**
 * POST /checklists/CheckListResponse: the multipart request, the rules per question type, the
 * picture rule, the work order, location, provider and technician checks, and malformed requests.
 * Every test starts a fresh emulator on a free port (./helpers.js) and talks to it over real HTTP.
 */

const {
	useEmulator,
	tokenRequest,
	token,
	jwtLogin,
	api,
	answer,
	submit,
	expectError,
} = require('./helpers');

/** @type {import('../index').Emulator} */
let emu;
/** @type {any} */
let fx;
useEmulator((e) => {
	emu = e;
	fx = e.fixtures;
});

describe('POST /checklists/CheckListResponse', () => {
	test('201 with CheckListResponse and CheckListResponsePicture shaped as in the spec (no file: zeros and nulls)', async () => {
		const t = await token();
		const r = await submit(t, answer({ Answer: 'Yes' }));
		expect(r.status).toBe(201);
		expect(Object.keys(r.body)).toEqual(['CheckListResponse', 'CheckListResponsePicture']);
		const c = r.body.CheckListResponse;
		expect(c).toEqual({
			CheckListQuestionId: fx.questions.acknowledgement,
			CheckListQuestionOptionId: null,
			ProviderId: fx.providerId,
			TechnicianId: fx.technicianId,
			Id: expect.any(Number),
			Answer: 'yes',
			FreeTextAnswer: null,
			EntityId: fx.workOrders.checklist,
			EntityTypeId: 0,
			Attempt: 1,
			UpdatedDate: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?$/),
			UpdatedDateStr: expect.stringMatching(/^\d\d\/\d\d\/\d{4} \d\d:\d\d [AP]M$/),
			UpdatedDateDto: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?-0[56]:00$/), // the location's zone (Dallas)
		});
		expect(r.body.CheckListResponsePicture).toEqual({
			Id: 0,
			CheckListResponseId: 0,
			DocumentName: null,
			DocumentPath: null,
			ThumbnailPath: null,
			HasThumbnail: null,
			UpdatedBy: null,
		});
		const second = await submit(t, answer({ Answer: 'no', Attempt: 2 }));
		expect(second.body.CheckListResponse.Id).not.toBe(c.Id);
		expect(emu.state.checklistResponses).toHaveLength(2);
		expect(emu.state.checklistResponses[0]).toMatchObject({
			Id: c.Id,
			workOrderId: fx.workOrders.checklist,
			file: null,
		});
	});

	test('Acknowledgement accepts on, off, 1, 0, true, false, yes, no (any case, or a JSON boolean); anything else 400', async () => {
		const t = await token();
		for (const word of ['on', 'off', '1', '0', 'true', 'false', 'yes', 'no', 'YES', 'On']) {
			const r = await submit(t, answer({ Answer: word }));
			expect([word, r.status, r.body.CheckListResponse.Answer]).toEqual([
				word,
				201,
				word.toLowerCase(),
			]);
		}
		const b = await submit(
			t,
			answer({ Answer: true }),
			null,
			'Answer is a string (a number is allowed, not a boolean)',
		);
		expect([b.status, b.body.CheckListResponse.Answer]).toEqual([201, 'true']);
		expectError(await submit(t, answer({ Answer: 'maybe' })), 400, 3007);
		expectError(await submit(t, answer({ Answer: '2' })), 400, 3007);
	});

	test('Answer is required for every type except Selector', async () => {
		const t = await token();
		for (const q of [
			fx.questions.acknowledgement,
			fx.questions.textEntry,
			fx.questions.numericInput,
		]) {
			expectError(await submit(t, answer({ CheckListQuestionID: q })), 400, 3006);
			expectError(await submit(t, answer({ CheckListQuestionID: q, Answer: '' })), 400, 3006);
		}
	});

	test('Selector: option required and must belong to the question; Answer is the option label', async () => {
		const t = await token();
		const { questionId, optionId, label } = fx.questions.selectorPlain;
		expectError(await submit(t, answer({ CheckListQuestionID: questionId })), 400, 3002);
		expectError(
			await submit(
				t,
				answer({ CheckListQuestionID: questionId, CheckListQuestionOptionID: 12345 }),
			),
			400,
			3003,
		);
		const ok = await submit(
			t,
			answer({ CheckListQuestionID: questionId, CheckListQuestionOptionID: optionId }),
		);
		expect(ok.status).toBe(201);
		expect(ok.body.CheckListResponse).toMatchObject({
			CheckListQuestionOptionId: optionId,
			Answer: label,
			FreeTextAnswer: null,
		});
	});

	test('Selector: the sample spelling CheckListQuestionOptionId is accepted', async () => {
		const t = await token();
		const r = await submit(
			t,
			answer({
				CheckListQuestionID: fx.questions.selector,
				CheckListQuestionOptionId: fx.questions.selectorOptions.replaced,
			}),
		);
		expect(r.status).toBe(201);
		expect(r.body.CheckListResponse).toMatchObject({
			CheckListQuestionOptionId: fx.questions.selectorOptions.replaced,
			Answer: 'Replaced',
		});
	});

	test('Selector: FreeTextAnswer required for an IsConditionalFollowUp option, refused for other options', async () => {
		const t = await token();
		const { questionId, optionId } = fx.questions.selectorConditional;
		expectError(
			await submit(
				t,
				answer({ CheckListQuestionID: questionId, CheckListQuestionOptionID: optionId }),
			),
			400,
			3004,
		);
		const ok = await submit(
			t,
			answer({
				CheckListQuestionID: questionId,
				CheckListQuestionOptionID: optionId,
				FreeTextAnswer: 'Fan bearing worn',
			}),
		);
		expect(ok.status).toBe(201);
		expect(ok.body.CheckListResponse).toMatchObject({
			Answer: 'Needs repair',
			FreeTextAnswer: 'Fan bearing worn',
			CheckListQuestionOptionId: optionId,
		});
		const plain = fx.questions.selectorPlain;
		expectError(
			await submit(
				t,
				answer({
					CheckListQuestionID: plain.questionId,
					CheckListQuestionOptionID: plain.optionId,
					FreeTextAnswer: 'x',
				}),
			),
			400,
			3005,
		);
	});

	test('FreeTextAnswer is not allowed for non-Selector questions', async () => {
		const t = await token();
		expectError(await submit(t, answer({ Answer: 'yes', FreeTextAnswer: 'comment' })), 400, 3005);
		expectError(
			await submit(
				t,
				answer({ CheckListQuestionID: fx.questions.textEntry, Answer: 'a', FreeTextAnswer: 'c' }),
			),
			400,
			3005,
		);
	});

	test('Text Entry: at most 500 characters; returned in lower case', async () => {
		const t = await token();
		const ok = await submit(
			t,
			answer({
				CheckListQuestionID: fx.questions.textEntry,
				Answer: 'Replaced Belt ' + 'A'.repeat(486),
			}),
		);
		expect(ok.status).toBe(201);
		expect(ok.body.CheckListResponse.Answer).toBe('replaced belt ' + 'a'.repeat(486));
		expect(ok.body.CheckListResponse.Answer).toHaveLength(500);
		expectError(
			await submit(
				t,
				answer({ CheckListQuestionID: fx.questions.textEntry, Answer: 'x'.repeat(501) }),
			),
			400,
			3008,
		);
	});

	test('Numeric Input: a JSON number or a numeric string, returned as a numeric string; other text 400', async () => {
		const t = await token();
		const q = fx.questions.numericInput;
		const n = await submit(t, answer({ CheckListQuestionID: q, Answer: 72.5 }));
		expect(n.status).toBe(201);
		expect(n.text).toContain('"Answer":"72.5"');
		const s = await submit(t, answer({ CheckListQuestionID: q, Answer: '-4' }));
		expect(s.body.CheckListResponse.Answer).toBe('-4');
		expectError(await submit(t, answer({ CheckListQuestionID: q, Answer: 'warm' })), 400, 3009);
		expectError(await submit(t, answer({ CheckListQuestionID: q, Answer: '12abc' })), 400, 3009);
	});

	test('CheckListQuestionID, ProviderID, TechnicianID, EntityID and Attempt are required integers; Attempt >= 1', async () => {
		const t = await token();
		for (const f of ['CheckListQuestionID', 'ProviderID', 'TechnicianID', 'EntityID', 'Attempt']) {
			const req = answer({ Answer: 'yes' });
			delete req[f];
			const r = await submit(t, req, null, `${f} is required`);
			expectError(r, 400, 2007);
			expect(r.body.ErrorMessage).toContain(f);
		}
		expectError(
			await submit(
				t,
				answer({ Answer: 'yes', ProviderID: 'acme' }),
				null,
				'ProviderID is an integer',
			),
			400,
			2006,
		);
		expectError(
			await submit(t, answer({ Answer: 'yes', Attempt: 1.5 }), null, 'Attempt is an integer'),
			400,
			2006,
		);
		const zero = await submit(t, answer({ Answer: 'yes', Attempt: 0 }));
		expectError(zero, 400, 3014);
		expect(zero.body.ErrorMessage).toMatch(/visit/);
	});

	test('PictureFlag 2 requires a file; with a file the picture object is filled (DocumentPath #workorders/..., HasThumbnail for images)', async () => {
		const t = await token();
		const req = answer({ CheckListQuestionID: fx.questions.pictureRequired, Answer: 'yes' });
		expectError(await submit(t, req), 400, 3010);
		expectError(await submit(t, req, { name: 'empty.jpg', data: Buffer.alloc(0) }), 400, 3010);
		const img = Buffer.from([0xff, 0xd8, 0xff, 0xe0, 1, 2, 3, 4, 0xff, 0xd9]);
		const r = await submit(t, req, { name: 'nameplate.jpg', data: img, type: 'image/jpeg' });
		expect(r.status).toBe(201);
		const pic = r.body.CheckListResponsePicture;
		expect(pic).toEqual({
			Id: expect.any(Number),
			CheckListResponseId: r.body.CheckListResponse.Id,
			DocumentName: 'nameplate.jpg',
			DocumentPath: expect.stringMatching(/^#workorders\/\S+$/),
			ThumbnailPath: expect.stringMatching(/^#workorders\/\S+$/),
			HasThumbnail: true,
			UpdatedBy: fx.users.subscriber.userId,
		});
		expect(pic.Id).toBeGreaterThan(0);
		const stored = emu.state.checklistResponses.at(-1);
		expect(stored.file).toMatchObject({
			filename: 'nameplate.jpg',
			contentType: 'image/jpeg',
			size: img.length,
		});
		expect(Buffer.compare(stored.file.data, img)).toBe(0);
		const pdf = await submit(t, answer({ Answer: 'yes' }), {
			name: 'report.pdf',
			data: Buffer.from('%PDF-1.4'),
			type: 'application/pdf',
		});
		expect(pdf.body.CheckListResponsePicture).toMatchObject({
			DocumentName: 'report.pdf',
			HasThumbnail: false,
		});
	});

	test('the work order must exist and be visible', async () => {
		const t = await token();
		expectError(await submit(t, answer({ Answer: 'yes', EntityID: 99999999 })), 404, 5002);
		expectError(
			await submit(t, answer({ Answer: 'yes', EntityID: fx.workOrders.child2001[0] })),
			404,
			5002,
		);
	});

	test('the work order trade+category must have a checklist that contains the question', async () => {
		const t = await token();
		expectError(
			await submit(t, answer({ Answer: 'yes', EntityID: fx.workOrders.noChecklist })),
			400,
			3012,
		);
		expectError(
			await submit(t, answer({ Answer: 'yes', EntityID: fx.workOrders.electricalChecklist })),
			400,
			3001,
		);
		const ok = await submit(
			t,
			answer({
				Answer: 'yes',
				CheckListQuestionID: fx.questions.electrical,
				EntityID: fx.workOrders.electricalChecklist,
			}),
		);
		expect(ok.status).toBe(201);
	});

	test('per-location enablement: a work order at a location with checklists disabled is refused', async () => {
		const t = await token();
		const r = await submit(
			t,
			answer({ Answer: 'yes', EntityID: fx.workOrders.checklistDisabledLocation }),
		);
		expectError(r, 400, 3013);
		expect(r.body.ErrorMessage).toContain(String(fx.locations.checklistsDisabled));
	});

	test('a child subscriber without per-location checklists answers its own checklist with a scoped token', async () => {
		const uni = await token('universal');
		const child = (
			await tokenRequest({ subsidiary_id: '2001' }, { headers: { authorization: `Bearer ${uni}` } })
		).body.access_token;
		const wo = fx.workOrders.child2001[0];
		const r = await submit(child, {
			CheckListQuestionID: fx.questions.child2001,
			ProviderID: 3002,
			TechnicianID: fx.otherTechnicianId,
			EntityID: wo,
			Attempt: 1,
			Answer: 'on',
		});
		expect(r.status).toBe(201);
	});

	test('ProviderID must be the work order provider and TechnicianID one of its technicians', async () => {
		const t = await token();
		expectError(await submit(t, answer({ Answer: 'yes', ProviderID: 3002 })), 400, 3015);
		expectError(
			await submit(t, answer({ Answer: 'yes', TechnicianID: fx.otherTechnicianId })),
			400,
			3015,
		);
	});

	test('the contractor (JWT) can submit for its provider', async () => {
		const j = await jwtLogin();
		const r = await submit(j.access_token, answer({ Answer: 'off' }));
		expect(r.status).toBe(201);
		expect(emu.state.checklistResponses.at(-1)).toMatchObject({
			username: fx.users.contractor.username,
		});
	});

	test('malformed requests: not multipart 415, missing JSON part 400, bad JSON 400, broken multipart 400', async () => {
		const t = await token();
		const asJson = await api('POST', '/checklists/CheckListResponse', {
			token: t,
			json: answer({ Answer: 'yes' }),
			deliberate: 'the call takes multipart',
		});
		expectError(asJson, 415, 2002);
		const fd = new FormData();
		fd.append('file', new Blob([Buffer.from('x')], { type: 'image/png' }), 'x.png');
		expectError(
			await api('POST', '/checklists/CheckListResponse', {
				token: t,
				body: fd,
				deliberate: 'no CheckListResponseRequest part',
			}),
			400,
			2005,
		);
		expectError(await submit(t, '{"CheckListQuestionID": 9101,', null, 'not JSON'), 400, 2001);
		expectError(await submit(t, '[1,2]', null, 'not an object'), 400, 2006);
		const broken = await api('POST', '/checklists/CheckListResponse', {
			token: t,
			body: '--abc\r\nContent-Disposition: form-data; name="CheckListResponseRequest"\r\n\r\n{}',
			headers: { 'content-type': 'multipart/form-data; boundary=abc' },
			deliberate: 'a broken multipart body',
		});
		expectError(broken, 400, 2005);
		const noBoundary = await api('POST', '/checklists/CheckListResponse', {
			token: t,
			body: 'x',
			headers: { 'content-type': 'multipart/form-data' },
			deliberate: 'multipart without a boundary',
		});
		expectError(noBoundary, 400, 2005);
		expect(emu.state.checklistResponses).toHaveLength(0);
	});

	test('the request log holds the multipart parts (name, filename, content type, size, data, parsed JSON)', async () => {
		const t = await token();
		const req = answer({ Answer: 'yes' });
		await submit(t, req, { name: 'p.png', data: Buffer.from('PNGDATA'), type: 'image/png' });
		const entry = emu.requests.at(-1);
		expect(entry).toMatchObject({
			method: 'POST',
			path: '/api/v3/checklists/CheckListResponse',
			status: 201,
			tokenKind: 'oauth',
		});
		const parts = /** @type {any[]} */ (entry.parts);
		expect(parts.map((p) => p.name)).toEqual(['CheckListResponseRequest', 'file']);
		expect(parts[0].json).toEqual(req);
		expect(parts[1]).toMatchObject({ filename: 'p.png', contentType: 'image/png', size: 7 });
		expect(parts[1].data.toString()).toBe('PNGDATA');
	});
});

// =================================================================================================
