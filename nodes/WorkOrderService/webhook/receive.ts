import type {
	IDataObject,
	INodeExecutionData,
	IWebhookFunctions,
	IWebhookResponseData,
} from 'n8n-workflow';

import { attachmentOut, noteOut } from '../helpers/noteIds';
import { isRecord } from '../helpers/values';
import { parseJsonLossless } from '../transport/losslessJson';
import { isRepeat } from './dedupe';
import { canonicalEvent } from './events';
import { verifySignature, signatureBytes } from './signature';
import { credentialIdentity, rereadSigningKey, signingKey, type KeyOutcome } from './signingKey';

/**
 * One delivery (`webhook()`): verified, de-duplicated, turned into items. The service wants a
 * 2xx within 5 seconds and treats anything else as a failure to re-send later; n8n answers only
 * after `webhook()` returns (with responseMode onReceived it does not wait for the workflow), so
 * everything here is bounded well below that:
 *
 * - no or malformed `Sign-Data`, or a signature that matches neither reading of the key (also
 *   after the key was read again): 401, written here, and no execution (`noWebhookResponse`);
 * - the key cannot be read in time (cold process, slow service): 503, so that the service re-sends;
 * - an identical body delivered again within 20 minutes, or events not chosen: 200, no execution;
 * - otherwise one item per event: `EventType`, `Action`, `Object` as sent (parsed from the raw
 *   body without losing int64 digits; note IDs as decimal strings, as the action node emits them),
 *   and the envelope's other fields (`Type`, `Version`).
 */

/** Time a delivery may spend obtaining the key (login and read included). */
export const KEY_BUDGET_MS = 3000;

export type RawRequest = { rawBody?: unknown; headers?: Record<string, unknown> };
type RawResponse = {
	headersSent?: boolean;
	writeHead: (status: number, headers?: Record<string, string>) => unknown;
	end: (body?: string) => unknown;
};

function answer(
	ctx: IWebhookFunctions,
	status: number,
	message: string,
	headers: Record<string, string> = {},
): IWebhookResponseData {
	const res = ctx.getResponseObject() as unknown as RawResponse;
	if (!res.headersSent) {
		res.writeHead(status, { 'content-type': 'application/json; charset=utf-8', ...headers });
		res.end(JSON.stringify({ message }));
	}
	return { noWebhookResponse: true };
}

function rawBodyOf(req: RawRequest): Buffer | undefined {
	const raw = req.rawBody;
	if (Buffer.isBuffer(raw)) return raw;
	if (typeof raw === 'string') return Buffer.from(raw, 'utf8');
	return undefined;
}

function define(target: IDataObject, key: string, value: unknown): void {
	Object.defineProperty(target, key, {
		value,
		enumerable: true,
		writable: true,
		configurable: true,
	});
}

/** The event's object with note IDs as decimal strings (notes and attachments it carries). */
function objectOut(object: unknown): unknown {
	if (!isRecord(object)) return object ?? null;
	const out: IDataObject = {};
	for (const [key, value] of Object.entries(object)) {
		let mapped: unknown = value;
		if (key === 'Notes' && Array.isArray(value))
			mapped = value.map((n) => (isRecord(n) ? noteOut(n) : n));
		else if (key === 'Attachments' && Array.isArray(value))
			mapped = value.map((a) => (isRecord(a) ? attachmentOut(a) : a));
		define(out, key, mapped);
	}
	return out;
}

/** One item: EventType, Action, Object first, then the envelope's other fields as sent. */
export function eventItem(event: IDataObject): INodeExecutionData {
	const json: IDataObject = {};
	define(json, 'EventType', event.EventType ?? null);
	define(json, 'Action', event.Action ?? null);
	define(json, 'Object', objectOut(event.Object));
	for (const [key, value] of Object.entries(event)) {
		if (key === 'EventType' || key === 'Action' || key === 'Object') continue;
		define(json, key, value);
	}
	return { json };
}

/** The events of a body: one object, or (tolerated) an array of them. */
export function parseEvents(raw: Buffer): IDataObject[] | undefined {
	let text = raw.toString('utf8');
	if (text.charCodeAt(0) === 0xfeff) text = text.slice(1);
	let parsed: unknown;
	try {
		parsed = parseJsonLossless(text);
	} catch {
		return undefined;
	}
	const list = Array.isArray(parsed) ? parsed : [parsed];
	if (!list.every(isRecord)) return undefined;
	return list as IDataObject[];
}

/** The service's test event (POST /test/webhooks/notifications). */
function isTestEvent(event: IDataObject): boolean {
	return isRecord(event.Object) && event.Object.Source === 'WebhookTest';
}

/** What a refusal answers and logs (pure: a table over the key read's outcome). */
export interface Refusal {
	status: number;
	message: string;
	headers?: Record<string, string>;
	/** The warning logged (never the key or the body). */
	log: string;
}

/**
 * The answer to a delivery whose signature did not verify: 503 when the key could not be read (the
 * service sends the event again), else 401.
 */
export function refusalFor(outcome: KeyOutcome): Refusal {
	if (outcome.kind === 'late' || outcome.kind === 'failed') {
		const reason =
			outcome.kind === 'late'
				? `not read within ${KEY_BUDGET_MS / 1000} s`
				: `could not be read (${(outcome.error as Error)?.message ?? 'error'})`;
		return {
			status: 503,
			message: 'The signing key could not be read in time; send again later',
			headers: { 'retry-after': '60' },
			log: `Work Order Service Trigger: the signing key ${reason}; answered 503 so that the service sends the event again`,
		};
	}
	return {
		status: 401,
		message: 'Delivery refused: the signature does not match',
		log: "Work Order Service Trigger: refused a delivery whose signature matches neither reading of the account's signing key (401)",
	};
}

/** The body and its signature, or the refusal of a delivery that cannot be verified at all (no body, no valid Sign-Data). */
export function signedBody(
	req: RawRequest,
): { raw: Buffer; signature: Buffer } | { refusal: Refusal } {
	const raw = rawBodyOf(req);
	if (!raw || raw.length === 0) {
		return {
			refusal: {
				status: 401,
				message: 'Delivery refused: no body to verify',
				log: 'Work Order Service Trigger: refused a delivery without a body (401)',
			},
		};
	}
	const signature = signatureBytes(req.headers?.['sign-data']);
	if (!signature) {
		return {
			refusal: {
				status: 401,
				message: 'Delivery refused: missing or malformed Sign-Data signature',
				log: 'Work Order Service Trigger: refused a delivery without a valid Sign-Data header (401)',
			},
		};
	}
	return { raw, signature };
}

/**
 * The items of the events chosen (and, listening in the editor, the service's test event). An
 * event type some of the service's lists spell differently (`WorOrderAttachmentAdded`) counts as
 * the one offered; its item keeps the EventType as sent.
 */
export function chosenItems(
	events: IDataObject[],
	chosen: Set<string>,
	manual: boolean,
): INodeExecutionData[] {
	return events
		.filter(
			(e) =>
				(typeof e.EventType === 'string' && chosen.has(canonicalEvent(e.EventType))) ||
				(manual && isTestEvent(e)),
		)
		.map(eventItem);
}

/** Where this delivery came in: the trigger (workflow, node, test or production URL) and the log context. */
function deliveryScope(ctx: IWebhookFunctions): {
	scope: string;
	manual: boolean;
	log: IDataObject;
} {
	const node = ctx.getNode();
	const workflow = ctx.getWorkflow();
	const manual = ctx.getMode() === 'manual';
	const scope = `${String(workflow.id)}|${node.id ?? node.name}|${manual ? 'test' : 'production'}`;
	return { scope, manual, log: { node: node.name, workflowId: workflow.id } };
}

/**
 * Verifies the signature with the key (read within the time left); on a mismatch with a key read
 * before the delivery arrived, the key may have been rotated since: a key read that started after
 * the delivery arrived is used (single flight, at most one read per few seconds: signingKey.ts).
 * Returns the key read's outcome when the signature does not verify.
 */
async function verifyDelivery(
	ctx: IWebhookFunctions,
	raw: Buffer,
	signature: Buffer,
	started: number,
): Promise<KeyOutcome | undefined> {
	const identity = credentialIdentity(ctx);
	const remaining = () => KEY_BUDGET_MS - (Date.now() - started);
	let outcome: KeyOutcome = await signingKey(ctx, identity, remaining());
	if (outcome.kind === 'key' && verifySignature(raw, signature, outcome.key)) return undefined;
	if (outcome.kind === 'key' && outcome.readAt < started) {
		outcome = await rereadSigningKey(ctx, identity, started, remaining());
		if (outcome.kind === 'key' && verifySignature(raw, signature, outcome.key)) return undefined;
	}
	return outcome;
}

function refuse(ctx: IWebhookFunctions, refusal: Refusal, log: IDataObject): IWebhookResponseData {
	ctx.logger.warn(refusal.log, log);
	return answer(ctx, refusal.status, refusal.message, refusal.headers);
}

export async function receiveEvent(this: IWebhookFunctions): Promise<IWebhookResponseData> {
	const started = Date.now();
	const { scope, manual, log } = deliveryScope(this);
	const signed = signedBody(this.getRequestObject() as unknown as RawRequest);
	if ('refusal' in signed) return refuse(this, signed.refusal, log);
	const { raw, signature } = signed;
	const failed = await verifyDelivery(this, raw, signature, started);
	if (failed) return refuse(this, refusalFor(failed), log);

	const events = parseEvents(raw);
	if (!events) {
		this.logger.warn(
			'Work Order Service Trigger: a signed delivery is not a JSON event; answered 400',
			log,
		);
		return answer(this, 400, 'The body is not a JSON event');
	}
	if (isRepeat(scope, raw)) {
		this.logger.debug(
			'Work Order Service Trigger: the same delivery arrived again (a re-send); no second execution',
			log,
		);
		return {};
	}
	const items = chosenItems(
		events,
		new Set((this.getNodeParameter('events', []) as string[]) ?? []),
		manual,
	);
	if (!items.length) {
		this.logger.debug(
			'Work Order Service Trigger: event type not chosen; answered 200 without an execution',
			{
				...log,
				eventTypes: events.map((e) => String(e.EventType)),
			},
		);
		return {};
	}
	return { workflowData: [items] };
}
