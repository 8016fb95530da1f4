// @ts-check
'use strict';

/**
 * Test-only node and credential types that the harness registers next to the
 * package under test:
 *
 * - `n8n-nodes-base.manualTrigger`: equivalent of n8n's Manual Trigger (a
 *   trigger whose manualTriggerFunction emits one empty item).
 * - `harness.items`: a source node whose `items` parameter holds a JSON array
 *   of `{ json, binary?: { [key]: { base64 | text, fileName, mimeType } } }`
 *   and emits them (binary through `this.helpers.prepareBinaryData`).
 * - `oAuth2Api`: a faithful minimal equivalent of n8n-nodes-base's OAuth2Api
 *   credential, so a credential with `extends: ['oAuth2Api']` goes through
 *   n8n-core's real `requestOAuth2`. Like n8n's CLI CredentialsHelper, the
 *   harness's getCredentialsProperties() appends the `oauthTokenData` property
 *   (json, default {}) to the base oAuth2Api type.
 */

const { NodeConnectionTypes, NodeOperationError, jsonParse } = require('n8n-workflow');

/** @typedef {import('n8n-workflow').INodeType} INodeType */
/** @typedef {import('n8n-workflow').ICredentialType} ICredentialType */

/** @implements {INodeType} */
class ManualTrigger {
	constructor() {
		/** @type {import('n8n-workflow').INodeTypeDescription} */
		this.description = {
			displayName: 'Manual Trigger',
			name: 'manualTrigger',
			icon: 'fa:mouse-pointer',
			group: ['trigger'],
			version: 1,
			description: 'Runs the flow on clicking a button in n8n',
			eventTriggerDescription: '',
			maxNodes: 1,
			defaults: { name: 'When clicking ‘Execute workflow’' },
			inputs: [],
			outputs: [NodeConnectionTypes.Main],
			properties: [],
		};
	}

	/** @this {import('n8n-workflow').ITriggerFunctions} */
	async trigger() {
		const manualTriggerFunction = async () => {
			this.emit([this.helpers.returnJsonArray([{}])]);
		};
		return { manualTriggerFunction };
	}
}

/** @implements {INodeType} */
class HarnessItems {
	constructor() {
		/** @type {import('n8n-workflow').INodeTypeDescription} */
		this.description = {
			displayName: 'Harness Items',
			name: 'items',
			icon: 'fa:list',
			group: ['input'],
			version: 1,
			description: 'Test-only source: emits the items given in its "items" parameter',
			defaults: { name: 'Items' },
			inputs: [NodeConnectionTypes.Main],
			outputs: [NodeConnectionTypes.Main],
			properties: [
				{
					displayName: 'Items (JSON Array)',
					name: 'items',
					type: 'json',
					default: '[]',
					description:
						'Array of { json, binary?: { <key>: { base64 | text, fileName, mimeType } } }',
				},
			],
		};
	}

	/** @this {import('n8n-workflow').IExecuteFunctions} */
	async execute() {
		const raw = this.getNodeParameter('items', 0, '[]');
		/** @type {unknown} */
		const parsed = typeof raw === 'string' ? jsonParse(raw) : raw;
		if (!Array.isArray(parsed)) {
			throw new NodeOperationError(this.getNode(), 'The "items" parameter must be a JSON array');
		}
		/** @type {import('n8n-workflow').INodeExecutionData[]} */
		const out = [];
		for (let i = 0; i < parsed.length; i++) {
			const spec = parsed[i] ?? {};
			/** @type {import('n8n-workflow').INodeExecutionData} */
			const item = { json: spec.json ?? {}, pairedItem: { item: 0 } };
			if (spec.binary && typeof spec.binary === 'object') {
				item.binary = {};
				for (const [key, file] of Object.entries(spec.binary)) {
					const f =
						/** @type {{ base64?: string, text?: string, fileName?: string, mimeType?: string }} */ (
							file
						);
					const buffer =
						f.base64 !== undefined
							? Buffer.from(f.base64, 'base64')
							: Buffer.from(f.text ?? '', 'utf8');
					item.binary[key] = await this.helpers.prepareBinaryData(buffer, f.fileName, f.mimeType);
				}
			}
			out.push(item);
		}
		return [out];
	}
}

/**
 * Stand-in for n8n's Edit Fields (Set) node, "JSON" mode only (`mode: 'raw'`, `jsonOutput`), so
 * that example workflows saved for real n8n also run in the harness. Other modes are refused.
 * @implements {INodeType}
 */
class SetRaw {
	constructor() {
		/** @type {import('n8n-workflow').INodeTypeDescription} */
		this.description = {
			displayName: 'Edit Fields (Set)',
			name: 'set',
			icon: 'fa:pen',
			group: ['input'],
			version: [3, 3.1, 3.2, 3.3, 3.4],
			description: "Test stand-in: JSON mode of n8n's Edit Fields node",
			defaults: { name: 'Edit Fields' },
			inputs: [NodeConnectionTypes.Main],
			outputs: [NodeConnectionTypes.Main],
			properties: [
				{
					displayName: 'Mode',
					name: 'mode',
					type: 'options',
					options: [
						{ name: 'JSON', value: 'raw' },
						{ name: 'Manual Mapping', value: 'manual' },
					],
					default: 'manual',
				},
				{
					displayName: 'JSON',
					name: 'jsonOutput',
					type: 'json',
					default: '{}',
					displayOptions: { show: { mode: ['raw'] } },
				},
				{
					displayName: 'Include Other Input Fields',
					name: 'includeOtherFields',
					type: 'boolean',
					default: false,
				},
				{ displayName: 'Options', name: 'options', type: 'collection', default: {}, options: [] },
			],
		};
	}

	/** @this {import('n8n-workflow').IExecuteFunctions} */
	async execute() {
		const items = this.getInputData();
		/** @type {import('n8n-workflow').INodeExecutionData[]} */
		const out = [];
		for (let i = 0; i < items.length; i++) {
			if (this.getNodeParameter('mode', i) !== 'raw') {
				throw new NodeOperationError(
					this.getNode(),
					'The harness stand-in of Edit Fields supports JSON mode only',
				);
			}
			const raw = this.getNodeParameter('jsonOutput', i, '{}');
			const json = typeof raw === 'string' ? jsonParse(raw) : raw;
			const include = this.getNodeParameter('includeOtherFields', i, false);
			out.push({ json: include ? { ...items[i].json, ...json } : json, pairedItem: { item: i } });
		}
		return [out];
	}
}

/**
 * Stand-in for n8n's Convert to File node, operation "Move Base64 String to File" (`toBinary`).
 * @implements {INodeType}
 */
class ConvertToFileToBinary {
	constructor() {
		/** @type {import('n8n-workflow').INodeTypeDescription} */
		this.description = {
			displayName: 'Convert to File',
			name: 'convertToFile',
			icon: 'fa:file-import',
			group: ['input'],
			version: [1, 1.1],
			description: "Test stand-in: the toBinary operation of n8n's Convert to File node",
			defaults: { name: 'Convert to File' },
			inputs: [NodeConnectionTypes.Main],
			outputs: [NodeConnectionTypes.Main],
			properties: [
				{
					displayName: 'Operation',
					name: 'operation',
					type: 'options',
					options: [{ name: 'Move Base64 String to File', value: 'toBinary' }],
					default: 'toBinary',
				},
				{ displayName: 'Base64 Input Field', name: 'sourceProperty', type: 'string', default: '' },
				{
					displayName: 'Put Output File in Field',
					name: 'binaryPropertyName',
					type: 'string',
					default: 'data',
				},
				{
					displayName: 'Options',
					name: 'options',
					type: 'collection',
					default: {},
					options: [
						{ displayName: 'File Name', name: 'fileName', type: 'string', default: '' },
						{ displayName: 'MIME Type', name: 'mimeType', type: 'string', default: '' },
					],
				},
			],
		};
	}

	/** @this {import('n8n-workflow').IExecuteFunctions} */
	async execute() {
		const items = this.getInputData();
		/** @type {import('n8n-workflow').INodeExecutionData[]} */
		const out = [];
		for (let i = 0; i < items.length; i++) {
			const source = String(this.getNodeParameter('sourceProperty', i));
			const target = String(this.getNodeParameter('binaryPropertyName', i, 'data'));
			const options = /** @type {{ fileName?: string, mimeType?: string }} */ (
				this.getNodeParameter('options', i, {})
			);
			const value = source
				.split('.')
				.reduce((/** @type {any} */ o, k) => (o == null ? undefined : o[k]), items[i].json);
			if (typeof value !== 'string') {
				throw new NodeOperationError(
					this.getNode(),
					`The input field "${source}" holds no base64 string`,
					{ itemIndex: i },
				);
			}
			const binary = await this.helpers.prepareBinaryData(
				Buffer.from(value, 'base64'),
				options.fileName || undefined,
				options.mimeType || undefined,
			);
			out.push({ json: items[i].json, binary: { [target]: binary }, pairedItem: { item: i } });
		}
		return [out];
	}
}

/**
 * Stand-in for n8n's Schedule Trigger, run the way n8n runs a trigger manually (the editor's
 * "Execute workflow", the harness): its manualTriggerFunction emits one item with the time, as
 * n8n's does. The `rule` parameter is kept, not interpreted: no schedule is registered.
 * @implements {INodeType}
 */
class ScheduleTriggerManual {
	constructor() {
		/** @type {import('n8n-workflow').INodeTypeDescription} */
		this.description = {
			displayName: 'Schedule Trigger',
			name: 'scheduleTrigger',
			icon: 'fa:clock',
			group: ['trigger', 'schedule'],
			version: [1, 1.1, 1.2],
			description: "Test stand-in: n8n's Schedule Trigger, run manually",
			eventTriggerDescription: '',
			defaults: { name: 'Schedule Trigger' },
			inputs: [],
			outputs: [NodeConnectionTypes.Main],
			properties: [{ displayName: 'Trigger Rules', name: 'rule', type: 'json', default: '{}' }],
		};
	}

	/** @this {import('n8n-workflow').ITriggerFunctions} */
	async trigger() {
		const manualTriggerFunction = async () => {
			this.emit([this.helpers.returnJsonArray([{ timestamp: new Date().toISOString() }])]);
		};
		return { manualTriggerFunction };
	}
}

/**
 * Stand-in for n8n's If node (version 2.x): the `conditions` filter is evaluated by n8n-core itself
 * (`getNodeParameter(..., { extractValue: true })`, as n8n's If node reads it); items go to the
 * true (0) or false (1) output.
 * @implements {INodeType}
 */
class IfFilter {
	constructor() {
		/** @type {import('n8n-workflow').INodeTypeDescription} */
		this.description = {
			displayName: 'If',
			name: 'if',
			icon: 'fa:map-signs',
			group: ['transform'],
			version: [2, 2.1, 2.2],
			description: "Test stand-in: n8n's If node",
			defaults: { name: 'If' },
			inputs: [NodeConnectionTypes.Main],
			outputs: [NodeConnectionTypes.Main, NodeConnectionTypes.Main],
			outputNames: ['true', 'false'],
			properties: [
				{
					displayName: 'Conditions',
					name: 'conditions',
					type: 'filter',
					default: {},
					typeOptions: { filter: { caseSensitive: true, typeValidation: 'strict', version: 2 } },
				},
				{ displayName: 'Options', name: 'options', type: 'collection', default: {}, options: [] },
			],
		};
	}

	/** @this {import('n8n-workflow').IExecuteFunctions} */
	async execute() {
		/** @type {import('n8n-workflow').INodeExecutionData[][]} */
		const out = [[], []];
		this.getInputData().forEach((item, i) => {
			const pass = this.getNodeParameter('conditions', i, false, { extractValue: true });
			out[pass ? 0 : 1].push({ ...item, pairedItem: { item: i } });
		});
		return out;
	}
}

/** @implements {ICredentialType} */
class OAuth2Api {
	constructor() {
		this.name = 'oAuth2Api';
		this.displayName = 'OAuth2 API';
		this.documentationUrl = 'httprequest';
		this.genericAuth = true;
		/** @type {import('n8n-workflow').INodeProperties[]} */
		this.properties = [
			{
				displayName: 'Use Dynamic Client Registration',
				name: 'useDynamicClientRegistration',
				type: 'hidden',
				default: false,
			},
			{
				displayName: 'Grant Type',
				name: 'grantType',
				type: 'options',
				options: [
					{ name: 'Authorization Code', value: 'authorizationCode' },
					{ name: 'Client Credentials', value: 'clientCredentials' },
					{ name: 'PKCE', value: 'pkce' },
				],
				default: 'authorizationCode',
			},
			{
				displayName: 'Authorization URL',
				name: 'authUrl',
				type: 'string',
				displayOptions: { show: { grantType: ['authorizationCode', 'pkce'] } },
				default: '',
				required: true,
			},
			{
				displayName: 'Access Token URL',
				name: 'accessTokenUrl',
				type: 'string',
				default: '',
				required: true,
			},
			{ displayName: 'Client ID', name: 'clientId', type: 'string', default: '', required: true },
			{
				displayName: 'Client Secret',
				name: 'clientSecret',
				type: 'string',
				typeOptions: { password: true },
				default: '',
				required: true,
			},
			{ displayName: 'Scope', name: 'scope', type: 'string', default: '' },
			{
				displayName: 'Auth URI Query Parameters',
				name: 'authQueryParameters',
				type: 'string',
				displayOptions: { show: { grantType: ['authorizationCode', 'pkce'] } },
				default: '',
			},
			{
				displayName: 'Authentication',
				name: 'authentication',
				type: 'options',
				options: [
					{ name: 'Body', value: 'body', description: 'Send credentials in body' },
					{ name: 'Header', value: 'header', description: 'Send credentials as Basic Auth header' },
				],
				default: 'header',
			},
			{
				displayName: 'Ignore SSL Issues (Insecure)',
				name: 'ignoreSSLIssues',
				type: 'boolean',
				default: false,
				doNotInherit: true,
			},
			{
				displayName: 'Token Expired Status Code',
				name: 'tokenExpiredStatusCode',
				type: 'number',
				default: 401,
				doNotInherit: true,
			},
		];
	}
}

/**
 * Stand-in for n8n's HTTP Request node with "Predefined Credential Type" (n8n-nodes-base is not
 * installed here): one request per item through n8n-core's `requestWithAuthentication`, exactly as
 * HttpRequestV3 calls it, so a credential's preAuthentication, authenticate and n8n's redirect
 * handling run for real. Parameters: `credentialType`, `method`, `url`, `body` (JSON text, optional).
 * Output: `{ statusCode, body }` per item; a failure becomes `{ error, statusCode? }`.
 * @implements {INodeType}
 */
class HttpRequestWithCredential {
	constructor() {
		/** @type {import('n8n-workflow').INodeTypeDescription} */
		this.description = {
			displayName: 'Harness HTTP Request',
			name: 'httpRequest',
			group: ['transform'],
			version: 1,
			description: 'Stand-in for the HTTP Request node with a predefined credential type',
			defaults: { name: 'HTTP Request' },
			inputs: [NodeConnectionTypes.Main],
			outputs: [NodeConnectionTypes.Main],
			properties: [
				{ displayName: 'Credential Type', name: 'credentialType', type: 'string', default: '' },
				{ displayName: 'Method', name: 'method', type: 'string', default: 'GET' },
				{ displayName: 'URL', name: 'url', type: 'string', default: '' },
				{ displayName: 'Body', name: 'body', type: 'string', default: '' },
			],
		};
	}

	/** @this {import('n8n-workflow').IExecuteFunctions} */
	async execute() {
		const out = [];
		const items = this.getInputData();
		for (let i = 0; i < items.length; i++) {
			const credentialType = /** @type {string} */ (this.getNodeParameter('credentialType', i));
			const body = /** @type {string} */ (this.getNodeParameter('body', i, ''));
			/** @type {any} */
			const requestOptions = {
				method: this.getNodeParameter('method', i),
				uri: this.getNodeParameter('url', i),
				json: true,
				resolveWithFullResponse: true,
				gzip: true,
				rejectUnauthorized: true,
				followRedirect: true,
				followAllRedirects: true,
				headers: {},
			};
			if (body) requestOptions.body = JSON.parse(body);
			try {
				const response = await this.helpers.requestWithAuthentication.call(
					this,
					credentialType,
					requestOptions,
					undefined,
					i,
				);
				out.push({
					json: { statusCode: response.statusCode, body: response.body },
					pairedItem: { item: i },
				});
			} catch (error) {
				const e = /** @type {any} */ (error);
				out.push({
					json: {
						error: String(e?.message ?? e),
						statusCode: e?.httpCode ?? e?.cause?.response?.status,
					},
					pairedItem: { item: i },
				});
			}
		}
		return [out];
	}
}

module.exports = {
	ManualTrigger,
	HarnessItems,
	SetRaw,
	ConvertToFileToBinary,
	OAuth2Api,
	HttpRequestWithCredential,
	ScheduleTriggerManual,
	IfFilter,
};
