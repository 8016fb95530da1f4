import type { ICredentialTestRequest, ICredentialType, INodeProperties, Icon } from 'n8n-workflow';

import {
	authServerUrlField,
	baseUrlField,
	credentialIcon,
	oAuth2CredentialTest,
} from '../nodes/WorkOrderService/descriptions/credentialFields';

/**
 * OAuth2 authorization-code grant. n8n's own OAuth2 machinery does the Connect flow, stores the
 * tokens and refreshes them; this type only points it at the service's endpoints and sends the
 * client credentials as the Basic header (spec 4.1 and 4.2).
 */
export class WorkOrderServiceOAuth2Api implements ICredentialType {
	name = 'workOrderServiceOAuth2Api';

	extends = ['oAuth2Api'];

	displayName = 'Work Order Service Authorization Code OAuth2 API';

	icon: Icon = credentialIcon;

	documentationUrl =
		'https://github.com/n8n-nodes-work-order-service/n8n-nodes-work-order-service#credentials';

	properties: INodeProperties[] = [
		{
			displayName: 'Grant Type',
			name: 'grantType',
			type: 'hidden',
			default: 'authorizationCode',
		},
		{
			...authServerUrlField,
			description:
				'Address of the authorization server that serves /oauth/authorize and /oauth/token. It differs between production and sandbox.',
		},
		baseUrlField,
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

	test: ICredentialTestRequest = oAuth2CredentialTest;
}
