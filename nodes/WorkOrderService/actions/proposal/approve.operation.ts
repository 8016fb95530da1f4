import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';

import type { WorkOrderServiceClient } from '../../transport';

import { changeProposalStatus, proposalDescription } from './common';

export const description = proposalDescription('approve');

export async function execute(this: IExecuteFunctions, i: number, client: WorkOrderServiceClient): Promise<IDataObject[]> {
	return await changeProposalStatus.call(this, i, client, 'approve');
}
