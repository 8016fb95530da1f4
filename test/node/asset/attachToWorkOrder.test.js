'use strict';
/**
 * asset.attachToWorkOrder: PUT /assets/workorders/{workorderId}/attach with { AssetId }; the
 * output convention of writes; the asset is on the work order and AssetUpdated raised; the
 * service's refusal of an asset of another location or trade; Continue On Fail.
 */
const {
	useEnvironment,
	items,
	expectBearer,
	expectJsonRequest,
	pairedIndexes,
	expectValidationError,
	expectApiError,
} = require('../helpers');

const env = useEnvironment();

const rl = (value, mode = 'list') => ({ __rl: true, mode, value });
const params = (extra = {}) => ({ resource: 'asset', operation: 'attachToWorkOrder', ...extra });

/** A new refrigeration work order at store 501. */
const fridgeOrder = () => env.emulator.createWorkOrder({ LocationId: 501, Trade: 'REFRIGERATION' });

describe('asset.attachToWorkOrder', () => {
	test('PUT { AssetId }; item { success, operation, workOrderId, assetId }; the work order carries the asset', async () => {
		const wo = fridgeOrder();
		const before = env.emulator.webhooks.events.length;
		const r = await env.run({
			parameters: params({ workOrderId: rl(String(wo.Id)), assetId: rl('50101') }),
		});
		expect(r.error).toBeUndefined();
		expectJsonRequest(r.api[0], {
			method: 'PUT',
			path: `/api/v3/assets/workorders/${wo.Id}/attach`,
			body: { AssetId: 50101 },
		});
		expectBearer(env, r.api[0]);
		expect(r.output).toEqual([
			{
				json: {
					success: true,
					operation: 'attachToWorkOrder',
					workOrderId: wo.Id,
					assetId: 50101,
				},
				pairedItem: { item: 0 },
			},
		]);
		expect(env.emulator.workOrder(wo.Id)).toMatchObject({ AssetCount: 1, Asset: { Id: 50101 } });
		expect(env.emulator.webhooks.events.slice(before).map((e) => e.eventType)).toEqual([
			'AssetUpdated',
		]);
	});

	test("an asset of another trade: the service's 400 AssetLocationTradeDoesntCorrespondToWO; Continue On Fail runs the rest", async () => {
		const wo = fridgeOrder();
		const r = await env.run({
			parameters: params({ workOrderId: rl(String(wo.Id)), assetId: rl('50103', 'id') }),
		});
		expectApiError(r, { status: 400, serviceMessage: 'does not match work order' });
		expect(r.error.message).toContain('AssetLocationTradeDoesntCorrespondToWO');
		const c = await env.run({
			parameters: params({ workOrderId: rl(String(wo.Id)), assetId: '={{ $json.a }}' }),
			items: items({ a: 50103 }, { a: 'freezer' }, { a: 50102 }),
			continueOnFail: true,
		});
		expect(c.result.status).toBe('success');
		expect(c.api.map((q) => q.body.AssetId)).toEqual([50103, 50102]);
		expect(c.output[0].json.error).toMatch(/does not match/);
		expect(c.output[1].json.error).toContain('(parameter "assetId") in item 1');
		expect(c.output[2].json).toMatchObject({ success: true, assetId: 50102 });
		expect(pairedIndexes(c.output)).toEqual([0, 1, 2]);
	});

	test('no work order: refused before any request', async () => {
		const r = await env.run({
			parameters: params({ workOrderId: '={{ $json.w }}', assetId: rl('50101') }),
			items: items({ w: 'none' }),
		});
		expectValidationError(r, { parameter: 'workOrderId', item: 0 });
		expect(r.api).toHaveLength(0);
	});
});
