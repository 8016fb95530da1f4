import type {
	ILoadOptionsFunctions,
	INodeListSearchItems,
	INodeListSearchResult,
} from 'n8n-workflow';

import { readChecklists } from './checklists';
import { idText, questionsOf, type ChecklistQuestion } from '../helpers/checklists';
import { WorkOrderServiceClient } from '../transport/client';

/**
 * "From List" of the checklist answer's Question and Option: the questions of the chosen work
 * order's checklist (GET /checklists/detail?workOrderId=...) and the options of the chosen
 * question. Before a work order (or question) is chosen, or while it is an expression, the list
 * is empty and no request is sent; By ID (or an expression) always works.
 */

const TYPE_LABELS: Record<string, string> = {
	acknowledgement: 'Acknowledgement',
	selector: 'Selector',
	textEntry: 'Text Entry',
	numericInput: 'Numeric Input',
	unknown: 'type unknown',
};

/** A resource locator's or plain parameter's value as an ID, when it is one (not an expression). */
function chosenId(ctx: ILoadOptionsFunctions, name: string): number | undefined {
	let value = ctx.getCurrentNodeParameter(name) as unknown;
	if (value !== null && typeof value === 'object' && 'value' in value)
		value = (value as { value: unknown }).value;
	const id = idText(typeof value === 'string' ? value.trim() : value);
	return id === undefined ? undefined : Number(id);
}

async function questionsOfChosenWorkOrder(
	ctx: ILoadOptionsFunctions,
): Promise<ChecklistQuestion[]> {
	const workOrderId = chosenId(ctx, 'workOrderId');
	if (workOrderId === undefined) return [];
	const contractor = ctx.getCurrentNodeParameter('authentication') === 'contractor';
	return questionsOf(
		await readChecklists(ctx, WorkOrderServiceClient.forNode(ctx), {}, { workOrderId, contractor }),
	);
}

const matches = (filter: string | undefined, ...texts: unknown[]) =>
	!filter ||
	texts.some((t) =>
		String(t ?? '')
			.toLowerCase()
			.includes(filter.trim().toLowerCase()),
	);

/** The questions of the work order's checklist: "Question text (Type)", value the question ID. */
export async function searchChecklistQuestions(
	this: ILoadOptionsFunctions,
	filter?: string,
): Promise<INodeListSearchResult> {
	const results: INodeListSearchItems[] = [];
	for (const q of await questionsOfChosenWorkOrder(this)) {
		const id = idText(q.questionId);
		if (id === undefined || !matches(filter, q.question, id)) continue;
		const picture = q.pictureFlag === 'required' ? ', photo required' : '';
		results.push({
			name: `${String(q.question ?? `Question ${id}`)} (${TYPE_LABELS[q.questionType]}${picture})`,
			value: id,
		});
	}
	return { results };
}

/** The options of the chosen selector question: their labels, value the option ID. */
export async function searchChecklistOptions(
	this: ILoadOptionsFunctions,
	filter?: string,
): Promise<INodeListSearchResult> {
	const questionId = chosenId(this, 'questionId');
	if (questionId === undefined) return { results: [] };
	const question = (await questionsOfChosenWorkOrder(this)).find(
		(q) => idText(q.questionId) === String(questionId),
	);
	const results: INodeListSearchItems[] = [];
	for (const option of question?.options ?? []) {
		const id = idText(option.optionId);
		if (id === undefined || !matches(filter, option.label, id)) continue;
		results.push({
			name: `${String(option.label ?? `Option ${id}`)}${option.asksForComment ? ' (asks for a comment)' : ''}`,
			value: id,
		});
	}
	return { results };
}
