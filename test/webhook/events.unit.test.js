'use strict';
/**
 * The webhook trigger's events (webhook/events, compiled, from dist/): the 18 events of the
 * issue, each with its object, and the option list sorted by name.
 */
const { ROOT } = require('../support');

const events = require(`${ROOT}/dist/nodes/WorkOrderService/webhook/events.js`);

describe('events', () => {
	test('the 18 events of the issue, each with its object; the option list is sorted by name', () => {
		const values = events.EVENT_OPTIONS.map((o) => o.value);
		expect(values).toHaveLength(18);
		expect(values.filter((v) => events.objectOf(v) === 'workOrder')).toHaveLength(10);
		expect(values.filter((v) => events.objectOf(v) === 'proposal')).toHaveLength(6);
		expect(values.filter((v) => events.objectOf(v) === 'checklistResponse')).toHaveLength(2);
		const names = events.EVENT_OPTIONS.map((o) => o.name);
		expect(names).toEqual([...names].sort((a, b) => a.localeCompare(b)));
	});
});
