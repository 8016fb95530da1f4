import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';
import { NodeApiError, updateDisplayOptions } from 'n8n-workflow';

import { meaningOf, withHint } from '../../helpers/errorMeaning';
import { readFields, readLocatorId, type FieldSpec } from '../../helpers/validation';
import { writeAnswer } from '../../helpers/writeAnswer';
import type { WorkOrderServiceClient } from '../../transport/client';

import { sendMove, wordRefusedMove, type CodeMeaning } from '../move';

import { INVOICE_ID, invoiceIdProperty } from './fields';

/**
 * The three invoice moves (PUT /invoices/{invoiceId}/approve | reject | onhold, answered 204), in
 * the words of the proposal moves (actions/proposal/move.ts). The values travel in the query string
 * (service-reference-c.md: `approvalCode`, `comments`, `category` for approve, `comments` for the
 * others, all required by the reference, so always sent, empty when not given). The node does not
 * pre-check the invoice's status: the service refuses with 400 and an `ErrorResponse` whose code
 * says why: an invoice under multi-level approval (MLI), a status that does not allow the move,
 * an invoice already in that status, no such invoice, a provider user. Such a refusal becomes an
 * error that says which invoice was not moved, the service's words and code, what it means and
 * what to do. A move is never sent again once it may have been processed (no answer after it was
 * written, or a 5xx: `once`): the error then says the invoice may have been moved, to be checked.
 */

export interface InvoiceMove {
	path: 'approve' | 'reject' | 'onhold';
	/** The operation's value (the output's `operation`). */
	operation: 'approve' | 'reject' | 'putOnHold';
	doing: (invoiceId: number) => string;
}

export const INVOICE_MOVES = {
	approve: {
		path: 'approve',
		operation: 'approve',
		doing: (id) => `approve invoice ${id}`,
	},
	reject: { path: 'reject', operation: 'reject', doing: (id) => `reject invoice ${id}` },
	putOnHold: {
		path: 'onhold',
		operation: 'putOnHold',
		doing: (id) => `put invoice ${id} on hold`,
	},
} satisfies Record<string, InvoiceMove>;

const SAY_REASON =
	"Do not repeat the same call: if the service's reason says the invoice already has that status, nothing needs doing; otherwise tell the user the service's reason.";

/** What part C's codes for these refusals mean (by name; a service may send digits: then OTHER). */
const CODES: Record<string, CodeMeaning> = {
	NotAllowed: {
		means:
			"the invoice is under multi-level approval (MLI), whose approvals the service does not take through the API, or the credential's user is a provider user, who may not move invoices",
		workflow:
			"An MLI invoice must be approved, rejected or put on hold by its approval levels in the service; a provider user's credential cannot move invoices: use a subscriber user's.",
		agent:
			"Calling again will not help: tell the user the service's reason (an invoice under multi-level approval is moved in the service by its approval levels).",
	},
	InvoiceBatchUpdateInvalidInvoiceStatusError: {
		means:
			"the invoice's status does not allow this move (approve and reject: Open or On Hold invoices; put on hold: Open ones), or it already has the status",
		workflow:
			'An invoice that already has the status needs nothing; one that is Paid, Voided, Rejected, Disputed or under review cannot be moved this way.',
		agent: SAY_REASON,
	},
	InvoiceDoesntExist: {
		means: 'the service has no such invoice for this user',
		workflow:
			'Check the invoice ID; an invoice of another subscriber needs a credential of that subscriber.',
		agent:
			'Check the invoice ID you passed: no invoice with it exists for this account. Call again only with a corrected ID.',
	},
	InvalidNumberOfParameters: {
		means: 'a value the service requires in the query string was missing',
		workflow:
			'Report this to the package maintainers: the node always sends every value the reference requires.',
		agent: "Tell the user the service's reason; calling again with the same values will not help.",
	},
};

const OTHER: CodeMeaning = {
	means: 'the service gave its reason above',
	workflow:
		"Check the service's reason: invoices under multi-level approval, moves the invoice's status does not allow and moves to the status it already has are refused this way.",
	agent: SAY_REASON,
};

/** A 400 the service answered to a move, worded to stand on its own; other errors pass unchanged. */
export function refusedInvoiceMove(error: unknown, invoiceId: number, move: InvoiceMove): unknown {
	const said = meaningOf(error);
	if (
		error instanceof NodeApiError &&
		error.httpCode !== '400' &&
		meaningOf(error)?.outcome === 'maybe'
	) {
		error.message = `The request to ${move.doing(invoiceId)} got no answer or a server error after it was sent: the invoice may have been moved (${error.message.replace(/[.\s]*$/, '')})`;
		error.description =
			'It was not sent again automatically, so that nothing is done twice. Check the invoice (Invoice > Get) before running this item again: if it already has the new status, nothing needs doing.';
		withHint(
			error,
			'The invoice may have been moved already: read it (Get an invoice) and call again only if its status did not change.',
		);
		return error;
	}
	if (!(error instanceof NodeApiError) || error.httpCode !== '400' || said === undefined)
		return error;
	return wordRefusedMove(error, said, move.doing(invoiceId), {
		noun: 'invoice',
		codes: CODES,
		other: OTHER,
	});
}

/**
 * Sends the move of item i with its query values; 204 becomes `{ success: true, operation,
 * invoiceId }` (helpers/writeAnswer.ts: the package's output of a write without a documented body).
 */
export async function sendInvoiceMove(
	ctx: IExecuteFunctions,
	client: WorkOrderServiceClient,
	i: number,
	move: InvoiceMove,
	qs: IDataObject,
): Promise<IDataObject[]> {
	const invoiceId = readLocatorId(ctx, i, INVOICE_ID);
	return await moveInvoice(client, i, invoiceId, move, qs);
}

/** The move itself, for an invoice ID already checked. */
export async function moveInvoice(
	client: WorkOrderServiceClient,
	i: number,
	invoiceId: number,
	move: InvoiceMove,
	qs: IDataObject,
): Promise<IDataObject[]> {
	const response = await sendMove(
		client,
		{ method: 'PUT', path: `/invoices/${invoiceId}/${move.path}`, qs, itemIndex: i, once: true },
		(error) => refusedInvoiceMove(error, invoiceId, move),
	);
	return [writeAnswer(move.operation, { invoiceId }, response)];
}

/** The parameters of a move: the invoice, then the move's own fields. */
export function moveDescription(
	operation: InvoiceMove['operation'],
	fields: FieldSpec[],
): INodeProperties[] {
	return updateDisplayOptions({ show: { resource: ['invoice'], operation: [operation] } }, [
		invoiceIdProperty,
		...fields.map((f) => f.property),
	]);
}

/** The values of item i, every one present (empty when not given), as the reference requires. */
export function queryValues(ctx: IExecuteFunctions, i: number, specs: FieldSpec[]): IDataObject {
	const { qs } = readFields(ctx, i, specs);
	const all: IDataObject = {};
	for (const spec of specs) all[spec.key] = qs[spec.key] ?? '';
	return all;
}

/** The `execute` of a move whose fields all travel as they are in the query string. */
export function queryMove(move: InvoiceMove, fields: FieldSpec[]) {
	return async function execute(
		this: IExecuteFunctions,
		i: number,
		client: WorkOrderServiceClient,
	): Promise<IDataObject[]> {
		return await sendInvoiceMove(this, client, i, move, queryValues(this, i, fields));
	};
}
