import type { IDataObject } from 'n8n-workflow';

/**
 * What an error of the package means, carried on the error itself: set where the error is made
 * (helpers/validation.ts, transport/errors.ts, transport/download.ts, ...), read where it matters
 * (actions/toolMode.ts: the answer an AI agent reads; trigger/reader.ts: whether a poll's read
 * may end early; actions/router.ts: the batch report; actions/proposal/move.ts). Never read from
 * the words of a message.
 *
 * It lives in the error's `context` (`context.workOrderService`), plain data: n8n-workflow's
 * NodeApiError and NodeOperationError hand back the same object when re-wrapped, a NodeError that
 * wraps another shares its `context`, and `context` is part of what n8n serializes (queue mode).
 */

/** What went wrong, as the code that made the error knows it. */
export type ErrorKind =
	/** a parameter (or a file a tool call cannot carry) refused before anything was sent */
	| 'validation'
	/** node or credential settings that cannot be used (API Base URL, Authentication) */
	| 'configuration'
	/** the credential could not log in (its settings, a refusal, the token endpoint) */
	| 'login'
	/** the service could not be reached: nothing was sent */
	| 'unreachable'
	/** the request was (or may have been) sent and no answer came */
	| 'noAnswer'
	/** the service kept throttling (429, a 503 that throttles), also a request never started */
	| 'throttled'
	/** 400 or 422: the service refused the values sent */
	| 'refused'
	/** 401 after a fresh login: this account may not do it */
	| 'denied'
	/** 403 */
	| 'forbidden'
	/** 404 or 410 */
	| 'notFound'
	/** 409: the record changed state */
	| 'conflict'
	/** 413, or a file beyond Max File Size */
	| 'tooLarge'
	/** another 5xx */
	| 'serverError'
	/** a redirect that was not followed */
	| 'redirected'
	/** anything else: another status, an error n8n raised */
	| 'failed';

/**
 * Whether anything may have been recorded, strongest first: a write answered with success, one
 * that may have been processed (no answer after it was written, or a 5xx), a refusal, nothing sent.
 */
export type ItemOutcome = 'recorded' | 'maybe' | 'answered' | 'notSent';

/** A parameter refused before any request: for a message that stands on its own (actions/toolMode.ts). */
export interface InvalidInput {
	field: { name: string; label: string };
	problem: string;
	/** The value as the message shows it. */
	shown: string;
	/** What a valid value is, where the problem alone does not say it ("a whole number of 1 or more"). */
	rule?: string;
}

export interface ErrorMeaning {
	kind: ErrorKind;
	/** What the request that failed may have left in the service. */
	outcome: ItemOutcome;
	/** The HTTP status the service answered. */
	status?: number;
	/** The service's own words (secrets removed) and its error code. */
	words?: string;
	code?: number | string;
	/** How many times the request was sent. */
	attempts?: number;
	/** What an AI agent should do now, where the code that made the error knows best. */
	agentHint?: string;
	/** kind 'validation': which parameter, and why. */
	input?: InvalidInput;
}

const KEY = 'workOrderService';

type WithContext = { context: IDataObject };

/** Sets (or replaces) the meaning of `error`; returns the error. */
export function withMeaning<E extends WithContext>(error: E, meaning: ErrorMeaning): E {
	error.context[KEY] = meaning as unknown as IDataObject;
	return error;
}

/** Sets the answer an AI agent reads on an error (its meaning kept, else `fallback`); returns the error. */
export function withHint<E extends WithContext>(
	error: E,
	agentHint: string,
	fallback: ErrorMeaning = { kind: 'failed', outcome: 'notSent' },
): E {
	return withMeaning(error, { ...(meaningOf(error) ?? fallback), agentHint });
}

/** The meaning of an error of this package; undefined for any other value. */
export function meaningOf(error: unknown): ErrorMeaning | undefined {
	const context = (error as { context?: unknown } | null | undefined)?.context;
	const meaning =
		context !== null && typeof context === 'object'
			? (context as Record<string, unknown>)[KEY]
			: undefined;
	return meaning !== null &&
		typeof meaning === 'object' &&
		typeof (meaning as ErrorMeaning).kind === 'string'
		? (meaning as ErrorMeaning)
		: undefined;
}

/** The kind an answered HTTP status means (`throttled`: the answer throttles). */
export function kindOfStatus(status: number, throttled = false): ErrorKind {
	if (throttled) return 'throttled';
	if (status === 400 || status === 422) return 'refused';
	if (status === 401) return 'denied';
	if (status === 403) return 'forbidden';
	if (status === 404 || status === 410) return 'notFound';
	if (status === 409) return 'conflict';
	if (status === 413) return 'tooLarge';
	return status >= 500 ? 'serverError' : 'failed';
}
