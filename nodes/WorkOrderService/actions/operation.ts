import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';

import type { WithFile } from '../helpers/binaryOutput';
import type { WorkOrderServiceClient } from '../transport/client';

/**
 * What an operation file declares about itself, beside its parameters (`description`) and its
 * `execute`: read by the router (Concurrency default), the batch report (its verb) and the
 * AI-tool answers (a file a tool call cannot carry, whether a failed call may be repeated).
 */
export interface OperationMeta {
	/** Past tense for the batch report of a write ("created", "approved"); omit for reads. */
	verb?: string;
	/**
	 * True when sending it twice does no harm: reads, proposal moves, "set value" PUTs. False for
	 * POSTs that create something (note, attachment, checklist answer, check-in/out, work order):
	 * such operations run one item at a time unless the user raises Concurrency.
	 */
	safeToRepeat: boolean;
	/** The parameter naming an input binary field the operation sends, if any. */
	file?: { parameter: string; required: boolean };
}

/** An operation's output for one item: each item's JSON (or JSON with a file, helpers/binaryOutput.ts). */
export type OperationExecute = (
	this: IExecuteFunctions,
	i: number,
	client: WorkOrderServiceClient,
) => Promise<Array<IDataObject | WithFile>>;

/** An operation file (`<resource>/<operation>.operation.ts`): the router's map requires all three. */
export interface OperationModule {
	description: INodeProperties[];
	execute: OperationExecute;
	meta: OperationMeta;
}
