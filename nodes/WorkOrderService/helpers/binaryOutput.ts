import type { IBinaryKeyData, IDataObject } from 'n8n-workflow';

/**
 * An output item with a file. Operations return their items' JSON; one that emits a file returns
 * `withBinary(json, binary)` instead, and the router (actions/router.ts) builds the item
 * `{ json, binary, pairedItem }` from it: the JSON stays exactly what the operation made.
 */
export class WithFile {
	constructor(
		readonly json: IDataObject,
		readonly binary: IBinaryKeyData,
	) {}
}

export function withBinary(json: IDataObject, binary: IBinaryKeyData): WithFile {
	return new WithFile(json, binary);
}
