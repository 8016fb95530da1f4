import type { INodeProperties } from 'n8n-workflow';

import { optionalEmail, trimmedText, type FieldSpec } from './validation';
import { WORK_ORDER_SEARCH_HINT } from './workOrderSearch';

/** Parameter definitions used by several operations (display options are added per operation). */

/**
 * The work order, picked from a searchable list of the service's work orders or given by ID.
 * Saved workflows that hold a plain number or an expression here keep working: execution reads
 * the value with `extractValue` (see params.ts), which passes plain values through.
 */
export const workOrderIdField: INodeProperties = {
	displayName: 'Work Order',
	name: 'workOrderId',
	type: 'resourceLocator',
	default: { mode: 'list', value: '' },
	required: true,
	description: 'The work order, chosen from the list or given by its ID',
	modes: [
		{
			displayName: 'From List',
			name: 'list',
			type: 'list',
			placeholder: 'Select a work order...',
			hint: WORK_ORDER_SEARCH_HINT,
			typeOptions: {
				searchListMethod: 'searchWorkOrders',
				searchable: true,
			},
		},
		{
			displayName: 'By ID',
			name: 'id',
			type: 'string',
			placeholder: 'e.g. 90000001',
			validation: [
				{
					type: 'regex',
					properties: {
						// Empty is left to the "required" check; anything typed must be an ID (not 0).
						regex: '^\\s*([0-9]*[1-9][0-9]*)?\\s*$',
						errorMessage: 'Not a work order ID: enter digits only, e.g. 90000001',
					},
				},
			],
		},
	],
};

/** A text parameter with an example placeholder ("e.g. ..."), as n8n's UX guidelines write them. */
export function textField(options: {
	displayName: string;
	name: string;
	example: string;
	description: string;
	required?: boolean;
}): INodeProperties {
	const field: INodeProperties = {
		displayName: options.displayName,
		name: options.name,
		type: 'string',
		default: '',
		placeholder: `e.g. ${options.example}`,
		description: options.description,
	};
	if (options.required) field.required = true;
	return field;
}

/** The required "Note" text of a note (a work order's note, a location's note): sent as `key`. */
export function noteTextField(options: {
	rows: number;
	description: string;
	key: string;
	check: FieldSpec['check'];
}): FieldSpec {
	return {
		property: {
			displayName: 'Note',
			name: 'note',
			type: 'string',
			required: true,
			default: '',
			typeOptions: { rows: options.rows },
			description: options.description,
		},
		key: options.key,
		check: options.check,
	};
}

/**
 * A date-time parameter the user gives in the workflow's time zone unless it carries an offset:
 * the sentence saying so ends every description.
 */
export function dateTimeField(
	displayName: string,
	name: string,
	description: string,
): INodeProperties {
	return {
		displayName,
		name,
		type: 'dateTime',
		default: '',
		description: `${description} Without an offset it is read in the workflow's time zone`,
	};
}

/**
 * A numeric ID typed or mapped by the user: text (so that nothing is clamped or rounded and an
 * empty field stays empty), checked as a positive whole number before any request.
 */
export const idField = textField;

/**
 * An e-mail address to notify (Provider Email, User Email): one placeholder and check wherever it
 * stands; `description` says who gets what.
 */
export function emailField(
	displayName: string,
	name: string,
	key: string,
	description: string,
): FieldSpec {
	return {
		property: textField({ displayName, name, example: 'name@example.com', description }),
		key,
		check: optionalEmail,
	};
}

export const noteIdField: INodeProperties = {
	displayName: 'Note ID',
	name: 'noteId',
	type: 'string',
	required: true,
	default: '',
	placeholder: 'e.g. 9007199254740993',
	description:
		"ID of the work order note (a 64-bit number). Map it from a previous step's note ID: this node outputs note IDs as text, so no digit is lost.",
};

const returnAllField: INodeProperties = {
	displayName: 'Return All',
	name: 'returnAll',
	type: 'boolean',
	default: false,
	description: 'Whether to return all results or only up to a given limit',
};

/** Shown while Return All is off (read with readLimit). */
export const limitField: INodeProperties = {
	displayName: 'Limit',
	name: 'limit',
	type: 'number',
	default: 50,
	typeOptions: { minValue: 1 },
	displayOptions: { show: { returnAll: [false] } },
	description: 'Max number of results to return',
};

export const returnAllOrLimitFields: INodeProperties[] = [returnAllField, limitField];

export const binaryPropertyField: INodeProperties = {
	displayName: 'Input Binary Field',
	name: 'binaryPropertyName',
	type: 'string',
	default: 'data',
	required: true,
	hint: 'The name of the input binary field containing the file to upload',
	description: 'Name of the binary property of the input item that holds the file',
};

/**
 * The OData query options of a Get Many (OData Filter, Order By, Select), in the order they are
 * checked: one name, label and check each wherever they stand; `records` names what is listed
 * ("work order", "proposal"), the placeholders are each list's own fields.
 */
export function odataQueryOptions(
	records: string,
	examples: { filter: string; orderBy: string; select: string },
	filterNote = '',
): FieldSpec[] {
	const query = (property: INodeProperties, key: string): FieldSpec => ({
		property,
		key,
		in: 'query',
		check: trimmedText,
	});
	return [
		query(
			{
				displayName: 'OData Filter',
				name: 'filter',
				type: 'string',
				default: '',
				placeholder: `e.g. ${examples.filter}`,
				description: `Your own OData $filter clause on the ${records}'s properties, ANDed with the Filters${filterNote}`,
			},
			'$filter',
		),
		query(
			{
				displayName: 'Order By',
				name: 'orderBy',
				type: 'string',
				default: '',
				placeholder: `e.g. ${examples.orderBy}`,
				description: `OData $orderby expression on the ${records}'s properties`,
			},
			'$orderby',
		),
		query(
			{
				displayName: 'Select',
				name: 'select',
				type: 'string',
				default: '',
				placeholder: `e.g. ${examples.select}`,
				description: `Comma-separated top-level properties of the ${records} to return (OData $select)`,
			},
			'$select',
		),
	];
}
