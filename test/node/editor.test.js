'use strict';
/**
 * What a new user meets in n8n's editor, judged with n8n-workflow's own helpers on the package as
 * n8n-core's PackageDirectoryLoader loads it (codex included): the values a fresh node starts with,
 * which parameters n8n flags as missing, which credential each Authentication shows, the default
 * names n8n gives new credentials, and the words the node panel's search finds the node by.
 * test/editor/ drives the real editor in a browser; this file keeps the same rules in the fast suite.
 */
const { NodeHelpers } = require('n8n-workflow');
const { useEnvironment } = require('./helpers');

const env = useEnvironment();

const description = () => env.harness.nodeTypes.getByNameAndVersion(env.harness.nodeType('workOrderService'), 1).description;

/** Every resource/operation (selector questions for the checklist, to show Option ID). */
function operations() {
	// read at definition time, before the harness exists: the built node class itself
	const { WorkOrderService } = require('../../dist/nodes/WorkOrderService/WorkOrderService.node.js');
	const d = new WorkOrderService().description;
	const out = [];
	for (const resource of d.properties.find((p) => p.name === 'resource').options.map((o) => o.value)) {
		const operation = d.properties.find((p) => p.name === 'operation' && p.displayOptions.show.resource.includes(resource));
		for (const { value } of operation.options) {
			out.push({ resource, operation: value, ...(resource === 'checklistResponse' ? { questionType: 'selector' } : {}) });
		}
	}
	return out;
}

/** The node's parameters as the editor creates them for a new node, then for the chosen operation. */
function freshParameters(chosen) {
	const d = description();
	const node = { name: 'Work Order Service', type: d.name, typeVersion: 1, parameters: {} };
	return NodeHelpers.getNodeParameters(d.properties, { ...chosen }, true, false, node, d);
}

/** Parameters shown for the values (top level and inside collections), with their paths. */
function shown(parameters) {
	const d = description();
	const node = { name: 'Work Order Service', type: d.name, typeVersion: 1, parameters };
	const list = [];
	for (const p of d.properties) {
		if (!NodeHelpers.displayParameter(parameters, p, node, d)) continue;
		list.push({ path: p.name, p });
		if (p.type === 'collection') for (const o of p.options) list.push({ path: `${p.name}.${o.name}`, p: o, inCollection: true });
	}
	return list;
}

/** A field where an ID is typed (a dropdown such as "Rejection Reason Name or ID" is not one). */
const isId = (p) => (/\bIDs?\b/.test(p.displayName) && p.type !== 'options') || p.name === 'workOrderId';

describe('ID fields: empty, never 0, never clamped, required ones flagged', () => {
	test.each(operations().map((o) => [`${o.resource}.${o.operation}`, o]))('%s', (_name, chosen) => {
		const parameters = freshParameters(chosen);
		const ids = shown(parameters).filter(({ p }) => isId(p));
		for (const { path, p, inCollection } of ids) {
			const value = inCollection ? p.default : parameters[p.name];
			const plain = value !== null && typeof value === 'object' ? value.value : value;
			expect([path, plain]).toEqual([path, '']);
			expect([path, p.typeOptions?.minValue]).toEqual([path, undefined]);
			const placeholder = p.type === 'resourceLocator' ? p.modes.map((m) => m.placeholder).join(' ') : p.placeholder;
			expect([path, placeholder]).toEqual([path, expect.stringMatching(/\S/)]);
		}
		// the editor flags exactly the required IDs as missing on a fresh node
		const node = { name: 'Work Order Service', type: description().name, typeVersion: 1, parameters };
		const issues = NodeHelpers.getNodeParametersIssues(description().properties, node, description())?.parameters ?? {};
		const requiredIds = ids.filter(({ p, inCollection }) => !inCollection && p.required).map(({ path }) => path);
		const idPaths = new Set(ids.map(({ path }) => path));
		expect(Object.keys(issues).filter((path) => idPaths.has(path)).sort()).toEqual(requiredIds.sort());
	});

	test('the IDs a user types are text (nothing rounds or clamps them); the Work Order is a From List / By ID locator', () => {
		const all = [];
		for (const chosen of operations()) for (const { p } of shown(freshParameters(chosen))) if (isId(p)) all.push(p);
		const types = new Set(all.map((p) => `${p.name}:${p.type}`));
		expect([...types].sort()).toEqual(
			[
				'locationId:string',
				'noteId:string',
				'optionId:string',
				'proposalId:string',
				'providerId:string',
				'questionId:string',
				'technicianId:string',
				'userId:string',
				'workOrderId:resourceLocator',
			].sort(),
		);
		const locator = all.find((p) => p.name === 'workOrderId');
		expect(locator.modes.map((m) => [m.name, m.displayName])).toEqual([
			['list', 'From List'],
			['id', 'By ID'],
		]);
		expect(locator.modes[0].typeOptions).toEqual({ searchListMethod: 'searchWorkOrders', searchable: true });
	});

	test('Get Attachments: Note ID is optional and says that empty means the whole work order', () => {
		const noteId = shown(freshParameters({ resource: 'workOrderNote', operation: 'getAttachments' })).find(({ path }) => path === 'noteId').p;
		expect(noteId.required).toBeFalsy();
		expect(noteId.placeholder).toMatch(/leave empty for the whole work order/i);
	});

	test('check-in/out: Latitude and Longitude start empty (nothing is sent when they are only added)', () => {
		for (const operation of ['checkIn', 'checkOut']) {
			const fields = shown(freshParameters({ resource: 'workOrder', operation })).filter(({ path }) => /itude$/.test(path));
			expect(fields.map(({ path, p }) => [path, p.default])).toEqual([
				['additionalFields.latitude', ''],
				['additionalFields.longitude', ''],
			]);
		}
	});
});

describe('credentials: the login is in the name, and the node offers only the chosen login', () => {
	const TYPES = {
		password: ['workOrderServiceApi', 'Work Order Service Password Grant API'],
		oAuth2: ['workOrderServiceOAuth2Api', 'Work Order Service Authorization Code OAuth2 API'],
		contractor: ['workOrderServiceContractorApi', 'Work Order Service Contractor JWT API'],
	};
	/** n8n 2.41.1's editor names a new credential: its type's display name without API/OAuth1/OAuth2/MCP, plus " account". */
	const defaultName = (displayName) => `${displayName.split(' ').filter((w) => !['API', 'OAuth1', 'OAuth2', 'MCP'].includes(w)).join(' ')} account`;

	test('display names and the default names of new credentials differ and say which login', () => {
		const names = {};
		for (const [auth, [type, displayName]] of Object.entries(TYPES)) {
			const credentialType = env.harness.credentialTypes.getByName(type);
			expect(credentialType.displayName).toBe(displayName);
			names[auth] = defaultName(credentialType.displayName);
		}
		expect(names).toEqual({
			password: 'Work Order Service Password Grant account',
			oAuth2: 'Work Order Service Authorization Code account',
			contractor: 'Work Order Service Contractor JWT account',
		});
	});

	test('each Authentication shows exactly its own credential type', () => {
		const d = description();
		const auth = d.properties.find((p) => p.name === 'authentication');
		expect(auth.options.map((o) => [o.value, o.name])).toEqual([
			['oAuth2', 'Authorization Code (OAuth2)'],
			['contractor', 'Contractor (JWT)'],
			['password', 'Password Grant'],
		]);
		expect(auth.default).toBe('password');
		for (const [value, [type]] of Object.entries(TYPES)) {
			const parameters = freshParameters({ authentication: value, resource: 'workOrder', operation: 'get' });
			const node = { name: 'Work Order Service', type: d.name, typeVersion: 1, parameters };
			const displayed = d.credentials.filter((c) => NodeHelpers.displayParameter(parameters, c, node, d)).map((c) => c.name);
			expect([value, displayed]).toEqual([value, [type]]);
		}
	});

	test("no credential is tied to Authentication with displayOptions.show (n8n's editor would then hide Authentication and pick the newest credential of any type)", () => {
		// n8n's editor (nodeTypesUtils getMainAuthField / useNodeCredentialOptions / NodeCredentials
		// "Select most recent credential by default") takes a parameter named in a credential's
		// displayOptions.show as the node's main auth field: it hides it from the node panel, lists
		// the credentials of all types together and auto-assigns the most recently updated one.
		for (const c of description().credentials) {
			expect([c.name, c.displayOptions.show]).toEqual([c.name, undefined]);
			expect(Object.keys(c.displayOptions.hide)).toEqual(['authentication']);
		}
	});
});

describe("node panel search: the codex's aliases", () => {
	test.each(['proposal', 'checklist', 'approve', 'reject', 'facility', 'facilities', 'maintenance', 'inspection', 'technician', 'note', 'work order'])(
		'"%s" is a name or an alias of the node',
		(word) => {
			const d = description();
			const words = [d.displayName, ...(d.codex?.alias ?? [])].map((w) => w.toLowerCase());
			expect(words.some((w) => w.includes(word))).toBe(true);
		},
	);
});
