// @ts-check
'use strict';

/**
 * Test-only stand-ins for two n8n-nodes-base nodes the example workflows use, so that a workflow
 * saved for real n8n also runs in the harness (n8n-nodes-base itself is not a dependency):
 *
 * - `n8n-nodes-base.webhook`: n8n's Webhook node, responding on receipt, for JSON and
 *   multipart/form-data bodies as n8n 2.41 hands them on: one item `{ headers, params, query,
 *   body }`; a multipart body's text fields in `body` (a single value as itself), each file part as
 *   a binary property named after its field (`snapshot` -> `binary.snapshot`, with its file name and
 *   MIME type), as n8n's `handleFormData` does.
 * - `n8n-nodes-base.merge`: n8n's Merge node (3.x), mode "Combine" by position only: item i of
 *   every input merged into one (the last input wins a clash of keys, binaries joined), as many
 *   items as the shortest input.
 */

const { NodeConnectionTypes, NodeOperationError } = require('n8n-workflow');
const { parseMultipart } = require('../emulator/multipart');

/** @implements {import('n8n-workflow').INodeType} */
class WebhookOnReceived {
	constructor() {
		/** @type {import('n8n-workflow').INodeTypeDescription} */
		this.description = {
			displayName: 'Webhook',
			name: 'webhook',
			icon: 'fa:bolt',
			group: ['trigger'],
			version: [2, 2.1],
			description:
				"Test stand-in: n8n's Webhook node (respond on receipt; JSON and multipart bodies)",
			defaults: { name: 'Webhook' },
			inputs: [],
			outputs: [NodeConnectionTypes.Main],
			webhooks: [
				{
					name: 'default',
					httpMethod: '={{$parameter["httpMethod"] || "GET"}}',
					responseMode: 'onReceived',
					path: '={{$parameter["path"]}}',
					isFullPath: true,
				},
			],
			properties: [
				{
					displayName: 'HTTP Method',
					name: 'httpMethod',
					type: 'options',
					options: [
						{ name: 'GET', value: 'GET' },
						{ name: 'POST', value: 'POST' },
					],
					default: 'GET',
				},
				{ displayName: 'Path', name: 'path', type: 'string', default: '' },
				{
					displayName: 'Respond',
					name: 'responseMode',
					type: 'options',
					options: [{ name: 'Immediately', value: 'onReceived' }],
					default: 'onReceived',
				},
				{ displayName: 'Options', name: 'options', type: 'collection', default: {}, options: [] },
			],
		};
	}

	/** @this {import('n8n-workflow').IWebhookFunctions} */
	async webhook() {
		const req = /** @type {any} */ (this.getRequestObject());
		/** @type {import('n8n-workflow').INodeExecutionData} */
		const item = {
			json: { headers: req.headers, params: req.params, query: req.query, body: req.body },
		};
		if (req.contentType === 'multipart/form-data') {
			/** @type {Record<string, unknown>} */
			const fields = {};
			/** @type {Record<string, import('n8n-workflow').IBinaryData>} */
			const files = {};
			let parts;
			try {
				parts = parseMultipart(req.rawBody, req.headers['content-type']);
			} catch (error) {
				throw new NodeOperationError(this.getNode(), /** @type {Error} */ (error));
			}
			for (const part of parts) {
				if (part.filename === null) fields[part.name] = part.data.toString('utf8');
				else
					files[part.name] = await this.helpers.prepareBinaryData(
						Buffer.from(part.data),
						part.filename,
						part.contentType ?? undefined,
					);
			}
			item.json.body = fields;
			if (Object.keys(files).length) item.binary = files;
		}
		return { workflowData: [[item]] };
	}
}

/** @implements {import('n8n-workflow').INodeType} */
class MergeByPosition {
	constructor() {
		/** @type {import('n8n-workflow').INodeTypeDescription} */
		this.description = {
			displayName: 'Merge',
			name: 'merge',
			icon: 'fa:code-branch',
			group: ['transform'],
			version: [3, 3.1, 3.2],
			description: "Test stand-in: n8n's Merge node, Combine by Position",
			defaults: { name: 'Merge' },
			inputs: [NodeConnectionTypes.Main, NodeConnectionTypes.Main],
			outputs: [NodeConnectionTypes.Main],
			properties: [
				{
					displayName: 'Mode',
					name: 'mode',
					type: 'options',
					options: [{ name: 'Combine', value: 'combine' }],
					default: 'combine',
				},
				{
					displayName: 'Combine By',
					name: 'combineBy',
					type: 'options',
					options: [{ name: 'Position', value: 'combineByPosition' }],
					default: 'combineByPosition',
				},
				{ displayName: 'Options', name: 'options', type: 'collection', default: {}, options: [] },
			],
		};
	}

	/** @this {import('n8n-workflow').IExecuteFunctions} */
	async execute() {
		const mode = this.getNodeParameter('mode', 0);
		const combineBy = this.getNodeParameter('combineBy', 0);
		if (mode !== 'combine' || combineBy !== 'combineByPosition') {
			throw new NodeOperationError(
				this.getNode(),
				`The Merge stand-in does only Combine by Position (got ${String(mode)} / ${String(combineBy)})`,
			);
		}
		const inputs = [this.getInputData(0), this.getInputData(1)];
		const count = Math.min(...inputs.map((input) => input.length));
		/** @type {import('n8n-workflow').INodeExecutionData[]} */
		const out = [];
		for (let i = 0; i < count; i++) {
			const entries = inputs.map((input) => input[i]);
			out.push({
				json: Object.assign({}, ...entries.map((e) => e.json)),
				binary: Object.assign({}, ...entries.map((e) => e.binary ?? {})),
				pairedItem: entries.map((_e, input) => ({ item: i, input })),
			});
		}
		return [out];
	}
}

module.exports = { WebhookOnReceived, MergeByPosition };
