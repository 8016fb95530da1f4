import type {
	ICredentialDataDecryptedObject,
	IDataObject,
	IExecuteFunctions,
	IHttpRequestMethods,
	IHttpRequestOptions,
	ILoadOptionsFunctions,
	IPollFunctions,
	JsonObject,
} from 'n8n-workflow';
import { NodeApiError, NodeOperationError, sleep } from 'n8n-workflow';

import { headerValue, originOf, parseRetryAfter } from '../auth/http';
import { SecretSet, credentialSecrets } from '../auth/secrets';
import {
	adoptStored,
	claimPersist,
	isOwnToken,
	isUsable,
	knownTokens,
	obtainToken,
	rejectToken,
} from '../auth/tokenBroker';
import { loginConfig, normalizeBaseUrl, type LoginConfig, type StoredToken } from '../auth/tokenClient';
import {
	bodyToText,
	hintForStatus,
	readHttpFailure,
	serviceErrorCode,
	serviceMessage,
	statusLabel,
	type HttpFailure,
} from './errors';
import {
	MaxWaitExceeded,
	backoffMs,
	budgetFor,
	ownThrottles,
	type Lane,
	type RequestAccount,
	type Verdict,
} from './limiter';
import { parseJsonLossless } from './losslessJson';
import { buildMultipart, type MultipartPart } from './multipart';

/**
 * The only code of the node that speaks HTTP. One client per execution (built by the router, the
 * trigger's poll or a dropdown's loader) holds what every request needs: the credential type and
 * its settings, the API Base URL, the secrets to keep out of messages, the request settings and
 * the execution's lane in its application's request budget (limiter.ts). Operations hand it a
 * path and get parsed bodies back; the router reads what became of each item's requests.
 *
 * Rules it enforces:
 * - The token goes only to the origin of the credential's API Base URL. Redirects are not followed
 *   by n8n's request layer; the client follows a redirect itself only to the same origin (any
 *   method for 307/308, reads for 301/302/303) and refuses one to another origin with an error
 *   naming that origin.
 * - Logins are coordinated (see credentials/common/tokenBroker.ts): a 401 renews the token once
 *   (the body, always a Buffer, is sent again) and any concurrent requests share the renewal.
 * - Throttling (429; 503 with a Retry-After header or saying it is a rate limit) is handled by the
 *   application's budget (limiter.ts): it means "not processed", so every method is sent again,
 *   within Max Wait; a throttled answer counts against Max Retries only when no other request
 *   was throttled with it.
 * - A failure before any byte was sent (refused, no such host, TLS, connect timeout) is retried
 *   for every method within Max Retries and reported as not sent. 5xx answers and failures after
 *   the request was written are retried for reads and status changes only: a POST that may have
 *   been processed is never resent, and a request that got no answer within the Timeout is not
 *   resent either.
 */

export type AuthenticationMethod = 'password' | 'oAuth2' | 'contractor';

const PASSWORD_GRANT_CREDENTIAL = 'workOrderServiceApi';
const CODE_GRANT_CREDENTIAL = 'workOrderServiceOAuth2Api';
const CONTRACTOR_CREDENTIAL = 'workOrderServiceContractorApi';

export const CREDENTIAL_TYPES: Record<AuthenticationMethod, string> = {
	password: PASSWORD_GRANT_CREDENTIAL,
	oAuth2: CODE_GRANT_CREDENTIAL,
	contractor: CONTRACTOR_CREDENTIAL,
};

export type ClientContext = IExecuteFunctions | ILoadOptionsFunctions | IPollFunctions;

export interface RequestSettings {
	maxRetries: number;
	maxWaitMs: number;
	requestsPerMinute: number;
	timeoutMs: number;
	concurrency: number;
}

export const DEFAULT_SETTINGS: RequestSettings = {
	maxRetries: 3,
	maxWaitMs: 120_000,
	requestsPerMinute: 0,
	timeoutMs: 60_000,
	concurrency: 20,
};

function numberSetting(value: unknown, fallback: number, min: number, max: number): number {
	const n = typeof value === 'string' && value.trim() !== '' ? Number(value) : value;
	if (typeof n !== 'number' || !Number.isFinite(n)) return fallback;
	return Math.min(max, Math.max(min, n));
}

/** The node's "Request Options" collection, read once per execution. */
export function readSettings(raw: IDataObject | undefined): RequestSettings {
	const options = raw ?? {};
	return {
		maxRetries: Math.floor(numberSetting(options.maxRetries, DEFAULT_SETTINGS.maxRetries, 0, 10)),
		maxWaitMs: numberSetting(options.maxWaitSeconds, DEFAULT_SETTINGS.maxWaitMs / 1000, 0, 3600) * 1000,
		requestsPerMinute: numberSetting(options.requestsPerMinute, DEFAULT_SETTINGS.requestsPerMinute, 0, 100_000),
		timeoutMs: numberSetting(options.timeoutSeconds, DEFAULT_SETTINGS.timeoutMs / 1000, 1, 3600) * 1000,
		concurrency: Math.floor(numberSetting(options.concurrency, DEFAULT_SETTINGS.concurrency, 1, 100)),
	};
}

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

/** What one attempt brought back: an answer (any status) or a failure without one. */
type Attempt =
	| { kind: 'answer'; status: number; headers: Record<string, unknown>; body: unknown; sentToken?: string }
	| { kind: 'failure'; failure: HttpFailure; error: unknown };

interface Resolved {
	credentials: ICredentialDataDecryptedObject;
	/** {API Base URL}/v3 */
	apiUrl: string;
	apiOrigin: string;
	/** Token logins (password grant, contractor) are coordinated by the client; OAuth2 by n8n. */
	login?: LoginConfig;
	nodeCredentials: { id: string; name: string };
}

const IDEMPOTENT_METHODS = new Set(['GET', 'HEAD', 'OPTIONS', 'PUT', 'DELETE']);
const READ_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

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

/** A 429, or a 503 that says it throttles (a Retry-After header, or words to that effect). */
function isThrottle(status: number | undefined, headers: Record<string, unknown>, bodyText: string): boolean {
	if (status === 429) return true;
	if (status !== 503) return false;
	if (headerValue(headers, 'retry-after') !== undefined) return true;
	return /rate limit|too many requests|throttl/i.test(serviceMessage(bodyText, headerValue(headers, 'content-type') ?? '') ?? '');
}
const MAX_REDIRECTS = 5;
/**
 * A request refused with 401 is sent again after one renewal; again only while the token it was
 * refused with had been read from n8n's store (another worker may have saved it just before the
 * service revoked every token), never after a token this process itself just obtained.
 */
const MAX_RENEWALS = 3;

function parseBody(headers: Record<string, unknown>, raw: unknown): unknown {
	const text = bodyToText(raw);
	if (text.trim() === '') return undefined;
	const contentType = headerValue(headers, 'content-type') ?? '';
	if (/json/i.test(contentType) || /^\s*[[{]/.test(text)) {
		try {
			return parseJsonLossless(text);
		} catch {
			// fall through: return the text as it came
		}
	}
	return text;
}

/** A plain object with the same own properties; no key (`__proto__` included) can touch a prototype. */
export function ownRecord(entries: Iterable<[string, unknown]>): IDataObject {
	const record: IDataObject = {};
	for (const [key, value] of entries) {
		Object.defineProperty(record, key, { value, enumerable: true, writable: true, configurable: true });
	}
	return record;
}

/** The body as one record: an object as it came, anything else wrapped as `{ value }`, nothing as undefined. */
export function asRecord(body: unknown): IDataObject | undefined {
	if (body === undefined) return undefined;
	if (body !== null && typeof body === 'object' && !Array.isArray(body)) return body as IDataObject;
	return { value: body as string };
}

export class WorkOrderServiceClient {
	readonly credentialType: string;

	/** Every secret in every encoding: credential fields and every token seen in this run. */
	readonly secrets = new SecretSet();

	private resolved?: Promise<Resolved>;

	private token?: StoredToken;

	private lastToken?: IDataObject;

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
	 * they cannot vary per item).
	 */
	static forNode(ctx: ClientContext): WorkOrderServiceClient {
		let raw: IDataObject | undefined;
		try {
			raw = nodeParameter(ctx, 'requestOptions', {}) as IDataObject | undefined;
		} catch {
			raw = undefined;
		}
		return new WorkOrderServiceClient(ctx, readAuthentication(ctx), readSettings(raw));
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
			const node = this.ctx.getNode();
			const details = node.credentials?.[this.credentialType];
			const resolved: Resolved = {
				credentials,
				apiUrl: `${base}/v3`,
				apiOrigin: originOf(base) ?? base,
				nodeCredentials: { id: String(details?.id ?? ''), name: String(details?.name ?? this.credentialType) },
			};
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
		const settled = await this.resolve().then(
			(value) => ({ value }),
			(error: unknown) => ({ error }),
		);
		if ('error' in settled) throw await this.settingsError(request, settled.error);
		const resolved = settled.value;
		const method = request.method.toUpperCase();
		let url = `${resolved.apiUrl}${request.path}`;
		let qs = request.qs && Object.keys(request.qs).length ? { ...request.qs } : undefined;

		let body: Buffer | string | undefined;
		const headers: IDataObject = { Accept: 'application/json' };
		if (request.multipart) {
			const multipart = await buildMultipart(request.multipart);
			body = multipart.body;
			headers['Content-Type'] = multipart.contentType;
		} else if (request.body !== undefined) {
			body = JSON.stringify(request.body);
			headers['Content-Type'] = 'application/json';
		}

		const lane = this.laneOf(resolved);
		const account: RequestAccount = { waitedMs: 0, episodes: new Set() };
		const track: Tracking = { attempts: 0, retries: 0, answered: false, maybeProcessed: false, isWrite: !READ_METHODS.has(method) };
		let redirects = 0;
		let renewals = 0;
		let resend = false;
		let last: { failure: HttpFailure; error: unknown } | undefined;
		for (;;) {
			let ticket;
			try {
				ticket = await lane.acquire(account, resend, Math.max(0, this.settings.maxWaitMs - account.waitedMs));
			} catch (error) {
				throw await this.notStartedError(request, error, last, track, account);
			}
			track.attempts++;
			const attempt = await this.attempt(resolved, method, url, qs, headers, body);
			const status = attempt.kind === 'answer' ? attempt.status : attempt.failure.status;
			const answerHeaders = attempt.kind === 'answer' ? attempt.headers : attempt.failure.headers;
			const bodyText = attempt.kind === 'answer' ? bodyToText(attempt.body) : attempt.failure.bodyText;
			const retryAfterMs = parseRetryAfter(headerValue(answerHeaders, 'retry-after'));
			const throttled = isThrottle(status, answerHeaders, bodyText);
			// whole seconds and HTTP dates say when within a second; "1.5" says it exactly
			const grainMs = /^\s*\d+\.\d+\s*$/.test(headerValue(answerHeaders, 'retry-after') ?? '') ? 1 : 1000;
			const verdict: Verdict =
				status === undefined ? { kind: 'noAnswer' } : throttled ? { kind: 'throttled', retryAfterMs, grainMs } : { kind: 'accepted' };
			lane.release(ticket, verdict, account);
			if (status !== undefined) track.answered = true;

			if (attempt.kind === 'answer' && status !== undefined && status >= 200 && status < 300) {
				this.noteOutcome(request.itemIndex, track.isWrite ? 'recorded' : 'answered');
				return { statusCode: status, headers: attempt.headers, body: parseBody(attempt.headers, attempt.body) };
			}

			// Redirects: the same origin only; never carry the token anywhere else.
			if (status !== undefined && status >= 300 && status < 400) {
				const location = headerValue(answerHeaders, 'location');
				const target = location ? safeUrl(location, url) : undefined;
				const targetOrigin = target ? originOf(target) : undefined;
				const reason =
					target === undefined
						? 'a redirect without a usable Location'
						: targetOrigin !== resolved.apiOrigin
							? `a redirect to another origin (${targetOrigin ?? target.split('/').slice(0, 3).join('/')}), which was not followed, so the credential's token was not sent there`
							: redirects >= MAX_REDIRECTS
								? `more than ${MAX_REDIRECTS} redirects`
								: !(method === 'GET' || method === 'HEAD' || status === 307 || status === 308)
									? `a redirect (HTTP ${status}) that would turn this ${method} into a different request, so it was not sent again`
									: undefined;
				if (reason !== undefined || target === undefined) {
					this.noteOutcome(request.itemIndex, 'answered');
					throw await this.redirectError(request, status, reason ?? 'a redirect', { attempts: track.attempts, waitedMs: account.waitedMs });
				}
				redirects++;
				url = target;
				qs = undefined;
				continue;
			}

			// 401: renew the token (whoever renews first, everyone uses the result), then report.
			if (
				status === 401 &&
				resolved.login &&
				attempt.kind === 'answer' &&
				(renewals === 0 || (renewals < MAX_RENEWALS && !isOwnToken(resolved.login, attempt.sentToken)))
			) {
				renewals++;
				rejectToken(resolved.login, attempt.sentToken ?? '');
				if (this.token?.accessToken === attempt.sentToken) this.token = undefined;
				continue;
			}

			const failure: HttpFailure =
				attempt.kind === 'failure' ? attempt.failure : { status, headers: attempt.headers, bodyText };
			last = { failure, error: attempt.kind === 'failure' ? attempt.error : undefined };
			const timedOut = failure.status === undefined && !failure.notSent && /TIMEDOUT|ECONNABORTED/.test(failure.networkCode ?? '');
			// may have been processed: a 5xx, or no answer after the request was written (not a login failure)
			if ((failure.status !== undefined && failure.status >= 500 && !throttled) || (failure.status === undefined && failure.networkCode !== undefined && !failure.notSent)) {
				track.maybeProcessed = true;
			}

			if (throttled && failure.authErrorMessage === undefined) {
				// Not processed: sent again for every method, when the budget lets it start.
				const own = ownThrottles(account) + track.retries;
				if (own > this.settings.maxRetries) {
					throw await this.finalError(request, last, track, account, `Max Retries (${this.settings.maxRetries}) reached`);
				}
				const wait = lane.budget.waitAfterThrottle();
				if (!wait.charged) {
					// the budget knows when the service accepts again: this request's own wait
					if (account.waitedMs + wait.ms > this.settings.maxWaitMs) {
						throw await this.finalError(request, last, track, account, this.maxWaitReason(wait.ms));
					}
					account.waitedMs += wait.ms;
				}
				resend = true;
				continue;
			}

			const transient =
				(failure.status !== undefined && failure.status >= 500 && failure.status <= 599) ||
				(failure.status === undefined && failure.networkCode !== undefined && !timedOut);
			const retryable =
				failure.authErrorMessage === undefined &&
				(failure.notSent === true || (transient && IDEMPOTENT_METHODS.has(method)));
			if (retryable && track.retries < this.settings.maxRetries) {
				const delay = retryAfterMs ?? backoffMs(track.retries);
				if (account.waitedMs + delay <= this.settings.maxWaitMs) {
					account.waitedMs += delay;
					track.retries++;
					if (delay > 0) await sleep(delay);
					resend = true;
					continue;
				}
				throw await this.finalError(request, last, track, account, this.maxWaitReason(delay));
			}
			throw await this.finalError(request, last, track, account, retryable ? `Max Retries (${this.settings.maxRetries}) reached` : undefined);
		}
	}

	private maxWaitReason(nextMs: number): string {
		return `the next wait (${Math.ceil(nextMs / 1000)} s) would exceed Max Wait (${Math.round(this.settings.maxWaitMs / 1000)} s)`;
	}

	/** The error for a request that failed for good; its item's outcome is noted. */
	private async finalError(
		request: ApiRequest,
		last: { failure: HttpFailure; error: unknown },
		track: Tracking,
		account: RequestAccount,
		gaveUp: string | undefined,
	): Promise<Error> {
		const outcome: ItemOutcome = track.maybeProcessed ? 'maybe' : track.answered ? 'answered' : 'notSent';
		this.noteOutcome(request.itemIndex, outcome);
		const error = await this.failureError(request, last.failure, last.error, {
			attempts: track.attempts,
			waitedMs: account.waitedMs,
			gaveUp,
			outcome,
		});
		errorOutcomes.set(error, outcome);
		return error;
	}

	/** The budget did not let the request start (again) within its Max Wait. */
	private async notStartedError(
		request: ApiRequest,
		error: unknown,
		last: { failure: HttpFailure; error: unknown } | undefined,
		track: Tracking,
		account: RequestAccount,
	): Promise<Error> {
		if (!(error instanceof MaxWaitExceeded)) return error as Error;
		const gaveUp = `the service kept throttling: ${this.maxWaitReason(error.nextWaitMs)}`;
		if (last) return await this.finalError(request, last, track, { ...account, waitedMs: error.waitedMs }, gaveUp);
		// Never sent: the application's requests were paused for longer than this request's Max Wait.
		await this.refreshSecrets();
		const route = `${request.method.toUpperCase()} ${request.path.split('?')[0]}`;
		const message = `The request ${route} was not sent: the Work Order Service kept throttling this application's requests for longer than Max Wait (${Math.round(this.settings.maxWaitMs / 1000)} s)`;
		const description = `${this.throttleHint(gaveUp)} Nothing was sent for this item; running it again is safe.`;
		const built = makeApiError(this.ctx, this.secrets.redact(message), this.secrets.redact(description), undefined, request.itemIndex);
		this.noteOutcome(request.itemIndex, 'notSent');
		errorOutcomes.set(built, 'notSent');
		return built;
	}

	/** A usable token for a coordinated login; `persist` when n8n should save it with this request. */
	private async currentToken(resolved: Resolved): Promise<{ token: StoredToken; persist: boolean }> {
		const login = resolved.login as LoginConfig;
		if (!isUsable(this.token, login)) {
			this.token =
				adoptStored(login, resolved.credentials, resolved.nodeCredentials.id) ??
				(await obtainToken(
					login,
					{
						httpRequest: async (options) => await this.ctx.helpers.httpRequest(options),
						readStored: async () => (await this.ctx.getCredentials(this.credentialType)) as IDataObject,
						tokenTimeoutMs: this.settings.timeoutMs,
						credentialId: resolved.nodeCredentials.id,
					},
					// once this execution held a token, that (not the credential as first read) is what it knew
					this.lastToken ?? resolved.credentials,
				));
			this.lastToken = { ...this.token };
			this.secrets.add(this.token.accessToken).add(this.token.refreshToken);
		}
		return { token: this.token, persist: claimPersist(login, this.token, resolved.nodeCredentials.id) };
	}

	private async attempt(
		resolved: Resolved,
		method: string,
		url: string,
		qs: IDataObject | undefined,
		headers: IDataObject,
		body: Buffer | string | undefined,
	): Promise<Attempt> {
		const options: IHttpRequestOptions = {
			method: method as IHttpRequestMethods,
			url,
			headers: { ...headers },
			encoding: 'arraybuffer',
			json: false,
			returnFullResponse: true,
			disableFollowRedirect: true,
			timeout: this.settings.timeoutMs,
		};
		if (qs) options.qs = { ...qs };
		if (body !== undefined) options.body = body;
		const helpers = this.ctx.helpers;
		try {
			if (!resolved.login) {
				// OAuth2 (authorization code): n8n signs the request and refreshes the token under its own lock.
				const response = (await helpers.httpRequestWithAuthentication.call(this.ctx, this.credentialType, options)) as {
					statusCode: number;
					headers?: Record<string, unknown>;
					body?: unknown;
				};
				return { kind: 'answer', status: response.statusCode, headers: response.headers ?? {}, body: response.body };
			}
			const { token, persist } = await this.currentToken(resolved);
			// n8n saves what preAuthentication returns when the token field is empty: that is how a
			// token obtained here is persisted (once per token and process).
			const data: ICredentialDataDecryptedObject = {
				...resolved.credentials,
				...token,
				accessToken: persist ? '' : token.accessToken,
			};
			options.ignoreHttpStatusErrors = true;
			const response = (await helpers.httpRequestWithAuthentication.call(this.ctx, this.credentialType, options, {
				credentialsDecrypted: {
					id: resolved.nodeCredentials.id,
					name: resolved.nodeCredentials.name,
					type: this.credentialType,
					data,
				},
			})) as { statusCode: number; headers?: Record<string, unknown>; body?: unknown };
			const sentToken = typeof data.accessToken === 'string' ? data.accessToken : undefined;
			return {
				kind: 'answer',
				status: response.statusCode,
				headers: response.headers ?? {},
				body: response.body,
				sentToken,
			};
		} catch (error) {
			const failure = readHttpFailure(error);
			if (failure.status !== undefined) {
				return { kind: 'answer', status: failure.status, headers: failure.headers, body: failure.bodyText };
			}
			return { kind: 'failure', failure, error };
		}
	}

	/** The credential could not be read or is set up wrongly: nothing was sent. */
	private async settingsError(request: ApiRequest, error: unknown): Promise<Error> {
		const failure = readHttpFailure(error);
		if (failure.authErrorMessage !== undefined) return await this.failureError(request, failure, error, { attempts: 1, waitedMs: 0 });
		if (error instanceof NodeApiError || error instanceof NodeOperationError) return error;
		return new NodeOperationError(this.ctx.getNode(), error as Error, { itemIndex: request.itemIndex });
	}

	/** Adds every token known now (stored credential, tokens renewed by n8n or by other executions). */
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

	private async redirectError(request: ApiRequest, status: number, reason: string, info: AttemptInfo): Promise<NodeApiError> {
		await this.refreshSecrets();
		const route = `${request.method.toUpperCase()} ${request.path.split('?')[0]}`;
		const message = this.secrets.redact(`The Work Order Service answered ${route} with ${reason}`);
		const description = this.secrets.redact(
			`HTTP ${status}. API calls go only to the origin of the credential's API Base URL. If the service has moved, set the new address as the API Base URL.${info.attempts > 1 ? ` Tried ${info.attempts} times.` : ''}`,
		);
		return makeApiError(this.ctx, message, description, String(status), request.itemIndex);
	}

	/** What to change when throttled requests gave up: the option that bounded them. */
	private throttleHint(gaveUp: string | undefined): string {
		const maxWait = `${Math.round(this.settings.maxWaitMs / 1000)} s`;
		if (gaveUp?.includes('Max Retries')) {
			return `The service throttled this request again and again while it accepted others. Raise "Max Retries" (now ${this.settings.maxRetries}) in the node's Request Options, or lower "Concurrency".`;
		}
		return `The service kept throttling requests for longer than this item may wait. Raise "Max Wait (Seconds)" (now ${maxWait}) in the node's Request Options, or set "Requests Per Minute" below the service's limit (production allows about 300 per minute per application, shared by every workflow and worker that uses it).`;
	}

	private async failureError(request: ApiRequest, failure: HttpFailure, original: unknown, info: AttemptInfo): Promise<Error> {
		await this.refreshSecrets();
		const redact = (text: string) => this.secrets.redact(text);
		const itemIndex = request.itemIndex;
		if (
			failure.authErrorMessage === undefined &&
			failure.status === undefined &&
			failure.networkCode === undefined &&
			(original instanceof NodeApiError || original instanceof NodeOperationError)
		) {
			// Not an HTTP failure (e.g. an OAuth2 credential that must be reconnected): keep n8n's error.
			if (itemIndex !== undefined) original.context.itemIndex = itemIndex;
			original.message = redact(original.message);
			if (original.description) original.description = redact(original.description);
			if (original instanceof NodeApiError) return new NodeApiError(this.ctx.getNode(), original as unknown as JsonObject);
			return new NodeOperationError(this.ctx.getNode(), original);
		}
		const method = request.method.toUpperCase();
		const route = `${method} ${request.path.split('?')[0]}`;
		let message: string;
		let description: string;
		let httpCode: string | undefined;
		const retryNote =
			info.attempts > 1
				? ` Tried ${info.attempts} times over ${Math.round(info.waitedMs / 1000)} s${info.gaveUp ? `; gave up: ${info.gaveUp}` : ''}.`
				: info.gaveUp
					? ` Gave up: ${info.gaveUp}.`
					: '';
		const maybeProcessed = method === 'POST' || method === 'PATCH';
		const throttled = isThrottle(failure.status, failure.headers, failure.bodyText);
		if (failure.authErrorMessage !== undefined) {
			message = `Login to the Work Order Service failed: ${failure.authErrorMessage}`;
			description = 'The request was not sent. Fix the credential, then run the workflow again.';
		} else if (failure.status !== undefined) {
			httpCode = String(failure.status);
			const contentType = headerValue(failure.headers, 'content-type') ?? '';
			const words = serviceMessage(failure.bodyText, contentType);
			const code = serviceErrorCode(failure.bodyText);
			message = `The Work Order Service answered ${statusLabel(failure.status)} to ${route}${words ? `: ${words}` : ''}${code !== undefined ? ` (error code ${code})` : ''}`;
			if (info.attempts > 1) message += ` (gave up after ${info.attempts} attempts)`;
			description = (throttled ? this.throttleHint(info.gaveUp) : hintForStatus(failure.status, method, words)) + retryNote;
			if (failure.status >= 500 && maybeProcessed && !throttled) {
				description = `The submission may or may not have been recorded by the service: it was not sent again automatically, to avoid a duplicate. Check the work order before running this item again.${retryNote}`;
			}
		} else if (failure.notSent) {
			const code = failure.networkCode ?? 'network error';
			const timedOut = /TIMEDOUT|ECONNABORTED|CONNECT_TIMEOUT|CONNECTION_TIMEOUT/.test(code);
			const what = timedOut
				? `no connection within the Timeout of ${Math.round(this.settings.timeoutMs / 1000)} s`
				: /^(ERR_SSL_|ERR_TLS_|CERT_|EPROTO$)|CERT|SIGNED/.test(code)
					? `the secure connection failed, ${code}`
					: code;
			message = `The request ${route} was not sent: the Work Order Service could not be reached (${what})`;
			description = `Nothing reached the service, so nothing was recorded for this item; running it again is safe. Check the credential's API Base URL (host, port, https certificate) and the network.${retryNote}`;
		} else {
			const code = failure.networkCode ?? 'network error';
			const timedOut = /TIMEDOUT|ECONNABORTED/.test(code);
			message = timedOut
				? `No answer from the Work Order Service for ${route} within the Timeout of ${Math.round(this.settings.timeoutMs / 1000)} s`
				: `No answer from the Work Order Service for ${route} (${code})`;
			description = maybeProcessed
				? `The connection ended after the request was sent, so the submission may or may not have been recorded by the service. It was not sent again automatically, to avoid a duplicate. Check the work order before running this item again.${retryNote}`
				: timedOut
					? `A request that got no answer within the Timeout is not sent again. Check the API Base URL and the service, or raise the Timeout in the node's Request Options.${retryNote}`
					: `Check the API Base URL and the network, or raise the Timeout in the node options.${retryNote}`;
		}
		return makeApiError(this.ctx, redact(message), redact(description), httpCode, itemIndex);
	}
}

interface AttemptInfo {
	attempts: number;
	waitedMs: number;
	gaveUp?: string;
	outcome?: ItemOutcome;
}

/** One request's attempts so far. */
interface Tracking {
	attempts: number;
	/** Retries after failures other than throttling (5xx, network): each counts against Max Retries. */
	retries: number;
	/** The service answered at least once (any status). */
	answered: boolean;
	/** An attempt may have been processed: a 5xx answer, or no answer after the request was written. */
	maybeProcessed: boolean;
	isWrite: boolean;
}

function safeUrl(location: string, base: string): string | undefined {
	try {
		return new URL(location, base).toString();
	} catch {
		return undefined;
	}
}

function makeApiError(
	ctx: ClientContext,
	message: string,
	description: string,
	httpCode: string | undefined,
	itemIndex: number | undefined,
): NodeApiError {
	const errorObject: JsonObject = { message, description };
	if (httpCode) errorObject.httpCode = httpCode;
	const error = new NodeApiError(ctx.getNode(), errorObject, { message, description, httpCode, itemIndex });
	// NodeApiError swaps a message that mentions a network code (ECONNREFUSED, ...) for generic
	// text; ours already says what happened and what to check, so keep it.
	error.message = message;
	error.description = description;
	return error;
}

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
