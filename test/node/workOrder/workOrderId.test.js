'use strict';
/**
 * The Work Order parameter (workOrderId, a resource locator: From List / By ID) as workOrder.get
 * and the writes read it, with the values older workflows hold (plain numbers, digit strings,
 * expressions); what is refused before any request and what n8n itself refuses.
 * The From List search: test/node/methods/searchWorkOrders.test.js.
 */
const { useEnvironment, items, expectValidationError } = require('../helpers');

const env = useEnvironment();

/** A resource locator value as n8n's editor stores it. */
const rl = (mode, value, extra = {}) => ({ __rl: true, mode, value, ...extra });

describe('Work Order parameter: resource locator and the values older workflows hold', () => {
	const get = (workOrderId, items) =>
		env.run({ parameters: { resource: 'workOrder', operation: 'get', workOrderId }, items });

	test.each([
		[
			'From List (the value the list gave, with its cached name)',
			rl('list', '90000004', { cachedResultName: '90000004 · ELECTRICAL / REPAIR' }),
		],
		['By ID', rl('id', '90000004')],
		['By ID with spaces around the digits', rl('id', ' 90000004 ')],
		['By ID from an expression returning a number', rl('id', '={{ 90000000 + 4 }}')],
		['a plain number (workflows saved before the locator)', 90000004],
		['a plain digit string', '90000004'],
		['a plain expression (workflows saved before the locator)', '={{ 90000004 }}'],
	])('%s reaches GET /workorders/90000004', async (_name, workOrderId) => {
		const r = await get(workOrderId);
		expect(r.error).toBeUndefined();
		expect(r.api.map((q) => `${q.method} ${q.path}`)).toEqual(['GET /api/v3/workorders/90000004']);
		expect(r.output[0].json.Id).toBe(90000004);
	});

	test('digit strings and numbers from the items, mixed, each reach their own work order', async () => {
		const r = await get(
			rl('id', '={{ $json.wo }}'),
			items({ wo: '90000001' }, { wo: 90000002 }, { wo: ' 90000003 ' }),
		);
		expect(r.error).toBeUndefined();
		expect(r.api.map((q) => q.path)).toEqual([
			'/api/v3/workorders/90000001',
			'/api/v3/workorders/90000002',
			'/api/v3/workorders/90000003',
		]);
	});

	test.each([
		['By ID "0"', rl('id', '={{ "0" }}'), /1 or greater/],
		['By ID 0 from an expression', rl('id', '={{ 0 }}'), /1 or greater/],
		['By ID "-4"', rl('id', '={{ "-4" }}'), /positive whole number/],
		['By ID "90000004.5"', rl('id', '={{ "90000004.5" }}'), /positive whole number/],
		['By ID empty from an expression', rl('id', '={{ "" }}'), /not empty/],
		['a plain expression returning null', '={{ null }}', /not empty/],
	])('%s is refused before any request', async (_name, workOrderId, problem) => {
		const r = await get(workOrderId);
		expectValidationError(r, { parameter: 'workOrderId', item: 0, problem });
		expect(r.api).toHaveLength(0);
	});

	test.each([
		['nothing chosen in From List', rl('list', ''), 'Parameter "Work Order" is required'],
		['By ID left empty', rl('id', ''), 'Parameter "Work Order" is required'],
		[
			'By ID "0" typed (fails the mode\'s digits check)',
			rl('id', '0'),
			'Not a work order ID: enter digits only',
		],
		['By ID with letters', rl('id', 'WO-90000004'), 'Not a work order ID: enter digits only'],
		['a plain 0 (an old workflow that kept the default)', 0, 'Parameter "Work Order" is required'],
	])(
		'%s: n8n itself refuses to run the node (a parameter issue), nothing is sent',
		async (_name, workOrderId, issue) => {
			env.emulator.clearRequests();
			await expect(get(workOrderId)).rejects.toThrow(issue);
			expect(env.emulator.requests.filter((q) => q.path.startsWith('/api/'))).toHaveLength(0);
		},
	);

	test('a write (check-in) reaches the work order chosen From List', async () => {
		const r = await env.run({
			parameters: {
				resource: 'workOrder',
				operation: 'checkIn',
				workOrderId: rl('list', '90000013'),
				latitude: '32.7555',
				longitude: '-97.3308',
			},
		});
		expect(r.error).toBeUndefined();
		expect(r.api.map((q) => `${q.method} ${q.path}`)).toEqual([
			'POST /api/v3/workorders/90000013/universalCheckIn',
		]);
	});
});
