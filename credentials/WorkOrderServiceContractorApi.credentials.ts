import type { ICredentialTestRequest, ICredentialType, INodeProperties, Icon } from 'n8n-workflow';

import * as login from '../nodes/WorkOrderService/descriptions/credentialFields';

/**
 * Contractor API login: POST /jwt/token with the client as Basic and the user's name and password
 * (no grant type), renewed with the refresh token. The JWT (up to 4 hours) is sent as Bearer.
 */
export class WorkOrderServiceContractorApi
	extends login.TokenLoginCredential
	implements ICredentialType
{
	name = 'workOrderServiceContractorApi';

	displayName = 'Work Order Service Contractor JWT API';

	icon: Icon = login.credentialIcon;

	documentationUrl =
		'https://github.com/n8n-nodes-work-order-service/n8n-nodes-work-order-service#credentials';

	properties: INodeProperties[] = [...login.loginFields, ...login.tokenFields];

	test: ICredentialTestRequest = login.credentialTest;

	constructor() {
		super('contractor');
	}
}
