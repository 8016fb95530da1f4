import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';

import { changeProposalStatus, proposalDescription } from './common';

export const description = proposalDescription('approve');

export async function execute(this: IExecuteFunctions, i: number): Promise<IDataObject[]> {
	return await changeProposalStatus.call(this, i, 'approve');
}
