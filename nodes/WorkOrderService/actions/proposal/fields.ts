import type { INodeProperties } from 'n8n-workflow';

import { emailField } from '../../helpers/fields';
import { optionalOneOf, optionalText, type Field, type FieldSpec } from '../../helpers/validation';
import { commentsField } from '../move';

/**
 * What the proposal operations share: the proposal, chosen from a list or given by ID, and the body
 * of the four moves (spec 3 and 4.6: PUT /proposals/{proposalId}/{move} with an
 * UpdateProposalStatusRequest, answered 204). Each move's operation file adds its own fields.
 */

export const PROPOSAL_ID: Field = { name: 'proposalId', label: 'Proposal ID' };

/**
 * The proposal, picked from a searchable list of the service's proposals (methods/proposalSearch.ts)
 * or given by ID. Workflows that hold a plain number, digit string or expression here keep working
 * (readLocatorId accepts them).
 */
export const proposalIdProperty: INodeProperties = {
	displayName: 'Proposal',
	name: 'proposalId',
	type: 'resourceLocator',
	default: { mode: 'list', value: '' },
	required: true,
	description: 'The proposal, chosen from the list or given by its ID',
	modes: [
		{
			displayName: 'From List',
			name: 'list',
			type: 'list',
			placeholder: 'Select a proposal...',
			typeOptions: { searchListMethod: 'searchProposals', searchable: true },
		},
		{
			displayName: 'By ID',
			name: 'id',
			type: 'string',
			placeholder: 'e.g. 61001',
			validation: [
				{
					type: 'regex',
					properties: {
						// Empty is left to the "required" check; anything typed must be an ID (not 0).
						regex: '^\\s*([0-9]*[1-9][0-9]*)?\\s*$',
						errorMessage: 'Not a proposal ID: enter digits only, e.g. 61001',
					},
				},
			],
		},
	],
};

/** The body fields of every move, in the order they are checked. */
export const statusChangeFields: FieldSpec[] = [
	commentsField('Reason for the status change; added to the work order notes', {
		key: 'Comments',
		check: optionalText,
	}),
	emailField(
		'Provider Email',
		'providerEmail',
		'ProviderEmail',
		'Who gets the status-change notification on the provider side. Default: the e-mail of the provider the proposal is assigned to.',
	),
	emailField(
		'User Email',
		'userEmail',
		'UserEmail',
		'Who gets the notification on the subscriber side. Default: the e-mail of the current user.',
	),
	{
		property: {
			displayName: 'Action Source',
			name: 'actionSource',
			type: 'options',
			default: 'Standard',
			options: [
				{
					name: 'Decision Engine',
					value: 'DecisionEngine',
					description: 'The change follows an automated decision tool',
				},
				{ name: 'Standard', value: 'Standard', description: 'A person decided' },
			],
			description: 'Whether the change follows the recommendation of an automated decision tool',
		},
		key: 'ActionSource',
		check: optionalOneOf(['Standard', 'DecisionEngine']),
	},
];
