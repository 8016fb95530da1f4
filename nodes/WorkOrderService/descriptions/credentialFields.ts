import type { ICredentialTestRequest, INodeProperties, Icon } from 'n8n-workflow';

import { TEST_HEADER, bearerAuthentication, preAuthenticator } from '../auth/tokens';

/**
 * Fields shared by the token-login credentials. The hidden ones are written by
 * `preAuthentication` and persisted by n8n; `accessToken` is the expirable field n8n watches.
 */
export const authServerUrlField: INodeProperties = {
	displayName: 'Authorization Server URL',
	name: 'authServerUrl',
	type: 'string',
	default: '',
	required: true,
	placeholder: 'https://login.example.com',
	description:
		'Address of the authorization server that serves /oauth/token and /jwt/token. It differs between production and sandbox.',
};

export const baseUrlField: INodeProperties = {
	displayName: 'API Base URL',
	name: 'baseUrl',
	type: 'string',
	default: '',
	required: true,
	placeholder: 'https://api.example.com',
	description: 'Address of the service API, without the version segment: the node appends /v3',
};

export const clientIdField: INodeProperties = {
	displayName: 'Client ID',
	name: 'clientId',
	type: 'string',
	default: '',
	required: true,
};

export const clientSecretField: INodeProperties = {
	displayName: 'Client Secret',
	name: 'clientSecret',
	type: 'string',
	typeOptions: { password: true },
	default: '',
	required: true,
};

export const usernameField: INodeProperties = {
	displayName: 'Username',
	name: 'username',
	type: 'string',
	default: '',
	required: true,
};

export const passwordField: INodeProperties = {
	displayName: 'Password',
	name: 'password',
	type: 'string',
	typeOptions: { password: true },
	default: '',
	required: true,
};

/** What a token-login credential asks for: servers, client and user (password grant and contractor JWT alike). */
export const loginFields: INodeProperties[] = [
	authServerUrlField,
	baseUrlField,
	clientIdField,
	clientSecretField,
	usernameField,
	passwordField,
];

export const tokenFields: INodeProperties[] = [
	{
		displayName: 'Access Token',
		name: 'accessToken',
		type: 'hidden',
		typeOptions: { expirable: true, password: true },
		default: '',
	},
	{
		displayName: 'Refresh Token',
		name: 'refreshToken',
		type: 'hidden',
		typeOptions: { password: true },
		default: '',
	},
	{
		displayName: 'Access Token Expires At',
		name: 'accessTokenExpiresAt',
		type: 'hidden',
		default: '',
	},
	{
		displayName: 'Access Token Issued At',
		name: 'accessTokenIssuedAt',
		type: 'hidden',
		default: '',
	},
	{
		displayName: 'Refresh Token Expires At',
		name: 'refreshTokenExpiresAt',
		type: 'hidden',
		default: '',
	},
	{
		displayName: 'Token Identity',
		name: 'tokenIdentity',
		type: 'hidden',
		default: '',
	},
	{
		displayName: 'Token Scope',
		name: 'tokenScope',
		type: 'hidden',
		default: '',
	},
];

export const credentialIcon: Icon = {
	light: 'file:../nodes/WorkOrderService/workOrderService.svg',
	dark: 'file:../nodes/WorkOrderService/workOrderService.dark.svg',
};

/**
 * Reads one work order. For the token credentials n8n runs `preAuthentication` before it; the
 * marker header (removed before sending) keeps this request from counting as a use of the token,
 * so the next Test logs in afresh with the stored secrets (auth/tokens.ts). The API Base URL may
 * be entered with or without a trailing slash or /v3.
 */
export const credentialTest: ICredentialTestRequest = {
	request: {
		baseURL: '={{$credentials.baseUrl.replace(/\\/+$/, "").replace(/\\/v3$/i, "")}}',
		url: '/v3/odata/workorders',
		qs: { $top: 1 },
		headers: { [TEST_HEADER]: 'true' },
	},
};

/** The OAuth2 (code grant) credential's Test: the same read with the connected token; n8n refreshes it when refused. */
export const oAuth2CredentialTest: ICredentialTestRequest = {
	request: { ...credentialTest.request, headers: {} },
};

/**
 * The login of the two token credentials (password grant, contractor JWT): `preAuthentication`
 * logs in or renews (auth/tokens.ts) and `authenticate` sends the token as Bearer. Each credential
 * class declares its name, fields, icon, documentation and Test itself (n8n's lint asks for them
 * in the class) and passes its kind of login.
 */
export abstract class TokenLoginCredential {
	preAuthentication: ReturnType<typeof preAuthenticator>;

	authenticate: ReturnType<typeof bearerAuthentication>;

	constructor(login: Parameters<typeof preAuthenticator>[0]) {
		this.preAuthentication = preAuthenticator(login);
		this.authenticate = bearerAuthentication(login);
	}
}
