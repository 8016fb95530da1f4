import { sleep } from 'n8n-workflow';

/**
 * One limiter for the whole execution: every request of every item passes through it.
 * - At most `limit` requests in flight. `limit` starts at the node's Concurrency and adapts the
 *   way TCP does (additive increase, multiplicative decrease): each throttling event halves it,
 *   each `limit` successful answers raise it by one, never above Concurrency. A batch so
 *   converges to the rate the service really allows instead of hammering it.
 * - A shared pause: when the service tells one request to wait (429, or 503 with Retry-After),
 *   no request of the execution is sent before that time.
 * - Optional pacing (Requests Per Minute): request starts are spaced evenly.
 */
export class Limiter {
	readonly max: number;

	/** Current window of concurrent requests (fractional while it grows). */
	limit: number;

	inFlight = 0;

	/** No request starts before this time (ms). */
	pausedUntil = 0;

	/** Times the window was cut (for figures). */
	decreases = 0;

	private readonly intervalMs: number;

	private nextSlot = 0;

	/** Time of the last cut: throttled answers to requests sent before it belong to the same event. */
	private lastDecreaseAt = 0;

	private waiters: Array<() => void> = [];

	constructor(concurrency: number, requestsPerMinute: number) {
		this.max = Math.max(1, Math.floor(concurrency));
		this.limit = this.max;
		this.intervalMs = requestsPerMinute > 0 ? 60_000 / requestsPerMinute : 0;
	}

	/** Waits for a free place, the end of any shared pause and the next pacing slot; returns the start time. */
	async acquire(): Promise<number> {
		for (;;) {
			const now = Date.now();
			if (now < this.pausedUntil) {
				await sleep(this.pausedUntil - now);
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
		return Date.now();
	}

	/**
	 * Gives the place back. `throttledFor` (ms, >= 0) when the service throttled the request:
	 * starts or extends the shared pause and, once per throttling event, halves the window.
	 */
	release(outcome: { sentAt: number; success: boolean; throttledFor?: number }): void {
		this.inFlight = Math.max(0, this.inFlight - 1);
		if (outcome.throttledFor !== undefined) {
			this.pausedUntil = Math.max(this.pausedUntil, Date.now() + outcome.throttledFor);
			if (outcome.sentAt >= this.lastDecreaseAt) {
				this.limit = Math.max(1, this.limit / 2);
				this.lastDecreaseAt = Date.now();
				this.decreases++;
			}
		} else if (outcome.success && this.limit < this.max) {
			this.limit = Math.min(this.max, this.limit + 1 / Math.floor(this.limit));
		}
		this.wake();
	}

	private wake(): void {
		const free = Math.max(0, Math.floor(this.limit) - this.inFlight);
		const woken = this.waiters.splice(0, Math.max(free, 0));
		for (const resolve of woken) resolve();
	}
}
