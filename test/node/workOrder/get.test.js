'use strict';
/**
 * workOrder.get: GET /workorders/{id}, one item per input item, the service's 404 as NodeApiError,
 * Continue On Fail, and bad IDs refused before any request. The Work Order parameter's forms
 * (resource locator, older workflows' values): workOrderId.test.js.
 */
const {
	useEnvironment,
	items,
	expectBearer,
	expectGet,
	pairedIndexes,
	expectValidationError,
	expectApiError,
} = require('../helpers');

const env = useEnvironment();

const { parsedShape } = require('../workOrderNote/notes');
const { parse, stringify } = require('../../emulator/lossless-json');

/** A work order as the node emits it (the lossless parse: integers beyond 2^53 as exact strings). */
const plain = (value) => parsedShape(parse(stringify(value)));

describe('workOrder.get', () => {
	test('GET /workorders/{id}; the item is the work order', async () => {
		const r = await env.run({
			parameters: {
				resource: 'workOrder',
				operation: 'get',
				workOrderId: 90000005,
				simplify: false,
			},
		});
		expect(r.error).toBeUndefined();
		expect(r.api).toHaveLength(1);
		expectGet(r.api[0], { path: '/api/v3/workorders/90000005' });
		expectBearer(env, r.api[0]);
		expect(r.output).toEqual([
			{ json: plain(env.emulator.state.workOrders[90000005]), pairedItem: { item: 0 } },
		]);
		// the reference's WorkOrder: nested Location and Status, notes summary, dates with their _DTO twins
		const wo = r.output[0].json;
		expect(wo.Location).toMatchObject({
			Id: 501,
			StoreId: 'S501',
			Name: 'Store #501 Dallas Downtown',
			TimeZoneIanaName: 'America/Chicago',
		});
		expect(Object.keys(wo.Status)).toEqual(['Primary', 'Extended', 'CanCreateInvoice']);
		expect(wo.Notes.Count).toEqual({ Total: 4, Own: 4 });
		expect(wo.Notes.Last.Id).toBe('9223372036854775807');
		expect(wo.UpdatedDate).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}$/);
		expect(wo.UpdatedDate_DTO).toMatch(/-0[56]:00$/);
		expect(Date.parse(wo.UpdatedDate_DTO)).toBe(env.emulator.parseDate(wo.UpdatedDate));
	});

	test('several input items -> one request per item, outputs paired', async () => {
		const r = await env.run({
			parameters: { resource: 'workOrder', operation: 'get', workOrderId: '={{ $json.id }}' },
			items: items({ id: 90000001 }, { id: 90000007 }, { id: 90000120 }),
		});
		expect(r.error).toBeUndefined();
		expect(r.api.map((q) => q.path)).toEqual([
			'/api/v3/workorders/90000001',
			'/api/v3/workorders/90000007',
			'/api/v3/workorders/90000120',
		]);
		expect(r.output.map((o) => o.json.Id)).toEqual([90000001, 90000007, 90000120]);
		expect(r.output[1].json.Number).toBe(env.emulator.workOrder(90000007).Number);
		expect(pairedIndexes(r.output)).toEqual([0, 1, 2]);
	});

	test('an unknown work order is a NodeApiError with the service message', async () => {
		const r = await env.run({
			parameters: { resource: 'workOrder', operation: 'get', workOrderId: 12345 },
		});
		expectApiError(r, {
			status: 404,
			serviceMessage: 'Work order 12345 was not found',
			code: 5002,
		});
	});

	test('Continue On Fail: bad ID and unknown ID become error items; the good ones succeed', async () => {
		const r = await env.run({
			parameters: { resource: 'workOrder', operation: 'get', workOrderId: '={{ $json.id }}' },
			items: items({ id: 90000002 }, { id: 'abc' }, { id: 12345 }, { id: 90000003 }),
			continueOnFail: true,
		});
		expect(r.result.status).toBe('success');
		expect(r.api.map((q) => q.path)).toEqual([
			'/api/v3/workorders/90000002',
			'/api/v3/workorders/12345',
			'/api/v3/workorders/90000003',
		]);
		expect(pairedIndexes(r.output)).toEqual([0, 1, 2, 3]);
		expect(r.output[0].json.Id).toBe(90000002);
		expect(r.output[1].json.error).toContain(
			'Invalid Work Order ID (parameter "workOrderId") in item 1',
		);
		expect(r.output[2].json.error).toContain('Work order 12345 was not found');
		expect(r.output[2].json.httpCode).toBe('404');
		expect(r.output[3].json.Id).toBe(90000003);
	});

	test.each([
		['0', 0, /1 or greater/],
		['negative', -7, /1 or greater/],
		['text', '90000001; DROP', /positive whole number/],
		['fraction', 1.5, /positive whole number/],
		['beyond 2^53', '9007199254740993', /too large/],
	])('bad ID (%s) is refused before any request', async (_name, id, problem) => {
		const r = await env.run({
			parameters: { resource: 'workOrder', operation: 'get', workOrderId: '={{ $json.id }}' },
			items: items({ id: 90000001 }, { id }),
		});
		expectValidationError(r, { parameter: 'workOrderId', item: 1, problem });
		expect(r.api.map((q) => q.path)).toEqual(['/api/v3/workorders/90000001']);
	});
});
