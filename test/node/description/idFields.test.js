'use strict';
/**
 * ID fields as a new user meets them in n8n's editor, for every resource/operation: they start
 * empty (never 0, never clamped, with a placeholder), the editor flags exactly the required ones
 * as missing, the IDs a user types are text, and the Work Order and the Proposal are From List / By ID
 * locators.
 */
const { NodeHelpers } = require('n8n-workflow');
const { useEnvironment } = require('../helpers');
const { editorView } = require('./editor');

const env = useEnvironment();
const { description, operations, freshParameters, shown, isId } = editorView(env);

describe('ID fields: empty, never 0, never clamped, required ones flagged', () => {
	test.each(operations().map((o) => [`${o.resource}.${o.operation}`, o]))('%s', (_name, chosen) => {
		const parameters = freshParameters(chosen);
		const ids = shown(parameters).filter(({ p }) => isId(p));
		for (const { path, p, inCollection } of ids) {
			const value = inCollection ? p.default : parameters[p.name];
			const plain = value !== null && typeof value === 'object' ? value.value : value;
			expect([path, plain]).toEqual([path, '']);
			expect([path, p.typeOptions?.minValue]).toEqual([path, undefined]);
			const placeholder =
				p.type === 'resourceLocator' ? p.modes.map((m) => m.placeholder).join(' ') : p.placeholder;
			expect([path, placeholder]).toEqual([path, expect.stringMatching(/\S/)]);
		}
		// the editor flags exactly the required IDs as missing on a fresh node
		const node = {
			name: 'Work Order Service',
			type: description().name,
			typeVersion: 1,
			parameters,
		};
		const issues =
			NodeHelpers.getNodeParametersIssues(description().properties, node, description())
				?.parameters ?? {};
		const requiredIds = ids
			.filter(({ p, inCollection }) => !inCollection && p.required)
			.map(({ path }) => path);
		const idPaths = new Set(ids.map(({ path }) => path));
		expect(
			Object.keys(issues)
				.filter((path) => idPaths.has(path))
				.sort(),
		).toEqual(requiredIds.sort());
	});

	test('the IDs a user types are text (nothing rounds or clamps them); the Work Order and the Proposal are From List / By ID locators', () => {
		const all = [];
		for (const chosen of operations())
			for (const { p } of shown(freshParameters(chosen))) if (isId(p)) all.push(p);
		const types = new Set(all.map((p) => `${p.name}:${p.type}`));
		expect([...types].sort()).toEqual(
			[
				'assetId:resourceLocator',
				'attachmentIds:string',
				'categoryId:string',
				'checkListResponseId:string',
				'checklistId:string',
				'currencyId:string',
				'declineReasonId:string',
				'followupWorkOrder:string',
				'invoiceId:resourceLocator',
				'issueAreaId:string',
				'labelId:string',
				'location:resourceLocator',
				'locationId:resourceLocator',
				'locationId:string',
				'locationIds:string',
				'signatureAttachmentId:string',
				'storeId:string',
				'unableObtainSignatureNoteId:string',
				'noteId:string',
				'optionId:resourceLocator',
				'pictureId:string',
				'projectId:string',
				'proposalId:resourceLocator',
				'providerId:string',
				'providerIds:string',
				'questionId:resourceLocator',
				'recallWorkOrder:string',
				'storeIds:string',
				'subscriberId:string',
				'tagId:string',
				'technicianId:string',
				'trackingNumber:string',
				'tradeId:string',
				'userId:string',
				'weatherTypeId:string',
				'workOrderId:resourceLocator',
				'workOrderIds:string',
			].sort(),
		);
		const locator = all.find((p) => p.name === 'workOrderId');
		expect(locator.modes.map((m) => [m.name, m.displayName])).toEqual([
			['list', 'From List'],
			['id', 'By ID'],
		]);
		expect(locator.modes[0].typeOptions).toEqual({
			searchListMethod: 'searchWorkOrders',
			searchable: true,
		});
		const proposal = all.find((p) => p.name === 'proposalId');
		expect(proposal.modes.map((m) => [m.name, m.displayName])).toEqual([
			['list', 'From List'],
			['id', 'By ID'],
		]);
		expect(proposal.modes[0].typeOptions).toEqual({
			searchListMethod: 'searchProposals',
			searchable: true,
		});
		const invoice = all.find((p) => p.name === 'invoiceId');
		expect(invoice.modes.map((m) => [m.name, m.displayName])).toEqual([
			['list', 'From List'],
			['id', 'By ID'],
		]);
		expect(invoice.modes[0].typeOptions).toEqual({
			searchListMethod: 'searchInvoices',
			searchable: true,
		});
	});

	test('Get Attachments: Note ID is optional and says that empty means the whole work order', () => {
		const noteId = shown(
			freshParameters({ resource: 'workOrderNote', operation: 'getAttachments' }),
		).find(({ path }) => path === 'noteId').p;
		expect(noteId.required).toBeFalsy();
		expect(noteId.placeholder).toMatch(/leave empty for the whole work order/i);
	});

	test('check-in/out: Latitude and Longitude are top-level fields (the reference requires the position) and start empty', () => {
		for (const operation of ['checkIn', 'checkOut']) {
			const fields = shown(freshParameters({ resource: 'workOrder', operation })).filter(
				({ path }) => /itude$/.test(path),
			);
			expect(fields.map(({ path, p }) => [path, p.default])).toEqual([
				['latitude', ''],
				['longitude', ''],
			]);
		}
	});
});
