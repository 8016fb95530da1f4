'use strict';
/**
 * The dropdowns fed by the service's lists (loadOptions through n8n-core's LoadOptionsContext):
 * statuses (GET /workorders/statuses: primary, then the extended ones of the chosen primary),
 * categories (GET /workorders/categories), priorities (GET /workorders/priorities). Each value is
 * the name the service expects; nothing is requested before there is something to ask for; a
 * provider's Subscriber ID goes along.
 */
const { Workflow } = require('n8n-workflow');
const { LoadOptionsContext } = require('n8n-core');
const { useEnvironment, expectBearer, loadOptions, responseJson, support } = require('../helpers');

const env = useEnvironment();

const api = () => env.emulator.requests.filter((q) => q.path.startsWith('/api/'));

describe('dropdowns from the service', () => {
	test('Status (Update Status): the primary statuses by name, their extended statuses described', async () => {
		const options = await loadOptions(
			env,
			'getPrimaryStatuses',
			{ resource: 'workOrder', operation: 'updateStatus' },
			'primaryStatus',
		);
		expect(api().map((q) => `${q.method} ${q.path} ${JSON.stringify(q.query)}`)).toEqual([
			'GET /api/v3/workorders/statuses {}',
		]);
		expectBearer(env, api()[0]);
		const sent = responseJson(api()[0]);
		expect(options.map((o) => o.value)).toEqual(sent.map((s) => s.Name));
		expect(options[1]).toEqual({
			name: 'IN PROGRESS',
			value: 'IN PROGRESS',
			description: `Extended: ${sent[1].Extended.join(', ')}`,
		});
	});

	test('Extended Status: the extended statuses of the chosen primary status', async () => {
		const options = await loadOptions(
			env,
			'getExtendedStatuses',
			{ resource: 'workOrder', operation: 'updateStatus', primaryStatus: 'COMPLETED' },
			'extendedStatus',
		);
		const completed = responseJson(api()[0]).find((s) => s.Name === 'COMPLETED');
		expect(options).toEqual(completed.Extended.map((name) => ({ name, value: name })));
	});

	test.each([
		['no primary status chosen yet', ''],
		['a primary status given as an expression', '={{ $json.status }}'],
	])(
		'Extended Status with %s: an empty list, no request, no error',
		async (_name, primaryStatus) => {
			env.emulator.clearRequests();
			const options = await loadOptions(
				env,
				'getExtendedStatuses',
				{ resource: 'workOrder', operation: 'updateStatus', primaryStatus },
				'extendedStatus',
			);
			expect(options).toEqual([]);
			expect(api()).toEqual([]);
		},
	);

	test('Category (Create): by name, sorted by the service (sortExpr=Name); a sub-category says where it belongs', async () => {
		const options = await loadOptions(
			env,
			'getCategories',
			{ resource: 'workOrder', operation: 'create' },
			'category',
		);
		expect(api()[0].query).toEqual({ sortExpr: 'Name' });
		const sent = responseJson(api()[0]);
		expect(options.map((o) => o.value)).toEqual(sent.map((c) => c.Name));
		expect(options.find((o) => o.value === 'EMERGENCY')).toEqual({
			name: 'EMERGENCY',
			value: 'EMERGENCY',
			description: 'Under REPAIR',
		});
	});

	test('Priority (Create, Update Priority): the selectable ones, with the time allowed to arrive', async () => {
		const options = await loadOptions(
			env,
			'getPriorities',
			{ resource: 'workOrder', operation: 'updatePriority' },
			'priority',
		);
		const sent = responseJson(api()[0]);
		expect(sent.some((p) => p.IsSelectable === false)).toBe(true);
		expect(options).toEqual(
			sent
				.filter((p) => p.IsSelectable)
				.map((p) => ({ name: p.Name, value: p.Name, description: `Arrival within ${p.Eta}` })),
		);
	});

	test("a provider user: the Subscriber ID of the Additional Fields is sent; without one the service's refusal reaches the dropdown", async () => {
		env.harness.credentials.set('cred-1', {
			name: 'Emulator password',
			type: 'workOrderServiceContractorApi',
			data: support.contractorCredential(env.emulator),
		});
		try {
			const parameters = {
				authentication: 'contractor',
				resource: 'workOrder',
				operation: 'create',
				additionalFields: { subscriberId: '1001' },
			};
			const { context, nodeType } = contractorContext(parameters);
			const options = await nodeType.methods.loadOptions.getPriorities.call(context);
			expect(api().at(-1).query).toEqual({ subscriberId: '1001' });
			expect(options.length).toBeGreaterThan(0);
			const bare = contractorContext({ ...parameters, additionalFields: {} });
			await expect(
				bare.nodeType.methods.loadOptions.getPriorities.call(bare.context),
			).rejects.toThrow(/subscriberId is required for provider users/);
		} finally {
			env.harness.credentials.set('cred-1', {
				name: 'Emulator password',
				type: 'workOrderServiceApi',
				data: support.passwordCredential(env.emulator),
			});
		}
	});
});

/** A LoadOptionsContext whose node uses the contractor credential stored as cred-1. */
function contractorContext(parameters) {
	const type = env.harness.nodeType('workOrderService');
	const node = {
		id: 'n',
		name: 'Work Order Service',
		type,
		typeVersion: 1,
		position: [0, 0],
		parameters,
		credentials: { workOrderServiceContractorApi: { id: 'cred-1', name: 'Emulator contractor' } },
	};
	const workflow = new Workflow({
		id: 'lo',
		name: 'lo',
		nodes: [node],
		connections: {},
		active: false,
		nodeTypes: env.harness.nodeTypes,
	});
	const additionalData = {
		credentialsHelper: env.harness.credentialsHelper,
		currentNodeParameters: parameters,
		restApiUrl: 'http://127.0.0.1:5678/rest',
		instanceBaseUrl: 'http://127.0.0.1:5678/',
		variables: {},
	};
	return {
		context: new LoadOptionsContext(
			workflow,
			workflow.getNode(node.name),
			additionalData,
			'priority',
		),
		nodeType: env.harness.nodeTypes.getByNameAndVersion(type, 1),
	};
}
