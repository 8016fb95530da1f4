'use strict';
// The words of the report on the other items when an execution stops at a failed item (actions/batchReport.ts).
const { batchReport, itemList } = require('../../dist/nodes/WorkOrderService/actions/batchReport');

/** The `meta` an operation file declares (actions/operation.ts). */
const metaOf = (resource, operation) =>
	require(`../../dist/nodes/WorkOrderService/actions/${resource}/${operation}.operation`).meta;
const verbOf = (resource, operation) => metaOf(resource, operation).verb;

test('itemList: compact ranges', () => {
	expect(itemList([2])).toBe('item 2');
	expect(itemList([0, 1, 3, 4, 5, 6, 7, 8, 9])).toBe('items 0-1 and 3-9');
	expect(itemList([5, 0, 2, 3])).toBe('items 0, 2-3 and 5');
	expect(itemList([4, 6])).toBe('items 4 and 6');
});

test('verbs per write operation; reads have none', () => {
	expect(verbOf('workOrderNote', 'create')).toBe('created');
	expect(verbOf('proposal', 'putOnHold')).toBe('put on hold');
	expect(verbOf('checklistResponse', 'submit')).toBe('submitted');
	expect(verbOf('workOrder', 'checkIn')).toBe('checked in');
	expect(verbOf('workOrderNote', 'addAttachment')).toBe('attached');
	expect(verbOf('workOrder', 'get')).toBeUndefined();
});

test('each operation file declares whether it is safe to repeat: reads and proposal moves are, creating POSTs are not', () => {
	const safe = [
		['proposal', 'approve'],
		['proposal', 'putOnHold'],
		['proposal', 'reject'],
		['proposal', 'reopen'],
		['workOrder', 'get'],
		['workOrder', 'getAll'],
		['workOrderNote', 'get'],
		['workOrderNote', 'getAll'],
		['workOrderNote', 'getAttachments'],
		['rejectionReason', 'getAll'],
		['subsidiary', 'getAll'],
	];
	const notSafe = [
		['workOrderNote', 'create'],
		['workOrderNote', 'addAttachment'],
		['checklistResponse', 'submit'],
		['workOrder', 'checkIn'],
		['workOrder', 'checkOut'],
	];
	for (const [r, o] of safe) expect([r, o, metaOf(r, o).safeToRepeat]).toEqual([r, o, true]);
	for (const [r, o] of notSafe) expect([r, o, metaOf(r, o).safeToRepeat]).toEqual([r, o, false]);
	expect(metaOf('workOrderNote', 'addAttachment').file).toEqual({
		parameter: 'binaryPropertyName',
		required: true,
	});
	expect(metaOf('checklistResponse', 'submit').file).toEqual({
		parameter: 'binaryPropertyName',
		required: false,
	});
});

test('writes: recorded, may have been, failed too, not sent, and the items to run again', () => {
	const states = [
		'done',
		'done',
		'notRecorded',
		'done',
		'maybe',
		'notRecorded',
		'notSent',
		'notSent',
	];
	const text = batchReport(states, 2, 'created');
	expect(text).toContain('Item 2 of 8 failed; it was not created.');
	expect(text).toContain('Items 0-1 and 3 were created (the service recorded them).');
	expect(text).toContain(
		'Item 4 got no answer after being sent and may have been created: check it in the service before sending it again.',
	);
	expect(text).toContain('Item 5 failed too and was not created.');
	expect(text).toContain('Items 6-7 were not sent (no item starts after a failure).');
	expect(text).toContain(
		'run only the items that were not created (items 2 and 5-7): running all 8 again would send items 0-1 and 3 a second time.',
	);
});

test('one other item: "it", not "them"', () => {
	const text = batchReport(['done', 'notRecorded', 'notSent', 'maybe'], 1, 'approved');
	expect(text).toContain('Item 0 was approved (the service recorded it).');
	expect(text).toContain(
		'Item 3 got no answer after being sent and may have been approved: check it in the service before sending it again.',
	);
	const two = batchReport(['done', 'notRecorded', 'done', 'maybe', 'maybe'], 1, 'approved');
	expect(two).toContain('Items 0 and 2 were approved (the service recorded them).');
	expect(two).toContain('check them in the service before sending them again.');
});

test('the failed item itself may have been recorded', () => {
	expect(batchReport(['done', 'maybe', 'notSent'], 1, 'submitted')).toContain(
		'Item 1 of 3 failed after its request was sent, so it may have been submitted.',
	);
	expect(batchReport(['notSent', 'notSent'], 0, 'approved')).toContain(
		'No other item was approved.',
	);
});

test('reads: succeeded / not started, never "recorded"', () => {
	const text = batchReport(['done', 'notRecorded', 'done', 'notSent'], 1, undefined);
	expect(text).toBe(
		'Item 1 of 4 failed. Items 0 and 2 succeeded. Item 3 was not started (no item starts after a failure). Reading is safe to repeat: fix item 1 and run again, or set Settings > On Error to "Continue" or "Continue (using error output)", so that every item gives one output (its result or its error) and the execution does not stop.',
	);
	expect(text).not.toMatch(/recorded/);
});
