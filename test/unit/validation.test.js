'use strict';
const { NodeOperationError } = require('n8n-workflow');
const v = require('../../dist/nodes/WorkOrderService/helpers/validation');
const { noteOut, attachmentOut } = require('../../dist/nodes/WorkOrderService/helpers/noteIds');
const search = require('../../dist/nodes/WorkOrderService/helpers/workOrderSearch');

const node = {
	id: '1',
	name: 'Work Order Service',
	type: 'n8n-nodes-work-order-service.workOrderService',
	typeVersion: 1,
	position: [0, 0],
	parameters: {},
};
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
		['', /not empty/],
		['   ', /not empty/],
		[1.5, /positive whole number/],
		[9007199254740993, /lost digits/],
		[NaN, /positive whole number/],
		[null, /not empty/],
		[undefined, /not empty/],
		[true, /digits only/],
	])('refuses %p, naming the parameter and the item', (input, pattern) => {
		const error = errorOf(() => v.int64Id(node, 3, field, input));
		expect(error).toBeInstanceOf(NodeOperationError);
		expect(error.message).toMatch(pattern);
		expect(error.message).toContain('"noteId"');
		expect(error.message).toContain('item 3');
		expect(error.context.itemIndex).toBe(3);
	});
});

describe('positiveInteger (required IDs: numbers or digit strings, never clamped)', () => {
	const proposal = { name: 'proposalId', label: 'Proposal ID' };
	test.each([
		[5, 5],
		['12', 12],
		[' 61001 ', 61001],
		['061001', 61001],
		[61001.0, 61001],
		[BigInt(90000001), 90000001],
		['2147483647', 2147483647],
	])('accepts %p as %p', (input, expected) => {
		expect(v.positiveInteger(node, 0, proposal, input)).toBe(expected);
	});
	test.each([
		[0, /must be 1 or greater, got 0$/],
		['0', /must be 1 or greater, got "0"$/],
		['000', /must be 1 or greater/],
		[-1, /must be 1 or greater/],
		['-1', /must be a positive whole number, got "-1"$/],
		['+5', /positive whole number/],
		[1.2, /positive whole number/],
		['1.2', /positive whole number/],
		['1e3', /positive whole number/],
		['0x10', /positive whole number/],
		['6 1001', /positive whole number/],
		['abc', /positive whole number/],
		['5/6', /positive whole number/],
		[Infinity, /positive whole number/],
		[NaN, /positive whole number, got NaN/],
		[2 ** 31, /too large \(at most 2147483647, the service's 32-bit range\)/],
		['3000000000', /too large/],
		[2 ** 53, /too large/],
		['9007199254740993', /too large/],
		[true, /positive whole number/],
		[[61001], /positive whole number/],
		[{ value: 61001 }, /positive whole number/],
		['', /must be a positive whole number, not empty/],
		['  ', /not empty/],
		[null, /not empty, got null$/],
		[undefined, /not empty, got nothing$/],
	])('refuses %p (nothing is rounded or clamped)', (input, problem) => {
		const error = errorOf(() => v.positiveInteger(node, 2, proposal, input));
		expect(error).toBeInstanceOf(NodeOperationError);
		expect(error.message).toMatch(/^Invalid Proposal ID \(parameter "proposalId"\) in item 2: /);
		expect(error.message).toMatch(problem);
		expect(error.context.itemIndex).toBe(2);
		expect(error.description).toMatch(/Nothing was sent to the service for this item/);
	});
});

describe('optional IDs: empty means "not given", anything else must be an ID', () => {
	const location = { name: 'options.locationId', label: 'Location ID' };
	test.each([[''], ['   '], [null], [undefined]])(
		'optionalPositiveInteger(%p) is not set',
		(input) => {
			expect(v.optionalPositiveInteger(node, 0, location, input)).toBeUndefined();
		},
	);
	test.each([
		[0, /1 or greater/],
		['0', /1 or greater/],
		['-2', /positive whole number/],
		['5.5', /positive whole number/],
	])('optionalPositiveInteger(%p) is refused, not taken for "not given"', (input, problem) => {
		expect(() => v.optionalPositiveInteger(node, 1, location, input)).toThrow(problem);
	});
	test('optionalPositiveInteger accepts numbers and digit strings', () => {
		expect(v.optionalPositiveInteger(node, 0, location, '501')).toBe(501);
		expect(v.optionalPositiveInteger(node, 0, location, 501)).toBe(501);
	});
	test('optionalInt64Id: empty is not set; digits stay exact text; 0 is refused', () => {
		for (const input of ['', '  ', null, undefined])
			expect(v.optionalInt64Id(node, 0, field, input)).toBeUndefined();
		expect(v.optionalInt64Id(node, 0, field, '9223372036854775807')).toBe('9223372036854775807');
		expect(v.optionalInt64Id(node, 0, field, 15001)).toBe('15001');
		expect(() => v.optionalInt64Id(node, 0, field, '0')).toThrow(/1 or greater/);
	});
});

describe('note IDs in output: always decimal strings', () => {
	test('a note: Id and the NoteId of its attachments, below and above 2^53; other numbers untouched', () => {
		const note = {
			Id: 15001,
			WorkOrderId: 90000005,
			ProposalId: 61001,
			Visibility: 0,
			Attachments: [
				{ Id: 880001, NoteId: 15001, Size: 12 },
				{ Id: 880002, NoteId: '9007199254740993', Size: 3 },
			],
		};
		expect(noteOut(note)).toEqual({
			Id: '15001',
			WorkOrderId: 90000005,
			ProposalId: 61001,
			Visibility: 0,
			Attachments: [
				{ Id: 880001, NoteId: '15001', Size: 12 },
				{ Id: 880002, NoteId: '9007199254740993', Size: 3 },
			],
		});
		expect(noteOut({ Id: '9223372036854775807', ReplyToNoteId: 2147483648 })).toEqual({
			Id: '9223372036854775807',
			ReplyToNoteId: '2147483648',
		});
		expect(noteOut({ Id: BigInt('9007199254740993') }).Id).toBe('9007199254740993');
	});
	test('an attachment: NoteId as text, its own Id stays a number, a missing note stays null', () => {
		expect(attachmentOut({ Id: 880001, NoteId: 2147483648, CheckListResponseId: null })).toEqual({
			Id: 880001,
			NoteId: '2147483648',
			CheckListResponseId: null,
		});
		expect(attachmentOut({ Id: 880003, NoteId: null, Source: 'CheckListResponse' })).toEqual({
			Id: 880003,
			NoteId: null,
			Source: 'CheckListResponse',
		});
	});
	test('keys such as __proto__ stay plain data', () => {
		const record = JSON.parse('{"Id": 1, "__proto__": {"polluted": true}}');
		const out = noteOut(record);
		expect(Object.prototype.hasOwnProperty.call(out, '__proto__')).toBe(true);
		expect({}.polluted).toBeUndefined();
		expect(out.polluted).toBeUndefined();
	});
});

describe('work order search ("From List"): the OData $filter for what the user types', () => {
	test.each([
		['', undefined],
		['   ', undefined],
		[
			'90000003',
			"Id eq 90000003 or contains(Number,'90000003') or contains(Location/Name,'90000003') or contains(Location/StoreId,'90000003')",
		],
		[
			' 0090000003 ',
			"Id eq 90000003 or contains(Number,'0090000003') or contains(Location/Name,'0090000003') or contains(Location/StoreId,'0090000003')",
		],
		['0', "contains(Number,'0') or contains(Location/Name,'0') or contains(Location/StoreId,'0')"],
		[
			'1234567890123456',
			"contains(Number,'1234567890123456') or contains(Location/Name,'1234567890123456') or contains(Location/StoreId,'1234567890123456')",
		],
		[
			'HVAC',
			"contains(Number,'HVAC') or contains(Location/Name,'HVAC') or contains(Location/StoreId,'HVAC')",
		],
		[
			'Dallas Downtown',
			"contains(Number,'Dallas Downtown') or contains(Location/Name,'Dallas Downtown') or contains(Location/StoreId,'Dallas Downtown')",
		],
	])('%p -> %p', (input, expected) => {
		expect(search.workOrderSearchFilter(input)).toBe(expected);
	});
	test("quotes are doubled, so typed text cannot end the literal (O'Neil' or 1 eq 1)", () => {
		const filter = search.workOrderSearchFilter("O'Neil' or 1 eq 1");
		expect(filter.startsWith("contains(Number,'O''Neil'' or 1 eq 1') or ")).toBe(true);
		// every literal is closed: an even number of quotes
		expect((filter.match(/'/g) || []).length % 2).toBe(0);
	});
	test('result names: number, trade / category, location, status; the number and the ID both when they differ', () => {
		const w = {
			Id: 90000001,
			Number: '90000001',
			Trade: 'HVAC',
			Category: 'PREVENTIVE MAINTENANCE',
			Location: { Id: 501, StoreId: '501', Name: 'Store #501 Dallas Downtown' },
			Status: { Primary: 'OPEN', Extended: 'DISPATCH CONFIRMED' },
		};
		expect(search.workOrderListName(w)).toBe(
			'90000001 · HVAC / PREVENTIVE MAINTENANCE · Store #501 Dallas Downtown · OPEN',
		);
		expect(search.workOrderListName({ ...w, Number: 'WO-77' })).toBe(
			'WO-77 (ID 90000001) · HVAC / PREVENTIVE MAINTENANCE · Store #501 Dallas Downtown · OPEN',
		);
		expect(search.workOrderListName({ Id: 5 })).toBe('5');
		expect(search.workOrderListName({ Id: 5, Status: 'CLOSED', Trade: 'DOORS' })).toBe(
			'5 · DOORS · CLOSED',
		);
	});
});

describe('answers', () => {
	test('acknowledgement words and booleans', () => {
		expect(v.acknowledgementAnswer(node, 0, field, 'YES')).toBe('yes');
		expect(v.acknowledgementAnswer(node, 0, field, true)).toBe('true');
		expect(v.acknowledgementAnswer(node, 0, field, false)).toBe('false');
		expect(v.acknowledgementAnswer(node, 0, field, 0)).toBe('0');
		expect(() => v.acknowledgementAnswer(node, 0, field, 'maybe')).toThrow(
			/one of on, off, 1, 0, true, false, yes, no/,
		);
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
		expect(() => v.requiredText(node, 0, field, 'a'.repeat(501), 500)).toThrow(
			/501 characters long, at most 500/,
		);
		expect(() => v.requiredText(node, 0, field, '   ', 500)).toThrow(/must not be empty/);
	});
});

test('e-mails', () => {
	expect(v.optionalEmail(node, 0, field, 'pm@example.com')).toBe('pm@example.com');
	expect(v.optionalEmail(node, 0, field, '')).toBeUndefined();
	for (const bad of [
		'pm@',
		'pm',
		'@example.com',
		'a b@example.com',
		'pm@example',
		'pm@@example.com',
		'pm@exa..mple.com',
	]) {
		expect(() => v.optionalEmail(node, 0, field, bad)).toThrow(/e-mail/);
	}
});

test('path segments are encoded', () => {
	expect(v.pathSegment('../x/y')).toBe('..%2Fx%2Fy');
});
