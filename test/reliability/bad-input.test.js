'use strict';
/**
 * Issue 5, test 5: hostile input across every operation. Each case must fail BEFORE any request
 * with a NodeOperationError whose message names the parameter and the item, and the emulator must
 * have received no API request for it (token requests do not count). Expressions push values of
 * the wrong type past the UI's parameter types, as a workflow's data would.
 */
const { NodeApiError, NodeOperationError } = require('n8n-workflow');
const { useEnvironment, items, WO, PROVIDER, TECH, PROPOSAL_OPEN } = require('./support');

const env = useEnvironment();

const NOTE = '15001';
const S501 = 'x'.repeat(501);
const JPEG = Buffer.from([
	0xff, 0xd8, 0xff, 0xe0, 0x00, 0x10, 0x4a, 0x46, 0x49, 0x46, 0x00, 0xff, 0xd9,
]).toString('base64');

// ---- parameter sets of every operation (valid unless a case overrides a value) -----------------
const checklist = (x = {}) => ({
	resource: 'checklistResponse',
	operation: 'submit',
	workOrderId: WO,
	questionId: 9103,
	questionType: 'textEntry',
	answer: 'all good',
	providerId: PROVIDER,
	technicianId: TECH,
	attempt: 1,
	...x,
});
const ack = (x = {}) =>
	checklist({ questionId: 9101, questionType: 'acknowledgement', answer: 'yes', ...x });
const numeric = (x = {}) =>
	checklist({ questionId: 9104, questionType: 'numericInput', answer: 71.5, ...x });
const selector = (x = {}) =>
	checklist({
		questionId: 9102,
		questionType: 'selector',
		answer: undefined,
		optionId: 91021,
		...x,
	});
const proposal = (operation, x = {}, fields = {}) => ({
	resource: 'proposal',
	operation,
	proposalId: PROPOSAL_OPEN,
	additionalFields: fields,
	...x,
});
const woGet = (x = {}) => ({ resource: 'workOrder', operation: 'get', workOrderId: WO, ...x });
const woGetAll = (x = {}, options = {}) => ({
	resource: 'workOrder',
	operation: 'getAll',
	returnAll: false,
	limit: 5,
	options,
	...x,
});
/** A repair check-in/out at the Dallas store: the position is required (the reference's rule). */
const POSITION = { latitude: '32.7767', longitude: '-96.797' };
const checkIn = (fields = {}, x = {}) => ({
	resource: 'workOrder',
	operation: 'checkIn',
	workOrderId: WO,
	...POSITION,
	additionalFields: fields,
	...x,
});
const checkOut = (fields = {}, x = {}) => ({
	resource: 'workOrder',
	operation: 'checkOut',
	workOrderId: WO,
	...POSITION,
	additionalFields: fields,
	...x,
});
const noteCreate = (x = {}, fields = {}) => ({
	resource: 'workOrderNote',
	operation: 'create',
	workOrderId: WO,
	note: 'checked',
	additionalFields: fields,
	...x,
});
const noteGet = (x = {}) => ({
	resource: 'workOrderNote',
	operation: 'get',
	workOrderId: WO,
	noteId: NOTE,
	...x,
});
const noteGetAll = (x = {}) => ({
	resource: 'workOrderNote',
	operation: 'getAll',
	workOrderId: WO,
	returnAll: false,
	limit: 5,
	...x,
});
const noteAttachments = (x = {}) => ({
	resource: 'workOrderNote',
	operation: 'getAttachments',
	workOrderId: WO,
	noteId: NOTE,
	returnAll: false,
	limit: 5,
	...x,
});
const addAttachment = (x = {}) => ({
	resource: 'workOrderNote',
	operation: 'addAttachment',
	workOrderId: WO,
	noteId: NOTE,
	binaryPropertyName: 'data',
	...x,
});
const rejectionReasons = (x = {}) => ({
	resource: 'rejectionReason',
	operation: 'getAll',
	returnAll: false,
	limit: 5,
	...x,
});
const subsidiaries = (x = {}) => ({
	resource: 'subsidiary',
	operation: 'getAll',
	returnAll: false,
	limit: 5,
	...x,
});

/** An input item carrying one file. */
const fileItem = (key, base64, mimeType, fileName) => [
	{ json: {}, binary: { [key]: { base64, mimeType, fileName } } },
];

/**
 * [case name, node parameters, parameter the error must name, problem (regex), input items?]
 */
const CASES = [
	// ---- checklistResponse.submit ----
	[
		'checklist: negative work order ID',
		checklist({ workOrderId: '={{ -5 }}' }),
		'workOrderId',
		/1 or greater/,
	],
	[
		'checklist: zero work order ID (expression)',
		checklist({ workOrderId: '={{ 0 }}' }),
		'workOrderId',
		/1 or greater/,
	],
	[
		'checklist: zero work order ID in By ID (expression)',
		checklist({ workOrderId: { __rl: true, mode: 'id', value: '={{ "0" }}' } }),
		'workOrderId',
		/1 or greater/,
	],
	[
		'checklist: work order ID "12/../3" in By ID (expression)',
		checklist({ workOrderId: { __rl: true, mode: 'id', value: '={{ "12/../3" }}' } }),
		'workOrderId',
		/whole number/,
	],
	[
		'checklist: fractional work order ID',
		checklist({ workOrderId: '={{ 1.5 }}' }),
		'workOrderId',
		/whole number/,
	],
	[
		'checklist: work order ID with slashes and ..',
		checklist({ workOrderId: '={{ "12/../3" }}' }),
		'workOrderId',
		/whole number/,
	],
	[
		'checklist: work order ID int64 overflow 9223372036854775808',
		checklist({ workOrderId: '={{ "9223372036854775808" }}' }),
		'workOrderId',
		/too large/,
	],
	[
		'checklist: work order ID NaN',
		checklist({ workOrderId: '={{ NaN }}' }),
		'workOrderId',
		/whole number/,
	],
	[
		'checklist: work order ID as an object',
		checklist({ workOrderId: '={{ { id: 1 } }}' }),
		'workOrderId',
		/whole number/,
	],
	[
		'checklist: question ID Infinity',
		checklist({ questionId: '={{ Infinity }}' }),
		'questionId',
		/whole number/,
	],
	[
		'checklist: question ID boolean',
		checklist({ questionId: '={{ true }}' }),
		'questionId',
		/whole number/,
	],
	[
		'checklist: question ID huge (1e20)',
		checklist({ questionId: '={{ 1e20 }}' }),
		'questionId',
		/too large/,
	],
	[
		'checklist: unknown questionType enum value',
		checklist({ questionType: '={{ "essay" }}', optionId: 91021 }),
		'questionType',
		/must be one of/,
	],
	[
		'checklist: 501-character text answer',
		checklist({ answer: `={{ "x".repeat(501) }}` }),
		'answer',
		/501 characters/,
	],
	[
		'checklist: empty text answer',
		checklist({ answer: '={{ "   " }}' }),
		'answer',
		/must not be empty/,
	],
	[
		'checklist: text answer as an object',
		checklist({ answer: '={{ { a: 1 } }}' }),
		'answer',
		/must be text/,
	],
	['checklist: numeric answer NaN', numeric({ answer: '={{ NaN }}' }), 'answer', /finite number/],
	[
		'checklist: numeric answer Infinity',
		numeric({ answer: '={{ Infinity }}' }),
		'answer',
		/finite number/,
	],
	[
		'checklist: numeric answer "1e400" overflows to Infinity',
		numeric({ answer: '={{ "1e400" }}' }),
		'answer',
		/finite number/,
	],
	[
		'checklist: numeric answer "12abc"',
		numeric({ answer: '={{ "12abc" }}' }),
		'answer',
		/finite number/,
	],
	[
		'checklist: acknowledgement answer "maybe"',
		ack({ answer: '={{ "maybe" }}' }),
		'answer',
		/must be one of/,
	],
	['checklist: acknowledgement answer 2', ack({ answer: '={{ 2 }}' }), 'answer', /must be one of/],
	[
		'checklist: selector optionId empty from an expression',
		selector({ optionId: '={{ $json.none }}' }),
		'optionId',
		/not empty/,
	],
	[
		'checklist: selector optionId "0" typed',
		selector({ optionId: '0' }),
		'optionId',
		/1 or greater/,
	],
	[
		'checklist: question ID of only spaces',
		checklist({ questionId: '   ' }),
		'questionId',
		/not empty/,
	],
	[
		'checklist: provider ID "3001.0"',
		checklist({ providerId: '3001.0' }),
		'providerId',
		/whole number/,
	],
	[
		'checklist: selector optionId as text "91021; x"',
		selector({ optionId: '={{ "91021; x" }}' }),
		'optionId',
		/whole number/,
	],
	[
		'checklist: selector 501-character free text',
		selector({ freeTextAnswer: S501 }),
		'freeTextAnswer',
		/501 characters/,
	],
	[
		'checklist: negative provider ID',
		checklist({ providerId: '={{ -1 }}' }),
		'providerId',
		/1 or greater/,
	],
	[
		'checklist: technician ID "4001 OR 1=1"',
		checklist({ technicianId: '={{ "4001 OR 1=1" }}' }),
		'technicianId',
		/whole number/,
	],
	['checklist: attempt 0', checklist({ attempt: 0 }), 'attempt', /1 or greater/],
	[
		'checklist: fractional attempt 1.5',
		checklist({ attempt: '={{ 1.5 }}' }),
		'attempt',
		/whole number/,
	],
	[
		'checklist: missing binary property for the photo',
		checklist({ binaryPropertyName: 'photo' }),
		'binaryPropertyName',
		/no binary property "photo"/,
	],
	[
		'checklist: empty photo file (0 bytes)',
		checklist({ binaryPropertyName: 'photo' }),
		'binaryPropertyName',
		/empty \(0 bytes\)/,
		fileItem('photo', '', 'image/jpeg', 'empty.jpg'),
	],
	[
		'checklist: photo with wrong MIME type text/plain',
		checklist({ binaryPropertyName: 'photo' }),
		'binaryPropertyName',
		/image or a PDF/,
		fileItem('photo', JPEG, 'text/plain', 'notes.txt'),
	],
	[
		'checklist: photo with wrong MIME type application/zip',
		checklist({ binaryPropertyName: 'photo' }),
		'binaryPropertyName',
		/image or a PDF/,
		fileItem('photo', JPEG, 'application/zip', 'photo.zip'),
	],
	[
		'checklist: binary property name as a number',
		checklist({ binaryPropertyName: '={{ 5 }}' }),
		'binaryPropertyName',
		/must name the binary property/,
	],

	// ---- proposal.* ----
	[
		'proposal.approve: proposal ID with ..',
		proposal('approve', { proposalId: '={{ "61001/../61002" }}' }),
		'proposalId',
		/whole number/,
	],
	[
		'proposal.approve: negative proposal ID',
		proposal('approve', { proposalId: '={{ -3 }}' }),
		'proposalId',
		/1 or greater/,
	],
	[
		'proposal.approve: proposal ID "0" typed (was silently sent as 1)',
		proposal('approve', { proposalId: '0' }),
		'proposalId',
		/1 or greater/,
	],
	[
		'proposal.approve: proposal ID 0 from an expression',
		proposal('approve', { proposalId: '={{ 0 }}' }),
		'proposalId',
		/1 or greater/,
	],
	[
		'proposal.reject: proposal ID "-61001" typed',
		proposal('reject', { proposalId: '-61001' }),
		'proposalId',
		/whole number/,
	],
	[
		'proposal.reopen: proposal ID "61001.5" typed',
		proposal('reopen', { proposalId: '61001.5' }),
		'proposalId',
		/whole number/,
	],
	[
		'proposal.putOnHold: proposal ID "6 1001" typed',
		proposal('putOnHold', { proposalId: '6 1001' }),
		'proposalId',
		/whole number/,
	],
	[
		'proposal.approve: malformed user e-mail (no domain dot)',
		proposal('approve', {}, { userEmail: 'someone@localhost' }),
		'additionalFields.userEmail',
		/e-mail address/,
	],
	[
		'proposal.approve: malformed user e-mail (double dot)',
		proposal('approve', {}, { userEmail: 'a..b@example.com' }),
		'additionalFields.userEmail',
		/e-mail address/,
	],
	[
		'proposal.approve: two e-mails in one User Email',
		proposal('approve', {}, { userEmail: 'a@example.com;b@example.com' }),
		'additionalFields.userEmail',
		/e-mail address/,
	],
	[
		'proposal.approve: malformed provider e-mail (space)',
		proposal('approve', {}, { providerEmail: 'name@exa mple.com' }),
		'additionalFields.providerEmail',
		/e-mail address/,
	],
	[
		'proposal.approve: provider e-mail as a number',
		proposal('approve', {}, { providerEmail: '={{ 42 }}' }),
		'additionalFields.providerEmail',
		/e-mail address/,
	],
	[
		'proposal.putOnHold: unknown actionSource enum value',
		proposal('putOnHold', {}, { actionSource: '={{ "Robot" }}' }),
		'additionalFields.actionSource',
		/Standard, DecisionEngine/,
	],
	[
		'proposal.reopen: comments as an object',
		proposal('reopen', {}, { comments: '={{ { text: "x" } }}' }),
		'additionalFields.comments',
		/must be text/,
	],
	[
		'proposal.reopen: fractional proposal ID',
		proposal('reopen', { proposalId: '={{ 61001.5 }}' }),
		'proposalId',
		/whole number/,
	],
	[
		'proposal.reject: rejection reason "abc"',
		proposal('reject', {}, { rejectReasonCodeId: '={{ "abc" }}' }),
		'additionalFields.rejectReasonCodeId',
		/whole number/,
	],
	[
		'proposal.reject: rejection reason 0',
		proposal('reject', {}, { rejectReasonCodeId: '={{ 0 }}' }),
		'additionalFields.rejectReasonCodeId',
		/1 or greater/,
	],
	[
		'proposal.reject: useProposalAlertEmails "maybe"',
		proposal('reject', {}, { useProposalAlertEmails: '={{ "maybe" }}' }),
		'additionalFields.useProposalAlertEmails',
		/true or false/,
	],

	// ---- workOrder.* ----
	[
		'workOrder.get: work order ID "1/2"',
		woGet({ workOrderId: '={{ "1/2" }}' }),
		'workOrderId',
		/whole number/,
	],
	[
		'workOrder.get: work order ID ".."',
		woGet({ workOrderId: '={{ ".." }}' }),
		'workOrderId',
		/whole number/,
	],
	[
		'workOrder.get: work order ID beyond 2^53 (9007199254740993)',
		woGet({ workOrderId: '={{ "9007199254740993" }}' }),
		'workOrderId',
		/too large/,
	],
	[
		'workOrder.get: work order ID "4e3"',
		woGet({ workOrderId: '={{ "4e3" }}' }),
		'workOrderId',
		/whole number/,
	],
	[
		'workOrder.get: work order ID null',
		woGet({ workOrderId: '={{ null }}' }),
		'workOrderId',
		/whole number/,
	],
	['workOrder.getAll: limit 0', woGetAll({ limit: '={{ 0 }}' }), 'limit', /1 or greater/],
	['workOrder.getAll: limit "abc"', woGetAll({ limit: '={{ "abc" }}' }), 'limit', /whole number/],
	[
		'workOrder.getAll: location ID "501)/x"',
		woGetAll({}, { locationId: '={{ "501)/x" }}' }),
		'options.locationId',
		/whole number/,
	],
	[
		'workOrder.getAll: location ID "0" typed (not "all locations")',
		woGetAll({}, { locationId: '0' }),
		'options.locationId',
		/1 or greater/,
	],
	[
		'workOrder.getAll: filter as an object',
		woGetAll({}, { filter: '={{ { a: 1 } }}' }),
		'options.filter',
		/must be text/,
	],
	[
		'workOrder.checkIn: latitude 91',
		checkIn({}, { latitude: '={{ 91 }}' }),
		'latitude',
		/-90 to 90/,
	],
	[
		'workOrder.checkIn: longitude -181',
		checkIn({}, { longitude: '={{ -181 }}' }),
		'longitude',
		/-180 to 180/,
	],
	[
		'workOrder.checkIn: latitude NaN',
		checkIn({}, { latitude: '={{ NaN }}' }),
		'latitude',
		/-90 to 90/,
	],
	[
		'workOrder.checkIn: latitude "north"',
		checkIn({}, { latitude: '={{ "north" }}' }),
		'latitude',
		/-90 to 90/,
	],
	[
		'workOrder.checkIn: latitude as hex text "0x10"',
		checkIn({}, { latitude: '={{ "0x10" }}' }),
		'latitude',
		/-90 to 90/,
	],
	[
		'workOrder.checkIn: repair without a position',
		checkIn({}, { latitude: '', longitude: '' }),
		'latitude',
		/required for a repair/,
	],
	[
		'workOrder.checkIn: latitude without longitude (travel)',
		checkIn({}, { workType: 'travel', longitude: '' }),
		'longitude',
		/together with the other coordinate/,
	],
	[
		'workOrder.checkIn: user ID 0',
		checkIn({ userId: '={{ 0 }}' }),
		'additionalFields.userId',
		/1 or greater/,
	],
	[
		'workOrder.checkIn: user ID "0" typed',
		checkIn({ userId: '0' }),
		'additionalFields.userId',
		/1 or greater/,
	],
	[
		'workOrder.checkIn: user ID "-4001" typed',
		checkIn({ userId: '-4001' }),
		'additionalFields.userId',
		/whole number/,
	],
	[
		'workOrder.checkIn: latitude "32.7767N" typed',
		checkIn({}, { latitude: '32.7767N' }),
		'latitude',
		/-90 to 90/,
	],
	[
		'workOrder.checkIn: techs count 0',
		checkIn({ techsCount: '={{ 0 }}' }),
		'additionalFields.techsCount',
		/from 1 to/,
	],
	[
		'workOrder.checkIn: user ID "4001/../4002"',
		checkIn({ userId: '={{ "4001/../4002" }}' }),
		'additionalFields.userId',
		/whole number/,
	],
	[
		'workOrder.checkIn: actor as an object',
		checkIn({ actor: '={{ { text: "on site" } }}' }),
		'additionalFields.actor',
		/must be text/,
	],
	[
		'workOrder.checkIn: custom work type 2',
		checkIn({}, { workType: 'custom', customWorkTypeId: '2' }),
		'customWorkTypeId',
		/3 or higher/,
	],
	[
		'workOrder.checkOut: primary status "Done"',
		checkOut({}, { primaryStatus: '={{ "Done" }}' }),
		'primaryStatus',
		/must be one of/,
	],
	[
		'workOrder.checkOut: fractional techs count',
		checkOut({ techsCount: '={{ 2.5 }}' }),
		'additionalFields.techsCount',
		/whole number/,
	],
	[
		'workOrder.checkOut: longitude Infinity',
		checkOut({}, { longitude: '={{ Infinity }}' }),
		'longitude',
		/-180 to 180/,
	],
	[
		'workOrder.checkOut: signature attachment and unable-to-obtain note together',
		checkOut({ signatureAttachmentId: '7', unableObtainSignatureNoteId: '8' }),
		'additionalFields.unableObtainSignatureNoteId',
		/cannot be sent together/,
	],

	// ---- workOrderNote.* ----
	['workOrderNote.create: empty note', noteCreate({ note: '   ' }), 'note', /must not be empty/],
	[
		'workOrderNote.create: note as an array',
		noteCreate({ note: '={{ ["a"] }}' }),
		'note',
		/must be text/,
	],
	[
		'workOrderNote.create: malformed address in Mailed To',
		noteCreate({}, { mailedTo: 'ops@example.com;not-an-address' }),
		'additionalFields.mailedTo',
		/e-mail address/,
	],
	[
		'workOrderNote.create: negative visibility',
		noteCreate({}, { visibility: '={{ -1 }}' }),
		'additionalFields.visibility',
		/must be default, all, notExternalSubscriber, notProvider or subscriberOnly/,
	],
	[
		'workOrderNote.create: visibility as a boolean',
		noteCreate({}, { visibility: '={{ true }}' }),
		'additionalFields.visibility',
		/must be default, all, notExternalSubscriber/,
	],
	[
		'workOrderNote.create: scheduled date "next week"',
		noteCreate({}, { scheduledDate: '={{ "next week" }}' }),
		'additionalFields.scheduledDate',
		/ISO 8601/,
	],
	[
		'workOrderNote.create: scheduled date "31/12/2025"',
		noteCreate({}, { scheduledDate: '={{ "31/12/2025" }}' }),
		'additionalFields.scheduledDate',
		/ISO 8601/,
	],
	[
		'workOrderNote.create: scheduled date "2025-13-45"',
		noteCreate({}, { scheduledDate: '={{ "2025-13-45" }}' }),
		'additionalFields.scheduledDate',
		/ISO 8601/,
	],
	[
		'workOrderNote.create: follow-up date with hour 25',
		noteCreate({}, { followUpDate: '={{ "2025-01-01T25:00:00Z" }}' }),
		'additionalFields.followUpDate',
		/ISO 8601/,
	],
	[
		'workOrderNote.create: follow-up date 2025-02-30 (no such day)',
		noteCreate({}, { followUpDate: '={{ "2025-02-30T10:00:00Z" }}' }),
		'additionalFields.followUpDate',
		/ISO 8601/,
	],
	[
		'workOrderNote.create: scheduled date as epoch milliseconds',
		noteCreate({}, { scheduledDate: '={{ 1735689600000 }}' }),
		'additionalFields.scheduledDate',
		/ISO 8601/,
	],
	[
		'workOrderNote.create: follow-up date as an object',
		noteCreate({}, { followUpDate: '={{ { d: 1 } }}' }),
		'additionalFields.followUpDate',
		/ISO 8601/,
	],
	[
		'workOrderNote.create: actionRequired "yes"',
		noteCreate({}, { actionRequired: '={{ "yes" }}' }),
		'additionalFields.actionRequired',
		/true or false/,
	],
	[
		'workOrderNote.create: attachment IDs "7, x"',
		noteCreate({}, { attachmentIds: '7, x' }),
		'additionalFields.attachmentIds',
		/whole number/,
	],
	[
		'workOrderNote.get: note ID int64 overflow 9223372036854775808',
		noteGet({ noteId: '9223372036854775808' }),
		'noteId',
		/64-bit maximum/,
	],
	[
		'workOrderNote.get: note ID int64 overflow as a number expression',
		noteGet({ noteId: '={{ 9223372036854775808 }}' }),
		'noteId',
		/lost digits/,
	],
	['workOrderNote.get: note ID "12/../3"', noteGet({ noteId: '12/../3' }), 'noteId', /digits only/],
	['workOrderNote.get: note ID 0', noteGet({ noteId: '0' }), 'noteId', /1 or greater/],
	[
		'workOrderNote.get: note ID as a number beyond 2^53',
		noteGet({ noteId: '={{ 9007199254740993 }}' }),
		'noteId',
		/lost digits/,
	],
	['workOrderNote.get: note ID "-15001"', noteGet({ noteId: '-15001' }), 'noteId', /digits only/],
	[
		'workOrderNote.get: fractional work order ID',
		noteGet({ workOrderId: '={{ 2.5 }}' }),
		'workOrderId',
		/whole number/,
	],
	['workOrderNote.getAll: limit -1', noteGetAll({ limit: '={{ -1 }}' }), 'limit', /1 or greater/],
	[
		'workOrderNote.getAll: work order ID "90000001/notes"',
		noteGetAll({ workOrderId: '={{ "90000001/notes" }}' }),
		'workOrderId',
		/whole number/,
	],
	[
		'workOrderNote.getAttachments: note ID "15001)/x"',
		noteAttachments({ noteId: '15001)/x' }),
		'noteId',
		/digits only/,
	],
	[
		'workOrderNote.getAttachments: note ID "0" (not "the whole work order")',
		noteAttachments({ noteId: '0' }),
		'noteId',
		/1 or greater/,
	],
	['workOrderNote.get: note ID of only spaces', noteGet({ noteId: '  ' }), 'noteId', /not empty/],
	[
		'workOrderNote.addAttachment: missing binary property',
		addAttachment({ binaryPropertyName: 'data' }),
		'binaryPropertyName',
		/no binary property "data"/,
	],
	[
		'workOrderNote.addAttachment: empty file (0 bytes)',
		addAttachment({ binaryPropertyName: 'file' }),
		'binaryPropertyName',
		/empty \(0 bytes\)/,
		fileItem('file', '', 'application/pdf', 'empty.pdf'),
	],
	[
		'workOrderNote.addAttachment: note ID ".."',
		addAttachment({ noteId: '..' }),
		'noteId',
		/digits only/,
		fileItem('data', JPEG, 'image/jpeg', 'a.jpg'),
	],
	[
		'workOrderNote.addAttachment: empty binary property name',
		addAttachment({ binaryPropertyName: '={{ "" }}' }),
		'binaryPropertyName',
		/must name the binary property/,
		fileItem('data', JPEG, 'image/jpeg', 'a.jpg'),
	],

	// ---- rejectionReason.getAll / subsidiary.getAll ----
	[
		'rejectionReason.getAll: limit -3',
		rejectionReasons({ limit: '={{ -3 }}' }),
		'limit',
		/1 or greater/,
	],
	[
		'rejectionReason.getAll: fractional limit',
		rejectionReasons({ limit: '={{ 2.5 }}' }),
		'limit',
		/whole number/,
	],
	['subsidiary.getAll: limit 0', subsidiaries({ limit: '={{ 0 }}' }), 'limit', /1 or greater/],
	[
		'subsidiary.getAll: limit as text "ten"',
		subsidiaries({ limit: '={{ "ten" }}' }),
		'limit',
		/whole number/,
	],
];

const counts = { tried: 0, refusedBeforeSending: 0 };

describe(`bad input is refused before any request (${CASES.length} cases)`, () => {
	test('the table has at least 40 cases across all six resources', () => {
		expect(CASES.length).toBeGreaterThanOrEqual(40);
		const resources = new Set(CASES.map(([, p]) => p.resource));
		expect([...resources].sort()).toEqual([
			'checklistResponse',
			'proposal',
			'rejectionReason',
			'subsidiary',
			'workOrder',
			'workOrderNote',
		]);
	});

	// every row gets all five columns (a missing one would make jest pass its done callback instead)
	test.each(CASES.map(([n, p, param, problem, it]) => [n, p, param, problem, it ?? null]))(
		'%s',
		async (_name, parameters, parameter, problem, inputItems) => {
			counts.tried++;
			const r = await env.run({ parameters, items: inputItems ?? [{ json: {} }] });
			// no API request at all (token requests are not counted)
			expect(r.api.map((q) => `${q.method} ${q.rawPath}`)).toEqual([]);
			expect(r.result.status).toBe('error');
			expect(r.error).toBeInstanceOf(NodeOperationError);
			expect(r.error).not.toBeInstanceOf(NodeApiError);
			expect(r.error.message).toContain(`(parameter "${parameter}")`);
			expect(r.error.message).toContain('in item 0');
			expect(r.error.message).toMatch(problem);
			expect(r.error.context.itemIndex).toBe(0);
			counts.refusedBeforeSending++;
		},
	);

	afterAll(() => {
		console.log(
			`[reliability] bad-input cases tried: ${counts.tried}, refused before sending: ${counts.refusedBeforeSending}`,
		);
	});
});

describe('a required field left empty: n8n refuses to run the node, nothing is sent', () => {
	const RL_EMPTY = { __rl: true, mode: 'list', value: '' };
	test.each([
		['Proposal', proposal('approve', { proposalId: '' })],
		['Proposal', proposal('approve', { proposalId: RL_EMPTY })],
		['Proposal', proposal('reject', { proposalId: 0 })],
		['Work Order', woGet({ workOrderId: RL_EMPTY })],
		['Work Order', checkIn({}, { workOrderId: { __rl: true, mode: 'id', value: '' } })],
		['Question', checklist({ questionId: '' })],
		['Provider', checklist({ providerId: '' })],
		['Technician ID', checklist({ technicianId: '' })],
		['Option', selector({ optionId: '' })],
		['Note ID', noteGet({ noteId: '' })],
		['Note ID', addAttachment({ noteId: '' })],
	])('%s (%#)', async (label, parameters) => {
		env.emulator.clearRequests();
		await expect(env.run({ parameters })).rejects.toThrow(`Parameter "${label}" is required`);
		expect(env.emulator.requests.filter((q) => q.path.startsWith('/api/'))).toEqual([]);
	});
});

describe('an optional ID left empty is not set (nothing sent for it)', () => {
	test('check-in: empty User ID, null from an expression, and an empty position of a travel check-in', async () => {
		const r = await env.run({
			parameters: checkIn(
				{ userId: '={{ null }}' },
				{ workType: 'travel', latitude: '', longitude: '={{ undefined }}' },
			),
		});
		expect(r.error).toBeUndefined();
		expect(r.api).toHaveLength(1);
		expect(r.api[0].body).toEqual({ WorkTypeId: 2 });
	});

	test('work orders of all locations when Location ID is empty', async () => {
		const r = await env.run({ parameters: woGetAll({}, { locationId: '' }) });
		expect(r.error).toBeUndefined();
		expect(r.api.map((q) => q.path)).toEqual(['/api/v3/odata/workorders']);
	});

	test('attachments of the whole work order when Note ID is empty', async () => {
		const r = await env.run({ parameters: noteAttachments({ noteId: '' }) });
		expect(r.error).toBeUndefined();
		expect(r.api.map((q) => q.path)).toEqual([`/api/v3/odata/workorders(${WO})/attachments`]);
	});
});

describe('blank numeric input', () => {
	test('a latitude that is only whitespace is never sent as 0 (refused, or treated as not given)', async () => {
		const r = await env.run({
			parameters: checkIn({}, { latitude: '={{ " " }}', longitude: '={{ -96.797 }}' }),
		});
		if (r.error) {
			expect(r.error).toBeInstanceOf(NodeOperationError);
			expect(r.error.message).toContain('(parameter "latitude")');
			expect(r.api).toHaveLength(0);
		} else {
			expect(r.api).toHaveLength(1);
			expect(r.api[0].body).not.toHaveProperty('Latitude');
		}
	});
});

describe('Continue On Fail with good and bad items mixed', () => {
	test('bad items become error items naming parameter and item, good ones succeed; one output per input, paired', async () => {
		// one checklist run; each item picks its own values through expressions
		const inputs = [
			{ workOrderId: WO, answer: 'mixed good 0' },
			{ workOrderId: -5, answer: 'mixed bad 1' },
			{ workOrderId: WO, answer: 'mixed good 2' },
			{ workOrderId: WO, answer: 'x'.repeat(501) },
			{ workOrderId: '12/../3', answer: 'mixed bad 4' },
			{ workOrderId: WO, answer: 'mixed good 5' },
			{ workOrderId: WO, answer: 'mixed bad 6', attempt: 0 },
			{ workOrderId: WO, answer: 'mixed good 7' },
		];
		const expected = {
			1: 'workOrderId',
			3: 'answer',
			4: 'workOrderId',
			6: 'attempt',
		};
		const r = await env.run({
			parameters: checklist({
				workOrderId: '={{ $json.workOrderId }}',
				answer: '={{ $json.answer }}',
				attempt: '={{ $json.attempt ?? 1 }}',
			}),
			items: items(...inputs),
			continueOnFail: true,
		});
		expect(r.result.status).toBe('success');
		expect(r.output).toHaveLength(inputs.length);
		expect(r.output.map((o) => o.pairedItem)).toEqual(inputs.map((_, i) => ({ item: i })));
		inputs.forEach((input, i) => {
			const json = r.output[i].json;
			if (expected[i]) {
				expect(json.CheckListResponse).toBeUndefined();
				expect(json.error).toContain(`(parameter "${expected[i]}")`);
				expect(json.error).toContain(`in item ${i}`);
				expect(json.errorDescription).toMatch(/Nothing was sent/);
			} else {
				expect(json.error).toBeUndefined();
				expect(json.CheckListResponse.Answer).toBe(input.answer);
			}
		});
		// only the good items reached the service, once each
		const posts = r.api.filter((q) => q.method === 'POST');
		expect(posts).toHaveLength(4);
		const stored = env.emulator.state.checklistResponses.filter((s) =>
			String(s.request.Answer).startsWith('mixed '),
		);
		expect(stored.map((s) => s.request.Answer).sort()).toEqual([
			'mixed good 0',
			'mixed good 2',
			'mixed good 5',
			'mixed good 7',
		]);
	});

	test('without Continue On Fail a bad item in the middle stops the run naming ITS index, after the earlier good items', async () => {
		const r = await env.run({
			parameters: checklist({
				workOrderId: '={{ $json.workOrderId }}',
				answer: '={{ $json.answer }}',
			}),
			items: items(
				{ workOrderId: WO, answer: 'stop good 0' },
				{ workOrderId: WO, answer: 'stop good 1' },
				{ workOrderId: 0, answer: 'stop bad 2' },
			),
		});
		expect(r.result.status).toBe('error');
		expect(r.error).toBeInstanceOf(NodeOperationError);
		expect(r.error.message).toContain('(parameter "workOrderId")');
		expect(r.error.message).toContain('in item 2');
		expect(r.error.context.itemIndex).toBe(2);
		// the bad item sent nothing
		expect(r.api).toHaveLength(2);
		expect(r.api.every((q) => q.status === 201)).toBe(true);
	});
});
