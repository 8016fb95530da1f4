import type { IDataObject } from 'n8n-workflow';

import { ownRecord, isRecord } from './values';

/**
 * Reading GET /checklists/detail (CheckListDetailResponse, service-reference.md section 3). The
 * contract writes QuestionType and PictureFlag as numbers, the reference as names; both are read
 * (conflicts 9 and 10: QuestionType 0 CheckBox = acknowledgement, 1 RadioButton = selector,
 * 2 TextEntry = text entry, 4 NumericInput = numeric input, 3 TriState is unknown; PictureFlag
 * 0 Optional, 1 No, 2 Required), and a selector option's label is its `Answer` (conflict 11).
 */

/** The node's question types (the Question Type parameter of Submit / Update), by the service's number. */
const QUESTION_TYPES: Record<number, string> = {
	0: 'acknowledgement',
	1: 'selector',
	2: 'textEntry',
	4: 'numericInput',
};
const QUESTION_TYPE_NAMES = ['checkbox', 'radiobutton', 'textentry', 'tristate', 'numericinput'];
const PICTURE_FLAGS = ['optional', 'notRequired', 'required'];
const PICTURE_FLAG_NAMES = ['optional', 'no', 'required'];

/** A number, or the position of a name in `names` (without case); -1 when neither. */
function enumNumber(value: unknown, names: string[]): number {
	if (typeof value === 'number' && Number.isInteger(value)) return value;
	if (typeof value === 'string' && /^\d+$/.test(value.trim())) return Number(value);
	return typeof value === 'string' ? names.indexOf(value.trim().toLowerCase()) : -1;
}

/** 'acknowledgement' | 'selector' | 'textEntry' | 'numericInput', or 'unknown' (TriState, anything else). */
export function questionTypeOf(value: unknown): string {
	return QUESTION_TYPES[enumNumber(value, QUESTION_TYPE_NAMES)] ?? 'unknown';
}

/** 'optional' | 'notRequired' | 'required', or 'unknown'. */
export function pictureFlagOf(value: unknown): string {
	return PICTURE_FLAGS[enumNumber(value, PICTURE_FLAG_NAMES)] ?? 'unknown';
}

export interface ChecklistOption {
	optionId: unknown;
	label: unknown;
	asksForComment: boolean;
}

export interface ChecklistQuestion {
	checklistId: unknown;
	checklistName: unknown;
	questionId: unknown;
	question: unknown;
	questionType: string;
	pictureFlag: string;
	answerRequired: unknown;
	timing: unknown;
	options: ChecklistOption[];
}

const listOf = (value: unknown): IDataObject[] =>
	Array.isArray(value) ? value.filter(isRecord) : [];

/** The checklists of an answer (`CheckListDetails`; a bare list is read too). */
export function checklistsOf(body: unknown): IDataObject[] {
	return listOf(isRecord(body) ? body.CheckListDetails : body);
}

/** Every question of the checklists, in one shape. */
export function questionsOf(checklists: IDataObject[]): ChecklistQuestion[] {
	return checklists.flatMap((checklist) =>
		listOf(checklist.Questions).map((q) => ({
			checklistId: checklist.Id,
			checklistName: checklist.ChecklistName ?? checklist.CheckListName ?? null,
			questionId: q.Id,
			question: q.Question ?? null,
			questionType: questionTypeOf(q.QuestionType),
			pictureFlag: pictureFlagOf(q.PictureFlag),
			answerRequired: q.AnswerRequired ?? null,
			timing: q.CheckListTimingType ?? null,
			options: listOf(q.CheckListQuestionOptions).map((o) => ({
				optionId: o.Id,
				label: o.Answer ?? null,
				asksForComment: o.IsConditionalFollowUp === true,
			})),
		})),
	);
}

/** A question as an output item (the keys of Submit's parameters: questionId, questionType, optionId), after `first`. */
export function questionItem(q: ChecklistQuestion, first: IDataObject = {}): IDataObject {
	return ownRecord(Object.entries({ ...first, ...q, options: q.options.map((o) => ({ ...o })) }));
}

/** The ID of a question or option as text, when it is one. */
export function idText(value: unknown): string | undefined {
	if (typeof value === 'number' && Number.isSafeInteger(value) && value > 0) return String(value);
	return typeof value === 'string' && /^\d+$/.test(value) ? value : undefined;
}
