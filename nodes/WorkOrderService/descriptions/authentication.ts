import type { INodeCredentialDescription, INodeProperties } from 'n8n-workflow';

/**
 * The login choice both nodes (the action node and the trigger) offer: the Authentication
 * parameter and, for each value, the one credential type it takes. Each credential is hidden for
 * the other two logins (rather than shown for its own), so that n8n's editor lists and auto-selects
 * only credentials of the chosen login for a new node.
 */
export const credentials: INodeCredentialDescription[] = [
	{
		name: 'workOrderServiceApi',
		required: true,
		displayOptions: { hide: { authentication: ['oAuth2', 'contractor'] } },
	},
	{
		name: 'workOrderServiceOAuth2Api',
		required: true,
		displayOptions: { hide: { authentication: ['password', 'contractor'] } },
	},
	{
		name: 'workOrderServiceContractorApi',
		required: true,
		displayOptions: { hide: { authentication: ['password', 'oAuth2'] } },
	},
];

export const authenticationProperty: INodeProperties = {
	displayName: 'Authentication',
	name: 'authentication',
	type: 'options',
	options: [
		{
			name: 'Authorization Code (OAuth2)',
			value: 'oAuth2',
			description:
				'A user signs in on the service\'s own page (Connect button); credential "Work Order Service Authorization Code OAuth2 API"',
		},
		{
			name: 'Contractor (JWT)',
			value: 'contractor',
			description:
				'A contractor (provider) user logs in to the contractor API with a JWT; credential "Work Order Service Contractor JWT API"',
		},
		{
			name: 'Password Grant',
			value: 'password',
			description:
				'A subscriber user logs in with name and password (OAuth2 password grant); credential "Work Order Service Password Grant API"',
		},
	],
	default: 'password',
	description: 'Which login the node uses. Only credentials of this login can be selected.',
};

/**
 * A polling node's parameters with Authentication first. n8n's loader puts Poll Times in front of a
 * polling node's parameters (n8n-core: `properties.unshift(...commonPollingParameters)`), which would
 * show Authentication, and the credential beside it, below Poll Times; n8n's own nodes show the
 * credential and Authentication first. This list takes what n8n puts in front after Authentication.
 */
class AuthenticationFirst extends Array<INodeProperties> {
	unshift(...items: INodeProperties[]): number {
		this.splice(this[0]?.name === 'authentication' ? 1 : 0, 0, ...items);
		return this.length;
	}
}

export function authenticationFirst(properties: INodeProperties[]): INodeProperties[] {
	return AuthenticationFirst.from(properties);
}
