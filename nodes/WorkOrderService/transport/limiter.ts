import * as workflow from 'n8n-workflow';

/**
 * One request budget per application (API Base URL + client id) in each n8n process. Every
 * execution (and trigger poll, and dropdown) that uses the same application joins it as a
 * `Lane`; the service counts requests per application, so the node does too.
 *
 * - **Fair queue.** Waiting requests are served round-robin across lanes (a late execution gets
 *   its turn at once, never after the others finish); within a lane, resends go first. A lane
 *   never has more than its Concurrency in flight.
 * - **In flight (AIMD).** The application's in-flight limit starts at the first lane's
 *   Concurrency, halves once per throttling episode and grows by one per window of successes, up
 *   to the sum of the Concurrency of the lanes at work.
 * - **Pacing.** Requests Per Minute spaces request starts evenly; lanes at work share the
 *   strictest setting.
 * - **The service's window, learned.** When the service throttles while requests queue up, the
 *   budget reads how many requests it accepted before and when it accepts again (`Retry-After`,
 *   or, without one, the first probe it accepts) and from then on starts no more than that many
 *   per window. After `UP_EVERY` full windows without throttling it tries one more per window
 *   (and waits twice as long before the next try when the service refused it). What it learned
 *   is forgotten when the budget falls idle: an execution that starts when nothing of the
 *   application is in flight or waiting starts afresh.
 * - **Throttling episodes.** From the first throttled answer until the service accepts a request
 *   sent after it. While the budget does not know when the service accepts again, it pauses every
 *   request and probes with one request at a time, waiting longer after each refused probe
 *   (0.5-1 s, 1-2 s, 2-4 s... with jitter; once the service is known to take requests in windows,
 *   at most a quarter of the time since that window began). That pause counts against each
 *   waiting request's Max Wait. A throttled answer counts against a request's Max Retries only
 *   when it was the only request throttled in its episode (see `Episode.owners`).
 */

/** What happened to a request, as far as the budget is concerned. */
export type Verdict =
	| { kind: 'accepted' }
	/** `grainMs`: the resolution of the Retry-After (1000 for whole seconds or an HTTP date). */
	| { kind: 'throttled'; retryAfterMs?: number; grainMs?: number }
	| { kind: 'noAnswer' };

/** A place in the budget: when the request started and whether it is the episode's probe. */
export interface Ticket {
	sentAt: number;
	probe: boolean;
	episode?: Episode;
	/** Sent early to narrow the learned window: the accepted request it measures from. */
	bisectFrom?: Sent;
}

/** The per-request record the budget charges waits and throttled answers to. */
export interface RequestAccount {
	/** Time waited for the service so far (ms): pauses and this request's own backoff sleeps. */
	waitedMs: number;
	/** The episodes in which this request was throttled. */
	episodes: Set<Episode>;
}

export interface Episode {
	startedAt: number;
	/** Throttled answers per request in this episode. */
	owners: Map<RequestAccount, number>;
	/** The pause counts against waiting requests (the service's reopening was not known). */
	charged: boolean;
	/** Refused probes so far. */
	probesFailed: number;
	/** Other requests were in flight or waiting when it began: the answer says something about the service's window. */
	saturated: boolean;
	/** No Retry-After: the end is found by probing. */
	probing: boolean;
	/** First accepted start of the busy cycle that ran into this episode. */
	cycleStart?: number;
	/** Send time of the last refused probe: the service's reopening came after it. */
	lastRefusedProbeAt?: number;
	/** The reopening its Retry-Afters tell (at most at, after): what the window is learned from. */
	teach?: { reopenAt: number; reopenAfter: number };
	endedAt?: number;
}

/** The request waited (or would wait) longer than its Max Wait for the service to accept again. */
export class MaxWaitExceeded extends Error {
	constructor(
		readonly waitedMs: number,
		readonly nextWaitMs: number,
	) {
		super('Max Wait exceeded');
	}
}

/** Idle time after which what the budget learned is forgotten. */
export const FORGET_AFTER_IDLE_MS = 5 * 60_000;
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

/** 0.5-1 s, 1-2 s, 2-4 s, ... at most 15-30 s: growing delays with jitter. */
export function backoffMs(attempt: number, random = Math.random): number {
	const base = Math.min(30_000, 1000 * 2 ** attempt);
	return Math.round(base / 2 + random() * (base / 2));
}

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
interface Sent {
	s: number;
	a: number;
}

interface Waiter {
	lane: Lane;
	account: RequestAccount;
	resend: boolean;
	allowanceMs: number;
	pauseClockAtEnqueue: number;
	/** Set once: the start, or why it never came. */
	ticket?: Ticket;
	error?: Error;
	/** Wakes the waiting call (set while it waits without a timer). */
	nudge?: () => void;
}

/**
 * n8n's sleep, ended early by `signal` (n8n 2.x: `sleep(ms, signal)`; n8n 1.x: `sleepWithAbort`):
 * an aborted wait clears its timer, so no timer outlives the waiting call that set it.
 */
async function pause(ms: number, signal: AbortSignal): Promise<void> {
	const withAbort = (workflow as unknown as { sleepWithAbort?: typeof workflow.sleep }).sleepWithAbort ?? workflow.sleep;
	await withAbort(Math.max(0, ms), signal).catch(() => undefined);
}

interface Model {
	count: number;
	/** The window: long enough (an upper bound), narrowed from `learnedMs` by early requests. */
	windowMs: number;
	learnedMs: number;
	/** Known to be too short (a lower bound): early single requests narrow the gap. */
	lowMs: number;
	/** The request the window was learned from (the oldest in the service's window), and the episode that taught it. */
	oldest: Sent;
	taughtBy?: Episode;
	bisecting?: boolean;
	/** Early requests the service refused (each one a throttled answer): at most BISECT_REFUSALS. */
	refusals: number;
	/** A tentative extra request per window, and the count before it. */
	tryingFrom?: number;
}

export class Budget {
	/** In-flight limit (fractional while it grows). */
	limit: number;

	inFlight = 0;

	model?: Model;

	episode?: Episode;

	/** Throttling episodes seen. */
	episodes = 0;

	private lastEpisode?: Episode;

	private pausedUntil = 0;

	private gateUntil = 0;

	private probeInFlight = false;

	private probeFirst = false;

	/** Charged pause time of the episodes that ended (ms). */
	private pauseClosedMs = 0;

	private pauseSince?: number;

	/** First accepted start since the budget woke up or the last episode ended (requests sent before `cycleFloor` do not count). */
	private cycleStart?: number;

	private cycleFloor = 0;

	/** Accepted requests, by send time. */
	private accepted: Sent[] = [];

	private nextSlot = 0;

	private lanes: Lane[] = [];

	private turn = 0;

	/** When `dispatch` next has something to start (undefined: on an answer). */
	private wakeAtMs?: number;

	/** The one waiting call that sleeps until `wakeAtMs`, and how to end its sleep early. */
	private alarm?: { waiter: Waiter; at: number; controller: AbortController };

	private lastBusyAt = Date.now();

	private saturatedWindowAt = 0;

	private cleanWindows = 0;

	private upEvery = UP_EVERY;

	constructor(concurrency: number) {
		this.limit = Math.max(1, Math.floor(concurrency));
	}

	/** A lane for one execution (or poll, or dropdown). */
	lane(concurrency: number, requestsPerMinute: number): Lane {
		return new Lane(this, Math.max(1, Math.floor(concurrency)), requestsPerMinute > 0 ? 60_000 / requestsPerMinute : 0);
	}

	get idle(): boolean {
		return this.inFlight === 0 && this.lanes.every((l) => l.waiting === 0);
	}

	idleForMs(now = Date.now()): number {
		return this.idle ? now - this.lastBusyAt : 0;
	}

	/** Charged pause time so far (ms). */
	pauseClock(now = Date.now()): number {
		return this.pauseClosedMs + (this.pauseSince !== undefined ? now - this.pauseSince : 0);
	}

	enqueue(waiter: Waiter, firstOfLane: boolean): void {
		// A new execution on an idle budget: the service may have changed meanwhile.
		if (firstOfLane && this.idle) this.wakeUp(waiter.lane.concurrency);
		if (!this.lanes.includes(waiter.lane)) this.lanes.push(waiter.lane);
		waiter.lane.push(waiter);
		if (this.withinAllowance(waiter, Date.now())) this.dispatch();
	}

	/** Called when a request's answer (or failure) is in. */
	release(ticket: Ticket, verdict: Verdict, account: RequestAccount, lane: Lane): void {
		const now = Date.now();
		this.inFlight = Math.max(0, this.inFlight - 1);
		lane.inFlight = Math.max(0, lane.inFlight - 1);
		if (ticket.probe) this.probeInFlight = false;
		if (ticket.bisectFrom !== undefined && this.bisected(ticket, verdict, now)) {
			// an early request the budget sent to measure the window: no episode
		} else if (verdict.kind === 'accepted') this.onAccepted(ticket, now);
		else if (verdict.kind === 'throttled') this.onThrottled(ticket, verdict, account, now);
		else if (ticket.probe && this.episode) this.extendWait(this.episode, now + backoffMs(this.episode.probesFailed));
		this.lastBusyAt = now;
		this.dispatch();
	}

	/** How long a request throttled just now waits before it may be sent again, and whether that is a charged pause. */
	waitAfterThrottle(now = Date.now()): { ms: number; charged: boolean } {
		if (this.episode?.charged) return { ms: Math.max(0, this.pausedUntil - now), charged: true };
		return { ms: Math.max(0, this.gateUntil - now), charged: false };
	}

	/**
	 * A new execution on an idle budget starts it afresh: nothing is in flight or waiting, so
	 * what it learned (and any pause) belonged to executions that are over; the next throttled
	 * answer teaches it again.
	 */
	private wakeUp(concurrency: number): void {
		if (this.pauseSince !== undefined) this.pauseClosedMs += Date.now() - this.pauseSince;
		this.pauseSince = undefined;
		this.limit = concurrency;
		this.model = undefined;
		this.episode = undefined;
		this.lastEpisode = undefined;
		this.episodes = 0;
		this.pausedUntil = 0;
		this.gateUntil = 0;
		this.probeFirst = false;
		this.probeInFlight = false;
		this.cycleStart = undefined;
		this.cycleFloor = 0;
		this.accepted = [];
		this.cleanWindows = 0;
		this.upEvery = UP_EVERY;
	}

	private onAccepted(ticket: Ticket, now: number): void {
		this.pushAccepted({ s: ticket.sentAt, a: now });
		const teacher = this.model?.taughtBy;
		if (teacher && ticket.sentAt < teacher.startedAt && ticket.sentAt >= this.cycleFloor) {
			teacher.cycleStart = Math.min(teacher.cycleStart ?? ticket.sentAt, ticket.sentAt);
			this.teachFrom(teacher);
		}
		const episode = this.episode;
		if (episode && ticket.sentAt >= episode.startedAt) this.endEpisode(episode, ticket, now);
		// the cycle starts at its earliest accepted request (answers come back in any order)
		if (this.cycleStart === undefined || (ticket.sentAt < this.cycleStart && ticket.sentAt >= this.cycleFloor)) this.cycleStart = ticket.sentAt;
		const ceiling = this.ceiling();
		if (this.limit < ceiling) this.limit = Math.min(ceiling, this.limit + 1 / Math.floor(this.limit));
	}

	/**
	 * The answer to an early request, measured from the request `from` that held the window (the
	 * service saw each between its send and its answer): accepted, the window is at most from
	 * its send to this answer; refused, it is more than from its answer to this send.
	 */
	private bisected(ticket: Ticket, verdict: Verdict, now: number): boolean {
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

	private onThrottled(ticket: Ticket, verdict: Verdict & { kind: 'throttled' }, account: RequestAccount, now: number): void {
		const retryAfterMs = verdict.retryAfterMs;
		let episode = this.episode;
		const stale = episode === undefined && this.lastEpisode !== undefined && ticket.sentAt < this.lastEpisode.startedAt;
		if (stale) episode = this.lastEpisode;
		const fresh = episode === undefined;
		episode ??= this.beginEpisode(ticket, now, retryAfterMs, verdict.grainMs ?? 0);
		episode.owners.set(account, (episode.owners.get(account) ?? 0) + 1);
		account.episodes.add(episode);
		if (fresh || stale) return;
		if (ticket.probe) this.probeRefused(episode, ticket, retryAfterMs, now);
		else if (retryAfterMs !== undefined) {
			this.extendWait(episode, now + retryAfterMs);
			this.tighten(episode, ticket.sentAt, now, retryAfterMs, verdict.grainMs ?? 0);
		}
	}

	/**
	 * Another answer of the episode that teaches the window: its Retry-After, rounded at another
	 * moment, may bound the reopening more closely (the same oldest request sets it): at most
	 * Retry-After after this answer, and more than Retry-After less its grain after this request
	 * was sent.
	 */
	private tighten(episode: Episode, sentAt: number, now: number, retryAfterMs: number, grainMs: number): void {
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
	private teachFrom(episode: Episode): void {
		const model = this.model;
		if (!episode.teach || (model && (model.taughtBy !== episode || model.windowMs !== model.learnedMs || model.bisecting))) return;
		this.learn(episode.teach.reopenAt, episode.startedAt, episode.cycleStart, episode.teach.reopenAfter);
		if (this.model) this.model.taughtBy = episode;
	}

	private beginEpisode(ticket: Ticket, now: number, retryAfterMs: number | undefined, grainMs: number): Episode {
		// requests were flowing side by side (others in flight or waiting): a window filled up, not one stray refusal
		const saturated = this.inFlight > 0 || this.lanes.some((l) => l.waiting > 0);
		const model = this.model;
		const episode: Episode = {
			startedAt: now,
			owners: new Map(),
			charged: model === undefined,
			probesFailed: 0,
			saturated,
			probing: retryAfterMs === undefined,
			cycleStart: this.cycleStart,
		};
		this.episode = episode;
		this.episodes++;
		this.limit = Math.max(1, this.limit / 2);
		this.cleanWindows = 0;
		if (episode.charged) this.pauseSince = now;
		if (model) this.adjust(model, now, retryAfterMs);
		else if (retryAfterMs !== undefined && saturated) {
			episode.teach = { reopenAt: now + retryAfterMs, reopenAfter: ticket.sentAt + retryAfterMs - grainMs };
			this.teachFrom(episode);
		}
		if (retryAfterMs !== undefined) {
			this.extendWait(episode, now + retryAfterMs);
			this.probeFirst = this.model === undefined;
		} else {
			const modelAt = this.model ? this.windowFreeAt(now) : 0;
			this.extendWait(episode, Math.max(modelAt === Number.POSITIVE_INFINITY ? 0 : modelAt, now + backoffMs(0)));
			this.probeFirst = true;
		}
		return episode;
	}

	/**
	 * The service throttled although the budget kept to what it learned. After a tentative extra
	 * request per window: back to the count before, tried again twice as late. Otherwise the
	 * service takes fewer (another worker shares the application, or its limit fell), or the window
	 * was narrowed too far (an early request was accepted because a place was free): back to the
	 * window as learned, no more narrowing, and as many as it accepted from us in the window that
	 * ends now, at least one fewer than before but never less than half.
	 */
	private adjust(model: Model, now: number, retryAfterMs: number | undefined): void {
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

	private probeRefused(episode: Episode, ticket: Ticket, retryAfterMs: number | undefined, now: number): void {
		episode.probesFailed++;
		episode.lastRefusedProbeAt = ticket.sentAt;
		if (!episode.charged) {
			// the window it knew is wrong: find the service's reopening again
			episode.charged = true;
			this.pauseSince = now;
			this.model = undefined;
		}
		if (retryAfterMs !== undefined) return this.extendWait(episode, now + retryAfterMs);
		episode.probing = true;
		let delay = backoffMs(episode.probesFailed);
		if (episode.saturated && episode.cycleStart !== undefined) {
			// the service takes requests in windows: probe at most a quarter of the window late
			delay = Math.min(delay, Math.max(1000, (now - episode.cycleStart) / 4));
		}
		this.extendWait(episode, now + delay);
	}

	private extendWait(episode: Episode, until: number): void {
		if (!episode.charged) {
			this.gateUntil = Math.max(this.gateUntil, until);
			return;
		}
		this.pausedUntil = Math.max(this.pausedUntil, until);
		const now = Date.now();
		for (const lane of this.lanes) for (const waiter of lane.all()) this.withinAllowance(waiter, now);
	}

	/** False (and the waiter rejected) when the known pause exceeds what is left of its Max Wait. */
	private withinAllowance(waiter: Waiter, now: number): boolean {
		if (!this.episode?.charged) return true;
		const waited = this.pauseClock(now) - waiter.pauseClockAtEnqueue;
		const next = Math.max(0, this.pausedUntil - now);
		if (waited + next <= waiter.allowanceMs) return true;
		waiter.lane.remove(waiter);
		this.settle(waiter, undefined, new MaxWaitExceeded(waiter.account.waitedMs + waited, next));
		return false;
	}

	private endEpisode(episode: Episode, ticket: Ticket, now: number): void {
		if (episode.probing && episode.saturated && !this.model) {
			// it reopened after the last refused probe was sent, and before this probe's answer
			this.learn(now, episode.startedAt, episode.cycleStart, episode.lastRefusedProbeAt ?? episode.startedAt);
		}
		if (this.pauseSince !== undefined) this.pauseClosedMs += now - this.pauseSince;
		this.pauseSince = undefined;
		episode.endedAt = now;
		this.lastEpisode = episode;
		this.episode = undefined;
		this.probeFirst = false;
		this.pausedUntil = Math.min(this.pausedUntil, now);
		this.cycleStart = ticket.sentAt;
		this.cycleFloor = ticket.sentAt;
	}

	/**
	 * Learns the window from the service's reopening (at most at `reopenAt`, and after
	 * `reopenAfter`) and the requests it accepted in this busy cycle (sent before `before`).
	 */
	private learn(reopenAt: number, before: number, cycleStart: number | undefined, reopenAfter: number): void {
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

	private pushAccepted(entry: Sent): void {
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
	private windowFreeAt(now = Date.now()): number {
		const h = this.holders(now);
		const model = this.model;
		if (!h || !model) return 0;
		const taken = h.held.length + this.inFlight;
		if (taken < model.count) return 0;
		const k = taken - model.count;
		return k < h.held.length ? h.held[k].a + h.windowMs : Number.POSITIVE_INFINITY;
	}

	/**
	 * When one request may start early to narrow the learned window: halfway between what is known
	 * to be too short and what is known to be enough, measured from the start that holds the window.
	 */
	private bisectPoint(): { at: number; from: Sent } | undefined {
		const model = this.model;
		if (!model || model.bisecting || model.tryingFrom !== undefined || this.episode || model.refusals >= BISECT_REFUSALS) return undefined;
		if (model.windowMs - model.lowMs <= Math.max(BISECT_DONE_MS, model.windowMs * BISECT_DONE_SHARE)) return undefined;
		const h = this.holders(Date.now());
		if (!h || this.inFlight > 0) return undefined;
		const k = h.held.length - model.count;
		if (k < 0) return undefined;
		const from = h.held[k];
		return { at: from.a + model.lowMs + (model.windowMs - model.lowMs) * BISECT_AT, from };
	}

	/** Sum of the Concurrency of the lanes at work: what the in-flight limit may grow to. */
	private ceiling(): number {
		let sum = 0;
		for (const lane of this.lanes) if (lane.waiting > 0 || lane.inFlight > 0) sum += lane.concurrency;
		return Math.max(1, sum);
	}

	/** Requests allowed in flight now: the limit (before any throttling at least the largest Concurrency at work). */
	private inFlightCap(): number {
		let largest = 1;
		for (const lane of this.lanes) if (lane.waiting > 0 || lane.inFlight > 0) largest = Math.max(largest, lane.concurrency);
		const limit = this.episodes === 0 ? Math.max(this.limit, largest) : this.limit;
		return Math.max(1, Math.floor(Math.min(limit, this.ceiling())));
	}

	private pacingMs(): number {
		let interval = 0;
		for (const lane of this.lanes) if (lane.waiting > 0 || lane.inFlight > 0) interval = Math.max(interval, lane.intervalMs);
		return interval;
	}

	/** Starts every request that may start now; sets a timer for the next one that may start later. */
	private dispatch(): void {
		this.wakeAtMs = undefined;
		for (;;) {
			const now = Date.now();
			this.lanes = this.lanes.filter((l) => l.waiting > 0 || l.inFlight > 0);
			if (!this.lanes.some((l) => l.waiting > 0)) return;
			const readyAt = Math.max(this.pausedUntil, this.gateUntil, this.nextSlot);
			const windowAt = this.windowFreeAt(now);
			if (windowAt > now && windowAt !== Number.POSITIVE_INFINITY && readyAt <= now) this.noteSaturated(now);
			const at = Math.max(readyAt, this.windowFreeAt(now));
			const early = at > now && readyAt <= now ? this.bisectPoint() : undefined;
			if (at > now && (early === undefined || early.at > now)) {
				const wake = Math.min(at, early?.at ?? at);
				// Infinity: a request in flight holds the last place; its answer dispatches again
				if (wake !== Number.POSITIVE_INFINITY) this.wakeAt(wake);
				return;
			}
			if (this.probeFirst && this.probeInFlight) return;
			if (this.inFlight >= this.inFlightCap()) return;
			const waiter = this.nextWaiter();
			if (!waiter) return;
			this.start(waiter, now, at > now ? early?.from : undefined);
		}
	}

	private start(waiter: Waiter, now: number, bisectFrom?: Sent): void {
		const probe = this.probeFirst;
		if (probe) this.probeInFlight = true;
		if (bisectFrom !== undefined && this.model) this.model.bisecting = true;
		this.inFlight++;
		waiter.lane.inFlight++;
		this.nextSlot = now + this.pacingMs();
		waiter.account.waitedMs += this.pauseClock(now) - waiter.pauseClockAtEnqueue;
		this.lastBusyAt = now;
		this.settle(waiter, { sentAt: now, probe, episode: this.episode, bisectFrom });
	}

	/** A waiter's wait is over: it leaves with its start or its error; an alarm it held goes to another waiter. */
	private settle(waiter: Waiter, ticket?: Ticket, error?: Error): void {
		waiter.ticket = ticket;
		waiter.error = error;
		waiter.nudge?.();
		if (this.alarm?.waiter !== waiter) return;
		this.alarm.controller.abort();
		this.alarm = undefined;
		this.nudgeOne();
	}

	/** Wakes one waiting call (without a timer) so that it takes over the alarm. */
	private nudgeOne(): void {
		if (this.wakeAtMs === undefined) return;
		for (const lane of this.lanes) {
			const sleeper = lane.all().find((w) => w.nudge !== undefined);
			if (sleeper) return sleeper.nudge?.();
		}
	}

	/**
	 * The waiting call of `waiter` (Lane.acquire): sleeps until the next start is due when no other
	 * waiter holds that alarm, else until it is started, rejected or asked to take the alarm. The
	 * only timer of the budget lives here, inside a call that waits, and is cleared when its waiter
	 * leaves: when nobody waits, nothing is scheduled.
	 */
	async waitFor(waiter: Waiter): Promise<Ticket> {
		while (waiter.ticket === undefined && waiter.error === undefined) {
			const at = this.wakeAtMs;
			if (at !== undefined && this.alarm === undefined) {
				const alarm = { waiter, at, controller: new AbortController() };
				this.alarm = alarm;
				await pause(at - Date.now(), alarm.controller.signal);
				if (this.alarm === alarm) this.alarm = undefined;
				if (!alarm.controller.signal.aborted) this.dispatch();
			} else {
				await new Promise<void>((resolve) => (waiter.nudge = resolve));
				waiter.nudge = undefined;
			}
		}
		if (waiter.error) throw waiter.error;
		return waiter.ticket as Ticket;
	}

	/** Round-robin over lanes with a waiter and room under their Concurrency. */
	private nextWaiter(): Waiter | undefined {
		const n = this.lanes.length;
		for (let k = 0; k < n; k++) {
			const lane = this.lanes[(this.turn + k) % n];
			if (lane.waiting === 0 || lane.inFlight >= lane.concurrency) continue;
			this.turn = (this.turn + k + 1) % n;
			return lane.shift();
		}
		return undefined;
	}

	/** The learned window held requests back: count it, and try one more per window now and then. */
	private noteSaturated(now: number): void {
		const model = this.model;
		if (!model || this.episode || model.bisecting || now - this.saturatedWindowAt < model.windowMs) return;
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

	/** Dispatches again at `at`: the alarm of a waiting call (see `waitFor`); an earlier one replaces a later one. */
	private wakeAt(at: number): void {
		this.wakeAtMs = at;
		if (this.alarm && this.alarm.at <= at) return;
		if (this.alarm) {
			this.alarm.controller.abort();
			this.alarm = undefined;
		}
		this.nudgeOne();
	}
}

/** One execution's (or poll's) part of a budget: its Concurrency, its queue, its pacing. */
export class Lane {
	inFlight = 0;

	private used = false;

	private firsts: Waiter[] = [];

	private resends: Waiter[] = [];

	constructor(
		readonly budget: Budget,
		readonly concurrency: number,
		readonly intervalMs: number,
	) {}

	get waiting(): number {
		return this.firsts.length + this.resends.length;
	}

	/**
	 * Waits for a start. `allowanceMs`: what is left of the request's Max Wait (pauses count
	 * against it, queueing at the learned pace does not). Rejects with MaxWaitExceeded.
	 */
	async acquire(account: RequestAccount, resend: boolean, allowanceMs: number): Promise<Ticket> {
		const waiter: Waiter = { lane: this, account, resend, allowanceMs, pauseClockAtEnqueue: this.budget.pauseClock() };
		const first = !this.used;
		this.used = true;
		this.budget.enqueue(waiter, first);
		return await this.budget.waitFor(waiter);
	}

	release(ticket: Ticket, verdict: Verdict, account: RequestAccount): void {
		this.budget.release(ticket, verdict, account, this);
	}

	push(waiter: Waiter): void {
		if (waiter.resend) this.resends.push(waiter);
		else this.firsts.push(waiter);
	}

	shift(): Waiter | undefined {
		return this.resends.shift() ?? this.firsts.shift();
	}

	remove(waiter: Waiter): void {
		this.firsts = this.firsts.filter((w) => w !== waiter);
		this.resends = this.resends.filter((w) => w !== waiter);
	}

	all(): Waiter[] {
		return [...this.resends, ...this.firsts];
	}
}

const budgets = new Map<string, Budget>();

/** The budget of an application in this process; a new one after FORGET_AFTER_IDLE_MS idle. */
export function budgetFor(key: string, concurrency: number, now = Date.now()): Budget {
	const existing = budgets.get(key);
	if (existing && existing.idleForMs(now) < FORGET_AFTER_IDLE_MS) return existing;
	const budget = new Budget(concurrency);
	budgets.set(key, budget);
	return budget;
}

/** Every one of a request's throttled answers that no other request shared: these count against Max Retries. */
export function ownThrottles(account: RequestAccount): number {
	let own = 0;
	for (const episode of account.episodes) {
		if (episode.owners.size === 1) own += episode.owners.get(account) ?? 0;
	}
	return own;
}
