'use strict';
/**
 * Work Order Service Trigger: each filter (location, primary status, trade, category, raw OData
 * clause) and their combination: the `$filter` the service receives and the work orders emitted.
 */
const { NodeOperationError } = require('n8n-workflow');
const H = require('./helpers');

const env = H.useHarness();

/** Activates a trigger with `filters`, makes `change()`, polls; returns the poll and its reads. */
async function pollWith(filters, change, event = 'workOrderUpdated') {
	const { emu, credentialId } = await H.freshService(env.harness);
	const trigger = await env.harness.activate(H.triggerWorkflow({ credentialId, event, filters }));
	expect(trigger.activation.error).toBeUndefined();
	const cursor = H.stateOf(trigger.activation).cursor;
	const changes = H.changeMark(emu);
	change(emu);
	const from = H.mark(emu);
	const result = await trigger.poll();
	expect(result.error).toBeUndefined();
	return { emu, trigger, result, cursor, changes, reads: H.reads(emu, from) };
}

describe('filters', () => {
	test.each([
		[
			'Location IDs',
			{ locationIds: '502, 503' },
			'(LocationId eq 502 or LocationId eq 503)',
			(w) => w.LocationId === 502 || w.LocationId === 503,
		],
		[
			'Primary Statuses',
			{ statuses: 'COMPLETED' },
			"Status/Primary eq 'COMPLETED'",
			(w) => w.Status.Primary === 'COMPLETED',
		],
		[
			'Trades',
			{ trades: 'PLUMBING, ELECTRICAL' },
			"(Trade eq 'PLUMBING' or Trade eq 'ELECTRICAL')",
			(w) => ['PLUMBING', 'ELECTRICAL'].includes(w.Trade),
		],
		[
			'Categories',
			{ categories: 'REPAIR' },
			"Category eq 'REPAIR'",
			(w) => w.Category === 'REPAIR',
		],
		[
			'OData Filter',
			{ filter: "Nte gt 1000 or contains(Location/Name,'Plano')" },
			"(Nte gt 1000 or contains(Location/Name,'Plano'))",
			(w) => w.Nte > 1000 || w.LocationId === 505,
		],
	])(
		'%s: sent in $filter with the cursor, only matching work orders emitted',
		async (_, filters, clause, matches) => {
			const { emu, result, cursor, changes, reads } = await pollWith(filters, (e) => {
				e.createWorkOrders([
					{ LocationId: 502, Trade: 'PLUMBING', Category: 'REPAIR', Nte: 1500 },
					{
						LocationId: 503,
						Trade: 'ELECTRICAL',
						Category: 'INSPECTION',
						Status: { Primary: 'COMPLETED', Extended: 'PENDING CONFIRMATION' },
					},
					{ LocationId: 501, Trade: 'HVAC', Category: 'REPAIR', Nte: 200 },
					{
						LocationId: 504,
						Trade: 'HVAC',
						Category: 'PREVENTIVE MAINTENANCE',
						RecallWorkOrderId: 90000013,
					},
				]);
				e.setWorkOrderStatus(90000020, 'COMPLETED', 'PENDING CONFIRMATION');
				e.updateWorkOrder(90000021, { LocationId: 503, Trade: 'PLUMBING' });
			});
			expect(reads).toEqual([
				{
					status: 200,
					$filter: `UpdatedDate ge ${H.literal(cursor)} and ${clause}`,
					$orderby: 'UpdatedDate asc,Id asc',
					$top: '50',
					$skip: '0',
					$count: 'true',
				},
			]);
			const expected = H.expectedUpdated(emu, changes, matches);
			expect(expected.length).toBeGreaterThan(0);
			expect(expected.length).toBeLessThan(6);
			expect(H.ids(result)).toEqual(expected);
		},
	);

	test('all filters together, ANDed; quotes in values are doubled', async () => {
		const { emu, result, cursor, changes, reads } = await pollWith(
			{
				locationIds: '502',
				statuses: 'OPEN',
				trades: "O'BRIEN ELECTRIC, HVAC",
				categories: 'REPAIR',
				filter: 'Nte ge 100',
			},
			(e) => {
				e.createWorkOrders([
					{
						LocationId: 502,
						Trade: "O'Brien Electric",
						Category: 'REPAIR',
						Nte: 100,
						Status: { Primary: 'OPEN' },
					},
					{
						LocationId: 502,
						Trade: 'HVAC',
						Category: 'REPAIR',
						Nte: 99,
						Status: { Primary: 'OPEN' },
					},
					{
						LocationId: 501,
						Trade: 'HVAC',
						Category: 'REPAIR',
						Nte: 500,
						Status: { Primary: 'OPEN' },
					},
				]);
			},
		);
		expect(reads[0].$filter).toBe(
			`UpdatedDate ge ${H.literal(cursor)} and LocationId eq 502 and (Trade eq 'O''BRIEN ELECTRIC' or Trade eq 'HVAC') and Category eq 'REPAIR' and (Nte ge 100) and Status/Primary eq 'OPEN'`,
		);
		expect(H.ids(result)).toEqual(H.expectedUpdated(emu, changes).slice(0, 1));
	});

	test('Status Changed with Primary Statuses: work orders whose status changed to one of them (statuses compared by the trigger, not sent)', async () => {
		const { emu, credentialId } = await H.freshService(env.harness);
		const trigger = await env.harness.activate(
			H.triggerWorkflow({
				credentialId,
				event: 'workOrderStatusChanged',
				filters: { statuses: 'completed', locationIds: '501' },
			}),
		);
		const cursor = H.stateOf(trigger.activation).cursor;
		const at501 = Array.from({ length: 120 }, (_, i) => 90000001 + i).filter(
			(id) =>
				emu.workOrder(id).LocationId === 501 && emu.workOrder(id).Status.Primary !== 'COMPLETED',
		);
		const [a, b, c] = at501;
		emu.setWorkOrderStatus(a, 'COMPLETED', 'PENDING CONFIRMATION');
		emu.setWorkOrderStatus(b, 'IN PROGRESS', 'ON SITE');
		const from = H.mark(emu);
		const first = await trigger.poll();
		expect(H.ids(first)).toEqual([a]);
		expect(H.reads(emu, from)[0].$filter).toBe(
			`UpdatedDate ge ${H.literal(cursor)} and LocationId eq 501`,
		);
		// out of COMPLETED (seen, not emitted), then back into it: emitted again
		emu.advanceTime(61);
		emu.setWorkOrderStatus(a, 'IN PROGRESS', 'RETURN TRIP');
		emu.setWorkOrderStatus(c, 'COMPLETED', 'PENDING CONFIRMATION');
		expect(H.ids(await trigger.poll())).toEqual([c]);
		emu.advanceTime(61);
		emu.setWorkOrderStatus(a, 'COMPLETED', 'CONFIRMED');
		expect(H.ids(await trigger.poll())).toEqual([a]);
	});

	test('a Location ID that is not a number is refused before anything is sent', async () => {
		const { emu, credentialId } = await H.freshService(env.harness);
		const trigger = await env.harness.activate(
			H.triggerWorkflow({ credentialId, filters: { locationIds: '501, main street' } }),
		);
		expect(trigger.activation.error).toBeInstanceOf(NodeOperationError);
		expect(trigger.activation.error.message).toBe(
			'Invalid Location IDs (parameter "filters.locationIds"): "main street" is not a positive whole number',
		);
		expect(H.reads(emu)).toEqual([]);
		const manual = await env.harness.poll(
			H.triggerWorkflow({ credentialId, options: { startDate: 'yesterday' } }),
			{ mode: 'manual' },
		);
		expect(manual.error).toBeInstanceOf(NodeOperationError);
		expect(manual.error.message).toMatch(/^Invalid Start Date \(parameter "options.startDate"\)/);
	});
});
