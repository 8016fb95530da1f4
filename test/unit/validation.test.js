'use strict';
const { NodeOperationError } = require('n8n-workflow');
const v = require('../../dist/nodes/WorkOrderService/helpers/validation');

const node = { id: '1', name: 'Work Order Service', type: 'n8n-nodes-work-order-service.workOrderService', typeVersion: 1, position: [0, 0], parameters: {} };
const field = { name: 'noteId', label: 'Note ID' };

function errorOf(fn) {
	try {
		fn();
	} catch (error) {
		return error;
	}
	throw new Error('expected a throw');
}

describe('int64Id', () => {
	test.each([
		['2147483648', '2147483648'],
		['9007199254740993', '9007199254740993'],
		['9223372036854775807', '9223372036854775807'],
		['0009', '9'],
		[42, '42'],
		[' 17 ', '17'],
	])('accepts %p', (input, expected) => {
		expect(v.int64Id(node, 0, field, input)).toBe(expected);
	});

	test.each([
		['9223372036854775808', /64-bit maximum/],
		['99999999999999999999', /64-bit maximum/],
		['0', /1 or greater/],
		['-5', /digits only/],
		['12/../3', /digits only/],
		['1e5', /digits only/],
		['', /digits only/],
		[1.5, /positive whole number/],
		[9007199254740993, /lost digits/],
		[NaN, /positive whole number/],
		[null, /digits only/],
	])('refuses %p, naming the parameter and the item', (input, pattern) => {
		const error = errorOf(() => v.int64Id(node, 3, field, input));
		expect(error).toBeInstanceOf(NodeOperationError);
		expect(error.message).toMatch(pattern);
		expect(error.message).toContain('"noteId"');
		expect(error.message).toContain('item 3');
		expect(error.context.itemIndex).toBe(3);
	});
});

describe('positiveInteger', () => {
	test('accepts numbers and digit strings', () => {
		expect(v.positiveInteger(node, 0, field, 5)).toBe(5);
		expect(v.positiveInteger(node, 0, field, '12')).toBe(12);
	});
	test.each([0, -1, 1.2, '1.2', 'abc', Infinity, NaN, 2 ** 53, '', undefined, true, '5/6'])('refuses %p', (input) => {
		expect(() => v.positiveInteger(node, 0, field, input)).toThrow(NodeOperationError);
	});
});

describe('answers', () => {
	test('acknowledgement words and booleans', () => {
		expect(v.acknowledgementAnswer(node, 0, field, 'YES')).toBe('yes');
		expect(v.acknowledgementAnswer(node, 0, field, true)).toBe('true');
		expect(v.acknowledgementAnswer(node, 0, field, false)).toBe('false');
		expect(v.acknowledgementAnswer(node, 0, field, 0)).toBe('0');
		expect(() => v.acknowledgementAnswer(node, 0, field, 'maybe')).toThrow(/one of on, off, 1, 0, true, false, yes, no/);
	});
	test('numeric answers must be finite', () => {
		expect(v.numericAnswer(node, 0, field, '12.5')).toBe(12.5);
		expect(v.numericAnswer(node, 0, field, -3)).toBe(-3);
		for (const bad of [NaN, Infinity, 'twelve', '', '1,5', null]) {
			expect(() => v.numericAnswer(node, 0, field, bad)).toThrow(/finite number/);
		}
	});
	test('text is limited to 500 characters', () => {
		expect(v.requiredText(node, 0, field, 'a'.repeat(500), 500)).toHaveLength(500);
		expect(() => v.requiredText(node, 0, field, 'a'.repeat(501), 500)).toThrow(/501 characters long, at most 500/);
		expect(() => v.requiredText(node, 0, field, '   ', 500)).toThrow(/must not be empty/);
	});
});

test('e-mails', () => {
	expect(v.optionalEmail(node, 0, field, 'pm@example.com')).toBe('pm@example.com');
	expect(v.optionalEmail(node, 0, field, '')).toBeUndefined();
	for (const bad of ['pm@', 'pm', '@example.com', 'a b@example.com', 'pm@example', 'pm@@example.com', 'pm@exa..mple.com']) {
		expect(() => v.optionalEmail(node, 0, field, bad)).toThrow(/e-mail/);
	}
});

test('path segments are encoded', () => {
	expect(v.pathSegment('../x/y')).toBe('..%2Fx%2Fy');
});
