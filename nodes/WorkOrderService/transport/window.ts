/**
 * The service's window as the budget learns it (limiter.ts): how many requests the service takes
 * per how long, from the requests it accepted before it throttled and when it accepted again.
 * Narrowed by single early requests, raised by one per window after quiet stretches, lowered when
 * the service throttles although the budget kept to it. Pure bookkeeping on timestamps: no timer,
 * no I/O; the budget asks `freeAt` when the next start may go.
 */

/** Accepted request starts kept to learn from (at most, and at most this old). */
const HISTORY_MAX = 2000;
const HISTORY_MS = 10 * 60_000;
/** Saturated windows without throttling before one more request per window is tried (doubles on failure). */
const UP_EVERY = 8;
const UP_EVERY_MAX = 64;
/** Safety margin on a learned window: client clocks see sends, the service sees arrivals. */
const WINDOW_MARGIN = 1.02;
const WINDOW_MARGIN_MS = 25;
/** The learned window is narrowed (one early request per window) until its bounds are this close. */
const BISECT_DONE_MS = 60;
const BISECT_DONE_SHARE = 0.02;
/** Where between the bounds the early request goes (nearer the safe end: a refusal costs a throttled answer). */
const BISECT_AT = 2 / 3;
const BISECT_REFUSALS = 2;

/**
 * The service's window from one reopening: `reopenAt` is when it accepts again; `accepted` the
 * start times of requests it accepted before (ascending). Every accepted start s_j is a candidate
 * for the oldest request in the service's window: (j+1 newest requests per reopenAt - s_j). The
 * densest candidate is taken: a burst that filled the window, not a quiet spell before it.
 */
export function learnWindow(accepted: number[], reopenAt: number): { count: number; windowMs: number } | undefined {
	let best: { count: number; windowMs: number; rate: number } | undefined;
	for (let k = accepted.length - 1, count = 1; k >= 0; k--, count++) {
		const windowMs = reopenAt - accepted[k];
		if (windowMs <= 0) continue;
		const rate = count / windowMs;
		if (best === undefined || rate > best.rate) best = { count, windowMs, rate };
	}
	return best && { count: best.count, windowMs: best.windowMs };
}

/** An accepted request: when it was sent and when its answer came (the service saw it in between). */
export interface Sent {
	s: number;
	a: number;
}

/** What the window is learned from: a throttling episode's start, its busy cycle and the reopening its Retry-Afters tell. */
export interface Teacher {
	startedAt: number;
	cycleStart?: number;
	teach?: { reopenAt: number; reopenAfter: number };
}

export interface Model {
	count: number;
	/** The window: long enough (an upper bound), narrowed from `learnedMs` by early requests. */
	windowMs: number;
	learnedMs: number;
	/** Known to be too short (a lower bound): early single requests narrow the gap. */
	lowMs: number;
	/** The request the window was learned from (the oldest in the service's window), and the episode that taught it. */
	oldest: Sent;
	taughtBy?: Teacher;
	bisecting?: boolean;
	/** Early requests the service refused (each one a throttled answer): at most BISECT_REFUSALS. */
	refusals: number;
	/** A tentative extra request per window, and the count before it. */
	tryingFrom?: number;
}

export class ServiceWindow {
	model?: Model;
	/** Accepted requests, by send time. */
	private accepted: Sent[] = [];
	private saturatedWindowAt = 0;
	private cleanWindows = 0;
	private upEvery = UP_EVERY;

	/** Forgets everything (the budget fell idle: the service may have changed meanwhile). */
	reset(): void {
		this.model = undefined;
		this.accepted = [];
		this.cleanWindows = 0;
		this.upEvery = UP_EVERY;
	}

	/** A throttling episode began: the quiet windows start over. */
	throttled(): void {
		this.cleanWindows = 0;
	}

	/**
	 * The answer to an early request, measured from the request `from` that held the window (the
	 * service saw each between its send and its answer): accepted, the window is at most from
	 * its send to this answer; refused, it is more than from its answer to this send.
	 */
	bisected(ticket: { sentAt: number; bisectFrom?: Sent }, verdict: { kind: string; retryAfterMs?: number }, now: number): boolean {
		const model = this.model;
		const from = ticket.bisectFrom as Sent;
		if (!model) return false;
		model.bisecting = false;
		if (verdict.kind === 'accepted') {
			this.pushAccepted({ s: ticket.sentAt, a: now });
			model.windowMs = Math.max(model.lowMs, Math.min(model.windowMs, now - from.s));
			return true;
		}
		if (verdict.kind !== 'throttled') return true;
		model.lowMs = Math.min(model.windowMs, Math.max(model.lowMs, ticket.sentAt - from.a));
		model.refusals++;
		if (verdict.retryAfterMs !== undefined) {
			const upper = now + verdict.retryAfterMs - from.s;
			if (upper > model.lowMs) model.windowMs = Math.min(model.windowMs, upper);
		}
		return true;
	}

	/**
	 * Another answer of the episode that teaches the window: its Retry-After, rounded at another
	 * moment, may bound the reopening more closely (the same oldest request sets it): at most
	 * Retry-After after this answer, and more than Retry-After less its grain after this request
	 * was sent.
	 */
	tighten(episode: Teacher, sentAt: number, now: number, retryAfterMs: number, grainMs: number): void {
		if (!episode.teach) return;
		episode.teach.reopenAt = Math.min(episode.teach.reopenAt, now + retryAfterMs);
		episode.teach.reopenAfter = Math.max(episode.teach.reopenAfter, sentAt + retryAfterMs - grainMs);
		this.teachFrom(episode);
	}

	/**
	 * (Re)learns the window from what the teaching episode knows; answers to requests sent before
	 * it keep coming in for a moment, and each is a request the service accepted in that window.
	 * Only until the budget has narrowed the window on its own.
	 */
	teachFrom(episode: Teacher): void {
		const model = this.model;
		if (!episode.teach || (model && (model.taughtBy !== episode || model.windowMs !== model.learnedMs || model.bisecting))) return;
		this.learn(episode.teach.reopenAt, episode.startedAt, episode.cycleStart, episode.teach.reopenAfter);
		if (this.model) this.model.taughtBy = episode;
	}

	/**
	 * The service throttled although the budget kept to what it learned. After a tentative extra
	 * request per window: back to the count before, tried again twice as late. Otherwise the
	 * service takes fewer (another worker shares the application, or its limit fell), or the window
	 * was narrowed too far (an early request was accepted because a place was free): back to the
	 * window as learned, no more narrowing, and as many as it accepted from us in the window that
	 * ends now, at least one fewer than before but never less than half.
	 */
	adjust(model: Model, now: number, retryAfterMs: number | undefined): void {
		if (model.tryingFrom !== undefined) {
			model.count = model.tryingFrom;
			model.tryingFrom = undefined;
			this.upEvery = Math.min(UP_EVERY_MAX, this.upEvery * 2);
			return;
		}
		if (retryAfterMs === undefined) {
			model.count = Math.max(1, Math.floor((model.count * 3) / 4));
			model.windowMs = Math.max(model.windowMs, model.learnedMs);
			model.refusals = BISECT_REFUSALS;
			return;
		}
		const from = now + retryAfterMs - model.windowMs;
		const ours = this.accepted.filter((e) => e.s >= from && e.s <= now).length;
		model.count = Math.max(1, Math.ceil(model.count / 2), Math.min(model.count - 1, ours));
		model.windowMs = Math.max(model.windowMs, model.learnedMs);
		model.refusals = BISECT_REFUSALS;
	}

	/**
	 * Learns the window from the service's reopening (at most at `reopenAt`, and after
	 * `reopenAfter`) and the requests it accepted in this busy cycle (sent before `before`).
	 */
	learn(reopenAt: number, before: number, cycleStart: number | undefined, reopenAfter: number): void {
		if (cycleStart === undefined) return;
		const accepted = this.accepted.filter((e) => e.s >= cycleStart && e.s < before && e.s >= before - HISTORY_MS);
		const learned = learnWindow(
			accepted.map((e) => e.s),
			reopenAt,
		);
		if (!learned) return;
		const oldest = accepted.find((e) => e.s === reopenAt - learned.windowMs) as Sent;
		const lowMs = Math.min(learned.windowMs, Math.max(0, reopenAfter - oldest.a));
		this.model = { ...learned, learnedMs: learned.windowMs, lowMs, oldest, refusals: 0 };
		this.upEvery = UP_EVERY;
	}

	pushAccepted(entry: Sent): void {
		const list = this.accepted;
		let k = list.length;
		while (k > 0 && list[k - 1].s > entry.s) k--;
		list.splice(k, 0, entry);
		let drop = Math.max(0, list.length - HISTORY_MAX);
		while (drop < list.length && list[drop].a < entry.a - HISTORY_MS) drop++;
		if (drop) list.splice(0, drop);
	}

	/**
	 * The accepted requests that hold places in the learned window now, oldest first, by answer
	 * time (the service saw each no later than that), and the window as the gate uses it.
	 */
	private holders(now: number): { held: Sent[]; windowMs: number } | undefined {
		const model = this.model;
		if (!model) return undefined;
		const windowMs = model.windowMs * WINDOW_MARGIN + WINDOW_MARGIN_MS;
		const held = this.accepted.filter((e) => e.a > now - windowMs).sort((x, y) => x.a - y.a);
		return { held, windowMs };
	}

	/**
	 * When the learned window allows the next start (0: now; Infinity: when a request in flight
	 * comes back). Requests in flight hold places too: the service may accept them.
	 */
	freeAt(now: number, inFlight: number): number {
		const h = this.holders(now);
		const model = this.model;
		if (!h || !model) return 0;
		const taken = h.held.length + inFlight;
		if (taken < model.count) return 0;
		const k = taken - model.count;
		return k < h.held.length ? h.held[k].a + h.windowMs : Number.POSITIVE_INFINITY;
	}

	/**
	 * When one request may start early to narrow the learned window: halfway between what is known
	 * to be too short and what is known to be enough, measured from the start that holds the window.
	 */
	bisectPoint(inFlight: number, inEpisode: boolean): { at: number; from: Sent } | undefined {
		const model = this.model;
		if (!model || model.bisecting || model.tryingFrom !== undefined || inEpisode || model.refusals >= BISECT_REFUSALS) return undefined;
		if (model.windowMs - model.lowMs <= Math.max(BISECT_DONE_MS, model.windowMs * BISECT_DONE_SHARE)) return undefined;
		const h = this.holders(Date.now());
		if (!h || inFlight > 0) return undefined;
		const k = h.held.length - model.count;
		if (k < 0) return undefined;
		const from = h.held[k];
		return { at: from.a + model.lowMs + (model.windowMs - model.lowMs) * BISECT_AT, from };
	}

	/** The learned window held requests back: count it, and try one more per window now and then. */
	noteSaturated(now: number, inEpisode: boolean): void {
		const model = this.model;
		if (!model || inEpisode || model.bisecting || now - this.saturatedWindowAt < model.windowMs) return;
		this.saturatedWindowAt = now;
		if (model.tryingFrom !== undefined) {
			// the service took the extra request for a whole window: keep it
			model.tryingFrom = undefined;
			this.cleanWindows = 0;
			return;
		}
		const narrowed =
			model.refusals >= BISECT_REFUSALS || model.windowMs - model.lowMs <= Math.max(BISECT_DONE_MS, model.windowMs * BISECT_DONE_SHARE);
		if (++this.cleanWindows >= this.upEvery && narrowed) {
			model.tryingFrom = model.count;
			model.count += 1;
			this.cleanWindows = 0;
		}
	}
}
