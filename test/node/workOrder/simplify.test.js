'use strict';
/**
 * Simplify (n8n's convention for wide records) on workOrder.get and workOrder.getAll: on by
 * default, a compact set of the work order's fields (those it has), all fields when off, the
 * fields chosen with Select as chosen.
 */
const { useEnvironment } = require('../helpers');

const env = useEnvironment();

const plain = (value) => JSON.parse(JSON.stringify(value));
// What a compact work order holds, in order (n8n's UX guidelines: at most 10 fields, the most
// used first): who, what, where, when it last changed (as an instant), status.
const COMPACT = [
	'Id',
	'Number',
	'Status',
	'Priority',
	'Trade',
	'Category',
	'Description',
	'Location',
	'Provider',
	'UpdatedDate_DTO',
];

/** The compact record expected of a stored work order: its own values, nested objects cut down. */
function compact(stored) {
	const out = {};
	for (const key of COMPACT) {
		if (!(key in stored)) continue;
		const value = plain(stored[key]);
		if (key === 'Status') out[key] = { Primary: value.Primary, Extended: value.Extended };
		else if (key === 'Location' && value)
			out[key] = Object.fromEntries(
				['Id', 'StoreId', 'Name'].filter((k) => k in value).map((k) => [k, value[k]]),
			);
		else if (key === 'Provider' && value)
			out[key] = Object.fromEntries(
				['Id', 'Name'].filter((k) => k in value).map((k) => [k, value[k]]),
			);
		else out[key] = value;
	}
	return out;
}

describe('Simplify: work orders', () => {
	test('get: on by default, the compact fields only, with the stored values', async () => {
		const r = await env.run({
			parameters: { resource: 'workOrder', operation: 'get', workOrderId: 90000007 },
		});
		expect(r.error).toBeUndefined();
		const stored = env.emulator.workOrder(90000007);
		const [item] = r.output.map((o) => o.json);
		expect(item).toEqual(compact(stored));
		expect(Object.keys(item)).toEqual(COMPACT.filter((k) => k in stored));
		expect(Object.keys(item).length).toBeLessThanOrEqual(10);
		expect(item).toMatchObject({
			Id: 90000007,
			Status: { Primary: stored.Status.Primary, Extended: stored.Status.Extended },
			Trade: stored.Trade,
		});
		// wide fields stay out
		expect(Object.keys(item).length).toBeLessThan(Object.keys(stored).length);
		expect(Object.keys(item).every((k) => COMPACT.includes(k))).toBe(true);
	});

	test('get with Simplify off: the whole record', async () => {
		const r = await env.run({
			parameters: {
				resource: 'workOrder',
				operation: 'get',
				workOrderId: 90000007,
				simplify: false,
			},
		});
		expect(r.output[0].json).toEqual(plain(env.emulator.workOrder(90000007)));
	});

	test('getAll: every item compact; the same request as without Simplify', async () => {
		const r = await env.run({
			parameters: { resource: 'workOrder', operation: 'getAll', limit: 5 },
		});
		const full = await env.run({
			parameters: { resource: 'workOrder', operation: 'getAll', limit: 5, simplify: false },
		});
		expect(r.api.map((q) => q.query)).toEqual(full.api.map((q) => q.query));
		expect(r.output.map((o) => o.json)).toEqual(full.output.map((o) => compact(o.json)));
		expect(full.output.map((o) => o.json.Id)).toEqual([
			90000001, 90000002, 90000003, 90000004, 90000005,
		]);
	});

	test('getAll with Select: the chosen fields come back as the service sent them, also with Simplify on', async () => {
		const r = await env.run({
			parameters: {
				resource: 'workOrder',
				operation: 'getAll',
				limit: 2,
				options: { select: 'Id,Caller,CreatedDate' },
			},
		});
		expect(r.api[0].query.$select).toBe('Id,Caller,CreatedDate');
		expect(r.output.map((o) => Object.keys(o.json).sort())).toEqual([
			['Caller', 'CreatedDate', 'Id'],
			['Caller', 'CreatedDate', 'Id'],
		]);
	});
});
