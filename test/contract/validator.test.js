'use strict';
/**
 * The contract validator itself (validate.js), without HTTP: every kind of violation is caught (so
 * the contract test can fail), requests the reference describes pass, and the page's rules apply
 * (note IDs int64, the checklist names without case, Comments, the position rules of the text,
 * OData property paths). Log entries are built as the emulator logs them.
 */
const { validateRequest, validateAnswer } = require('./validate');
const { operations } = require('./reference');
const { stringify } = require('../emulator/lossless-json');

/** An emulator request log entry. */
function entry(method, path, o = {}) {
	const headers = { ...(o.headers || {}) };
	let body = null;
	let bodySize = 0;
	if (o.json !== undefined) {
		headers['content-type'] = headers['content-type'] || 'application/json';
		body = o.json;
		bodySize = stringify(o.json).length;
	}
	if (o.parts) {
		headers['content-type'] = 'multipart/form-data; boundary=x';
		bodySize = 100;
	}
	if (o.raw !== undefined) bodySize = o.raw.length;
	return {
		method,
		path,
		query: o.query || {},
		headers,
		body,
		bodySize,
		parts: o.parts,
		bodyError: o.bodyError,
		status: o.status ?? 200,
		responseBody:
			o.answer === undefined
				? undefined
				: typeof o.answer === 'string'
					? o.answer
					: stringify(o.answer),
	};
}

const kinds = (result) => result.violations.map((v) => v.kind);
const messages = (result) => result.violations.map((v) => v.message).join(' | ');

describe('the reference as the validator reads it', () => {
	test("43 operations of the JSON and the contract's 4 additions, each path matched to its template", () => {
		expect(operations.filter((o) => o.source === 'reference')).toHaveLength(43);
		expect(operations.filter((o) => o.source === 'contract').map((o) => o.id)).toEqual([
			'GET /odata/locations({locationId})/workorders/Service.GetDuplicates()',
			'GET /odata/locations({locationId})/workorders/Service.GetRecalls()',
			'GET /odata/workorders/Service.NearBy(latitude={latitude},longitude={longitude})',
			'POST /test/webhooks/notifications',
		]);
		expect(validateRequest(entry('GET', '/api/v3/workorders/statuses')).operation.id).toBe(
			'GET /workorders/statuses',
		);
		expect(validateRequest(entry('GET', '/api/v3/workorders/90000001')).operation.id).toBe(
			'GET /workorders/{workorderId}',
		);
		expect(
			validateRequest(entry('GET', '/api/v3/odata/workorders(5)/Service.CheckInActivity()'))
				.operation.id,
		).toBe('GET /odata/workorders({workorderId})/Service.CheckInActivity()');
		expect(validateRequest(entry('GET', '/auth/oauth/token'))).toBeNull();
		expect(validateRequest(entry('GET', '/__emulator/state'))).toBeNull();
	});
});

describe('requests the reference describes pass', () => {
	test.each([
		[
			'Create Note',
			entry('POST', '/api/v3/workorders/5/notes', {
				json: {
					Note: 'x',
					Visibility: 3,
					MailedTo: 'a@b.c',
					ActionRequired: true,
					ScheduledDate: '2026-06-01T04:00:00.000-04:00',
					AttachmentsIds: [1, 2],
					Actor: 'me',
					NotifyFollowers: false,
					DoNotSendEmail: true,
					IsFollowUpDateChanged: false,
				},
			}),
		],
		[
			'Check In (repair, with the position)',
			entry('POST', '/api/v3/workorders/5/universalCheckIn', {
				json: {
					WorkTypeId: 1,
					Latitude: 32.7,
					Longitude: -96.8,
					UserId: 3,
					TechsCount: 2,
					CheckInTime: '2026-06-01T04:00:00Z',
					Actor: 'a',
				},
			}),
		],
		[
			'Check In (travel, no position: the text needs it for repairs only)',
			entry('POST', '/api/v3/workorders/5/universalCheckIn', { json: { WorkTypeId: 2 } }),
		],
		[
			'Check Out (Cancel, no position)',
			entry('POST', '/api/v3/workorders/5/universalCheckOut', {
				json: { WorkTypeId: 1, ActionStatus: 'Cancel' },
			}),
		],
		[
			'Check Out (a note ID beyond 2^53 as exact digits: rule 1)',
			entry('POST', '/api/v3/workorders/5/universalCheckOut', {
				json: {
					Latitude: 1,
					Longitude: 2,
					PrimaryStatus: 'Completed',
					UnableObtainSignatureNoteId: '9007199254741000',
				},
			}),
		],
		[
			'a note path with an int64 ID',
			entry('GET', '/api/v3/odata/workorders(5)/notes(9223372036854775807)'),
		],
		[
			"the checklist request with the contract's names (rule 2)",
			entry('POST', '/api/v3/checklists/CheckListResponse', {
				parts: [
					{
						name: 'CheckListResponseRequest',
						json: {
							CheckListQuestionID: 1,
							ProviderID: 2,
							TechnicianID: 3,
							EntityID: 4,
							Attempt: 1,
							Answer: 72.5,
						},
					},
				],
			}),
		],
		[
			'the proposal body with Comments (rule 3)',
			entry('PUT', '/api/v3/proposals/7/reject', {
				json: { Comments: 'x', RejectReasonCodeId: 2 },
				query: { useProposalAlertEmails: 'true' },
			}),
		],
		[
			'a note upload with its descriptor part',
			entry('POST', '/api/v3/workorders/5/notes/9007199254740993/attachments', {
				parts: [
					{
						name: 'AddAttachmentsRequest',
						json: [{ Name: 'a.png', Type: 'File', MediaType: 'image/png', Visibility: 2 }],
					},
					{ name: 'file', filename: 'a.png' },
				],
			}),
		],
		[
			'OData paths, functions, offsets',
			entry('GET', '/api/v3/odata/workorders', {
				query: {
					$filter:
						"contains(Location/Name,'Dallas') or (Status/Primary eq 'OPEN' and UpdatedDate ge 2026-11-01T01:30:00.000-04:00 and LocationId eq 501)",
					$orderby: 'UpdatedDate desc,Id asc',
					$select: 'Id,Number,Status,Location',
					$top: '50',
					$skip: '0',
					$count: 'true',
				},
			}),
		],
		[
			"the contract's duplicates read",
			entry('GET', '/api/v3/odata/locations(502)/workorders/Service.GetDuplicates()', {
				query: { $count: 'true' },
			}),
		],
	])('%s', (_, e) => {
		const result = validateRequest(e);
		expect(messages(result)).toBe('');
	});
});

describe('every kind of violation is caught', () => {
	test.each([
		[
			'unknown path',
			entry('GET', '/api/v3/workorders/5/history'),
			'unknown path',
			/no operation of the reference/,
		],
		[
			'a path outside /v3',
			entry('GET', '/api/v2/workorders'),
			'unknown path',
			/not below \/api\/v3/,
		],
		[
			'unknown method',
			entry('DELETE', '/api/v3/workorders/5'),
			'unknown method',
			/has GET on this path/,
		],
		[
			'a path parameter of the wrong type',
			entry('GET', '/api/v3/workorders/abc'),
			'wrong type',
			/path workorderId must be a 32-bit integer/,
		],
		[
			'a note ID beyond int64',
			entry('GET', '/api/v3/odata/workorders(5)/notes(9223372036854775808)'),
			'wrong type',
			/64-bit/,
		],
		[
			'unknown query parameter',
			entry('GET', '/api/v3/workorders/5/notes', { query: { paging: '1:10', pageSize: '5' } }),
			'unknown query parameter',
			/'pageSize'/,
		],
		[
			'a query parameter in the wrong case',
			entry('GET', '/api/v3/workorders', { query: { PageSize: '5' } }),
			'unknown query parameter',
			/spells it 'pageSize'/,
		],
		[
			'a query parameter of the wrong type',
			entry('PUT', '/api/v3/proposals/7/reject', {
				json: {},
				query: { useProposalAlertEmails: 'yes' },
			}),
			'wrong type',
			/true or false/,
		],
		[
			'missing body',
			entry('POST', '/api/v3/workorders/5/notes'),
			'missing body',
			/CreateNoteRequest/,
		],
		[
			'a body that is not JSON',
			entry('POST', '/api/v3/workorders/5/notes', {
				headers: { 'content-type': 'application/json' },
				raw: '{',
				bodyError: 'Unexpected end',
			}),
			'body not JSON',
			/not JSON/,
		],
		[
			'a JSON body sent as a form',
			entry('POST', '/api/v3/workorders/5/notes', {
				headers: { 'content-type': 'application/x-www-form-urlencoded' },
				raw: 'Note=x',
			}),
			'wrong type',
			/must be application\/json/,
		],
		[
			'unknown body field (the old NoteData, IsPinned)',
			entry('POST', '/api/v3/workorders/5/notes', { json: { Note: 'x', IsPinned: true } }),
			'unknown body field',
			/IsPinned is not a property of CreateNoteRequest/,
		],
		[
			'missing body field',
			entry('POST', '/api/v3/workorders/5/notes', { json: { NoteData: 'x' } }),
			'missing body field',
			/body.Note is required/,
		],
		[
			'a body field of the wrong type',
			entry('POST', '/api/v3/workorders/5/notes', { json: { Note: 'x', Visibility: '2' } }),
			'wrong type',
			/Visibility must be a 32-bit integer/,
		],
		[
			'an enum value the reference does not have',
			entry('POST', '/api/v3/workorders/5/universalCheckOut', {
				json: { Latitude: 1, Longitude: 2, PrimaryStatus: 'Done' },
			}),
			'wrong type',
			/PrimaryStatus must be one of/,
		],
		[
			'a date-time that is not one',
			entry('POST', '/api/v3/workorders/5/notes', {
				json: { Note: 'x', FollowUpDate: 'tomorrow' },
			}),
			'wrong type',
			/ISO 8601/,
		],
		[
			'the position of a repair check-in missing',
			entry('POST', '/api/v3/workorders/5/universalCheckIn', { json: { WorkTypeId: 1 } }),
			'missing body field',
			/Latitude is required/,
		],
		[
			'the old check-in fields',
			entry('POST', '/api/v3/workorders/5/universalCheckIn', {
				json: {
					Latitude: 1,
					Longitude: 2,
					TechnicianId: 4001,
					NumberOfTechnicians: 2,
					Comment: 'x',
				},
			}),
			'unknown body field',
			/TechnicianId is not a property of CheckInRequest/,
		],
		[
			'a body where the operation takes none',
			entry('GET', '/api/v3/workorders/5', { json: {} }),
			'unexpected body',
			/takes no body/,
		],
		[
			'multipart expected',
			entry('POST', '/api/v3/checklists/CheckListResponse', { json: { a: 1 } }),
			'not multipart',
			/multipart\/form-data/,
		],
		[
			'unknown part',
			entry('POST', '/api/v3/workorders/5/notes/6/attachments', {
				parts: [
					{ name: 'file', filename: 'a' },
					{ name: 'Description', text: 'x' },
				],
			}),
			'unknown part',
			/'Description'/,
		],
		[
			'missing part',
			entry('POST', '/api/v3/workorders/5/notes/6/attachments', {
				parts: [{ name: 'AddAttachmentsRequest', json: [] }],
			}),
			'missing part',
			/'file' is required/,
		],
		[
			'a JSON part that is not JSON',
			entry('POST', '/api/v3/checklists/CheckListResponse', {
				parts: [{ name: 'CheckListResponseRequest', text: 'answer=yes' }],
			}),
			'part not JSON',
			/must hold JSON/,
		],
		[
			'a JSON part with a field of the wrong type',
			entry('POST', '/api/v3/workorders/5/notes/6/attachments', {
				parts: [
					{ name: 'AddAttachmentsRequest', json: [{ Type: 'Photo' }] },
					{ name: 'file', filename: 'a' },
				],
			}),
			'wrong type',
			/Type must be one of File, RemoteStorage/,
		],
		[
			'the descriptor of work order files sent to a note (an object, not an array)',
			entry('POST', '/api/v3/workorders/5/notes/6/attachments', {
				parts: [
					{ name: 'AddAttachmentsRequest', json: { Attachments: [] } },
					{ name: 'file', filename: 'a' },
				],
			}),
			'wrong type',
			/must be an array/,
		],
		[
			'a file part without a file name',
			entry('POST', '/api/v3/workorders/5/notes/6/attachments', {
				parts: [{ name: 'file', text: 'bytes' }],
			}),
			'wrong type',
			/must be a file/,
		],
		[
			'unknown OData property in $filter',
			entry('GET', '/api/v3/odata/workorders', { query: { $filter: "LocationName eq 'x'" } }),
			'unknown OData property',
			/'LocationName' is not a property of WorkOrder/,
		],
		[
			'unknown OData property in a path',
			entry('GET', '/api/v3/odata/workorders', { query: { $filter: "Location/Nam eq 'x'" } }),
			'unknown OData property',
			/'Nam' is not a property of Location/,
		],
		[
			'a path through a value',
			entry('GET', '/api/v3/odata/workorders', { query: { $filter: "Trade/Name eq 'x'" } }),
			'unknown OData property',
			/'Trade' is a string/,
		],
		[
			'unknown OData property in $select',
			entry('GET', '/api/v3/odata/workorders', { query: { $select: 'Id,UpdatedDateDto' } }),
			'unknown OData property',
			/'UpdatedDateDto'/,
		],
		[
			'unknown OData property in $orderby',
			entry('GET', '/api/v3/odata/workorders', { query: { $orderby: 'StoreId desc' } }),
			'unknown OData property',
			/'StoreId'/,
		],
		[
			'an OData property of a note list checked against Note',
			entry('GET', '/api/v3/odata/workorders(5)/notes', { query: { $filter: 'IsPinned eq true' } }),
			'unknown OData property',
			/not a property of Note/,
		],
		[
			'an unknown function',
			entry('GET', '/api/v3/odata/workorders', { query: { $filter: "substringof('x',Trade)" } }),
			'OData syntax',
			/not a function/,
		],
		[
			"a '+' that became a space",
			entry('GET', '/api/v3/odata/workorders', {
				query: { $filter: 'UpdatedDate ge 2026-11-01T01:30:00 01:00' },
			}),
			'OData syntax',
			/arrives as a space/,
		],
		[
			'unbalanced parentheses',
			entry('GET', '/api/v3/odata/workorders', { query: { $filter: "(Trade eq 'HVAC'" } }),
			'OData syntax',
			/unbalanced/,
		],
		[
			'a date compared with a number',
			entry('GET', '/api/v3/odata/workorders', { query: { $filter: 'UpdatedDate ge 5' } }),
			'wrong type',
			/'UpdatedDate' \(a date\) is compared with number/,
		],
		[
			'a number compared with text',
			entry('GET', '/api/v3/odata/workorders', { query: { $filter: "LocationId eq '501'" } }),
			'wrong type',
			/'LocationId' \(a number\)/,
		],
		[
			'an OData option of the wrong type',
			entry('GET', '/api/v3/odata/workorders', { query: { $top: 'all' } }),
			'wrong type',
			/query \$top must be a 32-bit integer/,
		],
	])('%s', (_, e, kind, message) => {
		const result = validateRequest(e);
		expect(kinds(result)).toContain(kind);
		expect(messages(result)).toMatch(message);
	});
});

describe("answers: every property of the reference's object, nulls included, none more", () => {
	const note = {
		Id: 9223372036854775807n,
		Number: 1,
		NoteData: 'x',
		DateCreated: '2026-01-01T00:00:00',
		ScheduledDate: null,
		FollowUpDate: null,
		ActionRequired: false,
		MailedTo: null,
		CreatedBy: 'a',
		CompanyName: null,
		Attachments: [],
		Visibility: 0,
		NoteType: 'UsersNote',
		IsAttachmentNote: false,
	};
	const get = (answer, query = {}) => {
		const e = entry('GET', '/api/v3/odata/workorders(5)/notes', {
			query,
			answer: { '@odata.context': 'x', value: [answer] },
		});
		return validateAnswer(e, validateRequest(e).operation);
	};

	test('a complete Note passes (its int64 Id too)', () => {
		expect(get(note)).toEqual([]);
	});

	test('a missing property, an extra one (IsPinned), a wrong type, a wrapper that is not OData', () => {
		const { MailedTo, ...withoutMailedTo } = note;
		expect(get(withoutMailedTo).map((v) => v.kind)).toEqual(['answer: missing property']);
		expect(get({ ...note, IsPinned: true }).map((v) => v.message)).toEqual([
			expect.stringMatching(/IsPinned is not a property of Note/),
		]);
		expect(get({ ...note, ActionRequired: 'no' }).map((v) => v.kind)).toEqual([
			'answer: wrong type',
		]);
		const bare = entry('GET', '/api/v3/odata/workorders(5)/notes', { answer: [note] });
		expect(validateAnswer(bare, validateRequest(bare).operation).map((v) => v.kind)).toEqual([
			'answer: wrong type',
		]);
	});

	test('$select narrows what must be there, also along a path', () => {
		const e = entry('GET', '/api/v3/odata/workorders', {
			query: { $select: 'Id,Location/Name' },
			answer: { value: [{ Id: 1, Location: { Name: 'x' } }] },
		});
		expect(validateAnswer(e, validateRequest(e).operation)).toEqual([]);
		const missing = entry('GET', '/api/v3/odata/workorders', {
			query: { $select: 'Id,Location/Name' },
			answer: { value: [{ Id: 1, Location: {} }] },
		});
		expect(validateAnswer(missing, validateRequest(missing).operation).map((v) => v.where)).toEqual(
			['answer[0].Location.Name'],
		);
	});

	test('an error body: ErrorResponse with codes as numbers (rule 5); an OData error on an OData read', () => {
		const e = entry('POST', '/api/v3/workorders/5/notes', {
			json: { Note: 'x' },
			status: 400,
			answer: { ErrorCodes: [503], ErrorCode: 503, ErrorMessage: 'bad', Data: null },
		});
		expect(validateAnswer(e, validateRequest(e).operation)).toEqual([]);
		const odata = entry('GET', '/api/v3/odata/workorders', {
			status: 400,
			answer: { error: { code: '', message: 'Could not find a property', details: [] } },
		});
		expect(validateAnswer(odata, validateRequest(odata).operation)).toEqual([]);
		const wrong = entry('POST', '/api/v3/workorders/5/notes', {
			json: { Note: 'x' },
			status: 400,
			answer: { Code: 1 },
		});
		expect(validateAnswer(wrong, validateRequest(wrong).operation).map((v) => v.kind)).toContain(
			'answer: unknown property',
		);
	});

	test('answers the reference documents without a body are not checked (201 notes: maybe the ID, maybe nothing)', () => {
		for (const answer of ['9007199254741000', '', '{"Id":1}']) {
			const e = entry('POST', '/api/v3/workorders/5/notes', {
				json: { Note: 'x' },
				status: 201,
				answer,
			});
			expect(validateAnswer(e, validateRequest(e).operation)).toEqual([]);
		}
	});

	test('an answer typed as the empty generic object is JSON of unknown shape (subsidiaries: a list passes)', () => {
		for (const answer of [[{ Id: 2001, Name: 'East' }], {}, { anything: 1 }]) {
			const e = entry('GET', '/api/v3/subscribers/current/subsidiaries', { answer });
			expect(validateAnswer(e, validateRequest(e).operation)).toEqual([]);
		}
	});
});

describe('part C (service-reference-c.json): each path against its own file', () => {
	const partC = operations.filter((o) => o.source === 'reference-c');

	test('its 24 operations, their objects under their own names (C.Invoice is not Invoice)', () => {
		expect(partC).toHaveLength(24);
		expect(
			validateRequest(
				entry('PUT', '/api/v3/invoices/7/approve', {
					query: { approvalCode: 'A1', comments: 'ok', category: 'Repair' },
				}),
			).operation.id,
		).toBe('PUT /invoices/{invoiceId}/approve');
		const { propertyNames } = require('./reference');
		expect(propertyNames('C.Invoice')).toEqual(
			expect.arrayContaining(['WoTrackingNumber', 'InvoiceTotal', 'PostedDate']),
		);
		// Label differs between the two files: part C's has LabelText, the main file's Name
		expect(propertyNames('C.Label')).toContain('LabelText');
		expect(propertyNames('Label')).not.toContain('LabelText');
	});

	test.each([
		[
			'an invoice list on its own properties',
			entry('GET', '/api/v3/odata/invoices', {
				query: {
					$filter: "PostedDate ge 2026-01-01T00:00:00-05:00 and Status eq 'Approved'",
					$orderby: 'UpdatedDate asc',
					$top: '50',
					$skip: '0',
				},
			}),
		],
		[
			'a reject with its comments in the query',
			entry('PUT', '/api/v3/invoices/7/reject', { query: { comments: 'Wrong rate' } }),
		],
		[
			'a bulk payment',
			entry('POST', '/api/v3/invoices/Payments', {
				json: {
					Payments: [
						{
							InvoiceId: 7,
							PaymentDate: '2026-11-01T00:00:00',
							PaymentNumber: 'P-1',
							PaymentAmount: 10.5,
						},
					],
				},
			}),
		],
		[
			'the providers of a trade',
			entry('GET', '/api/v3/providers/getbytrade', { query: { trade: 'HVAC' } }),
		],
		['the trades at a location', entry('GET', '/api/v3/odata/locations(501)/trades')],
	])('%s passes', (_, e) => {
		expect(messages(validateRequest(e))).toBe('');
	});

	test.each([
		[
			'approve without the approval code the reference requires',
			entry('PUT', '/api/v3/invoices/7/approve', {
				query: { comments: 'ok', category: 'Repair' },
			}),
			/approvalCode/,
		],
		[
			'an invoice property that C.Invoice lacks',
			entry('GET', '/api/v3/odata/invoices', {
				query: { $filter: 'Nte gt 5' },
			}),
			/Nte/,
		],
		[
			'a payment field the reference does not name',
			entry('POST', '/api/v3/invoices/Payments', {
				json: {
					Payments: [
						{
							InvoiceId: 7,
							PaymentDate: '2026-11-01T00:00:00',
							PaymentNumber: 'P-1',
							PaymentAmount: 10.5,
							Amount: 3,
						},
					],
				},
			}),
			/Amount/,
		],
		['an invoice ID that is not an integer', entry('GET', '/api/v3/invoices/abc'), /invoiceId/],
	])('%s is a violation', (_, e, pattern) => {
		const text = messages(validateRequest(e));
		expect(text).toMatch(pattern);
	});
});
