import { Alarm, Lane, type Waiter } from './lane';
import { ServiceWindow, learnWindow, type Model, type Sent, type Teacher } from './window';

export { Lane, learnWindow };

/**
 * One request budget per application (API Base URL + client id) in each n8n process; every
 * execution, trigger poll and dropdown that uses the application joins it as a `Lane`.
 * - Fair queue: round-robin across lanes, resends first within a lane, at most a lane's
 *   Concurrency in flight. In flight (AIMD): the limit halves once per throttling episode and
 *   grows by one per window of successes. Pacing: Requests Per Minute spaces starts evenly.
 * - The service's window, learned (window.ts): after a throttled burst, no more starts per window
 *   than the service took. Forgotten when the budget falls idle.
 * - Throttling episodes: from the first throttled answer until a request sent after it is
 *   accepted. Without a known reopening every request pauses and one probe at a time goes out
 *   (backing off); that pause counts against each waiter's Max Wait. A throttled answer counts
 *   against Max Retries only when it was the only one of its episode (`Episode.owners`).
 * - Timers: only a waiting call sleeps (`waitFor`), and its sleep ends when its waiter leaves.
 */

/** What happened to a request, as far as the budget is concerned. */
export type Verdict =
	| { kind: 'accepted' }
	/** `grainMs`: the resolution of the Retry-After (1000 for whole seconds or an HTTP date). */
	| { kind: 'throttled'; retryAfterMs?: number; grainMs?: number }
	| { kind: 'noAnswer' };

/** A start in the budget: when, whether it is the episode's probe, and (sent early to narrow the window) what it measures from. */
export interface Ticket {
	sentAt: number;
	probe: boolean;
	episode?: Episode;
	bisectFrom?: Sent;
}

/** What the budget charges a request: time waited (pauses, backoff sleeps), the episodes it was throttled in. */
export interface RequestAccount {
	waitedMs: number;
	episodes: Set<Episode>;
}

/**
 * A throttling episode: throttled answers per request (`owners`); `charged`: its pause counts
 * against waiting requests (the reopening was not known); `saturated`: others were in flight or
 * waiting when it began (it tells about the service's window); `probing`: no Retry-After, the end
 * is found by probing; `lastRefusedProbeAt`: the reopening came after it.
 */
export interface Episode extends Teacher {
	owners: Map<RequestAccount, number>;
	charged: boolean;
	probesFailed: number;
	saturated: boolean;
	probing: boolean;
	lastRefusedProbeAt?: number;
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
/** 0.5-1 s, 1-2 s, 2-4 s, ... at most 15-30 s: growing delays with jitter. */
export function backoffMs(attempt: number, random = Math.random): number {
	const base = Math.min(30_000, 1000 * 2 ** attempt);
	return Math.round(base / 2 + random() * (base / 2));
}

export class Budget {
	/** In-flight limit (fractional while it grows). */
	limit: number;
	inFlight = 0;
	readonly window = new ServiceWindow();
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
	private nextSlot = 0;
	private lanes: Lane[] = [];
	private turn = 0;
	/** Wakes a waiting call when the next start is due (lane.ts): the budget's only timer. */
	readonly alarm = new Alarm(() => this.dispatch(), () => this.lanes.flatMap((lane) => lane.all()));
	private lastBusyAt = Date.now();

	constructor(concurrency: number) {
		this.limit = Math.max(1, Math.floor(concurrency));
	}

	/** The service's window as learned (undefined: not known). */
	get model(): Model | undefined {
		return this.window.model;
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
		if (ticket.bisectFrom !== undefined && this.window.bisected(ticket, verdict, now)) {
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
		this.window.reset();
		this.episode = undefined;
		this.lastEpisode = undefined;
		this.episodes = 0;
		this.pausedUntil = 0;
		this.gateUntil = 0;
		this.probeFirst = false;
		this.probeInFlight = false;
		this.cycleStart = undefined;
		this.cycleFloor = 0;
	}

	private onAccepted(ticket: Ticket, now: number): void {
		this.window.pushAccepted({ s: ticket.sentAt, a: now });
		const teacher = this.model?.taughtBy;
		if (teacher && ticket.sentAt < teacher.startedAt && ticket.sentAt >= this.cycleFloor) {
			teacher.cycleStart = Math.min(teacher.cycleStart ?? ticket.sentAt, ticket.sentAt);
			this.window.teachFrom(teacher);
		}
		const episode = this.episode;
		if (episode && ticket.sentAt >= episode.startedAt) this.endEpisode(episode, ticket, now);
		// the cycle starts at its earliest accepted request (answers come back in any order)
		if (this.cycleStart === undefined || (ticket.sentAt < this.cycleStart && ticket.sentAt >= this.cycleFloor)) this.cycleStart = ticket.sentAt;
		const ceiling = this.ceiling();
		if (this.limit < ceiling) this.limit = Math.min(ceiling, this.limit + 1 / Math.floor(this.limit));
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
			this.window.tighten(episode, ticket.sentAt, now, retryAfterMs, verdict.grainMs ?? 0);
		}
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
		this.window.throttled();
		if (episode.charged) this.pauseSince = now;
		if (model) this.window.adjust(model, now, retryAfterMs);
		else if (retryAfterMs !== undefined && saturated) {
			episode.teach = { reopenAt: now + retryAfterMs, reopenAfter: ticket.sentAt + retryAfterMs - grainMs };
			this.window.teachFrom(episode);
		}
		if (retryAfterMs !== undefined) {
			this.extendWait(episode, now + retryAfterMs);
			this.probeFirst = this.model === undefined;
		} else {
			const modelAt = this.model ? this.window.freeAt(now, this.inFlight) : 0;
			this.extendWait(episode, Math.max(modelAt === Number.POSITIVE_INFINITY ? 0 : modelAt, now + backoffMs(0)));
			this.probeFirst = true;
		}
		return episode;
	}


	private probeRefused(episode: Episode, ticket: Ticket, retryAfterMs: number | undefined, now: number): void {
		episode.probesFailed++;
		episode.lastRefusedProbeAt = ticket.sentAt;
		if (!episode.charged) {
			// the window it knew is wrong: find the service's reopening again
			episode.charged = true;
			this.pauseSince = now;
			this.window.model = undefined;
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
		this.alarm.settle(waiter, undefined, new MaxWaitExceeded(waiter.account.waitedMs + waited, next));
		return false;
	}

	private endEpisode(episode: Episode, ticket: Ticket, now: number): void {
		if (episode.probing && episode.saturated && !this.model) {
			// it reopened after the last refused probe was sent, and before this probe's answer
			this.window.learn(now, episode.startedAt, episode.cycleStart, episode.lastRefusedProbeAt ?? episode.startedAt);
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
		this.alarm.clear();
		for (;;) {
			const now = Date.now();
			this.lanes = this.lanes.filter((l) => l.waiting > 0 || l.inFlight > 0);
			if (!this.lanes.some((l) => l.waiting > 0)) return;
			const readyAt = Math.max(this.pausedUntil, this.gateUntil, this.nextSlot);
			const windowAt = this.window.freeAt(now, this.inFlight);
			if (windowAt > now && windowAt !== Number.POSITIVE_INFINITY && readyAt <= now) this.window.noteSaturated(now, this.episode !== undefined);
			const at = Math.max(readyAt, this.window.freeAt(now, this.inFlight));
			const early = at > now && readyAt <= now ? this.window.bisectPoint(this.inFlight, this.episode !== undefined) : undefined;
			if (at > now && (early === undefined || early.at > now)) {
				const wake = Math.min(at, early?.at ?? at);
				// Infinity: a request in flight holds the last place; its answer dispatches again
				if (wake !== Number.POSITIVE_INFINITY) this.alarm.set(wake);
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
		this.alarm.settle(waiter, { sentAt: now, probe, episode: this.episode, bisectFrom });
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
