import type { Episode, Sent } from './budget';

/**
 * The service's window (requests per how long) as the budget learns it after throttling, from the
 * requests accepted before and when it accepted again. Narrowed by single early requests, raised by
 * one per window after quiet stretches, lowered when the service throttles although the budget kept
 * to it. Timestamps only: no timer, no I/O.
 */

/** Saturated windows without throttling before one more request per window is tried (doubles on failure). */
const UP_EVERY = 8;
const UP_EVERY_MAX = 64;
/** Margin on a learned window (an upper bound already): clock and latency jitter. */
const WINDOW_MARGIN = 1.005;
const WINDOW_MARGIN_MS = 50;
/** Narrowing (one early request at a time, 2/3 of the way to the safe end) stops when the bounds are this close, or after two refusals. */
const BISECT_DONE_MS = 60;
const BISECT_DONE_SHARE = 0.02;
const BISECT_AT = 2 / 3;
const BISECT_REFUSALS = 2;

/** `count` per `windowMs` (an upper bound, narrowed from `learnedMs`; `lowMs` is known to be too short). */
export interface Model {
	count: number;
	windowMs: number;
	learnedMs: number;
	lowMs: number;
	taughtBy?: Episode;
	bisecting?: boolean;
	refusals: number;
	/** A tentative extra request per window, and the count before it. */
	tryingFrom?: number;
}

/**
 * The window from one reopening at `reopenAt`, given the start times of the requests the service
 * accepted before it (ascending): each start s_j is a candidate for the oldest request in the
 * service's window (j+1 newest per reopenAt - s_j); the densest is taken (a burst, not a quiet spell).
 */
export function learnWindow(
	accepted: number[],
	reopenAt: number,
): { count: number; windowMs: number } | undefined {
	let best: { count: number; windowMs: number; rate: number } | undefined;
	for (let k = accepted.length - 1, count = 1; k >= 0; k--, count++) {
		const windowMs = reopenAt - accepted[k];
		if (windowMs > 0 && (best === undefined || count / windowMs > best.rate))
			best = { count, windowMs, rate: count / windowMs };
	}
	return best && { count: best.count, windowMs: best.windowMs };
}

export class ServiceWindow {
	model?: Model;
	private saturatedAt = 0;
	private cleanWindows = 0;
	private upEvery = UP_EVERY;

	/** `accepted`: the budget's accepted requests by send time (it keeps them up to date in place). */
	constructor(private readonly accepted: Sent[]) {}

	throttled(): void {
		this.cleanWindows = 0;
	}

	/** Learns the window from a reopening (at most at `reopenAt`, after `reopenAfter`) and the requests accepted in the busy cycle before `before`. */
	learn(
		reopenAt: number,
		before: number,
		cycleStart: number | undefined,
		reopenAfter: number,
	): void {
		if (cycleStart === undefined) return;
		const accepted = this.accepted.filter((e) => e.s >= cycleStart && e.s < before);
		const learned = learnWindow(
			accepted.map((e) => e.s),
			reopenAt,
		);
		if (!learned) return;
		const oldest = accepted.find((e) => e.s === reopenAt - learned.windowMs) as Sent;
		const lowMs = Math.min(learned.windowMs, Math.max(0, reopenAfter - oldest.a));
		this.model = { ...learned, learnedMs: learned.windowMs, lowMs, refusals: 0 };
		this.upEvery = UP_EVERY;
	}

	/** (Re)learns from what the teaching episode's Retry-Afters say, until the window has been narrowed on its own. */
	teachFrom(episode: Episode): void {
		const model = this.model;
		if (
			!episode.reopen ||
			(model &&
				(model.taughtBy !== episode || model.windowMs !== model.learnedMs || model.bisecting))
		)
			return;
		this.learn(episode.reopen.at, episode.startedAt, episode.cycleStart, episode.reopen.after);
		if (this.model) this.model.taughtBy = episode;
	}

	/**
	 * Throttled although the budget kept to the window. After a tentative extra request: back to the
	 * count before, tried twice as late. Else another worker shares the application or the window was
	 * narrowed too far: the window as learned, no more narrowing, and as many as it accepted from us
	 * in the window that ends now (at least one fewer, never less than half).
	 */
	adjust(model: Model, now: number, retryAfterMs: number | undefined): void {
		if (model.tryingFrom !== undefined) {
			model.count = model.tryingFrom;
			model.tryingFrom = undefined;
			this.upEvery = Math.min(UP_EVERY_MAX, this.upEvery * 2);
			return;
		}
		const from = now + (retryAfterMs ?? 0) - model.windowMs;
		const ours = this.accepted.filter((e) => e.s >= from && e.s <= now).length;
		model.count =
			retryAfterMs === undefined
				? Math.max(1, Math.floor((model.count * 3) / 4))
				: Math.max(1, Math.ceil(model.count / 2), Math.min(model.count - 1, ours));
		model.windowMs = Math.max(model.windowMs, model.learnedMs);
		model.refusals = BISECT_REFUSALS;
	}

	/**
	 * The accepted requests that hold places in the window now, by send time: the learned window is an
	 * upper bound measured from sends to when the service accepted again (learn, bisected), so it
	 * already holds the time a request takes to arrive.
	 */
	private holders(model: Model, now: number): { held: Sent[]; windowMs: number } {
		const windowMs = model.windowMs * WINDOW_MARGIN + WINDOW_MARGIN_MS;
		return {
			held: this.accepted.filter((e) => e.s > now - windowMs).sort((x, y) => x.s - y.s),
			windowMs,
		};
	}

	/** When the window allows the next start (0: now; Infinity: when a request in flight comes back); requests in flight hold places too. */
	freeAt(now: number, inFlight: number): number {
		const model = this.model;
		if (!model) return 0;
		const { held, windowMs } = this.holders(model, now);
		const k = held.length + inFlight - model.count;
		if (k < 0) return 0;
		return k < held.length ? held[k].s + windowMs : Infinity;
	}

	private narrowed(model: Model): boolean {
		return (
			model.refusals >= BISECT_REFUSALS ||
			model.windowMs - model.lowMs <= Math.max(BISECT_DONE_MS, model.windowMs * BISECT_DONE_SHARE)
		);
	}

	/** When one request may start early to narrow the window, measured from the start that holds the place it takes. */
	bisectPoint(inFlight: number, inEpisode: boolean): { at: number; from: Sent } | undefined {
		const model = this.model;
		if (
			!model ||
			model.bisecting ||
			model.tryingFrom !== undefined ||
			inEpisode ||
			inFlight > 0 ||
			this.narrowed(model)
		)
			return undefined;
		const { held } = this.holders(model, Date.now());
		const from = held[held.length - model.count];
		return from && { at: from.a + model.lowMs + (model.windowMs - model.lowMs) * BISECT_AT, from };
	}

	/** An early request sent at `sentAt`: accepted, the window is at most `from`'s send to now; refused, more than `from`'s answer to `sentAt`. */
	bisected(
		sentAt: number,
		from: Sent,
		accepted: boolean,
		throttled: boolean,
		retryAfterMs: number | undefined,
		now: number,
	): void {
		const model = this.model as Model;
		model.bisecting = false;
		if (accepted) model.windowMs = Math.max(model.lowMs, Math.min(model.windowMs, now - from.s));
		if (!throttled) return;
		model.lowMs = Math.min(model.windowMs, Math.max(model.lowMs, sentAt - from.a));
		model.refusals++;
		const upper = retryAfterMs !== undefined ? now + retryAfterMs - from.s : Infinity;
		if (upper > model.lowMs) model.windowMs = Math.min(model.windowMs, upper);
	}

	/** The window held requests back: now and then try one more per window. */
	noteSaturated(now: number, inEpisode: boolean): void {
		const model = this.model;
		if (!model || inEpisode || model.bisecting || now - this.saturatedAt < model.windowMs) return;
		this.saturatedAt = now;
		if (model.tryingFrom !== undefined) {
			// the service took the extra request for a whole window: keep it
			model.tryingFrom = undefined;
			this.cleanWindows = 0;
		} else if (++this.cleanWindows >= this.upEvery && this.narrowed(model)) {
			model.tryingFrom = model.count;
			model.count += 1;
			this.cleanWindows = 0;
		}
	}
}
