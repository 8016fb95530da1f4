/**
 * The node's transport: the only code that speaks HTTP (see client.ts), with paging, multipart and
 * lossless JSON beside it.
 */
export {
	CREDENTIAL_TYPES,
	WorkOrderServiceClient,
	outcomeOfError,
	nodeParameter,
	readAuthentication,
	type ApiRequest,
	type ApiResponse,
	type AuthenticationMethod,
	type ClientContext,
	type ItemOutcome,
} from './client';
export { DEFAULT_SETTINGS, readSettings, type RequestSettings } from '../descriptions/requestOptions';
export {
	NOTES_LIST,
	ODATA_LIST,
	PAGE_SIZE,
	WHOLE_LIST,
	asRecord,
	isLastPage,
	ownRecord,
	readList,
	readPage,
	toRecords,
	withoutODataAnnotations,
	type ListShape,
} from './paging';
