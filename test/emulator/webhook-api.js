// @ts-check
'use strict';

/**
 * The webhook management endpoints under /api/v3 (webhooks.js holds the logic):
 *   POST|GET /NotificationWebHooks, GET|PUT|DELETE /NotificationWebHooks/{id},
 *   GET|PUT /NotificationSubscriptions/SigningKey, POST /test/webhooks/notifications.
 * Rows for api.js's route table: [method, pattern, handler, permission].
 */

const { json, empty, fail, E, mediaType, parse } = require('./http-util');
const { WebhookError, WE } = require('./webhooks');

/**
 * @typedef {import('./index').Emulator} Emulator
 * @typedef {import('./index').RequestContext} RequestContext
 */

/** A JSON object body (Content-Type application/json), parsed losslessly. @param {RequestContext} ctx */
function jsonBody(ctx) {
	const type = mediaType(ctx.headers['content-type']);
	if (!(type === 'application/json' || type.endsWith('+json')))
		fail(415, E.CONTENT_TYPE, `Content-Type must be application/json (got ${type || 'none'})`);
	const text = ctx.body.toString('utf8');
	if (text.trim() === '') fail(400, E.NO_BODY, 'A JSON object is required as the request body');
	let value;
	try {
		value = parse(text);
	} catch (e) {
		fail(
			400,
			E.BAD_JSON,
			`The request body is not valid JSON: ${e && /** @type {any} */ (e).message}`,
		);
	}
	if (value === null || typeof value !== 'object' || Array.isArray(value))
		fail(400, E.INVALID_FIELD, 'The request body must be a JSON object');
	return value;
}

/**
 * Runs a webhook operation; a WebhookError becomes the service's error body.
 * @template T @param {() => T} fn @returns {T}
 */
function guard(fn) {
	try {
		return fn();
	} catch (e) {
		if (e instanceof WebhookError) fail(e.status, e.code, e.message);
		throw e;
	}
}

/** @param {Emulator} emu */
const hooks = (emu) => /** @type {import('./webhooks').Webhooks} */ (emu.webhooks);

/** @type {Array<[string, string, (emu: Emulator, ctx: RequestContext, p: any, params: Record<string, any>) => any, string | null]>} */
const WEBHOOK_ROUTES = [
	[
		'POST',
		'NotificationWebHooks',
		(emu, ctx, p) =>
			json(
				201,
				guard(() => hooks(emu).create(p, jsonBody(ctx))),
			),
		null,
	],
	[
		'GET',
		'NotificationWebHooks',
		(emu, ctx, p) =>
			json(
				200,
				hooks(emu)
					.listOf(hooks(emu).accountOf(p))
					.map((h) => hooks(emu).publicWebhook(h)),
			),
		null,
	],
	[
		'GET',
		'NotificationWebHooks/{webhookId}',
		(emu, ctx, p, params) =>
			json(
				200,
				guard(() =>
					hooks(emu).publicWebhook(hooks(emu).find(hooks(emu).accountOf(p), params.webhookId)),
				),
			),
		null,
	],
	[
		'PUT',
		'NotificationWebHooks/{webhookId}',
		(emu, ctx, p, params) => {
			guard(() => hooks(emu).update(p, params.webhookId, jsonBody(ctx)));
			return empty(204);
		},
		null,
	],
	[
		'DELETE',
		'NotificationWebHooks/{webhookId}',
		(emu, ctx, p, params) => {
			guard(() => hooks(emu).remove(p, params.webhookId));
			return empty(204);
		},
		null,
	],
	[
		'GET',
		'NotificationSubscriptions/SigningKey',
		(emu, ctx, p) =>
			json(
				200,
				guard(() => {
					hooks(emu).requireAdmin(p);
					return { Key: hooks(emu).keyOf(hooks(emu).accountOf(p)) };
				}),
			),
		null,
	],
	[
		'PUT',
		'NotificationSubscriptions/SigningKey',
		(emu, ctx, p) =>
			json(
				200,
				guard(() => {
					hooks(emu).requireAdmin(p);
					return { Key: hooks(emu).rotateKey(hooks(emu).accountOf(p)) };
				}),
			),
		null,
	],
	[
		'POST',
		'test/webhooks/notifications',
		async (emu, ctx, p) => {
			const body = jsonBody(ctx);
			const key = Object.keys(body).find((k) => k.toLowerCase() === 'url');
			const url = key ? body[key] : undefined;
			let valid = false;
			try {
				valid = typeof url === 'string' && /^https?:$/.test(new URL(url).protocol);
			} catch {
				valid = false;
			}
			if (!valid) fail(400, E.REQUIRED_FIELD, 'Url is required: an absolute http(s) URL');
			const delivery = await hooks(emu).sendTest(p, url);
			if (!delivery.ok) {
				fail(
					400,
					WE.TEST_DELIVERY_FAILED,
					`The test notification to ${url} failed: ${delivery.status !== null ? `HTTP ${delivery.status}` : delivery.error}`,
				);
			}
			return json(201, { Url: url, StatusCode: delivery.status });
		},
		null,
	],
];

module.exports = { WEBHOOK_ROUTES };
