'use strict';
/**
 * workOrder.addAttachment: POST /workorders/{id}/attachments as multipart with the descriptor part
 * `AddAttachmentsRequest` = `{ Attachments: [ ... ] }` and the `file` from the item's binary field,
 * `actor` in the query (service-reference.md section 5); the 201 without a documented body as
 * `{ success, operation, workOrderId, ... }`; validation; the service's refusals; Continue On Fail.
 */
const {
	useEnvironment,
	expectBearer,
	pairedIndexes,
	expectValidationError,
	expectApiError,
} = require('../helpers');

const env = useEnvironment();

const WO = 90000014;
// bytes that break text-based multipart handling: CR LF, "--", NUL, high bytes
const JPEG = Buffer.from([
	0xff, 0xd8, 0xff, 0xe0, 0x0d, 0x0a, 0x2d, 0x2d, 0x00, 0x80, 0xfe, 0xff, 0xd9,
]);

function fileItem(json, key, data, fileName, mimeType) {
	return { json, binary: { [key]: { base64: data.toString('base64'), fileName, mimeType } } };
}

const base = (parameters) => ({
	resource: 'workOrder',
	operation: 'addAttachment',
	workOrderId: { __rl: true, mode: 'id', value: String(WO) },
	binaryPropertyName: 'data',
	...parameters,
});

describe('workOrder.addAttachment', () => {
	test('descriptor part and file part as the reference has them; actor in the query; the item says what was attached', async () => {
		const events = env.emulator.webhooks.events.length;
		const r = await env.run({
			parameters: base({
				binaryPropertyName: 'snapshot',
				additionalFields: {
					fileName: 'unit-1.jpg',
					description: 'Camera snapshot at alarm time',
					visibility: 'notProvider',
					isInvoiceDigitalCopy: false,
					actor: 'BMS',
				},
			}),
			items: [fileItem({ alarm: 'A-991' }, 'snapshot', JPEG, 'cam_0042.jpg', 'image/jpeg')],
		});
		expect(r.error).toBeUndefined();
		expect(r.api).toHaveLength(1);
		const q = r.api[0];
		expect(q.method).toBe('POST');
		expect(q.path).toBe(`/api/v3/workorders/${WO}/attachments`);
		expect(q.query).toEqual({ actor: 'BMS' });
		expect(q.headers['content-type']).toMatch(/^multipart\/form-data; boundary=\S+$/);
		expectBearer(env, q);
		expect(q.parts.map((p) => p.name)).toEqual(['AddAttachmentsRequest', 'file']);
		expect(q.parts[0].contentType).toBe('application/json');
		expect(JSON.parse(q.parts[0].data.toString('utf8'))).toEqual({
			Attachments: [
				{
					Name: 'unit-1.jpg',
					Type: 'File',
					MediaType: 'image/jpeg',
					Description: 'Camera snapshot at alarm time',
					Visibility: 2,
					IsInvoiceDigitalCopy: false,
				},
			],
		});
		expect(q.parts[1]).toMatchObject({
			filename: 'cam_0042.jpg',
			contentType: 'image/jpeg',
			size: JPEG.length,
		});
		expect(Buffer.compare(q.parts[1].data, JPEG)).toBe(0);
		expect(q.status).toBe(201);
		expect(q.responseBody ?? '').toBe(''); // 201 without a body

		const stored = env.emulator.state.attachments.at(-1);
		expect(stored).toMatchObject({
			WorkOrderId: WO,
			NoteId: null,
			FileName: 'unit-1.jpg',
			Description: 'Camera snapshot at alarm time',
			Visibility: 2,
		});
		expect(Buffer.compare(stored.data, JPEG)).toBe(0);
		expect(r.output).toEqual([
			{
				json: {
					success: true,
					operation: 'addAttachment',
					workOrderId: WO,
					fileName: 'unit-1.jpg',
					mimeType: 'image/jpeg',
					fileSize: JPEG.length,
				},
				pairedItem: { item: 0 },
			},
		]);
		expect(env.emulator.webhooks.events.slice(events).map((e) => e.eventType)).toEqual([
			'WorkOrderAttachmentAdded',
		]);
	});

	test("no Additional Fields: the file's own name and type describe it, no query; the work order lists the file", async () => {
		const data = Buffer.from('alarm log\r\n--\r\nsupply air 88F');
		const r = await env.run({
			parameters: base({}),
			items: [fileItem({}, 'data', data, 'alarm.log', 'text/plain')],
		});
		expect(r.error).toBeUndefined();
		expect(r.api[0].query).toEqual({});
		expect(r.api[0].parts[0].json).toEqual({
			Attachments: [{ Name: 'alarm.log', Type: 'File', MediaType: 'text/plain' }],
		});
		const listed = await env.run({
			parameters: {
				resource: 'workOrderNote',
				operation: 'getAttachments',
				workOrderId: WO,
				noteId: '',
				returnAll: true,
			},
		});
		expect(listed.output.map((o) => o.json.Name)).toContain('alarm.log');
	});

	test('the service answering with the new IDs: kept in the item', async () => {
		env.emulator.failNext({
			method: 'POST',
			path: `/api/v3/workorders/${WO}/attachments`,
			status: 201,
			afterProcessing: true,
			body: [880101],
		});
		const r = await env.run({
			parameters: base({}),
			items: [fileItem({}, 'data', JPEG, 'a.jpg', 'image/jpeg')],
		});
		expect(r.error).toBeUndefined();
		expect(r.output[0].json).toEqual({
			success: true,
			operation: 'addAttachment',
			workOrderId: WO,
			fileName: 'a.jpg',
			mimeType: 'image/jpeg',
			fileSize: JPEG.length,
			ids: [880101],
		});
	});

	test('no such work order: the service refuses (502), a NodeApiError', async () => {
		const r = await env.run({
			parameters: base({ workOrderId: 91999999 }),
			items: [fileItem({}, 'data', JPEG, 'a.jpg', 'image/jpeg')],
		});
		expectApiError(r, {
			status: 400,
			serviceMessage: 'Work order 91999999 was not found',
			code: 502,
		});
	});

	test('Continue On Fail: an item without the file is an error item; the others are attached', async () => {
		const r = await env.run({
			parameters: base({ workOrderId: '={{ $json.wo }}' }),
			items: [
				fileItem({ wo: WO }, 'data', JPEG, 'a.jpg', 'image/jpeg'),
				{ json: { wo: WO } },
				fileItem({ wo: 90000013 }, 'data', JPEG, 'c.jpg', 'image/jpeg'),
			],
			continueOnFail: true,
		});
		expect(r.api.map((q) => q.path)).toEqual([
			`/api/v3/workorders/${WO}/attachments`,
			'/api/v3/workorders/90000013/attachments',
		]);
		expect(pairedIndexes(r.output)).toEqual([0, 1, 2]);
		expect(r.output[1].json.error).toContain(
			'Invalid Input Binary Field (parameter "binaryPropertyName") in item 1',
		);
		expect(r.output[2].json).toMatchObject({
			success: true,
			workOrderId: 90000013,
			fileName: 'c.jpg',
		});
	});

	test.each([
		[
			'an empty file',
			{},
			[fileItem({}, 'data', Buffer.alloc(0), 'empty.txt', 'text/plain')],
			'binaryPropertyName',
			/is empty/,
		],
		[
			'another binary field',
			{ binaryPropertyName: 'photo' },
			[fileItem({}, 'data', JPEG, 'a.jpg', 'image/jpeg')],
			'binaryPropertyName',
			/no binary property "photo"/,
		],
		[
			'a bad visibility from an expression',
			{ additionalFields: { visibility: '={{ "friends" }}' } },
			[fileItem({}, 'data', JPEG, 'a.jpg', 'image/jpeg')],
			'additionalFields.visibility',
			/must be default, notExternalSubscriber, notProvider or subscriberOnly/,
		],
	])('%s is refused before any request', async (_name, parameters, input, parameter, problem) => {
		const r = await env.run({ parameters: base(parameters), items: input });
		expectValidationError(r, { parameter, item: 0, problem });
		expect(r.api).toHaveLength(0);
	});
});
