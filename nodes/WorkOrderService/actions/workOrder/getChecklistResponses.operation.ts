import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { workOrderIdField } from '../../helpers/fields';
import { optionalBoolean, readFields, type FieldSpec } from '../../helpers/validation';
import { readWorkOrderId } from '../../helpers/params';
import { isRecord } from '../../helpers/values';
import { readList, type ListShape } from '../../transport/paging';
import type { WorkOrderServiceClient } from '../../transport/client';
import type { OperationMeta } from '../operation';

export const meta: OperationMeta = { safeToRepeat: true };

/** WoCheckListResponses: `{ Responses: [...] }`, one answer holds them all. */
const RESPONSES_LIST: ListShape = {
	listKey: 'Responses',
	records: (body) => {
		const list = isRecord(body) ? body.Responses : body;
		return Array.isArray(list) ? (list as IDataObject[]).filter(isRecord) : undefined;
	},
	total: () => undefined,
};

const getAllField: FieldSpec = {
	property: {
		displayName: 'Include Completed Checklists',
		name: 'includeCompletedChecklists',
		type: 'boolean',
		default: false,
		description:
			'Whether to add the answers of every completed checklist (earlier visits), not only the current one',
	},
	key: 'getAll',
	in: 'query',
	check: optionalBoolean,
};

export const description = updateDisplayOptions(
	{ show: { resource: ['workOrder'], operation: ['getChecklistResponses'] } },
	[workOrderIdField, getAllField.property],
);

/** GET /workorders/{workOrderId}/checklists-responses (WoCheckListResponses): one item per answer. */
export async function execute(
	this: IExecuteFunctions,
	i: number,
	client: WorkOrderServiceClient,
): Promise<IDataObject[]> {
	const workOrderId = readWorkOrderId(this, i);
	const { qs } = readFields(this, i, [getAllField]);
	// false is the service's default: only `getAll=true` is sent.
	if (qs.getAll !== true) delete qs.getAll;
	return await readList(this, client, RESPONSES_LIST, {
		path: `/workorders/${workOrderId}/checklists-responses`,
		qs,
		itemIndex: i,
	});
}
