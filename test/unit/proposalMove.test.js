'use strict';
// How a proposal move's 400 is worded (actions/proposal/move.ts), on errors built as the transport
// builds them: the service's words and code kept, the code's meaning added, the same error object
// kept (the router reads its request's outcome from it), other errors untouched. The refusals
// through n8n-core against the emulator: test/node/proposal/*.test.js.
const { NodeOperationError } = require('n8n-workflow');
const { refusedMove, MOVES } = require('../../dist/nodes/WorkOrderService/actions/proposal/move');
const { apiError, failureText } = require('../../dist/nodes/WorkOrderService/transport/errors');

const node = {
	id: 'n',
	name: 'Work Order Service',
	type: 'workOrderService',
	typeVersion: 1,
	position: [0, 0],
	parameters: {},
};
const SETTINGS = { maxRetries: 3, maxWaitMs: 120000, timeoutMs: 60000 };
/** The error the transport raises for an answer with this status and `ErrorResponse` (ErrorMessage, ErrorCode), after `attempts`. */
const answered = (status, route, { words, code, attempts = 1 } = {}) => {
	const body =
		words === undefined && code === undefined
			? ''
			: JSON.stringify({ ErrorMessage: words, ErrorCode: code });
	const failure = { status, headers: { 'content-type': 'application/json' }, bodyText: body };
	return apiError(
		node,
		failureText(route, failure, { attempts, waitedMs: 0 }, SETTINGS, false),
		0,
		(text) => text,
		'answered',
	);
};

test('a numeric code the reference names: words and code kept, its meaning and what to do in the description; the same object', () => {
	const error = answered(400, 'PUT /proposals/61002/onhold', {
		words: 'Proposal 61002 is already on hold',
		code: 503,
	});
	expect(refusedMove(error, 61002, MOVES.putOnHold)).toBe(error);
	expect(error.message).toBe(
		'The Work Order Service refused to put proposal 61002 on hold (400 Bad Request): Proposal 61002 is already on hold (error code 503)',
	);
	expect(error.description).toMatch(
		/^Error code 503: the proposal already has that status, .* Nothing changed\. The service's reason above says which\./,
	);
	expect(error.httpCode).toBe('400');
});

test('each of the reference codes has its own meaning', () => {
	const words = (code, move, id) =>
		refusedMove(answered(400, `PUT /proposals/${id}/${move.path}`, { words: 'x', code }), id, move)
			.description;
	expect(words(401, MOVES.reopen, 1)).toMatch(
		/^Error code 401: only subscriber users may change a proposal's status/,
	);
	expect(words(502, MOVES.reject, 2)).toMatch(
		/^Error code 502: the service has no such proposal for this user\. Nothing changed\. Check the proposal ID\./,
	);
	expect(words(100, MOVES.approve, 3)).toMatch(
		/^Error code 100: the proposal's amount is above the approval limit/,
	);
});

test('an unknown or named code, or none: the words kept, no meaning guessed', () => {
	const named = answered(400, 'PUT /proposals/7/approve', {
		words: 'Proposal above limit',
		attempts: 2,
	});
	refusedMove(named, 7, MOVES.approve);
	expect(named.message).toBe(
		'The Work Order Service refused to approve proposal 7 (400 Bad Request): Proposal above limit',
	);
	expect(named.description).toMatch(/^Nothing changed\. Check the service's reason:/);
	const other = answered(400, 'PUT /proposals/7/approve', { words: 'odd', code: 9 });
	refusedMove(other, 7, MOVES.approve);
	expect(other.message).toBe(
		'The Work Order Service refused to approve proposal 7 (400 Bad Request): odd (error code 9)',
	);
	expect(other.description).not.toMatch(/^Error code/);
});

test('other statuses and errors pass unchanged', () => {
	const throttled = answered(429, 'PUT /proposals/7/approve');
	const before = throttled.message;
	expect(refusedMove(throttled, 7, MOVES.approve)).toBe(throttled);
	expect(throttled.message).toBe(before);
	const input = new NodeOperationError(node, 'Invalid Proposal ID');
	expect(refusedMove(input, 7, MOVES.approve)).toBe(input);
	expect(input.message).toBe('Invalid Proposal ID');
});

test("the service's words are redacted like the transport's message: a secret in them never reaches the reworded error", () => {
	const failure = {
		status: 400,
		headers: { 'content-type': 'application/json' },
		bodyText: JSON.stringify({
			ErrorMessage: 'Proposal 8 refused for s3cret-token',
			ErrorCode: 503,
		}),
	};
	const error = apiError(
		node,
		failureText('PUT /proposals/8/reject', failure, { attempts: 1, waitedMs: 0 }, SETTINGS, false),
		0,
		(text) => text.split('s3cret-token').join('[redacted]'),
		'answered',
	);
	refusedMove(error, 8, MOVES.reject);
	expect(error.message).toBe(
		'The Work Order Service refused to reject proposal 8 (400 Bad Request): Proposal 8 refused for [redacted] (error code 503)',
	);
});

test('a code the service sends as text (the reference types ErrorCode a string): digits mean what the number means; a name is kept, no meaning guessed', () => {
	const digits = refusedMove(
		answered(400, 'PUT /proposals/9/approve', { words: 'Over the limit', code: '100' }),
		9,
		MOVES.approve,
	);
	expect(digits.message).toBe(
		'The Work Order Service refused to approve proposal 9 (400 Bad Request): Over the limit (error code 100)',
	);
	expect(digits.description).toMatch(
		/^Error code 100: the proposal's amount is above the approval limit/,
	);
	for (const name of ['ProposalAlreadyApproved', 'constructor']) {
		const named = refusedMove(
			answered(400, 'PUT /proposals/9/approve', { words: 'Refused', code: name }),
			9,
			MOVES.approve,
		);
		expect(named.message).toBe(
			`The Work Order Service refused to approve proposal 9 (400 Bad Request): Refused (error code ${name})`,
		);
		expect(named.description).toMatch(/^Nothing changed\. Check the service's reason:/);
	}
});
