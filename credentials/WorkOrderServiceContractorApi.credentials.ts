import type { ICredentialTestRequest, ICredentialType, INodeProperties, Icon } from 'n8n-workflow';

import {
	TokenLoginCredential,
	credentialIcon,
	credentialTest,
	loginFields,
	tokenFields,
} from '../nodes/WorkOrderService/descriptions/credentialFields';

/**
 * Contractor API login: POST /jwt/token with the client as Basic and the user's name and password
 * (no grant type), renewed with the refresh token. The JWT (up to 4 hours) is sent as Bearer.
 */
export class WorkOrderServiceContractorApi extends TokenLoginCredential implements ICredentialType {
	name = 'workOrderServiceContractorApi';

	displayName = 'Work Order Service Contractor JWT API';

	icon: Icon = credentialIcon;

	documentationUrl =
		'https://github.com/n8n-nodes-work-order-service/n8n-nodes-work-order-service#credentials';

	properties: INodeProperties[] = [...loginFields, ...tokenFields];

	test: ICredentialTestRequest = credentialTest;

	constructor() {
		super('contractor');
	}
}
