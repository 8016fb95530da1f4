import * as workflow from 'n8n-workflow';

import type { Budget, RequestAccount, Ticket, Verdict } from './limiter';

/**
 * A lane: one execution's (or poll's, or dropdown's) part of its application's budget
 * (limiter.ts), with its Concurrency, its queue and its pacing; and the waiting call a request
 * makes there. The budget's only timer lives in such a call (`Alarm.waitFor`): it sleeps until
 * the next start is due, and its sleep ends (the timer cleared) when its waiter leaves. When
 * nobody waits, nothing is scheduled.
 */

export interface Waiter {
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

/** Wakes the budget when its next start is due, through one waiting call at a time. */
export class Alarm {
	/** When the budget next has something to start (undefined: on an answer). */
	private dueAt?: number;
	/** The waiting call that sleeps until `dueAt`, and how to end its sleep early. */
	private holder?: { waiter: Waiter; at: number; controller: AbortController };

	constructor(
		private readonly ring: () => void,
		private readonly waiters: () => Waiter[],
	) {}

	/** Nothing is due (the budget is dispatching). */
	clear(): void {
		this.dueAt = undefined;
	}

	/** The budget's next start is due at `at`: an earlier time replaces a later one. */
	set(at: number): void {
		this.dueAt = at;
		if (this.holder && this.holder.at <= at) return;
		this.holder?.controller.abort();
		this.holder = undefined;
		this.nudgeOne();
	}

	/** A waiter's wait is over: it leaves with its start or its error; the alarm it held goes to another waiter. */
	settle(waiter: Waiter, ticket?: Ticket, error?: Error): void {
		waiter.ticket = ticket;
		waiter.error = error;
		waiter.nudge?.();
		if (this.holder?.waiter !== waiter) return;
		this.holder.controller.abort();
		this.holder = undefined;
		this.nudgeOne();
	}

	/** Wakes one waiting call (waiting without a timer) so that it takes over the alarm. */
	private nudgeOne(): void {
		if (this.dueAt === undefined) return;
		this.waiters()
			.find((w) => w.nudge !== undefined)
			?.nudge?.();
	}

	/**
	 * The waiting call of `waiter`: sleeps until the next start is due when no other waiter holds
	 * the alarm, else until it is started, rejected or asked to take the alarm over.
	 */
	async waitFor(waiter: Waiter): Promise<Ticket> {
		while (waiter.ticket === undefined && waiter.error === undefined) {
			const at = this.dueAt;
			if (at !== undefined && this.holder === undefined) {
				const holder = { waiter, at, controller: new AbortController() };
				this.holder = holder;
				await pause(at - Date.now(), holder.controller.signal);
				if (this.holder === holder) this.holder = undefined;
				if (!holder.controller.signal.aborted) this.ring();
			} else {
				await new Promise<void>((resolve) => (waiter.nudge = resolve));
				waiter.nudge = undefined;
			}
		}
		if (waiter.error) throw waiter.error;
		return waiter.ticket as Ticket;
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
		return await this.budget.alarm.waitFor(waiter);
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
