import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import {
	invalid,
	optionalInt64Id,
	optionalPositiveInteger,
	readFields,
	textUpTo,
	type FieldSpec,
} from '../../helpers/validation';
import type { WorkOrderServiceClient } from '../../transport/client';
import type { OperationMeta } from '../operation';

import {
	REPAIR,
	TRAVEL,
	readVisit,
	sendVisit,
	visitOptions,
	visitProperties,
} from './checkInOutFields';

/**
 * Check Out: POST /workorders/{id}/universalCheckOut with the reference's CheckOutRequest. The
 * node checks the reference's rules before it sends anything: the position for a repair or travel
 * check-out unless it is a Cancel; Primary Status, Extended Status and Resolution on a repair only,
 * Resolution not on a Cancel, Extended Status with a Primary Status that changes the status; never
 * both signature fields. The service answers `{ MechanicId }`.
 */

export const meta: OperationMeta = { verb: 'checked out', safeToRepeat: false };

const actionStatusProperty: INodeProperties = {
	displayName: 'Action Status',
	name: 'actionStatus',
	type: 'options',
	default: 'Complete',
	options: [
		{ name: 'Complete', value: 'Complete', description: 'Finish the visit (the default)' },
		{
			name: 'Cancel',
			value: 'Cancel',
			description: 'Pause: records a check-out without finishing',
		},
	],
	description: 'Whether the visit ends or pauses (ActionStatus); both record a check-out',
};

const PRIMARY_STATUSES = [
	'NoStatusChange',
	'InProgress',
	'Completed',
	'WaitingForQuote',
	'PartsOnOrder',
	'Incomplete',
] as const;

const primaryStatusProperty: INodeProperties = {
	displayName: 'Primary Status',
	name: 'primaryStatus',
	type: 'options',
	default: 'NoStatusChange',
	displayOptions: { show: { workType: ['repair'], actionStatus: ['Complete'] } },
	options: [
		{ name: 'Completed', value: 'Completed' },
		{ name: 'In Progress', value: 'InProgress' },
		{ name: 'Incomplete', value: 'Incomplete' },
		{ name: 'No Status Change', value: 'NoStatusChange' },
		{ name: 'Parts On Order', value: 'PartsOnOrder' },
		{ name: 'Waiting For Quote', value: 'WaitingForQuote' },
	],
	description:
		'Status to set on the work order with a repair check-out (PrimaryStatus); the default leaves it as it is',
};

/** The optional fields of a check-out (beyond those both share), in the order they are checked. */
const checkOutOptions: FieldSpec[] = [
	{
		property: {
			displayName: 'Extended Status',
			name: 'extendedStatus',
			type: 'string',
			default: '',
			placeholder: 'e.g. PENDING CONFIRMATION',
			description: 'Extended status to set with the Primary Status (ExtendedStatus); repair only',
		},
		key: 'ExtendedStatus',
		check: textUpTo(100),
	},
	{
		property: {
			displayName: 'Resolution',
			name: 'resolution',
			type: 'string',
			default: '',
			typeOptions: { rows: 3 },
			description: 'What was done (Resolution); repair only, not on Cancel',
		},
		key: 'Resolution',
		check: textUpTo(4000),
	},
	{
		property: {
			displayName: 'Signature Attachment ID',
			name: 'signatureAttachmentId',
			type: 'string',
			default: '',
			placeholder: 'e.g. 880101',
			description:
				"Attachment holding the customer's signature (SignatureAttachmentId). Not together with Unable To Obtain Signature Note ID.",
		},
		key: 'SignatureAttachmentId',
		check: optionalPositiveInteger,
	},
	{
		property: {
			displayName: 'Unable To Obtain Signature Note ID',
			name: 'unableObtainSignatureNoteId',
			type: 'string',
			default: '',
			placeholder: 'e.g. 9007199254741000',
			description:
				'Note that explains why there is no signature (UnableObtainSignatureNoteId, a 64-bit note ID). Not together with Signature Attachment ID.',
		},
		key: 'UnableObtainSignatureNoteId',
		check: optionalInt64Id,
	},
	...visitOptions('checkOut'),
];

export const description = updateDisplayOptions(
	{ show: { resource: ['workOrder'], operation: ['checkOut'] } },
	visitProperties([actionStatusProperty], [primaryStatusProperty], checkOutOptions),
);

/** A note ID as JSON: a number while exact, else its exact digits as a string (the reference takes both for note IDs). */
function noteIdValue(digits: string): number | string {
	const n = Number(digits);
	return Number.isSafeInteger(n) ? n : digits;
}

/** The reference's rules on the chosen fields, before any request (see the top of this file). */
function checkRules(
	ctx: IExecuteFunctions,
	i: number,
	body: IDataObject,
	workTypeId: number,
	cancel: boolean,
): void {
	const refuse = (name: string, label: string, problem: string, value: unknown) =>
		invalid(ctx.getNode(), i, { name, label }, problem, value);
	if (body.SignatureAttachmentId !== undefined && body.UnableObtainSignatureNoteId !== undefined) {
		throw refuse(
			'additionalFields.unableObtainSignatureNoteId',
			'Unable To Obtain Signature Note ID',
			'cannot be sent together with Signature Attachment ID (give one of them)',
			body.UnableObtainSignatureNoteId,
		);
	}
	if (body.Resolution !== undefined && (workTypeId !== REPAIR || cancel)) {
		throw refuse(
			'additionalFields.resolution',
			'Resolution',
			'is for a repair check-out that is not a Cancel',
			body.Resolution,
		);
	}
	if (
		body.ExtendedStatus !== undefined &&
		(workTypeId !== REPAIR || cancel || body.PrimaryStatus === undefined)
	) {
		throw refuse(
			'additionalFields.extendedStatus',
			'Extended Status',
			'needs a repair check-out (Complete) with a Primary Status that changes the status',
			body.ExtendedStatus,
		);
	}
}

/** The item: `{ success, operation, workOrderId }` and the service's answer (`MechanicId`). */
export async function execute(
	this: IExecuteFunctions,
	i: number,
	client: WorkOrderServiceClient,
): Promise<IDataObject[]> {
	const cancel =
		(this.getNodeParameter(actionStatusProperty.name, i, 'Complete') as string) === 'Cancel';
	const { workOrderId, workTypeId, position } = readVisit(this, i, (type) =>
		!cancel && (type === REPAIR || type === TRAVEL)
			? 'for a repair or travel check-out that is not a Cancel'
			: undefined,
	);
	const body: IDataObject = {
		WorkTypeId: workTypeId,
		ActionStatus: cancel ? 'Cancel' : 'Complete',
		...position,
	};
	if (workTypeId === REPAIR && !cancel) {
		const primary = this.getNodeParameter(
			primaryStatusProperty.name,
			i,
			'NoStatusChange',
		) as string;
		if (!(PRIMARY_STATUSES as readonly string[]).includes(primary)) {
			throw invalid(
				this.getNode(),
				i,
				{ name: 'primaryStatus', label: 'Primary Status' },
				`must be one of ${PRIMARY_STATUSES.join(', ')}`,
				primary,
			);
		}
		if (primary !== 'NoStatusChange') body.PrimaryStatus = primary;
	}
	Object.assign(body, readFields(this, i, checkOutOptions, 'additionalFields').body);
	checkRules(this, i, body, workTypeId, cancel);
	if (typeof body.UnableObtainSignatureNoteId === 'string')
		body.UnableObtainSignatureNoteId = noteIdValue(body.UnableObtainSignatureNoteId);
	return await sendVisit(this, i, client, { operation: 'checkOut', workOrderId, body });
}
