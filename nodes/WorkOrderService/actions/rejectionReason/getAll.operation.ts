import { wholeListOperation } from '../wholeList';

/** Get Many: GET /proposals/RejectionReasons, one unpaged list, one item per record (../wholeList.ts). */
export const { description, execute, meta } = wholeListOperation('rejectionReason');
