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

import { meaningOf, withMeaning, type ItemOutcome } from '../helpers/errorMeaning';
import { MaxWaitExceeded, budgetFor, type Episode, type Lane } from './budget';
import {
	ERRORS_KEEP_RESPONSE,
	apiError,
	failureText,
	keptError,
	readHttpFailure,
	redirectText,
	routeOf,
	throttledTooLongText,
	type ErrorText,
} from './errors';
import { parseBody } from './losslessJson';
import { buildMultipart, type MultipartPart } from './multipart';
import {
	READ_METHODS,
	bodyToText,
	isThrottle,
	maxWaitReason,
	next,
	originOf,
	apiBaseUrl,
	type Attempt,
	type Request,
} from './policy';
import { SecretSet, credentialSecrets, seenTokens } from './secrets';

/**
 * The only code of the node that speaks HTTP to the API, file downloads included; one client per
 * execution, trigger poll or dropdown. `send` (and `sendFile`): wait for a start in the budget
 * (budget.ts), one attempt through n8n's `httpRequestWithAuthentication` (the credential signs it
 * and logs in, auth/tokens.ts; only to the API Base URL's origin, `signs`), tell the budget, do
 * what the policy says (policy.ts). An error it raises carries what it means (helpers/errorMeaning.ts).
 */

export type AuthenticationMethod = 'password' | 'oAuth2' | 'contractor';

// a named constant: the lint takes a value keyed `oAuth2` for a secret
const CODE_GRANT_CREDENTIAL = 'workOrderServiceOAuth2Api';
export const CREDENTIAL_TYPES: Record<AuthenticationMethod, string> = {
	password: 'workOrderServiceApi',
	oAuth2: CODE_GRANT_CREDENTIAL,
	contractor: 'workOrderServiceContractorApi',
};

export type ClientContext =
	| IExecuteFunctions
	| ILoadOptionsFunctions
	| IPollFunctions
	| IHookFunctions
	| IWebhookFunctions;

export interface ApiRequest {
	method: IHttpRequestMethods;
	/** Below {base_url}/v3, starting with '/', user values already encoded. */
	path: string;
	qs?: IDataObject;
	/** JSON body; serialized here so that an empty object is still sent. */
	body?: unknown;
	multipart?: MultipartPart[];
	itemIndex?: number;
	/**
	 * Never sent again once it may have been processed (no answer after it was written, or a 5xx),
	 * even for an idempotent method: a PUT whose effect must not be repeated (the invoice moves).
	 */
	once?: boolean;
}

export interface ApiResponse {
	statusCode: number;
	headers: Record<string, unknown>;
	/** Parsed JSON (integers beyond 2^53 as exact strings), or text, or undefined for no body. */
	body: unknown;
}

/** In flight at once when Request Options set none (safe to repeat): 100 items at 200 ms in 4 round trips. */
export const DEFAULT_CONCURRENCY = 30;

const DEFAULT_SETTINGS = {
	maxRetries: 3,
	maxWaitMs: 120_000,
	requestsPerMinute: 0,
	timeoutMs: 60_000,
	concurrency: DEFAULT_CONCURRENCY,
};
/** The node's Request Options (descriptions/requestOptions.ts). */
export type RequestSettings = typeof DEFAULT_SETTINGS;

/** The "Request Options" collection, read once per execution; `concurrency`: the default when it sets none. */
export function readSettings(
	raw: IDataObject | undefined,
	concurrency = DEFAULT_SETTINGS.concurrency,
): RequestSettings {
	const number = (value: unknown, fallback: number, min: number, max: number) => {
		const n = typeof value === 'string' && value.trim() !== '' ? Number(value) : value;
		return typeof n === 'number' && Number.isFinite(n) ? Math.min(max, Math.max(min, n)) : fallback;
	};
	const options = raw ?? {};
	return {
		maxRetries: Math.floor(number(options.maxRetries, DEFAULT_SETTINGS.maxRetries, 0, 10)),
		maxWaitMs: number(options.maxWaitSeconds, DEFAULT_SETTINGS.maxWaitMs / 1000, 0, 3600) * 1000,
		requestsPerMinute: number(
			options.requestsPerMinute,
			DEFAULT_SETTINGS.requestsPerMinute,
			0,
			100_000,
		),
		timeoutMs: number(options.timeoutSeconds, DEFAULT_SETTINGS.timeoutMs / 1000, 1, 3600) * 1000,
		concurrency: Math.floor(number(options.concurrency, concurrency, 1, 100)),
	};
}

const OUTCOME_RANK: Record<ItemOutcome, number> = {
	recorded: 3,
	maybe: 2,
	answered: 1,
	notSent: 0,
};

/** The credential as read once: `apiUrl` = {API Base URL}/v3. Its login settings are the credential's to check (auth/tokens.ts, called by n8n). */
type Resolved = {
	credentials: ICredentialDataDecryptedObject;
	apiUrl: string;
	apiOrigin: string;
};

/** A file's body as n8n's request helpers hand it back with `encoding: 'stream'` (a Readable). */
export type FileStream = Parameters<IExecuteFunctions['helpers']['prepareBinaryData']>[0] & {
	push: (chunk: unknown, encoding?: string) => boolean;
	destroy: (error?: Error) => void;
};

/** What a file request came to: the last answer (its body unread, whatever its status), or why none came. */
export interface FileResult {
	/** The address of the last hop. */
	url: string;
	/** The last hop went to the API's origin, with the credential. */
	signed: boolean;
	/** A 401 was answered and the request sent again along n8n's renewing path. */
	renewed: boolean;
	status?: number;
	headers: Record<string, unknown>;
	body?: FileStream;
	/** No answer: the network code, when known. */
	networkCode?: string;
	/** A redirect that was not followed: why. */
	redirectRefused?: string;
	attempts: number;
}

const discard = (body: unknown) => (body as Partial<FileStream> | undefined)?.destroy?.();

export class WorkOrderServiceClient {
	readonly credentialType: string;
	/** Whether n8n keeps binary data in the items (transport/download.ts asks once per execution). */
	filesInItems?: Promise<boolean>;
	private resolved?: Promise<Resolved>;
	private lane?: Lane;
	private added?: SecretSet;
	/** The strongest outcome per item index. */
	private readonly outcomes = new Map<number, ItemOutcome>();
	/** Work an operation shares across the items of this execution (one bulk request for many items). */
	private readonly shared = new Map<string, unknown>();

	constructor(
		private readonly ctx: ClientContext,
		readonly authentication: AuthenticationMethod,
		readonly settings: RequestSettings,
	) {
		this.credentialType = CREDENTIAL_TYPES[authentication];
	}

	/** What `make` returns, made once per execution (the client's life) for `key`. */
	perExecution<T>(key: string, make: () => T): T {
		if (!this.shared.has(key)) this.shared.set(key, make());
		return this.shared.get(key) as T;
	}

	/** Authentication and Request Options are read once: they cannot vary per item. */
	static forNode(ctx: ClientContext, concurrency?: number): WorkOrderServiceClient {
		let raw: IDataObject | undefined;
		try {
			raw = nodeParameter(ctx, 'requestOptions', {}) as IDataObject | undefined;
		} catch {
			raw = undefined;
		}
		return new WorkOrderServiceClient(ctx, readAuthentication(ctx), readSettings(raw, concurrency));
	}

	/** Secrets beyond the credential's that errors must never show (a signing key); made when first needed. */
	get secrets(): SecretSet {
		return (this.added ??= new SecretSet());
	}

	itemOutcome(i: number): ItemOutcome | undefined {
		return this.outcomes.get(i);
	}

	private noteOutcome(itemIndex: number | undefined, outcome: ItemOutcome): void {
		const known = itemIndex === undefined ? undefined : this.outcomes.get(itemIndex);
		if (
			itemIndex !== undefined &&
			(known === undefined || OUTCOME_RANK[outcome] > OUTCOME_RANK[known])
		)
			this.outcomes.set(itemIndex, outcome);
	}

	private async resolve(): Promise<Resolved> {
		const pending = (this.resolved ??= (async () => {
			const credentials = (await this.ctx.getCredentials(
				this.credentialType,
			)) as ICredentialDataDecryptedObject;
			const base = apiBaseOf(this.ctx, credentials);
			return { credentials, apiUrl: `${base}/v3`, apiOrigin: originOf(base) ?? base };
		})());
		// a failure is not kept: a later item (Continue On Fail) tries again
		pending.catch(() => {
			if (this.resolved === pending) this.resolved = undefined;
		});
		return await pending;
	}

	/** {API Base URL}/v3, as the credential says it. */
	async apiUrl(itemIndex?: number): Promise<string> {
		const resolved = await this.resolve().catch(async (error: unknown) => {
			throw await this.settingsError({ method: 'GET', path: '', itemIndex }, error);
		});
		return resolved.apiUrl;
	}

	async request(request: ApiRequest): Promise<unknown> {
		return (await this.send(request)).body;
	}

	async send(request: ApiRequest): Promise<ApiResponse> {
		const resolved = await this.resolve().catch(async (error: unknown) => {
			throw await this.settingsError(request, error);
		});
		const state = await this.prepare(resolved, request);
		const { step, attempt } = await this.run(resolved, request, state);
		if (step === 'fail') throw await this.failed(request, state);
		this.noteOutcome(request.itemIndex, READ_METHODS.has(state.method) ? 'answered' : 'recorded');
		// a 204 (or any empty answer) has nothing to parse
		const raw = attempt.body as { length?: number } | undefined;
		const empty = raw === undefined || raw === null || raw.length === 0;
		return {
			statusCode: attempt.status as number,
			headers: attempt.headers,
			body: empty ? undefined : parseBody(attempt.headers, raw),
		};
	}

	/**
	 * GET of a file at `url` (absolute http(s)), along the same loop as `send`: the API origin's
	 * requests in the budget, the policy's retries, redirects followed to any http(s) origin (a
	 * pre-signed storage link), every hop signed only on the API origin. Gives the last answer
	 * whatever its status (the caller words a refusal); throws for a failed login or Max Wait.
	 */
	async sendFile(url: string, itemIndex: number): Promise<FileResult> {
		const target = new URL(url);
		const request: ApiRequest = {
			method: 'GET',
			path: `${target.origin}${target.pathname}`,
			itemIndex,
		};
		const resolved = await this.resolve().catch(async (error: unknown) => {
			throw await this.settingsError(request, error);
		});
		const state = this.newRequest(resolved, 'GET', target.href, true);
		const { step, attempt } = await this.run(resolved, request, state);
		const last = step === 'done' ? attempt : (state.last as Attempt);
		const notHttp = last.status === undefined && last.failure?.networkCode === undefined;
		if (step === 'fail' && (last.failure?.login !== undefined || notHttp))
			throw await this.failed(request, state);
		this.noteOutcome(itemIndex, state.answered ? 'answered' : 'notSent');
		return {
			url: state.url,
			signed: this.signs(state),
			renewed: state.strict,
			status: last.status,
			headers: last.headers,
			body: last.body as FileStream | undefined,
			networkCode: last.failure?.networkCode,
			redirectRefused: state.redirectRefused,
			attempts: state.attempts,
		};
	}

	/** An error in this client's words: secrets removed, what it means carried (helpers/errorMeaning.ts). */
	async error(text: ErrorText, itemIndex: number, outcome: ItemOutcome): Promise<NodeApiError> {
		return apiError(this.ctx.getNode(), text, itemIndex, await this.redactor(), outcome);
	}

	/** The token-origin rule: a request goes through the credential only to the API Base URL's origin. */
	private signs(state: Request): boolean {
		return originOf(state.url) === state.apiOrigin;
	}

	/** Attempts until the policy says done or fail: a start in the budget (requests to the API origin), one attempt, the policy's step. */
	private async run(
		resolved: Resolved,
		request: ApiRequest,
		state: Request,
	): Promise<{ step: 'done' | 'fail'; attempt: Attempt }> {
		this.lane ??= budgetFor(
			`${resolved.apiUrl}\n${String(resolved.credentials.clientId ?? '')}`,
			this.settings.concurrency,
		).lane(this.settings.concurrency, this.settings.requestsPerMinute);
		const lane = this.lane;
		for (;;) {
			const signed = this.signs(state);
			if (signed)
				await lane
					.acquire(state, Math.max(0, this.settings.maxWaitMs - state.waitedMs))
					.catch(async (error: unknown) => {
						throw await this.notStarted(request, state, error);
					});
			const attempt = await this.attempt(state, signed);
			if (signed) lane.release(state, attempt);
			const step = next(state, attempt, lane.budget.throttleWait(state));
			if (step !== 'again') return { step, attempt };
			discard(attempt.body);
			if (state.sleepMs > 0) await sleep(state.sleepMs);
		}
	}

	private newRequest(resolved: Resolved, method: string, url: string, file = false): Request {
		return {
			method,
			url,
			headers: { Accept: file ? '*/*' : 'application/json' },
			file,
			apiOrigin: resolved.apiOrigin,
			maxRetries: this.settings.maxRetries,
			maxWaitMs: this.settings.maxWaitMs,
			// n8n's OAuth2 layer refreshes only on a 401 it meets itself: strict on every n8n version;
			// a file's answer is read whatever its status (a 401 is sent again strictly: policy.ts)
			strict: !file && (ERRORS_KEEP_RESPONSE || this.authentication === 'oAuth2'),
			...{ attempts: 0, retries: 0, redirects: 0, loginWaits: 0, waitedMs: 0, sleepMs: 0 },
			...{ episodes: new Set<Episode>(), resend: false, answered: false, maybeProcessed: false },
		};
	}

	private async prepare(resolved: Resolved, request: ApiRequest): Promise<Request> {
		const state = this.newRequest(resolved, request.method.toUpperCase(), resolved.apiUrl);
		const headers = state.headers;
		let body: Buffer | string | undefined;
		if (request.multipart) {
			const multipart = await buildMultipart(request.multipart);
			body = multipart.body;
			headers['Content-Type'] = multipart.contentType;
		} else if (request.body !== undefined) {
			body = JSON.stringify(request.body);
			headers['Content-Type'] = 'application/json';
		}
		state.url += request.path;
		state.qs = request.qs && Object.keys(request.qs).length ? { ...request.qs } : undefined;
		state.body = body;
		state.once = request.once === true;
		return state;
	}

	/** Never throws: an error status, a failure without an answer or a failed login comes back as what it is. */
	private async attempt(state: Request, signed: boolean): Promise<Attempt> {
		const options: IHttpRequestOptions = {
			method: state.method as IHttpRequestMethods,
			url: state.url,
			headers: { ...state.headers },
			encoding: state.file ? 'stream' : 'arraybuffer',
			json: false,
			returnFullResponse: true,
			disableFollowRedirect: true,
			timeout: this.settings.timeoutMs,
			ignoreHttpStatusErrors: !state.strict,
		};
		if (state.qs) options.qs = { ...state.qs };
		if (state.body !== undefined) options.body = state.body;
		try {
			const answer = await (signed
				? this.ctx.helpers.httpRequestWithAuthentication.call(
						this.ctx,
						this.credentialType,
						options,
					)
				: this.ctx.helpers.httpRequest(options));
			const { statusCode, headers = {}, body } = answer as ApiResponse;
			const ok = statusCode >= 200 && statusCode < 300;
			return {
				status: statusCode,
				headers,
				body,
				bodyText: ok || state.file ? '' : bodyToText(body),
			};
		} catch (error) {
			const failure = readHttpFailure(error);
			if (failure.status !== undefined)
				return {
					status: failure.status,
					headers: failure.headers,
					bodyText: failure.bodyText,
					body: state.file ? undefined : failure.bodyText,
				};
			return { headers: failure.headers, bodyText: failure.bodyText, failure, error };
		}
	}

	/** The error of a request the policy gave up on: a redirect it did not follow, or the last failure. */
	private async failed(
		request: ApiRequest,
		state: Request,
		waitedMs = state.waitedMs,
	): Promise<Error> {
		const info = { attempts: state.attempts, waitedMs, gaveUp: state.gaveUp };
		const last = state.last as Attempt;
		const refused = state.redirectRefused;
		const outcome: ItemOutcome =
			refused !== undefined
				? 'answered'
				: state.maybeProcessed
					? 'maybe'
					: state.answered
						? 'answered'
						: 'notSent';
		this.noteOutcome(request.itemIndex, outcome);
		if (refused !== undefined) {
			const route = routeOf(request.method, request.path);
			const text = redirectText(route, last.status ?? 0, refused, info);
			return apiError(this.ctx.getNode(), text, request.itemIndex, await this.redactor(), outcome);
		}
		const failure = last.failure ?? {
			status: last.status,
			headers: last.headers,
			bodyText: last.bodyText,
		};
		return await this.failureError(request, failure, last.error, info, outcome);
	}

	/** The budget did not let the request start (again) within its Max Wait. */
	private async notStarted(request: ApiRequest, state: Request, error: unknown): Promise<Error> {
		if (!(error instanceof MaxWaitExceeded)) return error as Error;
		state.gaveUp = `the service kept throttling: ${maxWaitReason(error.nextWaitMs, this.settings.maxWaitMs)}`;
		if (state.last) return await this.failed(request, state, error.waitedMs);
		// never sent: the application's requests were paused for longer than this request's Max Wait
		this.noteOutcome(request.itemIndex, 'notSent');
		return apiError(
			this.ctx.getNode(),
			throttledTooLongText(routeOf(request.method, request.path), state.gaveUp, this.settings),
			request.itemIndex,
			await this.redactor(),
			'notSent',
		);
	}

	private async settingsError(request: ApiRequest, error: unknown): Promise<Error> {
		const failure = readHttpFailure(error);
		const info = { attempts: 1, waitedMs: 0 };
		if (failure.login) return await this.failureError(request, failure, error, info, 'notSent');
		const kept =
			error instanceof NodeApiError || error instanceof NodeOperationError
				? error
				: new NodeOperationError(this.ctx.getNode(), error as Error, {
						itemIndex: request.itemIndex,
					});
		return meaningOf(kept)
			? kept
			: withMeaning(kept, { kind: 'configuration', outcome: 'notSent' });
	}

	private async failureError(
		request: ApiRequest,
		failure: ReturnType<typeof readHttpFailure>,
		original: unknown,
		info: { attempts: number; waitedMs: number; gaveUp?: string },
		outcome: ItemOutcome,
	): Promise<Error> {
		const redact = await this.redactor();
		const notHttp =
			!failure.login && failure.status === undefined && failure.networkCode === undefined;
		if (notHttp && (original instanceof NodeApiError || original instanceof NodeOperationError))
			return keptError(this.ctx.getNode(), original, redact, request.itemIndex, outcome);
		const throttled = isThrottle(failure.status, failure.headers, failure.bodyText);
		return apiError(
			this.ctx.getNode(),
			failureText(routeOf(request.method, request.path), failure, info, this.settings, throttled),
			request.itemIndex,
			redact,
			outcome,
		);
	}

	/** Removes every secret known now: the credential's (as read, and as stored now), every token seen in this process for it, and those added. */
	private async redactor(): Promise<(text: string) => string> {
		const secrets = new SecretSet().merge(this.secrets);
		const resolved = await this.resolved?.catch(() => undefined);
		// a credential that cannot be read (deleted meanwhile): the secrets known so far still apply
		const stored = await this.ctx.getCredentials(this.credentialType).catch(() => undefined);
		for (const credentials of [resolved?.credentials, stored]) {
			if (!credentials) continue;
			credentialSecrets(credentials, secrets);
			for (const token of seenTokens(credentials.tokenIdentity)) secrets.add(token);
		}
		return (text) => secrets.redact(text);
	}
}

/** The credential's API Base URL (without /v3), or an error that says how to set it. */
export function apiBaseOf(ctx: ClientContext, credentials: IDataObject): string {
	const base = apiBaseUrl(credentials.baseUrl);
	if (base !== undefined) return base;
	throw new NodeOperationError(
		ctx.getNode(),
		"The credential's API Base URL must be an http(s) URL",
		{
			description:
				'Open the credential and set API Base URL, e.g. https://api.example.com (the node appends /v3).',
		},
	);
}

/** A node parameter that cannot vary per item, in any kind of context. */
export function nodeParameter(ctx: ClientContext, name: string, fallback: unknown): unknown {
	if ('getInputData' in ctx) return ctx.getNodeParameter(name, 0, fallback);
	return (ctx as ILoadOptionsFunctions).getNodeParameter(name, fallback);
}

export function readAuthentication(ctx: ClientContext): AuthenticationMethod {
	const value = nodeParameter(ctx, 'authentication', 'password');
	if (value === 'password' || value === 'oAuth2' || value === 'contractor') return value;
	throw new NodeOperationError(ctx.getNode(), `Unknown authentication "${String(value)}"`, {
		description:
			'Choose Password Grant, Authorization Code (OAuth2) or Contractor (JWT) in the node.',
	});
}
