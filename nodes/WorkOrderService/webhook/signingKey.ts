import type { IHookFunctions, IWebhookFunctions } from 'n8n-workflow';
import { NodeOperationError, sleep } from 'n8n-workflow';

import { fieldIgnoringCase } from '../helpers/values';
import { CREDENTIAL_TYPES, WorkOrderServiceClient, readAuthentication, readSettings } from '../transport';

/**
 * The account's signing key, kept in process memory only: never in static data (plain JSON in
 * n8n's database, returned by its REST API), items, errors or logs. One entry per credential (the
 * key belongs to the credential's account); after a restart, or in another n8n process, it is
 * read again from the service (`GET /NotificationSubscriptions/SigningKey`).
 *
 * - Reads are single-flight: 20 deliveries arriving together on a cold process make one read.
 * - A read is bounded by the time the caller has left (a delivery must be answered within 5 s);
 *   a read that takes longer goes on in the background and fills the cache for the re-send.
 * - After a signature mismatch the key is read again once (it may have been rotated), at most
 *   once per REREAD_INTERVAL_MS per trigger, so a stream of forged deliveries cannot make the
 *   node call the service more often than that.
 */

export const REREAD_INTERVAL_MS = 30_000;
/** After a failed read, no new read starts for this long (deliveries are answered 503 meanwhile). */
export const FAILED_READ_PAUSE_MS = 10_000;
/** Where the service gives the account's signing key. */
const SIGNING_ENDPOINT = '/NotificationSubscriptions/SigningKey';

interface Entry {
	key?: string;
	readAt?: number;
	pending?: Promise<string>;
	failedAt?: number;
	failure?: unknown;
}

export type KeyOutcome =
	| { kind: 'key'; key: string; fresh: boolean }
	| { kind: 'late' }
	| { kind: 'failed'; error: unknown }
	| { kind: 'throttled' };

type KeyContext = IHookFunctions | IWebhookFunctions;

const entries = new Map<string, Entry>();
const lastReread = new Map<string, number>();

/** The credential the node uses (its type and id): whose account's key this is. */
export function credentialIdentity(ctx: KeyContext): string {
	const type = CREDENTIAL_TYPES[readAuthentication(ctx)];
	const details = ctx.getNode().credentials?.[type];
	return `${type}:${String(details?.id ?? details?.name ?? '')}`;
}

/**
 * A client for the key read: no retries. The caller waits for it at most its own budget; the read
 * itself may take longer (a slow service) and then fills the cache for the re-sent delivery.
 */
function keyClient(ctx: KeyContext): WorkOrderServiceClient {
	return new WorkOrderServiceClient(ctx, readAuthentication(ctx), readSettings({ maxRetries: 0, maxWaitSeconds: 0, timeoutSeconds: 20 }));
}

/** Reads the key from the service. The client redacts it from any error it raises. */
async function fetchKey(ctx: KeyContext): Promise<string> {
	const client = keyClient(ctx);
	const body = await client.request({ method: 'GET', path: SIGNING_ENDPOINT });
	const key = fieldIgnoringCase(body, 'Key');
	if (typeof key !== 'string' || key === '') {
		throw new NodeOperationError(ctx.getNode(), 'The Work Order Service answered the signing-key request without a key', {
			description: `GET ${SIGNING_ENDPOINT} returned no "Key". Check that the credential's user may read the account's signing key.`,
		});
	}
	client.secrets.add(key);
	return key;
}

/** Starts (or joins) a read for the identity. */
function startRead(ctx: KeyContext, identity: string): Promise<string> {
	let entry = entries.get(identity);
	if (!entry) {
		entry = {};
		entries.set(identity, entry);
	}
	if (entry.pending) return entry.pending;
	const target = entry;
	const pending = fetchKey(ctx).then(
		(key) => {
			target.key = key;
			target.readAt = Date.now();
			target.failedAt = undefined;
			target.failure = undefined;
			if (target.pending === pending) target.pending = undefined;
			return key;
		},
		(error: unknown) => {
			target.failedAt = Date.now();
			target.failure = error;
			if (target.pending === pending) target.pending = undefined;
			throw error;
		},
	);
	// nobody may be waiting any more (the caller's budget ran out): no unhandled rejection
	pending.catch(() => undefined);
	target.pending = pending;
	return pending;
}

/** Waits for a read at most `budgetMs`. */
async function within(read: Promise<string>, budgetMs: number): Promise<KeyOutcome> {
	if (budgetMs <= 0) return { kind: 'late' };
	const abort = new AbortController();
	const timer = sleep(budgetMs, abort.signal).then(
		() => ({ kind: 'late' }) as KeyOutcome,
		() => ({ kind: 'late' }) as KeyOutcome,
	);
	try {
		return await Promise.race([
			read.then(
				(key): KeyOutcome => ({ kind: 'key', key, fresh: true }),
				(error: unknown): KeyOutcome => ({ kind: 'failed', error }),
			),
			timer,
		]);
	} finally {
		abort.abort();
	}
}

/** The cached key, or a read of it (single-flight) within `budgetMs`; no new read shortly after a failed one. */
export async function signingKey(ctx: KeyContext, identity: string, budgetMs: number, now = Date.now()): Promise<KeyOutcome> {
	const entry = entries.get(identity);
	if (entry?.key !== undefined) return { kind: 'key', key: entry.key, fresh: false };
	if (!entry?.pending && entry?.failedAt !== undefined && now - entry.failedAt < FAILED_READ_PAUSE_MS) {
		return { kind: 'failed', error: entry.failure };
	}
	return await within(startRead(ctx, identity), budgetMs);
}

/**
 * After a mismatch: the key read again, unless this trigger had one re-read within
 * REREAD_INTERVAL_MS ('throttled'). A read already in flight is joined.
 */
export async function rereadSigningKey(ctx: KeyContext, identity: string, scope: string, budgetMs: number, now = Date.now()): Promise<KeyOutcome> {
	const entry = entries.get(identity);
	if (!entry?.pending) {
		const last = lastReread.get(scope);
		if (last !== undefined && now - last < REREAD_INTERVAL_MS) return { kind: 'throttled' };
		lastReread.set(scope, now);
		if (lastReread.size > 10_000) lastReread.delete(lastReread.keys().next().value as string);
	}
	return await within(startRead(ctx, identity), budgetMs);
}

/**
 * The key at activation, so that the first delivery needs no read (none when this process has it
 * already: a delivery may have read it first).
 */
export async function warmSigningKey(ctx: KeyContext, budgetMs: number): Promise<KeyOutcome> {
	const entry = entries.get(credentialIdentity(ctx));
	if (entry?.key !== undefined) return { kind: 'key', key: entry.key, fresh: false };
	return await within(startRead(ctx, credentialIdentity(ctx)), budgetMs);
}

/** The key this process holds for the node's credential, if any (to redact it from other clients' errors). */
export function knownSigningKey(ctx: KeyContext): string | undefined {
	return entries.get(credentialIdentity(ctx))?.key;
}

/** Forgets every key (what a restart does; tests). */
export function forgetSigningKeys(): void {
	entries.clear();
	lastReread.clear();
}
