import type { IDataObject, IHookFunctions, INode } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import { meaningOf } from '../helpers/errorMeaning';
import { commaList, fieldIgnoringCase as field } from '../helpers/values';
import { WorkOrderServiceClient, readAuthentication, readSettings } from '../transport/client';
import { OBJECTS, OBJECT_LABELS, OBJECT_RULES, isKnownEvent, objectOf } from './events';
import { knownSigningKey, warmSigningKey } from './signingKey';

/**
 * Self-registration through n8n's webhook lifecycle (`checkExists` → `create` on activation,
 * `delete` on deactivation; "Listen for test event" runs the same for the /webhook-test/ URL):
 * one webhook per trigger, Enabled, at the workflow's webhook URL, with one subscription per
 * object (work orders, their technicians, proposals, invoices, checklist responses, checklists,
 * locations, assets) holding the events chosen for it and the rules that apply to it. Only its Id and URL are kept in the node's static data.
 *
 * `checkExists` reads the account's webhooks once: the one whose Id is stored, else one left
 * behind at the same URL (adopted), is kept when its subscriptions are the ones wanted (and
 * enabled again with PUT if the service disabled it); every other webhook at this URL (surplus
 * duplicates, or one with other subscriptions) is deleted, and a mismatch is registered afresh by
 * `create`.
 */

const WEBHOOKS_PATH = '/NotificationWebHooks';
const MAX_WEBHOOKS = 20;
/** Time the signing key may take to be read at activation (non-fatal). */
const WARM_KEY_BUDGET_MS = 5000;

export interface Rules {
	Trades: string[];
	Categories: string[];
	Statuses: string[];
}

export interface WantedSubscription {
	Name: string;
	EventTypes: string[];
	Rules: Rules;
}

export interface WantedWebhook {
	Name: string;
	Description: string;
	Url: string;
	Enabled: true;
	Subscriptions: WantedSubscription[];
}

interface ServiceWebhook {
	Id: unknown;
	Url?: unknown;
	Enabled?: unknown;
	Subscriptions?: unknown;
	[key: string]: unknown;
}

interface StoredRegistration {
	webhookId?: string | number;
	webhookUrl?: string;
}

/** A comma-separated list, each entry once. */
function list(value: unknown): string[] {
	return [...new Set(commaList(value))];
}

/** The events and rules the node is set to, validated (nothing is sent when they are wrong). */
export function readEventsAndRules(ctx: IHookFunctions): {
	events: string[];
	rules: { trades: string[]; categories: string[]; statuses: string[] };
} {
	const node = ctx.getNode();
	const raw = ctx.getNodeParameter('events', []) as unknown;
	const events = [...new Set(Array.isArray(raw) ? raw.map(String) : list(raw))];
	if (events.length === 0) {
		throw new NodeOperationError(node, 'Choose at least one event (parameter "events")', {
			description:
				'The trigger registers a webhook for the events you choose. Nothing was sent to the service.',
		});
	}
	const unknown = events.filter((e) => !isKnownEvent(e));
	if (unknown.length) {
		throw new NodeOperationError(node, `Unknown event "${unknown[0]}" (parameter "events")`, {
			description: 'Choose the events from the list. Nothing was sent to the service.',
		});
	}
	const rules = (ctx.getNodeParameter('rules', {}) ?? {}) as IDataObject;
	return {
		events,
		rules: {
			trades: list(rules.trades),
			categories: list(rules.categories),
			statuses: list(rules.statuses),
		},
	};
}

/** The webhook this trigger wants registered at `url`. */
export function wantedWebhook(ctx: IHookFunctions, url: string): WantedWebhook {
	const { events, rules } = readEventsAndRules(ctx);
	const workflow = ctx.getWorkflow();
	const node = ctx.getNode();
	const subscriptions: WantedSubscription[] = [];
	for (const object of OBJECTS) {
		const types = events.filter((e) => objectOf(e) === object);
		if (!types.length) continue;
		// each rule goes only where the object's events carry its field (events.ts OBJECT_RULES):
		// statuses are work-order statuses (proposal and invoice events are one per status already),
		// technician events take no trade or category rule
		const applies = OBJECT_RULES[object];
		subscriptions.push({
			Name: `n8n: ${OBJECT_LABELS[object]}`,
			EventTypes: types,
			Rules: {
				Trades: applies.trades ? rules.trades : [],
				Categories: applies.categories ? rules.categories : [],
				Statuses: applies.statuses ? rules.statuses : [],
			},
		});
	}
	const name = `n8n: ${workflow.name ?? workflow.id ?? 'workflow'} / ${node.name}`;
	return {
		Name: name.length > 100 ? `${name.slice(0, 97)}...` : name,
		Description: `Registered by n8n (workflow ${String(workflow.id)}, node "${node.name}"); deleted when the workflow is deactivated.`,
		Url: url,
		Enabled: true,
		Subscriptions: subscriptions,
	};
}

function normalizeUrl(url: unknown): string {
	if (typeof url !== 'string') return '';
	try {
		return new URL(url.trim()).toString().replace(/\/+$/, '');
	} catch {
		return url.trim().replace(/\/+$/, '');
	}
}

function canonicalList(value: unknown): string {
	const values = Array.isArray(value)
		? value.map((v) => String(v).trim().toLowerCase()).filter((v) => v !== '')
		: [];
	return [...new Set(values)].sort().join('|');
}

/** A subscription as a comparable text: its event types and rules (names and ids do not matter). */
function subscriptionKey(subscription: unknown): string {
	const rules = field(subscription, 'Rules');
	return [
		canonicalList(field(subscription, 'EventTypes')),
		canonicalList(field(rules, 'Trades')),
		canonicalList(field(rules, 'Categories')),
		canonicalList(field(rules, 'Statuses')),
	].join('#');
}

/** True when a registered webhook has exactly the subscriptions wanted. */
export function sameSubscriptions(registered: unknown, wanted: WantedWebhook): boolean {
	const subscriptions = field(registered, 'Subscriptions');
	if (!Array.isArray(subscriptions)) return false;
	const have = subscriptions.map(subscriptionKey).sort();
	const want = wanted.Subscriptions.map(subscriptionKey).sort();
	return have.length === want.length && have.every((key, i) => key === want[i]);
}

/**
 * The client for lifecycle calls: bounded, because n8n gives an activation about 84 s in all. The
 * signing key, when this process holds it, is one of the secrets its errors never show.
 */
function lifecycleClient(ctx: IHookFunctions): WorkOrderServiceClient {
	const client = new WorkOrderServiceClient(
		ctx,
		readAuthentication(ctx),
		readSettings({ maxRetries: 2, maxWaitSeconds: 20, timeoutSeconds: 20 }),
	);
	client.secrets.add(knownSigningKey(ctx));
	return client;
}

function httpCodeOf(error: unknown): string | undefined {
	const code = (error as { httpCode?: unknown } | undefined)?.httpCode;
	return code === undefined || code === null ? undefined : String(code);
}

function messageOf(error: unknown): string {
	return error instanceof Error ? error.message : String(error);
}

/** The role a user needs to manage webhooks, by login. */
function requiredRole(ctx: IHookFunctions): string {
	return readAuthentication(ctx) === 'contractor'
		? 'the "Provider Automation Admin" access level (provider side)'
		: 'the "Super Admin" secondary role (subscriber side)';
}

/**
 * The error an activation fails with. n8n shows only the message in the workflow's publication
 * status, so the message says what is wrong and what to do; the service's own words follow.
 */
export function registrationError(ctx: IHookFunctions, error: unknown, step: string): Error {
	const node: INode = ctx.getNode();
	const code = httpCodeOf(error);
	const said = messageOf(error);
	if (code === '403') {
		return new NodeOperationError(
			node,
			`Could not ${step}: the Work Order Service allows webhooks only to administrators, and the credential's user lacks ${requiredRole(ctx)} (403 Forbidden). Use a credential of an administrator, or use the "Work Order Service Polling Trigger", which needs no administrator rights.`,
			{ description: `The service said: ${said}` },
		);
	}
	if (
		code === '400' &&
		/error code 4031\b|\b20\b.*webhook|webhook.*\b(limit|maximum|most)\b/i.test(said)
	) {
		return new NodeOperationError(
			node,
			`Could not ${step}: the service account already has the most webhooks it allows (${MAX_WEBHOOKS}). Delete webhooks that are no longer used, then activate again (each active workflow with this trigger holds one, and "Listen for test event" one more while it listens).`,
			{ description: `The service said: ${said}` },
		);
	}
	if (error instanceof NodeOperationError) return error;
	return new NodeOperationError(node, `Could not ${step}: ${said}`, {
		description: (error as { description?: string } | undefined)?.description ?? undefined,
	});
}

function staticRegistration(ctx: IHookFunctions): StoredRegistration & IDataObject {
	return ctx.getWorkflowStaticData('node') as StoredRegistration & IDataObject;
}

function remember(ctx: IHookFunctions, id: unknown, url: string): void {
	const data = staticRegistration(ctx);
	data.webhookId = typeof id === 'number' ? id : String(id);
	data.webhookUrl = url;
}

function forget(ctx: IHookFunctions): void {
	const data = staticRegistration(ctx);
	delete data.webhookId;
	delete data.webhookUrl;
}

function webhookUrl(ctx: IHookFunctions): string {
	const url = ctx.getNodeWebhookUrl('default');
	if (!url) throw new NodeOperationError(ctx.getNode(), 'n8n gave no webhook URL for this trigger');
	return url;
}

function idText(id: unknown): string {
	return typeof id === 'number' || typeof id === 'string' || typeof id === 'bigint'
		? String(id)
		: '';
}

async function listWebhooks(client: WorkOrderServiceClient): Promise<ServiceWebhook[]> {
	const body = await client.request({ method: 'GET', path: WEBHOOKS_PATH });
	const items = Array.isArray(body)
		? body
		: (field(body, 'value') ?? field(body, 'Items') ?? field(body, 'Webhooks'));
	return (Array.isArray(items) ? items : []).filter(
		(w): w is ServiceWebhook => w !== null && typeof w === 'object',
	);
}

/** Deletes a webhook; one that is already gone (400, error code 502) counts as deleted. */
async function deleteWebhook(client: WorkOrderServiceClient, id: unknown): Promise<void> {
	const failure = await client
		.request({ method: 'DELETE', path: `${WEBHOOKS_PATH}/${encodeURIComponent(idText(id))}` })
		.then(
			() => undefined,
			(error: unknown) => error,
		);
	if (failure === undefined || isGone(failure)) return;
	// the client's errors are NodeApiErrors with the service's message
	throw failure;
}

function isGone(error: unknown): boolean {
	const said = meaningOf(error);
	return (
		said?.status === 404 ||
		(said?.status === 400 &&
			(String(said.code) === '502' || /not (been )?found|unknown/i.test(said.words ?? '')))
	);
}

async function warmKey(ctx: IHookFunctions): Promise<void> {
	const outcome = await warmSigningKey(ctx, WARM_KEY_BUDGET_MS);
	if (outcome.kind === 'failed') {
		if (httpCodeOf(outcome.error) === '403')
			throw registrationError(ctx, outcome.error, 'read the signing key that verifies deliveries');
		ctx.logger.warn(
			'Work Order Service Trigger: the signing key could not be read at activation; it is read again with the first delivery',
			{
				node: ctx.getNode().name,
				reason: messageOf(outcome.error),
			},
		);
	}
}

export async function checkExists(this: IHookFunctions): Promise<boolean> {
	const url = webhookUrl(this);
	const wanted = wantedWebhook(this, url);
	const client = lifecycleClient(this);
	const stored = staticRegistration(this);
	try {
		const registered = await listWebhooks(client);
		const atUrl = registered.filter((w) => normalizeUrl(w.Url) === normalizeUrl(url));
		const storedId = stored.webhookId === undefined ? undefined : idText(stored.webhookId);
		const byId =
			storedId === undefined ? undefined : registered.find((w) => idText(w.Id) === storedId);
		// the stored one at another URL (n8n's address changed) is this trigger's and out of date
		if (byId && !atUrl.includes(byId)) await deleteWebhook(client, byId.Id);
		let keep: ServiceWebhook | undefined = byId && atUrl.includes(byId) ? byId : undefined;
		if (keep && !sameSubscriptions(keep, wanted)) keep = undefined;
		keep ??= atUrl.find((w) => sameSubscriptions(w, wanted));
		for (const w of atUrl) if (w !== keep) await deleteWebhook(client, w.Id);
		if (!keep) {
			forget(this);
			return false;
		}
		if (field(keep, 'Enabled') !== true) {
			// disabled by the service after failed deliveries: enable it again (PUT takes the whole webhook)
			await client.request({
				method: 'PUT',
				path: `${WEBHOOKS_PATH}/${encodeURIComponent(idText(keep.Id))}`,
				body: { ...keep, Enabled: true },
			});
		}
		remember(this, keep.Id, url);
	} catch (error) {
		throw registrationError(
			this,
			error,
			'check the webhook registered with the Work Order Service',
		);
	}
	await warmKey(this);
	return true;
}

export async function create(this: IHookFunctions): Promise<boolean> {
	const url = webhookUrl(this);
	const wanted = wantedWebhook(this, url);
	const client = lifecycleClient(this);
	let id: unknown;
	try {
		const body = await client.request({ method: 'POST', path: WEBHOOKS_PATH, body: wanted });
		id = field(body, 'Id');
	} catch (error) {
		throw registrationError(this, error, 'register the webhook with the Work Order Service');
	}
	if (idText(id) === '') {
		throw new NodeOperationError(
			this.getNode(),
			'Could not register the webhook: the Work Order Service did not answer with its Id',
			{
				description: `POST ${WEBHOOKS_PATH} answered without "Id". Activate again; the trigger then finds the webhook by its URL.`,
			},
		);
	}
	remember(this, id, url);
	await warmKey(this);
	return true;
}

export async function deleteRegistration(this: IHookFunctions): Promise<boolean> {
	const stored = staticRegistration(this);
	const client = lifecycleClient(this);
	let url: string | undefined;
	try {
		url = webhookUrl(this);
	} catch {
		url = stored.webhookUrl;
	}
	try {
		if (stored.webhookId !== undefined) await deleteWebhook(client, stored.webhookId);
		// and any other webhook left at this trigger's URL
		const targets = new Set(
			[url, stored.webhookUrl].filter((u): u is string => typeof u === 'string').map(normalizeUrl),
		);
		for (const w of await listWebhooks(client)) {
			if (targets.has(normalizeUrl(w.Url))) await deleteWebhook(client, w.Id);
		}
	} catch (error) {
		// Deactivation must not hang on the service: the registration stays remembered, and the
		// next activation's checkExists finds and removes what is left at this URL.
		this.logger.warn(
			`Work Order Service Trigger: the webhook could not be deleted from the service: ${messageOf(error)}`,
			{
				node: this.getNode().name,
				webhookId: stored.webhookId,
			},
		);
		return false;
	}
	forget(this);
	return true;
}

export { MAX_WEBHOOKS };
