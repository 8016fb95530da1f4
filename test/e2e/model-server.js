'use strict';
/**
 * A scripted OpenAI-compatible model server on 127.0.0.1, for AI Agent runs without a model:
 * n8n's OpenAI Chat Model (credential Base URL pointed here) talks to it like to api.openai.com.
 *
 *   const model = await startModelServer({ scripts: { approve: [{ tool: 'approve_proposal', args: { proposal_id: 0 } }, ...] } });
 *   model.url        // http://127.0.0.1:PORT/v1   (the openAiApi credential's "url")
 *   model.requests   // every request: { path, headers, body, script, step, answer }
 *   await model.close();
 *
 * A conversation picks its script by a token `E2E:<name>` in the first user message. Each answer
 * is the script's next tool call (step = the number of tool results the conversation already
 * holds) as long as steps remain, then a final text answer. A step names the tool by its name
 * as offered in `tools`; one that is not offered is answered with text, so a test sees it.
 *
 * APIs: Chat Completions (`POST /v1/chat/completions`, also `stream: true` as server-sent
 * events) and Responses (`POST /v1/responses`, without streaming); `GET /v1/models`.
 */
const http = require('node:http');

function readBody(req) {
	return new Promise((resolve, reject) => {
		const chunks = [];
		req.on('data', (c) => chunks.push(c));
		req.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
		req.on('error', reject);
	});
}

const textOf = (content) =>
	typeof content === 'string'
		? content
		: Array.isArray(content)
			? content.map((p) => (typeof p === 'string' ? p : (p?.text ?? ''))).join('')
			: '';

/** The conversation as { script, toolResults, offered } for either API. */
function readConversation(path, body) {
	if (path.endsWith('/chat/completions')) {
		const messages = body.messages ?? [];
		const firstUser = messages.find((m) => m.role === 'user');
		return {
			prompt: textOf(firstUser?.content),
			toolResults: messages
				.filter((m) => m.role === 'tool')
				.map((m) => ({ id: m.tool_call_id, content: textOf(m.content) })),
			offered: (body.tools ?? []).map((t) => t.function),
		};
	}
	const input = Array.isArray(body.input) ? body.input : [{ role: 'user', content: body.input }];
	const firstUser = input.find((m) => m.role === 'user');
	return {
		prompt: textOf(firstUser?.content),
		toolResults: input
			.filter((m) => m.type === 'function_call_output')
			.map((m) => ({ id: m.call_id, content: textOf(m.output) })),
		offered: (body.tools ?? [])
			.filter((t) => t.type === 'function')
			.map((t) => ({ name: t.name, description: t.description, parameters: t.parameters })),
	};
}

/** What the model answers next: { toolCall: { id, name, arguments } } or { text }. */
function decide(scripts, conversation) {
	const name = /E2E:([\w-]+)/.exec(conversation.prompt)?.[1];
	const script = name ? scripts[name] : undefined;
	if (!script)
		return {
			script: name,
			step: -1,
			text: `no script for prompt ${JSON.stringify(conversation.prompt.slice(0, 80))}`,
		};
	const step = conversation.toolResults.length;
	if (step >= script.length) {
		return {
			script: name,
			step,
			text: `DONE ${name}: ${conversation.toolResults.map((r) => r.content).join(' | ')}`,
		};
	}
	const call = script[step];
	if (!conversation.offered.some((t) => t.name === call.tool)) {
		return {
			script: name,
			step,
			text: `tool ${call.tool} was not offered; offered: ${conversation.offered.map((t) => t.name).join(', ')}`,
		};
	}
	return {
		script: name,
		step,
		toolCall: { id: `call_${name}_${step}`, name: call.tool, arguments: JSON.stringify(call.args) },
	};
}

const usage = { prompt_tokens: 10, completion_tokens: 5, total_tokens: 15 };

function chatCompletion(body, answer) {
	const message = answer.toolCall
		? {
				role: 'assistant',
				content: null,
				tool_calls: [
					{
						id: answer.toolCall.id,
						type: 'function',
						function: { name: answer.toolCall.name, arguments: answer.toolCall.arguments },
					},
				],
			}
		: { role: 'assistant', content: answer.text };
	return {
		id: `chatcmpl-${Date.now()}`,
		object: 'chat.completion',
		created: Math.floor(Date.now() / 1000),
		model: body.model,
		choices: [
			{ index: 0, message, logprobs: null, finish_reason: answer.toolCall ? 'tool_calls' : 'stop' },
		],
		usage,
	};
}

function chatChunks(body, answer) {
	const base = {
		id: `chatcmpl-${Date.now()}`,
		object: 'chat.completion.chunk',
		created: Math.floor(Date.now() / 1000),
		model: body.model,
	};
	const delta = answer.toolCall
		? {
				role: 'assistant',
				content: null,
				tool_calls: [
					{
						index: 0,
						id: answer.toolCall.id,
						type: 'function',
						function: { name: answer.toolCall.name, arguments: answer.toolCall.arguments },
					},
				],
			}
		: { role: 'assistant', content: answer.text };
	const chunks = [
		{ ...base, choices: [{ index: 0, delta, finish_reason: null }] },
		{
			...base,
			choices: [{ index: 0, delta: {}, finish_reason: answer.toolCall ? 'tool_calls' : 'stop' }],
		},
	];
	if (body.stream_options?.include_usage) chunks.push({ ...base, choices: [], usage });
	return chunks;
}

function response(body, answer) {
	const output = answer.toolCall
		? [
				{
					type: 'function_call',
					id: `fc_${answer.toolCall.id}`,
					call_id: answer.toolCall.id,
					name: answer.toolCall.name,
					arguments: answer.toolCall.arguments,
					status: 'completed',
				},
			]
		: [
				{
					type: 'message',
					id: `msg_${Date.now()}`,
					role: 'assistant',
					status: 'completed',
					content: [{ type: 'output_text', text: answer.text, annotations: [] }],
				},
			];
	return {
		id: `resp_${Date.now()}`,
		object: 'response',
		created_at: Math.floor(Date.now() / 1000),
		status: 'completed',
		model: body.model,
		output,
		usage: { input_tokens: 10, output_tokens: 5, total_tokens: 15 },
	};
}

async function startModelServer({ scripts = {} } = {}) {
	const requests = [];
	const server = http.createServer(async (req, res) => {
		const path = req.url.split('?')[0];
		const send = (status, json) => {
			res.writeHead(status, { 'content-type': 'application/json' });
			res.end(JSON.stringify(json));
		};
		try {
			const raw = await readBody(req);
			if (req.method === 'GET' && path.endsWith('/models'))
				return send(200, {
					object: 'list',
					data: [{ id: 'gpt-4o-mini', object: 'model', owned_by: 'e2e' }],
				});
			if (
				req.method !== 'POST' ||
				!(path.endsWith('/chat/completions') || path.endsWith('/responses'))
			) {
				return send(404, {
					error: { message: `not scripted: ${req.method} ${path}`, type: 'invalid_request_error' },
				});
			}
			const body = JSON.parse(raw);
			const answer = decide(scripts, readConversation(path, body));
			requests.push({
				path,
				headers: req.headers,
				raw,
				body,
				script: answer.script,
				step: answer.step,
				answer,
			});
			if (path.endsWith('/responses')) return send(200, response(body, answer));
			if (!body.stream) return send(200, chatCompletion(body, answer));
			res.writeHead(200, {
				'content-type': 'text/event-stream',
				'cache-control': 'no-cache',
				connection: 'keep-alive',
			});
			for (const chunk of chatChunks(body, answer)) res.write(`data: ${JSON.stringify(chunk)}\n\n`);
			res.end('data: [DONE]\n\n');
		} catch (error) {
			send(500, { error: { message: String(error && error.message), type: 'server_error' } });
		}
	});
	await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
	const { port } = server.address();
	return {
		url: `http://127.0.0.1:${port}/v1`,
		requests,
		/** The requests of one script's conversation, in order. */
		conversation: (name) => requests.filter((r) => r.script === name),
		close: () => new Promise((resolve) => server.close(() => resolve())),
	};
}

module.exports = { startModelServer, readConversation, decide };
