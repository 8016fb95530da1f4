import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';
import { NodeOperationError, updateDisplayOptions } from 'n8n-workflow';

import { withBinary, type WithFile } from '../../helpers/binaryOutput';
import { idField, noteIdField, workOrderIdField } from '../../helpers/fields';
import {
	collectionOf,
	fieldOf,
	int64Id,
	invalid,
	numberBetween,
	optionalText,
	positiveInteger,
	readParameter,
	readLocatorId,
} from '../../helpers/validation';
import { attachmentOut } from '../../helpers/noteIds';
import { readWorkOrderId } from '../../helpers/params';
import { isToolCall } from '../toolMode';
import { toRecords } from '../../transport/paging';
import type { WorkOrderServiceClient } from '../../transport/client';
import { downloadFile, type Downloaded } from '../../transport/download';
import { proposalIdProperty, PROPOSAL_ID } from '../proposal/fields';
import type { OperationMeta } from '../operation';

export const meta: OperationMeta = { safeToRepeat: true };

type Source = 'uri' | 'proposal' | 'workOrder' | 'workOrderNote';

const sourceProperty: INodeProperties = {
	displayName: 'Attachment Of',
	name: 'source',
	type: 'options',
	noDataExpression: true,
	options: [
		{
			name: 'Link From a Previous Step',
			value: 'uri',
			description: 'The Uri of an attachment record read by a previous step (e.g. Get Attachments)',
		},
		{
			name: 'Proposal',
			value: 'proposal',
			description: 'An attachment of a proposal, by the proposal and the attachment ID',
		},
		{
			name: 'Work Order',
			value: 'workOrder',
			description: 'An attachment of a work order, by the work order and the attachment ID',
		},
		{
			name: 'Work Order Note',
			value: 'workOrderNote',
			description: 'An attachment of a note, by the work order, the note and the attachment ID',
		},
	],
	default: 'uri',
};

const uriProperty: INodeProperties = {
	displayName: 'Uri',
	name: 'uri',
	type: 'string',
	required: true,
	default: '={{ $json.Uri }}',
	placeholder: 'e.g. {{ $json.Uri }}',
	description: "The attachment record's Uri, the address its file is downloaded from",
	displayOptions: { show: { source: ['uri'] } },
};

const attachmentIdProperty: INodeProperties = {
	...idField({
		displayName: 'Attachment ID',
		name: 'attachmentId',
		example: '880001',
		required: true,
		description: 'ID of the attachment (its Id in Get Attachments)',
	}),
	displayOptions: { show: { source: ['proposal', 'workOrder', 'workOrderNote'] } },
};

const outputProperty: INodeProperties = {
	displayName: 'Put Output File in Field',
	name: 'binaryPropertyName',
	type: 'string',
	required: true,
	default: 'data',
	hint: 'The name of the output binary field to put the file in',
	description: 'Name of the binary property of the output item that receives the file',
};

const fileNameOption: INodeProperties = {
	displayName: 'File Name',
	name: 'fileName',
	type: 'string',
	default: '',
	description:
		"Name to give the file. Default: the attachment's name, else the name the server sends, else the last part of the address.",
};

const maxSizeOption: INodeProperties = {
	displayName: 'Max File Size (MB)',
	name: 'maxFileSizeMb',
	type: 'number',
	default: 100,
	typeOptions: { minValue: 1, maxValue: 10240 },
	description: 'A larger file is refused (before its bytes are read when the server says its size)',
};

export const description = updateDisplayOptions(
	{ show: { resource: ['attachment'], operation: ['download'] } },
	[
		sourceProperty,
		uriProperty,
		{ ...proposalIdProperty, displayOptions: { show: { source: ['proposal'] } } },
		{ ...workOrderIdField, displayOptions: { show: { source: ['workOrder', 'workOrderNote'] } } },
		{ ...noteIdField, displayOptions: { show: { source: ['workOrderNote'] } } },
		attachmentIdProperty,
		outputProperty,
		collectionOf('options', [fileNameOption, maxSizeOption]),
	],
);

/** What to download: the address, the item's JSON, and the name the record gives the file. */
interface Target {
	uri: string;
	json: IDataObject;
	fileName?: string;
}

/** The attachment record, read through its owner's OData list with `$filter=Id eq {id}`. */
async function recordTarget(
	ctx: IExecuteFunctions,
	i: number,
	client: WorkOrderServiceClient,
	source: Exclude<Source, 'uri'>,
): Promise<Target> {
	let path: string;
	let owner: string;
	if (source === 'proposal') {
		const proposalId = readLocatorId(ctx, i, PROPOSAL_ID);
		[path, owner] = [`/odata/proposals(${proposalId})/attachments`, `proposal ${proposalId}`];
	} else {
		const workOrderId = readWorkOrderId(ctx, i);
		const noteId =
			source === 'workOrderNote' ? readParameter(ctx, i, noteIdField, int64Id) : undefined;
		path =
			noteId === undefined
				? `/odata/workorders(${workOrderId})/attachments`
				: `/odata/workorders(${workOrderId})/notes(${noteId})/attachments`;
		owner =
			noteId === undefined
				? `work order ${workOrderId}`
				: `note ${noteId} of work order ${workOrderId}`;
	}
	const attachmentId = readParameter(ctx, i, attachmentIdProperty, positiveInteger);
	readOutputField(ctx, i);
	const body = await client.request({
		method: 'GET',
		path,
		qs: { $filter: `Id eq ${attachmentId}` },
		itemIndex: i,
	});
	const record = toRecords(body).find((r) => String(r.Id) === String(attachmentId));
	if (!record || typeof record.Uri !== 'string' || record.Uri.trim() === '') {
		const what = record ? `has no Uri to download it from` : 'was not found';
		throw new NodeOperationError(ctx.getNode(), `Attachment ${attachmentId} of ${owner} ${what}`, {
			itemIndex: i,
			description: `Check the Attachment ID: Get Attachments of ${owner} lists the attachments this user can see. Nothing was downloaded.`,
		});
	}
	return {
		uri: record.Uri,
		json: attachmentOut(record),
		fileName: typeof record.Name === 'string' ? record.Name : undefined,
	};
}

/** The Uri parameter; the item's JSON is the input item's (the attachment record, typically). */
function uriTarget(ctx: IExecuteFunctions, i: number): Target {
	const value = ctx.getNodeParameter(uriProperty.name, i, '') as unknown;
	if (typeof value !== 'string' || value.trim() === '') {
		throw invalid(
			ctx.getNode(),
			i,
			fieldOf(uriProperty),
			'must be the address of the file, e.g. {{ $json.Uri }} after Get Attachments',
			value,
		);
	}
	readOutputField(ctx, i);
	const json = { ...(ctx.getInputData()[i]?.json ?? {}) };
	const fileName = json.Uri === value && typeof json.Name === 'string' ? json.Name : undefined;
	return { uri: value.trim(), json, fileName };
}

function readOutputField(ctx: IExecuteFunctions, i: number): string {
	const value = ctx.getNodeParameter(outputProperty.name, i, 'data') as unknown;
	if (typeof value !== 'string' || value.trim() === '')
		throw invalid(
			ctx.getNode(),
			i,
			fieldOf(outputProperty),
			'must name the output binary field, e.g. data',
			value,
		);
	return value.trim();
}

/**
 * A tool call's answer: what a model can use (the file exists, its name, type and size, and the
 * attachment record without its link), never the bytes, which a model cannot read; the answer says so.
 */
function toolAnswer(target: Target, file: Downloaded, source: Source): IDataObject {
	const record =
		source === 'uri'
			? {}
			: Object.fromEntries(Object.entries(target.json).filter(([key]) => key !== 'Uri'));
	return {
		...record,
		fileName: file.fileName,
		mimeType: file.mimeType,
		...(file.size !== undefined ? { fileSize: file.size } : {}),
		fileIncluded: false,
		note: 'The file is there and can be downloaded. A tool answer gives its name, type and size only, never its bytes: to store or send the file, a workflow must download it.',
	};
}

/** Downloads the attachment's file into the output item's binary field (a tool call: its metadata only). */
export async function execute(
	this: IExecuteFunctions,
	i: number,
	client: WorkOrderServiceClient,
): Promise<Array<IDataObject | WithFile>> {
	const source = this.getNodeParameter(sourceProperty.name, i) as Source;
	const fileName = readParameter(this, i, fileNameOption, optionalText, 'options');
	const maxMb = readParameter(this, i, maxSizeOption, numberBetween(1, 10240), 'options') ?? 100;
	const target =
		source === 'uri' ? uriTarget(this, i) : await recordTarget(this, i, client, source);
	const toolCall = isToolCall(this);
	const file = await downloadFile(this, client, {
		uri: target.uri,
		itemIndex: i,
		maxBytes: Math.floor(maxMb * 1048576),
		fileName: fileName ?? target.fileName,
		metadataOnly: toolCall,
	});
	if (toolCall || !file.binary) return [toolAnswer(target, file, source)];
	const input = this.getInputData()[i];
	return [
		withBinary(target.json, { ...(input?.binary ?? {}), [readOutputField(this, i)]: file.binary }),
	];
}
