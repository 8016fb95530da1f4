import type { ICredentialTestRequest, ICredentialType, INodeProperties, Icon } from 'n8n-workflow';

import {
	credentialIcon,
	credentialTest,
	loginFields,
	tokenFields,
} from '../nodes/WorkOrderService/descriptions/credentialFields';
import { bearerAuthentication, preAuthenticator } from '../nodes/WorkOrderService/auth/tokens';

/**
 * Contractor API login: POST /jwt/token with the client as Basic and the user's name and password
 * (no grant type), renewed with the refresh token. The JWT (up to 4 hours) is sent as Bearer.
 */
export class WorkOrderServiceContractorApi implements ICredentialType {
	name = 'workOrderServiceContractorApi';

	displayName = 'Work Order Service Contractor JWT API';

	icon: Icon = credentialIcon;

	documentationUrl =
		'https://github.com/n8n-nodes-work-order-service/n8n-nodes-work-order-service#credentials';

	properties: INodeProperties[] = [...loginFields, ...tokenFields];

	preAuthentication = preAuthenticator('contractor');

	authenticate = bearerAuthentication('contractor');

	test: ICredentialTestRequest = credentialTest;
}
