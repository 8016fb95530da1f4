'use strict';
/**
 * The credentials as n8n's editor offers them: each login's display name and the default name n8n
 * gives a new credential say which login it is, and each Authentication shows exactly its own
 * credential type (none tied to Authentication with displayOptions.show).
 */
const { NodeHelpers } = require('n8n-workflow');
const { useEnvironment } = require('../helpers');
const { editorView } = require('./editor');

const env = useEnvironment();
const { description, freshParameters } = editorView(env);

describe('credentials: the login is in the name, and the node offers only the chosen login', () => {
	const TYPES = {
		password: ['workOrderServiceApi', 'Work Order Service Password Grant API'],
		oAuth2: ['workOrderServiceOAuth2Api', 'Work Order Service Authorization Code OAuth2 API'],
		contractor: ['workOrderServiceContractorApi', 'Work Order Service Contractor JWT API'],
	};
	/** n8n 2.41.1's editor names a new credential: its type's display name without API/OAuth1/OAuth2/MCP, plus " account". */
	const defaultName = (displayName) =>
		`${displayName
			.split(' ')
			.filter((w) => !['API', 'OAuth1', 'OAuth2', 'MCP'].includes(w))
			.join(' ')} account`;

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
			const parameters = freshParameters({
				authentication: value,
				resource: 'workOrder',
				operation: 'get',
			});
			const node = { name: 'Work Order Service', type: d.name, typeVersion: 1, parameters };
			const displayed = d.credentials
				.filter((c) => NodeHelpers.displayParameter(parameters, c, node, d))
				.map((c) => c.name);
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
