import type { IDataObject, INodeProperties } from 'n8n-workflow';

/**
 * Simplify (n8n's convention for wide records): a proposal (the reference's `Proposal`, about 40
 * properties, the whole work order among them) cut to the fields a workflow usually needs, under
 * the reference's own names and nesting, so that `$json.Amount`, `$json.Status.Primary` or
 * `$json.WorkOrder.Id` read the same with Simplify on or off.
 */

export const simplifyProperty: INodeProperties = {
	displayName: 'Simplify',
	name: 'simplify',
	type: 'boolean',
	default: true,
	description: 'Whether to return a simplified version of the response instead of the raw data',
};

/** Top-level field -> true (kept whole) or the fields kept of a nested object. */
const COMPACT: Record<string, true | string[]> = {
	Id: true,
	Number: true,
	Description: true,
	Amount: true,
	Currency: ['AlphabeticalCode'],
	Status: ['Primary', 'Extended', 'ModifiedDate_dto', 'ModifiedBy'],
	WorkOrder: ['Id', 'Number', 'PurchaseNumber'],
	Location: ['Id', 'StoreId', 'Name'],
	Provider: ['Id', 'Name'],
	Trade: ['Id', 'Name'],
	PoNumber: true,
	CreatedDate_dto: true,
	UpdatedDateDto: true,
};

/** The compact fields a simplified proposal keeps (for the docs and tests). */
export const COMPACT_FIELDS = Object.keys(COMPACT);

function pick(value: unknown, keys: string[]): unknown {
	if (value === null || typeof value !== 'object' || Array.isArray(value)) return value;
	const out: IDataObject = {};
	for (const key of keys) if (key in (value as IDataObject)) out[key] = (value as IDataObject)[key];
	return out;
}

/** The compact form of a proposal: only the fields above that it has. */
export function simplifyProposal(record: IDataObject): IDataObject {
	const out: IDataObject = {};
	for (const [key, keep] of Object.entries(COMPACT)) {
		if (!Object.prototype.hasOwnProperty.call(record, key)) continue;
		out[key] = (keep === true ? record[key] : pick(record[key], keep)) as IDataObject[string];
	}
	return out;
}
