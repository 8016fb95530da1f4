import type {
	IAuthenticateGeneric,
	ICredentialDataDecryptedObject,
	ICredentialTestRequest,
	ICredentialType,
	IHttpRequestHelper,
	INodeProperties,
	Icon,
} from 'n8n-workflow';

import {
	authServerUrlField,
	baseUrlField,
	clientIdField,
	clientSecretField,
	passwordField,
	tokenFields,
	usernameField,
} from './common/fields';
import { contractorJwtLogin } from './common/tokenClient';

/**
 * Contractor API login: POST /jwt/token with the client as Basic and the user's name and password
 * (no grant type), renewed with the refresh token. The JWT (up to 4 hours) is sent as Bearer.
 */
export class WorkOrderServiceContractorApi implements ICredentialType {
	name = 'workOrderServiceContractorApi';

	displayName = 'Work Order Service Contractor API';

	icon: Icon = {
		light: 'file:../nodes/WorkOrderService/workOrderService.svg',
		dark: 'file:../nodes/WorkOrderService/workOrderService.dark.svg',
	};

	documentationUrl = 'https://github.com/n8n-nodes-work-order-service/n8n-nodes-work-order-service#credentials';

	properties: INodeProperties[] = [
		authServerUrlField,
		baseUrlField,
		clientIdField,
		clientSecretField,
		usernameField,
		passwordField,
		...tokenFields,
	];

	async preAuthentication(this: IHttpRequestHelper, credentials: ICredentialDataDecryptedObject) {
		return await contractorJwtLogin(this, credentials);
	}

	authenticate: IAuthenticateGeneric = {
		type: 'generic',
		properties: {
			headers: {
				Authorization: '=Bearer {{$credentials.accessToken}}',
			},
		},
	};

	test: ICredentialTestRequest = {
		request: {
			// The API Base URL may be entered with or without a trailing slash or /v3.
			baseURL: '={{$credentials.baseUrl.replace(/\\/+$/, "").replace(/\\/v3$/i, "")}}',
			url: '/v3/odata/workorders',
			qs: { $top: 1 },
		},
	};
}
