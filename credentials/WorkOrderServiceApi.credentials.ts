import type { ICredentialTestRequest, ICredentialType, INodeProperties, Icon } from 'n8n-workflow';

import * as login from '../nodes/WorkOrderService/descriptions/credentialFields';

/**
 * OAuth2 resource-owner password grant, with refresh tokens and the optional child-subscriber
 * scoping step for universal users. The login runs in `preAuthentication`, so n8n stores the token
 * and reuses it for every item and execution until the service rejects it.
 */
export class WorkOrderServiceApi extends login.TokenLoginCredential implements ICredentialType {
	name = 'workOrderServiceApi';

	displayName = 'Work Order Service Password Grant API';

	icon: Icon = login.credentialIcon;

	documentationUrl =
		'https://github.com/n8n-nodes-work-order-service/n8n-nodes-work-order-service#credentials';

	properties: INodeProperties[] = [
		...login.loginFields,
		{
			displayName: 'Child Subscriber ID',
			name: 'subsidiaryId',
			type: 'string',
			default: '',
			placeholder: '2001',
			description:
				'For universal users only: the ID of the child subscriber to act as. The token is then scoped to that subscriber. Leave empty otherwise.',
		},
		...login.tokenFields,
	];

	test: ICredentialTestRequest = login.credentialTest;

	constructor() {
		super('password');
	}
}
