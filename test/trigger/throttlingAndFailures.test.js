'use strict';
/**
 * Work Order Service Trigger: throttling, transient failures, failed polls and how their errors
 * surface. A tick's error goes to n8n-core's `__emitError` (n8n records a failed execution and
 * runs the error workflow); an activation's error is thrown (the activation fails).
 */
const { NodeApiError } = require('n8n-workflow');
const H = require('./helpers');

const env = H.useHarness();
const ALL_FIXTURES = Array.from({ length: 120 }, (_, i) => 90000001 + i);
const LIST = '/api/v3/odata/workorders';

/** Calls `action` once, after the first answered page of a window read. */
function afterFirstPage(emu, action) {
	let pages = 0;
	emu.onResponse = (entry) => {
		if (entry.path !== LIST || entry.query.$skip === undefined) return;
		if (++pages === 1) action();
	};
}

describe('throttling and failures', () => {
	test('429 with Retry-After in the middle of paging: waited out, the poll completes, each record once', async () => {
		const { emu, credentialId } = await H.freshService(env.harness);
		const trigger = await env.harness.activate(H.triggerWorkflow({ credentialId }));
		emu.updateWorkOrders(ALL_FIXTURES, { Description: 'bulk change' });
		afterFirstPage(emu, () =>
			emu.failNext({
				path: LIST,
				status: 429,
				headers: { 'retry-after': '1' },
				body: { ErrorCode: 6001, ErrorMessage: 'Too many requests' },
			}),
		);
		const from = H.mark(emu);
		const started = Date.now();
		const result = await trigger.poll();
		emu.onResponse = null;
		expect(result.error).toBeUndefined();
		expect(Date.now() - started).toBeGreaterThanOrEqual(900);
		expect(H.ids(result)).toEqual(ALL_FIXTURES);
		expect(H.reads(emu, from).map((r) => [r.status, r.$skip])).toEqual([
			[200, '0'],
			[429, '49'],
			[200, '49'],
			[200, '98'],
		]);
	});

	test('a failed poll keeps the cursor (error to n8n as a failed trigger execution); the next poll emits everything once', async () => {
		const { emu, credentialId } = await H.freshService(env.harness);
		const trigger = await env.harness.activate(
			H.triggerWorkflow({ credentialId, requestOptions: { maxRetries: 1 } }),
		);
		const before = trigger.nodeStaticData;
		const changes = H.changeMark(emu);
		emu.updateWorkOrders(ALL_FIXTURES.slice(0, 80), { Description: 'bulk change' });
		const created = emu.createWorkOrders([{}, {}]);
		// the second page fails twice: once, and once more when retried
		afterFirstPage(emu, () =>
			emu.failNext({
				path: LIST,
				status: 500,
				count: 2,
				body: { ErrorCode: 9000, ErrorMessage: 'Database timeout' },
			}),
		);
		const failed = await trigger.poll();
		emu.onResponse = null;
		expect(failed.errorVia).toBe('emitError');
		expect(failed.error).toBeInstanceOf(NodeApiError);
		expect(failed.error.httpCode).toBe('500');
		expect(failed.error.message).toContain('Database timeout');
		expect(failed.error.message).toContain('gave up after 2 attempts');
		expect(failed.items).toEqual([]);
		expect(failed.executions).toEqual([]);
		expect(failed.nodeStaticData).toEqual(before); // the state is untouched
		expect(failed.saved).toBeUndefined();

		emu.advanceTime(5);
		const good = await trigger.poll();
		expect(good.error).toBeUndefined();
		expect(H.ids(good)).toEqual(H.expectedUpdated(emu, changes));
		expect(H.ids(good)).toEqual([...ALL_FIXTURES.slice(0, 80), ...created.map((w) => w.Id)]);
		emu.advanceTime(5);
		expect((await trigger.poll()).items).toEqual([]);
	});

	test('a throttle longer than Max Wait fails the poll at once with what to change; nothing is lost', async () => {
		const { emu, credentialId } = await H.freshService(env.harness);
		const trigger = await env.harness.activate(
			H.triggerWorkflow({ credentialId, requestOptions: { maxWaitSeconds: 5 } }),
		);
		emu.updateWorkOrder(90000009, { Description: 'waiting' });
		emu.failNext({ path: LIST, status: 429, headers: { 'retry-after': '120' } });
		const started = Date.now();
		const throttled = await trigger.poll();
		expect(Date.now() - started).toBeLessThan(3000);
		expect(throttled.errorVia).toBe('emitError');
		expect(throttled.error).toBeInstanceOf(NodeApiError);
		expect(throttled.error.httpCode).toBe('429');
		expect(throttled.error.description).toMatch(/would exceed Max Wait \(5 s\)/);
		expect(throttled.items).toEqual([]);
		const next = await trigger.poll();
		expect(H.ids(next)).toEqual([90000009]);
	});

	test('a dropped connection and a 503 on reads are retried within the poll', async () => {
		const { emu, credentialId } = await H.freshService(env.harness);
		const trigger = await env.harness.activate(H.triggerWorkflow({ credentialId }));
		emu.updateWorkOrder(90000009, { Description: 'one' });
		emu.dropNext({ path: LIST });
		emu.failNext({ path: LIST, status: 503, headers: { 'retry-after': '0' } });
		const result = await trigger.poll();
		expect(result.error).toBeUndefined();
		expect(H.ids(result)).toEqual([90000009]);
		expect(
			H.reads(emu)
				.slice(-3)
				.map((r) => r.status),
		).toEqual([null, 503, 200]);
	});

	test.each([
		['a bare array', [{ Id: 1 }]],
		['an object without "value"', { Items: [] }],
		['"value" that is not a list', { value: { Id: 1 } }],
	])(
		'an answer that is not an OData list (%s) fails the activation, naming the path and the credential',
		async (_, body) => {
			const { emu, credentialId } = await H.freshService(env.harness);
			emu.failNext({ path: LIST, status: 200, body });
			const trigger = await env.harness.activate(H.triggerWorkflow({ credentialId }));
			expect(trigger.activation.errorVia).toBe('thrown');
			expect(trigger.activation.error).toBeInstanceOf(NodeApiError);
			expect(trigger.activation.error.message).toBe(
				'The Work Order Service answered GET /odata/workorders with no "value" list',
			);
			expect(trigger.activation.error.description).toBe(
				'The response did not have the expected list shape. Check the API Base URL of the credential.',
			);
			expect(trigger.activation.nodeStaticData).toEqual({});
		},
	);

	test("an OData filter the service refuses fails the activation with the service's message", async () => {
		const { credentialId } = await H.freshService(env.harness);
		const trigger = await env.harness.activate(
			H.triggerWorkflow({ credentialId, filters: { filter: 'Nte gt' } }),
		);
		expect(trigger.activation.errorVia).toBe('thrown');
		expect(trigger.activation.error).toBeInstanceOf(NodeApiError);
		expect(trigger.activation.error.httpCode).toBe('400');
		expect(trigger.activation.error.message).toMatch(/^The Work Order Service answered 400/);
		expect(trigger.activation.nodeStaticData).toEqual({});
	});
});
