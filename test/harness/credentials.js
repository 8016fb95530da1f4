// @ts-check
'use strict';

/**
 * Credentials for the harness, modelled on n8n's CLI:
 * - CredentialStore: stands in for the credentials table (decrypted data kept
 *   as JSON, so every read is a copy, like decrypting the stored ciphertext).
 * - HarnessCredentialTypes: stands in for packages/cli/src/credential-types.ts.
 * - HarnessCredentialsHelper: a subclass of n8n-workflow's ICredentialsHelper
 *   following packages/cli/src/credentials-helper.ts (authenticate,
 *   preAuthentication, runPreAuthentication, getDecrypted with defaults,
 *   updateCredentials, updateCredentialsOauthTokenData, getParentTypes, ...),
 *   minus the enterprise bits (overwrites, external secrets, dynamic
 *   credentials, AI gateway, policies).
 */

const {
	ICredentials,
	ICredentialsHelper,
	NodeHelpers,
	UnexpectedError,
	UserError,
	Workflow,
	isExpression,
	getCredentialOwnRequestAllowedDomains,
} = require('n8n-workflow');
const { getAdditionalKeys } = require('n8n-core');

/** @typedef {import('n8n-workflow').ICredentialDataDecryptedObject} ICredentialDataDecryptedObject */
/** @typedef {import('n8n-workflow').ICredentialType} ICredentialType */
/** @typedef {import('n8n-workflow').INodeProperties} INodeProperties */
/** @typedef {import('n8n-workflow').INodeCredentialsDetails} INodeCredentialsDetails */
/** @typedef {import('n8n-workflow').IHttpRequestHelper} IHttpRequestHelper */
/** @typedef {import('n8n-workflow').IHttpRequestOptions} IHttpRequestOptions */
/** @typedef {import('n8n-workflow').INode} INode */
/** @typedef {import('n8n-workflow').IWorkflowExecuteAdditionalData} IWorkflowExecuteAdditionalData */
/** @typedef {import('n8n-workflow').WorkflowExecuteMode} WorkflowExecuteMode */

/**
 * @typedef {{ name: string, type: string, data: ICredentialDataDecryptedObject }} StoredCredential
 * @typedef {{ id: string, type: string, via: 'updateCredentials' | 'updateCredentialsOauthTokenData', data: ICredentialDataDecryptedObject, at: number }} CredentialUpdate
 */

/** JSON round-trip: what a store-and-decrypt cycle gives back. @template T @param {T} v @returns {T} */
const copy = (v) => (v === undefined ? v : JSON.parse(JSON.stringify(v)));

class CredentialNotFoundError extends UserError {
	/** @param {string | null | undefined} id @param {string} type */
	constructor(id, type) {
		super(`Credential with ID "${id}" does not exist for type "${type}".`);
	}
}

/** In-memory credentials "table". Persists across runs of one harness. */
class CredentialStore {
	constructor() {
		/** @type {Map<string, { name: string, type: string, json: string }>} */
		this.rows = new Map();
		/** Log of every persist call made by the CredentialsHelper. @type {CredentialUpdate[]} */
		this.updates = [];
	}

	/**
	 * Create or replace a credential.
	 * @param {string} id
	 * @param {StoredCredential} credential
	 */
	set(id, { name, type, data }) {
		if (!type)
			throw new UnexpectedError('credentials.set(id, { name, type, data }): type is required');
		this.rows.set(String(id), { name: name ?? String(id), type, json: JSON.stringify(data ?? {}) });
		return this;
	}

	/**
	 * The persisted (decrypted) data — a copy.
	 * @param {string} id
	 * @returns {ICredentialDataDecryptedObject | undefined}
	 */
	get(id) {
		const row = this.rows.get(String(id));
		return row ? JSON.parse(row.json) : undefined;
	}

	/** @param {string} id @returns {StoredCredential | undefined} */
	getEntry(id) {
		const row = this.rows.get(String(id));
		return row ? { name: row.name, type: row.type, data: JSON.parse(row.json) } : undefined;
	}

	/** @param {string} id */
	has(id) {
		return this.rows.has(String(id));
	}

	/** @param {string} id */
	delete(id) {
		return this.rows.delete(String(id));
	}

	/**
	 * Like credentialsRepository.findOneByOrFail({ id, type }).
	 * @param {INodeCredentialsDetails} nodeCredentials
	 * @param {string} type
	 */
	findOrFail(nodeCredentials, type) {
		if (!nodeCredentials?.id) {
			throw new UserError(
				`Credential "${nodeCredentials?.name}" of type "${type}" has no ID (node.credentials.${type}.id is required).`,
			);
		}
		const row = this.rows.get(String(nodeCredentials.id));
		if (!row || row.type !== type) throw new CredentialNotFoundError(nodeCredentials.id, type);
		return row;
	}

	/**
	 * @param {string} id @param {string} type @param {ICredentialDataDecryptedObject} data
	 * @param {CredentialUpdate['via']} via
	 */
	persist(id, type, data, via) {
		const row = this.rows.get(String(id));
		if (!row) throw new CredentialNotFoundError(id, type);
		row.json = JSON.stringify(data);
		this.updates.push({ id: String(id), type, via, data: copy(data), at: Date.now() });
	}
}

/** ICredentials backed by the store (what CredentialsHelper.getCredentials returns). */
class StoredCredentials extends ICredentials {
	/**
	 * @param {INodeCredentialsDetails} nodeCredentials
	 * @param {string} type
	 * @param {string} json
	 */
	constructor(nodeCredentials, type, json) {
		super(nodeCredentials, type, json);
		this.id = nodeCredentials.id ?? undefined;
		this.name = nodeCredentials.name;
		this.type = type;
		this.data = json;
	}
	async getData() {
		return JSON.parse(this.data ?? '{}');
	}
	getDataToSave() {
		return { id: this.id, name: this.name, type: this.type, data: this.data ?? '{}' };
	}
	/** @param {ICredentialDataDecryptedObject} data */
	async setData(data) {
		this.data = JSON.stringify(data);
	}
	/** @param {Partial<ICredentialDataDecryptedObject>} toUpdate @param {string[]} [toDelete] */
	async updateData(toUpdate, toDelete = []) {
		const data = { ...(await this.getData()), ...toUpdate };
		for (const key of toDelete) delete data[key];
		await this.setData(data);
	}
}

/** Credential type registry (packages/cli/src/credential-types.ts). */
class HarnessCredentialTypes {
	constructor() {
		/** @type {Map<string, { type: ICredentialType, supportedNodes: string[] }>} */
		this.types = new Map();
	}
	/** @param {ICredentialType} type @param {string[]} [supportedNodes] */
	add(type, supportedNodes = []) {
		this.types.set(type.name, { type, supportedNodes });
	}
	/** @param {string} type */
	recognizes(type) {
		return this.types.has(type);
	}
	/** @param {string} type @returns {ICredentialType} */
	getByName(type) {
		const entry = this.types.get(type);
		if (!entry) throw new UnexpectedError(`Unrecognized credential type: ${type}`);
		return entry.type;
	}
	/** @param {string} type */
	getSupportedNodes(type) {
		return this.types.get(type)?.supportedNodes ?? [];
	}
	/**
	 * All ancestors through `extends`, nearest first.
	 * @param {string} typeName @returns {string[]}
	 */
	getParentTypes(typeName) {
		/** @type {string[]} */
		const result = [];
		/** @param {string} name */
		const walk = (name) => {
			for (const parent of this.types.get(name)?.type.extends ?? []) {
				if (result.includes(parent)) continue;
				result.push(parent);
				walk(parent);
			}
		};
		walk(typeName);
		return result;
	}
}

/**
 * n8n CLI's restrictToCredentialDomains(): the helpers handed to a
 * credential's preAuthentication only expose httpRequest, with the
 * credential's own allowed-domains list applied.
 * @param {IHttpRequestHelper} helpers
 * @param {ICredentialDataDecryptedObject} credentials
 * @returns {IHttpRequestHelper}
 */
function restrictToCredentialDomains(helpers, credentials) {
	return {
		helpers: {
			httpRequest: async (requestOptions) => {
				const allowedDomains = getCredentialOwnRequestAllowedDomains(credentials);
				if (allowedDomains === undefined) return await helpers.helpers.httpRequest(requestOptions);
				if (requestOptions.allowedDomains !== undefined) {
					throw new UserError(
						'This credential restricts requests to specific domains, which cannot be combined with the domains its authentication step asks for.',
					);
				}
				return await helpers.helpers.httpRequest({ ...requestOptions, allowedDomains });
			},
		},
	};
}

/** OAuth endpoint/flow fields owned by the credential type when it declares them hidden. */
const OAUTH_PINNED_FIELDS = ['authUrl', 'accessTokenUrl', 'grantType', 'authentication'];

/** @type {INode} */
const mockNode = {
	id: 'harness-credential-resolver',
	name: '',
	typeVersion: 1,
	type: 'n8n-nodes-base.manualTrigger',
	position: [0, 0],
	parameters: {},
};

class HarnessCredentialsHelper extends ICredentialsHelper {
	/**
	 * @param {HarnessCredentialTypes} credentialTypes
	 * @param {CredentialStore} store
	 * @param {import('n8n-workflow').INodeTypes} nodeTypes used for the stand-alone expression workflow
	 */
	constructor(credentialTypes, store, nodeTypes) {
		super();
		this.credentialTypes = credentialTypes;
		this.store = store;
		this.nodeTypes = nodeTypes;
	}

	/**
	 * Add the authentication to the request: function form is called; generic
	 * form resolves each key/value with the workflow expression engine and
	 * `$credentials` (n8n CLI CredentialsHelper.authenticate).
	 * @param {ICredentialDataDecryptedObject} credentials
	 * @param {string} typeName
	 * @param {IHttpRequestOptions | import('n8n-workflow').IRequestOptionsSimplified} incomingRequestOptions
	 * @param {Workflow} [workflow]
	 * @param {INode} [node]
	 * @returns {Promise<IHttpRequestOptions>}
	 */
	async authenticate(credentials, typeName, incomingRequestOptions, workflow, node) {
		const requestOptions = /** @type {any} */ (incomingRequestOptions);
		const credentialType = this.credentialTypes.getByName(typeName);

		if (credentialType.authenticate) {
			if (typeof credentialType.authenticate === 'function') {
				return await credentialType.authenticate(credentials, requestOptions);
			}
			if (typeof credentialType.authenticate === 'object') {
				if (!workflow || !node) {
					throw new UnexpectedError(
						'Workflow and node are required for declarative credential authentication',
					);
				}
				const { authenticate } = credentialType;
				if (requestOptions.headers === undefined) requestOptions.headers = {};
				if (authenticate.type === 'generic') {
					for (const [outerKey, outerValue] of Object.entries(authenticate.properties)) {
						for (const [key, value] of Object.entries(/** @type {object} */ (outerValue))) {
							const keyResolved = this.resolveValue(
								key,
								{ $credentials: credentials },
								workflow,
								node,
							);
							const valueResolved = this.resolveValue(
								/** @type {string} */ (value),
								{ $credentials: credentials },
								workflow,
								node,
							);
							if (!requestOptions[outerKey]) requestOptions[outerKey] = {};
							requestOptions[outerKey][keyResolved] = valueResolved;
						}
					}
				}
			}
		}
		return requestOptions;
	}

	/**
	 * n8n's rules: only when the credential type has a hidden property with
	 * typeOptions.expirable, and that property is '' (or credentialsExpired is
	 * true after a 401), call the type's preAuthentication with the helpers;
	 * if the output contains the expirable property, persist (updateCredentials)
	 * and return the merged credentials.
	 * @param {IHttpRequestHelper} helpers
	 * @param {ICredentialDataDecryptedObject} credentials
	 * @param {string} typeName
	 * @param {INode} node
	 * @param {boolean} credentialsExpired
	 */
	async preAuthentication(helpers, credentials, typeName, node, credentialsExpired) {
		const credentialType = this.credentialTypes.getByName(typeName);
		const expirableProperty = credentialType.properties.find(
			(property) => property.type === 'hidden' && property?.typeOptions?.expirable === true,
		);
		if (expirableProperty?.name === undefined) return undefined;

		const isTestingCredentials =
			node?.parameters?.temp === '' && node?.type === 'n8n-nodes-base.noOp';

		if (typeof credentialType.preAuthentication === 'function') {
			if (
				credentials[expirableProperty.name] === '' ||
				credentialsExpired ||
				isTestingCredentials
			) {
				const output = await credentialType.preAuthentication.call(
					restrictToCredentialDomains(helpers, credentials),
					credentials,
				);
				if (output[expirableProperty.name] === undefined) return undefined;

				if (node.credentials) {
					const nodeCredentials = node.credentials[credentialType.name];
					const storedData = await (
						await this.getCredentials(nodeCredentials, credentialType.name)
					).getData();
					/** @type {ICredentialDataDecryptedObject} */
					const dataToPersist = { ...storedData };
					for (const [key, value] of Object.entries(output)) {
						if (key === expirableProperty.name || !isExpression(storedData[key])) {
							dataToPersist[key] = value;
						}
					}
					await this.updateCredentials(nodeCredentials, credentialType.name, dataToPersist);
					return Object.assign(credentials, output);
				}
			}
		}
		return undefined;
	}

	/**
	 * Called by requestOAuth2 on every request: run the type's preAuthentication
	 * in memory, no expirable guard, no persistence.
	 * @param {IHttpRequestHelper} helpers
	 * @param {ICredentialDataDecryptedObject} credentials
	 * @param {string} typeName
	 */
	async runPreAuthentication(helpers, credentials, typeName) {
		const credentialType = this.credentialTypes.getByName(typeName);
		if (typeof credentialType.preAuthentication !== 'function') return undefined;
		const output = await credentialType.preAuthentication.call(
			restrictToCredentialDomains(helpers, credentials),
			credentials,
		);
		return output ?? undefined;
	}

	/**
	 * @param {string} parameterValue
	 * @param {import('n8n-workflow').IWorkflowDataProxyAdditionalKeys} additionalKeys
	 * @param {Workflow} workflow
	 * @param {INode} node
	 * @returns {string}
	 */
	resolveValue(parameterValue, additionalKeys, workflow, node) {
		if (!isExpression(parameterValue)) return parameterValue;
		const returnValue = workflow.expression.getSimpleParameterValue(
			node,
			parameterValue,
			'internal',
			additionalKeys,
			undefined,
			'',
		);
		if (!returnValue) return '';
		return returnValue.toString();
	}

	/** @param {string} typeName */
	getParentTypes(typeName) {
		return this.credentialTypes.getParentTypes(typeName);
	}

	/**
	 * @param {INodeCredentialsDetails} nodeCredential
	 * @param {string} type
	 * @returns {Promise<StoredCredentials>}
	 */
	async getCredentials(nodeCredential, type) {
		const row = this.store.findOrFail(nodeCredential, type);
		return new StoredCredentials({ id: String(nodeCredential.id), name: row.name }, type, row.json);
	}

	/** @param {string} credentialType @param {string} nodeType */
	isCredentialUsableByNode(credentialType, nodeType) {
		/** @type {ICredentialType} */
		let typeDef;
		try {
			typeDef = this.credentialTypes.getByName(credentialType);
		} catch {
			return true;
		}
		if (!(/** @type {any} */ (typeDef).restrictToSupportedNodes)) return true;
		return this.credentialTypes.getSupportedNodes(credentialType).includes(nodeType);
	}

	/**
	 * All properties of a credential type, parents merged first (children win),
	 * plus the special oauthTokenData on the oAuth1Api/oAuth2Api base types.
	 * @param {string} type
	 * @returns {INodeProperties[]}
	 */
	getCredentialsProperties(type) {
		const credentialTypeData = this.credentialTypes.getByName(type);
		if (credentialTypeData.extends === undefined) {
			if (['oAuth1Api', 'oAuth2Api'].includes(type)) {
				return [
					...credentialTypeData.properties,
					{
						displayName: 'oauthTokenData',
						name: 'oauthTokenData',
						type: 'json',
						required: false,
						default: {},
					},
				];
			}
			return credentialTypeData.properties;
		}
		/** @type {INodeProperties[]} */
		const combineProperties = [];
		for (const credentialsTypeName of credentialTypeData.extends) {
			NodeHelpers.mergeNodeProperties(
				combineProperties,
				this.getCredentialsProperties(credentialsTypeName),
			);
		}
		NodeHelpers.mergeNodeProperties(combineProperties, credentialTypeData.properties);
		return combineProperties;
	}

	/**
	 * A copy of the stored data (raw), or merged with the credential type's
	 * defaults and with expressions resolved (n8n's applyDefaultsAndOverwrites,
	 * without overwrites).
	 * @param {IWorkflowExecuteAdditionalData} additionalData
	 * @param {INodeCredentialsDetails} nodeCredentials
	 * @param {string} type
	 * @param {WorkflowExecuteMode} mode
	 * @param {import('n8n-workflow').IExecuteData} [executeData]
	 * @param {boolean} [raw]
	 * @param {import('n8n-workflow').ICredentialsExpressionResolveValues} [expressionResolveValues]
	 */
	async getDecrypted(
		additionalData,
		nodeCredentials,
		type,
		mode,
		executeData,
		raw,
		expressionResolveValues,
	) {
		const credentials = await this.getCredentials(nodeCredentials, type);
		const decryptedDataOriginal = await credentials.getData();
		if (raw === true) return decryptedDataOriginal;
		return await this.applyDefaultsAndOverwrites(
			additionalData,
			decryptedDataOriginal,
			type,
			mode,
			executeData,
			expressionResolveValues,
		);
	}

	/**
	 * @param {IWorkflowExecuteAdditionalData} additionalData
	 * @param {ICredentialDataDecryptedObject} decryptedDataOriginal
	 * @param {string} type
	 * @param {WorkflowExecuteMode} mode
	 * @param {import('n8n-workflow').IExecuteData} [executeData]
	 * @param {import('n8n-workflow').ICredentialsExpressionResolveValues} [expressionResolveValues]
	 */
	async applyDefaultsAndOverwrites(
		additionalData,
		decryptedDataOriginal,
		type,
		mode,
		executeData,
		expressionResolveValues,
	) {
		const credentialsProperties = this.getCredentialsProperties(type);

		const storedData = { ...decryptedDataOriginal };
		for (const field of OAUTH_PINNED_FIELDS) {
			if (credentialsProperties.some((p) => p.name === field && p.type === 'hidden')) {
				delete storedData[field];
			}
		}

		let decryptedData = /** @type {ICredentialDataDecryptedObject} */ (
			NodeHelpers.getNodeParameters(
				credentialsProperties,
				/** @type {import('n8n-workflow').INodeParameters} */ (storedData),
				true,
				false,
				null,
				null,
			)
		);

		if (decryptedDataOriginal.oauthTokenData !== undefined) {
			decryptedData.oauthTokenData = decryptedDataOriginal.oauthTokenData;
		}
		for (const key of ['allowedHttpRequestDomains', 'allowedDomains']) {
			if (decryptedData[key] === undefined && decryptedDataOriginal[key] !== undefined) {
				decryptedData[key] = decryptedDataOriginal[key];
			}
		}

		const additionalKeys = getAdditionalKeys(additionalData, mode, null, { isCredential: true });

		if (expressionResolveValues) {
			try {
				decryptedData = /** @type {ICredentialDataDecryptedObject} */ (
					expressionResolveValues.workflow.expression.getParameterValue(
						/** @type {import('n8n-workflow').INodeParameters} */ (decryptedData),
						expressionResolveValues.runExecutionData,
						expressionResolveValues.runIndex,
						expressionResolveValues.itemIndex,
						expressionResolveValues.node.name,
						expressionResolveValues.connectionInputData,
						mode,
						additionalKeys,
						executeData,
						false,
						decryptedData,
					)
				);
			} catch (e) {
				/** @type {Error} */ (e).message += ' [Error resolving credentials]';
				throw e;
			}
		} else {
			const workflow = new Workflow({
				nodes: [mockNode],
				connections: {},
				active: false,
				nodeTypes: this.nodeTypes,
			});
			await workflow.expression.acquireIsolate();
			try {
				decryptedData = /** @type {ICredentialDataDecryptedObject} */ (
					workflow.expression.getComplexParameterValue(
						mockNode,
						/** @type {import('n8n-workflow').INodeParameters} */ (decryptedData),
						mode,
						additionalKeys,
						undefined,
						undefined,
						decryptedData,
					)
				);
			} finally {
				await workflow.expression.releaseIsolate();
			}
		}
		return decryptedData;
	}

	/**
	 * Persist the whole credential data (used after preAuthentication).
	 * @param {INodeCredentialsDetails} nodeCredentials
	 * @param {string} type
	 * @param {ICredentialDataDecryptedObject} data
	 */
	async updateCredentials(nodeCredentials, type, data) {
		const credentials = await this.getCredentials(nodeCredentials, type);
		await credentials.setData(data);
		this.store.persist(
			String(credentials.id),
			type,
			await credentials.getData(),
			'updateCredentials',
		);
	}

	/**
	 * Persist only `oauthTokenData` (used by requestOAuth2 after a token
	 * fetch/refresh).
	 * @param {INodeCredentialsDetails} nodeCredentials
	 * @param {string} type
	 * @param {ICredentialDataDecryptedObject} data
	 * @param {IWorkflowExecuteAdditionalData} _additionalData
	 */
	async updateCredentialsOauthTokenData(nodeCredentials, type, data, _additionalData) {
		const credentials = await this.getCredentials(nodeCredentials, type);
		await credentials.updateData({ oauthTokenData: data.oauthTokenData });
		this.store.persist(
			String(credentials.id),
			type,
			await credentials.getData(),
			'updateCredentialsOauthTokenData',
		);
	}
}

module.exports = {
	CredentialStore,
	StoredCredentials,
	HarnessCredentialTypes,
	HarnessCredentialsHelper,
	CredentialNotFoundError,
	restrictToCredentialDomains,
};
