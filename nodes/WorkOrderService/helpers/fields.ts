import type { INodeProperties } from 'n8n-workflow';

/** Parameter definitions used by several operations (display options are added per operation). */

export const workOrderIdField: INodeProperties = {
	displayName: 'Work Order ID',
	name: 'workOrderId',
	type: 'number',
	required: true,
	default: 0,
	typeOptions: { minValue: 1, numberPrecision: 0 },
	description: 'ID of the work order',
};

export const noteIdField: INodeProperties = {
	displayName: 'Note ID',
	name: 'noteId',
	type: 'string',
	required: true,
	default: '',
	placeholder: '9007199254740993',
	description:
		'ID of the work order note. Note IDs are 64-bit numbers: map them as text from a previous step\'s output so that no digit is lost.',
};

export const returnAllField: INodeProperties = {
	displayName: 'Return All',
	name: 'returnAll',
	type: 'boolean',
	default: false,
	description: 'Whether to return all results or only up to a given limit',
};

export const limitField: INodeProperties = {
	displayName: 'Limit',
	name: 'limit',
	type: 'number',
	default: 50,
	typeOptions: { minValue: 1 },
	description: 'Max number of results to return',
};

export const binaryPropertyField: INodeProperties = {
	displayName: 'Input Binary Field',
	name: 'binaryPropertyName',
	type: 'string',
	default: 'data',
	required: true,
	hint: 'The name of the input binary field containing the file to upload',
	description: 'Name of the binary property of the input item that holds the file',
};
