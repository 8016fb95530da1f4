'use strict';
/**
 * What an error means (helpers/errorMeaning.ts), carried on the error: set where the error is made,
 * read from the error, also after n8n wraps it or serializes it; never from a message's words.
 */
const { NodeApiError, NodeOperationError } = require('n8n-workflow');
const {
	meaningOf,
	withMeaning,
	kindOfStatus,
} = require('../../dist/nodes/WorkOrderService/helpers/errorMeaning');
const { apiError, failureText } = require('../../dist/nodes/WorkOrderService/transport/errors');
const v = require('../../dist/nodes/WorkOrderService/helpers/validation');

const node = {
	id: 'n1',
	name: 'Work Order Service',
	type: 'n8n-nodes-work-order-service.workOrderService',
	typeVersion: 1,
	position: [0, 0],
	parameters: {},
};
const SETTINGS = { maxRetries: 3, maxWaitMs: 120000, timeoutMs: 60000 };
const ONE = { attempts: 1, waitedMs: 0 };

const refused = () =>
	apiError(
		node,
		failureText(
			'PUT /proposals/9/approve',
			{
				status: 400,
				headers: { 'content-type': 'application/json' },
				bodyText: JSON.stringify({ ErrorMessage: 'Over the limit of secret-x', ErrorCode: 100 }),
			},
			ONE,
			SETTINGS,
			false,
		),
		0,
		(text) => text.split('secret-x').join('[redacted]'),
		'answered',
	);

test("an answered refusal: kind, outcome, status, the service's words (redacted) and code, attempts", () => {
	expect(meaningOf(refused())).toEqual({
		kind: 'refused',
		outcome: 'answered',
		status: 400,
		words: 'Over the limit of [redacted]',
		code: 100,
		attempts: 1,
	});
});

test('failures without an answer: unreachable (nothing sent), no answer (a POST may be recorded), a login', () => {
	const make = (failure, route, outcome) =>
		meaningOf(
			apiError(node, failureText(route, failure, ONE, SETTINGS, false), 0, (t) => t, outcome),
		);
	expect(
		make(
			{ headers: {}, bodyText: '', networkCode: 'ECONNREFUSED', notSent: true },
			'GET /x',
			'notSent',
		),
	).toEqual({ kind: 'unreachable', outcome: 'notSent' });
	expect(
		make({ headers: {}, bodyText: '', networkCode: 'ECONNRESET' }, 'POST /workorders', 'maybe'),
	).toEqual({ kind: 'noAnswer', outcome: 'maybe' });
	const login = { message: 'Username or password rejected', kind: 'invalidUser' };
	expect(make({ headers: {}, bodyText: '', login }, 'GET /x', 'notSent')).toEqual({
		kind: 'login',
		outcome: 'notSent',
	});
});

test('a throttled answer is throttled whatever its status; statuses map to kinds', () => {
	expect(kindOfStatus(503, true)).toBe('throttled');
	expect(kindOfStatus(503)).toBe('serverError');
	expect([400, 422, 401, 403, 404, 410, 409, 413, 500, 405].map((s) => kindOfStatus(s))).toEqual([
		'refused',
		'refused',
		'denied',
		'forbidden',
		'notFound',
		'notFound',
		'conflict',
		'tooLarge',
		'serverError',
		'failed',
	]);
});

test('a refused parameter: kind validation, nothing sent, which parameter and why', () => {
	let error;
	try {
		v.positiveInteger(node, 2, { name: 'workOrderId', label: 'Work Order ID' }, 'abc');
	} catch (e) {
		error = e;
	}
	expect(meaningOf(error)).toEqual({
		kind: 'validation',
		outcome: 'notSent',
		input: {
			field: { name: 'workOrderId', label: 'Work Order ID' },
			problem: 'must be a positive whole number',
			shown: '"abc"',
			rule: 'a whole number of 1 or more',
		},
	});
});

test("it survives what n8n does to an error: re-wrapping, wrapping in another NodeError, serializing (queue mode); a message's words mean nothing", () => {
	const error = refused();
	expect(new NodeApiError(node, error)).toBe(error);
	const wrapped = new NodeOperationError(node, error, { itemIndex: 0 });
	expect(meaningOf(wrapped)).toEqual(meaningOf(error));
	const revived = JSON.parse(JSON.stringify(error.toJSON ? error.toJSON() : error));
	expect(meaningOf(revived)).toEqual(meaningOf(error));
	// same words, no meaning: nothing is read from the text
	const lookalike = new NodeApiError(node, { message: error.message, httpCode: '400' });
	expect(meaningOf(lookalike)).toBeUndefined();
	expect(meaningOf(new Error(error.message))).toBeUndefined();
	expect(meaningOf(undefined)).toBeUndefined();
	// set again: replaced, on the same object
	expect(withMeaning(error, { kind: 'failed', outcome: 'notSent' })).toBe(error);
	expect(meaningOf(error).kind).toBe('failed');
});
