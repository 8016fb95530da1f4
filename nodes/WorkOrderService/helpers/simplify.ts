import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';

import { ownRecord, isRecord } from './values';

/**
 * n8n's "Simplify" for wide records (as nodes-base HubSpot, Jira): on by default, a compact set of
 * fields; off, the record as the service sent it. The compact work order keeps what a workflow
 * routes on and shows (reference names, service-reference.md section 7): IDs and numbers, status,
 * priority, trade, category, the problem, caller and NTE, where (location ID, store number and
 * name) and who (provider ID and name), and the dates as instants (the `_DTO` twins, which carry
 * the offset). A field the record does not have is left out, never invented.
 */
export const simplifyProperty: INodeProperties = {
	displayName: 'Simplify',
	name: 'simplify',
	type: 'boolean',
	default: true,
	description: 'Whether to return a simplified version of the response instead of the raw data',
};

/** Compact work order: top-level field -> the subfields kept of an object there (undefined: as it is). */
export const WORK_ORDER_COMPACT: Record<string, readonly string[] | undefined> = {
	Id: undefined,
	Number: undefined,
	PurchaseNumber: undefined,
	Status: ['Primary', 'Extended'],
	Priority: undefined,
	Trade: undefined,
	Category: undefined,
	Description: undefined,
	ProblemCode: undefined,
	Caller: undefined,
	Nte: undefined,
	IsInvoiced: undefined,
	LocationId: undefined,
	Location: ['Id', 'StoreId', 'Name'],
	Provider: ['Id', 'Name'],
	CallDate_DTO: undefined,
	ScheduledDate_DTO: undefined,
	UpdatedDate_DTO: undefined,
	CompletedDate_DTO: undefined,
};

function own(record: IDataObject, key: string): boolean {
	return Object.prototype.hasOwnProperty.call(record, key);
}

/** The record with only the compact fields (nested objects cut to their listed subfields). */
export function compactRecord(
	record: IDataObject,
	fields: Record<string, readonly string[] | undefined>,
): IDataObject {
	const entries: Array<[string, unknown]> = [];
	for (const [key, sub] of Object.entries(fields)) {
		if (!own(record, key)) continue;
		const value = record[key];
		if (sub === undefined || !isRecord(value)) entries.push([key, value]);
		else entries.push([key, ownRecord(sub.filter((s) => own(value, s)).map((s) => [s, value[s]]))]);
	}
	return ownRecord(entries);
}

/**
 * Work order records as the Simplify parameter of item i asks: compact when on (the default),
 * unchanged when off. `applies` false (e.g. the user chose the fields with $select) keeps them.
 */
export function simplifyWorkOrders(
	ctx: IExecuteFunctions,
	i: number,
	records: IDataObject[],
	applies = true,
): IDataObject[] {
	const simplify = ctx.getNodeParameter(simplifyProperty.name, i, true) as unknown;
	if (!applies || simplify === false || simplify === 'false') return records;
	return records.map((record) => compactRecord(record, WORK_ORDER_COMPACT));
}
