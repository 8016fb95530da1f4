import { idField } from '../../helpers/fields';
import { optionalOneOf, type FieldSpec } from '../../helpers/fieldList';
import { optionalEmail, optionalText } from '../../helpers/validation';

/**
 * What the four proposal moves (spec 3 and 4.6) share: PUT /proposals/{proposalId}/{move} with an
 * UpdateProposalStatusRequest body, answered 204. Each move's operation file adds its own fields.
 */

export const proposalIdProperty = idField({
	displayName: 'Proposal ID',
	name: 'proposalId',
	example: '61001',
	required: true,
	description: 'ID of the proposal whose status changes',
});

/** The body fields of every move, in the order they are checked. */
export const statusChangeFields: FieldSpec[] = [
	{
		property: {
			displayName: 'Comments',
			name: 'comments',
			type: 'string',
			default: '',
			typeOptions: { rows: 2 },
			description: 'Reason for the status change; added to the work order notes',
		},
		key: 'Comments', check: optionalText,
	},
	{
		property: {
			displayName: 'Provider Email',
			name: 'providerEmail',
			type: 'string',
			placeholder: 'name@email.com',
			default: '',
			description:
				'Who gets the status-change notification on the provider side. Default: the e-mail of the provider the proposal is assigned to.',
		},
		key: 'ProviderEmail', check: optionalEmail,
	},
	{
		property: {
			displayName: 'User Email',
			name: 'userEmail',
			type: 'string',
			placeholder: 'name@email.com',
			default: '',
			description: 'Who gets the notification on the subscriber side. Default: the e-mail of the current user.',
		},
		key: 'UserEmail', check: optionalEmail,
	},
	{
		property: {
			displayName: 'Action Source',
			name: 'actionSource',
			type: 'options',
			default: 'Standard',
			options: [
				{ name: 'Decision Engine', value: 'DecisionEngine', description: 'The change follows an automated decision tool' },
				{ name: 'Standard', value: 'Standard', description: 'A person decided' },
			],
			description: 'Whether the change follows the recommendation of an automated decision tool',
		},
		key: 'ActionSource', check: optionalOneOf(['Standard', 'DecisionEngine']),
	},
];
