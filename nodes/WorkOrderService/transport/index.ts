/**
 * The node's transport: the only code that speaks HTTP (see client.ts), with paging, multipart and
 * lossless JSON beside it.
 */
export {
	CREDENTIAL_TYPES,
	DEFAULT_SETTINGS,
	WorkOrderServiceClient,
	asRecord,
	outcomeOfError,
	nodeParameter,
	ownRecord,
	readAuthentication,
	readSettings,
	type ApiRequest,
	type ApiResponse,
	type AuthenticationMethod,
	type ClientContext,
	type ItemOutcome,
	type RequestSettings,
} from './client';
export {
	NOTES_LIST,
	ODATA_LIST,
	PAGE_SIZE,
	WHOLE_LIST,
	isLastPage,
	readList,
	readPage,
	toRecords,
	withoutODataAnnotations,
	type ListShape,
} from './paging';
