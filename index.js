'use strict';
// n8n loads this package's nodes and credentials through the "n8n" section of package.json.
// This entry point exposes the same classes for programmatic use (tests, other tooling).
module.exports = {
	get WorkOrderService() {
		return require('./dist/nodes/WorkOrderService/WorkOrderService.node').WorkOrderService;
	},
	get WorkOrderServiceApi() {
		return require('./dist/credentials/WorkOrderServiceApi.credentials').WorkOrderServiceApi;
	},
	get WorkOrderServiceOAuth2Api() {
		return require('./dist/credentials/WorkOrderServiceOAuth2Api.credentials')
			.WorkOrderServiceOAuth2Api;
	},
	get WorkOrderServiceContractorApi() {
		return require('./dist/credentials/WorkOrderServiceContractorApi.credentials')
			.WorkOrderServiceContractorApi;
	},
};
