import { sleep } from 'n8n-workflow';

/**
 * One limiter for the whole execution: every request of every item passes through it.
 * - At most `limit` requests in flight. `limit` starts at the node's Concurrency and adapts the
 *   way TCP does (additive increase, multiplicative decrease): each throttling event halves it,
 *   each `limit` successful answers raise it by one, never above Concurrency.
 * - A shared pause: when the service tells one request to wait (429, or 503 with Retry-After),
 *   no request of the execution is started before that time.
 * - The service's window, learned: when a throttling answer says when the service accepts again,
 *   the limiter knows how many requests succeeded since the window began and how long the window
 *   is; from then on it never starts more than that many requests within such a window. A batch
 *   so runs at the rate the service really allows, in bursts at the window's edges, instead of
 *   meeting a 429 at the end of every window.
 * - Optional pacing (Requests Per Minute): request starts are spaced evenly.
 */
export class Limiter {
	readonly max: number;

	/** Current number of requests allowed in flight (fractional while it grows). */
	limit: number;

	inFlight = 0;

	/** No request starts before this time (ms). */
	pausedUntil = 0;

	/** Throttling events seen (each cut the window once). */
	decreases = 0;

	/** The service's limit as learned from a throttling answer: `count` starts per `windowMs`. */
	learned?: { count: number; windowMs: number };

	private readonly intervalMs: number;

	private nextSlot = 0;

	/** Time of the last throttling event: throttled answers to requests sent before it belong to it. */
	private lastDecreaseAt = 0;

	/** Start of the current window of the service (first successful start since the last event). */
	private cycleStart?: number;

	private cycleSuccesses = 0;

	/** Start times of the most recent requests (at most `learned.count` of them). */
	private starts: number[] = [];

	private waiters: Array<() => void> = [];

	constructor(concurrency: number, requestsPerMinute: number) {
		this.max = Math.max(1, Math.floor(concurrency));
		this.limit = this.max;
		this.intervalMs = requestsPerMinute > 0 ? 60_000 / requestsPerMinute : 0;
	}

	/** When the learned window allows the next start (0: now). */
	private windowFreeAt(): number {
		if (!this.learned || this.starts.length < this.learned.count) return 0;
		return this.starts[this.starts.length - this.learned.count] + this.learned.windowMs;
	}

	/** Waits for a free place, the end of any shared pause, the learned window and the next pacing slot; returns the start time. */
	async acquire(): Promise<number> {
		for (;;) {
			const now = Date.now();
			const until = Math.max(this.pausedUntil, this.windowFreeAt());
			if (now < until) {
				await sleep(until - now);
				continue;
			}
			if (this.inFlight >= Math.floor(this.limit)) {
				await new Promise<void>((resolve) => this.waiters.push(resolve));
				continue;
			}
			break;
		}
		this.inFlight++;
		if (this.intervalMs > 0) {
			const now = Date.now();
			const slot = Math.max(now, this.nextSlot);
			this.nextSlot = slot + this.intervalMs;
			if (slot > now) await sleep(slot - now);
		}
		const startedAt = Date.now();
		if (this.learned) {
			this.starts.push(startedAt);
			if (this.starts.length > this.learned.count) this.starts.splice(0, this.starts.length - this.learned.count);
		}
		return startedAt;
	}

	/**
	 * Gives the place back. `throttledFor` (ms, >= 0) when the service throttled the request:
	 * starts or extends the shared pause and, once per throttling event, halves the window and
	 * (when the service said how long to wait) learns the service's window.
	 */
	release(outcome: { sentAt: number; success: boolean; throttledFor?: number; retryAfterKnown?: boolean }): void {
		this.inFlight = Math.max(0, this.inFlight - 1);
		const now = Date.now();
		if (outcome.throttledFor !== undefined) {
			this.pausedUntil = Math.max(this.pausedUntil, now + outcome.throttledFor);
			if (outcome.sentAt >= this.lastDecreaseAt) {
				this.limit = Math.max(1, this.limit / 2);
				this.lastDecreaseAt = now;
				this.decreases++;
				if (outcome.retryAfterKnown && this.cycleStart !== undefined && this.cycleSuccesses > 0) {
					// The service took `cycleSuccesses` requests since `cycleStart` and takes more at `now + throttledFor`.
					const windowMs = now + outcome.throttledFor - this.cycleStart;
					this.learned = { count: this.cycleSuccesses, windowMs };
					this.starts = [];
				}
				this.cycleStart = undefined;
				this.cycleSuccesses = 0;
			}
		} else if (outcome.success) {
			if (outcome.sentAt >= this.lastDecreaseAt) {
				this.cycleStart ??= outcome.sentAt;
				this.cycleSuccesses++;
			}
			if (this.limit < this.max) this.limit = Math.min(this.max, this.limit + 1 / Math.floor(this.limit));
		}
		this.wake();
	}

	private wake(): void {
		const free = Math.max(0, Math.floor(this.limit) - this.inFlight);
		const woken = this.waiters.splice(0, free);
		for (const resolve of woken) resolve();
	}
}
