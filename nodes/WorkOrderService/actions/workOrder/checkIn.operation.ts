import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';

import type { WorkOrderServiceClient } from '../../transport';

import { checkInOut, checkInOutDescription } from './checkInOut';

export const description = checkInOutDescription('checkIn');

export async function execute(this: IExecuteFunctions, i: number, client: WorkOrderServiceClient): Promise<IDataObject[]> {
	return await checkInOut.call(this, i, client, 'checkIn');
}
