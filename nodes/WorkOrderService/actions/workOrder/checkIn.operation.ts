import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';

import { checkInOut, checkInOutDescription } from './checkInOut';

export const description = checkInOutDescription('checkIn');

export async function execute(this: IExecuteFunctions, i: number): Promise<IDataObject[]> {
	return await checkInOut.call(this, i, 'checkIn');
}
