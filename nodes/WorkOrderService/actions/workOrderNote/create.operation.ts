import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { workOrderIdField } from '../../helpers/fields';
import { collectionOf, numberBetween, readFields, type FieldSpec } from '../../helpers/fieldList';
import { noteOut } from '../../helpers/noteIds';
import { readWorkOrderId } from '../../helpers/params';
import { optionalBoolean, optionalDateTime, optionalEmailList, requiredText } from '../../helpers/validation';
import { asRecord, type WorkOrderServiceClient } from '../../transport';
import type { OperationMeta } from '../operation';

const noteField: FieldSpec = {
	property: {
		displayName: 'Note',
		name: 'note',
		type: 'string',
		required: true,
		default: '',
		typeOptions: { rows: 4 },
		description: 'Text of the note',
	},
	key: 'NoteData', check: requiredText,
};

/** The optional fields, in the order they are checked. */
const additionalFields: FieldSpec[] = [
	{
		property: {
			displayName: 'Mailed To',
			name: 'mailedTo',
			type: 'string',
			default: '',
			placeholder: 'ops@example.com;tech@example.com',
			description: 'E-mail addresses to send the note to, separated by semicolons',
		},
		key: 'MailedTo', check: optionalEmailList,
	},
	{
		property: {
			displayName: 'Action Required',
			name: 'actionRequired',
			type: 'boolean',
			default: false,
			description: 'Whether the note asks the recipient to act',
		},
		key: 'ActionRequired', check: optionalBoolean,
	},
	{
		property: {
			displayName: 'Notify Followers',
			name: 'notifyFollowers',
			type: 'boolean',
			default: false,
			description: 'Whether followers of the work order are notified',
		},
		key: 'NotifyFollowers', check: optionalBoolean,
	},
	{
		property: {
			displayName: 'Do Not Send Email',
			name: 'doNotSendEmail',
			type: 'boolean',
			default: false,
			description: 'Whether to suppress the e-mail the service would send for the note',
		},
		key: 'DoNotSendEmail', check: optionalBoolean,
	},
	{
		property: {
			displayName: 'Is Pinned',
			name: 'isPinned',
			type: 'boolean',
			default: false,
			description: 'Whether to pin the note at the top of the work order',
		},
		key: 'IsPinned', check: optionalBoolean,
	},
	{
		property: {
			displayName: 'Scheduled Date',
			name: 'scheduledDate',
			type: 'dateTime',
			default: '',
			description: 'Date the note refers to (e.g. a scheduled visit)',
		},
		key: 'ScheduledDate', check: optionalDateTime,
	},
	{
		property: {
			displayName: 'Follow-Up Date',
			name: 'followUpDate',
			type: 'dateTime',
			default: '',
			description: 'When to follow up on the note',
		},
		key: 'FollowUpDate', check: optionalDateTime,
	},
	{
		property: {
			displayName: 'Visibility',
			name: 'visibility',
			type: 'number',
			default: 0,
			description: 'Visibility code of the note as the service defines it (0 = visible to everyone on the work order)',
		},
		key: 'Visibility', check: numberBetween(0, 2147483647, true),
	},
];

export const meta: OperationMeta = { verb: 'created', safeToRepeat: false };

export const description = updateDisplayOptions({ show: { resource: ['workOrderNote'], operation: ['create'] } }, [
	workOrderIdField,
	noteField.property,
	collectionOf('additionalFields', additionalFields),
]);

/** POST /workorders/{id}/notes; the item is the new note, its IDs as text. */
export async function execute(this: IExecuteFunctions, i: number, client: WorkOrderServiceClient): Promise<IDataObject[]> {
	const workOrderId = readWorkOrderId(this, i);
	const body = {
		...readFields(this, i, [noteField]).body,
		...readFields(this, i, additionalFields, 'additionalFields').body,
	};
	const result = await client.request({ method: 'POST', path: `/workorders/${workOrderId}/notes`, body, itemIndex: i });
	return [noteOut(asRecord(result) ?? {})];
}
