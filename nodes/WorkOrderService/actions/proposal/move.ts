import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';
import { NodeApiError } from 'n8n-workflow';

import { meaningOf } from '../../helpers/errorMeaning';
import { readFields, readLocatorId, type FieldSpec } from '../../helpers/validation';
import { writeAnswer } from '../../helpers/writeAnswer';
import type { WorkOrderServiceClient } from '../../transport/client';

import { sendMove, wordRefusedMove, type CodeMeaning } from '../move';

import { PROPOSAL_ID } from './fields';

/**
 * The four proposal moves (PUT /proposals/{proposalId}/open | onhold | approve | reject, answered
 * 204) and how the service refuses them. The node does not check the proposal's status first
 * (the reference's conflict #12: "do not pre-check; report the 400 as the service words it"): the
 * service refuses with 400 and an `ErrorResponse` whose code says why (service-reference.md
 * section 1): 401 not a subscriber user, 502 no such proposal, 503 already in that status, an
 * approval-level (MLP) user or an empty request, and on approve 503 without a linked work order or
 * with an invoiced one, 100 over the user's approval limit. Such a refusal becomes an error that
 * says, on its own, which proposal was not moved, the service's words and code, what the code
 * means and what to do (in a workflow: its description; as an AI tool: in the message).
 */

export interface Move {
	/** The operation's value (the output item's `operation`). */
	operation: 'reopen' | 'putOnHold' | 'approve' | 'reject';
	/** The path segment: PUT /proposals/{id}/<path>. */
	path: 'open' | 'onhold' | 'approve' | 'reject';
	/** The `status` of the output item. */
	status: string;
	/** "approve proposal 61005", "put proposal 61002 on hold". */
	doing: (proposalId: number) => string;
}

export const MOVES = {
	reopen: {
		operation: 'reopen',
		path: 'open',
		status: 'open',
		doing: (id) => `reopen proposal ${id}`,
	},
	putOnHold: {
		operation: 'putOnHold',
		path: 'onhold',
		status: 'onHold',
		doing: (id) => `put proposal ${id} on hold`,
	},
	approve: {
		operation: 'approve',
		path: 'approve',
		status: 'approved',
		doing: (id) => `approve proposal ${id}`,
	},
	reject: {
		operation: 'reject',
		path: 'reject',
		status: 'rejected',
		doing: (id) => `reject proposal ${id}`,
	},
} satisfies Record<string, Move>;

const ALREADY_OR_REFUSED =
	"Do not repeat the same call: if the service's reason says the proposal already has that status, nothing needs doing; if it names a value you passed, call again with that value corrected; otherwise tell the user the service's reason.";

const CODES: Record<string, CodeMeaning> = {
	'401': {
		means:
			"only subscriber users may change a proposal's status, and the credential's user is not one (a provider's user or technician)",
		workflow:
			'Use a credential of a subscriber user (the Work Order Service API or OAuth2 credential), not a contractor login.',
		agent:
			"Calling again will not help: this tool's credential is not a subscriber user. Tell the user that a subscriber user's credential is needed.",
	},
	'502': {
		means: 'the service has no such proposal for this user',
		workflow:
			'Check the proposal ID. A proposal of another subscriber (e.g. a child subscriber) needs a credential for that subscriber.',
		agent:
			'Check the proposal ID you passed: no proposal with it exists for this account. Call again only with a corrected ID.',
	},
	'503': {
		means:
			'the proposal already has that status, or the user is an approval-level (MLP) user, whose moves the service does not take through the API, or the request was empty or held a value the service does not accept; on approve also: no work order is linked to the proposal, or its work order is invoiced',
		workflow:
			"The service's reason above says which. A proposal that already has the status needs nothing; a value it does not accept must be corrected; an approval-level user's moves, and approvals of proposals without a work order or with an invoiced one, must be done in the service.",
		agent: ALREADY_OR_REFUSED,
	},
	'100': {
		means: "the proposal's amount is above the approval limit of the credential's user",
		workflow:
			'A user with a higher approval limit must approve it (in the service, or with a credential of that user).',
		agent:
			'The same call will be refused again: tell the user that a user with a higher approval limit must approve it.',
	},
};

const OTHER: CodeMeaning = {
	means: 'the service gave its reason above',
	workflow:
		"Check the service's reason: a move to the status the proposal already has, a move by an approval-level (MLP) user, and approvals the service does not allow are refused this way.",
	agent: ALREADY_OR_REFUSED,
};

/**
 * A 400 the service answered to a move, worded so that it stands on its own: which proposal was not
 * moved, the service's reason and code, what the code means, what to do. The same error object is
 * kept (the router reads what became of its request from it); other errors pass unchanged.
 */
export function refusedMove(error: unknown, proposalId: number, move: Move): unknown {
	const said = meaningOf(error);
	if (!(error instanceof NodeApiError) || said?.status !== 400) return error;
	return wordRefusedMove(error, said, move.doing(proposalId), {
		noun: 'proposal',
		codes: CODES,
		other: OTHER,
	});
}

/**
 * The `execute` of a move operation: sends the move of item i with the fields of its operation;
 * 204 becomes `{ success, operation, proposalId, status }` (and whatever a body holds). Each of the four operation files takes its own.
 */
export function moveOperation(move: Move, fields: FieldSpec[]) {
	return async function execute(
		this: IExecuteFunctions,
		i: number,
		client: WorkOrderServiceClient,
	): Promise<IDataObject[]> {
		const proposalId = readLocatorId(this, i, PROPOSAL_ID);
		const { body, qs } = readFields(this, i, fields, 'additionalFields');
		const response = await sendMove(
			client,
			{ method: 'PUT', path: `/proposals/${proposalId}/${move.path}`, qs, body, itemIndex: i },
			(error) => refusedMove(error, proposalId, move),
		);
		return [writeAnswer(move.operation, { proposalId, status: move.status }, response)];
	};
}
