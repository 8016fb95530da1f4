'use strict';
// The pure parts of actions/toolMode.ts and what validation.ts records for it, without HTTP.
const { NodeOperationError } = require('n8n-workflow');
const { fromAiKeys, isToolCall } = require('../../dist/nodes/WorkOrderService/actions/toolMode');
const v = require('../../dist/nodes/WorkOrderService/helpers/validation');
const { meaningOf } = require('../../dist/nodes/WorkOrderService/helpers/errorMeaning');
/** What an input error carries about its parameter (helpers/errorMeaning.ts). */
const inputOf = (error) => meaningOf(error)?.input;

const node = (type) => ({
	id: '1',
	name: 'n',
	type,
	typeVersion: 1,
	position: [0, 0],
	parameters: {},
});

describe('isToolCall: the node type n8n gives the tool variant', () => {
	test.each([
		['n8n-nodes-work-order-service.workOrderServiceTool', true],
		['n8n-nodes-work-order-service.workOrderService', false],
		['n8n-nodes-work-order-service.workOrderServicePollingTrigger', false],
	])('%s -> %s', (type, expected) => {
		expect(isToolCall({ getNode: () => node(type) })).toBe(expected);
	});
});

describe('fromAiKeys: the arguments a parameter takes from the model', () => {
	test.each([
		['single quotes', "={{ $fromAI('proposal_id', 'The proposal', 'number') }}", ['proposal_id']],
		['double quotes, spaces', '={{ $fromAI( "note_id" , "Note" ) }}', ['note_id']],
		[
			"the editor's override (backticks, comment)",
			"={{ /*n8n-auto-generated-fromAI-override*/ $fromAI('Proposal_ID', ``, 'string') }}",
			['Proposal_ID'],
		],
		['other spellings n8n accepts', "={{ $fromAi('a') + $fromai('b') }}", ['a', 'b']],
		[
			'a resource locator',
			{ __rl: true, mode: 'id', value: "={{ $fromAI('work_order_id', 'WO', 'number') }}" },
			['work_order_id'],
		],
		['the same key twice', "={{ $fromAI('k') }}-{{ $fromAI('k') }}", ['k']],
		['a fixed value', '61001', []],
		['an expression on the input', '={{ $json.proposalId }}', []],
		['nothing', undefined, []],
	])('%s', (_, raw, keys) => {
		expect(fromAiKeys(raw)).toEqual(keys);
	});
});

describe('validation records what a self-contained message needs; the workflow message is unchanged', () => {
	const field = { name: 'proposalId', label: 'Proposal ID' };
	test('positiveInteger 0', () => {
		let error;
		try {
			v.positiveInteger(node('t'), 3, field, 0);
		} catch (e) {
			error = e;
		}
		expect(error).toBeInstanceOf(NodeOperationError);
		expect(error.message).toBe(
			'Invalid Proposal ID (parameter "proposalId") in item 3: must be 1 or greater, got 0',
		);
		expect(error.description).toBe(
			'Fix the "Proposal ID" parameter for item 3. Nothing was sent to the service for this item.',
		);
		expect(meaningOf(error)).toMatchObject({ kind: 'validation', outcome: 'notSent' });
		expect(inputOf(error)).toEqual({
			field,
			problem: 'must be 1 or greater',
			shown: '0',
			rule: 'a whole number of 1 or more',
		});
	});

	test('int64Id of a number beyond 2^53 asks for a string of digits', () => {
		let error;
		try {
			v.int64Id(node('t'), 0, { name: 'noteId', label: 'Note ID' }, 2 ** 53 + 2);
		} catch (e) {
			error = e;
		}
		expect(error.message).toBe(
			'Invalid Note ID (parameter "noteId") in item 0: is a number beyond 2^53 that has already lost digits, got 9007199254740994',
		);
		expect(inputOf(error).rule).toBe(
			'a whole number from 1 to 9223372036854775807, given as a string of digits',
		);
	});

	test('other errors carry nothing', () => {
		expect(inputOf(new Error('x'))).toBeUndefined();
		expect(inputOf('x')).toBeUndefined();
	});
});
