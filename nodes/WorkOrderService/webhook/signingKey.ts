import type { IHookFunctions, IWebhookFunctions } from 'n8n-workflow';
import { NodeOperationError, sleep } from 'n8n-workflow';

import { fieldIgnoringCase } from '../helpers/values';
import { pause } from '../transport/budget';
import {
	CREDENTIAL_TYPES,
	WorkOrderServiceClient,
	readAuthentication,
	readSettings,
} from '../transport/client';

/**
 * The account's signing key, kept in process memory only: never in static data (plain JSON in
 * n8n's database, returned by its REST API), items, errors or logs. One entry per credential (the
 * key belongs to the credential's account); after a restart, or in another n8n process, it is
 * read again from the service (`GET /NotificationSubscriptions/SigningKey`).
 *
 * - Reads are single-flight: 20 deliveries arriving together on a cold process make one read.
 * - A read is bounded by the time the caller has left (a delivery must be answered within 5 s);
 *   a read that takes longer goes on in the background and fills the cache for the re-send.
 * - After a signature mismatch the key may have been rotated (`PUT .../SigningKey`: the old key
 *   stops at once). Only a read that started after the delivery arrived can hold the new key: the
 *   delivery uses one if there is one (in flight or done), else it has the key read again, unless
 *   one was started less than MIN_READ_INTERVAL_MS ago; then the next read starts when that
 *   interval is over, and every delivery that arrived meanwhile waits for that one read. So the
 *   first delivery after a rotation verifies, also right after a refused delivery, and a stream of
 *   forged deliveries makes at most one read per MIN_READ_INTERVAL_MS per credential.
 */

/** The shortest time between two key reads for one credential (a few seconds: within a delivery's 3 s budget). */
export const MIN_READ_INTERVAL_MS = 2_000;
/** After a failed read, no new read starts for this long (deliveries are answered 503 meanwhile). */
export const FAILED_READ_PAUSE_MS = 10_000;
/** Where the service gives the account's signing key. */
const SIGNING_ENDPOINT = '/NotificationSubscriptions/SigningKey';

/** A key and when the read that gave it started. */
interface ReadKey {
	key: string;
	readAt: number;
}

interface Read {
	startedAt: number;
	promise: Promise<ReadKey>;
}

interface Entry {
	key?: string;
	/** When the read that gave `key` started. */
	keyReadAt?: number;
	/** The read in flight. */
	pending?: Read;
	/** The next read, waiting for MIN_READ_INTERVAL_MS since the last one started. */
	queued?: Promise<ReadKey>;
	lastStartedAt?: number;
	failedAt?: number;
	failure?: unknown;
}

export type KeyOutcome =
	| { kind: 'key'; key: string; readAt: number }
	| { kind: 'late' }
	| { kind: 'failed'; error: unknown };

type KeyContext = IHookFunctions | IWebhookFunctions;

const entries = new Map<string, Entry>();

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
	return new WorkOrderServiceClient(
		ctx,
		readAuthentication(ctx),
		readSettings({ maxRetries: 0, maxWaitSeconds: 0, timeoutSeconds: 20 }),
	);
}

/** Reads the key from the service. The client redacts it from any error it raises. */
async function fetchKey(ctx: KeyContext): Promise<string> {
	const client = keyClient(ctx);
	const body = await client.request({ method: 'GET', path: SIGNING_ENDPOINT });
	const key = fieldIgnoringCase(body, 'Key');
	if (typeof key !== 'string' || key === '') {
		throw new NodeOperationError(
			ctx.getNode(),
			'The Work Order Service answered the signing-key request without a key',
			{
				description: `GET ${SIGNING_ENDPOINT} returned no "Key". Check that the credential's user may read the account's signing key.`,
			},
		);
	}
	client.secrets.add(key);
	return key;
}

function entryOf(identity: string): Entry {
	let entry = entries.get(identity);
	if (!entry) {
		entry = {};
		entries.set(identity, entry);
	}
	return entry;
}

/** Starts a read now (the caller checked that none is in flight). */
function begin(ctx: KeyContext, entry: Entry): Read {
	const startedAt = Date.now();
	entry.lastStartedAt = startedAt;
	const promise = fetchKey(ctx).then(
		(key): ReadKey => {
			if (entry.keyReadAt === undefined || startedAt >= entry.keyReadAt) {
				entry.key = key;
				entry.keyReadAt = startedAt;
			}
			entry.failedAt = undefined;
			entry.failure = undefined;
			if (entry.pending?.promise === promise) entry.pending = undefined;
			return { key, readAt: startedAt };
		},
		(error: unknown) => {
			entry.failedAt = Date.now();
			entry.failure = error;
			if (entry.pending?.promise === promise) entry.pending = undefined;
			throw error;
		},
	);
	// nobody may be waiting any more (the caller's budget ran out): no unhandled rejection
	promise.catch(() => undefined);
	entry.pending = { startedAt, promise };
	return entry.pending;
}

/** A read that starts after now: the one queued, or a new one once the read in flight is done and the interval is over. */
function queueRead(ctx: KeyContext, entry: Entry): Promise<ReadKey> {
	if (entry.queued) return entry.queued;
	const queued = (async () => {
		await entry.pending?.promise.catch(() => undefined);
		const wait = (entry.lastStartedAt ?? -Infinity) + MIN_READ_INTERVAL_MS - Date.now();
		if (wait > 0) await sleep(wait);
		entry.queued = undefined;
		return await begin(ctx, entry).promise;
	})();
	queued.catch(() => undefined);
	entry.queued = queued;
	return queued;
}

/** Waits for a read at most `budgetMs`; the wait's timer ends when the read does. */
async function within(read: Promise<ReadKey>, budgetMs: number): Promise<KeyOutcome> {
	if (budgetMs <= 0) return { kind: 'late' };
	const abort = new AbortController();
	const late = async (): Promise<KeyOutcome> => {
		await pause(budgetMs, abort.signal);
		return { kind: 'late' };
	};
	const outcome = read.then(
		({ key, readAt }): KeyOutcome => ({ kind: 'key', key, readAt }),
		(error: unknown): KeyOutcome => ({ kind: 'failed', error }),
	);
	try {
		return await Promise.race([outcome, late()]);
	} finally {
		abort.abort();
	}
}

/** A failed read shortly before: no new read yet. */
function recentFailure(entry: Entry, now: number): KeyOutcome | undefined {
	if (entry.pending || entry.failedAt === undefined || now - entry.failedAt >= FAILED_READ_PAUSE_MS)
		return undefined;
	return { kind: 'failed', error: entry.failure };
}

/** The cached key, or a read of it (single-flight) within `budgetMs`; no new read shortly after a failed one. */
export async function signingKey(
	ctx: KeyContext,
	identity: string,
	budgetMs: number,
	now = Date.now(),
): Promise<KeyOutcome> {
	const entry = entryOf(identity);
	if (entry.key !== undefined) return { kind: 'key', key: entry.key, readAt: entry.keyReadAt ?? 0 };
	const failed = recentFailure(entry, now);
	if (failed) return failed;
	return await within(
		entry.pending?.promise ?? entry.queued ?? begin(ctx, entry).promise,
		budgetMs,
	);
}

/**
 * After a mismatch with a key read before the delivery arrived (`arrivedAt`): a key read that
 * started after it, as explained at the top (in flight or done: joined; else queued, at most one
 * read per MIN_READ_INTERVAL_MS), within `budgetMs`.
 */
export async function rereadSigningKey(
	ctx: KeyContext,
	identity: string,
	arrivedAt: number,
	budgetMs: number,
	now = Date.now(),
): Promise<KeyOutcome> {
	const entry = entryOf(identity);
	if (entry.key !== undefined && (entry.keyReadAt ?? -Infinity) >= arrivedAt)
		return { kind: 'key', key: entry.key, readAt: entry.keyReadAt as number };
	if (entry.pending && entry.pending.startedAt >= arrivedAt)
		return await within(entry.pending.promise, budgetMs);
	const failed = recentFailure(entry, now);
	if (failed) return failed;
	return await within(queueRead(ctx, entry), budgetMs);
}

/**
 * The key at activation, so that the first delivery needs no read (none when this process has it
 * already: a delivery may have read it first).
 */
export async function warmSigningKey(ctx: KeyContext, budgetMs: number): Promise<KeyOutcome> {
	const entry = entryOf(credentialIdentity(ctx));
	if (entry.key !== undefined) return { kind: 'key', key: entry.key, readAt: entry.keyReadAt ?? 0 };
	return await within(entry.pending?.promise ?? begin(ctx, entry).promise, budgetMs);
}

/** The key this process holds for the node's credential, if any (to redact it from other clients' errors). */
export function knownSigningKey(ctx: KeyContext): string | undefined {
	return entries.get(credentialIdentity(ctx))?.key;
}

/** Forgets every key (what a restart does; tests). */
export function forgetSigningKeys(): void {
	entries.clear();
}
