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
import { Limiter } from './limiter';
import { parseJsonLossless } from './losslessJson';
import { buildMultipart, type MultipartPart } from './multipart';

/**
 * The only code of the node that speaks HTTP. One client per execution (built by the router, the
 * trigger's poll or a dropdown's loader) holds what every request needs: the credential type and
 * its settings, the API Base URL, the secrets to keep out of messages, the request settings and
 * the execution's limiter. Operations hand it a path and get parsed bodies back.
 *
 * Rules it enforces:
 * - The token goes only to the origin of the credential's API Base URL. Redirects are not followed
 *   by n8n's request layer; the client follows a redirect itself only to the same origin (any
 *   method for 307/308, reads for 301/302/303) and refuses one to another origin with an error
 *   naming that origin.
 * - Logins are coordinated (see credentials/common/tokenBroker.ts): a 401 renews the token once
 *   (the body, always a Buffer, is sent again) and any concurrent requests share the renewal.
 * - Throttling (429, 503 with Retry-After) pauses every request of the execution and is retried
 *   within Max Retries / Max Wait per item; 5xx and network failures are retried for reads and
 *   status changes only; a POST that may have been processed is never resent; a request that got
 *   no answer within the Timeout is not resent either.
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

export type ClientContext =
	| IExecuteFunctions
	| ILoadOptionsFunctions
	| IPollFunctions
	| IHookFunctions
	| IWebhookFunctions;

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
const MAX_REDIRECTS = 5;
/**
 * A request refused with 401 is sent again after one renewal; again only while the token it was
 * refused with had been read from n8n's store (another worker may have saved it just before the
 * service revoked every token), never after a token this process itself just obtained.
 */
const MAX_RENEWALS = 3;

function backoffMs(attempt: number): number {
	const base = Math.min(30_000, 1000 * 2 ** attempt);
	return Math.round(base / 2 + Math.random() * (base / 2));
}

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

	readonly limiter: Limiter;

	/** Every secret in every encoding: credential fields and every token seen in this run. */
	readonly secrets = new SecretSet();

	private resolved?: Promise<Resolved>;

	private token?: StoredToken;

	private lastToken?: IDataObject;

	constructor(
		private readonly ctx: ClientContext,
		readonly authentication: AuthenticationMethod,
		readonly settings: RequestSettings,
	) {
		this.credentialType = CREDENTIAL_TYPES[authentication];
		this.limiter = new Limiter(settings.concurrency, settings.requestsPerMinute);
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

		let waitedMs = 0;
		let retries = 0;
		let redirects = 0;
		let renewals = 0;
		for (;;) {
			const sentAt = await this.limiter.acquire();
			const attempt = await this.attempt(resolved, method, url, qs, headers, body);
			const status = attempt.kind === 'answer' ? attempt.status : attempt.failure.status;
			const answerHeaders = attempt.kind === 'answer' ? attempt.headers : attempt.failure.headers;
			const retryAfterMs = parseRetryAfter(headerValue(answerHeaders, 'retry-after'));
			const throttled = status === 429 || (status === 503 && retryAfterMs !== undefined);
			const ownDelay = throttled ? (retryAfterMs ?? backoffMs(retries)) : undefined;
			this.limiter.release({
				sentAt,
				success: status !== undefined && status < 400,
				throttledFor: ownDelay,
				retryAfterKnown: retryAfterMs !== undefined,
			});

			if (attempt.kind === 'answer' && status !== undefined && status >= 200 && status < 300) {
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
					throw await this.redirectError(request, status, reason ?? 'a redirect', { attempts: retries + 1, waitedMs });
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
				attempt.kind === 'failure'
					? attempt.failure
					: { status, headers: attempt.headers, bodyText: bodyToText(attempt.body) };
			const timedOut = failure.status === undefined && /TIMEDOUT|ECONNABORTED/.test(failure.networkCode ?? '');
			const transient =
				(failure.status !== undefined && failure.status >= 500 && failure.status <= 599) ||
				(failure.status === undefined && failure.networkCode !== undefined && !timedOut);
			const retryable =
				failure.authErrorMessage === undefined && (throttled || (transient && IDEMPOTENT_METHODS.has(method)));
			if (retryable && retries < this.settings.maxRetries) {
				const delay = ownDelay ?? retryAfterMs ?? backoffMs(retries);
				if (waitedMs + delay <= this.settings.maxWaitMs) {
					waitedMs += delay;
					retries++;
					// A throttle pauses the whole execution (in the limiter); other waits are this item's own.
					if (!throttled && delay > 0) await sleep(delay);
					continue;
				}
				throw await this.failureError(request, failure, attempt.kind === 'failure' ? attempt.error : undefined, {
					attempts: retries + 1,
					waitedMs,
					gaveUp: `the next wait (${Math.ceil(delay / 1000)} s) would exceed Max Wait (${Math.round(this.settings.maxWaitMs / 1000)} s)`,
				});
			}
			throw await this.failureError(request, failure, attempt.kind === 'failure' ? attempt.error : undefined, {
				attempts: retries + 1,
				waitedMs,
				gaveUp: retryable ? `Max Retries (${this.settings.maxRetries}) reached` : undefined,
			});
		}
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
		const throttled =
			failure.status === 429 ||
			(failure.status === 503 && parseRetryAfter(headerValue(failure.headers, 'retry-after')) !== undefined);
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
			description = hintForStatus(failure.status, method, words) + retryNote;
			if (failure.status >= 500 && maybeProcessed && !throttled) {
				description = `The submission may or may not have been recorded by the service: it was not sent again automatically, to avoid a duplicate. Check the work order before running this item again.${retryNote}`;
			}
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
