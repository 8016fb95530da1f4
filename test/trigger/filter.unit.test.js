'use strict';
/**
 * The trigger's filters (trigger/filter, compiled, from dist/), without HTTP: lists become OData
 * clauses, blanks are ignored, quotes doubled; bad values are refused naming the field.
 */
const path = require('path');
const { NodeOperationError } = require('n8n-workflow');

const DIST = path.resolve(__dirname, '..', '..', 'dist', 'nodes', 'WorkOrderService', 'trigger');
const filter = require(path.join(DIST, 'filter'));

const NODE = {
	id: 'n',
	name: 'Work Order Service Trigger',
	type: 't',
	typeVersion: 1,
	position: [0, 0],
	parameters: {},
};

describe('filters', () => {
	test('lists become OData clauses; blanks are ignored; quotes doubled', () => {
		expect(filter.readFilters(NODE, {})).toEqual({ clauses: [], statuses: [], statusClause: '' });
		expect(
			filter.readFilters(NODE, {
				locationIds: ' 501 ,, 0502 ',
				trades: "O'Hara",
				categories: 'A,B',
				statuses: 'Open',
				filter: '  Nte gt 5 ',
			}),
		).toEqual({
			clauses: [
				'(LocationId eq 501 or LocationId eq 502)',
				"Trade eq 'O''Hara'",
				"(Category eq 'A' or Category eq 'B')",
				'(Nte gt 5)',
			],
			statuses: ['open'],
			statusClause: "Status/Primary eq 'Open'",
		});
		expect(filter.joinClauses([])).toBeUndefined();
		expect(filter.matchesStatus({ Status: { Primary: 'OPEN' } }, ['open'])).toBe(true);
		expect(filter.matchesStatus({ Status: { Primary: 'COMPLETED' } }, ['open'])).toBe(false);
		expect(filter.matchesStatus({ Status: null }, [])).toBe(true);
	});

	test.each([
		[{ locationIds: '-1' }, /Location IDs.*"-1" is not a positive whole number/],
		[{ locationIds: '0' }, /"0" is not a positive whole number/],
		[{ filter: '$filter=Nte gt 1' }, /OData Filter.*without "\$filter="/],
		[{ filter: 42 }, /OData Filter.*must be text/],
	])('refused: %p', (filters, message) => {
		expect(() => filter.readFilters(NODE, filters)).toThrow(NodeOperationError);
		expect(() => filter.readFilters(NODE, filters)).toThrow(message);
	});
});
