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
					const f = /** @type {{ base64?: string, text?: string, fileName?: string, mimeType?: string }} */ (file);
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

module.exports = { ManualTrigger, HarnessItems, OAuth2Api };
