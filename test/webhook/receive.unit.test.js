'use strict';
/**
 * The webhook trigger's handling of one delivery (webhook/receive, compiled, from dist/), without
 * HTTP: which deliveries are refused before any key is read, the refusals' answers, and the items
 * built from the events chosen.
 */
const crypto = require('node:crypto');
const { ROOT } = require('../support');

const receive = require(`${ROOT}/dist/nodes/WorkOrderService/webhook/receive.js`);

describe('receiving a delivery', () => {
	const body = '{"EventType":"WorkOrderCreated","Object":{"Id":1}}';
	const sign = crypto.randomBytes(32).toString('base64');

	test('no body, or no valid Sign-Data header: 401 before any key is read', () => {
		expect(receive.signedBody({ headers: { 'sign-data': sign } })).toEqual({
			refusal: {
				status: 401,
				message: 'Delivery refused: no body to verify',
				log: 'Work Order Service Trigger: refused a delivery without a body (401)',
			},
		});
		expect(
			receive.signedBody({ rawBody: Buffer.alloc(0), headers: { 'sign-data': sign } }).refusal
				.status,
		).toBe(401);
		for (const header of [
			undefined,
			'',
			'not base64!',
			crypto.randomBytes(16).toString('base64'),
		]) {
			const { refusal } = receive.signedBody({
				rawBody: Buffer.from(body),
				headers: { 'sign-data': header },
			});
			expect(refusal.status).toBe(401);
			expect(refusal.message).toBe('Delivery refused: missing or malformed Sign-Data signature');
		}
	});

	test('a body as Buffer or text and a 32-byte signature (also base64url, also the first of repeated headers) go on to verification', () => {
		const signature = Buffer.from(sign, 'base64');
		expect(
			receive.signedBody({ rawBody: Buffer.from(body), headers: { 'sign-data': sign } }),
		).toEqual({ raw: Buffer.from(body), signature });
		expect(
			receive.signedBody({
				rawBody: body,
				headers: { 'sign-data': [signature.toString('base64url')] },
			}),
		).toEqual({ raw: Buffer.from(body), signature });
	});

	test('a signature that does not verify: 503 with Retry-After when the key could not be read, else 401', () => {
		const late = receive.refusalFor({ kind: 'late' });
		expect(late).toMatchObject({
			status: 503,
			headers: { 'retry-after': '60' },
			message: 'The signing key could not be read in time; send again later',
		});
		expect(late.log).toContain(`not read within ${receive.KEY_BUDGET_MS / 1000} s`);
		const failed = receive.refusalFor({ kind: 'failed', error: new Error('403 Forbidden') });
		expect(failed.status).toBe(503);
		expect(failed.log).toContain('could not be read (403 Forbidden)');
		const mismatch = receive.refusalFor({ kind: 'key', key: 'secret-key', readAt: Date.now() });
		expect(mismatch).toEqual({
			status: 401,
			message: 'Delivery refused: the signature does not match',
			log: "Work Order Service Trigger: refused a delivery whose signature matches neither reading of the account's signing key (401)",
		});
		expect(JSON.stringify(mismatch)).not.toContain('secret-key');
	});

	test("items: only the events chosen; the service's test event only while listening in the editor", () => {
		const created = { EventType: 'WorkOrderCreated', Action: 'Created', Object: { Id: 1 } };
		const approved = { EventType: 'ProposalApproved', Object: { Id: 2 } };
		const test = { EventType: 'WorkOrderCreated', Object: { Source: 'WebhookTest' } };
		const probe = { EventType: 'Ping', Object: { Source: 'WebhookTest' } };
		const chosen = new Set(['WorkOrderCreated']);
		expect(
			receive.chosenItems([created, approved], chosen, false).map((i) => i.json.Object.Id),
		).toEqual([1]);
		expect(receive.chosenItems([approved, probe], chosen, false)).toEqual([]);
		expect(
			receive.chosenItems([approved, probe], chosen, true).map((i) => i.json.EventType),
		).toEqual(['Ping']);
		expect(receive.chosenItems([test], chosen, false)).toHaveLength(1);
		expect(
			Object.keys(
				receive.chosenItems([{ Type: 'Notification', ...created }], chosen, false)[0].json,
			),
		).toEqual(['EventType', 'Action', 'Object', 'Type']);
	});
});
