'use strict';
/**
 * Issue 19: a bulk write that fails halfway. When an item fails and Continue On Fail is off, the
 * error (its description, which n8n shows and stores with the execution) names the failed item,
 * lists compactly which other items the service recorded, which may have been recorded and which
 * were never sent, and says how to re-run without sending anything twice. Judged by what the
 * emulator stored and by the error n8n-core kept for the run.
 */
const { NodeApiError, NodeOperationError } = require('n8n-workflow');
const { useEnvironment, items } = require('./support');

const env = useEnvironment();

const WO = 90000002;
const MISSING_WO = 99999999;
const RERUN = /Settings > On Error to "Continue" or "Continue \(using error output\)"/;

/** Notes created on WO with the given tag, as the emulator stores them. */
function stored(tag) {
	return env.emulator
		.notesOf(WO)
		.map((n) => n.NoteData)
		.filter((t) => typeof t === 'string' && t.startsWith(`${tag} `));
}

/** Ten note creations, tagged `<tag> <k>`; item `bad` points at a work order that does not exist. */
function tenNotes(tag, bad = 2) {
	return items(
		...Array.from({ length: 10 }, (_, k) => ({
			wo: k === bad ? MISSING_WO : WO,
			text: `${tag} ${k}`,
		})),
	);
}

const createNote = (extra = {}) => ({
	resource: 'workOrderNote',
	operation: 'create',
	workOrderId: '={{ $json.wo }}',
	note: '={{ $json.text }}',
	...extra,
});

test('10 notes, item 2 on a missing work order, default options: creating notes is not safe to repeat, so they go one at a time; items 3-9 are never sent', async () => {
	const r = await env.run({ parameters: createNote(), items: tenNotes('pf-default') });
	expect(r.result.status).toBe('error');
	expect(r.error.context.itemIndex).toBe(2);
	expect(r.error.description).toContain(
		'Items 3-9 were not sent (no item starts after a failure).',
	);
	expect(stored('pf-default').sort()).toEqual(['pf-default 0', 'pf-default 1']);
	expect(r.api.filter((q) => q.method === 'POST')).toHaveLength(3);
});

test('10 notes, item 2 on a missing work order, Concurrency 20: the error names item 2 and says items 0-1 and 3-9 were created; the service holds exactly those', async () => {
	const r = await env.run({
		parameters: createNote({ requestOptions: { concurrency: 20 } }),
		items: tenNotes('pf-c20'),
	});
	expect(r.result.status).toBe('error');
	expect(r.error).toBeInstanceOf(NodeApiError);
	expect(r.error.context.itemIndex).toBe(2);
	expect(r.error.httpCode).toBe('404');
	const description = r.error.description;
	expect(description).toContain('Item 2 of 10 failed; it was not created.');
	expect(description).toContain('Items 0-1 and 3-9 were created (the service recorded them).');
	expect(description).toMatch(RERUN);
	expect(description).toContain(
		'run only the items that were not created (item 2): running all 10 again would send items 0-1 and 3-9 a second time',
	);
	expect(stored('pf-c20').sort()).toEqual(
		[0, 1, 3, 4, 5, 6, 7, 8, 9].map((k) => `pf-c20 ${k}`).sort(),
	);
	// what n8n stores with the execution (WorkflowExecute keeps the error's own properties)
	expect(r.result.executionError.description).toBe(description);
	expect(r.result.run.data.resultData.runData['Work Order Service'][0].error.description).toBe(
		description,
	);
});

test('reads keep Concurrency 30 by default: of 40 work orders, 30 are in flight together and the 31st waits for an answer', async () => {
	env.emulator.setFaults({ latencyMs: 1000 });
	const ids = items(...Array.from({ length: 40 }, () => ({ id: WO })));
	const r = await env.run({
		parameters: { resource: 'workOrder', operation: 'get', workOrderId: '={{ $json.id }}' },
		items: ids,
	});
	expect(r.output).toHaveLength(40);
	const starts = r.api.map((q) => q.startedMs).sort((a, b) => a - b);
	// the first 30 start before the first answer (1 s); the 31st only after one came back
	expect(starts[29] - starts[0]).toBeLessThan(1000);
	expect(starts[30] - starts[0]).toBeGreaterThanOrEqual(1000);
});

test('Concurrency 1: items 0-1 created, item 2 failed, items 3-9 never sent; the error says so and what to run again', async () => {
	const r = await env.run({
		parameters: createNote({ requestOptions: { concurrency: 1 } }),
		items: tenNotes('pf-c1'),
	});
	expect(r.error.context.itemIndex).toBe(2);
	const description = r.error.description;
	expect(description).toContain('Items 0-1 were created (the service recorded them).');
	expect(description).toContain('Items 3-9 were not sent (no item starts after a failure).');
	expect(description).toContain(
		'run only the items that were not created (items 2-9): running all 10 again would send items 0-1 a second time',
	);
	expect(stored('pf-c1').sort()).toEqual(['pf-c1 0', 'pf-c1 1']);
	expect(r.api.filter((q) => q.method === 'POST')).toHaveLength(3);
});

test('re-running as the error advises (On Error: Continue, only the items not created) creates each note once', async () => {
	const first = await env.run({
		parameters: createNote({ requestOptions: { concurrency: 1 } }),
		items: tenNotes('pf-rerun'),
	});
	expect(first.error.description).toContain('(items 2-9)');
	const again = Array.from({ length: 8 }, (_, k) => ({
		wo: k === 0 ? MISSING_WO : WO,
		text: `pf-rerun ${k + 2}`,
	}));
	const second = await env.run({
		parameters: createNote(),
		items: items(...again),
		continueOnFail: true,
	});
	expect(second.result.status).toBe('success');
	expect(second.output).toHaveLength(8);
	expect(second.output[0].json.error).toMatch(/404/);
	expect(stored('pf-rerun').sort()).toEqual(
		[0, 1, 3, 4, 5, 6, 7, 8, 9].map((k) => `pf-rerun ${k}`).sort(),
	);
});

test('a note whose connection dropped after it was processed: "may have been created", never "created" or "not created"', async () => {
	let posts = 0;
	env.emulator.onResponse = (entry) => {
		if (entry.method === 'POST' && ++posts === 1)
			env.emulator.dropNext({ method: 'POST', afterProcessing: true });
	};
	const r = await env.run({
		parameters: createNote({ requestOptions: { concurrency: 1 } }),
		items: tenNotes('pf-drop', -1).slice(0, 4),
	});
	expect(r.error.context.itemIndex).toBe(1);
	const description = r.error.description;
	expect(description).toMatch(/may or may not have been recorded/);
	expect(description).toContain(
		'Item 1 of 4 failed after its request was sent, so it may have been created.',
	);
	expect(description).toContain('Item 0 was created');
	expect(description).toContain('Items 2-3 were not sent');
	expect(description).toContain('(items 2-3)');
	expect(stored('pf-drop').sort()).toEqual(['pf-drop 0', 'pf-drop 1']);
});

test('a failure before sending (bad input on item 2) says item 2 was not sent, and which others were created', async () => {
	const list = Array.from({ length: 5 }, (_, k) => ({
		wo: WO,
		text: k === 2 ? '' : `pf-invalid ${k}`,
	}));
	const r = await env.run({
		parameters: createNote({ requestOptions: { concurrency: 1 } }),
		items: items(...list),
	});
	expect(r.error).toBeInstanceOf(NodeOperationError);
	expect(r.error.context.itemIndex).toBe(2);
	expect(r.error.description).toContain('Item 2 of 5 failed; it was not sent.');
	expect(r.error.description).toContain('Items 0-1 were created');
	expect(r.error.description).toContain('Items 3-4 were not sent');
	expect(stored('pf-invalid').sort()).toEqual(['pf-invalid 0', 'pf-invalid 1']);
});

test('approvals use their own verb; reads never claim that anything was recorded', async () => {
	// four proposals (the service refuses to approve one twice); item 2 is one the service does not have
	const approvals = items(...[61001, 61002, 99999, 61008].map((id) => ({ id })));
	const a = await env.run({
		parameters: {
			resource: 'proposal',
			operation: 'approve',
			proposalId: '={{ $json.id }}',
			requestOptions: { concurrency: 1 },
		},
		items: approvals,
	});
	expect(a.error.description).toContain('Item 2 of 4 failed; it was not approved.');
	expect(a.error.description).toContain('Items 0-1 were approved');
	expect(a.error.message).toBe(
		'The Work Order Service refused to approve proposal 99999 (400 Bad Request): Proposal 99999 was not found (error code 502)',
	);
	expect(env.emulator.state.proposals[61001].Status).toBe('Approved');
	expect(env.emulator.state.proposals[61008].Status).toBe('Open');

	const reads = items(
		...[90000001, 90000002, 90000003, 1, 90000004, 90000005].map((id) => ({ id })),
	);
	const g = await env.run({
		parameters: { resource: 'workOrder', operation: 'get', workOrderId: '={{ $json.id }}' },
		items: reads,
	});
	expect(g.error.context.itemIndex).toBe(3);
	expect(g.error.description).toContain('Item 3 of 6 failed.');
	expect(g.error.description).toContain('Items 0-2 and 4-5 succeeded.');
	expect(g.error.description).toMatch(/Reading is safe to repeat/);
	// the report on the other items (after the item's own hint) never speaks of recording
	const report = g.error.description.slice(g.error.description.indexOf('Item 3 of 6'));
	expect(report).not.toMatch(/recorded|created|was not sent/);
});

test('one item alone: the error is as before, without a report on other items', async () => {
	const r = await env.run({
		parameters: createNote(),
		items: items({ wo: MISSING_WO, text: 'pf-single' }),
	});
	expect(r.error.context.itemIndex).toBe(0);
	expect(r.error.description).not.toMatch(/Item 0 of 1|On Error/);
});
