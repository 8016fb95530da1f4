import type { ICredentialDataDecryptedObject } from 'n8n-workflow';
import { createHash } from 'crypto';

import { WorkOrderServiceAuthError, joinUrl } from './http';
import { SecretSet } from './secrets';

/**
 * What a password-grant or contractor credential says about its login, read and checked before
 * anything is sent: servers, client, user, child subscriber, the token endpoint, the identity a
 * token belongs to, and the credential's secrets (for redaction).
 */

export type LoginKind = 'password' | 'contractor';

export interface LoginConfig {
	kind: LoginKind;
	authServerUrl: string;
	/** API Base URL without /v3 and trailing slashes. */
	baseUrl: string;
	clientId: string;
	username: string;
	password: string;
	subsidiaryId?: string;
	/** `Basic BASE64(client_id:client_secret)` */
	basic: string;
	tokenUrl: string;
	/**
	 * Which settings a token belongs to (no secrets): a stored token is used only while the
	 * credential still has the same servers, client, user and child subscriber.
	 */
	identity: string;
	/** identity + a digest of the secrets: tokens are shared only with callers that know the same secrets. */
	key: string;
	secrets: SecretSet;
}

/** `Basic BASE64(client_id:client_secret)`, exactly: no encoding of the parts, no spaces. */
export function basicAuthHeader(clientId: string, clientSecret: string): string {
	return `Basic ${Buffer.from(`${clientId}:${clientSecret}`, 'utf8').toString('base64')}`;
}

/** Validates a configured http(s) URL; returns it without trailing slashes. */
export function requireUrl(value: unknown, label: string): string {
	const text = typeof value === 'string' ? value.trim() : '';
	if (!/^https?:\/\/[^\s/]+/i.test(text)) {
		throw new WorkOrderServiceAuthError(
			'configuration',
			`The credential's ${label} must be an http(s) URL, e.g. https://login.example.com`,
		);
	}
	return text.replace(/\/+$/, '');
}

/** The API Base URL as the node uses it: no trailing slash, no /v3 (the node appends it). */
export function normalizeBaseUrl(value: unknown): string {
	return requireUrl(value, 'API Base URL').replace(/\/v3$/i, '');
}

export function requireText(value: unknown, label: string): string {
	const text = typeof value === 'string' ? value.trim() : typeof value === 'number' ? String(value) : '';
	if (text === '') {
		throw new WorkOrderServiceAuthError('configuration', `The credential's ${label} is empty`);
	}
	return text;
}

/** Secrets are compared as typed: a password may legitimately start or end with a space. */
function requireSecret(value: unknown, label: string): string {
	if (typeof value !== 'string' || value === '') {
		throw new WorkOrderServiceAuthError('configuration', `The credential's ${label} is empty`);
	}
	return value;
}

/** The optional Child Subscriber ID of a password-grant credential: a positive whole number or nothing. */
function optionalSubsidiaryId(raw: unknown): string | undefined {
	const text = raw === undefined || raw === null ? '' : String(raw).trim();
	if (text === '') return undefined;
	if (!/^[1-9]\d{0,18}$/.test(text)) {
		throw new WorkOrderServiceAuthError(
			'configuration',
			"The credential's Child Subscriber ID must be a positive whole number (or empty)",
		);
	}
	return text;
}

function sameUrlKey(url: string): string {
	return url.replace(/^[a-z]+:\/\/[^/]+/i, (prefix) => prefix.toLowerCase());
}

/** Which settings a token belongs to (no secrets), from the credential's fields; throws when they are unusable. */
export function tokenIdentity(kind: LoginKind, credentials: ICredentialDataDecryptedObject) {
	const authServerUrl = requireUrl(credentials.authServerUrl, 'Authorization Server URL');
	const baseUrl = normalizeBaseUrl(credentials.baseUrl);
	const clientId = requireText(credentials.clientId, 'Client ID');
	const username = requireText(credentials.username, 'Username');
	const subsidiaryId = kind === 'password' ? optionalSubsidiaryId(credentials.subsidiaryId) : undefined;
	const identity = [
		kind === 'password' ? 'oauth' : 'jwt',
		sameUrlKey(authServerUrl),
		sameUrlKey(baseUrl),
		clientId,
		username.toLowerCase(),
		subsidiaryId ?? '',
	].join('|');
	return { authServerUrl, baseUrl, clientId, username, subsidiaryId, identity };
}

/** Reads and checks the credential fields a login needs; computes the token identity. */
export function loginConfig(kind: LoginKind, credentials: ICredentialDataDecryptedObject): LoginConfig {
	const settings = tokenIdentity(kind, credentials);
	const clientSecret = requireSecret(credentials.clientSecret, 'Client Secret');
	const password = requireSecret(credentials.password, 'Password');
	const digest = createHash('sha256').update(`${settings.identity}\u0000${clientSecret}\u0000${password}`);
	return {
		kind,
		...settings,
		password,
		basic: basicAuthHeader(settings.clientId, clientSecret),
		tokenUrl: joinUrl(settings.authServerUrl, kind === 'password' ? '/oauth/token' : '/jwt/token'),
		key: digest.digest('hex'),
		secrets: new SecretSet().addBasic(settings.clientId, clientSecret).addBasic(settings.username, password),
	};
}
