// @ts-check
'use strict';

/**
 * The authorization server: POST /auth/oauth/token, GET|POST /auth/oauth/authorize,
 * POST /auth/jwt/token, GET /auth/login (the HTML page bad clients are redirected to),
 * GET /auth/logout. Token bookkeeping lives on the emulator (emu._tokens, emu._refresh, ...).
 */

const crypto = require('node:crypto');
const {
	Reply,
	oauthError,
	htmlResponse,
	redirect,
	escapeHtml,
	json,
	mediaType,
} = require('./http-util');

const CODE_TTL_SECONDS = 60;
const SESSION_COOKIE = 'wos_session';

/**
 * @typedef {import('./index').Emulator} Emulator
 * @typedef {import('./index').RequestContext} RequestContext
 */

/**
 * Form body of a token request: application/x-www-form-urlencoded only, each parameter once.
 * @param {RequestContext} ctx
 * @returns {URLSearchParams}
 */
function requireForm(ctx) {
	const type = mediaType(ctx.headers['content-type']);
	if (type !== 'application/x-www-form-urlencoded') {
		throw new Reply(
			oauthError(
				ctx.body.length === 0 && !type ? 400 : 415,
				'invalid_request',
				`Content-Type must be application/x-www-form-urlencoded${type ? ` (got ${type})` : ''}`,
			),
		);
	}
	const form = new URLSearchParams(ctx.body.toString('utf8'));
	const seen = new Set();
	for (const key of form.keys()) {
		if (seen.has(key))
			throw new Reply(
				oauthError(400, 'invalid_request', `Parameter '${key}' was sent more than once`),
			);
		seen.add(key);
	}
	return form;
}

/**
 * @param {Emulator} emu @param {RequestContext} ctx @param {string} description
 * @returns {never}
 */
function rejectClient(emu, ctx, description) {
	if (emu.faults.badClientRedirect) {
		throw new Reply(
			redirect(
				`${emu.origin}/auth/login?error=invalid_client&ReturnUrl=${encodeURIComponent(ctx.path)}`,
			),
		);
	}
	throw new Reply(
		oauthError(401, 'invalid_client', description, {
			'www-authenticate': 'Basic realm="work-order-service"',
		}),
	);
}

/**
 * Authorization: Basic BASE64(client_id:client_secret), exactly. Client credentials in the body
 * are not accepted.
 * @param {Emulator} emu @param {RequestContext} ctx @param {URLSearchParams} form
 */
function authenticateClient(emu, ctx, form) {
	const header = ctx.headers.authorization;
	if (!header) {
		if (form.has('client_id') || form.has('client_secret')) {
			rejectClient(
				emu,
				ctx,
				'Client credentials are accepted only in the Authorization header as Basic BASE64(client_id:client_secret), not in the body',
			);
		}
		rejectClient(
			emu,
			ctx,
			'Client authentication is required: Authorization: Basic BASE64(client_id:client_secret)',
		);
	}
	const m = /^Basic ([A-Za-z0-9+/=]+)$/i.exec(header);
	if (!m)
		rejectClient(
			emu,
			ctx,
			'The Authorization header must be exactly "Basic BASE64(client_id:client_secret)"',
		);
	const decoded = Buffer.from(m[1], 'base64').toString('utf8');
	const colon = decoded.indexOf(':');
	const client = colon > 0 ? emu.state.clients[decoded.slice(0, colon)] : undefined;
	if (!client) rejectClient(emu, ctx, 'Unknown client_id or wrong client_secret');
	const expected = Buffer.from(`${client.clientId}:${client.clientSecret}`, 'utf8').toString(
		'base64',
	);
	if (m[1] !== expected) rejectClient(emu, ctx, 'Unknown client_id or wrong client_secret');
	ctx.log.clientId = client.clientId;
	return client;
}

/**
 * @param {Emulator} emu @param {string | null} username @param {string | null} password
 */
function checkUser(emu, username, password) {
	if (!username || password === null) return null;
	const user = emu.state.users[username.toLowerCase()];
	if (!user || user.password !== password) return null;
	return user;
}

/**
 * Checks a refresh token of the given kind (OAuth or JWT: they do not cross endpoints) and marks it
 * used: refresh tokens rotate. Throttled like every token request of its user.
 * @param {any} emu @param {any} ctx @param {any} client @param {string} token @param {'oauth-refresh' | 'jwt-refresh'} kind
 */
function consumeRefreshToken(emu, ctx, client, token, kind) {
	const rec = emu._refresh.get(token);
	if (rec) {
		ctx.log.username = rec.username;
		tokenThrottle(emu, ctx, rec.username);
	}
	if (!rec || rec.kind !== kind)
		throw new Reply(oauthError(400, 'invalid_grant', 'The refresh token is invalid'));
	if (rec.used)
		throw new Reply(
			oauthError(
				400,
				'invalid_grant',
				'The refresh token was already used (refresh tokens rotate)',
			),
		);
	if (emu.now() >= rec.expiresAt)
		throw new Reply(oauthError(400, 'invalid_grant', 'The refresh token has expired'));
	if (rec.clientId !== client.clientId)
		throw new Reply(
			oauthError(400, 'invalid_grant', 'The refresh token was issued to another client'),
		);
	rec.used = true;
	rec.usedAt = emu.now();
	return rec;
}
/**
 * One token request per user per window (faults.tokenRateLimit.perUserMs).
 * @param {Emulator} emu @param {RequestContext} ctx @param {string} userKey
 */
function tokenThrottle(emu, ctx, userKey) {
	const cfg = emu.faults.tokenRateLimit;
	if (!cfg || !cfg.perUserMs) return;
	const key = userKey.toLowerCase();
	const now = emu.now();
	const last = emu._tokenWindow.get(key);
	if (last !== undefined && now - last < cfg.perUserMs) {
		const waitSeconds = Math.max(1, Math.ceil((cfg.perUserMs - (now - last)) / 1000));
		ctx.log.throttled = true;
		const headers = emu._retryAfterHeaders(
			cfg.retryAfter || 'seconds',
			cfg.retryAfterSeconds || waitSeconds,
		);
		throw new Reply(
			json(
				429,
				{
					error: 'too_many_requests',
					error_description: `Too many token requests for this user; retry after ${waitSeconds} s`,
				},
				{ 'cache-control': 'no-store', ...headers },
			),
		);
	}
	emu._tokenWindow.set(key, now);
}

/**
 * @param {Emulator} emu @param {RequestContext} ctx
 */
function oauthToken(emu, ctx) {
	if (ctx.method !== 'POST')
		throw new Reply(oauthError(405, 'invalid_request', 'Use POST', { allow: 'POST' }));
	for (const k of ['username', 'password', 'client_secret', 'refresh_token', 'code']) {
		if (ctx.searchParams.has(k)) {
			throw new Reply(
				oauthError(
					400,
					'invalid_request',
					`Parameter '${k}' must be sent in the form-encoded body, not in the URL`,
				),
			);
		}
	}
	const form = requireForm(ctx);
	const authHeader = ctx.headers.authorization || '';
	if (/^Bearer\s/i.test(authHeader))
		return subsidiaryStep(emu, ctx, form, authHeader.replace(/^Bearer\s+/i, '').trim());

	const client = authenticateClient(emu, ctx, form);
	const grant = form.get('grant_type');
	if (!grant) throw new Reply(oauthError(400, 'invalid_request', 'grant_type is required'));

	if (grant === 'password') {
		const username = form.get('username');
		const password = form.get('password');
		if (!username || password === null)
			throw new Reply(oauthError(400, 'invalid_request', 'username and password are required'));
		ctx.log.username = username;
		tokenThrottle(emu, ctx, username);
		const user = checkUser(emu, username, password);
		if (!user)
			throw new Reply(oauthError(400, 'invalid_grant', 'The user name or password is incorrect'));
		ctx.log.username = user.username;
		return json(200, emu._issueOAuth({ client, user, grant: 'password' }), {
			'cache-control': 'no-store',
			pragma: 'no-cache',
		});
	}

	if (grant === 'refresh_token') {
		const token = form.get('refresh_token');
		if (!token) throw new Reply(oauthError(400, 'invalid_request', 'refresh_token is required'));
		const rec = consumeRefreshToken(emu, ctx, client, token, 'oauth-refresh');
		const user = emu.state.users[rec.username];
		return json(
			200,
			emu._issueOAuth({
				client,
				user,
				grant: 'refresh_token',
				subscriberId: rec.subscriberId,
				scope: rec.scope,
			}),
			{ 'cache-control': 'no-store', pragma: 'no-cache' },
		);
	}

	if (grant === 'authorization_code') {
		const code = form.get('code');
		if (!code) throw new Reply(oauthError(400, 'invalid_request', 'code is required'));
		const rec = emu._codes.get(code);
		if (rec) {
			ctx.log.username = rec.username;
			tokenThrottle(emu, ctx, rec.username);
		}
		if (!rec)
			throw new Reply(oauthError(400, 'invalid_grant', 'The authorization code is invalid'));
		if (rec.used)
			throw new Reply(oauthError(400, 'invalid_grant', 'The authorization code was already used'));
		if (emu.now() >= rec.expiresAt)
			throw new Reply(oauthError(400, 'invalid_grant', 'The authorization code has expired'));
		if (rec.clientId !== client.clientId)
			throw new Reply(
				oauthError(400, 'invalid_grant', 'The authorization code was issued to another client'),
			);
		const redirectUri = form.get('redirect_uri');
		if (rec.redirectUri !== null) {
			if (redirectUri === null) {
				throw new Reply(
					oauthError(
						400,
						'invalid_grant',
						'redirect_uri is required because it was sent in the authorization request',
					),
				);
			}
			if (redirectUri !== rec.redirectUri) {
				throw new Reply(
					oauthError(
						400,
						'invalid_grant',
						'redirect_uri does not match the one of the authorization request',
					),
				);
			}
		} else if (redirectUri !== null && redirectUri !== rec.effectiveRedirectUri) {
			throw new Reply(
				oauthError(400, 'invalid_grant', 'redirect_uri does not match the registered callback URI'),
			);
		}
		rec.used = true;
		const user = emu.state.users[rec.username];
		return json(200, emu._issueOAuth({ client, user, grant: 'authorization_code' }), {
			'cache-control': 'no-store',
			pragma: 'no-cache',
		});
	}

	throw new Reply(
		oauthError(400, 'unsupported_grant_type', `grant_type '${grant}' is not supported`),
	);
}

/**
 * Child-subscriber step: Bearer <universal user's token> + subsidiary_id.
 * @param {Emulator} emu @param {RequestContext} ctx @param {URLSearchParams} form @param {string} bearer
 */
function subsidiaryStep(emu, ctx, form, bearer) {
	const rec = emu._tokens.get(bearer);
	if (!rec || rec.kind !== 'oauth')
		throw new Reply(oauthError(401, 'invalid_token', 'The Bearer token is invalid'));
	ctx.log.clientId = rec.clientId;
	ctx.log.username = rec.username;
	ctx.log.tokenKind = rec.kind;
	if (rec.revoked)
		throw new Reply(oauthError(401, 'invalid_token', 'The Bearer token has been revoked'));
	if (emu.now() >= rec.expiresAt)
		throw new Reply(oauthError(401, 'invalid_token', 'The Bearer token has expired'));
	const raw = form.get('subsidiary_id');
	if (raw === null || raw.trim() === '') {
		throw new Reply(
			oauthError(
				400,
				'invalid_request',
				'subsidiary_id is required when a Bearer token is sent to /oauth/token',
			),
		);
	}
	if (!/^\d{1,9}$/.test(raw.trim()))
		throw new Reply(oauthError(400, 'invalid_request', 'subsidiary_id must be an integer'));
	const subsidiaryId = Number(raw.trim());
	const user = emu.state.users[rec.username];
	if (user.kind !== 'universal') {
		throw new Reply(
			oauthError(
				401,
				'access_denied',
				'Only a universal user can obtain a token for a child subscriber',
			),
		);
	}
	if (!user.permissions.includes('subsidiaries.read')) {
		throw new Reply(
			oauthError(401, 'access_denied', 'The user lacks the permission to retrieve subsidiary IDs'),
		);
	}
	if (!(user.children || []).includes(subsidiaryId)) {
		throw new Reply(
			oauthError(
				400,
				'invalid_scope',
				`Subscriber ${subsidiaryId} is not a child subscriber of this user`,
			),
		);
	}
	tokenThrottle(emu, ctx, user.username);
	const client = emu.state.clients[rec.clientId];
	return json(
		200,
		emu._issueOAuth({
			client,
			user,
			grant: 'subsidiary',
			subscriberId: subsidiaryId,
			scope: `subsidiary:${subsidiaryId}`,
		}),
		{ 'cache-control': 'no-store', pragma: 'no-cache' },
	);
}

/**
 * POST /auth/jwt/token: Basic client; username+password or refresh_token; no grant_type.
 * @param {Emulator} emu @param {RequestContext} ctx
 */
function jwtToken(emu, ctx) {
	if (ctx.method !== 'POST')
		throw new Reply(oauthError(405, 'invalid_request', 'Use POST', { allow: 'POST' }));
	for (const k of ['username', 'password', 'refresh_token']) {
		if (ctx.searchParams.has(k)) {
			throw new Reply(
				oauthError(
					400,
					'invalid_request',
					`Parameter '${k}' must be sent in the form-encoded body, not in the URL`,
				),
			);
		}
	}
	const form = requireForm(ctx);
	const client = authenticateClient(emu, ctx, form);
	if (form.has('grant_type')) {
		throw new Reply(
			oauthError(
				400,
				'invalid_request',
				'grant_type is not used by /jwt/token: send username and password, or refresh_token',
			),
		);
	}
	const refresh = form.get('refresh_token');
	const username = form.get('username');
	const password = form.get('password');
	if (refresh !== null && (username !== null || password !== null)) {
		throw new Reply(
			oauthError(
				400,
				'invalid_request',
				'Send either username and password, or refresh_token, not both',
			),
		);
	}
	if (refresh !== null) {
		const rec = consumeRefreshToken(emu, ctx, client, refresh, 'jwt-refresh');
		const user = emu.state.users[rec.username];
		return json(200, emu._issueJwt({ client, user, grant: 'refresh_token' }), {
			'cache-control': 'no-store',
			pragma: 'no-cache',
		});
	}
	if (!username || password === null) {
		throw new Reply(
			oauthError(
				400,
				'invalid_request',
				'username and password (initial issue) or refresh_token (renewal) are required',
			),
		);
	}
	ctx.log.username = username;
	tokenThrottle(emu, ctx, username);
	const user = checkUser(emu, username, password);
	if (!user)
		throw new Reply(oauthError(400, 'invalid_grant', 'The user name or password is incorrect'));
	ctx.log.username = user.username;
	return json(200, emu._issueJwt({ client, user, grant: 'password' }), {
		'cache-control': 'no-store',
		pragma: 'no-cache',
	});
}

// ---- /oauth/authorize ---------------------------------------------------------------------------

/** @param {string | undefined} cookieHeader */
function sessionIdOf(cookieHeader) {
	if (!cookieHeader) return null;
	for (const part of cookieHeader.split(';')) {
		const [k, ...v] = part.trim().split('=');
		if (k === SESSION_COOKIE) return v.join('=');
	}
	return null;
}

/**
 * @param {string} action @param {Record<string, string>} params @param {string} [error]
 */
function loginPage(action, params, error) {
	const hidden = Object.entries(params)
		.filter(([k]) => !['username', 'password'].includes(k))
		.map(([k, v]) => `<input type="hidden" name="${escapeHtml(k)}" value="${escapeHtml(v)}">`)
		.join('\n      ');
	return `<!DOCTYPE html>
<html>
  <head><meta charset="utf-8"><title>Work Order Service - Sign in</title></head>
  <body>
    <h1>Work Order Service</h1>
    <p>Sign in to authorize the application.</p>
    ${error ? `<p class="error" role="alert">${escapeHtml(error)}</p>` : ''}
    <form method="post" action="${escapeHtml(action)}">
      ${hidden}
      <label>User name <input name="username" autocomplete="username"></label>
      <label>Password <input name="password" type="password" autocomplete="current-password"></label>
      <button type="submit">Sign in</button>
    </form>
  </body>
</html>`;
}

/** @param {string} title @param {string} message */
function errorPage(title, message) {
	return `<!DOCTYPE html><html><head><meta charset="utf-8"><title>${escapeHtml(title)}</title></head><body><h1>${escapeHtml(
		title,
	)}</h1><p>${escapeHtml(message)}</p></body></html>`;
}

/**
 * @param {string} base @param {Record<string, string>} params
 */
function withQuery(base, params) {
	const url = new URL(base);
	for (const [k, v] of Object.entries(params)) url.searchParams.set(k, v);
	return url.toString();
}

/**
 * GET shows the login form (or redirects at once when a session cookie is present);
 * POST (form: username, password; the authorization parameters in the query or as hidden fields)
 * signs in, sets the session cookie and redirects to the callback with code (and state).
 * @param {Emulator} emu @param {RequestContext} ctx
 */
function authorize(emu, ctx) {
	if (ctx.method !== 'GET' && ctx.method !== 'POST') {
		throw new Reply(
			htmlResponse(405, errorPage('Method not allowed', 'Use GET or POST'), { allow: 'GET, POST' }),
		);
	}
	/** @type {Record<string, string>} */
	const params = {};
	for (const [k, v] of ctx.searchParams) params[k] = v;
	/** @type {URLSearchParams | null} */
	let form = null;
	if (ctx.method === 'POST') {
		if (mediaType(ctx.headers['content-type']) !== 'application/x-www-form-urlencoded') {
			throw new Reply(
				htmlResponse(
					415,
					errorPage(
						'Unsupported content type',
						'The login form posts application/x-www-form-urlencoded',
					),
				),
			);
		}
		form = new URLSearchParams(ctx.body.toString('utf8'));
		for (const k of ['response_type', 'client_id', 'redirect_uri', 'state']) {
			const v = form.get(k);
			if (params[k] === undefined && v !== null) params[k] = v;
		}
	}
	const client = params.client_id ? emu.state.clients[params.client_id] : undefined;
	if (!client)
		throw new Reply(
			htmlResponse(400, errorPage('Unknown application', 'client_id is missing or not registered')),
		);
	ctx.log.clientId = client.clientId;
	const sentRedirect =
		params.redirect_uri !== undefined && params.redirect_uri !== '' ? params.redirect_uri : null;
	if (sentRedirect !== null && !client.callbackUris.includes(sentRedirect)) {
		throw new Reply(
			htmlResponse(
				400,
				errorPage(
					'Invalid redirect_uri',
					'redirect_uri is not a registered callback URI of this application',
				),
			),
		);
	}
	const effectiveRedirect = sentRedirect !== null ? sentRedirect : client.callbackUris[0] || null;
	/** @type {Record<string, string>} */
	const stateParam = params.state !== undefined ? { state: params.state } : {};
	if (params.response_type !== 'code') {
		if (effectiveRedirect) {
			throw new Reply(
				redirect(
					withQuery(effectiveRedirect, { error: 'unsupported_response_type', ...stateParam }),
				),
			);
		}
		throw new Reply(
			htmlResponse(400, errorPage('Unsupported response_type', 'response_type must be code')),
		);
	}

	/** @type {any} */
	let user = null;
	/** @type {Record<string, string | string[]>} */
	const extraHeaders = {};
	if (ctx.method === 'POST' && form) {
		user = checkUser(emu, form.get('username'), form.get('password'));
		if (!user) {
			throw new Reply(
				htmlResponse(
					401,
					loginPage(
						`/auth/oauth/authorize?${ctx.searchParams.toString()}`,
						params,
						'Invalid user name or password',
					),
				),
			);
		}
		const sid = crypto.randomBytes(18).toString('hex');
		emu._sessions.set(sid, user.username);
		extraHeaders['set-cookie'] = `${SESSION_COOKIE}=${sid}; Path=/auth; HttpOnly; SameSite=Lax`;
	} else {
		const sid = sessionIdOf(ctx.headers.cookie);
		const username = sid ? emu._sessions.get(sid) : undefined;
		if (username) user = emu.state.users[username];
	}
	if (!user) {
		const query = new URLSearchParams(params).toString();
		return htmlResponse(200, loginPage(`/auth/oauth/authorize?${query}`, params));
	}
	ctx.log.username = user.username;
	const code = crypto.randomBytes(24).toString('base64url');
	const rec = {
		code,
		clientId: client.clientId,
		username: user.username,
		redirectUri: sentRedirect,
		effectiveRedirectUri: effectiveRedirect,
		state: params.state === undefined ? null : params.state,
		issuedAt: emu.now(),
		expiresAt: emu.now() + CODE_TTL_SECONDS * 1000,
		used: false,
	};
	emu._codes.set(code, rec);
	emu.state.authorizationCodes.push(rec);
	if (!effectiveRedirect) {
		return htmlResponse(
			200,
			`<!DOCTYPE html><html><body><h1>Authorization code</h1><p>Copy this code into the application:</p><code id="code">${escapeHtml(
				code,
			)}</code></body></html>`,
			/** @type {Record<string,string>} */ (extraHeaders),
		);
	}
	return redirect(withQuery(effectiveRedirect, { code, ...stateParam }), extraHeaders);
}

/** GET /auth/login: the HTML login page misconfigured clients are sent to. */
function loginLanding() {
	return htmlResponse(200, loginPage('/auth/login', {}, 'Please sign in'));
}

/** @param {Emulator} emu @param {RequestContext} ctx */
function logout(emu, ctx) {
	const sid = sessionIdOf(ctx.headers.cookie);
	if (sid) emu._sessions.delete(sid);
	return htmlResponse(200, '<!DOCTYPE html><html><body>Signed out</body></html>', {
		'set-cookie': `${SESSION_COOKIE}=; Path=/auth; Max-Age=0`,
	});
}

/**
 * @param {Emulator} emu @param {RequestContext} ctx @param {string[]} rest path segments after "auth"
 */
function handleAuth(emu, ctx, rest) {
	const route = rest.join('/').toLowerCase();
	switch (route) {
		case 'oauth/token':
			return oauthToken(emu, ctx);
		case 'oauth/authorize':
			return authorize(emu, ctx);
		case 'jwt/token':
			return jwtToken(emu, ctx);
		case 'login':
			return loginLanding();
		case 'logout':
			return logout(emu, ctx);
		default:
			return oauthError(404, 'not_found', `No endpoint ${ctx.method} ${ctx.path}`);
	}
}

module.exports = { handleAuth, SESSION_COOKIE, CODE_TTL_SECONDS };
