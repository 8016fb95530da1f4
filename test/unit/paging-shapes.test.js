'use strict';
/**
 * List shapes of transport/paging.ts, without HTTP: how each kind of list is asked for and read.
 * The polling trigger reads the work-order list strictly (ODATA_VALUE_LIST), the action node
 * leniently (ODATA_LIST); both ask for a page the same way.
 */
const { ROOT } = require('../support');

const paging = require(`${ROOT}/dist/nodes/WorkOrderService/transport/paging`);

describe('OData list shapes', () => {
	const page = { '@odata.count': 120, value: [{ Id: 1 }, { Id: 2 }] };

	test('both read `value` and `@odata.count`, and ask for a page with $top/$skip/$count', () => {
		for (const shape of [paging.ODATA_LIST, paging.ODATA_VALUE_LIST]) {
			expect(shape.records(page)).toEqual([{ Id: 1 }, { Id: 2 }]);
			expect(shape.total(page, undefined)).toBe(120);
			expect(shape.total({ value: [] }, 120)).toBe(120);
			expect(shape.pageQuery({ page: 1, offset: 50, size: 50 })).toEqual({
				$top: 50,
				$skip: 50,
				$count: true,
			});
		}
	});

	test('the strict shape takes nothing but an object holding a `value` list; the lenient one also a bare array', () => {
		expect(paging.ODATA_LIST.records([{ Id: 1 }])).toEqual([{ Id: 1 }]);
		for (const body of [
			[{ Id: 1 }],
			{ Items: [] },
			{ value: { Id: 1 } },
			null,
			'text',
			undefined,
		]) {
			expect(paging.ODATA_VALUE_LIST.records(body)).toBeUndefined();
		}
		expect(paging.ODATA_VALUE_LIST.records(Object.create({ value: [{ Id: 1 }] }))).toBeUndefined();
		expect(paging.ODATA_VALUE_LIST.check).toBe('Check the API Base URL of the credential.');
		expect(paging.ODATA_LIST.check).toBeUndefined();
	});

	test('the last page: an empty one, the total reached, or a short one without a total', () => {
		const position = { page: 0, offset: 0, size: 50 };
		expect(paging.isLastPage(paging.ODATA_LIST, { records: [], total: 120 }, position)).toBe(true);
		expect(
			paging.isLastPage(
				paging.ODATA_LIST,
				{ records: new Array(50).fill({}), total: 120 },
				position,
			),
		).toBe(false);
		expect(
			paging.isLastPage(
				paging.ODATA_LIST,
				{ records: new Array(20).fill({}), total: 120 },
				{ ...position, offset: 100 },
			),
		).toBe(true);
		expect(
			paging.isLastPage(
				paging.ODATA_LIST,
				{ records: new Array(20).fill({}), total: undefined },
				position,
			),
		).toBe(true);
		expect(
			paging.isLastPage(
				paging.WHOLE_LIST,
				{ records: new Array(50).fill({}), total: undefined },
				position,
			),
		).toBe(true);
	});
});
