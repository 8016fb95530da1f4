import type { IBinaryKeyData, IDataObject } from 'n8n-workflow';

/**
 * Files an operation emits. Operations return their items' JSON (`IDataObject[]`); one that emits a
 * file marks the JSON with `withBinary`, and the router (actions/router.ts) builds the item from
 * `binaryOutputs`: `{ json, binary, pairedItem }`. The mark is kept beside the object, not in it, so
 * the JSON stays exactly what the operation returned.
 */
export const binaryOutputs = new WeakMap<IDataObject, IBinaryKeyData>();

export function withBinary(json: IDataObject, binary: IBinaryKeyData): IDataObject {
	binaryOutputs.set(json, binary);
	return json;
}
