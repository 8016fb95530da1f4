import type { OutputShape } from '../../helpers/simplify';

/**
 * A note's output (helpers/simplify.ts): the reference's `Note` has 14 fields; the compact one keeps,
 * most used first, its ID, the text, when and by whom it was written, whether a person or the
 * system wrote it, whether it needs action and by when, who may see it, and its files.
 */
export const NOTE_OUTPUT: OutputShape = {
	compact: {
		Id: undefined,
		NoteData: undefined,
		DateCreated: undefined,
		CreatedBy: undefined,
		CompanyName: undefined,
		NoteType: undefined,
		ActionRequired: undefined,
		FollowUpDate: undefined,
		Visibility: undefined,
		Attachments: undefined,
	},
	fields: [
		'ActionRequired',
		'Attachments',
		'CompanyName',
		'CreatedBy',
		'DateCreated',
		'FollowUpDate',
		'Id',
		'IsAttachmentNote',
		'MailedTo',
		'NoteData',
		'NoteType',
		'Number',
		'ScheduledDate',
		'Visibility',
	],
	id: 'Id',
};
