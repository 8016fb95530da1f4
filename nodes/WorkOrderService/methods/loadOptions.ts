import type { IDataObject, ILoadOptionsFunctions, INodePropertyOptions } from 'n8n-workflow';

import { WHOLE_LIST, readList } from '../transport/paging';
import { WorkOrderServiceClient } from '../transport/client';

function firstString(record: IDataObject, keys: string[]): string | undefined {
	for (const key of keys) {
		const value = record[key];
		if (typeof value === 'string' && value.trim() !== '') return value.trim();
		if (typeof value === 'number') return String(value);
	}
	return undefined;
}

/** Rejection reason codes (GET /proposals/RejectionReasons) for the Reject operation's dropdown. */
export async function getRejectionReasons(
	this: ILoadOptionsFunctions,
): Promise<INodePropertyOptions[]> {
	const client = WorkOrderServiceClient.forNode(this);
	const options: INodePropertyOptions[] = [];
	for (const record of await readList(this, client, WHOLE_LIST, {
		path: '/proposals/RejectionReasons',
	})) {
		const id =
			record.Id ?? record.ID ?? record.id ?? record.RejectReasonCodeId ?? record.ReasonCodeId;
		if (typeof id !== 'number' && typeof id !== 'string') continue;
		const name =
			firstString(record, ['Description', 'Name', 'Reason', 'Text', 'Code']) ?? `Reason ${id}`;
		const code = firstString(record, ['Code']);
		options.push({ name: code && code !== name ? `${name} (${code})` : name, value: id });
	}
	return options.sort((a, b) => a.name.localeCompare(b.name));
}
