'use strict';
/**
 * The package's conventions (docs/parameters.md, "Conventions"), checked on the node itself:
 * - every write (an operation whose `meta` has a verb) run once through n8n-core against the
 *   emulator: its item is `{ success: true, operation, <the IDs passed, camelCase>, <the answer> }`,
 *   a returned ID as `id` (`ids` for a list), exact; no `Id`/`Ids`, and the IDs passed as given;
 * - one name, label and default per shared option across operations;
 * - Simplify as n8n's UX guidelines word it, with Output for the tool variant.
 */
const path = require('node:path');

const { useEnvironment, support } = require('../helpers');
const { AT_501, openCheckIn } = require('../workOrder/checkInOut');

const env = useEnvironment();

const DIST = path.resolve(__dirname, '../../../dist/nodes/WorkOrderService');

function nodeDescription() {
	const { WorkOrderService } = require(path.join(DIST, 'WorkOrderService.node.js'));
	return new WorkOrderService().description;
}

/** resource -> operation -> its module (description, execute, meta), from the built actions. */
function operationModules() {
	const resources = nodeDescription().properties.find((p) => p.name === 'resource').options;
	const map = {};
	for (const { value } of resources) {
		const index = require(path.join(DIST, 'actions', value, 'index.js'));
		map[value] = {};
		for (const [name, module] of Object.entries(index))
			if (module && typeof module.execute === 'function') map[value][name] = module;
	}
	return map;
}

const PNG = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0x00]);
const fileItem = (key, fileName) => ({
	json: {},
	binary: { [key]: { base64: PNG.toString('base64'), fileName, mimeType: 'image/png' } },
});
const answeredBy = { workOrderId: 90000001, providerId: 3001, technicianId: 4001, attempt: 1 };
const byId = (id) => ({ __rl: true, mode: 'id', value: String(id) });
/** A fresh invoice of the main subscriber in `status` (as test/node/invoice/invoices.js makes them). */
const freshInvoice = (status) =>
	env.emulator.createInvoice({ WorkOrderId: 90000001, Status: status }).Id;
/** The contractor (JWT) credential, which posts invoices (as test/node/invoice/create.test.js). */
const CONTRACTOR = 'conventions-contractor';
const asContractor = () => {
	env.harness.credentials.set(CONTRACTOR, {
		name: 'Emulator contractor',
		type: 'workOrderServiceContractorApi',
		data: support.contractorCredential(env.emulator),
	});
	return { authentication: 'contractor', credentialId: CONTRACTOR };
};

/**
 * One valid call of each write and the IDs it passes (as the item must show them). A new write
 * operation fails the first test until it is added here.
 */
const WRITES = {
	'workOrder.create': () => ({
		parameters: {
			location: { __rl: true, mode: 'id', value: '501' },
			tradeName: 'HVAC',
			category: 'REPAIR',
			priority: 'P2 - Urgent',
			description: 'Conventions: one write',
			problemCode: 'NO COOLING',
			callDate: '2026-05-01T09:30:00',
		},
		passed: {},
		returnsId: true,
	}),
	'workOrder.updateStatus': () => ({
		parameters: { workOrderId: 90000003, primaryStatus: 'IN PROGRESS', extendedStatus: 'ON SITE' },
		passed: { workOrderId: 90000003 },
	}),
	'workOrder.updateScheduledDate': () => ({
		parameters: {
			workOrderId: 90000011,
			scheduledDate: new Date(Date.now() + 5 * 86400000).toISOString().slice(0, 19),
		},
		passed: { workOrderId: 90000011 },
	}),
	'workOrder.updatePriority': () => ({
		parameters: { workOrderId: 90000012, priority: 'P1 - Emergency' },
		passed: { workOrderId: 90000012 },
	}),
	'workOrder.updateNte': () => ({
		parameters: { workOrderId: 90000013, nte: '1250.75' },
		passed: { workOrderId: 90000013 },
	}),
	'workOrder.addAttachment': () => ({
		parameters: { workOrderId: 90000001, binaryPropertyName: 'data' },
		items: [fileItem('data', 'gauge.png')],
		passed: { workOrderId: 90000001 },
	}),
	'workOrder.checkIn': () => ({
		parameters: { workOrderId: 90000004, ...AT_501 },
		passed: { workOrderId: 90000004 },
	}),
	'workOrder.checkOut': async () => {
		await openCheckIn(env, 90000006);
		return { parameters: { workOrderId: 90000006, ...AT_501 }, passed: { workOrderId: 90000006 } };
	},
	'workOrderNote.create': () => ({
		parameters: { workOrderId: 90000005, note: 'Conventions: one note' },
		passed: { workOrderId: 90000005 },
		returnsId: true,
	}),
	'workOrderNote.addAttachment': async () => {
		const noteId = String(env.emulator.notesOf(90000005).at(-1).Id);
		return {
			parameters: { workOrderId: 90000005, noteId, binaryPropertyName: 'data' },
			items: [fileItem('data', 'note.png')],
			passed: { workOrderId: 90000005, noteId },
		};
	},
	...Object.fromEntries(
		['approve', 'reject', 'putOnHold', 'reopen'].map((operation) => [
			`proposal.${operation}`,
			() => {
				env.emulator.setProposalStatus(61001, operation === 'reopen' ? 'OnHold' : 'Open');
				return { parameters: { proposalId: 61001 }, passed: { proposalId: 61001 } };
			},
		]),
	),
	'checklistResponse.submit': () => ({
		parameters: { ...answeredBy, questionId: 9101, questionType: 'acknowledgement', answer: 'yes' },
		passed: { workOrderId: 90000001 },
	}),
	'checklistResponse.update': () => {
		const stored = env.emulator.state.checklistResponses.at(-1).response;
		return {
			parameters: {
				...answeredBy,
				checkListResponseId: String(stored.Id),
				questionId: 9101,
				questionType: 'acknowledgement',
				answer: 'no',
			},
			passed: { checkListResponseId: stored.Id, workOrderId: 90000001 },
		};
	},
	'invoice.create': () => ({
		parameters: {
			invoiceNumber: 'CONV-1',
			workOrderId: byId(90000001),
			invoiceDate: '2026-03-01T09:00:00-05:00',
			lineItems: { labor: [{ hourlyRate: 95, hours: 2 }] },
			tax: 0,
		},
		run: asContractor(),
		passed: { workOrderId: 90000001 },
		returnsId: true,
	}),
	...Object.fromEntries(
		['approve', 'reject', 'putOnHold'].map((operation) => [
			`invoice.${operation}`,
			() => {
				const invoiceId = freshInvoice('Open');
				return { parameters: { invoiceId: byId(invoiceId) }, passed: { invoiceId } };
			},
		]),
	),
	'invoice.recordPayment': () => {
		const invoiceId = freshInvoice('Approved');
		return {
			parameters: {
				invoiceId: byId(invoiceId),
				paymentNumber: 'CONV-CHK-1',
				paymentAmount: 10,
				paymentDate: '2026-03-02T10:00:00-05:00',
			},
			passed: { invoiceId },
		};
	},
	'location.addNote': () => ({
		parameters: { locationId: byId(504), header: 'Conventions', note: 'One note' },
		passed: { locationId: 504 },
	}),
	'asset.attachToWorkOrder': () => {
		const wo = env.emulator.createWorkOrder({ LocationId: 501, Trade: 'REFRIGERATION' });
		return {
			parameters: { workOrderId: byId(wo.Id), assetId: byId(50101) },
			passed: { workOrderId: wo.Id, assetId: 50101 },
		};
	},
};

describe('every write follows the output convention', () => {
	const modules = operationModules();
	const writes = Object.entries(modules).flatMap(([resource, ops]) =>
		Object.entries(ops)
			.filter(([, module]) => module.meta.verb !== undefined)
			.map(([operation]) => `${resource}.${operation}`),
	);

	test('the writes are the operations with a verb; each has a call here', () => {
		expect(writes.length).toBeGreaterThanOrEqual(16);
		expect(Object.keys(WRITES).sort()).toEqual([...writes].sort());
	});

	test.each(Object.keys(WRITES))(
		'%s: { success: true, operation, <IDs passed>, <the answer> }',
		async (write) => {
			const [resource, operation] = write.split('.');
			const call = await WRITES[write]();
			const r = await env.run({
				parameters: { resource, operation, ...call.parameters },
				...(call.items ? { items: call.items } : {}),
				...call.run,
			});
			expect(r.error).toBeUndefined();
			expect(r.api.length).toBeGreaterThanOrEqual(1);
			expect(r.output).toHaveLength(1);
			const item = r.output[0].json;
			const keys = Object.keys(item);
			// the write's keys first, in order: success, operation, then the IDs the user passed
			expect(keys.slice(0, 2)).toEqual(['success', 'operation']);
			expect(item.success).toBe(true);
			expect(item.operation).toBe(operation);
			const passed = Object.keys(call.passed);
			expect(keys.slice(2, 2 + passed.length)).toEqual(passed);
			for (const [key, value] of Object.entries(call.passed)) expect(item[key]).toEqual(value);
			for (const key of passed) expect(key).toMatch(/^[a-z][A-Za-z]*Id$/);
			// a returned ID is `id` (a list `ids`), exact: never `Id`/`Ids`, never a rounded number
			expect(keys).not.toContain('Id');
			expect(keys).not.toContain('Ids');
			if (call.returnsId) expect(item).toHaveProperty('id');
			if (item.id !== undefined) {
				expect(String(item.id)).toMatch(/^\d+$/);
				if (typeof item.id === 'number') expect(Number.isSafeInteger(item.id)).toBe(true);
			}
			for (const id of item.ids ?? []) expect(String(id)).toMatch(/^\d+$/);
		},
	);

	test('note IDs stay exact decimal strings: the new note ID and the note ID passed', async () => {
		const r = await env.run({
			parameters: {
				resource: 'workOrderNote',
				operation: 'create',
				workOrderId: 90000005,
				note: 'Conventions: the ID',
			},
		});
		expect(r.error).toBeUndefined();
		const { id } = r.output[0].json;
		expect(typeof id).toBe('string');
		expect(BigInt(id)).toBe(env.emulator.notesOf(90000005).at(-1).Id);
		expect(BigInt(id) > BigInt(Number.MAX_SAFE_INTEGER)).toBe(true);
	});
});

/** Every parameter of the node with where it stands (collections and fixed collections opened). */
function allParameters() {
	const out = [];
	const walk = (props, where) => {
		for (const p of props) {
			if (p.type === 'notice') continue;
			out.push({ ...p, where: `${where}${p.name}` });
			if (p.type === 'collection') walk(p.options ?? [], `${where}${p.name}.`);
			if (p.type === 'fixedCollection')
				for (const o of p.options ?? []) walk(o.values ?? [], `${where}${p.name}.`);
		}
	};
	for (const p of nodeDescription().properties) {
		const show = p.displayOptions?.show ?? {};
		walk([p], `${(show.resource ?? ['*']).join('|')}.${(show.operation ?? ['*']).join('|')}: `);
	}
	return out;
}

/** n8n asks a dropdown filled from the service to end its label with "Name or ID". */
const label = (p) => p.displayName.replace(/ Name or ID$/, '');
const optionValues = (p) => JSON.stringify((p.options ?? []).map((o) => o.value ?? o.name));

describe('one name, label and default per shared option', () => {
	const params = allParameters();
	const byName = new Map();
	for (const p of params) byName.set(p.name, [...(byName.get(p.name) ?? []), p]);

	// Parameters n8n itself names alike with different roles (docs/parameters.md says why):
	// `operation` (one per resource), `binaryPropertyName` (n8n's input field, output field and the
	// optional photo, each labelled by its role), `answer` (one field per question type).
	const ROLES = new Set(['operation', 'binaryPropertyName', 'answer']);

	test('a name shared by operations has one label', () => {
		const mixed = [];
		for (const [name, list] of byName) {
			if (ROLES.has(name)) continue;
			const labels = new Set(list.map(label));
			if (labels.size > 1) mixed.push(`${name}: ${[...labels].join(' / ')}`);
		}
		expect(mixed).toEqual([]);
	});

	test('a name shared with the same type and values has one default', () => {
		const mixed = [];
		for (const [name, list] of byName) {
			if (ROLES.has(name)) continue;
			const groups = new Map();
			for (const p of list) {
				const kind = `${p.type} ${optionValues(p)}`;
				groups.set(kind, [...(groups.get(kind) ?? []), p]);
			}
			for (const [kind, same] of groups) {
				const defaults = new Set(same.map((p) => JSON.stringify(p.default)));
				if (defaults.size > 1) mixed.push(`${name} (${kind}): ${[...defaults].join(' / ')}`);
			}
		}
		expect(mixed).toEqual([]);
	});

	test('the two Add Attachment operations: the same Additional Fields (but the work order actor)', () => {
		const fieldsOf = (resource) =>
			params
				.filter((p) => p.where.startsWith(`${resource}.addAttachment: additionalFields.`))
				.map((p) => ({
					name: p.name,
					displayName: p.displayName,
					default: p.default,
					options: optionValues(p),
				}));
		const workOrder = fieldsOf('workOrder');
		const note = fieldsOf('workOrderNote');
		expect(note.length).toBeGreaterThanOrEqual(4);
		expect(workOrder.filter((f) => f.name !== 'actor')).toEqual(note);
		expect(note.find((f) => f.name === 'isInvoiceDigitalCopy').displayName).toBe(
			'Invoice Digital Copy',
		);
		expect(note.find((f) => f.name === 'visibility').default).toBe('default');
	});

	test('Simplify as the UX guidelines word it; the tool variant gets Output and its Fields', () => {
		const simplify = params.filter((p) => p.name === 'simplify');
		expect(simplify.length).toBeGreaterThanOrEqual(5);
		for (const p of simplify) {
			expect(p.displayName).toBe('Simplify');
			expect(p.type).toBe('boolean');
			expect(p.default).toBe(true);
			expect(p.description).toBe(
				'Whether to return a simplified version of the response instead of the raw data',
			);
		}
		const outputs = params.filter((p) => p.name === 'output');
		expect(outputs.length).toBeGreaterThanOrEqual(4);
		for (const p of outputs) {
			expect(p.displayOptions.show['@tool']).toEqual([true]);
			expect(p.options.map((o) => o.name)).toEqual(['Raw', 'Selected Fields', 'Simplified']);
			expect(p.default).toBe('simplified');
			const where = p.where.split(':')[0];
			const fields = params.find((f) => f.name === 'outputFields' && f.where.startsWith(where));
			expect(fields.type).toBe('multiOptions');
			expect(fields.displayOptions.show).toMatchObject({ '@tool': [true], output: ['selected'] });
			const simplifyHere = simplify.find((s) => s.where.startsWith(where));
			expect(simplifyHere.displayOptions.hide).toEqual({ '@tool': [true] });
		}
	});
});
