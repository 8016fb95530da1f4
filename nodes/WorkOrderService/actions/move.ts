import type { NodeApiError } from 'n8n-workflow';

import { withMeaning, type ErrorMeaning } from '../helpers/errorMeaning';
import type { FieldSpec } from '../helpers/validation';
import type { ApiRequest, ApiResponse, WorkOrderServiceClient } from '../transport/client';

/**
 * How the service's refusal (400 and an `ErrorResponse`) of a move of an invoice or a proposal is
 * worded: which record was not moved, the service's words and code, what the code means and what
 * to do (in a workflow: the description; as an AI tool: the hint). Each resource feeds its noun
 * and the table of its codes (actions/invoice/move.ts, actions/proposal/move.ts).
 */

/** What a code means, what to do in a workflow, and what an agent should do. */
export interface CodeMeaning {
	means: string;
	workflow: string;
	agent: string;
}

export interface MoveRefusals {
	/** 'invoice' | 'proposal': the record moved. */
	noun: string;
	/** The codes the reference names for these refusals. */
	codes: Record<string, CodeMeaning>;
	/** Any other code, or none. */
	other: CodeMeaning;
}

/**
 * What became of the record: nothing, or (when an earlier attempt of this request was sent and got
 * no answer or a server error, and the transport sent it again) maybe the move itself, which the
 * service then refuses as "already in that status".
 */
function outcomeWords(
	said: ErrorMeaning,
	attempts: number,
	noun: string,
): { workflow: string; agent?: string } {
	if (said.outcome !== 'maybe') return { workflow: 'Nothing changed.' };
	const earlier = `An earlier attempt of this request was sent and got no answer or a server error, so it was sent again${attempts > 1 ? ` (${attempts} attempts)` : ''}: the service may have made the move on that earlier attempt, and then refuses the repeat because the ${noun} already has the status.`;
	return {
		workflow: `${earlier} Check the ${noun} before running this item again.`,
		agent: `${earlier} If the service's reason says the ${noun} already has that status, the move is done: do not call again.`,
	};
}

/**
 * Words a 400 the service answered to a move (`doing`: "approve invoice 7") so that it stands on
 * its own. The same error object is kept (the router reads what became of its request from it).
 */
export function wordRefusedMove(
	error: NodeApiError,
	said: ErrorMeaning,
	doing: string,
	refusals: MoveRefusals,
): NodeApiError {
	const { words, code, attempts = 1 } = said;
	const known =
		code !== undefined && Object.prototype.hasOwnProperty.call(refusals.codes, String(code))
			? refusals.codes[String(code)]
			: undefined;
	const meaning = known ?? refusals.other;
	const outcome = outcomeWords(said, attempts, refusals.noun);
	error.message = `The Work Order Service refused to ${doing} (400 Bad Request)${words ? `: ${words}` : ''}${code !== undefined ? ` (error code ${code})` : ''}`;
	error.description = `${known ? `Error code ${code}: ${meaning.means}. ` : ''}${outcome.workflow} ${meaning.workflow}`;
	return withMeaning(error, {
		...said,
		agentHint: outcome.agent ?? `Nothing changed. ${meaning.agent}`,
	});
}

/** The Comments of a move (`description`: what they are for; `spec`: where and how they are sent). */
export function commentsField(description: string, spec: Omit<FieldSpec, 'property'>): FieldSpec {
	return {
		property: {
			displayName: 'Comments',
			name: 'comments',
			type: 'string',
			default: '',
			typeOptions: { rows: 2 },
			description,
		},
		...spec,
	};
}

/** Sends a move; an error the service answered is worded by `refused` (the same error object). */
export async function sendMove(
	client: WorkOrderServiceClient,
	request: ApiRequest,
	refused: (error: unknown) => unknown,
): Promise<ApiResponse> {
	try {
		return await client.send(request);
	} catch (error) {
		throw refused(error);
	}
}
