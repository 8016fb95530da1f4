import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { workOrderIdField } from '../../helpers/fields';
import { readWorkOrderId } from '../../helpers/params';
import { noteOut } from '../../helpers/noteIds';
import {
	optionalBoolean,
	optionalDateTime,
	optionalEmail,
	optionalNumber,
	optionalText,
	requiredText,
} from '../../helpers/validation';
import { asRecord, type WorkOrderServiceClient } from '../../transport';

const properties: INodeProperties[] = [
	workOrderIdField,
	{
		displayName: 'Note',
		name: 'note',
		type: 'string',
		required: true,
		default: '',
		typeOptions: { rows: 4 },
		description: 'Text of the note',
	},
	{
		displayName: 'Additional Fields',
		name: 'additionalFields',
		type: 'collection',
		placeholder: 'Add Field',
		default: {},
		options: [
			{
				displayName: 'Action Required',
				name: 'actionRequired',
				type: 'boolean',
				default: false,
				description: 'Whether the note asks the recipient to act',
			},
			{
				displayName: 'Do Not Send Email',
				name: 'doNotSendEmail',
				type: 'boolean',
				default: false,
				description: 'Whether to suppress the e-mail the service would send for the note',
			},
			{
				displayName: 'Follow-Up Date',
				name: 'followUpDate',
				type: 'dateTime',
				default: '',
				description: 'When to follow up on the note',
			},
			{
				displayName: 'Is Pinned',
				name: 'isPinned',
				type: 'boolean',
				default: false,
				description: 'Whether to pin the note at the top of the work order',
			},
			{
				displayName: 'Mailed To',
				name: 'mailedTo',
				type: 'string',
				default: '',
				placeholder: 'ops@example.com;tech@example.com',
				description: 'E-mail addresses to send the note to, separated by semicolons',
			},
			{
				displayName: 'Notify Followers',
				name: 'notifyFollowers',
				type: 'boolean',
				default: false,
				description: 'Whether followers of the work order are notified',
			},
			{
				displayName: 'Scheduled Date',
				name: 'scheduledDate',
				type: 'dateTime',
				default: '',
				description: 'Date the note refers to (e.g. a scheduled visit)',
			},
			{
				displayName: 'Visibility',
				name: 'visibility',
				type: 'number',
				default: 0,
				description: 'Visibility code of the note as the service defines it (0 = visible to everyone on the work order)',
			},
		],
	},
];

export const description = updateDisplayOptions(
	{ show: { resource: ['workOrderNote'], operation: ['create'] } },
	properties,
);

export async function execute(this: IExecuteFunctions, i: number, client: WorkOrderServiceClient): Promise<IDataObject[]> {
	const node = this.getNode();
	const workOrderId = readWorkOrderId(this, i);
	const body: IDataObject = {
		NoteData: requiredText(node, i, { name: 'note', label: 'Note' }, this.getNodeParameter('note', i, undefined)),
	};
	const fields = (this.getNodeParameter('additionalFields', i, {}) ?? {}) as IDataObject;
	const field = (name: string, label: string) => ({ name: `additionalFields.${name}`, label });

	const mailedTo = optionalText(node, i, field('mailedTo', 'Mailed To'), fields.mailedTo);
	if (mailedTo !== undefined) {
		const addresses = mailedTo.split(/[;,]/).map((a) => a.trim()).filter((a) => a !== '');
		for (const address of addresses) optionalEmail(node, i, field('mailedTo', 'Mailed To'), address);
		if (addresses.length) body.MailedTo = addresses.join(';');
	}
	const flags: Array<[string, string, string]> = [
		['actionRequired', 'Action Required', 'ActionRequired'],
		['notifyFollowers', 'Notify Followers', 'NotifyFollowers'],
		['doNotSendEmail', 'Do Not Send Email', 'DoNotSendEmail'],
		['isPinned', 'Is Pinned', 'IsPinned'],
	];
	for (const [name, label, key] of flags) {
		const value = optionalBoolean(node, i, field(name, label), fields[name]);
		if (value !== undefined) body[key] = value;
	}
	const scheduledDate = optionalDateTime(node, i, field('scheduledDate', 'Scheduled Date'), fields.scheduledDate);
	if (scheduledDate !== undefined) body.ScheduledDate = scheduledDate;
	const followUpDate = optionalDateTime(node, i, field('followUpDate', 'Follow-Up Date'), fields.followUpDate);
	if (followUpDate !== undefined) body.FollowUpDate = followUpDate;
	const visibility = optionalNumber(node, i, field('visibility', 'Visibility'), fields.visibility, { min: 0, max: 2147483647, integer: true });
	if (visibility !== undefined) body.Visibility = visibility;

	const result = await client.request({
		method: 'POST',
		path: `/workorders/${workOrderId}/notes`,
		body,
		itemIndex: i,
	});
	return [noteOut(asRecord(result) ?? {})];
}
