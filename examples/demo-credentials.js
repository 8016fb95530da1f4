// @ts-check
'use strict';
/**
 * The credentials the example workflows refer to (by id), filled in for a running emulator.
 * Used by the demo, the tests and the real-n8n end-to-end run (which imports them).
 * @param {{ authUrl: string, baseUrl: string, fixtures: any }} emulator
 */
function demoCredentials(emulator) {
	const client = emulator.fixtures.clients.main;
	const users = emulator.fixtures.users;
	const common = {
		authServerUrl: emulator.authUrl,
		baseUrl: emulator.baseUrl,
		clientId: client.clientId,
		clientSecret: client.clientSecret,
	};
	return [
		{
			id: 'wosPasswordDemo',
			name: 'Work Order Service (emulator, subscriber)',
			type: 'workOrderServiceApi',
			data: { ...common, username: users.subscriber.username, password: users.subscriber.password, subsidiaryId: '' },
		},
		{
			id: 'wosUniversalDemo',
			name: 'Work Order Service (emulator, universal user)',
			type: 'workOrderServiceApi',
			data: { ...common, username: users.universal.username, password: users.universal.password, subsidiaryId: '' },
		},
		{
			id: 'wosChildDemo',
			name: 'Work Order Service (emulator, child subscriber 2001)',
			type: 'workOrderServiceApi',
			data: { ...common, username: users.universal.username, password: users.universal.password, subsidiaryId: '2001' },
		},
		{
			id: 'wosContractorDemo',
			name: 'Work Order Service Contractor (emulator)',
			type: 'workOrderServiceContractorApi',
			data: { ...common, username: users.contractor.username, password: users.contractor.password },
		},
	];
}

module.exports = { demoCredentials };
