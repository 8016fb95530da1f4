import type {
	IDataObject,
	IExecuteFunctions,
	IHttpRequestMethods,
	IHttpRequestOptions,
	ILoadOptionsFunctions,
	JsonObject,
} from 'n8n-workflow';
import { NodeApiError, NodeOperationError, sleep } from 'n8n-workflow';

import {
	bodyToText,
	headerValue,
	hintForStatus,
	parseRetryAfter,
	readHttpFailure,
	redact,
	serviceErrorCode,
	serviceMessage,
	statusLabel,
	type HttpFailure,
} from './errors';
import { parseJsonLossless } from './losslessJson';
import { buildMultipart, type MultipartPart } from './multipart';

/**
 * The only code of the node that speaks HTTP: base URL, authentication, lossless JSON, multipart,
 * throttling, retries and error messages.
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

type Context = IExecuteFunctions | ILoadOptionsFunctions;

export interface RequestSettings {
	maxRetries: number;
	maxWaitMs: number;
	requestsPerMinute: number;
	timeoutMs: number;
}

export const DEFAULT_SETTINGS: RequestSettings = {
	maxRetries: 3,
	maxWaitMs: 120_000,
	requestsPerMinute: 0,
	timeoutMs: 60_000,
};

export interface ApiRequest {
	method: IHttpRequestMethods;
	/** Path below {base_url}/v3, starting with '/'. Every user value in it is already encoded. */
	path: string;
	qs?: IDataObject;
	/** JSON body; serialized here so that an empty object is still sent. */
	body?: unknown;
	multipart?: MultipartPart[];
	/** Item the request is made for (error context); -1 for loadOptions. */
	itemIndex: number;
}

export interface ApiResponse {
	statusCode: number;
	headers: Record<string, unknown>;
	/** Parsed JSON (integers beyond 2^53 as exact strings), or text, or undefined for no body. */
	body: unknown;
}

interface FullResponse {
	statusCode: number;
	headers?: Record<string, unknown>;
	body?: unknown;
}

/** Per node-execution state: the pacing clock and resolved settings. */
interface RunState {
	nextSlot: number;
	settings?: RequestSettings;
	resolved?: { baseUrl: string; secrets: string[] };
}

const runStates = new WeakMap<object, RunState>();

function runState(ctx: Context): RunState {
	let state = runStates.get(ctx);
	if (!state) {
		state = { nextSlot: 0 };
		runStates.set(ctx, state);
	}
	return state;
}

function isExecuteContext(ctx: Context): ctx is IExecuteFunctions {
	return typeof (ctx as IExecuteFunctions).getInputData === 'function';
}

export function getAuthentication(ctx: Context, itemIndex: number): AuthenticationMethod {
	const value = isExecuteContext(ctx)
		? ctx.getNodeParameter('authentication', Math.max(itemIndex, 0), 'password')
		: ctx.getNodeParameter('authentication', 'password');
	if (value === 'password' || value === 'oAuth2' || value === 'contractor') return value;
	throw new NodeOperationError(ctx.getNode(), `Unknown authentication "${String(value)}"`, {
		description: 'Choose Password, OAuth2 (Authorization Code) or Contractor (JWT) in the node.',
	});
}

function numberSetting(value: unknown, fallback: number, min: number, max: number): number {
	const n = typeof value === 'string' && value.trim() !== '' ? Number(value) : value;
	if (typeof n !== 'number' || !Number.isFinite(n)) return fallback;
	return Math.min(max, Math.max(min, n));
}

/** Reads the node's "Request Options" once per execution (they cannot vary per item). */
export function getSettings(ctx: Context): RequestSettings {
	const state = runState(ctx);
	if (state.settings) return state.settings;
	let raw: IDataObject = {};
	try {
		raw = (
			isExecuteContext(ctx)
				? ctx.getNodeParameter('requestOptions', 0, {})
				: ctx.getNodeParameter('requestOptions', {})
		) as IDataObject;
	} catch {
		raw = {};
	}
	state.settings = {
		maxRetries: Math.floor(numberSetting(raw.maxRetries, DEFAULT_SETTINGS.maxRetries, 0, 10)),
		maxWaitMs: numberSetting(raw.maxWaitSeconds, DEFAULT_SETTINGS.maxWaitMs / 1000, 0, 3600) * 1000,
		requestsPerMinute: numberSetting(raw.requestsPerMinute, DEFAULT_SETTINGS.requestsPerMinute, 0, 100_000),
		timeoutMs: numberSetting(raw.timeoutSeconds, DEFAULT_SETTINGS.timeoutMs / 1000, 1, 3600) * 1000,
	};
	return state.settings;
}

function secretValues(credentials: IDataObject): string[] {
	const secrets: string[] = [];
	for (const key of ['clientSecret', 'password', 'accessToken', 'refreshToken']) {
		const value = credentials[key];
		if (typeof value === 'string' && value !== '') secrets.push(value);
	}
	const oauth = credentials.oauthTokenData as IDataObject | undefined;
	if (oauth && typeof oauth === 'object') {
		for (const key of ['access_token', 'refresh_token', 'id_token']) {
			const value = oauth[key];
			if (typeof value === 'string' && value !== '') secrets.push(value);
		}
	}
	return secrets;
}

async function resolveBaseUrl(ctx: Context, credentialType: string): Promise<{ baseUrl: string; secrets: string[] }> {
	const credentials = (await ctx.getCredentials(credentialType)) as IDataObject;
	const raw = typeof credentials.baseUrl === 'string' ? credentials.baseUrl.trim() : '';
	if (!/^https?:\/\/[^\s/]+/i.test(raw)) {
		throw new NodeOperationError(ctx.getNode(), 'The credential\'s API Base URL must be an http(s) URL', {
			description: 'Open the credential and set API Base URL, e.g. https://api.example.com (the node appends /v3).',
		});
	}
	const trimmed = raw.replace(/\/+$/, '');
	const baseUrl = /\/v3$/i.test(trimmed) ? trimmed : `${trimmed}/v3`;
	return { baseUrl, secrets: secretValues(credentials) };
}

async function pace(ctx: Context, settings: RequestSettings): Promise<void> {
	if (settings.requestsPerMinute <= 0) return;
	const state = runState(ctx);
	const interval = 60_000 / settings.requestsPerMinute;
	const now = Date.now();
	const slot = Math.max(now, state.nextSlot);
	state.nextSlot = slot + interval;
	if (slot > now) await sleep(slot - now);
}

function parseBody(response: FullResponse): unknown {
	const text = bodyToText(response.body);
	if (text.trim() === '') return undefined;
	const contentType = headerValue(response.headers ?? {}, 'content-type') ?? '';
	if (/json/i.test(contentType) || /^\s*[[{]/.test(text)) {
		try {
			return parseJsonLossless(text);
		} catch {
			// fall through: return the text as it came
		}
	}
	return text;
}

const IDEMPOTENT_METHODS = new Set(['GET', 'HEAD', 'OPTIONS', 'PUT', 'DELETE']);

function backoffMs(attempt: number): number {
	const base = Math.min(30_000, 1000 * 2 ** attempt);
	return Math.round(base / 2 + Math.random() * (base / 2));
}

interface Decision {
	retry: boolean;
	/** -1: no Retry-After, back off exponentially */
	delayMs: number;
}

function decide(failure: HttpFailure, method: string): Decision {
	const retryAfterMs = parseRetryAfter(headerValue(failure.headers, 'retry-after'));
	const status = failure.status;
	if (status === 429 || (status === 503 && retryAfterMs !== undefined)) {
		// A throttled request was not processed: safe to send again, whatever the method.
		return { retry: true, delayMs: retryAfterMs ?? -1 };
	}
	const transient =
		(status !== undefined && status >= 500 && status <= 599) ||
		(status === undefined && failure.networkCode !== undefined);
	if (transient && IDEMPOTENT_METHODS.has(method)) {
		return { retry: true, delayMs: retryAfterMs ?? -1 };
	}
	return { retry: false, delayMs: 0 };
}

/**
 * Sends one request to {base_url}/v3 with the credential chosen in the node, and returns the
 * parsed response. Retries throttled requests (any method) and transient failures of idempotent
 * requests within the node's limits; never resends a POST that may have been processed.
 */
export async function apiRequest(this: Context, request: ApiRequest): Promise<ApiResponse> {
	const itemIndex = request.itemIndex;
	const authentication = getAuthentication(this, itemIndex);
	const credentialType = CREDENTIAL_TYPES[authentication];
	const settings = getSettings(this);
	const state = runState(this);
	// Items run one after another, so the credential's base URL is read once per execution.
	state.resolved ??= await resolveBaseUrl(this, credentialType);
	const resolved = state.resolved;
	const { baseUrl } = resolved;
	const method = request.method.toUpperCase();
	const url = `${baseUrl}${request.path}`;

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
	for (let attempt = 0; ; attempt++) {
		await pace(this, settings);
		const options: IHttpRequestOptions = {
			method: request.method,
			url,
			headers: { ...headers },
			encoding: 'arraybuffer',
			json: false,
			returnFullResponse: true,
			timeout: settings.timeoutMs,
		};
		if (request.qs && Object.keys(request.qs).length) options.qs = { ...request.qs };
		if (body !== undefined) options.body = body;
		try {
			const response = (await this.helpers.httpRequestWithAuthentication.call(
				this,
				credentialType,
				options,
			)) as FullResponse;
			return {
				statusCode: response.statusCode,
				headers: response.headers ?? {},
				body: parseBody(response),
			};
		} catch (error) {
			const failure = readHttpFailure(error);
			if (failure.authErrorMessage === undefined && failure.status === undefined && failure.networkCode === undefined) {
				// Not an HTTP failure (e.g. an OAuth2 credential that must be reconnected): keep n8n's error.
				if (error instanceof NodeApiError || error instanceof NodeOperationError) {
					if (itemIndex >= 0) error.context.itemIndex = itemIndex;
					error.message = redact(error.message, resolved.secrets);
					if (error.description) error.description = redact(error.description, resolved.secrets);
					// Re-wrapping hands back the same error object.
					if (error instanceof NodeApiError) throw new NodeApiError(this.getNode(), error as unknown as JsonObject);
					throw new NodeOperationError(this.getNode(), error);
				}
			}
			// A failed login already waited out throttling in the credential; it is final here.
			const decision: Decision = failure.authErrorMessage === undefined ? decide(failure, method) : { retry: false, delayMs: 0 };
			if (decision.retry && attempt < settings.maxRetries) {
				const delay = decision.delayMs >= 0 ? decision.delayMs : backoffMs(attempt);
				if (waitedMs + delay <= settings.maxWaitMs) {
					waitedMs += delay;
					if (delay > 0) await sleep(delay);
					continue;
				}
				throw failureError(this, failure, request, resolved.secrets, {
					attempts: attempt + 1,
					waitedMs,
					gaveUp: `the next wait (${Math.ceil(delay / 1000)} s) would exceed Max Wait (${Math.round(settings.maxWaitMs / 1000)} s)`,
				});
			}
			throw failureError(this, failure, request, resolved.secrets, {
				attempts: attempt + 1,
				waitedMs,
				gaveUp: decision.retry ? `Max Retries (${settings.maxRetries}) reached` : undefined,
			});
		}
	}
}

interface AttemptInfo {
	attempts: number;
	waitedMs: number;
	gaveUp?: string;
}

function failureError(
	ctx: Context,
	failure: HttpFailure,
	request: ApiRequest,
	secrets: string[],
	info: AttemptInfo,
): NodeApiError {
	const method = request.method.toUpperCase();
	const itemIndex = request.itemIndex >= 0 ? request.itemIndex : undefined;
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
		description = hintForStatus(failure.status, method) + retryNote;
		if (failure.status >= 500 && maybeProcessed && !throttled) {
			description = `The submission may or may not have been recorded by the service: it was not sent again automatically, to avoid a duplicate. Check the work order before running this item again.${retryNote}`;
		}
	} else {
		const code = failure.networkCode ?? 'network error';
		const timedOut = /TIMEDOUT|ECONNABORTED/.test(code);
		message = `No answer from the Work Order Service for ${route} (${timedOut ? 'timed out' : code})`;
		description = maybeProcessed
			? `The connection ended after the request was sent, so the submission may or may not have been recorded by the service. It was not sent again automatically, to avoid a duplicate. Check the work order before running this item again.${retryNote}`
			: `Check the API Base URL and the network, or raise the Timeout in the node options.${retryNote}`;
	}
	message = redact(message, secrets);
	description = redact(description, secrets);
	const errorObject: JsonObject = { message, description };
	if (httpCode) errorObject.httpCode = httpCode;
	const error = new NodeApiError(ctx.getNode(), errorObject, { message, description, httpCode, itemIndex });
	// NodeApiError swaps a message that mentions a network code (ECONNREFUSED, ...) for generic
	// text; ours already says what happened and what to check, so keep it.
	error.message = message;
	error.description = description;
	return error;
}
