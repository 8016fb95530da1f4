'use strict';
/**
 * Issue 10.3: hostile or huge responses never crash the node.
 *
 * - A list page of 150,000 records (a deployed service caps pages at 50; a broken or hostile one
 *   may not) for a notes list and a work-order list: every record comes out, every int64 exact.
 *   `push(...page)` crashed here with "Maximum call stack size exceeded" at about 125,000 records.
 * - Keys named `__proto__`, `constructor`, `prototype` (and `json`, which n8n's returnJsonArray
 *   would treat as an item) come out as ordinary own properties, in single and list responses,
 *   and change nothing any object inherits.
 */
const support = require('../support');

const env = support.useEnvironment();
const WO = 90000005;
const BIG = 150_000;

function notesPage(count) {
	const parts = [];
	for (let k = 0; k < count; k++)
		parts.push(
			`{"Id":${9007199254740993n + BigInt(k)},"WorkOrderId":${WO},"NoteData":"note ${k}"}`,
		);
	return Buffer.from(
		`{"Notes":[${parts.join(',')}],"AllNotesCount":${count},"Page":1,"PageSize":${count}}`,
	);
}

function workOrdersPage(count) {
	const parts = [];
	for (let k = 0; k < count; k++)
		parts.push(
			`{"Id":${90000001 + k},"Number":"N${k}","Status":{"Primary":"OPEN","Extended":null}}`,
		);
	return Buffer.from(`{"@odata.context":"x","@odata.count":${count},"value":[${parts.join(',')}]}`);
}

describe('a page of 150,000 records', () => {
	test('notes list (Return All): every note, ids beyond 2^53 exact', async () => {
		const body = notesPage(BIG);
		env.emulator.failNext({
			method: 'GET',
			path: `/api/v3/workorders/${WO}/notes`,
			status: 200,
			body,
			contentType: 'application/json',
		});
		const r = await env.run({
			parameters: {
				resource: 'workOrderNote',
				operation: 'getAll',
				workOrderId: WO,
				returnAll: true,
			},
			timeoutMs: 120_000,
		});
		expect(r.error).toBeUndefined();
		expect(r.output).toHaveLength(BIG);
		expect(String(r.output[0].json.Id)).toBe('9007199254740993');
		expect(String(r.output[BIG - 1].json.Id)).toBe(String(9007199254740993n + BigInt(BIG - 1)));
		expect(r.output[BIG - 1].pairedItem).toEqual({ item: 0 });
		expect(r.api).toHaveLength(1);
	}, 180_000);

	test('work-order list (OData, Return All): every record, and a Limit still limits', async () => {
		env.emulator.failNext({
			method: 'GET',
			path: '/api/v3/odata/workorders',
			status: 200,
			body: workOrdersPage(BIG),
			contentType: 'application/json',
		});
		const all = await env.run({
			parameters: { resource: 'workOrder', operation: 'getAll', returnAll: true },
			timeoutMs: 120_000,
		});
		expect(all.error).toBeUndefined();
		expect(all.output).toHaveLength(BIG);
		expect(all.output[BIG - 1].json.Id).toBe(90000001 + BIG - 1);

		env.emulator.failNext({
			method: 'GET',
			path: '/api/v3/odata/workorders',
			status: 200,
			body: workOrdersPage(BIG),
			contentType: 'application/json',
		});
		const some = await env.run({
			parameters: { resource: 'workOrder', operation: 'getAll', returnAll: false, limit: 7 },
		});
		expect(some.output.map((o) => o.json.Id)).toEqual(
			[0, 1, 2, 3, 4, 5, 6].map((k) => 90000001 + k),
		);
	}, 180_000);
});

describe('keys that could touch a prototype stay plain data', () => {
	const HOSTILE =
		'{"Id":90000001,"__proto__":{"polluted":"yes","Id":-1},"constructor":{"prototype":{"polluted":"yes"}},"prototype":{"polluted":"yes"},"json":{"fake":"item"},"hasOwnProperty":"x","toString":"y"}';

	function expectPlain(json) {
		expect(Object.getPrototypeOf(json)).toBe(Object.prototype);
		expect(String(json.Id)).toBe('90000001'); // note IDs are emitted as strings, work-order IDs as numbers
		expect(json.polluted).toBeUndefined();
		for (const key of [
			'__proto__',
			'constructor',
			'prototype',
			'json',
			'hasOwnProperty',
			'toString',
		]) {
			expect([key, Object.prototype.hasOwnProperty.call(json, key)]).toEqual([key, true]);
		}
		expect(Object.getOwnPropertyDescriptor(json, '__proto__').value).toEqual({
			polluted: 'yes',
			Id: -1,
		});
		expect(Object.getOwnPropertyDescriptor(json, 'json').value).toEqual({ fake: 'item' });
		expect({}.polluted).toBeUndefined();
		expect(Object.prototype.polluted).toBeUndefined();
	}

	test('single record (work order Get)', async () => {
		env.emulator.failNext({
			method: 'GET',
			path: '/api/v3/workorders/90000001',
			status: 200,
			body: HOSTILE,
			contentType: 'application/json',
		});
		const r = await env.run({
			parameters: {
				resource: 'workOrder',
				operation: 'get',
				workOrderId: 90000001,
				simplify: false,
			},
		});
		expect(r.error).toBeUndefined();
		expect(r.output).toHaveLength(1);
		expectPlain(r.output[0].json);
	});

	test('Simplify (work order Get): the compact record drops such keys and reads nested ones as own data only', async () => {
		const body = HOSTILE.replace(
			'{"Id":90000001,',
			'{"Id":90000001,"Location":{"__proto__":{"polluted":"yes"},"Id":501,"Name":"Store"},"Status":{"constructor":"x","Primary":"OPEN"},',
		);
		env.emulator.failNext({
			method: 'GET',
			path: '/api/v3/workorders/90000001',
			status: 200,
			body,
			contentType: 'application/json',
		});
		const r = await env.run({
			parameters: { resource: 'workOrder', operation: 'get', workOrderId: 90000001 },
		});
		expect(r.error).toBeUndefined();
		const json = r.output[0].json;
		expect(Object.getPrototypeOf(json)).toBe(Object.prototype);
		expect(json).toEqual({
			Id: 90000001,
			Location: { Id: 501, Name: 'Store' },
			Status: { Primary: 'OPEN' },
		});
		expect(json.Location.polluted).toBeUndefined();
		expect({}.polluted).toBeUndefined();
		expect(Object.prototype.polluted).toBeUndefined();
	});

	test('single OData entity, copied without its annotations (note Get)', async () => {
		const body = HOSTILE.replace('{"Id":90000001,', '{"@odata.context":"x","Id":90000001,');
		env.emulator.failNext({
			method: 'GET',
			path: `/api/v3/odata/workorders(${WO})/notes(15001)`,
			status: 200,
			body,
			contentType: 'application/json',
		});
		const r = await env.run({
			// Simplify off: the record as the service sent it (Simplify keeps only the compact fields)
			parameters: {
				resource: 'workOrderNote',
				operation: 'get',
				workOrderId: WO,
				noteId: '15001',
				simplify: false,
			},
		});
		expect(r.error).toBeUndefined();
		expectPlain(r.output[0].json);
		expect({}.polluted).toBeUndefined();
		expect(Object.keys(r.output[0].json)).not.toContain('@odata.context');
	});

	test('list records (work-order Get Many, rejection reasons)', async () => {
		env.emulator.failNext({
			method: 'GET',
			path: '/api/v3/odata/workorders',
			status: 200,
			body: `{"@odata.count":1,"value":[${HOSTILE}]}`,
			contentType: 'application/json',
		});
		const list = await env.run({
			parameters: { resource: 'workOrder', operation: 'getAll', returnAll: true, simplify: false },
		});
		expect(list.output).toHaveLength(1);
		expectPlain(list.output[0].json);

		env.emulator.failNext({
			method: 'GET',
			path: '/api/v3/proposals/RejectionReasons',
			status: 200,
			body: `[${HOSTILE}]`,
			contentType: 'application/json',
		});
		const reasons = await env.run({
			parameters: { resource: 'rejectionReason', operation: 'getAll', returnAll: true },
		});
		expect(reasons.output).toHaveLength(1);
		expectPlain(reasons.output[0].json);
	});
});
