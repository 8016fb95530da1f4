'use strict';
/**
 * workOrder.create: POST /workorders with a CreateWoRequest (service-reference.md section 8) as
 * the emulator received it; the 201 answer in each form the reference leaves open (the new ID in
 * the body, in a Location header, as a bare number, nothing at all) as the item; validation before
 * any request; the service's refusals; Continue On Fail and the batch report.
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

const REQUIRED = {
	resource: 'workOrder',
	operation: 'create',
	location: { __rl: true, mode: 'id', value: '501' },
	tradeName: 'HVAC',
	category: 'REPAIR',
	priority: 'P2 - Urgent',
	description: 'Rooftop unit 1 alarm: supply air 88F',
	problemCode: 'NO COOLING',
	callDate: '2026-05-01T09:30:00',
};

const REQUIRED_BODY = {
	ContractInfo: { LocationId: 501, TradeName: 'HVAC' },
	Category: 'REPAIR',
	Priority: 'P2 - Urgent',
	Description: 'Rooftop unit 1 alarm: supply air 88F',
	ProblemCode: 'NO COOLING',
	CallDate: '2026-05-01T09:30:00',
};

/** The work order an item says was created. */
const created = (r) => env.emulator.workOrder(r.output[0].json.id);

describe('workOrder.create', () => {
	test('the required fields only: the CreateWoRequest as sent; the new ID from the 201 body is the item', async () => {
		const before = env.emulator.webhooks.events.length;
		const r = await env.run({ parameters: REQUIRED });
		expect(r.error).toBeUndefined();
		expect(r.api).toHaveLength(1);
		expectJsonRequest(r.api[0], {
			method: 'POST',
			path: '/api/v3/workorders',
			body: REQUIRED_BODY,
		});
		expectBearer(env, r.api[0]);
		expect(r.api[0].status).toBe(201);
		const wo = created(r);
		expect(wo).toMatchObject({
			LocationId: 501,
			Trade: 'HVAC',
			Category: 'REPAIR',
			Priority: 'P2 - Urgent',
			Description: REQUIRED.description,
		});
		expect(r.output).toEqual([
			{
				json: {
					success: true,
					operation: 'create',
					id: wo.Id,
					location: `${env.emulator.baseUrl}/v3/workorders/${wo.Id}`,
				},
				pairedItem: { item: 0 },
			},
		]);
		const events = env.emulator.webhooks.events.slice(before);
		expect(events.map((e) => [e.eventType, e.object.Id])).toEqual([['WorkOrderCreated', wo.Id]]);
	});

	test("a dispatcher's fields and Additional Fields: nested where the reference nests them", async () => {
		const r = await env.run({
			parameters: {
				...REQUIRED,
				location: { __rl: true, mode: 'storeId', value: ' S502 ' },
				callerName: 'Building Management System',
				nte: '750.5',
				scheduledDate: '2026-05-02T08:00:00',
				providerId: '3001',
				purchaseNumber: 'PO-77812',
				additionalFields: {
					subscriberId: '1001',
					number: 'BMS-4471',
					comment: 'Raised by alarm rule 12',
					statusPrimary: 'Open',
					statusExtended: 'DISPATCH CONFIRMED',
					currencyId: '1',
					issueAreaId: '12',
					expirationDate: '2026-05-09T17:00:00',
					notifyProvider: true,
					additionalFieldValues: {
						values: [
							{ name: 'Alarm ID', value: 'A-991' },
							{ name: ' Zone ', value: 'Roof' },
						],
					},
				},
			},
		});
		expect(r.error).toBeUndefined();
		expectJsonRequest(r.api[0], {
			method: 'POST',
			path: '/api/v3/workorders',
			body: {
				ContractInfo: { StoreId: 'S502', TradeName: 'HVAC', ProviderId: 3001, SubscriberId: 1001 },
				Category: 'REPAIR',
				Priority: 'P2 - Urgent',
				Description: REQUIRED.description,
				ProblemCode: 'NO COOLING',
				CallDate: '2026-05-01T09:30:00',
				CallerName: 'Building Management System',
				Nte: 750.5,
				ScheduledDate: '2026-05-02T08:00:00',
				PurchaseNumber: 'PO-77812',
				Number: 'BMS-4471',
				Comment: 'Raised by alarm rule 12',
				Status: { Primary: 'Open', Extended: 'DISPATCH CONFIRMED' },
				CurrencyId: 1,
				IssueRequestInfo: { AreaId: 12 },
				ExtendedInfo: { ExpirationDate: '2026-05-09T17:00:00' },
				NotifyProvider: true,
				AdditionalFields: [
					{ Name: 'Alarm ID', Value: 'A-991' },
					{ Name: 'Zone', Value: 'Roof' },
				],
			},
		});
		const wo = created(r);
		expect(wo).toMatchObject({
			LocationId: 502,
			Nte: 750.5,
			PurchaseNumber: 'PO-77812',
			Caller: 'Building Management System',
			Number: 'BMS-4471',
		});
		expect(wo.Status).toEqual({
			Primary: 'OPEN',
			Extended: 'DISPATCH CONFIRMED',
			CanCreateInvoice: false,
		});
		expect(r.output[0].json).toMatchObject({
			success: true,
			operation: 'create',
			id: wo.Id,
		});
	});

	test.each([
		[
			'only a Location header',
			{ body: null, headers: { location: 'https://api.example/v3/workorders/90555001' } },
			{
				id: 90555001,
				location: 'https://api.example/v3/workorders/90555001',
			},
		],
		['{ Id } in the body, the returned ID as id', { body: { Id: 90555002 } }, { id: 90555002 }],
		['a bare number', { body: 90555003 }, { id: 90555003 }],
		[
			'an ID beyond 2^53, kept exact',
			{ body: '{"id":9007199254740993}', contentType: 'application/json' },
			{ id: '9007199254740993' },
		],
		['nothing at all', { body: null }, {}],
		[
			'a text that is no JSON',
			{ body: 'Created', contentType: 'text/plain' },
			{ response: 'Created' },
		],
	])('answer with %s: the item says so, without failing', async (_name, answer, expected) => {
		env.emulator.failNext({
			method: 'POST',
			path: '/api/v3/workorders',
			status: 201,
			afterProcessing: true,
			...answer,
		});
		const r = await env.run({ parameters: REQUIRED });
		expect(r.error).toBeUndefined();
		expect(r.api[0].processedStatus).toBe(201);
		expect(r.output.map((o) => o.json)).toEqual([
			{ success: true, operation: 'create', ...expected },
		]);
	});

	test('several items, each its own work order; Continue On Fail keeps a refused one (unknown category) and a bad input as error items', async () => {
		const r = await env.run({
			parameters: {
				...REQUIRED,
				category: '={{ $json.category }}',
				description: '={{ $json.text }}',
			},
			items: items(
				{ category: 'REPAIR', text: 'one' },
				{ category: 'WINDOW CLEANING', text: 'two' },
				{ category: 'REPAIR', text: '' },
				{ category: 'REPAIR', text: 'four' },
			),
			continueOnFail: true,
		});
		expect(r.result.status).toBe('success');
		expect(r.api.map((q) => q.body.Description)).toEqual(['one', 'two', 'four']);
		expect(r.api.map((q) => q.status)).toEqual([201, 400, 201]);
		expect(pairedIndexes(r.output)).toEqual([0, 1, 2, 3]);
		expect(r.output[1].json.error).toContain(
			"Category 'WINDOW CLEANING' is not valid for this subscriber",
		);
		expect(r.output[1].json.httpCode).toBe('400');
		expect(r.output[2].json.error).toContain(
			'Invalid Description (parameter "description") in item 2',
		);
		expect(r.output[0].json.id).not.toBe(r.output[3].json.id);
		expect(env.emulator.workOrder(r.output[3].json.id).Description).toBe('four');
	});

	test('the service refuses an unknown priority: a NodeApiError with its message and code', async () => {
		const r = await env.run({ parameters: { ...REQUIRED, priority: 'Whenever' } });
		expect(r.api).toHaveLength(1);
		expectApiError(r, {
			status: 400,
			serviceMessage: "Priority 'Whenever' is not valid for this subscriber",
			code: 913,
		});
	});

	test('a batch that stops at item 1 says which work orders were created', async () => {
		const r = await env.run({
			parameters: {
				...REQUIRED,
				problemCode: '={{ $json.code }}',
				location: { __rl: true, mode: 'id', value: '={{ $json.loc }}' },
			},
			items: items({ code: 'A', loc: 501 }, { code: 'B', loc: 999 }, { code: 'C', loc: 501 }),
		});
		expect(r.result.status).toBe('error');
		expect(r.error.message).toContain('Location 999 is not a location of subscriber 1001');
		expect(r.error.description).toContain('Item 1 of 3 failed; it was not created.');
		expect(r.error.description).toMatch(/Items? 0( and 2)? (was|were) created/);
	});

	test.each([
		['trade empty', { tradeName: ' ' }, 'tradeName', /must not be empty/],
		['category empty', { category: '' }, 'category', /must not be empty/],
		['description empty', { description: '' }, 'description', /must not be empty/],
		['problem code empty', { problemCode: '' }, 'problemCode', /must not be empty/],
		['call date empty', { callDate: '' }, 'callDate', /date-time, not empty/],
		['call date not a date', { callDate: '01/05/2026' }, 'callDate', /ISO 8601/],
		['negative NTE', { nte: '-5' }, 'nte', /from 0 to/],
		['provider ID not a number', { providerId: 'acme' }, 'providerId', /positive whole number/],
	])(
		'%s is refused before any request, naming the parameter and the item',
		async (_name, bad, parameter, problem) => {
			const [key, value] = Object.entries(bad)[0];
			const good = REQUIRED[key] ?? '';
			const r = await env.run({
				parameters: { ...REQUIRED, [key]: '={{ $json.value }}' },
				items: items({ value: good }, { value }),
			});
			expectValidationError(r, { parameter, item: 1, problem });
			expect(r.api).toHaveLength(1);
		},
	);

	test.each([
		[
			'location ID 0 (from an expression)',
			{ location: { __rl: true, mode: 'id', value: '={{ 0 }}' } },
			'location',
			/1 or greater/,
		],
		[
			'store number empty',
			{ location: { __rl: true, mode: 'storeId', value: ' ' } },
			'location',
			/must not be empty/,
		],
		[
			'status without extended status',
			{ additionalFields: { statusPrimary: 'Open' } },
			'additionalFields.statusExtended',
			/both/,
		],
		[
			'extended status without status',
			{ additionalFields: { statusExtended: 'ON SITE' } },
			'additionalFields.statusPrimary',
			/both/,
		],
		[
			'custom field without a name',
			{ additionalFields: { additionalFieldValues: { values: [{ name: '', value: 'x' }] } } },
			'additionalFields.additionalFieldValues[0].name',
			/must not be empty/,
		],
	])('%s is refused before any request', async (_name, bad, parameter, problem) => {
		const r = await env.run({ parameters: { ...REQUIRED, ...bad } });
		expectValidationError(r, { parameter, item: 0, problem });
		expect(r.api).toHaveLength(0);
	});
});
