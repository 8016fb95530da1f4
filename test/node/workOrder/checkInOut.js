'use strict';
/**
 * What workOrder.checkIn and workOrder.checkOut share (not a test file): the reference's request
 * fields (WorkTypeId, Latitude/Longitude, UserId, TechsCount, Actor), optional fields left empty
 * send nothing, one POST per item with Continue On Fail, and bad values refused before any
 * request. checkIn.test.js and checkOut.test.js call these inside their own describe, with their
 * own emulator and harness.
 */
const { items, pairedIndexes, expectValidationError } = require('../helpers');

const ENDPOINTS = {
	checkIn: 'universalCheckIn',
	checkOut: 'universalCheckOut',
};

/** Dallas, where location 501 is. */
const AT_501 = { latitude: '32.7767', longitude: '-96.797' };

/** The body every repair check-in / check-out starts with. */
const REPAIR_BODY = { WorkTypeId: 1, Latitude: 32.7767, Longitude: -96.797 };

/**
 * Checks the technician in (through the emulator's API, as another client would) so that a
 * check-out has an open check-in to close.
 * @param {any} env @param {number} workOrderId @param {string} [who] fixtures.users key
 */
async function openCheckIn(env, workOrderId, who = 'subscriber') {
	const user = env.fixtures.users[who];
	const client = env.fixtures.clients.main;
	const token = await fetch(`${env.emulator.authUrl}/oauth/token`, {
		method: 'POST',
		headers: {
			authorization: `Basic ${Buffer.from(`${client.clientId}:${client.clientSecret}`).toString('base64')}`,
			'content-type': 'application/x-www-form-urlencoded',
		},
		body: new URLSearchParams({
			grant_type: 'password',
			username: user.username,
			password: user.password,
		}),
	}).then((r) => r.json());
	const r = await fetch(`${env.emulator.baseUrl}/v3/workorders/${workOrderId}/universalCheckIn`, {
		method: 'POST',
		headers: { authorization: `Bearer ${token.access_token}`, 'content-type': 'application/json' },
		body: JSON.stringify({ WorkTypeId: 1, Latitude: 32.7767, Longitude: -96.797 }),
	});
	if (r.status !== 200) throw new Error(`check-in failed: ${r.status} ${await r.text()}`);
	return (await r.json()).MechanicId;
}

/** @param {any} env @param {'checkIn' | 'checkOut'} operation @param {(ids: number[]) => Promise<void>} [prepare] */
function checkInOutTests(env, operation, prepare = async () => {}) {
	const endpoint = ENDPOINTS[operation];

	test(`${operation}: options added but left empty send nothing (no 0 IDs, no empty actor)`, async () => {
		await prepare([90000014]);
		const r = await env.run({
			parameters: {
				resource: 'workOrder',
				operation,
				workOrderId: 90000014,
				...AT_501,
				// what the editor stores when the options are added and left as they come
				additionalFields: { userId: '', actor: '' },
			},
		});
		expect(r.error).toBeUndefined();
		expect(r.api).toHaveLength(1);
		expect(r.api[0].body).toEqual(
			operation === 'checkIn' ? REPAIR_BODY : { ...REPAIR_BODY, ActionStatus: 'Complete' },
		);
		expect(r.output[0].json).toEqual({
			success: true,
			operation,
			workOrderId: 90000014,
			MechanicId: env.emulator.state.checkIns.at(-1).Id,
		});
	});

	test(`${operation}: several input items -> one POST per item; Continue On Fail with a bad latitude`, async () => {
		await prepare([90000004, 90000006]);
		const r = await env.run({
			parameters: {
				resource: 'workOrder',
				operation,
				workOrderId: '={{ $json.id }}',
				latitude: '={{ $json.lat }}',
				longitude: '-96.797',
			},
			items: items(
				{ id: 90000004, lat: 10 },
				{ id: 90000005, lat: 95 },
				{ id: 90000006, lat: -10 },
			),
			continueOnFail: true,
		});
		expect(r.result.status).toBe('success');
		expect(r.api.map((q) => [q.method, q.path, q.body.Latitude])).toEqual([
			['POST', `/api/v3/workorders/90000004/${endpoint}`, 10],
			['POST', `/api/v3/workorders/90000006/${endpoint}`, -10],
		]);
		expect(pairedIndexes(r.output)).toEqual([0, 1, 2]);
		expect(r.output[0].json).toMatchObject({
			workOrderId: 90000004,
			MechanicId: expect.any(Number),
		});
		expect(r.output[1].json.error).toContain('Invalid Latitude (parameter "latitude") in item 1');
		expect(r.output[2].json).toMatchObject({
			workOrderId: 90000006,
			MechanicId: expect.any(Number),
		});
	});
}

/**
 * Bad values refused before any request. cases: [operation, parameters, parameter, problem].
 * @param {any} env @param {any[]} cases
 */
function validationTests(env, cases) {
	test.each(cases)(
		'%s: %j is refused before any request',
		async (operation, parameters, parameter, problem) => {
			const r = await env.run({
				parameters: {
					resource: 'workOrder',
					operation,
					workOrderId: '={{ $json.id }}',
					...AT_501,
					...parameters,
				},
				items: items({ id: 90000011 }),
			});
			expectValidationError(r, { parameter, item: 0, problem });
			expect(r.api).toHaveLength(0);
		},
	);
}

module.exports = { ENDPOINTS, AT_501, REPAIR_BODY, openCheckIn, checkInOutTests, validationTests };
