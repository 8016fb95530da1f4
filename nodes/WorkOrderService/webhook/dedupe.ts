import { createHash } from 'crypto';

/**
 * "Each event once": the service sends no event id and re-sends the same body after a failure
 * (3 more times, 5 minutes apart), so an identical raw body seen again within the horizon is a
 * re-send. Remembered in process memory (static data changed in `webhook()` is not saved when the
 * request starts an execution), as a SHA-256 of the body per trigger, bounded in count and time.
 * What this covers across processes is in docs/webhook-trigger.md (queue mode).
 */

/** 3 re-sends 5 minutes apart, plus margin for a slow service. */
export const DEDUPE_HORIZON_MS = 20 * 60_000;
/** Bodies remembered per trigger; the oldest are forgotten first. */
export const DEDUPE_CAPACITY = 10_000;
/** Triggers (workflow + node + test or production URL) remembered in this process. */
const MAX_SCOPES = 1_000;

class RecentBodies {
	private readonly seen = new Map<string, number>();

	constructor(
		private readonly horizonMs: number,
		private readonly capacity: number,
	) {}

	/** True when the digest was seen within the horizon; otherwise remembers it and returns false. */
	checkAndRemember(digest: string, now: number): boolean {
		this.expire(now);
		const at = this.seen.get(digest);
		if (at !== undefined && now - at < this.horizonMs) return true;
		this.seen.delete(digest);
		this.seen.set(digest, now);
		while (this.seen.size > this.capacity) {
			const oldest = this.seen.keys().next().value;
			if (oldest === undefined) break;
			this.seen.delete(oldest);
		}
		return false;
	}

	forget(digest: string): void {
		this.seen.delete(digest);
	}

	get size(): number {
		return this.seen.size;
	}

	private expire(now: number): void {
		// insertion order = time order: drop from the front while too old
		for (const [digest, at] of this.seen) {
			if (now - at < this.horizonMs) break;
			this.seen.delete(digest);
		}
	}
}

const scopes = new Map<string, RecentBodies>();

function scopeOf(scope: string): RecentBodies {
	let recent = scopes.get(scope);
	if (!recent) {
		recent = new RecentBodies(DEDUPE_HORIZON_MS, DEDUPE_CAPACITY);
		scopes.set(scope, recent);
		while (scopes.size > MAX_SCOPES) {
			const oldest = scopes.keys().next().value;
			if (oldest === undefined) break;
			scopes.delete(oldest);
		}
	} else {
		// most recently used last
		scopes.delete(scope);
		scopes.set(scope, recent);
	}
	return recent;
}

export function bodyDigest(body: Buffer): string {
	return createHash('sha256').update(body).digest('base64');
}

/** True when this body was delivered to this trigger within the horizon (a re-send); remembers it otherwise. */
export function isRepeat(scope: string, body: Buffer, now = Date.now()): boolean {
	return scopeOf(scope).checkAndRemember(bodyDigest(body), now);
}

/** Forgets a body (its delivery could not be handed to n8n, so a re-send must start the workflow). */
export function forgetBody(scope: string, body: Buffer): void {
	scopes.get(scope)?.forget(bodyDigest(body));
}

/** Forgets every body (what a restart does; tests). */
export function forgetAllBodies(): void {
	scopes.clear();
}

/** Bodies remembered for a trigger (tests, diagnostics). */
export function rememberedCount(scope: string): number {
	return scopes.get(scope)?.size ?? 0;
}

export { RecentBodies };
