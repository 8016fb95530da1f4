/**
 * The secrets of one credential (client secret, password, access and refresh tokens) in every form
 * in which a service could echo them back: as sent (raw, form-encoded, percent-encoded, inside a
 * Basic header) and as a server may re-encode them (JSON-escaped, base64). Anything shown to the
 * user (error messages and descriptions, error items) goes through `redact` first.
 *
 * Tokens obtained while a workflow runs are added as they are obtained, so a token issued by a
 * renewal in the middle of a run is covered too.
 */

/** Shorter values are not treated as secrets: masking them would garble ordinary words. */
const MIN_SECRET_LENGTH = 4;

/** application/x-www-form-urlencoded, exactly as URLSearchParams writes a value. */
function formEncode(value: string): string {
	return new URLSearchParams({ v: value }).toString().slice(2);
}

function lowerHexEscapes(value: string): string {
	return value.replace(/%[0-9A-F]{2}/g, (m) => m.toLowerCase());
}

/** JSON string escaping as JSON.stringify writes it, without the quotes. */
function jsonEscape(value: string): string {
	return JSON.stringify(value).slice(1, -1);
}

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
	const form = formEncode(value);
	for (const encoded of [percent, form, encodeURI(value), percent.replace(/%20/g, '+')]) {
		forms.add(encoded);
		forms.add(lowerHexEscapes(encoded));
	}
	const json = jsonEscape(value);
	forms.add(json);
	forms.add(json.replace(/\//g, '\\/'));
	forms.add(jsonEscapeStrict(value, false));
	forms.add(jsonEscapeStrict(value, true));
	const bytes = Buffer.from(value, 'utf8');
	forms.add(bytes.toString('base64'));
	forms.add(bytes.toString('base64').replace(/=+$/, ''));
	forms.add(bytes.toString('base64url'));
	return [...forms].filter((f) => f.length >= MIN_SECRET_LENGTH);
}

/** `BASE64(user:secret)` as a Basic header carries it, with and without padding. */
export function basicForms(user: string, secret: string): string[] {
	const encoded = Buffer.from(`${user}:${secret}`, 'utf8').toString('base64');
	return [encoded, encoded.replace(/=+$/, ''), `Basic ${encoded}`];
}

export class SecretSet {
	private readonly forms = new Set<string>();

	private sorted: string[] | undefined;

	/** Adds a secret value (ignored when empty or too short to be one). */
	add(value: unknown): this {
		if (typeof value !== 'string' || value.length < MIN_SECRET_LENGTH) return this;
		const before = this.forms.size;
		for (const form of secretForms(value)) this.forms.add(form);
		if (this.forms.size !== before) this.sorted = undefined;
		return this;
	}

	/** Adds the `Basic BASE64(user:secret)` value of a pair (and the secret itself). */
	addBasic(user: unknown, secret: unknown): this {
		if (typeof secret !== 'string' || secret === '') return this;
		this.add(secret);
		const before = this.forms.size;
		for (const form of basicForms(typeof user === 'string' ? user : '', secret)) this.forms.add(form);
		if (this.forms.size !== before) this.sorted = undefined;
		return this;
	}

	/** Adds every secret of another set. */
	merge(other: SecretSet): this {
		const before = this.forms.size;
		for (const form of other.forms) this.forms.add(form);
		if (this.forms.size !== before) this.sorted = undefined;
		return this;
	}

	get size(): number {
		return this.forms.size;
	}

	/** Replaces every known form of every secret with `[redacted]`; also any Bearer/Basic value. */
	redact(text: string): string {
		if (typeof text !== 'string' || text === '') return text;
		// Longest first, so that an encoding that contains another one is removed whole.
		this.sorted ??= [...this.forms].sort((a, b) => b.length - a.length);
		let result = text;
		for (const form of this.sorted) {
			if (result.includes(form)) result = result.split(form).join('[redacted]');
		}
		return result.replace(/\b(Bearer|Basic)\s+[A-Za-z0-9\-._~+/]+=*/gi, '$1 [redacted]');
	}
}

/** The secrets a credential holds: client secret (also as Basic), password, stored tokens. */
export function credentialSecrets(credentials: Record<string, unknown>): SecretSet {
	const secrets = new SecretSet();
	secrets.addBasic(credentials.clientId, credentials.clientSecret);
	secrets.addBasic(credentials.username, credentials.password);
	for (const key of ['accessToken', 'refreshToken']) secrets.add(credentials[key]);
	const oauth = credentials.oauthTokenData;
	if (oauth && typeof oauth === 'object') {
		const data = oauth as Record<string, unknown>;
		for (const key of ['access_token', 'refresh_token', 'id_token']) secrets.add(data[key]);
	}
	return secrets;
}
