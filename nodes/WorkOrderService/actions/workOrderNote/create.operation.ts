import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { noteTextField, workOrderIdField } from '../../helpers/fields';
import {
	collectionOf,
	optionalBoolean,
	optionalEmailList,
	optionalText,
	readFields,
	requiredText,
	type FieldSpec,
} from '../../helpers/validation';
import { readWorkOrderId } from '../../helpers/params';
import { dateTimeToSend, idList, withOffsets } from '../../helpers/sendValues';
import { writeAnswer } from '../../helpers/writeAnswer';
import type { WorkOrderServiceClient } from '../../transport/client';
import type { OperationMeta } from '../operation';
import { visibilityField } from '../visibility';

/**
 * Create Note: POST /workorders/{id}/notes with the reference's CreateNoteRequest (`Note`, the
 * text, is its only required field). The service answers 201 without a documented body ("maybe the
 * new note ID, maybe nothing"): the item says what was done and carries the ID when one came.
 */

export const meta: OperationMeta = { verb: 'created', safeToRepeat: false };

const noteField: FieldSpec = noteTextField({
	rows: 4,
	description: 'Text of the note (sent as Note)',
	key: 'Note',
	check: requiredText,
});

/** The optional fields, in the order they are checked. */
const additionalFields: FieldSpec[] = [
	visibilityField('note'),
	{
		property: {
			displayName: 'Mailed To',
			name: 'mailedTo',
			type: 'string',
			default: '',
			placeholder: 'ops@example.com;tech@example.com',
			description: 'E-mail addresses to send the note to, separated by semicolons (MailedTo)',
		},
		key: 'MailedTo',
		check: optionalEmailList,
	},
	{
		property: {
			displayName: 'Action Required',
			name: 'actionRequired',
			type: 'boolean',
			default: false,
			description: 'Whether the note is flagged as needing action (ActionRequired)',
		},
		key: 'ActionRequired',
		check: optionalBoolean,
	},
	{
		property: {
			displayName: 'Scheduled Date',
			name: 'scheduledDate',
			type: 'dateTime',
			default: '',
			description:
				"Date and time tied to the note (ScheduledDate). Without an offset it is read in the workflow's time zone.",
		},
		key: 'ScheduledDate',
		check: dateTimeToSend,
	},
	{
		property: {
			displayName: 'Follow-Up Date',
			name: 'followUpDate',
			type: 'dateTime',
			default: '',
			description:
				"When to follow up (FollowUpDate). Without an offset it is read in the workflow's time zone.",
		},
		key: 'FollowUpDate',
		check: dateTimeToSend,
	},
	{
		property: {
			displayName: 'Notify Followers',
			name: 'notifyFollowers',
			type: 'boolean',
			default: false,
			description: "Whether to e-mail the work order's followers (NotifyFollowers)",
		},
		key: 'NotifyFollowers',
		check: optionalBoolean,
	},
	{
		property: {
			displayName: 'Do Not Send Email',
			name: 'doNotSendEmail',
			type: 'boolean',
			default: false,
			description: 'Whether to send no e-mail for this note (DoNotSendEmail)',
		},
		key: 'DoNotSendEmail',
		check: optionalBoolean,
	},
	{
		property: {
			displayName: 'Attachment IDs',
			name: 'attachmentIds',
			type: 'string',
			default: '',
			placeholder: 'e.g. 880101, 880102',
			description:
				'IDs of attachments already uploaded to the work order to link to the note, comma-separated (AttachmentsIds)',
		},
		key: 'AttachmentsIds',
		check: idList,
	},
	{
		property: {
			displayName: 'Actor',
			name: 'actor',
			type: 'string',
			default: '',
			description: "Name recorded as the note's actor (Actor)",
		},
		key: 'Actor',
		check: optionalText,
	},
];

export const description = updateDisplayOptions(
	{ show: { resource: ['workOrderNote'], operation: ['create'] } },
	[workOrderIdField, noteField.property, collectionOf('additionalFields', additionalFields)],
);

/** POST /workorders/{id}/notes; the item: success, operation, workOrderId and the new note's `id` (as text) when the service sent one. */
export async function execute(
	this: IExecuteFunctions,
	i: number,
	client: WorkOrderServiceClient,
): Promise<IDataObject[]> {
	const workOrderId = readWorkOrderId(this, i);
	const body = withOffsets(
		this,
		i,
		{
			...readFields(this, i, [noteField]).body,
			...readFields(this, i, additionalFields, 'additionalFields').body,
		},
		['ScheduledDate', 'FollowUpDate'],
	);
	const answer = await client.send({
		method: 'POST',
		path: `/workorders/${workOrderId}/notes`,
		body,
		itemIndex: i,
	});
	return [writeAnswer('create', { workOrderId }, answer, { idsAsText: true })];
}
