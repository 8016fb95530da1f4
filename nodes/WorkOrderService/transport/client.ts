import type {
	ICredentialDataDecryptedObject,
	IDataObject,
	IExecuteFunctions,
	IHookFunctions,
	IHttpRequestMethods,
	IHttpRequestOptions,
	ILoadOptionsFunctions,
	IPollFunctions,
	IWebhookFunctions,
} from 'n8n-workflow';
import { NodeApiError, NodeOperationError, sleep } from 'n8n-workflow';

import { SecretSet, credentialSecrets } from '../auth/secrets';
import { readSettings, type RequestSettings } from '../descriptions/requestOptions';
import { knownTokens, loginConfig, normalizeBaseUrl, type LoginConfig } from '../auth/tokens';
import { bodyToText, originOf } from './http';
import {
	ERRORS_KEEP_RESPONSE,
	failureText,
	keptError,
	makeApiError,
	readHttpFailure,
	redirectText,
	routeOf,
	throttledTooLongText,
	type AttemptInfo,
	type ErrorText,
	type HttpFailure,
} from './errors';
import { MaxWaitExceeded, budgetFor, ownThrottles, type Lane, type RequestAccount, type Ticket } from './limiter';
import { parseBody } from './losslessJson';
import { buildMultipart, type MultipartPart } from './multipart';
import {
	READ_METHODS,
	decide,
	isThrottle,
	mayHaveBeenProcessed,
	maxWaitReason,
	verdictOf,
	type Decision,
	type Outcome,
	type Standing,
} from './policy';

/**
 * The only code of the node that speaks HTTP. One client per execution (router, trigger poll,
 * dropdown loader) holds the credential type, the API Base URL, the secrets to redact, the
 * Request Options and the execution's lane in its application's budget (limiter.ts).
 *
 * One request (`send`): prepare the call once, then loop: wait for a start in the budget, make one
 * attempt through n8n's `httpRequestWithAuthentication` (the credential signs it; n8n logs in
 * through the credential's `preAuthentication` when the token is empty and once more after a 401,
 * auth/tokens.ts), tell the budget what came back, and do what the policy decides (policy.ts:
 * ok, redirect to the same origin, retry, fail). Errors are worded in errors.ts, redacted here.
 * What became of each item's requests (recorded, maybe, answered, not sent) is kept for the
 * router's batch report.
 */

export type AuthenticationMethod = 'password' | 'oAuth2' | 'contractor';

const CODE_GRANT_CREDENTIAL = 'workOrderServiceOAuth2Api';
export const CREDENTIAL_TYPES: Record<AuthenticationMethod, string> = {
	password: 'workOrderServiceApi',
	oAuth2: CODE_GRANT_CREDENTIAL,
	contractor: 'workOrderServiceContractorApi',
};

export type ClientContext = IExecuteFunctions | ILoadOptionsFunctions | IPollFunctions | IHookFunctions | IWebhookFunctions;

export interface ApiRequest {
	method: IHttpRequestMethods;
	/** Path below {base_url}/v3, starting with '/'. Every user value in it is already encoded. */
	path: string;
	qs?: IDataObject;
	/** JSON body; serialized here so that an empty object is still sent. */
	body?: unknown;
	multipart?: MultipartPart[];
	/** Item the request is made for (error context). */
	itemIndex?: number;
}

export interface ApiResponse {
	statusCode: number;
	headers: Record<string, unknown>;
	/** Parsed JSON (integers beyond 2^53 as exact strings), or text, or undefined for no body. */
	body: unknown;
}

/** The credential as read once: `apiUrl` = {API Base URL}/v3; `login` (token credentials): its identity names the tokens to redact. */
type Resolved = { credentials: ICredentialDataDecryptedObject; apiUrl: string; apiOrigin: string; login?: LoginConfig };

/**
 * What became of one item's requests, strongest first: a write the service answered with
 * success ("recorded"), a write that may have been processed (no answer after it was written, or
 * a 5xx), a request the service answered with a refusal, a request that never reached it.
 */
export type ItemOutcome = 'recorded' | 'maybe' | 'answered' | 'notSent';
const OUTCOME_RANK: Record<ItemOutcome, number> = { recorded: 3, maybe: 2, answered: 1, notSent: 0 };

/** What a failed request's error means for its item (read by the router). */
const errorOutcomes = new WeakMap<object, ItemOutcome>();

/** The outcome of the request that raised this error, when the client raised it. */
export function outcomeOfError(error: unknown): ItemOutcome | undefined {
	return error !== null && typeof error === 'object' ? errorOutcomes.get(error) : undefined;
}

export class WorkOrderServiceClient {
	readonly credentialType: string;
	/** Every secret in every encoding: credential fields and every token seen in this run. */
	readonly secrets = new SecretSet();
	private resolved?: Promise<Resolved>;
	private lane?: Lane;
	/** What became of each item's requests (the strongest outcome per item index). */
	private readonly outcomes = new Map<number, ItemOutcome>();

	constructor(
		private readonly ctx: ClientContext,
		readonly authentication: AuthenticationMethod,
		readonly settings: RequestSettings,
	) {
		this.credentialType = CREDENTIAL_TYPES[authentication];
	}

	/** What became of the requests made for item `i` (undefined: none was made). */
	itemOutcome(i: number): ItemOutcome | undefined {
		return this.outcomes.get(i);
	}

	private noteOutcome(itemIndex: number | undefined, outcome: ItemOutcome): void {
		if (itemIndex === undefined) return;
		const known = this.outcomes.get(itemIndex);
		if (known === undefined || OUTCOME_RANK[outcome] > OUTCOME_RANK[known]) this.outcomes.set(itemIndex, outcome);
	}

	/** This execution's lane in the budget of its application (API Base URL + client id) in this process. */
	private laneOf(resolved: Resolved): Lane {
		if (!this.lane) {
			const key = `${resolved.apiUrl}\n${String(resolved.credentials.clientId ?? '')}`;
			this.lane = budgetFor(key, this.settings.concurrency).lane(this.settings.concurrency, this.settings.requestsPerMinute);
		}
		return this.lane;
	}

	/**
	 * The client for a node context: the node's Authentication and its Request Options (read once;
	 * they cannot vary per item). `concurrency`: the default when Request Options set none.
	 */
	static forNode(ctx: ClientContext, concurrency?: number): WorkOrderServiceClient {
		let raw: IDataObject | undefined;
		try {
			raw = nodeParameter(ctx, 'requestOptions', {}) as IDataObject | undefined;
		} catch {
			raw = undefined;
		}
		return new WorkOrderServiceClient(ctx, readAuthentication(ctx), readSettings(raw, concurrency));
	}

	private async resolve(): Promise<Resolved> {
		const pending = (this.resolved ??= (async () => {
			const credentials = (await this.ctx.getCredentials(this.credentialType)) as ICredentialDataDecryptedObject;
			this.secrets.merge(credentialSecrets(credentials));
			let base: string;
			try {
				base = normalizeBaseUrl(credentials.baseUrl);
			} catch {
				throw new NodeOperationError(this.ctx.getNode(), "The credential's API Base URL must be an http(s) URL", {
					description: 'Open the credential and set API Base URL, e.g. https://api.example.com (the node appends /v3).',
				});
			}
			const resolved: Resolved = { credentials, apiUrl: `${base}/v3`, apiOrigin: originOf(base) ?? base };
			if (this.authentication !== 'oAuth2') {
				resolved.login = loginConfig(this.authentication === 'password' ? 'password' : 'contractor', credentials);
				this.secrets.merge(resolved.login.secrets);
			}
			return resolved;
		})());
		// A failure is not kept: a later item (Continue On Fail) tries again.
		pending.catch(() => {
			if (this.resolved === pending) this.resolved = undefined;
		});
		return await pending;
	}

	/** Sends one request and returns the parsed body (undefined when there is none). */
	async request(request: ApiRequest): Promise<unknown> {
		return (await this.send(request)).body;
	}

	/** Sends one request, follows the rules above, and returns status, headers and parsed body. */
	async send(request: ApiRequest): Promise<ApiResponse> {
		const resolved = await this.resolveFor(request);
		const lane = this.laneOf(resolved);
		const state = await this.prepare(resolved, request);
		for (;;) {
			const ticket = await this.startIn(lane, request, state);
			const outcome = await this.attempt(state.call, state.strict);
			lane.release(ticket, verdictOf(outcome), state.account);
			state.attempts++;
			state.answered ||= outcome.status !== undefined;
			const decision = decide(outcome, this.standing(resolved, state, lane));
			if (decision.kind === 'ok') return this.succeeded(request, state, outcome);
			if (decision.kind === 'fail') throw await this.failed(request, state, outcome, decision);
			await this.follow(state, outcome, decision);
		}
	}

	/** The credential as resolved; an error (nothing was sent) when it cannot be read or is set up wrongly. */
	private async resolveFor(request: ApiRequest): Promise<Resolved> {
		try {
			return await this.resolve();
		} catch (error) {
			throw await this.settingsError(request, error);
		}
	}

	/** The call as it goes out (URL, query, headers, body serialized once) and the request's state. */
	private async prepare(resolved: Resolved, request: ApiRequest): Promise<RequestState> {
		const method = request.method.toUpperCase();
		const headers: IDataObject = { Accept: 'application/json' };
		let body: Buffer | string | undefined;
		if (request.multipart) {
			const multipart = await buildMultipart(request.multipart);
			body = multipart.body;
			headers['Content-Type'] = multipart.contentType;
		} else if (request.body !== undefined) {
			body = JSON.stringify(request.body);
			headers['Content-Type'] = 'application/json';
		}
		const qs = request.qs && Object.keys(request.qs).length ? { ...request.qs } : undefined;
		return {
			call: { method, url: `${resolved.apiUrl}${request.path}`, qs, headers, body },
			account: { waitedMs: 0, episodes: new Set() },
			attempts: 0,
			retries: 0,
			redirects: 0,
			// n8n's OAuth2 layer refreshes only on a 401 it meets itself: strict on every n8n version
			strict: ERRORS_KEEP_RESPONSE || this.authentication === 'oAuth2',
			loginWaits: 0,
			answered: false,
			maybeProcessed: false,
			resend: false,
		};
	}

	/** A start in the budget; an error when the budget would keep the request waiting beyond its Max Wait. */
	private async startIn(lane: Lane, request: ApiRequest, state: RequestState): Promise<Ticket> {
		try {
			return await lane.acquire(state.account, state.resend, Math.max(0, this.settings.maxWaitMs - state.account.waitedMs));
		} catch (error) {
			throw await this.notStartedError(request, error, state);
		}
	}

	/** Where the request stands, for the policy. */
	private standing(resolved: Resolved, state: RequestState, lane: Lane): Standing {
		return {
			method: state.call.method,
			url: state.call.url,
			apiOrigin: resolved.apiOrigin,
			redirects: state.redirects,
			renewable: !state.strict,
			retries: state.retries,
			loginWaits: state.loginWaits,
			ownThrottles: ownThrottles(state.account),
			waitedMs: state.account.waitedMs,
			throttleWait: lane.budget.waitAfterThrottle(),
			maxRetries: this.settings.maxRetries,
			maxWaitMs: this.settings.maxWaitMs,
		};
	}

	private succeeded(request: ApiRequest, state: RequestState, outcome: Outcome): ApiResponse {
		this.noteOutcome(request.itemIndex, READ_METHODS.has(state.call.method) ? 'answered' : 'recorded');
		return { statusCode: outcome.status as number, headers: outcome.headers, body: parseBody(outcome.headers, outcome.body) };
	}

	/** Redirect or retry, as the policy decided. */
	private async follow(state: RequestState, outcome: Outcome, decision: Decision): Promise<void> {
		if (decision.kind === 'redirect') {
			state.redirects++;
			state.call.url = decision.url;
			state.call.qs = undefined;
		} else if (decision.kind === 'renew') {
			// n8n 1.x: sent again so that n8n itself meets the 401, logs in (preAuthentication) and retries
			state.strict = true;
		} else if (decision.kind === 'retry') {
			this.noteFailure(state, outcome);
			state.account.waitedMs += decision.waitMs;
			if (decision.countsAsRetry) state.retries++;
			if (outcome.failure?.authErrorKind === 'throttled') state.loginWaits++;
			if (decision.sleep && decision.waitMs > 0) await sleep(decision.waitMs);
			state.resend = true;
		}
	}

	/** Keeps the failure (for the error, should the request give up) and whether it may have been processed. */
	private noteFailure(state: RequestState, outcome: Outcome): void {
		state.last = {
			failure: outcome.failure ?? { status: outcome.status, headers: outcome.headers, bodyText: outcome.bodyText },
			error: outcome.failure ? outcome.error : undefined,
		};
		state.maybeProcessed ||= mayHaveBeenProcessed(outcome);
	}

	/** The error of a request the policy gave up on (a redirect it did not follow, or the last failure). */
	private async failed(request: ApiRequest, state: RequestState, outcome: Outcome, decision: Extract<Decision, { kind: 'fail' }>): Promise<Error> {
		if (decision.redirectReason !== undefined) {
			this.noteOutcome(request.itemIndex, 'answered');
			const info = { attempts: state.attempts, waitedMs: state.account.waitedMs };
			return await this.apiError(request, redirectText(routeOf(request.method, request.path), outcome.status as number, decision.redirectReason, info));
		}
		this.noteFailure(state, outcome);
		return await this.finalError(request, state, decision.gaveUp);
	}

	/** The error for a request that failed for good; its item's outcome is noted. */
	private async finalError(request: ApiRequest, state: RequestState, gaveUp: string | undefined, waitedMs = state.account.waitedMs): Promise<Error> {
		const outcome: ItemOutcome = state.maybeProcessed ? 'maybe' : state.answered ? 'answered' : 'notSent';
		this.noteOutcome(request.itemIndex, outcome);
		const last = state.last as NonNullable<RequestState['last']>;
		const error = await this.failureError(request, last.failure, last.error, { attempts: state.attempts, waitedMs, gaveUp });
		errorOutcomes.set(error, outcome);
		return error;
	}

	/** The budget did not let the request start (again) within its Max Wait. */
	private async notStartedError(request: ApiRequest, error: unknown, state: RequestState): Promise<Error> {
		if (!(error instanceof MaxWaitExceeded)) return error as Error;
		const gaveUp = `the service kept throttling: ${maxWaitReason(error.nextWaitMs, this.settings.maxWaitMs)}`;
		if (state.last) return await this.finalError(request, state, gaveUp, error.waitedMs);
		// Never sent: the application's requests were paused for longer than this request's Max Wait.
		const built = await this.apiError(request, throttledTooLongText(routeOf(request.method, request.path), gaveUp, this.settings));
		this.noteOutcome(request.itemIndex, 'notSent');
		errorOutcomes.set(built, 'notSent');
		return built;
	}

	/**
	 * One attempt through n8n's `httpRequestWithAuthentication`, as any node sends: the credential
	 * signs it (and logs in first when needed). Never throws: an error status, a failure without an
	 * answer or a failed login comes back as what it is.
	 */
	private async attempt(call: Call, strict: boolean): Promise<Outcome> {
		const options: IHttpRequestOptions = {
			method: call.method as IHttpRequestMethods,
			url: call.url,
			headers: { ...call.headers },
			encoding: 'arraybuffer',
			json: false,
			returnFullResponse: true,
			disableFollowRedirect: true,
			timeout: this.settings.timeoutMs,
			ignoreHttpStatusErrors: !strict,
		};
		if (call.qs) options.qs = { ...call.qs };
		if (call.body !== undefined) options.body = call.body;
		try {
			const response = (await this.ctx.helpers.httpRequestWithAuthentication.call(this.ctx, this.credentialType, options)) as FullResponse;
			const headers = response.headers ?? {};
			return { status: response.statusCode, headers, bodyText: bodyToText(response.body), body: response.body };
		} catch (error) {
			const failure = readHttpFailure(error);
			if (failure.status !== undefined) return { status: failure.status, headers: failure.headers, bodyText: failure.bodyText, body: failure.bodyText };
			return { headers: failure.headers, bodyText: failure.bodyText, failure, error };
		}
	}

	/** The credential could not be read or is set up wrongly: nothing was sent. */
	private async settingsError(request: ApiRequest, error: unknown): Promise<Error> {
		const failure = readHttpFailure(error);
		if (failure.authErrorMessage !== undefined) return await this.failureError(request, failure, error, { attempts: 1, waitedMs: 0 });
		if (error instanceof NodeApiError || error instanceof NodeOperationError) return error;
		return new NodeOperationError(this.ctx.getNode(), error as Error, { itemIndex: request.itemIndex });
	}

	/** Adds every token known now (stored credential, tokens renewed by other requests in this process). */
	private async refreshSecrets(): Promise<void> {
		const resolved = await this.resolved?.catch(() => undefined);
		if (resolved?.login) for (const token of knownTokens(resolved.login)) this.secrets.add(token);
		try {
			const current = (await this.ctx.getCredentials(this.credentialType)) as IDataObject;
			this.secrets.merge(credentialSecrets(current));
		} catch {
			// the credential cannot be read (deleted meanwhile): the secrets known so far still apply
		}
	}

	/** An error with these words, secrets redacted, for the request's item. */
	private async apiError(request: ApiRequest, text: ErrorText): Promise<NodeApiError> {
		await this.refreshSecrets();
		const redact = (value: string) => this.secrets.redact(value);
		return makeApiError(this.ctx.getNode(), { message: redact(text.message), description: redact(text.description), httpCode: text.httpCode }, request.itemIndex);
	}

	private async failureError(request: ApiRequest, failure: HttpFailure, original: unknown, info: AttemptInfo): Promise<Error> {
		const notHttp = failure.authErrorMessage === undefined && failure.status === undefined && failure.networkCode === undefined;
		if (notHttp && (original instanceof NodeApiError || original instanceof NodeOperationError)) {
			await this.refreshSecrets();
			return keptError(this.ctx.getNode(), original, (text) => this.secrets.redact(text), request.itemIndex);
		}
		const throttled = isThrottle(failure.status, failure.headers, failure.bodyText);
		return await this.apiError(request, failureText(routeOf(request.method, request.path), failure, info, this.settings, throttled));
	}
}

/** What goes out on every attempt (a redirect changes the URL). */
type Call = { method: string; url: string; qs?: IDataObject; headers: IDataObject; body?: Buffer | string };

/**
 * One request's state across its attempts: what the budget charges it (`account`: time waited,
 * throttling episodes); `retries` (5xx, network) count against Max Retries; `answered`: the
 * service answered once (any status); `maybeProcessed`: a 5xx, or no answer after the request
 * was written; `resend`: the next start goes first in its lane; `last`: the failure to report;
 * `strict`: n8n throws error statuses (always on n8n 2.x, which keeps their headers; on n8n 1.x
 * only for the one resend after a 401, so that n8n runs the credential's preAuthentication).
 */
interface RequestState {
	call: Call;
	account: RequestAccount;
	attempts: number;
	retries: number;
	redirects: number;
	strict: boolean;
	loginWaits: number;
	answered: boolean;
	maybeProcessed: boolean;
	resend: boolean;
	last?: { failure: HttpFailure; error: unknown };
}

type FullResponse = { statusCode: number; headers?: Record<string, unknown>; body?: unknown };

/** A node parameter that cannot vary per item, in any kind of context. */
export function nodeParameter(ctx: ClientContext, name: string, fallback: unknown): unknown {
	if ('getInputData' in ctx) return ctx.getNodeParameter(name, 0, fallback);
	return (ctx as ILoadOptionsFunctions).getNodeParameter(name, fallback);
}

/** The authentication the node is set to. */
export function readAuthentication(ctx: ClientContext): AuthenticationMethod {
	const value = nodeParameter(ctx, 'authentication', 'password');
	if (value === 'password' || value === 'oAuth2' || value === 'contractor') return value;
	throw new NodeOperationError(ctx.getNode(), `Unknown authentication "${String(value)}"`, {
		description: 'Choose Password Grant, Authorization Code (OAuth2) or Contractor (JWT) in the node.',
	});
}
