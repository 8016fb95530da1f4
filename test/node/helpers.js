'use strict';
/**
 * Shared helpers of the workflow-level node tests (test/node/<resource>/<operation>.test.js, and the
 * parameter, method and description tests beside them). Not a test file itself.
 *
 * Every test file starts one emulator and one n8n-core harness (support.setup()), stores the
 * password credential under CRED_ID, and runs "Manual Trigger -> Items -> Work Order Service".
 */
const { NodeApiError, NodeOperationError, Workflow } = require('n8n-workflow');
const { LoadOptionsContext } = require('n8n-core');
const support = require('../support');

const { CRED_ID, useEnvironment } = support;

/** Items with json only. */
function items(...jsons) {
	return jsons.map((json) => ({ json }));
}

/**
 * Asserts the request carried the Bearer token of the stored credential, i.e. the one the
 * emulator issued to `username`.
 */
function expectBearer(
	env,
	request,
	username = env.fixtures.users.subscriber.username,
	credentialId = CRED_ID,
) {
	const header = request.headers.authorization;
	expect(header).toMatch(/^Bearer \S+$/);
	const token = header.slice('Bearer '.length);
	expect(token).toBe(env.harness.credentials.get(credentialId).accessToken);
	const issued = env.emulator.state.tokens.find((t) => t.token === token);
	expect(issued).toBeDefined();
	expect(issued.username).toBe(username);
}

/** Asserts the JSON request shape: method, exact path, query, Content-Type, Accept. */
function expectJsonRequest(request, { method, path, query = {}, body }) {
	expect(request.method).toBe(method);
	expect(request.path).toBe(path);
	expect(request.query).toEqual(query);
	expect(request.headers['content-type']).toBe('application/json');
	expect(request.headers.accept).toMatch(/application\/json/);
	if (body !== undefined) expect(request.body).toEqual(body);
	expect(request.status).toBeGreaterThanOrEqual(200);
}

function expectGet(request, { path, query = {} }) {
	expect(request.method).toBe('GET');
	expect(request.path).toBe(path);
	expect(request.query).toEqual(query);
	expect(request.bodySize).toBe(0);
	expect(request.headers['content-type']).toBeUndefined();
	expect(request.headers.accept).toMatch(/application\/json/);
}

/** pairedItem of each output item, as indexes. */
function pairedIndexes(output) {
	return output.map((o) => {
		expect(o.pairedItem).toEqual({ item: expect.any(Number) });
		return o.pairedItem.item;
	});
}

/**
 * Asserts a validation failure: the run failed with a NodeOperationError naming the parameter
 * and the item.
 */
function expectValidationError(r, { parameter, item, problem }) {
	expect(r.result.status).toBe('error');
	expect(r.error).toBeInstanceOf(NodeOperationError);
	expect(r.error).not.toBeInstanceOf(NodeApiError);
	expect(r.error.message).toContain(`(parameter "${parameter}")`);
	expect(r.error.message).toContain(`in item ${item}`);
	if (problem) expect(r.error.message).toMatch(problem);
	expect(r.error.context.itemIndex).toBe(item);
}

/** Asserts a service refusal surfaced as a NodeApiError carrying the service's ErrorMessage. */
function expectApiError(r, { status, serviceMessage, code, item = 0 }) {
	expect(r.result.status).toBe('error');
	expect(r.error).toBeInstanceOf(NodeApiError);
	expect(r.error.httpCode).toBe(String(status));
	expect(r.error.message).toContain(serviceMessage);
	if (code !== undefined) expect(r.error.message).toContain(`(error code ${code})`);
	expect(r.error.context.itemIndex).toBe(item);
}

/** The JSON body of the emulator's last logged response for a request (lossless parse). */
function responseJson(request) {
	const { parse } = require('../emulator/lossless-json');
	return parse(request.responseBody);
}

/**
 * The context n8n gives a node's loadOptions and listSearch methods: n8n-core's real
 * LoadOptionsContext, built the way n8n's DynamicNodeParametersService builds it (a one-node
 * workflow, additionalData with the credentials helper and the current node parameters).
 */
function loadOptionsContext(env, parameters, path) {
	const type = env.harness.nodeType('workOrderService');
	const node = {
		id: 'node-wos',
		name: 'Work Order Service',
		type,
		typeVersion: 1,
		position: [0, 0],
		parameters: { authentication: 'password', ...parameters },
		credentials: { workOrderServiceApi: { id: CRED_ID, name: 'Emulator password' } },
	};
	const workflow = new Workflow({
		id: 'load-options',
		name: 'load options',
		nodes: [node],
		connections: {},
		active: false,
		nodeTypes: env.harness.nodeTypes,
	});
	const additionalData = {
		credentialsHelper: env.harness.credentialsHelper,
		currentNodeParameters: node.parameters,
		executionId: undefined,
		workflowId: 'load-options',
		userId: 'harness-user',
		restApiUrl: 'http://127.0.0.1:5678/rest',
		instanceBaseUrl: 'http://127.0.0.1:5678/',
		webhookBaseUrl: 'http://127.0.0.1:5678/webhook',
		webhookWaitingBaseUrl: 'http://127.0.0.1:5678/webhook-waiting',
		webhookTestBaseUrl: 'http://127.0.0.1:5678/webhook-test',
		formWaitingBaseUrl: 'http://127.0.0.1:5678/form-waiting',
		variables: {},
		setExecutionStatus: () => {},
		sendDataToUI: () => {},
		logAiEvent: () => {},
	};
	const context = new LoadOptionsContext(
		workflow,
		workflow.getNode(node.name),
		additionalData,
		path,
	);
	const nodeType = env.harness.nodeTypes.getByNameAndVersion(type, 1);
	return { context, nodeType };
}

/** Runs a loadOptions method (a dropdown) of the node through n8n-core's LoadOptionsContext. */
async function loadOptions(env, methodName, parameters, path) {
	globalThis.__WOS_CONTRACT__?.noteNodeOperation(`workOrderService loadOptions.${methodName}`);
	const { context, nodeType } = loadOptionsContext(env, parameters, path);
	return await nodeType.methods.loadOptions[methodName].call(context);
}

/**
 * Runs a listSearch method (a resource locator's "From List") of the node through n8n-core's
 * LoadOptionsContext, with the search text and the page token the editor passes.
 */
async function listSearch(env, methodName, parameters, path, filter, paginationToken) {
	globalThis.__WOS_CONTRACT__?.noteNodeOperation(`workOrderService listSearch.${methodName}`);
	const { context, nodeType } = loadOptionsContext(env, parameters, path);
	return await nodeType.methods.listSearch[methodName].call(context, filter, paginationToken);
}

module.exports = {
	CRED_ID,
	useEnvironment,
	items,
	expectBearer,
	expectJsonRequest,
	expectGet,
	pairedIndexes,
	expectValidationError,
	expectApiError,
	responseJson,
	loadOptions,
	listSearch,
	support,
};
