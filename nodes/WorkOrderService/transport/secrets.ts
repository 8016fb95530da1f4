/**
 * Secrets (client secret, password, tokens) in every form a service could echo them back: as sent
 * (raw, form- or percent-encoded, in a Basic header) and re-encoded (JSON-escaped, base64). Anything
 * shown to the user goes through `redact` first; the forms are worked out on the first redaction.
 */

/** Shorter values are not treated as secrets: masking them would garble ordinary words. */
const MIN_SECRET_LENGTH = 4;

/** JSON string escaping as JSON.stringify writes it, without the quotes. */
const jsonEscape = (value: string) => JSON.stringify(value).slice(1, -1);

/** JSON escaping as ASP.NET / .NET encoders write it: non-ASCII and HTML-significant characters as \uXXXX. */
function jsonEscapeStrict(value: string, upper: boolean): string {
	return jsonEscape(value).replace(/[^\x20-\x7e]|[<>&'+=]/g, (c) => {
		const hex = c.charCodeAt(0).toString(16).padStart(4, '0');
		return `\\u${upper ? hex.toUpperCase() : hex}`;
	});
}

/** Every encoding of one secret value that could appear in a message. */
export function secretForms(value: string): string[] {
	const forms = new Set<string>([value]);
	const percent = encodeURIComponent(value);
	// application/x-www-form-urlencoded as URLSearchParams writes it, encodeURI, '+' for spaces; hex escapes in either case
	for (const encoded of [
		percent,
		new URLSearchParams({ v: value }).toString().slice(2),
		encodeURI(value),
		percent.replace(/%20/g, '+'),
	]) {
		forms.add(encoded).add(encoded.replace(/%[0-9A-F]{2}/g, (m) => m.toLowerCase()));
	}
	const json = jsonEscape(value);
	forms
		.add(json)
		.add(json.replace(/\//g, '\\/'))
		.add(jsonEscapeStrict(value, false))
		.add(jsonEscapeStrict(value, true));
	const base64 = Buffer.from(value, 'utf8').toString('base64');
	forms
		.add(base64)
		.add(base64.replace(/=+$/, ''))
		.add(Buffer.from(value, 'utf8').toString('base64url'));
	return [...forms].filter((f) => f.length >= MIN_SECRET_LENGTH);
}

export class SecretSet {
	private readonly values = new Set<string>();
	private sorted?: string[];

	/** Adds a secret value (ignored when not text or too short to be one). */
	add(value: unknown): this {
		if (typeof value === 'string' && value.length >= MIN_SECRET_LENGTH && !this.values.has(value)) {
			this.values.add(value);
			this.sorted = undefined;
		}
		return this;
	}

	/** Adds the secret of a pair, and `BASE64(user:secret)` as a Basic header carries it (with and without padding). */
	addBasic(user: unknown, secret: unknown): this {
		if (typeof secret !== 'string' || secret === '') return this;
		const encoded = Buffer.from(
			`${typeof user === 'string' ? user : ''}:${secret}`,
			'utf8',
		).toString('base64');
		return this.add(secret).add(encoded).add(encoded.replace(/=+$/, '')).add(`Basic ${encoded}`);
	}

	/** Adds every secret of another set. */
	merge(other: SecretSet): this {
		for (const value of other.values) this.add(value);
		return this;
	}

	/** Replaces every known form of every secret with `[redacted]`; also any Bearer/Basic value. */
	redact(text: string): string {
		if (typeof text !== 'string' || text === '') return text;
		// longest first, so that an encoding that contains another one is removed whole
		this.sorted ??= [...new Set([...this.values].flatMap(secretForms))].sort(
			(a, b) => b.length - a.length,
		);
		let result = text;
		for (const form of this.sorted)
			if (result.includes(form)) result = result.split(form).join('[redacted]');
		return result.replace(/\b(Bearer|Basic)\s+[A-Za-z0-9\-._~+/]+=*/gi, '$1 [redacted]');
	}
}

/** The secrets a credential holds: client secret (also as Basic), password, stored tokens (its own fields and n8n's OAuth2 token data). */
export function credentialSecrets(
	credentials: Record<string, unknown>,
	secrets = new SecretSet(),
): SecretSet {
	secrets
		.addBasic(credentials.clientId, credentials.clientSecret)
		.addBasic(credentials.username, credentials.password);
	const oauth = (credentials.oauthTokenData ?? {}) as Record<string, unknown>;
	for (const value of [
		credentials.accessToken,
		credentials.refreshToken,
		oauth.access_token,
		oauth.refresh_token,
		oauth.id_token,
	])
		secrets.add(value);
	return secrets;
}

/* ---------------------------------------------------------------- tokens seen in this process */

/**
 * Per token identity, the newest tokens this process saw (a login's answer, a token presented to
 * the credential): auth/tokens.ts notes them (and bounds the map), an error made later shows none.
 */
export const tokensSeen = new Map<string, Map<string, number>>();

/** The tokens seen for `identity` (a credential's stored `tokenIdentity`). */
export function seenTokens(identity: unknown): string[] {
	return typeof identity === 'string' ? [...(tokensSeen.get(identity)?.keys() ?? [])] : [];
}
