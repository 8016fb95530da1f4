'use strict';
/**
 * workOrder.checkOut: POST /workorders/{id}/universalCheckOut with the reference's
 * CheckOutRequest: ActionStatus (Complete / Cancel), PrimaryStatus, ExtendedStatus, Resolution,
 * SignatureAttachmentId or UnableObtainSignatureNoteId (int64, exact), the position; the
 * reference's rules checked before any request; the answer `{ MechanicId }` is the item (what
 * checkIn and checkOut share: ./checkInOut.js).
 */
const {
	useEnvironment,
	items,
	expectJsonRequest,
	expectValidationError,
	expectApiError,
} = require('../helpers');
const {
	AT_501,
	REPAIR_BODY,
	openCheckIn,
	checkInOutTests,
	validationTests,
} = require('./checkInOut');

const env = useEnvironment();

describe('workOrder.checkOut', () => {
	test('a repair check-out completing the work: PrimaryStatus, ExtendedStatus, Resolution, the signature note (int64, exact)', async () => {
		await openCheckIn(env, 90000001);
		const note = env.emulator.addNote(
			90000001,
			'Store manager was not available to sign.',
			'contractor',
		);
		expect(note.Id > 9007199254740992n).toBe(true);
		const r = await env.run({
			parameters: {
				resource: 'workOrder',
				operation: 'checkOut',
				workOrderId: 90000001,
				...AT_501,
				primaryStatus: 'Completed',
				additionalFields: {
					extendedStatus: 'PENDING CONFIRMATION',
					resolution: 'Replaced the filters.',
					unableObtainSignatureNoteId: note.Id.toString(),
					techsCount: 1,
				},
			},
		});
		expect(r.error).toBeUndefined();
		expectJsonRequest(r.api[0], {
			method: 'POST',
			path: '/api/v3/workorders/90000001/universalCheckOut',
		});
		expect(r.api[0].body).toEqual({
			...REPAIR_BODY,
			ActionStatus: 'Complete',
			PrimaryStatus: 'Completed',
			ExtendedStatus: 'PENDING CONFIRMATION',
			Resolution: 'Replaced the filters.',
			UnableObtainSignatureNoteId: note.Id.toString(),
			TechsCount: 1,
		});
		// a note ID beyond 2^53 goes out as its exact digits
		expect(r.api[0].rawBody.toString()).toContain(`"UnableObtainSignatureNoteId":"${note.Id}"`);
		expect(r.api[0].status).toBe(200);
		const record = env.emulator.state.checkIns.at(-1);
		expect(record).toMatchObject({
			Kind: 'CheckOut',
			ActionStatus: 'Complete',
			Resolution: 'Replaced the filters.',
		});
		expect(r.output).toEqual([
			{
				json: {
					success: true,
					operation: 'checkOut',
					workOrderId: 90000001,
					MechanicId: record.Id,
				},
				pairedItem: { item: 0 },
			},
		]);
		expect(env.emulator.workOrder(90000001)).toMatchObject({
			Status: { Primary: 'COMPLETED', Extended: 'PENDING CONFIRMATION' },
			Resolution: 'Replaced the filters.',
		});
	});

	test('Cancel pauses the visit: no position needed, no status change', async () => {
		await openCheckIn(env, 90000020);
		const before = { ...env.emulator.workOrder(90000020).Status };
		const r = await env.run({
			parameters: {
				resource: 'workOrder',
				operation: 'checkOut',
				workOrderId: 90000020,
				actionStatus: 'Cancel',
			},
		});
		expect(r.error).toBeUndefined();
		expect(r.api[0].body).toEqual({ WorkTypeId: 1, ActionStatus: 'Cancel' });
		expect(env.emulator.workOrder(90000020).Status).toEqual(before);
	});

	test('a signature attachment of the work order', async () => {
		await openCheckIn(env, 90000005);
		const r = await env.run({
			parameters: {
				resource: 'workOrder',
				operation: 'checkOut',
				workOrderId: 90000005,
				...AT_501,
				additionalFields: { signatureAttachmentId: String(env.fixtures.notes.attachmentId) },
			},
		});
		expect(r.error).toBeUndefined();
		expect(r.api[0].body).toEqual({
			...REPAIR_BODY,
			ActionStatus: 'Complete',
			SignatureAttachmentId: env.fixtures.notes.attachmentId,
		});
	});

	test('without an open check-in the service refuses (400, 503) and the node reports it as a NodeApiError', async () => {
		const r = await env.run({
			parameters: {
				resource: 'workOrder',
				operation: 'checkOut',
				workOrderId: 90000021,
				...AT_501,
			},
		});
		expectApiError(r, {
			status: 400,
			serviceMessage: 'has no check-in on work order 90000021',
			code: 503,
		});
	});

	checkInOutTests(env, 'checkOut', async (ids) => {
		for (const id of ids) await openCheckIn(env, id);
	});
});

describe("workOrder.checkOut: the reference's rules, checked before any request", () => {
	validationTests(env, [
		[
			'checkOut',
			{ latitude: '', longitude: '' },
			'latitude',
			/is required for a repair or travel check-out/,
		],
		[
			'checkOut',
			{ workType: 'travel', latitude: '', longitude: '' },
			'latitude',
			/is required for a repair or travel check-out/,
		],
		[
			'checkOut',
			{
				additionalFields: { signatureAttachmentId: '880001', unableObtainSignatureNoteId: '15001' },
			},
			'additionalFields.unableObtainSignatureNoteId',
			/together with Signature Attachment ID/,
		],
		[
			'checkOut',
			{ workType: 'travel', additionalFields: { resolution: 'done' } },
			'additionalFields.resolution',
			/repair check-out that is not a Cancel/,
		],
		[
			'checkOut',
			{ actionStatus: 'Cancel', additionalFields: { resolution: 'done' } },
			'additionalFields.resolution',
			/repair check-out that is not a Cancel/,
		],
		[
			'checkOut',
			{ additionalFields: { extendedStatus: 'PARTS ON ORDER' } },
			'additionalFields.extendedStatus',
			/Primary Status that changes the status/,
		],
		[
			'checkOut',
			{ additionalFields: { unableObtainSignatureNoteId: '9223372036854775808' } },
			'additionalFields.unableObtainSignatureNoteId',
			/64-bit maximum/,
		],
		['checkOut', { additionalFields: { userId: 0 } }, 'additionalFields.userId', /1 or greater/],
		[
			'checkOut',
			{ additionalFields: { techsCount: 1.5 } },
			'additionalFields.techsCount',
			/whole number/,
		],
	]);

	test('bad work order ID on checkOut is refused before any request', async () => {
		await openCheckIn(env, 90000012);
		const r = await env.run({
			parameters: {
				resource: 'workOrder',
				operation: 'checkOut',
				workOrderId: '={{ $json.id }}',
				...AT_501,
			},
			items: items({ id: 90000012 }, { id: '' }),
		});
		expectValidationError(r, { parameter: 'workOrderId', item: 1 });
		expect(r.api.map((q) => q.path)).toEqual(['/api/v3/workorders/90000012/universalCheckOut']);
	});
});
