import * as workflow from 'n8n-workflow';

import {
	backoffMs,
	headerValue,
	isThrottle,
	parseRetryAfter,
	type Attempt,
	type Request,
} from './policy';
import { ServiceWindow, type Model } from './window';

/**
 * One request budget per application (API Base URL + client id) per n8n process; each execution,
 * trigger poll and dropdown is a `Lane` in it (round-robin, resends first, at most its Concurrency in
 * flight, Requests Per Minute spaced evenly). A throttling episode lasts from the first throttled
 * answer until a request sent after it is accepted; without a known reopening every request pauses
 * (charged to Max Wait) and one probe at a time goes out. The service's window is learned
 * (window.ts). Only a waiting call sleeps (`waitFor`): when nobody waits, nothing is scheduled.
 */

export const FORGET_AFTER_IDLE_MS = 5 * 60_000;
/** Before any throttling, at most this many in flight until the process waits on the network (inFlightCap). */
export const FIRST_BURST = 20;
const LOOK_MS = 50; // a look: event-loop utilization under IDLE_BELOW over LOOK_MS
const IDLE_BELOW = 0.5;
type EventLoopUtilization = ReturnType<typeof performance.eventLoopUtilization>;
/** Accepted requests kept to learn from (at most, and at most this old). */
const HISTORY_MAX = 2000;
const HISTORY_MS = 10 * 60_000;

/** A request the service accepted: sent at `s`, answered at `a`. */
export type Sent = { s: number; a: number };

/**
 * `owners`: throttled answers per request. `charged`: its pause counts against waiting requests (no
 * learned window told the reopening). `saturated`: others were in flight or waiting when it began.
 * `probing`: no Retry-After, the end is found by probing. `cycleStart`: the first accepted start of
 * the busy cycle it ended. `reopen`: per its Retry-Afters, the service accepts again at most at `at`, after `after`.
 */
export interface Episode {
	startedAt: number;
	owners: Map<Request, number>;
	charged: boolean;
	saturated: boolean;
	probing: boolean;
	probesFailed: number;
	lastRefusedProbeAt?: number;
	cycleStart?: number;
	reopen?: { at: number; after: number };
}

export interface Waiter {
	lane: Lane;
	request: Request;
	/** What is left of the request's Max Wait, and the pause clock when it began to wait. */
	allowanceMs: number;
	pauseAt: number;
	started?: boolean;
	error?: Error;
	wake?: () => void;
}

export class MaxWaitExceeded extends Error {
	constructor(
		readonly waitedMs: number,
		readonly nextWaitMs: number,
	) {
		super('Max Wait exceeded');
	}
}

/** n8n's sleep, ended early by `signal` (n8n 2.x: `sleep(ms, signal)`; n8n 1.x: `sleepWithAbort`); an aborted sleep clears its timer. */
export async function pause(ms: number, signal: AbortSignal): Promise<void> {
	const withAbort =
		(workflow as unknown as { sleepWithAbort?: typeof workflow.sleep }).sleepWithAbort ??
		workflow.sleep;
	await withAbort(Math.max(0, ms), signal).catch(() => undefined);
}

export class Lane {
	inFlight = 0;
	queue: Waiter[] = [];
	private used = false;

	constructor(
		readonly budget: Budget,
		readonly concurrency: number,
		readonly intervalMs: number,
	) {}

	/** Waits for a start; rejects with MaxWaitExceeded when a pause exceeds what is left of `allowanceMs` (queueing at the learned pace does not count). */
	async acquire(request: Request, allowanceMs: number): Promise<void> {
		const waiter: Waiter = { lane: this, request, allowanceMs, pauseAt: this.budget.pauseClock() };
		this.budget.enqueue(waiter, !this.used);
		this.used = true;
		await this.budget.waitFor(waiter);
	}

	release(request: Request, attempt: Attempt): void {
		this.budget.release(request, attempt, this);
	}
}

export class Budget {
	inFlight = 0;
	/** In-flight limit of the application (AIMD: from at most FIRST_BURST, halved once per throttling episode, one more per window of successes). */
	limit: number;
	episode?: Episode;
	private lastEpisode?: Episode;
	private throttledOnce = false;
	/** While FIRST_BURST are in flight: the current look (its start and event-loop reading); whether the process was found waiting on the network. */
	private look?: { at: number; elu: EventLoopUtilization };
	private waitsOnNetwork = false;
	private lanes: Lane[] = [];
	private turn = 0;
	private pausedUntil = 0;
	private gateUntil = 0;
	private nextSlot = 0;
	private probeFirst = false;
	private probeInFlight = false;
	/** Charged pause time of the episodes that ended, and since when the current one pauses. */
	private pauseClosedMs = 0;
	private pauseSince?: number;
	/** First accepted start of the busy cycle (requests sent before `cycleFloor` do not count). */
	private cycleStart?: number;
	private cycleFloor = 0;
	lastBusyAt = Date.now();
	/** Accepted requests by send time (what the window is learned from and held by). */
	private accepted: Sent[] = [];
	private window?: ServiceWindow;
	/** When the next start is due (undefined: on an answer), and the waiting call that sleeps until then. */
	private dueAt?: number;
	private holder?: { waiter: Waiter; at: number; controller: AbortController };

	constructor(concurrency: number) {
		this.limit = firstLimit(concurrency);
	}

	lane(concurrency: number, requestsPerMinute: number): Lane {
		return new Lane(
			this,
			Math.max(1, Math.floor(concurrency)),
			requestsPerMinute > 0 ? 60_000 / requestsPerMinute : 0,
		);
	}

	get model(): Model | undefined {
		return this.window?.model;
	}

	get idle(): boolean {
		return this.inFlight === 0 && this.lanes.every((l) => l.queue.length === 0);
	}

	pauseClock(now = Date.now()): number {
		return this.pauseClosedMs + (this.pauseSince !== undefined ? now - this.pauseSince : 0);
	}

	/** After a throttled answer: how long this request waits before it may be sent again, whether that is a charged pause, and its own throttles. */
	throttleWait(request: Request, now = Date.now()): { ms: number; charged: boolean; own: number } {
		let own = 0;
		for (const episode of request.episodes)
			if (episode.owners.size === 1) own += episode.owners.get(request) ?? 0;
		const charged = this.episode?.charged === true;
		return { ms: Math.max(0, (charged ? this.pausedUntil : this.gateUntil) - now), charged, own };
	}

	enqueue(waiter: Waiter, firstOfLane: boolean): void {
		// a new execution on an idle budget: what it learned belonged to executions that are over
		if (firstOfLane && this.idle) this.forget(waiter.lane.concurrency);
		if (!this.lanes.includes(waiter.lane)) this.lanes.push(waiter.lane);
		if (waiter.request.resend)
			waiter.lane.queue.splice(waiter.lane.queue.filter((w) => w.request.resend).length, 0, waiter);
		else waiter.lane.queue.push(waiter);
		if (this.withinAllowance(waiter, Date.now())) this.dispatch();
	}

	release(request: Request, attempt: Attempt, lane: Lane): void {
		const now = Date.now();
		const start = request.start as NonNullable<Request['start']>;
		this.inFlight = Math.max(0, this.inFlight - 1);
		lane.inFlight = Math.max(0, lane.inFlight - 1);
		if (this.inFlight < FIRST_BURST) this.look = undefined;
		if (start.probe) this.probeInFlight = false;
		const throttled = isThrottle(attempt.status, attempt.headers, attempt.bodyText);
		const header = throttled ? headerValue(attempt.headers, 'retry-after') : undefined;
		const retryAfterMs = parseRetryAfter(header, now);
		const grainMs = /^\s*\d+\.\d+\s*$/.test(header ?? '') ? 1 : 1000;
		const accepted = attempt.status !== undefined && !throttled;
		if (start.from !== undefined && this.window?.model) {
			// an early request the budget sent to narrow the window: no episode
			if (accepted) this.remember({ s: start.at, a: now });
			this.window.bisected(start.at, start.from, accepted, throttled, retryAfterMs, now);
		} else if (accepted) this.accept(start.at, now);
		else if (throttled) this.throttled(request, start, retryAfterMs, grainMs, now);
		else if (start.probe && this.episode)
			this.extendWait(this.episode, now + backoffMs(this.episode.probesFailed));
		this.lastBusyAt = now;
		this.dispatch();
	}

	/* ------------------------------------------------------------ waiting */

	/** The waiting call: sleeps until the next start is due when no other waiter holds that alarm, else until it is started, rejected or asked to take the alarm over. */
	async waitFor(waiter: Waiter): Promise<void> {
		while (!waiter.started && waiter.error === undefined) {
			const at = this.dueAt;
			if (at !== undefined && this.holder === undefined) {
				const holder = { waiter, at, controller: new AbortController() };
				this.holder = holder;
				await pause(at - Date.now(), holder.controller.signal);
				if (this.holder === holder) this.holder = undefined;
				if (!holder.controller.signal.aborted) this.dispatch();
			} else {
				await new Promise<void>((resolve) => (waiter.wake = resolve));
				waiter.wake = undefined;
			}
		}
		if (waiter.error) throw waiter.error;
	}

	/** The next start is due at `at`: an earlier time replaces a later one. */
	private setAlarm(at: number): void {
		this.dueAt = at;
		if (this.holder && this.holder.at <= at) return;
		this.holder?.controller.abort();
		this.holder = undefined;
		this.wakeOne();
	}

	/** A waiter leaves, started or with its error; the alarm it held goes to another waiter. */
	private settle(waiter: Waiter, error?: Error): void {
		waiter.started = error === undefined;
		waiter.error = error;
		waiter.lane.queue = waiter.lane.queue.filter((w) => w !== waiter);
		waiter.wake?.();
		if (this.holder?.waiter !== waiter) return;
		this.holder.controller.abort();
		this.holder = undefined;
		this.wakeOne();
	}

	private wakeOne(): void {
		if (this.dueAt !== undefined)
			this.lanes
				.flatMap((l) => l.queue)
				.find((w) => w.wake)
				?.wake?.();
	}

	/* ------------------------------------------------------------ starting */

	/** Starts every request that may start now; sets the alarm for the next one that may start later. */
	private dispatch(): void {
		this.dueAt = undefined;
		for (;;) {
			const now = Date.now();
			this.lanes = this.lanes.filter((l) => l.queue.length > 0 || l.inFlight > 0);
			if (!this.lanes.some((l) => l.queue.length > 0)) return;
			const readyAt = Math.max(this.pausedUntil, this.gateUntil, this.nextSlot);
			const windowAt = this.window?.freeAt(now, this.inFlight) ?? 0;
			if (windowAt > now && windowAt !== Infinity && readyAt <= now)
				this.window?.noteSaturated(now, this.episode !== undefined);
			const at = Math.max(readyAt, windowAt);
			const early =
				at > now && readyAt <= now
					? this.window?.bisectPoint(this.inFlight, this.episode !== undefined)
					: undefined;
			if (at > now && (early === undefined || early.at > now)) {
				// Infinity: a request in flight holds the last place; its answer dispatches again
				const wake = Math.min(at, early?.at ?? at);
				if (wake !== Infinity) this.setAlarm(wake);
				return;
			}
			if ((this.probeFirst && this.probeInFlight) || this.inFlight >= this.inFlightCap(now)) return;
			const waiter = this.nextWaiter();
			if (!waiter) return;
			this.start(waiter, now, at > now ? early?.from : undefined);
		}
	}

	private start(waiter: Waiter, now: number, from?: Sent): void {
		const probe = this.probeFirst;
		if (probe) this.probeInFlight = true;
		if (from && this.model) this.model.bisecting = true;
		this.inFlight++;
		waiter.lane.inFlight++;
		if (this.inFlight >= FIRST_BURST)
			this.look ??= { at: now, elu: performance.eventLoopUtilization() };
		this.nextSlot = now + Math.max(0, ...this.lanes.map((l) => l.intervalMs));
		waiter.request.waitedMs += this.pauseClock(now) - waiter.pauseAt;
		waiter.request.start = { at: now, probe, from };
		this.lastBusyAt = now;
		this.settle(waiter);
	}

	/** Requests allowed in flight now: the limit (before any throttling at least the largest Concurrency at work, but FIRST_BURST until the process is seen waiting on the network: more buys a busy process or fast answers nothing, and a limit met with more refuses all of them), at most the lanes' Concurrency together. */
	private inFlightCap(now: number): number {
		const concurrency = this.lanes.map((l) => l.concurrency);
		const sum = concurrency.reduce((a, b) => a + b, 0);
		let limit = this.throttledOnce ? this.limit : Math.max(this.limit, ...concurrency);
		if (!this.throttledOnce && !this.waitsOnNetwork && limit > FIRST_BURST) {
			const look = this.look;
			if (look && this.inFlight >= FIRST_BURST && now - look.at >= LOOK_MS) {
				// idle while FIRST_BURST are out: the answers are slow; busy: look again
				if (performance.eventLoopUtilization(look.elu).utilization < IDLE_BELOW)
					this.waitsOnNetwork = true;
				else this.look = { at: now, elu: performance.eventLoopUtilization() };
			}
			if (!this.waitsOnNetwork) {
				limit = FIRST_BURST;
				if (this.look && this.inFlight >= FIRST_BURST) this.setAlarm(this.look.at + LOOK_MS);
			}
		}
		return Math.max(1, Math.floor(Math.min(limit, sum)));
	}

	private nextWaiter(): Waiter | undefined {
		const n = this.lanes.length;
		for (let k = 0; k < n; k++) {
			const lane = this.lanes[(this.turn + k) % n];
			if (lane.queue.length === 0 || lane.inFlight >= lane.concurrency) continue;
			this.turn = (this.turn + k + 1) % n;
			return lane.queue[0];
		}
		return undefined;
	}

	/** False (and the waiter rejected) when the known pause exceeds what is left of its Max Wait. */
	private withinAllowance(waiter: Waiter, now: number): boolean {
		if (!this.episode?.charged) return true;
		const waited = this.pauseClock(now) - waiter.pauseAt;
		const next = Math.max(0, this.pausedUntil - now);
		if (waited + next <= waiter.allowanceMs) return true;
		this.settle(waiter, new MaxWaitExceeded(waiter.request.waitedMs + waited, next));
		return false;
	}

	/** The service may have changed while the budget was idle. */
	private forget(concurrency: number): void {
		if (this.pauseSince !== undefined) this.pauseClosedMs += Date.now() - this.pauseSince;
		Object.assign(this, {
			limit: firstLimit(concurrency),
			throttledOnce: false,
			look: undefined,
			waitsOnNetwork: false,
			pauseSince: undefined,
			window: undefined,
			accepted: [],
			episode: undefined,
		});
		Object.assign(this, {
			lastEpisode: undefined,
			pausedUntil: 0,
			gateUntil: 0,
			probeFirst: false,
			probeInFlight: false,
			cycleStart: undefined,
			cycleFloor: 0,
		});
	}

	/* ------------------------------------------------------------ episodes */

	private accept(sentAt: number, now: number): void {
		this.remember({ s: sentAt, a: now });
		// answers to requests sent before the teaching episode keep coming in: each one the service took in that window
		const teacher = this.model?.taughtBy;
		if (teacher && sentAt < teacher.startedAt && sentAt >= this.cycleFloor) {
			teacher.cycleStart = Math.min(teacher.cycleStart ?? sentAt, sentAt);
			this.window?.teachFrom(teacher);
		}
		const episode = this.episode;
		if (episode && sentAt >= episode.startedAt) this.endEpisode(episode, sentAt, now);
		if (this.cycleStart === undefined || (sentAt < this.cycleStart && sentAt >= this.cycleFloor))
			this.cycleStart = sentAt;
		const ceiling = this.lanes.reduce((sum, l) => sum + l.concurrency, 0);
		if (this.limit < ceiling)
			this.limit = Math.min(ceiling, this.limit + 1 / Math.floor(this.limit));
	}

	private throttled(
		request: Request,
		start: NonNullable<Request['start']>,
		retryAfterMs: number | undefined,
		grainMs: number,
		now: number,
	): void {
		// an answer to a request sent before the last episode began, arriving after it ended, belongs to it
		const stale =
			this.episode === undefined &&
			this.lastEpisode !== undefined &&
			start.at < this.lastEpisode.startedAt;
		const known = stale ? this.lastEpisode : this.episode;
		const episode = known ?? this.beginEpisode(start.at, now, retryAfterMs, grainMs);
		episode.owners.set(request, (episode.owners.get(request) ?? 0) + 1);
		request.episodes.add(episode);
		if (!known || stale) return;
		if (start.probe) this.probeRefused(episode, start.at, retryAfterMs, now);
		else if (retryAfterMs !== undefined) {
			this.extendWait(episode, now + retryAfterMs);
			// rounded at another moment, this Retry-After may bound the reopening more closely
			if (episode.reopen) {
				episode.reopen = {
					at: Math.min(episode.reopen.at, now + retryAfterMs),
					after: Math.max(episode.reopen.after, start.at + retryAfterMs - grainMs),
				};
				this.window?.teachFrom(episode);
			}
		}
	}

	private beginEpisode(
		sentAt: number,
		now: number,
		retryAfterMs: number | undefined,
		grainMs: number,
	): Episode {
		// requests were flowing side by side: a window filled up, not one stray refusal
		const saturated = this.inFlight > 0 || this.lanes.some((l) => l.queue.length > 0);
		const model = this.model;
		const episode: Episode = {
			startedAt: now,
			owners: new Map(),
			charged: !model,
			saturated,
			probing: retryAfterMs === undefined,
			probesFailed: 0,
			cycleStart: this.cycleStart,
		};
		this.episode = episode;
		this.throttledOnce = true;
		this.limit = Math.max(1, this.limit / 2);
		this.window?.throttled();
		if (episode.charged) this.pauseSince = now;
		if (model) this.window?.adjust(model, now, retryAfterMs);
		else if (retryAfterMs !== undefined && saturated) {
			episode.reopen = { at: now + retryAfterMs, after: sentAt + retryAfterMs - grainMs };
			(this.window ??= new ServiceWindow(this.accepted)).teachFrom(episode);
		}
		if (retryAfterMs !== undefined) {
			this.extendWait(episode, now + retryAfterMs);
			this.probeFirst = this.model === undefined;
		} else {
			const modelAt = this.window?.freeAt(now, this.inFlight) ?? 0;
			this.extendWait(episode, Math.max(modelAt === Infinity ? 0 : modelAt, now + backoffMs(0)));
			this.probeFirst = true;
		}
		return episode;
	}

	private probeRefused(
		episode: Episode,
		sentAt: number,
		retryAfterMs: number | undefined,
		now: number,
	): void {
		episode.probesFailed++;
		episode.lastRefusedProbeAt = sentAt;
		if (!episode.charged) {
			// the window it knew is wrong: find the service's reopening again
			episode.charged = true;
			this.pauseSince = now;
			(this.window as ServiceWindow).model = undefined;
		}
		if (retryAfterMs !== undefined) return this.extendWait(episode, now + retryAfterMs);
		episode.probing = true;
		let delay = backoffMs(episode.probesFailed);
		// the service takes requests in windows: probe at most a quarter of the window late
		if (episode.saturated && episode.cycleStart !== undefined)
			delay = Math.min(delay, Math.max(1000, (now - episode.cycleStart) / 4));
		this.extendWait(episode, now + delay);
	}

	private extendWait(episode: Episode, until: number): void {
		if (!episode.charged) {
			this.gateUntil = Math.max(this.gateUntil, until);
			return;
		}
		this.pausedUntil = Math.max(this.pausedUntil, until);
		const now = Date.now();
		for (const waiter of this.lanes.flatMap((l) => l.queue)) this.withinAllowance(waiter, now);
	}

	private endEpisode(episode: Episode, sentAt: number, now: number): void {
		// it reopened after the last refused probe was sent, and before this probe's answer
		if (episode.probing && episode.saturated && !this.model)
			(this.window ??= new ServiceWindow(this.accepted)).learn(
				now,
				episode.startedAt,
				episode.cycleStart,
				episode.lastRefusedProbeAt ?? episode.startedAt,
			);
		if (this.pauseSince !== undefined) this.pauseClosedMs += now - this.pauseSince;
		this.pauseSince = undefined;
		this.lastEpisode = episode;
		this.episode = undefined;
		this.probeFirst = false;
		this.pausedUntil = Math.min(this.pausedUntil, now);
		this.cycleStart = sentAt;
		this.cycleFloor = sentAt;
	}

	private remember(entry: Sent): void {
		const list = this.accepted;
		let k = list.length;
		while (k > 0 && list[k - 1].s > entry.s) k--;
		list.splice(k, 0, entry);
		let drop = Math.max(0, list.length - HISTORY_MAX);
		while (drop < list.length && list[drop].a < entry.a - HISTORY_MS) drop++;
		if (drop) list.splice(0, drop);
	}
}

/** The AIMD limit a budget starts from: a throttling episode halves it (at most FIRST_BURST, whatever the Concurrency). */
const firstLimit = (concurrency: number) =>
	Math.max(1, Math.min(FIRST_BURST, Math.floor(concurrency)));

const budgets = new Map<string, Budget>();

/** The budget of an application in this process; a new one after FORGET_AFTER_IDLE_MS idle. */
export function budgetFor(key: string, concurrency: number, now = Date.now()): Budget {
	const existing = budgets.get(key);
	if (existing && (!existing.idle || now - existing.lastBusyAt < FORGET_AFTER_IDLE_MS))
		return existing;
	const budget = new Budget(concurrency);
	budgets.set(key, budget);
	return budget;
}
