import type { ICredentialDataDecryptedObject, IHttpRequestOptions } from 'n8n-workflow';

import { originOf } from './http';
import { tokenIdentity, type LoginKind } from './loginConfig';

/**
 * The credential's `authenticate`: adds `Authorization: Bearer <token>` only when
 * - the token was issued for the credential's current settings (servers, client, user, child
 *   subscriber): after the user edited any of them the old token is not sent; the service answers
 *   401 and n8n logs in afresh through `preAuthentication`;
 * - the request goes to the origin of the credential's API Base URL: the token never goes to
 *   another server, also when the credential is used in n8n's HTTP Request node.
 * It also tells n8n's request layer not to carry credentials across origins on a redirect.
 */
export function bearerAuthentication(kind: LoginKind) {
	return async (
		credentials: ICredentialDataDecryptedObject,
		requestOptions: IHttpRequestOptions,
	): Promise<IHttpRequestOptions> => {
		const options = requestOptions as IHttpRequestOptions & { sendCredentialsOnCrossOriginRedirect?: boolean };
		options.sendCredentialsOnCrossOriginRedirect = false;
		const token = typeof credentials.accessToken === 'string' ? credentials.accessToken : '';
		if (token === '') return options;
		let identity: string;
		let apiOrigin: string | undefined;
		try {
			const settings = tokenIdentity(kind, credentials);
			identity = settings.identity;
			apiOrigin = originOf(settings.baseUrl);
		} catch {
			return options;
		}
		// n8n's request helpers use `url` (+ `baseURL`); its legacy request API (the HTTP Request node) uses `uri`.
		const url = String(options.url ?? (options as { uri?: unknown }).uri ?? '');
		const target = /^https?:\/\//i.test(url) || !options.baseURL ? url : `${options.baseURL.replace(/\/+$/, '')}/${url.replace(/^\/+/, '')}`;
		const targetOrigin = originOf(target);
		if (credentials.tokenIdentity !== identity || targetOrigin === undefined || targetOrigin !== apiOrigin) {
			return options;
		}
		options.headers = { ...(options.headers ?? {}), Authorization: `Bearer ${token}` };
		return options;
	};
}
