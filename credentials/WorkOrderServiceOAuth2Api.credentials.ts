import type { ICredentialTestRequest, ICredentialType, INodeProperties, Icon } from 'n8n-workflow';

/**
 * OAuth2 authorization-code grant. n8n's own OAuth2 machinery does the Connect flow, stores the
 * tokens and refreshes them; this type only points it at the service's endpoints and sends the
 * client credentials as the Basic header (spec 4.1 and 4.2).
 */
export class WorkOrderServiceOAuth2Api implements ICredentialType {
	name = 'workOrderServiceOAuth2Api';

	extends = ['oAuth2Api'];

	displayName = 'Work Order Service OAuth2 API';

	icon: Icon = {
		light: 'file:../nodes/WorkOrderService/workOrderService.svg',
		dark: 'file:../nodes/WorkOrderService/workOrderService.dark.svg',
	};

	documentationUrl = 'https://github.com/n8n-nodes-work-order-service/n8n-nodes-work-order-service#credentials';

	properties: INodeProperties[] = [
		{
			displayName: 'Grant Type',
			name: 'grantType',
			type: 'hidden',
			default: 'authorizationCode',
		},
		{
			displayName: 'Authorization Server URL',
			name: 'authServerUrl',
			type: 'string',
			default: '',
			required: true,
			placeholder: 'https://login.example.com',
			description:
				'Address of the authorization server that serves /oauth/authorize and /oauth/token. It differs between production and sandbox.',
		},
		{
			displayName: 'API Base URL',
			name: 'baseUrl',
			type: 'string',
			default: '',
			required: true,
			placeholder: 'https://api.example.com',
			description: 'Address of the service API, without the version segment: the node appends /v3',
		},
		{
			displayName: 'Authorization URL',
			name: 'authUrl',
			type: 'hidden',
			default: '={{$self["authServerUrl"].replace(/\\/+$/, "")}}/oauth/authorize',
		},
		{
			displayName: 'Access Token URL',
			name: 'accessTokenUrl',
			type: 'hidden',
			default: '={{$self["authServerUrl"].replace(/\\/+$/, "")}}/oauth/token',
		},
		{
			displayName: 'Scope',
			name: 'scope',
			type: 'hidden',
			default: '',
		},
		{
			displayName: 'Auth URI Query Parameters',
			name: 'authQueryParameters',
			type: 'hidden',
			default: '',
		},
		{
			displayName: 'Authentication',
			name: 'authentication',
			type: 'hidden',
			default: 'header',
		},
	];

	test: ICredentialTestRequest = {
		request: {
			// The API Base URL may be entered with or without a trailing slash or /v3.
			baseURL: '={{$credentials.baseUrl.replace(/\\/+$/, "").replace(/\\/v3$/i, "")}}',
			url: '/v3/odata/workorders',
			qs: { $top: 1 },
		},
	};
}
