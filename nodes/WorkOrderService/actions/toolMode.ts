import type { IDataObject, IExecuteFunctions, INode } from 'n8n-workflow';
import { NodeApiError, NodeOperationError } from 'n8n-workflow';

import type { OperationMeta, OperationModule } from './operation';
import { isToolCall } from '../helpers/toolCall';
import {
	meaningOf,
	withMeaning,
	type ErrorMeaning,
	type InvalidInput,
} from '../helpers/errorMeaning';

/**
 * The node called by an AI agent (n8n's `<name>Tool` variant of this `usableAsTool` node).
 *
 * A model sees only an error's message: n8n 2.x's AI Agent (v3) hands it `{ error: message }`,
 * the older agents and the MCP Server Trigger the message with "Details: <description>" added.
 * So when the node runs as a tool, every error's message says on its own what was wrong, with
 * which value, and what to change; and an operation that needs a file, which a tool call cannot
 * carry, answers so before anything is read or sent. In workflows nothing here applies.
 */

export { isToolCall };

type Execute = OperationModule['execute'];

/**
 * The operation as it runs: unchanged in workflows; in a tool call with self-contained answers.
 * Its `meta` says which file it sends (`file`) and whether a failed call may be repeated.
 */
export function forToolCalls(
	ctx: IExecuteFunctions,
	resource: string,
	operation: string,
	module: OperationModule,
): Execute {
	if (!isToolCall(ctx)) return module.execute;
	const label = operation.replace(/([A-Z])/g, ' $1').replace(/^./, (c) => c.toUpperCase());
	return async function (this, itemIndex, client) {
		try {
			refuseMissingFile(this, itemIndex, module, label);
			return await module.execute.call(this, itemIndex, client);
		} catch (error) {
			throw forModel(this, error, module.meta, itemIndex);
		}
	};
}

/* ---------------------------------------------------------------- files */

/**
 * A tool call's input item is the model's arguments: it never holds a file. An operation set to
 * send one answers that, and what to do instead, before anything is read or sent.
 */
function refuseMissingFile(
	ctx: IExecuteFunctions,
	itemIndex: number,
	module: OperationModule,
	label: string,
): void {
	const file = module.meta.file;
	const property = file && module.description.find((p) => p.name === file.parameter);
	if (!file || !property) return;
	const { required } = file;
	const value = ctx.getNodeParameter(property.name, itemIndex, property.default) as unknown;
	const name = typeof value === 'string' ? value.trim() : undefined;
	// No photo asked for (or a name that is not text, which the operation's own check refuses).
	if (!required && !name) return;
	if (name && ctx.getInputData()[itemIndex]?.binary?.[name]) return;

	const node = ctx.getNode();
	const field = name ? `binary field "${name}"` : 'binary field';
	let message: string;
	let change: string;
	if (required) {
		message = `${label} needs a file, but a tool call cannot carry one (this call has no ${field}), so nothing was sent.`;
		change =
			'Do not call it again from the agent: tell the user that the file must be attached by a workflow in which an earlier node provides it (a download, an e-mail attachment or a form upload), or, if text is enough, add it as a work order note instead.';
	} else {
		// the one operation with an optional file is the checklist answer with its photo
		message = `This checklist answer is set to include a photo from the ${field}, but a tool call cannot carry a file, so nothing was sent.`;
		const keys = fromAiKeys(rawParameter(node, property.name));
		change = keys.length
			? `Call the tool again with ${quoted(keys)} empty to submit the answer without a photo, unless the question requires one; an answer that needs a photo must be given by a workflow that has the file: tell the user.`
			: `To answer without a photo, the user must clear "${property.displayName}" in this tool; an answer that needs a photo must be given by a workflow that has the file. Tell the user.`;
	}
	const error = new NodeOperationError(node, `${message} ${change}`, {
		itemIndex,
		description: change,
	});
	throw withMeaning(error, { kind: 'validation', outcome: 'notSent', agentHint: change });
}

/* ---------------------------------------------------------------- errors */

const MAYBE_RECORDED =
	'The service may or may not have recorded it. Do not call again before checking that it is not there (for example by reading the work order or its notes), or it may be recorded twice.';

/**
 * The error as a model gets it: a NodeOperationError whose message stands on its own and whose
 * description is its last sentence. A NodeOperationError, because n8n-core's tool invocation
 * wraps any other error in a new one, which swaps a message naming a network code (ECONNRESET,
 * ...) for generic text; a NodeOperationError it hands on unchanged.
 */
function forModel(
	ctx: IExecuteFunctions,
	error: unknown,
	meta: OperationMeta,
	itemIndex: number,
): unknown {
	if (!(error instanceof Error)) return error;
	const node = ctx.getNode();
	const meaning = meaningOf(error);
	const { message, change } = meaning?.input
		? inputAnswer(node, meaning.input)
		: serviceAnswer(error, meaning, meta);
	const text = change && !message.includes(change) ? `${message} ${change}` : message;
	const answer =
		error instanceof NodeOperationError ? error : new NodeOperationError(node, text, { itemIndex });
	// Set after construction: the constructor would replace a message that names a network code.
	answer.message = text;
	answer.description = change || undefined;
	const httpCode = (error as NodeApiError).httpCode;
	if (error instanceof NodeApiError && httpCode) Object.assign(answer, { httpCode });
	// a new error (from a NodeApiError): what it means goes with it
	if (meaning && answer !== error) withMeaning(answer, meaning);
	return answer;
}

/** Bad input, refused before any request: the parameter, the value, and who can change it. */
function inputAnswer(node: INode, input: InvalidInput): { message: string; change: string } {
	const { field, problem, shown, rule } = input;
	const what = rule
		? `${field.label} must be ${rule}, got ${shown}`
		: /^(must|is|has)\b/.test(problem)
			? `${field.label} ${problem}, got ${shown}`
			: `${field.label}: ${problem}, got ${shown}`;
	const keys = fromAiKeys(rawParameter(node, field.name));
	const change = keys.length
		? `Call the tool again with ${quoted(keys)} ${rule ? `set to ${rule}` : 'corrected'}.`
		: `"${field.label}" is set in this tool's parameters, not by your arguments, so calling again will not help: tell the user to correct it.`;
	return { message: `${what}; nothing was sent.`, change };
}

const WORDS = {
	refused:
		'The service refused the values sent, so nothing changed. Correct the value its reason names and call again.',
	denied:
		'The service refused this account for this operation (a missing permission), so nothing changed. Calling again will not help: tell the user.',
	refusedAgain:
		"The service refused it, so nothing changed. The same call will be refused again: tell the user the service's reason.",
	notFound:
		'Nothing changed. Check the IDs you passed: the record does not exist or this account cannot see it (a record created in the last 30 seconds or so may not be readable yet).',
	throttled:
		'The service is throttling requests, so it was not done. Wait a minute before calling again.',
	failed: 'The service failed, so it was not done. Try again later.',
	login:
		"Nothing was sent: the tool's credential could not log in. Calling again will not help: tell the user to fix the credential.",
	noAnswer: 'Nothing changed as far as is known. Try again later.',
};

/**
 * A refusal or failure of the service (messages already redacted by the transport): what to do,
 * from what the error means (helpers/errorMeaning.ts); the operation that made it may have said
 * it itself (`agentHint`, e.g. a proposal move the service refused: whether calling again helps).
 */
function serviceAnswer(
	error: Error,
	meaning: ErrorMeaning | undefined,
	meta: OperationMeta,
): { message: string; change: string } {
	const message = error.message.replace(/[.\s]*$/, '.');
	const description =
		typeof (error as NodeApiError).description === 'string'
			? ((error as NodeApiError).description as string)
			: '';
	const posts = !meta.safeToRepeat;
	const change = (text: string) => ({ message, change: text });
	if (meaning?.agentHint !== undefined) return change(meaning.agentHint);
	switch (meaning?.kind) {
		case 'refused': {
			const photo =
				meta.file?.required === false
					? ' If the question requires a photo, a tool call cannot send one: tell the user.'
					: '';
			return change(`${WORDS.refused}${photo}`);
		}
		case 'denied':
			return change(WORDS.denied);
		case 'forbidden':
		case 'conflict':
			return change(WORDS.refusedAgain);
		case 'notFound':
			return change(WORDS.notFound);
		case 'throttled':
			return change(WORDS.throttled);
		case 'serverError':
			return change(posts ? MAYBE_RECORDED : WORDS.failed);
		case 'login':
			return change(WORDS.login);
		case 'noAnswer':
			return change(posts ? MAYBE_RECORDED : WORDS.noAnswer);
		default:
			return change(
				meaning?.status !== undefined ? `It was not done. ${description}`.trim() : description,
			);
	}
}

/* ---------------------------------------------------------------- $fromAI */

/** The parameter as saved in the node (expressions unresolved); `a.b` reaches into a collection. */
function rawParameter(node: INode, path: string): unknown {
	let value: unknown = node.parameters;
	for (const key of path.split('.')) {
		value = value !== null && typeof value === 'object' ? (value as IDataObject)[key] : undefined;
	}
	return value;
}

const FROM_AI = /\$from(?:AI|Ai|ai)\s*\(\s*['"`]([A-Za-z0-9_-]{1,64})['"`]/g;

/** The `$fromAI()` keys a parameter's value is made of: the arguments the model passes for it. */
export function fromAiKeys(raw: unknown): string[] {
	const keys = new Set<string>();
	const visit = (value: unknown, depth: number) => {
		if (typeof value === 'string') for (const match of value.matchAll(FROM_AI)) keys.add(match[1]);
		else if (value !== null && typeof value === 'object' && depth < 5)
			for (const v of Object.values(value)) visit(v, depth + 1);
	};
	visit(raw, 0);
	return [...keys];
}

function quoted(keys: string[]): string {
	return keys.map((k) => `"${k}"`).join(' and ');
}
